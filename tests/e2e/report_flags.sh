#!/bin/bash
# SPDX-License-Identifier: MIT
# Comparability flags from a real command-engine run in sequential order:
# a cell with a failed run, an unstable cell (CV >= 10%), a compared
# setting verified wrong, runs not interleaved. Each flag is explained once
# in the notes (English and Japanese, Markdown and PDF), with its numbers;
# the not_interleaved windows show seconds, so that two disjoint windows of
# short runs do not read as the same minute.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need jq
xr_tmpdir dir

cat > gen.sh <<'EOF'
#!/bin/bash
# kind tune rep
sleep 0.35
case $1 in
flaky) [ "$3" = 2 ] && { echo boom >&2; exit 1; }; v=3000000000 ;;
noisy) n=(0 30 -25 20 -30); v=$(( 3000000000 + 30000000 * ${n[$3]} )) ;;
esac
[ "$2" = hi ] && v=$(( v + v / 20 ))
echo "result: $v bit/s"
EOF
cat > plan.yaml <<'EOF'
xrun: 1
name: report-flags
engine:
  type: command
  run: [bash, "./gen.sh", "{{kind}}", "{{tune}}", "{{rep}}"]
  metrics:
    throughput: { regex: "result: ([0-9]+)", unit: bit/s }
factors:
  kind: { levels: [flaky, noisy] }
  tune:
    levels: [lo, hi]
    apply: [bash, -c, "echo {{tune}} > ./tune.state"]
    verify: { run: [bash, -c, "echo wrong"], expect: "{{tune}}" }
repeat: 4
order: sequential
report:
  compare: [ { factor: tune, baseline: lo } ]
sample: off
EOF
set +e
"$XRUN" run plan.yaml --db f.db --unattended --yes > run.out 2>&1
rc=$?
set -e
[ $rc = 1 ] || { cat run.out >&2; echo "not ok - run exit $rc (want 1)"; exit 1; }
"$XRUN" report --db f.db -o f.json
"$XRUN" report --db f.db -o f.md
"$XRUN" report --db f.db --lang ja -o ja.md
"$XRUN" report --db f.db -o f.pdf

fail=0
check() { if eval "$1"; then echo "ok - $2"; else echo "not ok - $2"; fail=1; fi; }
j() { [ "$(jq -r "$1" f.json)" = true ]; }
check "j '[.cells[] | select(.cell.kind == \"flaky\") | .flags | index(\"failed_runs\") != null] | all and length == 2'" \
	"failed_runs on both flaky cells"
check "j '[.cells[] | select(.cell.kind == \"flaky\") | .flag_details[] | select(.code == \"failed_runs\") | .detail | test(\"1 failed\")] | all and length == 2'" \
	"failed_runs with the count"
check "j '[.cells[] | select(.cell.kind == \"noisy\") | .flag_details[] | select(.code == \"unstable\") | .detail | test(\"CV [0-9.]+%\")] | length == 2'" \
	"unstable with its CV"
check "j '[.comparisons[] | .verdict == \"not_comparable\" and (.reason_codes | index(\"verify_failed\") != null)] | all and length == 2'" \
	"verified wrong refuses the comparison"
# not interleaved refuses (issue 9): a reason now, beside verify_failed
check "j '[.comparisons[] | .reason_codes | index(\"not_interleaved\") != null] | all'" \
	"sequential order: not_interleaved"
# "A hh:mm:ss to hh:mm:ss, B hh:mm:ss to hh:mm:ss UTC yyyy-mm-dd", A ends
# before B starts, B ends after A ends
win=$(jq -r '[.comparisons[0].reasons[] | select(test("interleaved"))][0]' f.json)
check "echo \"\$win\" | grep -qE 'A [0-9]{2}:[0-9]{2}:[0-9]{2} to [0-9:]{8}, B [0-9:]{8} to [0-9:]{8} UTC'" \
	"windows with seconds: $win"
check "python3 -c '
import re, sys
t = re.findall(r\"[0-9]{2}:[0-9]{2}:[0-9]{2}\", sys.argv[1])
assert t[1] <= t[2] and t[1] < t[3], t' \"\$win\"" "A ends before B starts"
for code in verify_failed not_interleaved failed_runs unstable; do
	check "[ \$(grep -c \"^[0-9]*\\. \\*\\*$code\\*\\*\" f.md) = 1 ] &&
		[ \$(grep -c \"^[0-9]*\\. \\*\\*$code\\*\\*\" ja.md) = 1 ]" \
		"$code explained once in the notes (en, ja)"
done
check "grep -qF '失敗またはタイムアウトした試行がある' ja.md &&
	grep -qF '変動係数が 10% 以上' ja.md" "Japanese flag sentences"
if command -v pdftotext >/dev/null; then
	pdftotext f.pdf f.txt 2>/dev/null
	for code in verify_failed not_interleaved failed_runs unstable; do
		check "[ \$(tr '\\n' ' ' < f.txt | grep -o \"($code)\" | wc -l) = 1 ]" \
			"pdf: $code explained once"
	done
	# comparison flags list the comparisons they apply to, with details
	check "tr '\\n' ' ' < f.txt | grep -qE 'kind=flaky: tune=lo → tune=hi: A [0-9:]{8} to'" \
		"pdf: not_interleaved names its comparisons and windows"
fi
exit $fail
