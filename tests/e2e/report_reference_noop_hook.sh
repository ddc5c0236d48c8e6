#!/bin/bash
# SPDX-License-Identifier: MIT
# No verdict on what did not run (issue 34; schema/report.md,
# "Verification"; schema/reference.md, "Verdicts"). A published latency
# table (loaded RTT behind a queue limit of 20, 100 and 200 ms) is
# "reproduced" by a plan whose queue factor's apply hook does nothing: the
# link keeps its 47 ms whatever the level. The command engine prints the
# loaded RTT that link gives, 47.0, 47.4, 46.6 ms for reps 1, 2, 3 (the
# same code path as a probe's latency.loaded_p50: a metric in ms stored in
# s). By hand: every cell's median is 47.0 ms, its 3-run interval
# [46.6, 47.4] ms lies within 47.0 +-5% = [44.65, 49.35], so without the
# rule queue=100ms would read "reproduced" (1 of 3) with the queue limit
# never set.
#  1. no verify: every row and every comparison is not_verified, 0 of 3
#     reproduced, in JSON, Markdown, HTML, CSV, JUnit (and PDF when
#     pdftotext is here); the run exits 0 and counts 9 runs never verified,
#     and so does `xrun status`;
#  2. a verify (two entries a run: 2 checks, 1 run) that reads the real
#     state 'default': every row and comparison not_comparable with the
#     reason in runs (3 of 3, not 6 of 6); exit 5; status counts 9;
#  3. a verify reading '100ms' (the link really is at 100 ms): that row is
#     verified and reproduced, the other two not_comparable: 1 of 3.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need jq
xr_tmpdir dir

cat > gen.sh <<'EOF'
#!/bin/bash
v=(46.6 47.0 47.4)
echo "rtt: ${v[$(( $1 % 3 ))]} ms"
EOF
plan() { # NAME [verify lines]
	cat > "$1.yaml" <<EOF
xrun: 1
name: $1
engine:
  type: command
  run: [bash, "./gen.sh", "{{rep}}"]
  metrics:
    latency.loaded_p50: { regex: "rtt: ([0-9.]+)", unit: ms }
factors:
  queue:
    levels: [20ms, 100ms, 200ms]
    apply: [true]
${2:-}
sample: off
counters: none
repeat: 3
order: abba
report:
  compare: [{ factor: queue, baseline: 20ms }]
EOF
}
cat > lat.csv <<'EOF'
# latency under load behind a tbf, its queue limit the factor (fixture)
format,2
statistic,median
metric,latency.loaded_p50
unit,ms
queue,value
20ms,15.0
100ms,47.0
200ms,95.0
EOF

fail=0
check() { if eval "$1"; then echo "ok - $2"; else echo "not ok - $2"; fail=1; fi; }
j() { [ "$(jq -r "$2" "$1")" = true ]; }

# 1. No verify.
plan nv
rc=0; "$XRUN" run nv.yaml --db nv.db --unattended --quiet 2> nv.err || rc=$?
check "[ $rc = 0 ] && grep -qxF \"xrun: 9 ok runs of the session had a setting applied but never verified (no verify declared: queue): the report calls comparisons and published cells of it not_verified\" nv.err" \
	"no verify: exit 0, 9 runs counted never verified"
"$XRUN" status --db nv.db > nv.status
check "grep -qxF 'verification: 0 of 9 ok runs with a setting verified wrong, 9 with a setting never verified (no verify declared: queue)' nv.status" \
	"status: 9 never verified"
for f in nv.json nv.md nv.html nv.csv nv.xml; do
	"$XRUN" report --db nv.db --reference lat.csv -o "$f" 2>/dev/null
done
nvr='queue: 3 of 3 runs (no verify declared)'
check "j nv.json '[.reference.rows[] | .verdict == \"not_verified\" and
	.reasons == \"$nvr\"] | all and length == 3'" \
	"json: every row not_verified, 3 of 3 runs"
check "j nv.json '.reference.summary.reproduced == 0 and
	.reference.summary.not_verified == 3 and .reference.summary.differs == 0'" \
	"json: summary counts 0 reproduced, 3 not verified"
sum="0 of 3 published cells reproduced within ±5%; 3 not verified: queue=20ms ($nvr), queue=100ms ($nvr), queue=200ms ($nvr)"
check "[ \"\$(jq -r .reference.summary_text nv.json)\" = \"$sum\" ]" \
	"json: the summary line"
