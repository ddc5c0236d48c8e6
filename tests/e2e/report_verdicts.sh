#!/bin/bash
# SPDX-License-Identifier: MIT
# Verdicts from controlled data (issue 9): the command engine runs
# lib/known_values.sh, which prints a value from a table by scenario, run
# index (execution order), repetition and levels, so every comparison's
# truth is known. Each case is read back from `xrun report -o x.json`
# comparisons[] (verdict, reason_codes, warning_codes, p, ci_*_pct):
#  - sequential order with drift and no effect: refused (not better/worse),
#    the position model's estimate as sensitivity; accepted with
#    `accept: sequential`: the verdict stands with the warning;
#  - a +1% effect with the CI crossing the 1% threshold: `different`, p <
#    0.05 (never not_significant); a -10% drop: `worse`; +10%: `better`;
#    the direction of a `%` metric from `better: higher`, of latency from
#    its name (a drop is better);
#  - one halved run masking +5%: `outlier`, robust estimate shown;
#  - identical values: no verdict (zero_variance);
#  - an apply hook without verify: not_verified;
#  - an explicit pair of two factors with +10%: a verdict naming both;
#  - store edits for what a loopback run cannot produce (a second session
#    with another kernel, units, engine parameters, NIC counters, the
#    controller's load pinned low and then above its CPU count, a zero);
#  - at the end, every flag of schema/report.md's table was raised here.
set -eu
: "${XRUN:?set XRUN to the xrun binary}"
command -v jq >/dev/null || { echo "skip: jq is needed"; exit 77; }
command -v sqlite3 >/dev/null || { echo "skip: sqlite3 is needed"; exit 77; }
SRC=${XRUN_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
cp "$SRC/tests/e2e/lib/known_values.sh" ./gen.sh

fail=0
seen=seen.txt
: >$seen
# plan NAME SCENARIO ORDER REPEAT [FACTOR-YAML] [REPORT-YAML] [METRICS-YAML]
plan() {
	local fac=${5:-"  x: { levels: [a, b] }"}
	local met=${7:-'    throughput: { regex: "result: ([0-9]+)", unit: bit/s }'}
	{
		echo "xrun: 1"
		echo "name: $1"
		echo "engine:"
		echo "  type: command"
		echo "  run: [bash, ./gen.sh, $2, \"{{index}}\", \"{{rep}}\", \"{{x}}\"]"
		echo "  metrics:"
		echo "$met"
		echo "factors:"
		echo "$fac"
		echo "repeat: $4"
		echo "order: $3"
		# the subject is the statistics, not sampling nor counters (the
		# counter warnings below come from rows this test writes)
		echo "sample: off"
		echo "counters: none"
		[ -z "${6:-}" ] || { echo "report:"; echo "$6"; }
	} >"$1.yaml"
}
run() { # NAME [report args]: run the plan NAME.yaml, report to NAME.json
	local n=$1
	shift
	"$XRUN" run "$n.yaml" --db "$n.db" --quiet --unattended --yes \
		>"$n.out" 2>&1 || true
	report "$n" "$@"
}
report() { # DB-NAME [args]: report NAME.db to NAME.json, record its flags
	local n=$1
	shift
	"$XRUN" report --db "$n.db" -o "$n.json" "$@"
	jq -r '(.comparisons[] | (.reason_codes + .warning_codes)[]),
		(.cells[] | .flags[])' "$n.json" >>$seen
}
check() { # FILE JQ-FILTER DESCRIPTION
	if [ "$(jq -r "$2" "$1")" = true ]; then echo "ok - $3"; else
		echo "not ok - $3"
		jq -c '.comparisons[] | {factor, verdict, p, ci_low_pct,
			ci_high_pct, reason_codes, warning_codes}' "$1" >&2
		fail=1
	fi
}

# 1. Sequential order, +1% drift per run, no effect.
plan drift drift sequential 6
run drift
check drift.json '[.comparisons[] | .verdict != "better" and
	.verdict != "worse" and .verdict == "not_comparable" and
	(.reason_codes | index("not_interleaved") != null)] | all' \
	"sequential with drift and no effect: refused, not better/worse"
check drift.json '[.comparisons[] | .sensitivity.method == "position-ols"
	and .sensitivity.ci_low_pct <= 0 and .sensitivity.ci_high_pct >= 0] |
	all' "sensitivity: the position model finds no effect"
plan accepted drift sequential 6 "" \
	"  compare: [ { factor: x, accept: sequential } ]"
