#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 18's bars on a real shaped link (root only): `xrun lab up --rate
# 1000mbit`, a plan with `sample: 500ms` over it. Every run stores series
# rows for the NIC's bytes on both hosts and the engine's throughput on the
# receiver, several points each; the cells table's interval p95 and peak
# are the receiver's intervals, so they are not above the shaped rate
# (once they were the sender's: max 994 Mbit/s next to p95 1078); the HTML
# report holds a time-series and a box chart; report --runs writes a row
# for every run.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need_root "xrun lab needs root (network namespaces)"
xr_need ip tc iperf3 sqlite3
P="xs$$"
P=${P:0:10}
xr_tmpdir T
xr_at_exit '"$XRUN" lab down --prefix "$P" >/dev/null 2>&1'
"$XRUN" lab up --rate 1000mbit --prefix "$P" >up.out || fail "lab up exit $?"
cat >s.yaml <<YAML
xrun: 1
name: lab-series
hosts:
  client: {netns: $P-client, address: 198.18.0.1, iface: $P-veth}
  server: {netns: $P-server, address: 198.18.0.2, iface: $P-veth}
engine:
  type: iperf3
  client: client
  server: { host: server, start: true }
  duration: 2s
factors:
  streams: { levels: [1, 2], param: parallel }
repeat: 2
order: abba
sample: 500ms
counters: [nic, tcp, cpu]
YAML
"$XRUN" run s.yaml --db s.db --unattended 2>run.err || { cat run.err; fail "run exit $?"; }
nruns=$(q s.db "select count(*) from runs where status='ok' and warmup=0")
[ "$nruns" = 4 ] || fail "ok runs: $nruns ($(q s.db "select status, reason from runs"))"
# NIC bytes on both hosts and the engine's throughput, several points a run.
for spec in "client nic.tx_bytes" "server nic.rx_bytes" "server engine.throughput"; do
	set -- $spec
	few=$(q s.db "select count(*) from (select r.id, (select count(*) from series s
		where s.run_id = r.id and s.host = '$1' and s.name = '$2') n
		from runs r where r.status = 'ok' and r.warmup = 0) where n < 3")
	[ "$few" = 0 ] || fail "$few runs with fewer than 3 points of $1 $2: \
$(q s.db "select run_id, host, name, count(*) from series group by 1, 2, 3" | head -20)"
done
echo "# points a run: $(q s.db "select printf('%d series, %d points', count(distinct host||name), count(*)) from series where run_id = (select min(id) from runs where status='ok')")"
# The sampled NIC bytes add up to what the engine moved (within 10%: the
# lead-in, ACKs and headers are in the NIC's count).
ratio=$(q s.db "select printf('%.3f', (select sum(value) from series where host='server' and name='nic.rx_bytes' and t > 0) * 8.0 / (select sum(m.value * 2.0) from metrics m join runs r on r.id = m.run_id where m.name='throughput' and r.status='ok'))")
echo "# sampled rx bytes / engine bytes: $ratio"
[ "$(q :memory: "select $ratio > 0.85 and $ratio < 1.25")" = 1 ] ||
	fail "sampled NIC bytes do not match the throughput: ratio $ratio"
# The cells' interval p95 and peak are the receiver's: not above the rate.
"$XRUN" report --db s.db -o r.json 2>rep.err || { cat rep.err; fail "json report exit $?"; }
over=$(q :memory: "select count(*) from json_each(json_extract(readfile('r.json'), '\$.cells')) c
	where json_extract(c.value, '\$.interval.peak') > 1.0e9
	   or json_extract(c.value, '\$.interval.p95') > 1.0e9")
echo "# interval peaks: $(q :memory: "select group_concat(printf('%.0f', json_extract(c.value, '\$.interval.peak')/1e6), ' ') from json_each(json_extract(readfile('r.json'), '\$.cells')) c") Mbit/s"
[ "$over" = 0 ] || fail "$over cells with an interval p95 or peak above the 1000 Mbit/s rate"
"$XRUN" report --db s.db -o r.html 2>>rep.err || { cat rep.err; fail "html report exit $?"; }
grep -q 'data-chart="timeseries"' r.html || fail "no time-series chart in the HTML"
grep -q 'data-chart="box"' r.html || fail "no box chart in the HTML"
"$XRUN" report --db s.db --runs -o runs.csv 2>>rep.err || { cat rep.err; fail "runs csv exit $?"; }
for id in $(q s.db "select id from runs where warmup=0"); do
	grep -q ",$id," runs.csv || fail "run $id has no row in runs.csv"
done
echo "ok - sample: 500ms on a 1000mbit lab link: series on both hosts, receiver's p95/peak under the rate, charts, runs.csv"
