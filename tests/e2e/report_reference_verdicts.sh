#!/bin/bash
# SPDX-License-Identifier: MIT
# Reference v2 verdicts from controlled data (schema/reference.md,
# "Verdicts"): a command engine prints known values per cell, a reference
# beside publishes cells that must come out reproduced (interval and TOST),
# differs (with direction and size), inconclusive, not_measured, ambiguous
# and not_comparable; --tolerance overrides the file's; every published
# value x 1.10 differs; published precision survives JSON, CSV, Markdown
# and PDF; the summary line is on page one in English and Japanese.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need jq
xr_tmpdir dir

# cell rep -> bit/s: a and b 999/1000/1001 Mbit/s, c 800/1000/1200
cat > gen.sh <<'EOF'
#!/bin/bash
case "$1" in
a|b) v=(999 1000 1001) ;;
c) v=(800 1000 1200) ;;
esac
echo "result: $(( ${v[$(( $2 % 3 ))]} * 1000000 )) bit/s"
EOF
cat > plan.yaml <<'EOF'
xrun: 1
name: ref-verdicts
engine:
  type: command
  run: [bash, "./gen.sh", "{{cell}}", "{{rep}}"]
  metrics:
    throughput: { regex: "result: ([0-9]+)", unit: bit/s }
factors:
  cell: { levels: [a, b, c] }
  side: { levels: [x, y] }
repeat: 3
order: abba
sample: off
EOF
cat > ref.csv <<'EOF'
# QA fixture: verdicts from known values
format,2
title,QA fixture
url,https://example.org/qa
statistic,mean
tolerance,3%
metric,throughput
unit,Mbit/s
condition,engine,command
cell,side,value
a,x,1000.00
b,x,1200
c,x,1000
a,y,998
a,y,1000
a,y,1002
b,y,955.37
d,x,5
EOF
# the same, every value x 1.10
awk -F, 'BEGIN{OFS=","} /^[abcd],/{$3=sprintf("%.2f",$3*1.10)} {print}' \
	ref.csv > ref110.csv
printf 'format,2\ncondition,engine,iperf3\ncell,side,value\na,x,1\n' > nc.csv
printf 'cell,value\na,1\n' > amb.csv

"$XRUN" run plan.yaml --db r.db --unattended --yes > run.out 2>&1 ||
	{ cat run.out >&2; exit 1; }
for f in r.json r.md r.csv r.pdf; do
	"$XRUN" report --db r.db --reference ref.csv -o "$f"
done
"$XRUN" report --db r.db --reference ref.csv --lang ja -o ja.md
"$XRUN" report --db r.db --reference ref110.csv -o x110.json
"$XRUN" report --db r.db --reference ref.csv --tolerance 25% -o tol.json
"$XRUN" report --db r.db --reference nc.csv -o nc.json
"$XRUN" report --db r.db --reference amb.csv -o amb.json

fail=0
check() { if eval "$1"; then echo "ok - $2"; else echo "not ok - $2"; fail=1; fi; }
j() { [ "$(jq -r "$2" "$1")" = true ]; }
v() { jq -r ".reference.rows[] | select(.label == \"$2\") | .$3" "$1"; }
check "j r.json '.reference | (.rows | length) == 6 and .format == 2 and
	.statistic == \"mean\" and .tolerance == 0.03 and
	.tolerance_source == \"file\" and .source.title == \"QA fixture\" and
	.conditions.engine == \"command\"'" "json: v2 settings, one row per cell"
