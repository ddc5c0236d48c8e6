#!/bin/bash
# SPDX-License-Identifier: MIT
# Reproducing a small published matrix on the lab, end to end (issue 10):
# `xrun lab up --rate 1000mbit`, then a "publication" made here the way an
# article is made: bare iperf3 through the link, `-t 3 -C cubic -P
# 4` at MTU {1500,9000}, three runs per cell, every run one row of a
# version-2 reference file (format, title, statistic, runs, a tolerance,
# conditions) with its published precision (two decimals in Mbit/s). xrun
# then runs the same matrix (MTU set by a hook and verified by the nic.mtu
# probe, cc pinned to cubic, three runs per cell) and `report --reference`
# must say `reproduced` for both cells; the same file with every value
# x1.10 must say `differs` for both. (Two cells, not the 2x2 of -P {1,4}
# it once had: lab_reference covers -P 1 against -P 4, and the lab stage
# runs alone, so every run here is a second of the suite.)
#
# Also, on any machine: a publication made of xrun's own runs is
# reproduced (tolerance 25%: it holds on a loaded machine too) and the same x1.60 differs. Three runs per
# cell decide within ±4% only where the link measures steadily: on a
# machine where the publication's or xrun's runs vary by more than 1.5%
# (a loaded machine: the CPU moves a veth's packets) the two verdicts are
# skipped with the numbers (exit 77).
#
# The verdicts come with reference format v2 (branch i10-ref): where `xrun
# report --help` has no --tolerance, the run and the conditions are
# checked and the verdicts are skipped with a message (exit 77).
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need_root "xrun lab needs root (network namespaces)"
xr_need ip tc iperf3 sqlite3 jq
P="xr$$"
P=${P:0:10}
TOL=4%
xr_tmpdir T
xr_at_exit '"$XRUN" lab down --prefix "$P" >/dev/null 2>&1'
"$XRUN" lab up --rate 1000mbit --prefix "$P" >up.out || fail "lab up --rate exit $?"
"$XRUN" lab status --prefix "$P" | grep -q "shaping: tbf 1000 Mbit/s" || fail "not shaped"
C="$P-client" S="$P-server" IF="$P-veth"
port=$(xr_free_port)

# The publication: bare iperf3, three runs per cell, Mbit/s to 2 decimals.
mtu_set() {
	ip -n "$C" link set dev "$IF" mtu "$1"
	ip -n "$S" link set dev "$IF" mtu "$1"
}
{
	echo "# A publication made on this machine: bare iperf3 -t 3 -C cubic"
	echo "# through xrun lab's 1 Gbit/s tbf link, three runs per cell."
	echo "format,2"
	echo "title,lab reproduction (tests/e2e/lab_reproduce.sh)"
	echo "metric,throughput"
	echo "unit,Mbit/s"
	echo "statistic,single"
	echo "runs,1"
	echo "tolerance,$TOL"
	echo "engine,iperf3"
	echo "protocol,TCP"
	echo "direction,up"
	echo "duration,3"
	echo "congestion,cubic"
	echo "mtu,streams,value"
} >pub.csv
for mtu in 1500 9000; do
	mtu_set $mtu
	for st in 4; do
		for rep in 1 2 3; do
			ip netns exec "$S" iperf3 -s -1 -p "$port" >/dev/null 2>&1 &
			srv=$!
			sleep 0.3
			ip netns exec "$C" iperf3 -c 198.18.0.2 -p "$port" -t 3 -P $st -C cubic -J >b.json ||
				fail "bare iperf3 mtu=$mtu streams=$st"
			wait $srv || true
			mbps=$(jq '.end.sum_received.bits_per_second / 1e6 * 100 | round / 100' b.json)
			echo "$mtu,$st,$mbps" >>pub.csv
		done
	done
done
mtu_set 1500
echo "# published:"
grep -E '^[0-9]' pub.csv | sed 's/^/#   /'
awk -F, '/^[0-9]/ { if ($3 >= 1000 || $3 < 500) bad = 1 } END { exit bad }' pub.csv ||
	fail "bare iperf3 through the 1 Gbit/s link outside 500-1000 Mbit/s: $(cat pub.csv)"
# The same publication, every value x1.10.
awk -F, 'BEGIN { OFS = "," } /^[0-9]/ { $3 = sprintf("%.2f", $3 * 1.10) } { print }' pub.csv >pub110.csv

# xrun runs the same matrix.
cat >repro.yaml <<YAML
xrun: 1
name: lab-reproduce
hosts:
  client: {netns: $C, address: 198.18.0.1, iface: $IF}
  server: {netns: $S, address: 198.18.0.2, iface: $IF}
engine:
  type: iperf3
  client: client
  server: { host: server, start: true, port: $port }
  duration: 3s
  congestion: cubic
factors:
  mtu:
    levels: [1500, 9000]
    apply: [ip, link, set, dev, "{{iface}}", mtu, "{{mtu}}"]
    verify: { probe: nic.mtu }
    restore: true
    on: [client, server]
  streams: { levels: [4], param: parallel }
repeat: 3
counters: none
sample: off
YAML
"$XRUN" run repro.yaml --db r.db --unattended 2>run.err || { cat run.err; fail "xrun run exit $?"; }
[ "$(q r.db "select count(*) from results where status = 'ok' and metric = 'throughput'")" = 6 ] ||
	fail "runs: $(q r.db "select status, reason from runs")"
[ "$(q r.db "select count(*) from verifications where ok = 0")" = 0 ] ||
	fail "unverified: $(q r.db "select * from verifications where ok = 0")"
