#!/bin/bash
# SPDX-License-Identifier: MIT
# `xrun lab` with real network namespaces, veth and tc (root only):
# up --profile pcie3x1 (twice: idempotent), the rehearsal plan through it
# (MTU hooks and cc verified, throughput below the 6.2 Gbit/s cap and above
# half of it), a re-shape to 2g5 that visibly caps, --rate 1000mbit (status
# shows the tbf, iperf3 lands between half the rate and the rate), the 1g
# profile, --burst/--latency and bad rates refused, the wan profile (netem:
# a clear error where the kernel lacks it, else a 20 ms RTT by iperf3's min_rtt), the link cut
# mid-run (that run fails with a reason, later runs proceed), down leaving
# no namespace or veth, and the non-root error. Uses its own prefix so that
# a lab someone else has up is left alone.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need_root "xrun lab needs root (network namespaces)"
xr_need ip tc iperf3 sqlite3
P="xt$$"
P=${P:0:10}
xr_tmpdir T
xr_at_exit '"$XRUN" lab down --prefix "$P" >/dev/null 2>&1'
plan_for() { # profile-free copy of the rehearsal plan on our prefix
	sed "s/xr-client/$P-client/; s/xr-server/$P-server/; s/xr-veth/$P-veth/g" \
		"$XRUN_SOURCE_DIR/plans/lab-rehearsal.yaml" >"$1"
}

# Up, twice; the hosts block names our namespaces.
"$XRUN" lab up --profile pcie3x1 --prefix "$P" >up1.out || fail "lab up exit $?"
grep -q "client: {netns: $P-client, address: 198.18.0.1, iface: $P-veth}" up1.out ||
	fail "hosts block: $(cat up1.out)"
"$XRUN" lab up --profile pcie3x1 --prefix "$P" >up2.out || fail "second lab up exit $?"
[ "$(ip netns list | grep -c "^$P-")" = 2 ] || fail "namespaces: $(ip netns list)"
"$XRUN" lab status --prefix "$P" >status.out
grep -q "tbf.*rate 6200Mbit" status.out || fail "status: $(cat status.out)"

# The rehearsal plan: every run ok and verified, throughput under the cap.
plan_for rehearsal.yaml
"$XRUN" run rehearsal.yaml --db r.db --unattended 2>r.err || { cat r.err; fail "rehearsal exit $?"; }
[ "$(q r.db "select count(*) from results where status='ok' and metric='throughput'")" = 16 ] ||
	fail "rehearsal runs: $(q r.db "select status, reason from results")"
[ "$(q r.db "select count(*) from verifications where ok=0")" = 0 ] ||
	fail "unverified: $(q r.db "select * from verifications where ok=0")"
[ "$(q r.db "select count(*) from verifications where factor='mtu' and actual='9000'")" -ge 2 ] ||
	fail "mtu 9000 never verified on both hosts"
[ "$(q r.db "select count(distinct host) from counters")" = 2 ] ||
	fail "counters not read on both sides: $(q r.db "select distinct host from counters")"
max=$(q r.db "select max(value) from results where metric='throughput'")
over=$(q r.db "select count(*) from results where metric='throughput' and value >= 6.2e9")
echo "# pcie3x1: max $(q r.db "select printf('%.2f', max(value)/1e9) from results where metric='throughput'") Gbit/s"
[ "$over" = 0 ] || fail "$over runs above the 6.2 Gbit/s cap"
[ "$(q r.db "select max(value) > 3.1e9 from results where metric='throughput'")" = 1 ] ||
	fail "shaped throughput $max bit/s is not above half the cap"
[ "$(ip -n "$P-client" -j link show "$P-veth" | grep -o '"mtu":[0-9]*')" = '"mtu":1500' ] ||
	fail "mtu not restored after the plan"