run accepted
check accepted.json '[.comparisons[] | .verdict != "not_comparable" and
	(.warning_codes | index("accepted_sequential") != null) and
	(.warning_codes | index("not_interleaved") != null)] | all' \
	"accept: sequential: the verdict stands with the warning"
"$XRUN" report --db accepted.db -o accepted.md
grep -qF 'sequential, accepted: drift, not_interleaved' accepted.md &&
	echo "ok - the accepted design is written in the verdict cell" ||
	{ echo "not ok - accepted design in the verdict cell"; fail=1; }

# 2. +1% with 0.1-0.4% noise: the CI excludes 0 and crosses +1%.
plan small small abba 8
run small
check small.json '[.comparisons[] | .verdict == "different" and .p < 0.05
	and .ci_low_pct > 0 and .ci_low_pct < 1 and .ci_high_pct > 1] | all' \
	"CI excluding 0 but crossing the threshold: different"

# 3. A significant drop is worse; +10% better; direction of metrics.
plan drop drop abba 4
run drop
check drop.json '[.comparisons[] | .verdict == "worse" and
	.ci_high_pct < -1] | all' "-10% throughput: worse"
plan up up abba 4
run up
check up.json '[.comparisons[] | .verdict == "better" and
	.ci_low_pct > 1] | all' "+10% throughput: better"
plan dir drop abba 4 "" "" \
	'    success: { regex: "result: ([0-9]+)", unit: "%", better: higher }
    latency: { regex: "result: ([0-9]+)", unit: ms }'
run dir --metric success
check dir.json '[.comparisons[] | .verdict == "worse" and
	.higher_is_better] | all' "a drop of a % metric with better: higher is worse"
report dir --metric latency
check dir.json '[.comparisons[] | .verdict == "better" and
	(.higher_is_better | not)] | all' "a drop of latency is better"

# 4. One B run halved, true effect +5%.
plan outlier outlier abba 8
run outlier
check outlier.json '[.comparisons[] | (.warning_codes | index("outlier")
	!= null) and .robust.disagrees and .robust.hl_pct > 3 and
	.robust.mw_p < 0.05] | all' \
	"an outlier masking +5%: flagged, the robust estimate disagrees"
check outlier.json '[.cells[] | select(.cell.x == "b") | .flags |
	index("outlier") != null] | all' "outlier on the cell"

# 5. Identical values: a zero-width interval carries no verdict.
plan flat flat abba 3
run flat
check flat.json '[.comparisons[] | .verdict == "not_comparable" and
	.reason_codes == ["zero_variance"]] | all' \
	"zero-width interval: no verdict (zero_variance)"

# 6. An apply hook without verify: not verified.
plan nv small abba 4 '  x:
    levels: [a, b]
    apply: [bash, -c, "echo {{x}} > ./x.state"]'
run nv
# the verdict is withheld (schema/report.md, "Verification"); 4 runs a
# side (repeat 4), counted in runs
check nv.json '[.comparisons[] | .verdict == "not_verified" and
	.reason_codes == ["not_verified"] and .delta_pct == null and
	(.reasons[0] | test("x: 4 of 4 runs on A, 4 of 4 on B"))] | all and
	length > 0' "apply without verify: verdict not_verified, in runs"
check nv.json '[.findings[] | select(.verdict == "not_verified") |
	.kind == "refused" and (.text | test("— not verified: x: 4 of 4 runs")
	and (test("nan|null") | not))] | all and length > 0' \
	"the findings say not_verified with its reason, no estimate"
plan vf small abba 4 '  x:
    levels: [a, b]
    apply: [bash, -c, "echo {{x}} > ./x.state"]
    verify: { run: [bash, -c, "echo wrong"], expect: "{{x}}" }'
run vf
check vf.json '[.comparisons[] | .reason_codes | index("verify_failed")
	!= null] | all' "verified wrong: verify_failed refuses"

# 7. An explicit two-factor pair with +10%: a configuration verdict.
plan cfg config abba 4 '  x: { levels: [a, b] }
  slot: { levels: [p, q] }' \
	'  compare:
    - { a: { x: a, slot: p }, b: { x: b, slot: q } }
    - { a: { x: a }, b: { x: b, slot: q } }'
