#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What reading a host's facts again after a change costs (issue 34 Deliver
# 1, runner/exec/runfacts.c): an ssh host (a bench sshd in the lab's server
# namespace, reached over a second veth pair) whose MTU a factor's apply
# hook sets (1500 / 1400 alternating in ABBA order: a change at every
# level switch), with a command engine that takes no time, so that each
# run is the hook, the read and the store. The cost of a change is read
# from the store: each apply fact set's read_at (stored when the read
# ended) less its hook row's at (stored when the hook ended): the read of
# the groups an apply hook can change (facts.h FACTS_APPLY) over the one
# persistent far shell, and the set's insert. Also the whole-run wall time
# of runs with a change against runs without one (a verify-only run: no
# read).
# Usage (root): bash bench/facts-reread.sh [REPEAT]   (default 20)
set -eu
. "$(dirname "$0")/lib.sh"
rep=${1:-20}
bench_lab xfr
trap 'set +e; [ -n "${sshd:-}" ] && kill $sshd 2>/dev/null
      "$xrun" lab down --prefix $pfx >/dev/null 2>&1; ip link del ${pfx}m0 2>/dev/null; rm -rf "$work"; true' EXIT
ip link add ${pfx}m0 type veth peer name ${pfx}m1
ip link set ${pfx}m1 netns "$pfx-server"
ip addr add 10.232.0.1/30 dev ${pfx}m0
ip link set ${pfx}m0 up
ip netns exec "$pfx-server" ip addr add 10.232.0.2/30 dev ${pfx}m1
ip netns exec "$pfx-server" ip link set ${pfx}m1 up
ip netns exec "$pfx-server" ip link set lo up
ssh-keygen -q -t ed25519 -N '' -f "$work/host_key" </dev/null
ssh-keygen -q -t ed25519 -N '' -f "$work/client_key" </dev/null
cp "$work/client_key.pub" "$work/authorized_keys"
chmod 600 "$work/authorized_keys"
sport=$((port + 3))
cat >"$work/sshd_config" <<CONF
Port $sport
ListenAddress 10.232.0.2
HostKey $work/host_key
AuthorizedKeysFile $work/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
StrictModes no
UsePAM no
MaxSessions 50
MaxStartups 50
CONF
mkdir -p /run/sshd
ip netns exec "$pfx-server" /usr/sbin/sshd -D -f "$work/sshd_config" -E "$work/sshd.log" &
sshd=$!
for _ in $(seq 50); do
	ip netns exec "$pfx-server" ss -ltn "sport = :$sport" | grep -q LISTEN && break
	sleep 0.1
done
cat >"$work/f.yaml" <<PLAN
xrun: 1
name: facts-reread
hosts:
  far: {ssh: "root@10.232.0.2", port: $sport, identity: "$work/client_key", iface: $pfx-veth, ssh_options: [-o, StrictHostKeyChecking=no, -o, UserKnownHostsFile=/dev/null]}
engine:
  type: command
  run: [echo, "value 1"]
  metrics:
    v: { regex: 'value ([0-9]+)', unit: "1" }
factors:
  mtu:
    levels: ["1500", "1400"]
    apply: [ip, link, set, dev, "{{iface}}", mtu, "{{mtu}}"]
    verify: { probe: nic.mtu }
    on: [far]
repeat: $rep
sample: off
counters: none
PLAN
uptime
"$xrun" run "$work/f.yaml" --db "$work/f.db" --unattended 2>"$work/run.err" ||
	{ cat "$work/run.err" >&2; exit 1; }
python3 - "$work/f.db" <<'PY'
import sqlite3, statistics, sys, time, os
db = sqlite3.connect(sys.argv[1])
hooks = db.execute("select at from hooks where kind = 'apply' and host = 'far' order by at").fetchall()
sets = db.execute("select read_at from fact_sets where cause = 'apply' and host = 'far' order by read_at").fetchall()
d = []
for (r,) in sets:
    before = [a for (a,) in hooks if a <= r]
    if before:
        d.append(1e3 * (r - before[-1]))
runs = db.execute("select r.elapsed, r.started_at, r.id from runs r where r.status = 'ok' order by r.position").fetchall()
# a run's wall time from the end of the run before it: hooks, read, verify, engine, store
changed = {rid for (rid,) in db.execute("select distinct run_id from hooks where kind = 'apply'")}
ends = db.execute("select id, started_at, ended_at from runs where status = 'ok' order by position").fetchall()
w_change, w_none = [], []
for (a, b) in zip(ends, ends[1:]):
    gap = 1e3 * (b[2] - a[2])
    (w_change if b[0] in changed else w_none).append(gap)
print("facts read again after a change on an ssh host (%d cpus, %s)" % (os.cpu_count(), time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())))
print("apply hooks %d, apply fact sets %d (a set per change: the MTU differs)" % (len(hooks), len(sets)))
if d:
    q = statistics.quantiles(d, n=4) if len(d) > 3 else [min(d), statistics.median(d), max(d)]
    print("hook end -> set stored: median %.1f ms, quartiles %.1f-%.1f, range %.1f-%.1f ms" % (statistics.median(d), q[0], q[-1], min(d), max(d)))
# where a changed run's time goes: the run before's end -> its apply
# hook's end (the hook) -> its set stored (the read) -> its start
steps = []
for (a, b) in zip(ends, ends[1:]):
    if b[0] not in changed:
        continue
    h = db.execute("select max(at) from hooks where run_id = ? and kind = 'apply'", (b[0],)).fetchone()[0]
    s = db.execute("select min(read_at) from fact_sets where cause = 'apply' and read_at >= ?", (h,)).fetchone()[0]
    if h and s:
        steps.append((1e3 * (h - a[2]), 1e3 * (s - h), 1e3 * (b[1] - s)))
if steps:
    print("a changed run: hook %.0f ms, read %.0f ms, the rest to its start %.0f ms (medians)" % tuple(
        statistics.median(x[i] for x in steps) for i in range(3)))
if w_change and w_none:
    print("run to run, with a change: median %.1f ms (%d); without: median %.1f ms (%d); difference %.1f ms" % (
        statistics.median(w_change), len(w_change), statistics.median(w_none), len(w_none),
        statistics.median(w_change) - statistics.median(w_none)))
PY
uptime