# Re-shape to 2.5 Gbit/s: the cap follows.
"$XRUN" lab up --profile 2g5 --prefix "$P" >/dev/null || fail "re-shape exit $?"
"$XRUN" lab status --prefix "$P" | grep -q "rate 2500Mbit" || fail "2g5 not applied"
ip netns exec "$P-server" iperf3 -s -1 -p 5299 -D
sleep 0.3
ip netns exec "$P-client" iperf3 -c 198.18.0.2 -p 5299 -t 1 -J >i.json || fail "iperf3 over 2g5"
bps=$(q :memory: "select json_extract(readfile('i.json'), '\$.end.sum_received.bits_per_second')")
echo "# 2g5: $bps bit/s"
[ "$(q :memory: "select $bps < 2.5e9 and $bps > 1.25e9")" = 1 ] || fail "2g5 measured $bps bit/s"

# --rate 1000mbit: tbf at 1 Gbit/s, shown by status, and iperf3 through it
# below the cap and above half of it; bad rates are usage errors.
"$XRUN" lab up --rate 1000mbit --prefix "$P" >rate.out || fail "lab up --rate exit $?"
grep -q "shaped by tbf at 1000 Mbit/s" rate.out || fail "up --rate: $(cat rate.out)"
"$XRUN" lab status --prefix "$P" >rate.status
[ "$(grep -c "shaping: tbf 1000 Mbit/s" rate.status)" = 2 ] || fail "status after --rate: $(cat rate.status)"
grep -q "profile 'rate' (1000 Mbit/s)" rate.status || fail "status head: $(cat rate.status)"
ip netns exec "$P-server" iperf3 -s -1 -p 5299 -D
sleep 0.3
ip netns exec "$P-client" iperf3 -c 198.18.0.2 -p 5299 -t 2 -J >g.json || fail "iperf3 over --rate 1000mbit"
bps=$(q :memory: "select json_extract(readfile('g.json'), '\$.end.sum_received.bits_per_second')")
echo "# --rate 1000mbit: $bps bit/s"
[ "$(q :memory: "select $bps < 1e9 and $bps > 0.5e9")" = 1 ] || fail "--rate 1000mbit measured $bps bit/s"
"$XRUN" lab up --profile 1g --prefix "$P" >/dev/null || fail "profile 1g"
"$XRUN" lab status --prefix "$P" | grep -q "shaping: tbf 1000 Mbit/s" || fail "1g not applied"
"$XRUN" lab up --rate 500mbit --burst 64K --latency 50ms --prefix "$P" >/dev/null || fail "--burst --latency"
"$XRUN" lab status --prefix "$P" | grep -q "shaping: tbf 500 Mbit/s, burst 64000 B, queue 50 ms" ||
	fail "burst/latency: $("$XRUN" lab status --prefix "$P")"
for bad in "--rate 1mbps" "--rate fast" "--rate 1gbit --profile 1g" "--burst 64K" "--rate 1gbit --latency soon"; do
	set +e
	# shellcheck disable=SC2086
	"$XRUN" lab up $bad --prefix "$P" 2>bad.err
	rc=$?
	set -e
	[ $rc = 2 ] && grep -q "error:" bad.err || fail "lab up $bad: exit $rc: $(cat bad.err)"
done
"$XRUN" lab status --prefix "$P" | grep -q "shaping: tbf 500 Mbit/s" || fail "a refused up changed the lab"
"$XRUN" lab up --profile 2g5 --prefix "$P" >/dev/null

