#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 19's latency probe on a real shaped link (root only): `xrun lab up
# --rate 20mbit`, a plan with `latency: { probe: ping ... }` beside iperf3.
# - real loss: nft drops 20% of a range of echo requests at random; the
#   stored latency.loss is exactly nft's drop count over the probes of the
#   loss window (a whole number of them, bounded by the stored series);
# - every ok run stores latency.idle_p50 and latency.loaded_p50 (and p90,
#   p99, increase, loss), and they are the type-7 quantiles of the run's
#   stored latency.rtt points (t < 0 idle, t >= 0 loaded), recomputed here
#   in python3 (statistics module: no scipy);
# - under load the median RTT is above the idle one (a 20 Mbit/s queue);
# - a server that does not answer echo requests (a factor's apply hook
#   sets icmp_echo_ignore_all in its namespace) fails those runs with the
#   reason, and the other level's runs are ok: the session goes on;
# - with no ping on PATH every run fails with exec's reason, all stored;
# - SIGINT during the idle phase and during the load leaves no ping
#   running (pgrep).
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need_root "xrun lab needs root (network namespaces)"
xr_need ip tc iperf3 sqlite3 ping python3 pgrep nft
P="xl$$"
P=${P:0:10}
xr_tmpdir T
xr_at_exit '"$XRUN" lab down --prefix "$P" >/dev/null 2>&1'
"$XRUN" lab up --rate 20mbit --prefix "$P" >up.out || fail "lab up exit $?"
plan() { # name duration extra-yaml
	cat <<YAML
xrun: 1
name: $1
hosts:
  client: {netns: $P-client, address: 198.18.0.1, iface: $P-veth}
  server: {netns: $P-server, address: 198.18.0.2, iface: $P-veth}
engine:
  type: iperf3
  client: client
  server: { host: server, start: true }
  duration: $2
  congestion: cubic
latency: { probe: ping, from: client, to: server, interval: 100ms, idle: 2s }
$3
YAML
}
plan lat 2s "repeat: 2" >lat.yaml
"$XRUN" run lat.yaml --db lat.db --unattended 2>run.err || { cat run.err; fail "run exit $?"; }
nok=$(q lat.db "select count(*) from runs where status = 'ok'")
[ "$nok" = 2 ] || fail "ok runs: $nok ($(q lat.db "select status, reason from runs"))"
for m in idle_p50 loaded_p50 loaded_p90 loaded_p99 increase_p50 loss; do
	n=$(q lat.db "select count(*) from runs r join metrics m on m.run_id = r.id and m.name = 'latency.$m' where r.status = 'ok'")
	[ "$n" = 2 ] || fail "latency.$m stored for $n of 2 runs"
done
# The metrics are the quantiles of the stored series (computed here).
q lat.db "select run_id, t, value from series where name = 'latency.rtt' order by run_id, t" >rtt.txt
q lat.db "select run_id, name, value from metrics where name like 'latency.%' and name != 'latency.loss'" >lm.txt
q lat.db "select id, elapsed from runs where status = 'ok'" >el.txt
python3 - rtt.txt lm.txt el.txt <<'PY' || fail "latency metrics do not match the stored latency.rtt series"
import sys
from statistics import quantiles, median
pts, got = {}, {}
for line in open(sys.argv[1]):
    r, t, v = line.strip().split("|")
    pts.setdefault(r, []).append((float(t), float(v)))
for line in open(sys.argv[2]):
    r, n, v = line.strip().split("|")
    got[(r, n)] = float(v)
elapsed = {}
for line in open(sys.argv[3]):
    r, e = line.strip().split("|")
    elapsed[r] = float(e)
# Loaded: sent from the engine's start to the probe's stop, which comes
# right after the engine ends (schema/plan.md); a reply to a probe sent
# between that stop and the probe process's end is kept in the series
# but is no loaded probe. The stop's time is not stored, so every cut
# after the engine's elapsed time (less 0.2 s of clock skew) is tried:
# one of them must give the stored figures exactly.
def figures(idle, load):
    q = quantiles(load, n=100, method="inclusive")  # type 7
    return {"latency.idle_p50": median(idle), "latency.loaded_p50": median(load),
            "latency.loaded_p90": q[89], "latency.loaded_p99": q[98],
            "latency.increase_p50": median(load) - median(idle)}