sed -i 's/"{{x}}"\]/"{{x}}", "{{slot}}"]/' cfg.yaml
run cfg
check cfg.json '[.comparisons[] | select(.configuration) | .verdict ==
	"better" and .factors == "x, slot" and (.warnings | join(" ") |
	test("x, slot"))] | length == 1 and all' \
	"explicit two-factor pair, +10%: a verdict naming both factors"
check cfg.json '[.comparisons[] | select(.reason_codes ==
	["factors_differ"]) | .reasons | join(" ") |
	test("not named in the pair: slot")] | length == 1 and all' \
	"a pair differing in a factor it does not name on both sides: refused"


# plans/pcie-gen.yaml's headline pair, "which card setup", on its factors
# and exclusions in a sequential order (a card swap is done once): with the
# plan's own `accept: sequential` a configuration verdict naming pc, nic
# and slot (each card sits in one PC: issue 23, the pair names the PC);
# without it, refused as not interleaved.
pair=$(grep -E '^ *- \{ a: \{ pc: b550, nic: x550-t2' "$SRC/plans/pcie-gen.yaml")
[ -n "$pair" ] || { echo "not ok - pcie-gen.yaml's headline pair not found"; exit 1; }
plan pcie pcie sequential 3 '  pc: { levels: [x570, b550] }
  nic: { levels: [x550-t2, lgy-pcie-mg3] }
  slot: { levels: [pcie3x4, pcie4x1, pcie3x1] }
exclude:
  - { nic: x550-t2, slot: [pcie4x1, pcie3x1] }
  - { nic: lgy-pcie-mg3, slot: pcie3x4 }
  - { pc: x570, slot: [pcie3x4, pcie3x1] }
  - { pc: b550, slot: pcie4x1 }' "  compare:
$pair"
sed -i 's/"{{x}}"\]/"{{nic}}", "{{slot}}"]/' pcie.yaml
run pcie
check pcie.json '[.comparisons[] | .verdict == "better" and .configuration
	and .factors == "pc, nic, slot" and (.warning_codes | index(
	"accepted_sequential") != null)] | length == 1 and all' \
	"pcie-gen's headline pair: a configuration verdict, sequential accepted"
sed -i 's/, accept: sequential//' pcie.yaml
mv pcie.db pcie-acc.db
run pcie
check pcie.json '[.comparisons[] | .verdict == "not_comparable" and
	(.reason_codes | index("not_interleaved") != null)] | length == 1 and
	all' "the same pair without accept: refused as not interleaved"

# 8. Few runs, failures, many comparisons.
plan few small abba 2
run few
check few.json '[.comparisons[] | .reason_codes | index("too_few_runs")
	!= null] | all' "2 runs per side: too_few_runs"
plan failing failing abba 4
run failing
check failing.json '[.cells[] | .flags | index("failed_runs") != null] |
	any' "a failed run: failed_runs"
# theta 0.5%: 3 + 3 runs of equal levels under HC2-BM (issue 23) are
# all equivalent at the default 1%; at 0.5% both outcomes occur.
plan many small abba 3 "  x: { levels: [a, b, c, d, e, f, g, h, i, j, k] }" \
	"  compare: [ { factor: x, baseline: a } ]
  threshold: 0.5%"
run many
check many.json '[.comparisons[] | select(.verdict != "not_comparable") |
	.warning_codes | index("multiplicity") != null] | length >= 10' \
	"10 decided comparisons: multiplicity"
# Issue 23: the note from two comparisons on, with the expected false
# claims 0.05 n and P(at least one) = 1 - 0.95^n (python3: 1 - 0.95**2
# = 0.0975, shown 10%; 1 - 0.95**10 = 0.401).
check many.json '[.comparisons[] | select(.verdict != "not_comparable") |
	.warnings | join(" ") | test("false claims by chance, at least one")]
	| all' "many comparisons: the expected false claims said"
plan two small abba 3 "  x: { levels: [a, b, c] }" \
	"  compare: [ { factor: x, baseline: a } ]"
run two
check two.json '[.comparisons[] | select(.verdict != "not_comparable") |
	.warnings | join(" ") | test("2 comparisons .*about 0.10 false claims.*probability 10%")]
	| length == 2' "2 decided comparisons: multiplicity with 0.10 expected, 10%"
