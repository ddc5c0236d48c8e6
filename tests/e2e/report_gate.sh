#!/bin/bash
# SPDX-License-Identifier: MIT
# The CI gate (issue 21, docs/ci.md), on stores whose verdicts are known
# (tests/e2e/lib/known_values.sh, as in report_verdicts.sh):
#  - a store with a "worse" comparison: `report --fail-on worse` exits 4
#    (the report still written), without --fail-on it exits 0, and
#    `--fail-on better,different` (verdicts it does not have) exits 0;
#  - a store with no worse comparison ("better"): --fail-on worse exits 0;
#  - `-o results.xml` (and --format junit) writes JUnit XML that follows
#    the Jenkins/Ant junit-10.xsd structure (testsuites > testsuite >
#    properties/testcase > failure|skipped|system-out; required attributes;
#    counts that match), one testcase per comparison, a <failure> exactly
#    for the verdicts named, and the Δ with its interval as properties;
#  - an unknown verdict name is a usage error (exit 2) with a did-you-mean,
#    an empty one too.
set -eu
: "${XRUN:?set XRUN to the xrun binary}"
command -v python3 >/dev/null || { echo "SKIP: python3 missing"; exit 77; }
SRC=${XRUN_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
cp "$SRC/tests/e2e/lib/known_values.sh" ./gen.sh
nfail=0
fail() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
pass() { echo "ok - $*"; }

plan() { # NAME SCENARIO
	cat >"$1.yaml" <<EOF
xrun: 1
name: $1
engine:
  type: command
  run: [bash, ./gen.sh, $2, "{{index}}", "{{rep}}", "{{x}}"]
  metrics:
    throughput: { regex: "result: ([0-9]+)", unit: bit/s }
factors:
  x: { levels: [a, b] }
repeat: 4
order: abba
sample: off
EOF
	"$XRUN" run "$1.yaml" --db "$1.db" --quiet --unattended --yes >"$1.out" 2>&1 ||
		{ cat "$1.out"; fail "xrun run $1"; }
}
plan drop drop
plan up up

# rc NAME ARGS...: the exit status of `xrun report ARGS`, stderr in NAME.err
rc() {
	local n=$1 r=0
	shift
	"$XRUN" report "$@" >"$n.stdout" 2>"$n.err" || r=$?
	echo $r
}

r=$(rc a --db drop.db -o drop.md --fail-on worse)
[ "$r" = 4 ] && [ -s drop.md ] && grep -q 'fail-on' a.err &&
	pass "a worse comparison with --fail-on worse: exit 4, report written ($(tail -1 a.err))" ||
	fail "--fail-on worse on a worse store: exit $r, $(cat a.err)"
r=$(rc b --db drop.db -o drop.md)
[ "$r" = 0 ] && pass "the same store without --fail-on: exit 0" ||
	fail "without --fail-on: exit $r $(cat b.err)"
r=$(rc c --db drop.db -o drop.md --fail-on better,different)
[ "$r" = 0 ] && pass "--fail-on better,different (verdicts it has not): exit 0" ||
	fail "--fail-on better,different on a worse store: exit $r $(cat c.err)"
r=$(rc d --db up.db -o up.md --fail-on worse)
[ "$r" = 0 ] && pass "no worse comparison, --fail-on worse: exit 0" ||
	fail "--fail-on worse on a better store: exit $r $(cat d.err)"
r=$(rc e --db up.db -o up.md --fail-on=worse,better)
[ "$r" = 4 ] && pass "--fail-on=worse,better on a better store: exit 4" ||
	fail "--fail-on=worse,better on a better store: exit $r $(cat e.err)"
r=$(rc f --db drop.db -o drop.md --fail-on wrose)
[ "$r" = 2 ] && grep -q "unknown verdict 'wrose'.*did you mean 'worse'" f.err &&
	pass "an unknown verdict: exit 2, did you mean" ||
	fail "--fail-on wrose: exit $r $(cat f.err)"
r=$(rc g --db drop.db -o drop.md --fail-on worse,)
[ "$r" = 2 ] && grep -q "empty name" g.err && pass "an empty verdict name: exit 2" ||
	fail "--fail-on worse,: exit $r $(cat g.err)"

r=$(rc h --db drop.db -o results.xml --fail-on worse)
[ "$r" = 4 ] || fail "-o results.xml --fail-on worse: exit $r $(cat h.err)"
r=$(rc i --db up.db -o - --format junit --fail-on worse)
[ "$r" = 0 ] || fail "-o - --format junit: exit $r $(cat i.err)"
mv i.stdout up.xml
r=$(rc j --db drop.db -o plain.xml)
[ "$r" = 0 ] || fail "-o plain.xml without a gate: exit $r $(cat j.err)"

# The structure CI systems read: Jenkins/Ant junit-10.xsd (testsuites,
# testsuite@name/@tests required, properties/property@name/@value,
# testcase@name required, failure|error|skipped, system-out/err), and
# GitLab's reader (testcase name, classname, failure message).
python3 - results.xml up.xml plain.xml <<'PY' || nfail=$((nfail + 1))
import sys, xml.etree.ElementTree as ET
bad = 0
def err(m):
    global bad
    bad += 1
    print("FAIL:", m)
SUITE_ATTR = {"name", "tests", "failures", "errors", "skipped", "disabled",
              "time", "timestamp", "hostname", "id", "package", "file",
              "log", "url", "version"}
CASE_ATTR = {"name", "classname", "time", "assertions", "status", "file",
             "line"}
CASE_KIDS = {"skipped", "error", "failure", "system-out", "system-err"}
def check(path, want_fail):
    root = ET.parse(path).getroot()
    if root.tag != "testsuites":
        return err(f"{path}: root <{root.tag}>, not <testsuites>")
    suites = list(root)
    if len(suites) != 1 or suites[0].tag != "testsuite":
        return err(f"{path}: want one <testsuite>, got {[s.tag for s in suites]}")
    s = suites[0]
    for a in ("name", "tests"):
        if a not in s.attrib:
            err(f"{path}: testsuite without @{a}")
    for a in s.attrib:
        if a not in SUITE_ATTR:
            err(f"{path}: testsuite@{a} is not in junit-10.xsd")
    kids = [k.tag for k in s]
    order = {"properties": 0, "testcase": 1, "system-out": 2, "system-err": 3}
    if any(t not in order for t in kids) or \
       [order[t] for t in kids] != sorted(order[t] for t in kids) or \
       kids.count("properties") > 1:
        err(f"{path}: testsuite children out of junit-10.xsd order: {kids}")
    props = {p.get("name"): p.get("value") for p in s.iter("property")}
    for p in s.iter("property"):
        if p.get("name") is None or p.get("value") is None:
            err(f"{path}: property without name or value")
    cases = s.findall("testcase")
    if int(s.get("tests")) != len(cases) or not cases:
        err(f"{path}: tests={s.get('tests')} but {len(cases)} testcases")
    nf = ns = 0
    for c in cases:
        n = c.get("name")
        if not n or not c.get("classname"):
            err(f"{path}: testcase without name or classname")
        for a in c.attrib:
            if a not in CASE_ATTR:
                err(f"{path}: testcase@{a} is not in junit-10.xsd")
        for k in c:
            if k.tag not in CASE_KIDS:
                err(f"{path}: testcase child <{k.tag}>")
        f = c.findall("failure")
        nf += len(f)
        ns += len(c.findall("skipped"))
        v = props.get(n + ".verdict")
        if v is None:
            err(f"{path}: no property {n}.verdict")
        for q in ("delta_pct", "ci_low_pct", "ci_high_pct"):
            try:
                float(props[f"{n}.{q}"])
            except (KeyError, ValueError):
                err(f"{path}: property {n}.{q} missing or not a number")
        if (v in want_fail) != bool(f):
            err(f"{path}: '{n}' verdict {v}: failure {bool(f)}")
        for x in f:
            if not x.get("message", "").startswith(v):
                err(f"{path}: failure message {x.get('message')!r}")
        if "Δ" not in "".join(c.findtext("system-out") or "") and \
           "%" not in (c.findtext("system-out") or ""):
            err(f"{path}: system-out without the Δ: {c.findtext('system-out')!r}")
    if int(s.get("failures", "0")) != nf or int(root.get("failures", "0")) != nf:
        err(f"{path}: failures={s.get('failures')} but {nf} <failure>")
    if int(s.get("skipped", "0")) != ns:
        err(f"{path}: skipped={s.get('skipped')} but {ns} <skipped>")
    for p in ("plan", "metric", "theta_pct"):
        if p not in props:
            err(f"{path}: no property {p}")
    return nf
nf = check(sys.argv[1], {"worse"})
if not nf:
    err(f"{sys.argv[1]}: a worse store with --fail-on worse has no <failure>")
if check(sys.argv[2], {"worse"}):
    err(f"{sys.argv[2]}: a better store has a <failure>")
if check(sys.argv[3], set()):
    err(f"{sys.argv[3]}: no gate, yet a <failure>")
if bad:
    sys.exit(1)
print(f"ok - junit xml: junit-10.xsd structure, one testcase per comparison, "
      f"{nf} failure(s) for worse, Δ and interval as properties")
PY
[ "$nfail" = 0 ]