bad = 0
for r, p in pts.items():
    idle = sorted(v for t, v in p if t < 0)
    after = sorted((t, v) for t, v in p if t >= 0)
    sure = [v for t, v in after if t <= elapsed[r] - 0.2]
    tail = [v for t, v in after if t > elapsed[r] - 0.2]
    assert len(idle) >= 10 and len(sure) >= 10, (r, len(idle), len(sure))
    match = None
    for k in range(len(tail) + 1):
        load = sorted(sure + tail[:k])
        want = figures(idle, load)
        if all(abs(got[(r, n)] - w) <= 1e-9 + 1e-9 * abs(w) for n, w in want.items()):
            match = load
            break
    if match is None:
        for n, w in figures(idle, sorted(sure + tail)).items():
            print("run %s %s: stored %.9g, series gives %.9g" % (r, n, got[(r, n)], w))
        bad = 1
        continue
    print("# run %s: idle p50 %.3f ms, loaded p50 %.3f ms (%d + %d replies, %d after the stop)"
          % (r, median(idle) * 1e3, median(match) * 1e3, len(idle), len(match),
             len(after) - len(match)))
sys.exit(bad)
PY
up=$(q lat.db "select count(*) from metrics where name = 'latency.increase_p50' and value > 0.002")
[ "$up" = 2 ] || fail "loaded p50 not 2 ms above idle in $up of 2 runs: $(q lat.db "select run_id, value from metrics where name = 'latency.increase_p50'")"
bad=$(q lat.db "select count(*) from metrics where name = 'latency.loss' and (value < 0 or value > 100 or unit != '%')")
[ "$bad" = 0 ] || fail "latency.loss out of 0..100 %"

# Real loss (this kernel has no netem): nftables in the server's namespace
# drops 20% of the echo requests numbered 41..100 at random (numgen),
# counting what it drops (D). 50 ms probes: seq 41 leaves about 2 s after
# the first, later than the engine's start (1 s idle, sample: off), and
# seq 100 about 5 s after it, before the end of the loss window (6 s of
# UDP at 10 Mbit/s, half the link: no queue to drop anything, less the 1 s
# reply wait). Counters on the client (requests out, replies in) and on
# the server (requests in) show that nft's drops are the only loss. So
# xrun must have lost exactly D of the k probes of its window: the stored
# latency.loss is 100 D / k for a whole k, which the stored series bounds
# (its points in the window, plus D).
nft_in() { ip netns exec "$1" nft -f -; }
nft_in "$P-server" <<'NFT' || fail "nft in $P-server"
table inet xrloss {
  chain in {
    type filter hook input priority 0; policy accept;
    icmp type echo-request counter
    icmp type echo-request icmp sequence 41-100 numgen random mod 100 < 20 counter drop
  }
}
NFT
nft_in "$P-client" <<'NFT' || fail "nft in $P-client"
table inet xrloss {
  chain out {
    type filter hook output priority 0; policy accept;
    icmp type echo-request counter
  }
  chain in {
    type filter hook input priority 0; policy accept;
    icmp type echo-reply counter
  }
}
NFT
cat >loss.yaml <<YAML
xrun: 1
name: loss
hosts:
  client: {netns: $P-client, address: 198.18.0.1, iface: $P-veth}
  server: {netns: $P-server, address: 198.18.0.2, iface: $P-veth}
engine:
  type: iperf3
  client: client
  server: { host: server, start: true }
  duration: 6s
  udp: true
  bitrate: 10M
latency: { probe: ping, from: client, to: server, interval: 50ms, idle: 1s }
sample: off
repeat: 1
YAML
"$XRUN" run loss.yaml --db loss.db --unattended 2>loss.err || { cat loss.err; fail "loss run exit $?"; }
counters() { python3 "$XRUN_SOURCE_DIR/tests/e2e/lab_loss.py" counters "$1" | paste -sd' '; }
read -r arrived dropped < <(counters "$P-server")
read -r sent replied < <(counters "$P-client")
echo "# nft: $sent requests sent, $arrived arrived, $dropped dropped, $replied replies"
[ "$dropped" -ge 1 ] || fail "nft dropped nothing of seq 41..100"
[ "$arrived" = "$sent" ] && [ "$replied" = $((sent - dropped)) ] ||
	fail "loss besides nft's: $sent sent, $arrived arrived, $dropped dropped, $replied replies"
