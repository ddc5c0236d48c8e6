#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 25's bar "a cell with no known ceiling and no evidence says none":
# a command engine printing a fixed rate on this machine, `sample: off`
# (the default sampler would see this shared machine's busy cores), so
# no ceiling fact applies to a number it did not move and no series gives
# evidence. JSON cells[].limit.kind is "none"; the Markdown has the line.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need sqlite3
xr_tmpdir T
cat >n.yaml <<'YAML'
xrun: 1
name: explain-none
engine:
  type: command
  timeout: 5s
  run: [sh, -c, 'echo rate 123.0']
  metrics:
    throughput: { regex: 'rate ([0-9.]+)', unit: MB/s }
factors:
  x: { levels: [a, b] }
repeat: 1
sample: off
YAML
"$XRUN" run n.yaml --db n.db --quiet 2>run.err || { cat run.err; fail "run exit $?"; }
"$XRUN" report --db n.db -o r.json 2>rep.err || { cat rep.err; fail "report exit $?"; }
kinds=$(q :memory: "select group_concat(json_extract(c.value, '\$.limit.kind'), ' ') from json_each(json_extract(readfile('r.json'), '\$.cells')) c")
[ "$kinds" = "none none" ] || fail "limit kinds: '$kinds' (want none none)"
"$XRUN" report --db n.db -o r.md 2>>rep.err || { cat rep.err; fail "md report exit $?"; }
grep -q '^- x=a: no limit found' r.md || fail "no limit line in the Markdown: $(grep -A3 'What limits' r.md)"
"$XRUN" report --db n.db -o r.html 2>>rep.err || { cat rep.err; fail "html report exit $?"; }
grep -q '<p class="none">x=a: no limit found</p>' r.html || fail "no limit line in the HTML"
"$XRUN" report --db n.db --lang ja -o ja.md 2>>rep.err || { cat rep.err; fail "ja report exit $?"; }
grep -q '^- x=a: 限界要因は見つからず' ja.md || fail "no Japanese limit line: $(grep -A3 '各セル' ja.md)"
if command -v pdftotext >/dev/null; then
	"$XRUN" report --db n.db -o r.pdf 2>>rep.err || { cat rep.err; fail "pdf report exit $?"; }
	pdftotext r.pdf - | grep -q 'x=a: no limit found' || fail "no limit line in the PDF"
fi
echo "ok - no ceiling and no evidence: limit.kind none in JSON, 'no limit found' in Markdown, HTML and PDF, Japanese too"
