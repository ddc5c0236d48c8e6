#!/bin/bash
# SPDX-License-Identifier: MIT
# References read their units (schema/reference.md, "Units"). A command
# engine prints a throughput of 940, 941, 942 Mbit/s and a loaded RTT of
# 46.6, 47.0, 47.4 ms (reps 1, 2, 3); medians 941 Mbit/s = 9.41e8 bit/s
# and 47.0 ms = 0.047 s. The same published table is written five ways:
#  - latency in ms with no unit: read as 47 s, so the ratio measured /
#    published is 0.047 / 47 = 0.001: a warning naming the column, the
#    row (line 4, column 7) and the unit that fits (ms);
#  - `latency.loaded_p50 (ms)` in the header: 0.047 s, ratio 1, no
#    warning; `value` without a unit is read in Gbit/s (the default): 941
#    Gbit/s against 0.941 measured, a warning proposing Mbit/s;
#  - `unit,latency.loaded_p50,ms` and `value (Mbit/s)`: both right;
#  - `unit,latency.loaded_p50,Mbit/s`: not a time, an error at its line;
#  - a header unit and a declaration that disagree: an error.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need jq
xr_tmpdir dir

cat > gen.sh <<'EOF'
#!/bin/bash
v=(46.6 47.0 47.4)
t=(940 941 942)
echo "rtt: ${v[$(( $1 % 3 ))]} ms rate: ${t[$(( $1 % 3 ))]} Mbit/s"
EOF
cat > plan.yaml <<'EOF'
xrun: 1
name: units
engine:
  type: command
  run: [bash, "./gen.sh", "{{rep}}"]
  metrics:
    throughput: { regex: "rate: ([0-9.]+)", unit: Mbit/s }
    latency.loaded_p50: { regex: "rtt: ([0-9.]+)", unit: ms }
factors:
  streams: { levels: ["1", "4"] }
sample: off
counters: none
repeat: 3
EOF
printf 'metric,throughput\nunit,Mbit/s\nstreams,value,latency.loaded_p50\n1,941,47.0\n4,941,47.0\n' > bare.csv
printf 'metric,throughput\nstreams,value,latency.loaded_p50 (ms)\n1,941,47.0\n4,941,47.0\n' > head.csv
printf 'metric,throughput\nunit,latency.loaded_p50,ms\nstreams,value (Mbit/s),latency.loaded_p50\n1,941,47.0\n4,941,47.0\n' > decl.csv
printf 'metric,throughput\nunit,Mbit/s\nunit,latency.loaded_p50,Mbit/s\nstreams,value,latency.loaded_p50\n1,941,47.0\n' > kind.csv
printf 'metric,throughput\nunit,Mbit/s\nunit,latency.loaded_p50,us\nstreams,value,latency.loaded_p50 (ms)\n1,941,47.0\n' > both.csv

fail=0
check() { if eval "$1"; then echo "ok - $2"; else echo "not ok - $2"; fail=1; fi; }
lat() { jq -c '[.reference.rows[] | .values[] | select(.metric ==
	"latency.loaded_p50") | [.published, .ratio]]' "$1"; }

"$XRUN" run plan.yaml --db u.db --unattended --quiet
for f in bare head decl; do
	"$XRUN" report --db u.db --reference $f.csv -o $f.json 2> $f.err
done
check "grep -qxF \"bare.csv:4:7: warning: column 'latency.loaded_p50': published 47 s is 10^3 times the measured median 0.047 s of streams=1 (2 of 2 published cells off by a power of 1000): written in ms? declare 'unit,latency.loaded_p50,ms' or head it 'latency.loaded_p50 (ms)'\" bare.err" \
	"no unit: a warning with column, row and the unit that fits"
check "[ \"\$(lat bare.json)\" = '[[47,0.001],[47,0.001]]' ]" \
	"no unit: read in the base unit (47 s, ratio 0.001), not guessed"
check "[ \"\$(lat head.json)\" = '[[0.047,1],[0.047,1]]' ]" \
	"header (ms): 47.0 ms = 0.047 s, ratio 1"
check "! grep -q latency.loaded_p50 head.err &&
	grep -qF \"head.csv:3:3: warning: column 'value': published 9.41e+11 bit/s is 10^3 times the measured median 9.41e+08 bit/s of streams=1 (2 of 2 published cells off by a power of 1000): written in Mbit/s? say 'unit,Mbit/s' or head it 'value (Mbit/s)'\" head.err" \
	"value in Mbit/s read as Gbit/s (the default): warned, Mbit/s proposed"
check "[ \"\$(lat decl.json)\" = '[[0.047,1],[0.047,1]]' ] && [ ! -s decl.err -o \"\$(grep -c warning decl.err)\" = 0 ] &&
	[ \"\$(jq -c '[.reference.rows[] | .values[0] | [.published, .ratio]]' decl.json)\" = '[[941000000,1],[941000000,1]]' ]" \
	"declared unit and value (Mbit/s): both right, no warning"
rc=0; "$XRUN" report --db u.db --reference kind.csv -o kind.json 2> kind.err || rc=$?
check "[ $rc = 2 ] && grep -qF \"kind.csv:3:25: error: column 'latency.loaded_p50' is in Mbit/s, which does not fit metric 'latency.loaded_p50' (stored in s)\" kind.err && [ ! -e kind.json ]" \
	"a unit of another kind: error at its position, exit 2, no report"
rc=0; "$XRUN" report --db u.db --reference both.csv -o both.json 2> both.err || rc=$?
check "[ $rc = 2 ] && grep -qF \"both.csv:4:15: error: column 'latency.loaded_p50' is headed in ms but line 3 says us\" both.err" \
	"header and declaration disagree: error"
exit $fail
