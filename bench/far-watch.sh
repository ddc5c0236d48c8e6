#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The engine's process over ssh (issue 25): what following it costs the far
# side, and whether sampling an ssh host that follows it moves what iperf3
# measures.
#
# 1. Far-side cost (build/far-watch-bench): the ssh host's sampler loop run
#    here by sh as sshd would run it, section `c` at 100 ms, for 10 s a
#    block, with and without the token, blocks ordered plain, watch,
#    watch, plain (x PAIRS/2), beside a running iperf3 pair on loopback
#    whose two processes the watch files name. The loop's CPU (its sh and
#    sleeps) per frame; the engine.cpu its frames give.
# 2. Fidelity: the lab link shaped with tbf (`xrun lab up --rate RATE`),
#    the iperf3 server on an ssh host (a test sshd in the server namespace,
#    reached over a second, unshaped veth pair: the sampler's frames do not
#    cross the shaped link), the client in the client namespace. Blocks
#    bare, off, 100ms, 100ms, off, bare (`sample: 100ms` with
#    counters nic, tcp, cpu: the far loop follows the server). Each block's
#    median receiver throughput, the ratio of medians to bare, and the far
#    engine.cpu points per run.
# Usage (root): bash bench/far-watch.sh [RUNS_PER_BLOCK] [DURATION_S] [RATE] [PAIRS]
#   (defaults 5, 5, 1000mbit, 4)
set -eu
. "$(dirname "$0")/lib.sh"
runs=${1:-5}
dur=${2:-5}
rate=${3:-1000mbit}
pairs=${4:-4}
fwb=${FAR_WATCH_BENCH:-$top/build/far-watch-bench}
[ -x "$fwb" ] || { echo "build far-watch-bench first (cmake --build build)" >&2; exit 1; }
bench_lab xfw --rate "$rate"
# (set +e: a kill of what has already ended must not stop the cleanup)
trap 'set +e; [ -n "${sshd:-}" ] && kill $sshd 2>/dev/null; pkill -f "iperf3 -s -p $((port + 2))" 2>/dev/null
      "$xrun" lab down --prefix $pfx >/dev/null 2>&1; ip link del ${pfx}m0 2>/dev/null; rm -rf "$work"; true' EXIT
uptime

# ---- 1. the far loop's cost ---------------------------------------------
iperf3 -s -p $((port + 2)) >/dev/null 2>&1 &
srv=$!
sleep 0.3
iperf3 -c 127.0.0.1 -p $((port + 2)) -t $((pairs * 25)) -b 2G >/dev/null 2>&1 &
cli=$!
sleep 1
for p in $(seq "$pairs"); do
	if [ $((p % 2)) = 1 ]; then order="plain watch"; else order="watch plain"; fi
	for m in $order; do
		"$fwb" "$m" 10 0.1 "$srv" "$cli" | tee -a "$work/loop"
	done
done
kill $cli $srv 2>/dev/null || true
wait 2>/dev/null || true

# ---- 2. fidelity over ssh on the shaped link ------------------------------
ip link add ${pfx}m0 type veth peer name ${pfx}m1
ip link set ${pfx}m1 netns "$pfx-server"
ip addr add 10.231.0.1/30 dev ${pfx}m0
ip link set ${pfx}m0 up
ip netns exec "$pfx-server" ip addr add 10.231.0.2/30 dev ${pfx}m1
ip netns exec "$pfx-server" ip link set ${pfx}m1 up
ip netns exec "$pfx-server" ip link set lo up
ssh-keygen -q -t ed25519 -N '' -f "$work/host_key" </dev/null
ssh-keygen -q -t ed25519 -N '' -f "$work/client_key" </dev/null
cp "$work/client_key.pub" "$work/authorized_keys"
chmod 600 "$work/authorized_keys"
mkdir -p -m 700 "$work/run"
sport=$((port + 3))
cat >"$work/sshd_config" <<EOF
Port $sport
ListenAddress 10.231.0.2
HostKey $work/host_key
AuthorizedKeysFile $work/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
StrictModes no
UsePAM no
MaxSessions 50
MaxStartups 50
SetEnv XDG_RUNTIME_DIR=$work/run
EOF
mkdir -p /run/sshd
ip netns exec "$pfx-server" /usr/sbin/sshd -D -f "$work/sshd_config" -E "$work/sshd.log" &
sshd=$!
for _ in $(seq 50); do
	ip netns exec "$pfx-server" ss -ltn "sport = :$sport" | grep -q LISTEN && break
	sleep 0.1