# --adjust holm (Holm 1979): each decided comparison's adjusted p, as
# statsmodels' multipletests(method='holm') computes it (ascending p,
# (m - i + 1) p, running maximum, capped at 1: done here in python3 from
# the unadjusted report's p values), is in its note, and a claim whose
# adjusted p is not below 0.05 is not_significant.
cp many.db manyh.db
report manyh --adjust holm
python3 - many.json manyh.json <<'PY' && echo "ok - --adjust holm: adjusted p and verdicts as Holm" ||
import json, re, sys
a = json.load(open(sys.argv[1]))["comparisons"]
h = json.load(open(sys.argv[2]))["comparisons"]
dec = [i for i, c in enumerate(a) if c["verdict"] != "not_comparable" and c["p"] is not None]
m = len(dec)
assert m >= 10, m
order = sorted(dec, key=lambda i: (a[i]["p"], i))
adj, run = {}, 0.0
for k, i in enumerate(order):
    run = max(run, min(1.0, (m - k) * a[i]["p"]))
    adj[i] = run
for i in dec:
    note = " ".join(h[i]["warnings"])
    got = float(re.search(r"adjusted p=([0-9.e+-]+)", note).group(1))
    assert abs(got - adj[i]) <= 1e-3 * adj[i] + 1e-12, (i, got, adj[i])
    assert "Holm's method" in note, note
    want = a[i]["verdict"]
    if want in ("better", "worse", "different") and adj[i] >= 0.05:
        want = "not_significant"
    assert h[i]["verdict"] == want, (i, h[i]["verdict"], want)
PY
	{ echo "not ok - --adjust holm"; fail=1; }
check many.json '[.comparisons[] | .verdict] | index("equivalent") != null
	and index("not_significant") != null' \
	"equal levels: equivalent (TOST) and not significant both occur"
check many.json '[.comparisons[] | select(.verdict == "equivalent") |
	.eq90_low_pct > -0.5 and .eq90_high_pct < 0.5] | all' \
	"equivalent: the 90% interval inside the threshold (0.5%)"

# 9. Store edits on the +1% store: what a loopback run cannot vary.
edit() { # NAME SQL: a copy of small.db edited, then reported
	cp small.db "$1.db"
	sqlite3 "$1.db" "$2"
	report "$1"
}
edit facts "insert into sessions (id, plan_id, cells_hash, cells_desc,
	started_at, updated_at, ended_at, xrun_version, argv, status)
	select 2, plan_id, cells_hash, cells_desc, started_at, updated_at,
	ended_at, xrun_version, argv, status from sessions where id = 1;
	update runs set session_id = 2 where position >= 8;
	insert or replace into host_facts values
	(1, 'local', 'kernel', '6.1.0'), (2, 'local', 'kernel', '6.2.0');"
check facts.json '[.comparisons[] | .verdict == "not_comparable" and
	(.reason_codes | index("facts_changed") != null) and (.reasons |
	join(" ") | test("6.1.0.*session 1.*6.2.0.*session 2"))] | all' \
	"sessions with another kernel, pooled: facts_changed refuses"
# The engine's version fact is watched too: the key comes from the engine
# rows (runner/desc engine_version_at), not a list in reports/.
edit engfacts "insert into sessions (id, plan_id, cells_hash, cells_desc,
	started_at, updated_at, ended_at, xrun_version, argv, status)
	select 2, plan_id, cells_hash, cells_desc, started_at, updated_at,
	ended_at, xrun_version, argv, status from sessions where id = 1;
	update runs set session_id = 2 where position >= 8;
	insert or replace into host_facts values
	(1, 'local', 'iperf3_version', 'iperf 3.12'),
	(2, 'local', 'iperf3_version', 'iperf 3.16');"
check engfacts.json '[.comparisons[] | .verdict == "not_comparable" and
	(.reason_codes | index("facts_changed") != null) and (.reasons |
	join(" ") | test("iperf3_version on local: .iperf 3.12.*session 1.*iperf 3.16.*session 2"))] | all' \
	"sessions with another iperf3, pooled: facts_changed refuses"
sqlite3 facts.db "UPDATE plans SET text = text || 'report:' || char(10) ||
	'  compare: [ { factor: x, accept: sequential } ]' || char(10)"
report facts
check facts.json '[.comparisons[] | .verdict != "not_comparable" and
	(.warning_codes | index("facts_changed") != null) and
	(.warning_codes | index("accepted_sequential") != null)] | all' \
	"the same, accepted: the verdict stands with facts_changed"
edit unit "update metrics set unit = 'B/s' where run_id in
	(select id from runs where cell like '%\"b\"%')"
