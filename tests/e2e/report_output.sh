#!/bin/bash
# SPDX-License-Identifier: MIT
# report.output after a run: placeholders in the file names are filled in
# ({{plan}}, {{session}}, a var) and `run` prints the path it wrote; a name
# with a per-run placeholder or a factor is refused by validate; a PDF output with no
# usable font makes `run` exit 3 (the runs are stored, `report` writes it
# later); `xrun report` prints the path it wrote too.
set -eu
: "${XRUN:?set XRUN to the xrun binary}"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
nfail=0
fail() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
pass() { echo "ok - $*"; }
plan() { # NAME OUTPUTS
	cat >"$1.yaml" <<YAML
xrun: 1
name: $1
vars: { tag: lab7 }
engine:
  type: command
  run: [echo, "result: {{n}}000 bit/s"]
  metrics:
    throughput: { regex: "result: ([0-9]+)", unit: bit/s }
factors:
  n: { levels: [1, 2] }
report:
  output: $2
sample: off
YAML
}
plan ph '["{{plan}}-s{{session}}.md", "{{tag}}-{{plan}}.csv"]'
"$XRUN" run ph.yaml --yes --unattended >run.out 2>&1 || fail "run: exit $? $(cat run.out)"
[ -s ph-s1.md ] && [ -s lab7-ph.csv ] && pass "report.output placeholders filled: ph-s1.md, lab7-ph.csv" ||
	fail "outputs: $(ls) $(cat run.out)"
grep -q '^xrun: wrote ph-s1.md$' run.out && grep -q '^xrun: wrote lab7-ph.csv$' run.out &&
	pass "run prints the paths it wrote" || fail "run output: $(cat run.out)"
[ ! -e '{{plan}}-s{{session}}.md' ] || fail "a file named with the raw placeholders was written"
"$XRUN" run ph.yaml --yes --unattended --new-session >run2.out 2>&1 || fail "second session"
[ -s ph-s2.md ] && pass "{{session}} is the session's id (ph-s2.md)" || fail "no ph-s2.md: $(ls)"

plan rep '"r{{rep}}-{{n}}.md"'
rc=0
"$XRUN" validate rep.yaml >rep.out 2>&1 || rc=$?
[ $rc = 2 ] && grep -q "report output 'r{{rep}}-{{n}}.md': '{{rep}}' has no value in a report file name" rep.out &&
	grep -q "'{{n}}' has no value" rep.out &&
	pass "a per-run placeholder or a factor in report.output: validate refuses (exit 2)" ||
	fail "rep: exit $rc $(cat rep.out)"

plan font '"f.pdf"'
rc=0
XRUN_FONT=/nonexistent/font.ttf "$XRUN" run font.yaml --yes --unattended >font.out 2>&1 || rc=$?
[ $rc = 3 ] && grep -q "cannot write report 'f.pdf'" font.out && [ ! -e f.pdf ] &&
	pass "no usable font for the PDF output: run exits 3" || fail "font: exit $rc $(cat font.out)"
[ "$(sqlite3 font.db "select count(*) from runs where status='ok'")" = 2 ] &&
	pass "the runs are stored all the same" || fail "font.db runs"
rc=0
"$XRUN" report --db font.db -o later.md >rep.stdout 2>rep.stderr || rc=$?
[ $rc = 0 ] && grep -qx 'xrun: wrote later.md' rep.stderr && [ ! -s rep.stdout ] &&
	pass "xrun report prints the path it wrote (stderr)" || fail "report: rc $rc $(cat rep.stderr)"
"$XRUN" report --db font.db -o - >stdout.md 2>stdout.err
[ ! -s stdout.err ] && [ -s stdout.md ] && pass "-o - prints no path" || fail "-o -: $(cat stdout.err)"
[ "$nfail" = 0 ]