check "j nv.json '[.reference.rows[] | .values[0].median] == [0.047, 0.047, 0.047]'" \
	"json: the measured medians are still shown (47.0 ms each)"
check "j nv.json '[.comparisons[] | .verdict == \"not_verified\" and
	.delta_pct == null and .reason_codes == [\"not_verified\"] and
	(.reasons[0] | endswith(\"(queue: 3 of 3 runs on A, 3 of 3 on B)\"))] |
	all and length == 2'" "json: both comparisons not_verified, in runs"
check "grep -qF \"$sum\" nv.md && grep -F '| 100ms |' nv.md |
	grep -qF \"not verified: $nvr\"" \
	"md: summary line and the 100ms row not verified"
check "! grep -F '| 100ms |' nv.md | grep -qE '\\| reproduced'" \
	"md: no row reproduced"
check "grep -qF \"not verified: $nvr\" nv.html && grep -qF \"$sum\" nv.html" \
	"html: verdict and summary"
check "[ \"\$(awk -F, 'NR==1{for(i=1;i<=NF;i++)if(\$i==\"ref_verdict\")c=i}
	NR>1&&c&&\$c!=\"\"{print \$c}' nv.csv | sort | uniq -c | awk '{print \$1, \$2}')\" = '3 not_verified' ]" \
	"csv: ref_verdict not_verified on the 3 published rows"
check "grep -q 'tests=\"2\" failures=\"0\" errors=\"0\" skipped=\"2\"' nv.xml" \
	"junit: both comparisons skipped, none failed"
rc=0; "$XRUN" report --db nv.db --fail-on not_verified -o gate.xml 2>/dev/null || rc=$?
check "[ $rc = 4 ] && grep -q 'failures=\"2\"' gate.xml" \
	"--fail-on not_verified: exit 4, 2 failures"
if command -v pdftotext >/dev/null; then
	"$XRUN" report --db nv.db --reference lat.csv -o nv.pdf 2>/dev/null
	pdftotext -layout nv.pdf nv.txt 2>/dev/null
	check "grep -qF '0 of 3 published cells reproduced' nv.txt &&
		grep -qF 'not verified' nv.txt" "pdf: summary and verdict"
fi

# 2. A verify that reads the real state, two entries: 2 checks a run.
echo default > qstate
plan vf '    verify:
      - { run: [cat, ./qstate] }
      - { run: [cat, ./qstate] }'
rc=0; "$XRUN" run vf.yaml --db vf.db --unattended --quiet 2> vf.err || rc=$?
check "[ $rc = 5 ] && grep -qF 'xrun: 9 ok runs of the session had a setting verified wrong: they did not measure what the plan says, and the report gives them no verdict (exit 5; '\"'\"'xrun status'\"'\"' counts them)' vf.err" \
	"verified wrong: exit 5, 9 runs counted"
"$XRUN" status --db vf.db > vf.status
check "grep -qxF 'verification: 9 of 9 ok runs with a setting verified wrong, 0 with a setting never verified' vf.status" \
	"status: 9 verified wrong"
"$XRUN" report --db vf.db --reference lat.csv -o vf.json 2>/dev/null
check "j vf.json '[.reference.rows[] | .verdict == \"not_comparable\" and
	(.reasons | test(\"^setting verified wrong: queue: 3 of 3 runs, expected .[0-9]+ms., got .default.$\"))] |
	all and length == 3' && j vf.json '.reference.summary.reproduced == 0'" \
	"json: every row not_comparable, 3 of 3 runs (not 6 of 6 checks)"
check "j vf.json '[.comparisons[] | .verdict == \"not_comparable\" and
	(.reasons[0] | endswith(\"(queue: 3 of 3 runs on A, 3 of 3 on B)\"))] |
	all and length == 2'" "json: comparisons refused, 3 of 3 runs a side"
check "j vf.json '[.cells[] | .flags | index(\"verify_failed\") != null] | all'" \
	"json: every cell verify_failed"

# 3. The link really is at 100 ms: that row verified, and reproduced.
echo 100ms > qstate
plan vok '    verify: { run: [cat, ./qstate] }'
"$XRUN" run vok.yaml --db vok.db --unattended --quiet 2>/dev/null || true
"$XRUN" report --db vok.db --reference lat.csv -o vok.json 2>/dev/null
check "j vok.json '[.reference.rows[] | .verdict] == [\"not_comparable\",
	\"reproduced\", \"not_comparable\"] and .reference.summary.reproduced == 1'" \
	"a verified row is judged: 1 of 3 reproduced"
exit $fail
