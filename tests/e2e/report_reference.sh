#!/bin/bash
# SPDX-License-Identifier: MIT
# xrun report --reference: a real command-engine run whose cells match a
# small published matrix (schema/reference.md). Each format carries the
# "Reference comparison" section: published value, measured median, 95% CI,
# min-max, ratio and in-range, a not-measured row and an ambiguous one;
# CSV parses with the same column count on every row; a bad reference file
# gets every problem as FILE:LINE:COL: error: ... and exit 2, and no report.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need jq
xr_tmpdir dir

# nic mode rep -> bit/s: nic b is 10% above a; +-0.3% deterministic noise
cat > gen.sh <<'EOF'
#!/bin/bash
noise=(0 3 -2 1 -3 2 -1 0 2 -2)
n=${noise[$(( ($3 * 7 + ${#2} * 3) % 10 ))]}
base=4000000000
[ "$1" = b ] && base=4400000000
echo "result: $(( base + base / 1000 * n )) bit/s"
EOF
cat > plan.yaml <<'EOF'
xrun: 1
name: report-ref
engine:
  type: command
  run: [bash, "./gen.sh", "{{nic}}", "{{mode}}", "{{rep}}"]
  metrics:
    throughput: { regex: "result: ([0-9]+)", unit: bit/s }
factors:
  nic: { levels: [a, b] }
  mode: { levels: [x, y] }
repeat: 3
order: abba
sample: off
EOF
cat > ref.csv <<'EOF'
# published: nic x mode, Gbit/s (QA fixture)
metric,throughput
unit,Gbit/s
nic,mode,value
a,x,4.0
b,x,4.8
a,y,4.0
c,x,1.0
EOF
printf 'nic,value\nb,4.4\n' > amb.csv

"$XRUN" run plan.yaml --db r.db --unattended --yes > run.out 2>&1 ||
	{ cat run.out >&2; exit 1; }
for f in r.md r.json r.csv r.pdf; do
	"$XRUN" report --db r.db --reference ref.csv -o "$f"
done
"$XRUN" report --db r.db --reference ref.csv --lang ja -o ja.md

fail=0
check() { if eval "$1"; then echo "ok - $2"; else echo "not ok - $2"; fail=1; fi; }
j() { [ "$(jq -r "$1" r.json)" = true ]; }
check "j '.reference.file == \"ref.csv\" and .reference.matched == 3 and
	.reference.not_measured == 1 and (.reference.rows | length) == 4'" \
	"json: 3 matched, 1 not measured"
check "j '.reference.rows[0] | .line == 5 and .status == \"matched\" and
	.levels == {\"nic\": \"a\", \"mode\": \"x\"} and
	.values[0].published == 4e9 and .values[0].in_range == true and
	(.values[0].ratio - 1 | fabs) < 0.01 and
	.values[0].ci_low < .values[0].median and .values[0].n == 3'" \
	"json: a,x matched, in range, ratio ~1"
check "j '.reference.rows[1] | .status == \"matched\" and
	.values[0].in_range == false and (.values[0].ratio - 4.4/4.8 | fabs) < 0.01'" \
	"json: b,x published 4.8 out of range, ratio ~0.917"
check "j '.reference.rows[3] | .status == \"not_measured\" and
	.cell == null and (.detail | test(\"c\"))'" "json: c,x not measured"
md_row=$(grep -F '| b | x | 4.80 |' r.md | grep -F '4.80' || true)
check "[ -n \"\$md_row\" ] && echo \"\$md_row\" | grep -qF '4.40' &&
	echo \"\$md_row\" | grep -qF '0.917' && echo \"\$md_row\" | grep -qF '| no |'" \
	"md: b,x row with published, median, ratio, not in range"
check "grep -q '^## Reference comparison' r.md &&
	grep -F '| c | x | 1.00 |' r.md | grep -qF 'not measured'" \
	"md: section and not-measured row"
check "awk -F'|' '/^## /{s=0} /^## Reference/{s=1} s&&/^\\|/{print NF}' r.md | sort -u |
	wc -l | grep -qx 1" "md: reference table has one column count"
check "grep -q '^## 公表値との比較' ja.md && grep -qF '未測定' ja.md" \
	"ja: heading and not measured"
check "python3 - <<'EOF'
import csv, sys
rows = list(csv.DictReader(open('r.csv', newline='')))
assert len({len(r) for r in rows}) == 1
ref = [r for r in rows if r['source'] == 'reference']
assert len(ref) == 4, ref
bx = [r for r in ref if r['nic'] == 'b' and r['mode'] == 'x'][0]
assert float(bx['published']) == 4.8e9 and bx['in_range'] == 'no'
assert bx['ref_status'] == 'matched' and bx['ref_line'] == '6'
assert abs(float(bx['median']) - 4.4e9) < 0.05e9
assert [r for r in ref if r['nic'] == 'c'][0]['ref_status'] == 'not_measured'
assert all(r['source'] == 'measured' for r in rows if r not in ref)
EOF" "csv: reference rows parse with python csv"
if command -v pdftotext >/dev/null; then
	pdftotext -layout r.pdf r.txt
	check "grep -q 'Reference comparison' r.txt &&
		grep -E '^ *b +x ' r.txt | grep -q '4.80.*4.40.*0.917'" \
		"pdf: reference section with the b,x numbers"
fi
"$XRUN" report --db r.db --reference amb.csv -o amb.json
check "[ \"\$(jq -r '.reference.rows[0].status' amb.json)\" = ambiguous ] &&
	jq -r '.reference.rows[0].detail' amb.json | grep -q mode" \
	"ambiguous row names the factor that differs"

# a bad reference: every problem with its position, exit 2, no report
printf 'metric,throughput\nunits,Gbit/s\nnic,mod,value\na,x,fast\na,y\n' > bad.csv
set +e
"$XRUN" report --db r.db --reference bad.csv -o bad.md 2> bad.err
rc=$?
set -e
check "[ $rc = 2 ] && [ ! -e bad.md ]" "bad reference: exit 2, no report"
check "grep -qx \"bad.csv:2:1: error: unknown setting 'units'.*\" bad.err &&
	grep -q \"^bad.csv:3:5: error: unknown column 'mod'\" bad.err &&
	grep -q \"^bad.csv:4:5: error: value 'fast' is not a number\" bad.err &&
	grep -q '^bad.csv:5:1: error: 2 fields, but the header (line 3) has 3' bad.err" \
	"bad reference: each error at its line and column"
set +e
"$XRUN" report --db r.db --reference missing.csv -o bad.md 2> miss.err
rc=$?
set -e
check "[ $rc = 2 ] && grep -q 'missing.csv' miss.err" "missing reference: exit 2"
[ $fail = 0 ] || cat bad.err >&2
exit $fail
