#!/bin/bash
# SPDX-License-Identifier: MIT
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
# - an irtt server already on port 2112 of that address is tried past;
# - real loss: nft drops 20% of a range of irtt's requests at random; the
#   stored latency.loss is exactly nft's drop count over the probes of the
#   loss window (a whole number of them, bounded by the stored series).
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need_root "xrun lab needs root (network namespaces)"
xr_need ip tc iperf3 sqlite3 irtt python3 pgrep nft
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

# Real loss (this kernel has no netem): nftables in the server's namespace
# drops 20% of irtt's requests numbered 41..100 at random (numgen),
# counting what it drops. irtt's UDP payload (irtt 0.9: 3 bytes of magic,
# a flags byte, 0 for a request and 2 for a reply, an 8-byte token, then
# the sequence number, 32 bits little-endian) is matched with raw payload
# expressions after the UDP header (@th, bits): the flags at bit 88, the
# sequence number's low byte at bit 160 (fewer than 256 probes here). The
# engine's traffic (iperf3's port) is not touched. As in lab_latency.sh:
# 50 ms probes, seq 41 about 2 s after the first (after the engine's
# start), seq 100 about 5 s after it (inside the loss window: 6 s of UDP
# at 10 Mbit/s, no queue), counters on both sides showing no other loss,
# and xrun's latency.loss exactly nft's drops over a whole number of
# probes (tests/e2e/lab_loss.py).
ip netns exec "$P-server" nft -f - <<'NFT' || fail "nft in $P-server"
table inet xrloss {
  chain in {
    type filter hook input priority 0; policy accept;
    udp dport 2112-2143 @th,88,8 0 counter
    udp dport 2112-2143 @th,88,8 0 @th,160,8 41-100 numgen random mod 100 < 20 counter drop
  }
}
NFT
ip netns exec "$P-client" nft -f - <<'NFT' || fail "nft in $P-client"
table inet xrloss {
  chain out {
    type filter hook output priority 0; policy accept;
    udp dport 2112-2143 @th,88,8 0 counter
  }
  chain in {
    type filter hook input priority 0; policy accept;
    udp sport 2112-2143 @th,88,8 2 counter
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
latency: { probe: irtt, from: client, to: server, interval: 50ms, idle: 1s }
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