[ "$(q r.db "select count(*) from observed where key = 'congestion' and value = 'cubic'")" = 6 ] ||
	fail "cc: $(q r.db "select value, count(*) from observed where key = 'congestion' group by value")"
echo "# measured: $(q r.db "select group_concat(cell || ' ' || printf('%.2f', value / 1e6), '; ') from results where metric = 'throughput'")"

# The conditions table says what ran: cubic, MTU 1500 and 9000 on both hosts.
"$XRUN" report --db r.db -o plain.json || fail "report"
jq -e '[.conditions[] | select(.key == "congestion") | .values[].value] == ["cubic"]' plain.json >/dev/null ||
	fail "conditions cc: $(jq -c .conditions plain.json)"
jq -e '[.conditions[] | select(.key | startswith("mtu@")) | [.values[].value] == ["1500", "9000"]] | length == 2 and all' \
	plain.json >/dev/null || fail "conditions mtu: $(jq -c .conditions plain.json)"

# Three runs per cell decide within ±4% only on a machine that measures
# steadily: where the link itself is noisier than that (a loaded machine:
# a veth is moved by the CPU), no tool could call the cells reproduced, and
# the report says so (inconclusive, controller_loaded); not a failure.
noisy=$(awk -F, '/^[0-9]/ { k = $1 "," $2; n[k]++; s[k] += $3; ss[k] += $3 * $3 }
	END { for (k in n) { m = s[k] / n[k]; v = (ss[k] - n[k] * m * m) / (n[k] - 1);
		if (v > 0 && sqrt(v) / m > 0.015) printf "%s cv %.1f%%; ", k, 100 * sqrt(v) / m } }' pub.csv)
noisy=${noisy%; }
measured_noisy=$(q r.db "select group_concat(c || ' cv ' || printf('%.1f', 100 * sd / m) || '%', '; ') from
	(select cell as c, avg(value) as m, sqrt(sum((value - (select avg(value) from results r2 where r2.cell = r1.cell
	and metric = 'throughput')) * (value - (select avg(value) from results r2 where r2.cell = r1.cell
	and metric = 'throughput'))) / (count(*) - 1)) as sd from results r1 where metric = 'throughput' group by cell)
	where sd / m > 0.015")
if [ -n "$noisy$measured_noisy" ]; then
	echo "skip: this machine measures the 1 Gbit/s link too unsteadily for a ±$TOL" \
		"verdict from three runs (published: ${noisy:-steady}; measured: ${measured_noisy:-steady};" \
		"load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs)"
	exit 77
fi

if ! "$XRUN" report --help | grep -q -- '--tolerance'; then
	echo "skip: xrun report has no --tolerance yet (reference format v2 and" \
		"per-cell verdicts, branch i10-ref): the run and the conditions" \
		"were checked, the reproduction verdicts were not"
	exit 77
fi
verdicts() { jq -r '[.reference.rows[] | .verdict] | join(" ")' "$1"; }
# The verdict path: a publication that is xrun's own runs
# (tolerance 10%) is reproduced; the same x1.25 differs.
{
	sed -n '/^format,/,/^congestion,/p' pub.csv | sed 's/^tolerance,.*/tolerance,10%/'
	echo "mtu,streams,value"
	q r.db "select json_extract(cell, '\$.mtu') || ',' || json_extract(cell, '\$.streams') || ',' ||
		printf('%.2f', value / 1e6) from results where metric = 'throughput' order by cell"
} >self.csv
awk -F, 'BEGIN { OFS = "," } /^[0-9]/ { $3 = sprintf("%.2f", $3 * 1.25) } { print }' self.csv >self125.csv
"$XRUN" report --db r.db --reference self.csv -o self.json 2>self.err || { cat self.err; fail "report self"; }
"$XRUN" report --db r.db --reference self125.csv -o self125.json 2>>self.err || { cat self.err; fail "report self x1.25"; }
[ "$(verdicts self.json)" = "reproduced reproduced" ] ||
	fail "its own runs: $(jq -c '[.reference.rows[] | {cell: .label, verdict, reasons}]' self.json)"
[ "$(verdicts self125.json)" = "differs differs" ] ||
	fail "its own runs x1.25: $(jq -c '[.reference.rows[] | {cell: .label, verdict, reasons}]' self125.json)"
echo "# its own runs as the publication: reproduced; x1.25: differs"

"$XRUN" report --db r.db --reference pub.csv -o same.json 2>same.err || { cat same.err; fail "report --reference"; }
"$XRUN" report --db r.db --reference pub110.csv -o high.json 2>high.err || { cat high.err; fail "report --reference x1.10"; }
echo "# published: $(verdicts same.json); x1.10: $(verdicts high.json)"
[ "$(jq '.reference.rows | length' same.json)" = 2 ] || fail "published cells: $(jq -c '.reference.rows' same.json)"
jq -e '[.reference.rows[] | .published_runs | length == 3] | all' same.json >/dev/null ||
	fail "three published runs per cell: $(jq -c '[.reference.rows[] | .published_runs]' same.json)"
[ "$(verdicts same.json)" = "reproduced reproduced" ] ||
	fail "the publication: $(jq -c '[.reference.rows[] | {cell: .label, verdict, reasons}]' same.json)"
[ "$(verdicts high.json)" = "differs differs" ] ||
	fail "x1.10: $(jq -c '[.reference.rows[] | {cell: .label, verdict, reasons}]' high.json)"
[ "$(jq '.reference.summary.reproduced' same.json)" = 2 ] || fail "summary: $(jq -c .reference.summary same.json)"
echo "ok: lab reproduction"
