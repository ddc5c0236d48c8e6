#!/bin/bash
# Issue 19's irtt latency probe on a real shaped link (root only): `xrun
# lab up --rate 20mbit`, a plan with `latency: { probe: irtt ... }` beside
# iperf3.
# - every ok run stores latency.idle_p50 and latency.loaded_p50 (and p90,
#   p99, increase, loss) from irtt, the type-7 quantiles of the run's
#   stored latency.rtt points (t < 0 idle, t >= 0 loaded), recomputed here
#   in python3 (statistics module: no scipy); latency.send_delay and
#   latency.receive_delay have a point beside every rtt point;
# - under load the median RTT is above the idle one (a 20 Mbit/s queue),
#   and it is the send delay that grew (the queue is on the client's
#   egress);
# - the irtt server xrun started on the server host is gone after the run
#   (pgrep), and after a SIGINT in the idle phase and one under load;
# - an irtt server already on port 2112 of that address is tried past.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need_root "xrun lab needs root (network namespaces)"
xr_need ip tc iperf3 sqlite3 irtt python3 pgrep
P="xq$$"
P=${P:0:10}
xr_tmpdir T
xr_at_exit '[ -z "${busy:-}" ] || kill "$busy" 2>/dev/null; "$XRUN" lab down --prefix "$P" >/dev/null 2>&1'
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
latency: { probe: irtt, from: client, to: server, interval: 100ms, idle: 2s }
$3
YAML
}
# this test's namespaces only: another suite's lab may use the same subnet
servers() { xr_ns_procs "$P-server" "^irtt server -b 198\.18\.0\.2:"; }
clients() { xr_ns_procs "$P-client" "^irtt client .*198\.18\.0\.2:"; }
# someone else's irtt server on 2112: xrun's goes to the next port
ip netns exec "$P-server" irtt server -b 198.18.0.2:2112 >busy.log 2>&1 &
busy=$!
plan lat 2s "repeat: 2" >lat.yaml
"$XRUN" run lat.yaml --db lat.db --unattended 2>run.err || { cat run.err; fail "run exit $?"; }
kill "$busy"
wait "$busy" 2>/dev/null || true
busy=
left=$(servers)
[ -z "$left" ] || fail "irtt server left after the run: $left"
nok=$(q lat.db "select count(*) from runs where status = 'ok'")
[ "$nok" = 2 ] || fail "ok runs: $nok ($(q lat.db "select status, reason from runs"))"
for m in idle_p50 loaded_p50 loaded_p90 loaded_p99 increase_p50 loss; do
	n=$(q lat.db "select count(*) from runs r join metrics m on m.run_id = r.id and m.name = 'latency.$m' where r.status = 'ok'")
	[ "$n" = 2 ] || fail "latency.$m stored for $n of 2 runs"
done
grep -q NewConn busy.log && fail "xrun's client went to the busy server on 2112"
q lat.db "select run_id, name, t, value from series where name like 'latency.%' order by run_id, name, t" >pts.txt
q lat.db "select run_id, name, value from metrics where name like 'latency.%' and name != 'latency.loss'" >lm.txt
python3 - pts.txt lm.txt <<'PY' || fail "irtt's latency metrics do not match its stored series"
import sys
from statistics import quantiles, median
pts, got = {}, {}
for line in open(sys.argv[1]):
    r, n, t, v = line.strip().split("|")
    pts.setdefault((r, n), []).append((float(t), float(v)))
for line in open(sys.argv[2]):
    r, n, v = line.strip().split("|")
    got[(r, n)] = float(v)
bad = 0
for (r, n), p in pts.items():
    if n != "latency.rtt":
        continue
    for other in ("latency.send_delay", "latency.receive_delay"):
        o = pts.get((r, other), [])
        if [t for t, v in o] != [t for t, v in p]:
            print("run %s: %s has %d points, rtt %d" % (r, other, len(o), len(p)))
            bad = 1
    idle = sorted(v for t, v in p if t < 0)
    load = sorted(v for t, v in p if t >= 0)
    assert len(idle) >= 10 and len(load) >= 10, (r, len(idle), len(load))
    q = quantiles(load, n=100, method="inclusive")  # type 7
    want = {"latency.idle_p50": median(idle), "latency.loaded_p50": median(load),
            "latency.loaded_p90": q[89], "latency.loaded_p99": q[98],
            "latency.increase_p50": median(load) - median(idle)}
    for m, w in want.items():
        g = got[(r, m)]
        if abs(g - w) > 1e-9 + 1e-9 * abs(w):
            print("run %s %s: stored %.9g, series gives %.9g" % (r, m, g, w))
            bad = 1
    sd = median(v for t, v in pts[(r, "latency.send_delay")] if t >= 0)
    rd = median(v for t, v in pts[(r, "latency.receive_delay")] if t >= 0)
    if not sd > rd:
        print("run %s: loaded send delay %g not above the receive delay %g" % (r, sd, rd))
        bad = 1
    print("# run %s: idle p50 %.3f ms, loaded p50 %.3f ms, send delay p50 %.3f ms (%d + %d replies)"
          % (r, median(idle) * 1e3, median(load) * 1e3, sd * 1e3, len(idle), len(load)))
sys.exit(bad)
PY
up=$(q lat.db "select count(*) from metrics where name = 'latency.increase_p50' and value > 0.002")
[ "$up" = 2 ] || fail "loaded p50 not 2 ms above idle in $up of 2 runs: $(q lat.db "select run_id, value from metrics where name = 'latency.increase_p50'")"

# SIGINT in the idle phase (the client has started, no iperf3 yet) and
# under load (iperf3's client runs): no irtt server or client left.
plan intr 20s "repeat: 1" >intr.yaml
for when in idle load; do
	"$XRUN" run intr.yaml --db "intr-$when.db" --unattended 2>intr.err &
	pid=$!
	for _ in $(seq 600); do
		if [ "$when" = idle ]; then
			[ -z "$(clients)" ] || break
		else
			[ -n "$(xr_ns_procs "$P-client" "^iperf3 -c 198\.18\.0\.2")" ] && break
		fi
		sleep 0.05
	done
	[ -n "$(servers)" ] || fail "no irtt server running ($when)"
	kill -INT "$pid"
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" = 130 ] || fail "interrupted run exit $rc, not 130 ($when)"
	left="$(servers)$(clients)"
	[ -z "$left" ] || fail "irtt still running after SIGINT ($when): $left"
done
echo "ok - irtt beside iperf3 on a 20mbit lab link: metrics are the series' quantiles, one-way delays beside, the send delay grows, a busy 2112 is tried past, no irtt left after the run or SIGINT"
