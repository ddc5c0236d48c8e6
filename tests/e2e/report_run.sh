#!/bin/bash
# SPDX-License-Identifier: MIT
# xrun report on a store written by a real `xrun run` of a command-engine
# plan: the command prints a throughput that is 10% higher for speed=fast
# than for speed=slow and the same for both levels of mode, with a little
# deterministic noise. The report must state +10% as significant with a CI
# containing 10%, call the mode pair neither better nor worse, give the
# explicit pair that names both factors on both sides a verdict as a
# configuration comparison naming both, and refuse a pair whose cells
# differ in a factor it does not name; in JSON, Markdown (English and
# Japanese) and CSV.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need jq
xr_tmpdir dir

cat > gen.sh <<'SH'
#!/bin/bash
# speed mode rep -> "result: <bit/s>"; noise in per mille from rep and mode
noise=(0 3 -2 1 -3 2 -1 0 2 -2)
n=${noise[$(( ($3 * 7 + ${#2} * 3) % 10 ))]}
base=2000000000
[ "$1" = fast ] && base=2200000000
echo "result: $(( base + base / 1000 * n )) bit/s"
SH
cat > plan.yaml <<'YAML'
xrun: 1
name: report-run
title: "Command engine: speed x mode"
engine:
  type: command
  run: [bash, "./gen.sh", "{{speed}}", "{{mode}}", "{{rep}}"]
  metrics:
    throughput: { regex: "result: ([0-9]+)", unit: bit/s }
factors:
  speed: { levels: [slow, fast] }
  mode: { levels: [x, yy] }
repeat: 4
order: abba
report:
  compare:
    - { factor: speed, baseline: slow }
    - { factor: mode }
    - { a: { speed: slow, mode: x }, b: { speed: fast, mode: yy } }
    - { a: { speed: slow }, b: { speed: fast, mode: yy } }
sample: off
YAML

if ! "$XRUN" run plan.yaml --db r.db --unattended --yes > run.out 2>&1; then
	cat run.out >&2
	exit 1
fi
"$XRUN" report plan.yaml --db r.db -o r.json
"$XRUN" report --db r.db -o r.md
"$XRUN" report --db r.db --lang ja -o ja.md
"$XRUN" report --db r.db -o r.csv
"$XRUN" report --db r.db --format json -o - | jq -e .cells > /dev/null

fail=0
expect() { # jq filter printing true, description
	if [ "$(jq -r "$1" r.json)" = true ]; then echo "ok - $2"; else
		echo "not ok - $2 ($1)"; fail=1; fi
}
expect '.runs.ok == 16 and (.cells | length) == 4' "16 runs in 4 cells"
expect '[.comparisons[] | select(.factor == "speed")] | length == 2 and
	all(.verdict == "better" and .ci_low_pct <= 10 and .ci_high_pct >= 10
	and .p < 0.01)' "speed: +10% significant, CI contains 10%"
expect '[.comparisons[] | select(.factor == "mode") | .verdict] |
	length == 2 and all(. == "equivalent" or . == "not_significant")' \
	"mode: the equal pair is not called different"
expect '[.comparisons[] | select(.factor == null and .configuration)] |
	length == 1 and all(.verdict == "better" and .factors == "speed, mode"
	and (.warning_codes | index("configuration") != null) and
	(.warnings | join(" ") | test("speed, mode")))' \
	"two-factor pair declared on both sides: a configuration verdict naming both"
expect '[.comparisons[] | select(.factor == null and (.configuration | not))
	| select(.verdict == "not_comparable")] | length == 1 and
	all(.reason_codes == ["factors_differ"] and (.reasons | join(" ") |
	test("speed") and test("mode")))' \
	"a pair whose cells differ in a factor it does not name is refused"
expect '[.cells[].median] | all(. >= 1.9e9 and . <= 2.3e9)' \
	"medians in base units"

grep -q '^| speed' r.md && grep -q '^|---' r.md && echo "ok - md table" ||
	{ echo "not ok - md table"; fail=1; }
grep -qE '\+10\.[0-9]% \[\+[0-9.]+, \+[0-9.]+\]' r.md &&
	echo "ok - md verdict +10%" || { echo "not ok - md verdict"; fail=1; }
grep -qF '— not comparable: cells differ in speed, mode' r.md &&
	echo "ok - md refusal" || { echo "not ok - md refusal"; fail=1; }
grep -qE 'better; configuration comparison of speed, mode' r.md &&
	echo "ok - md configuration verdict" ||
	{ echo "not ok - md configuration verdict"; fail=1; }
grep -qF '2.00' r.md && grep -qF '2.20' r.md && echo "ok - md medians" ||
	{ echo "not ok - md medians"; fail=1; }
grep -qF '## 比較' ja.md && grep -qF '注記' ja.md && echo "ok - ja headings" ||
	{ echo "not ok - ja headings"; fail=1; }
[ "$(head -1 r.csv | cut -d, -f1-4)" = "plan,speed,mode,metric" ] &&
	[ "$(grep -c '^report-run,' r.csv)" -ge 4 ] && echo "ok - csv" ||
	{ echo "not ok - csv"; fail=1; }
exit $fail