q loss.db "select value || '|' || unit from metrics where name = 'latency.loss'" >loss.txt
q loss.db "select t from series where name = 'latency.rtt' order by t" >loss_t.txt
python3 "$XRUN_SOURCE_DIR/tests/e2e/lab_loss.py" check "$dropped" loss.txt loss_t.txt ||
	fail "latency.loss does not match nft's drops"
for ns in "$P-server" "$P-client"; do
	ip netns exec "$ns" nft delete table inet xrloss || fail "nft delete in $ns"
done

# A server that does not answer: those runs fail with the reason, the
# others run. The hook changes the server namespace's own sysctl.
plan noecho 1s "factors:
  ignore:
    levels: [1, 0]
    on: [server]
    apply: [sysctl, -w, \"net.ipv4.icmp_echo_ignore_all={{ignore}}\"]
order: sequential" >noecho.yaml
"$XRUN" run noecho.yaml --db noecho.db --unattended 2>noecho.err && fail "run with a failed probe exit 0"
q noecho.db "select r.status || ' ' || coalesce(r.reason, '') from runs r order by id" >noecho.txt
grep -q "^failed latency probe 'ping' from 'client' got no reply from 198.18.0.2 in 7.[0-9] s (its idle phase and the time to start)" noecho.txt ||
	fail "no-reply run: $(cat noecho.txt)"
grep -q "^ok" noecho.txt || fail "the session did not go on: $(cat noecho.txt)"
grep -q "run 1 failed: latency probe" noecho.err || fail "reason not on stderr: $(cat noecho.err)"

# No ping on PATH: every run fails with why, and is stored.
mkdir nobin
for d in /usr/local/sbin /usr/local/bin /usr/sbin /usr/bin /sbin /bin; do
	for f in "$d"/*; do
		b=${f##*/}
		[ "$b" = ping ] || [ -e "nobin/$b" ] || ln -s "$f" "nobin/$b"
	done
done
plan noping 1s "repeat: 2" >noping.yaml
PATH=$T/nobin "$XRUN" run noping.yaml --db noping.db --unattended 2>noping.err && fail "run without ping exit 0"
n=$(q noping.db "select count(*) from runs where status = 'failed' and reason like 'latency probe ''ping'' from ''client'' to 198.18.0.2 ended before the load: %ping%No such file%'")
[ "$n" = 2 ] || fail "runs failed for the missing ping: $n of 2 ($(q noping.db "select status, reason from runs"))"

# SIGINT in the idle phase (as ping starts) and under load (2.5 s after:
# the idle phase is 2 s): no ping left. Counted from ping's start, not
# xrun's: opening the hosts and reading their facts before it takes more
# than a second on a loaded machine.
plan intr 6s "repeat: 1" >intr.yaml
for at in 0 2.5; do
	"$XRUN" run intr.yaml --db "intr$at.db" --unattended 2>intr.err &
	pid=$!
	for _ in $(seq 150); do
		[ -n "$(xr_ns_procs "$P-client" "^ping -n -D .* 198\.18\.0\.2 $")" ] && break
		sleep 0.1
	done
	sleep "$at"
	[ -n "$(xr_ns_procs "$P-client" "^ping -n -D .* 198\.18\.0\.2 $")" ] || fail "no ping running $at s after it started"
	kill -INT "$pid"
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" = 130 ] || fail "interrupted run exit $rc, not 130"
	left=$(xr_ns_procs "$P-client" "^ping -n -D .* 198\.18\.0\.2 $")
	[ -z "$left" ] || fail "ping still running after SIGINT at $at s: $left"
done
echo "ok - ping beside iperf3 on a 20mbit lab link: metrics are the series' quantiles, a probe without replies or without ping fails its runs with the reason, SIGINT leaves no ping"