check unit.json '[.comparisons[] | (.reason_codes | index("unit_differs")
	!= null) and (.reasons | join(" ") | test("bit/s vs B/s"))] | all' \
	"unit_differs names the two units"
edit engine "update runs set params = '{\"window\":\"1M\"}'
	where cell like '%\"b\"%'"
check engine.json '[.comparisons[] | .reason_codes | index("engine_differs")
	!= null] | all' "other engine parameters: engine_differs"
edit counters "insert or replace into counters select id, 'local', 'nic',
	'rx_errors', 3 from runs where position = 1;
	insert or replace into counters select id, 'local', 'ethtool',
	'rx_pause', 5 from runs where position = 2;
	insert or replace into counters select id, 'local', 'nic',
	'rx_dropped', 2 from runs where position = 3;
	insert or replace into counters select id, 'local', 'tcp',
	'RetransSegs', 4 from runs where position = 4;
	insert or replace into counters select id, 'local', 'capture',
	'tcpdump', 1 from runs where position = 5;
	update run_load set load1 = 0.25;
	update run_load set load1 = cpus + 4 where run_id in
	(select id from runs where position = 6);"
check counters.json '[.comparisons[] | .warning_codes | sort ==
	["capture", "controller_loaded", "nic_errors", "pause_frames",
	"retransmits", "rx_drops"]] |
	all' "NIC and TCP counters, a loaded controller: their warnings, the verdict stands"
edit zero "update metrics set value = 0 where run_id = 1"
check zero.json '[.comparisons[] | .reason_codes | index("nonpositive")
	!= null] | all' "a zero value: nonpositive"
# Shards on two testbeds, one side's runs on each (issue 38; the shard
# rows as run --shard writes them, e2e/shard_labs makes them for real).
edit split "insert into sessions (id, plan_id, cells_hash, cells_desc,
	started_at, updated_at, ended_at, xrun_version, argv, status)
	select 2, plan_id, cells_hash, cells_desc, started_at, updated_at,
	ended_at, xrun_version, argv, status from sessions where id = 1;
	update runs set session_id = 2 where cell_index = 1;
	insert into shards values (1, 1, 2, 8, '[]', '[]', 'local=lab-a'),
	(2, 2, 2, 8, '[]', '[]', 'local=lab-b');"
check split.json '[.comparisons[] | .verdict == "not_comparable" and
	(.reason_codes | index("testbed_split") != null)] | (length > 0 and
	all)' "one side on each testbed: testbed_split, not comparable"
# A sized cell stopped at max wider than its precision (issue 12; the
# sizing rows as xrun run writes them, bench/sizing.sh and run_sizing.sh
# make them for real).
edit sized "insert into sizing (session_id, cell_index, block, cell,
	metric, pilot_n, pilot_mean, pilot_sd, precision, need, planned, max,
	decided_at, runs_done, reached, stopped) select 1, cell_index, 0, cell,
	'throughput', 4, 0, 0.05, 0.01, 99, 8, 8, 0, 8, 0.04, 'max' from runs
	where position = 0"
check sized.json '[.cells[] | select(.sizing.stopped == "max") | .flags |
	index("precision_not_reached") != null] | (length == 1 and all)' \
	"a sized cell stopped at max without the precision: precision_not_reached"
# An ok run whose stdout passed the 16 MiB cap (issue 24; the row as xrun
# run writes it, e2e/fault_engine_output makes it for real).
edit cut "insert into output_cut (run_id, cap, kept) select id, 16777216,
	16777216 from runs where position = 0"
check cut.json '[.cells[] | .flags | index("output_cut") != null] | any' \
	"an ok run cut at the output cap: output_cut on its cell"

# p < 0.05 is never not_significant, in any of the reports above.
bad=$(jq -s '[.[].comparisons[] | select(.p != null and .p < 0.05 and
	.verdict == "not_significant")] | length' ./*.json)
[ "$bad" = 0 ] && echo "ok - p < 0.05 is never not_significant" ||
	{ echo "not ok - $bad comparisons with p < 0.05 not_significant"; fail=1; }

# Every flag of the documented table was raised by a case above (the
# existing report_flags.sh covers the same and unstable on its own data).
for code in $(grep -oE '^\| `[a-z_]+` \| (cell|comparison|both) \|' \
	"$SRC/schema/report.md" | cut -d'`' -f2); do
	grep -qx "$code" $seen && echo "ok - flag $code raised" ||
		{ echo "not ok - flag $code never raised"; fail=1; }
done
exit $fail