done
ip netns exec "$pfx-server" ss -ltn "sport = :$sport" | grep -q LISTEN ||
	{ echo "the bench's sshd did not start:" >&2; cat "$work/sshd.log" >&2; exit 1; }

plan() { # name sample
	cat <<PLAN
xrun: 1
name: $1
hosts:
  client: {netns: $pfx-client, address: 198.18.0.1, iface: $pfx-veth}
  server: {ssh: "root@10.231.0.2", port: $sport, identity: "$work/client_key", address: 198.18.0.2, iface: $pfx-veth, ssh_options: [-o, StrictHostKeyChecking=no, -o, UserKnownHostsFile=/dev/null]}
engine:
  type: iperf3
  client: client
  server: { host: server, start: true }
  port: $((port + 1))
  duration: ${dur}s
sample: $2
counters: [nic, tcp, cpu]
factors:
  streams: { levels: [1], param: parallel }
repeat: $runs
PLAN
}
xrun_block() { # block sample
	plan "farwatch$1" "$2" >"$work/plan-$1.yaml"
	"$xrun" run "$work/plan-$1.yaml" --db "$work/x$1.db" --unattended --yes \
		2>"$work/xrun-$1.err" || { cat "$work/xrun-$1.err" >&2; exit 1; }
	echo "$2" >"$work/variant-$1"
}
bench_bare 1 "$runs" "$dur"
xrun_block 2 off
xrun_block 3 100ms
xrun_block 4 100ms
xrun_block 5 off
bench_bare 6 "$runs" "$dur"
uptime
left=$(ls -A "$work/run")
python3 - "$work" "$rate" "$runs" "$dur" "$left" <<'PY'
import glob, json, os, sqlite3, statistics, sys, time
work, rate, runs, dur, left = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
rows = [l.split() for l in open(f"{work}/loop")]
print(f"far loop, section c at 100 ms, 10 s blocks; {os.cpu_count()} cpus; "
      f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
for mode in ("plain", "watch"):
    b = [r for r in rows if r[0] == mode]
    print(f"  {mode}: CPU ms per frame, median of {len(b)} blocks "
          f"{statistics.median(float(r[2]) for r in b):.3f} "
          f"(blocks {', '.join(r[2] for r in b)}); frames {', '.join(r[1] for r in b)}; "
          f"engine.cpu points {', '.join(r[3] for r in b)}, mean % of a core {', '.join(r[4] for r in b)}")
med = lambda v: statistics.median(v) / 1e6
by = {}
print(f"fidelity: rate {rate}; {runs} runs x {dur:g} s per block; server over ssh")
for b in range(1, 7):
    if b in (1, 6):
        v = [json.load(open(f))["end"]["sum_received"]["bits_per_second"]
             for f in sorted(glob.glob(f"{work}/bare-{b}-*.json"))]
        var, pts = "bare", None
    else:
        var = open(f"{work}/variant-{b}").read().strip()
        db = sqlite3.connect(f"{work}/x{b}.db")
        v = [r[0] for r in db.execute(
            "select value from results where metric='throughput' and status='ok'")]
        pts = [r[0] for r in db.execute(
            "select count(s.run_id) from runs r left join series s on s.run_id = r.id "
            "and s.host = 'server' and s.name = 'engine.cpu' and s.value is not null "
            "group by r.id")]
        notes = [r[0] for r in db.execute("select note from series_notes")]
    by.setdefault(var, []).extend(v)
    print(f"  block {b} {var:6} median {med(v):8.1f} Mbit/s ({min(v)/1e6:.1f}..{max(v)/1e6:.1f})"
          + (f"; far engine.cpu points a run {pts}" if pts is not None else "")
          + (f"; notes {notes}" if pts is not None and notes else ""))
for var in ("off", "100ms"):
    print(f"  {var}: ratio of medians xrun/bare {statistics.median(by[var]) / statistics.median(by['bare']):.4f}")
print(f"  watch files left over there: {left or 'none'}")
PY