check "[ \"\$(v r.json 'cell=a, side=x' verdict)\" = reproduced ] &&
	[ \"\$(v r.json 'cell=a, side=x' method)\" = interval ]" \
	"a,x reproduced by its interval"
check "[ \"\$(v r.json 'cell=b, side=x' verdict)\" = differs ] &&
	v r.json 'cell=b, side=x' reasons | grep -qx '16.7% below'" \
	"b,x differs, 16.7% below"
check "[ \"\$(v r.json 'cell=c, side=x' verdict)\" = inconclusive ]" \
	"c,x inconclusive (the interval crosses the tolerance)"
check "j r.json '.reference.rows[] | select(.label == \"cell=a, side=y\") |
	.verdict == \"reproduced\" and .method == \"tost\" and
	.published_runs == [998e6, 1000e6, 1002e6] and .published_lines == [14, 15, 16]
	and .p < 0.05'" "a,y: three published runs, reproduced by TOST"
check "[ \"\$(v r.json 'cell=b, side=y' verdict)\" = differs ] &&
	v r.json 'cell=b, side=y' reasons | grep -qx '4.7% above'" \
	"b,y differs, 4.7% above"
check "[ \"\$(v r.json 'cell=d, side=x' verdict)\" = not_measured ]" \
	"d,x not measured"
check "j r.json '.reference.summary == {\"reproduced\": 2, \"differs\": 2,
	\"inconclusive\": 1, \"not_comparable\": 0, \"not_verified\": 0,
	\"not_measured\": 1, \"ambiguous\": 0}'" "json: summary counts per verdict"
check "j x110.json '[.reference.rows[] | select(.label | test(\"cell=[ab]\"))
	| .verdict] == [\"differs\", \"differs\", \"differs\", \"differs\"]'" \
	"x 1.10: every a/b cell differs (TOST too)"
check "j tol.json '.reference.tolerance == 0.25 and
	.reference.tolerance_source == \"option\" and
	(.reference.rows[] | select(.label == \"cell=b, side=x\") |
	.verdict == \"reproduced\")'" "--tolerance 25% overrides the file"
check "j nc.json '.reference.rows[0] | .verdict == \"not_comparable\" and
	(.reasons | test(\"published engine iperf3, measured command\"))'" \
	"a published condition the runs contradict: not comparable"
check "j amb.json '.reference.rows[0].verdict == \"ambiguous\"'" "ambiguous"
# published precision
check "j r.json '[.reference.rows[] | select(.label == \"cell=b, side=y\") |
	.published_text[0]] == [\"955.37\"]'" "json: 955.37 as written"
check "grep -F '| b | y |' r.md | grep -qE '\\| 0\\.95537 \\|'" \
	"md: 955.37 Mbit/s keeps its digits (0.95537 Gbit/s)"
check "grep -q ',reference,955370000,' r.csv && grep -q ',differs,1,955\.37' r.csv" \
	"csv: published 955370000 bit/s and its text"
# page one and the table's verdict column
check "grep -E '^\\| Reference comparison \\| 2 of 6 published cells reproduced within ±3%; 2 differs: cell=b, side=x \\(16.7% below\\)' r.md" \
	"md: summary line in the header block"
check "grep -F '| a | y |' r.md | grep -q '| 3 |.*reproduced'" \
	"md: published runs and verdict columns"
check "grep -qx -- '- source: QA fixture; https://example.org/qa' r.md &&
	grep -qx -- '- statistic: mean' r.md && grep -qx -- '- tolerance: ±3%' r.md &&
	grep -qx -- '- published conditions: engine command' r.md" \
	"md: the reference's source, statistic, tolerance and conditions"
check "grep -q '公表セル 6 件中 2 件が ±3% 以内で再現' ja.md &&
	grep -q '| 判定 |' ja.md" "ja: summary and verdict column"
if command -v pdftotext >/dev/null; then
	pdftotext -l 1 -layout r.pdf p1.txt 2>/dev/null
	pdftotext -layout r.pdf r.txt 2>/dev/null
	check "grep -q '2 of 6 published cells reproduced' p1.txt" \
		"pdf: summary on page one"
	check "grep -q 'red line = published' r.txt && grep -q '0.95537' r.txt" \
		"pdf: published marks on the chart, precision in the table"
fi
exit $fail
