#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 19's bar on a deep queue (root only): `xrun lab up --rate 20mbit
# --latency 200ms --bottleneck router` (the tbf queue in a router
# namespace: docs/lab.md). The latency increase under load that xrun
# stores (median of two runs' latency.increase_p50, cubic) is above 20 ms
# and agrees within 30% with bare ping run beside bare iperf3 -C cubic on
# the same link (median of two; computed here in python3 from ping's -D
# stamps: replies whose probe was sent while iperf3 ran, against those
# sent before it). Then plans/bufferbloat.yaml (its prefix and duration
# changed for the test) shows the increase growing with the queue for
# cubic, and its report says so in the summary.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need_root "xrun lab needs root (network namespaces)"
xr_need ip tc iperf3 sqlite3 ping python3
P="xb$$"
P=${P:0:10}
xr_tmpdir T
xr_at_exit '"$XRUN" lab down --prefix "$P" >/dev/null 2>&1'
"$XRUN" lab up --rate 20mbit --latency 200ms --bottleneck router --prefix "$P" >up.out ||
	fail "lab up exit $?: $(cat up.out)"
grep -q "through router namespace '$P-router'" up.out || fail "up: $(cat up.out)"
[ "$(tc -n "$P-router" qdisc show dev "$P-s" | grep -c 'tbf.*lat 200ms')" = 1 ] ||
	fail "no tbf on the router's egress: $(tc -n "$P-router" qdisc show)"
cat >bb.yaml <<YAML
xrun: 1
name: bb
hosts:
  client: {netns: $P-client, address: 198.18.0.1, iface: $P-veth}
  server: {netns: $P-server, address: 198.18.0.2, iface: $P-veth}
engine:
  type: iperf3
  client: client
  server: { host: server, start: true }
  duration: 6s
  congestion: cubic
repeat: 2
latency: { probe: ping, from: client, to: server, interval: 100ms, idle: 2s }
sample: off
YAML
"$XRUN" run bb.yaml --db bb.db --unattended 2>run.err || { cat run.err; fail "run exit $?"; }
q bb.db "select m.value from metrics m join runs r on r.id = m.run_id
	where r.status = 'ok' and m.name = 'latency.increase_p50'" >xrun.txt
[ "$(wc -l <xrun.txt)" = 2 ] || fail "increase stored for $(wc -l <xrun.txt) of 2 runs"

# bare ping beside bare iperf3, twice
bare() {
	ip netns exec "$P-server" iperf3 -s -1 -p 5399 >/dev/null 2>&1 &
	local srv=$! a b
	sleep 0.5
	ip netns exec "$P-client" ping -n -D -i 0.1 -W 1 -w 11 198.18.0.2 >"ping$1.txt" 2>&1 &
	local pp=$!
	sleep 2
	a=$(date +%s.%N)
	ip netns exec "$P-client" iperf3 -c 198.18.0.2 -p 5399 -t 6 -C cubic >/dev/null ||
		fail "bare iperf3 failed"
	b=$(date +%s.%N)
	wait "$pp" || true
	wait "$srv" || true
	echo "$a $b" >"span$1.txt"
}
bare 1
bare 2
python3 - xrun.txt ping1.txt span1.txt ping2.txt span2.txt <<'PY' || fail "xrun's increase does not agree with bare ping beside bare iperf3"
import re, sys
from statistics import median
xr = median(float(l) for l in open(sys.argv[1]))
incs = []
for pf, sf in ((sys.argv[2], sys.argv[3]), (sys.argv[4], sys.argv[5])):
    a, b = map(float, open(sf).read().split())
    idle, load = [], []
    for line in open(pf):
        m = re.match(r"\[([0-9.]+)\] .* time=([0-9.]+) ms", line)
        if not m:
            continue
        rtt = float(m[2]) / 1e3
        sent = float(m[1]) - rtt
        (idle if sent < a else load if sent <= b else []).append(rtt)
    incs.append(median(load) - median(idle))
bare = median(incs)
print("# increase of the median RTT under load: xrun %.1f ms, bare %.1f ms "
      "(runs %s)" % (xr * 1e3, bare * 1e3, ", ".join("%.1f" % (x * 1e3) for x in incs)))
assert xr > 0.020, "xrun's increase %.1f ms is not above 20 ms" % (xr * 1e3)
assert abs(xr - bare) <= 0.30 * bare, "more than 30%% apart"
PY

# The example plan: the increase grows with the queue (cubic; the bbr
# cells are left out, no assertion reads them and the stage runs alone).
sed -e "s/xr-/$P-/g; s/duration: 8s/duration: 3s/; s/repeat: 3/repeat: 1/" \
	-e "s/levels: \[cubic, bbr\]/levels: [cubic]/" \
	"$XRUN_SOURCE_DIR/plans/bufferbloat.yaml" >ex.yaml
"$XRUN" run ex.yaml --db ex.db --unattended 2>ex.err || { cat ex.err; fail "example plan exit $?"; }
inc=$(q ex.db "select group_concat(printf('%.4f', v), ' ') from (select value v from results
	where metric = 'latency.increase_p50' and status = 'ok' and json_extract(cell, '\$.cc') = 'cubic'
	order by case json_extract(cell, '\$.queue') when '10ms' then 1 when '50ms' then 2 else 3 end)")
echo "# cubic, queue 10ms 50ms 200ms: $inc s"
python3 -c "import sys; v = list(map(float, sys.argv[1:])); sys.exit(not (len(v) == 3 and v[0] < v[1] < v[2]))" $inc ||
	fail "the increase does not grow with the queue: $inc"
"$XRUN" report --db ex.db -o ex.md 2>rep.err || { cat rep.err; fail "report exit $?"; }
grep -q "^| Latency under load | queue=10ms, cc=cubic: +[0-9.]* ms at the median under load" ex.md ||
	fail "no latency line in the summary: $(grep -i latency ex.md | head -3)"
# Another --bottleneck on a lab that is up is refused; down removes the
# router with the rest.
rc=0
"$XRUN" lab up --rate 20mbit --prefix "$P" >up2.out 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -q "is up with a router" up2.out || fail "re-up without router: exit $rc: $(cat up2.out)"
"$XRUN" lab down --prefix "$P" >down.out || fail "lab down exit $?"
for n in client server router; do
	[ ! -e "/var/run/netns/$P-$n" ] || fail "lab down left namespace $P-$n"
done
echo "ok - a 200 ms router queue at 20 Mbit/s: xrun's latency increase agrees with bare ping beside bare iperf3, and grows with the queue in plans/bufferbloat.yaml"