# wan needs netem: a clear error (exit 3) where the kernel lacks it.
set +e
"$XRUN" lab up --profile wan --prefix "$P" >wan.out 2>wan.err
rc=$?
set -e
if ip netns exec "$P-client" tc qdisc add dev lo root netem delay 1ms 2>/dev/null; then
	ip netns exec "$P-client" tc qdisc del dev lo root
	[ $rc = 0 ] || fail "wan failed although netem exists: $(cat wan.err)"
	ip netns exec "$P-server" iperf3 -s -1 -p 5299 -D
	sleep 0.3
	ip netns exec "$P-client" iperf3 -c 198.18.0.2 -p 5299 -t 1 -J >w.json || fail "iperf3 over wan"
	rtt=$(q :memory: "select json_extract(readfile('w.json'), '\$.end.streams[0].sender.min_rtt') / 1000.0")
	[ "$(q :memory: "select $rtt >= 19 and $rtt < 35")" = 1 ] || fail "wan rtt $rtt ms"
	"$XRUN" lab up --profile 2g5 --prefix "$P" >/dev/null
else
	[ $rc = 3 ] || fail "wan without netem: exit $rc, want 3"
	grep -q "netem qdisc, which is unavailable in this kernel" wan.err ||
		fail "wan message: $(cat wan.err)"
	# The lab keeps its previous shape.
	"$XRUN" lab status --prefix "$P" | grep -q "rate 2500Mbit" || fail "failed re-shape changed the lab"
fi

# The link cut in the middle of a run: that run fails with a reason, the
# ones after it run normally once the link is back, all are stored.
cat >cut.yaml <<EOF
xrun: 1
name: lab-cut
hosts:
  client: {netns: $P-client, address: 198.18.0.1, iface: $P-veth}
  server: {netns: $P-server, address: 198.18.0.2, iface: $P-veth}
engine:
  type: iperf3
  client: client
  server: { host: server, start: true }
  duration: 1s
  timeout: 4s
factors:
  x: { levels: [a] }
repeat: 3
order: sequential
settle: 3s
counters: [tcp]
sample: off
EOF
(
	rc=0
	"$XRUN" run cut.yaml --db cut.db --unattended 2>cut.err || rc=$?
	echo $rc >cut.rc
) &
xr=$!
# Cut during the first run for 6 s: longer than its 4 s timeout, so that
# it cannot recover, and back before the second run (after a 3 s settle).
for _ in $(seq 100); do
	[ "$(q cut.db "select count(*) from runs where status='running'" 2>/dev/null)" = 1 ] && break
	sleep 0.1
done
sleep 0.3
ip -n "$P-client" link set "$P-veth" down
sleep 6
ip -n "$P-client" link set "$P-veth" up
wait $xr || true
[ "$(cat cut.rc)" = 1 ] || { cat cut.err; fail "cut plan exit $(cat cut.rc), want 1"; }
[ "$(q cut.db "select count(*) from runs")" = 3 ] || fail "runs stored: $(q cut.db "select status from runs")"
[ "$(q cut.db "select count(*) from runs where status in ('failed','timeout') and reason <> ''")" -ge 1 ] ||
	fail "cut run: $(q cut.db "select status, reason from runs")"
[ "$(q cut.db "select count(*) from runs where position > 0 and status = 'ok'")" = 2 ] ||
	fail "the runs after the cut did not recover: $(q cut.db "select status, reason from runs")"
echo "# cut: $(q cut.db "select group_concat(status || ':' || coalesce(reason,''), ' | ') from runs")"

# Down removes exactly what up created; twice is fine.
"$XRUN" lab down --prefix "$P" >down.out || fail "lab down exit $?"
! ip netns list | grep -q "^$P-" || fail "namespace left: $(ip netns list)"
! ip -o link show | grep -q "$P-veth" || fail "veth left in the root namespace"
[ ! -e "/run/xrun-lab/$P.json" ] || fail "record left"
"$XRUN" lab down --prefix "$P" | grep -q "was not up" || fail "second down"

# Without root: a clear error, exit 3.
if command -v setpriv >/dev/null; then
	set +e
	setpriv --reuid=65534 --regid=65534 --clear-groups "$XRUN" lab up --prefix "$P" 2>nr.err
	rc=$?
	set -e
	[ $rc = 3 ] && grep -q "needs root" nr.err || fail "non-root: exit $rc: $(cat nr.err)"
fi
echo "ok: lab e2e"
