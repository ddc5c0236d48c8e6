#!/bin/bash
# SPDX-License-Identifier: MIT
# `xrun plan --from-reference FILE -o plan.yaml` and `xrun validate PLAN
# --reference FILE`: a published 2x2 matrix (MTU x streams, three published
# runs per cell, conditions and a tolerance) becomes a plan that validates,
# has the same number of cells, three runs per cell, the conditions as
# iperf3 parameters, a manual step for the hardware factor and marked
# places for the hosts; every shipped sample round-trips the same way; a
# latency table keeps xrun's metric names as metrics and gets a latency:
# block; a
# reference that does not fit a plan gets every problem at its line and
# column, with did-you-mean, and exit 2.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need jq
src=$XRUN_SOURCE_DIR
xr_tmpdir dir

cat > pub.csv <<'EOF'
# a published 2x2: 1 Gbit/s shaped link, iperf3 -t 3 -P {1,4}
format,2
title,Shaped link matrix
statistic,single
tolerance,3%
metric,throughput
unit,Mbit/s
condition,engine,iperf3
condition,duration,3
condition,congestion,cubic
condition,protocol,TCP
mtu,streams,value
1500,1,941.37
1500,1,941.12
1500,1,940.88
1500,4,936.50
1500,4,936.61
1500,4,936.40
9000,1,987.01
9000,1,986.95
9000,1,987.10
9000,4,985.33
9000,4,985.20
9000,4,985.41
EOF

fail=0
check() { if eval "$1"; then echo "ok - $2"; else echo "not ok - $2"; fail=1; fi; }
"$XRUN" plan --from-reference pub.csv -o plan.yaml 2> gen.err
check "\"$XRUN\" validate plan.yaml --reference pub.csv" \
	"the plan made from the reference validates, with the reference"
check "[ \"\$(\"$XRUN\" plan plan.yaml --json | jq .cells)\" = 4 ]" \
	"same number of cells (4)"
check "grep -qx 'repeat: 3' plan.yaml" "three runs per cell"
check "grep -qx '  duration: 3s' plan.yaml &&
	grep -qx '  congestion: \"cubic\"' plan.yaml" \
	"published duration and congestion control as iperf3 parameters"
check "grep -A3 '\"streams\":' plan.yaml | grep -qx '    param: parallel' &&
	grep -A3 '\"mtu\":' plan.yaml | grep -qF 'manual: \"Set up mtu {{mtu}}\"'" \
	"streams sets parallel; mtu is a manual step"
check "[ \$(grep -c 'TODO' plan.yaml) -ge 2 ] &&
	grep -q 'you@server.example' plan.yaml" "marked places for the hosts"
"$XRUN" plan --from-reference pub.csv > stdout.yaml
check "cmp -s stdout.yaml plan.yaml" "without -o: the same plan on stdout"

# every sample round-trips
for f in "$src"/samples/*.csv; do
	b=$(basename "$f" .csv)
	"$XRUN" plan --from-reference "$f" -o "$b.yaml" 2>/dev/null
	got=$("$XRUN" plan "$b.yaml" --json | jq .cells)
	check "\"$XRUN\" validate -q \"$b.yaml\" --reference \"$f\" &&
		[ \"$got\" -ge 1 ]" "sample $b: a valid plan ($got cells)"
done
check "[ \"\$(\"$XRUN\" plan seed001-pcie-slots.yaml --json | jq .cells)\" = 24 ]" \
	"seed001: 24 cells as published"

# columns that are no factor names, levels no parameter can take: still a
# valid plan with the same cells
printf 'MTU (bytes),rep,streams,value\n1500,1,1 stream,9\n9000,2,4 streams,9\n' > odd.csv
"$XRUN" plan --from-reference odd.csv -o odd.yaml 2> odd.err
check "\"$XRUN\" validate -q odd.yaml &&
	[ \"\$(\"$XRUN\" plan odd.yaml --json | jq .cells)\" = 2 ] &&
	grep -q \"column 'MTU (bytes)' becomes factor 'MTU__bytes_'\" odd.err &&
	grep -q \"column 'rep' becomes factor 'rep_'\" odd.err" \
	"odd column names and levels: a valid plan, renames said"

# a reference that does not fit a plan
cat > bad.csv <<'EOF'
format,2
condition,engine,command
condition,duration,5
mtu,stream,value
1500,1,940
9001,4,930
EOF
set +e
"$XRUN" validate plan.yaml --reference bad.csv 2> bad.err
rc=$?
set -e
check "[ $rc = 2 ]" "validate --reference: exit 2"
check "grep -q \"^bad.csv:2:18: error: published engine 'command', the plan runs 'iperf3'\" bad.err" \
	"a contradicted engine, at its position"
check "grep -q \"^bad.csv:3:20: error: published duration 5 s, the plan runs 3 s\" bad.err" \
	"a contradicted duration, at its position"
check "grep -q \"^bad.csv:4:5: warning: column 'stream' is not a factor of the plan (did you mean 'streams'?)\" bad.err" \
	"a misspelled factor column: did you mean"
check "grep -q \"^bad.csv:6:1: error: '9001' is not a level of factor 'mtu'; did you mean '9000'?\" bad.err" \
	"a misspelled level: did you mean, at its position"
set +e
"$XRUN" plan plan.yaml --reference bad.csv > /dev/null 2> plan.err
rc=$?
set -e
check "[ $rc = 2 ] && grep -q '^bad.csv:6:1: error' plan.err" \
	"xrun plan --reference checks too"
# A latency table (issue 34): xrun's own metric names, with their units in
# the header, are published metrics, not factors: one factor (queue), 3
# cells, no exclusions (were 3 factors, 9 cells, 27 exclusions), and the
# latency: block that measures latency.loaded_p50.
cat > lat.csv <<'EOF'
format,2
statistic,median
metric,latency.loaded_p50
unit,ms
queue,latency.idle_p50 (ms),value,throughput (Mbit/s)
20ms,0.2,15.1,190
100ms,0.3,47.0,190
200ms,0.2,95.2,191
EOF
"$XRUN" plan --from-reference lat.csv -o lat.yaml 2> lat.err
check "[ \"\$(\"$XRUN\" plan lat.yaml --json | jq -c '[.cells, (.factors | length)]')\" = '[3,1]' ] &&
	! grep -q '^exclude:' lat.yaml && ! grep -q 'becomes factor' lat.err" \
	"latency table: 1 factor, 3 cells, no exclusions"
check "grep -qxF 'latency: { probe: ping, from: client, to: server, interval: 100ms, idle: 2s }' lat.yaml" \
	"latency table: the latency: block"
check "\"$XRUN\" validate lat.yaml --reference lat.csv 2>/dev/null" \
	"latency table: the plan validates with its reference"
[ $fail = 0 ] || { cat gen.err bad.err plan.yaml lat.err lat.yaml >&2; }
exit $fail
