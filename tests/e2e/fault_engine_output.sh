#!/bin/bash
# SPDX-License-Identifier: MIT
# Engine output faults: stdout holding NUL bytes is stored whole (a blob of
# all its bytes, not text cut at the first NUL), and stdout past the
# 16 MiB cap fails its run with a reason that names the cap, not only the
# metric that could not be read from the cut text; an ok run whose stdout
# passed the cap (its value came before the cut) is marked: a row in
# output_cut and the flag output_cut on its cell in every report (issue 24
# item 12).
set -eu
: "${XRUN:?set XRUN to the xrun binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v sqlite3 >/dev/null || {
	[ "${CI:-}" = true ] && fail "sqlite3 is needed"
	echo "skip: sqlite3 CLI not installed"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T"
q() { sqlite3 "$1" "$2"; }
cat >nul.yaml <<'YAML'
xrun: 1
name: nul
engine:
  type: command
  run: [printf, 'rate 5\000after the NUL\n']
  metrics:
    throughput: { regex: "rate ([0-9]+)", unit: bit/s }
sample: off
YAML
"$XRUN" run nul.yaml --quiet 2>nul.err || fail "run: exit $?: $(cat nul.err)"
[ "$(q nul.db "select hex(stdout) from runs")" = "$(printf 'rate 5\000after the NUL\n' | od -An -tx1 | tr -d ' \n' | tr a-f A-F)" ] ||
	fail "stdout not stored whole: $(q nul.db "select typeof(stdout), length(stdout), hex(stdout) from runs")"
[ "$(q nul.db "select status from runs")" = ok ] || fail "run not ok"
# Text without NUL stays text.
cat >txt.yaml <<'YAML'
xrun: 1
name: txt
engine:
  type: command
  run: [echo, "rate 7"]
  metrics:
    throughput: { regex: "rate ([0-9]+)", unit: bit/s }
sample: off
YAML
"$XRUN" run txt.yaml --quiet 2>txt.err || fail "txt: $(cat txt.err)"
[ "$(q txt.db "select typeof(stdout) || ':' || stdout from runs")" = "text:rate 7" ] ||
	fail "plain stdout: $(q txt.db "select typeof(stdout), stdout from runs")"
echo "ok: stdout with NUL bytes stored whole"

# 17 MiB of filler, then the value: past the cap.
cat >big.yaml <<'YAML'
xrun: 1
name: big
engine:
  type: command
  run: [sh, -c, "head -c 17825792 /dev/zero | tr '\\0' x; echo; echo rate 9"]
  metrics:
    throughput: { regex: "rate ([0-9]+)", unit: bit/s }
sample: off
YAML
set +e
"$XRUN" run big.yaml --quiet 2>big.err
rc=$?
set -e
[ $rc = 1 ] || fail "big: exit $rc, want 1: $(cat big.err)"
reason=$(q big.db "select reason from runs")
case $reason in
*"stdout passed xrun's 16 MiB output cap and was cut after 16777216 bytes"*"regex"*) ;;
*) fail "the reason does not name the cap: $reason" ;;
esac
[ "$(q big.db "select length(stdout) from runs")" = 16777216 ] || fail "kept bytes"
echo "ok: the 16 MiB cap is named in the reason"
[ "$(q big.db "select cap || ' ' || kept from output_cut")" = "16777216 16777216" ] ||
	fail "the failed run's cut is not recorded: $(q big.db "select * from output_cut")"

# The value first, then 17 MiB: ok, read from the part kept, and marked.
cat >okbig.yaml <<'YAML'
xrun: 1
name: okbig
engine:
  type: command
  run: [sh, -c, "echo rate 9; head -c 17825792 /dev/zero | tr '\\0' x"]
  metrics:
    throughput: { regex: "rate ([0-9]+)", unit: bit/s }
repeat: 2
sample: off
YAML
cat >oksmall.yaml <<'YAML'
xrun: 1
name: okbig
engine:
  type: command
  run: [sh, -c, "echo rate 9"]
  metrics:
    throughput: { regex: "rate ([0-9]+)", unit: bit/s }
repeat: 2
sample: off
YAML
"$XRUN" run okbig.yaml --quiet 2>okbig.err || fail "okbig: exit $?: $(cat okbig.err)"
[ "$(q okbig.db "select group_concat(status) from runs")" = "ok,ok" ] || fail "okbig: runs not ok"
[ "$(q okbig.db "select count(*) from output_cut c join runs r on r.id = c.run_id where r.status = 'ok' and c.cap = 16777216 and c.kept = 16777216")" = 2 ] ||
	fail "the ok runs' cut is not recorded: $(q okbig.db "select * from output_cut")"
[ "$(q okbig.db "select group_concat(value) from metrics where name = 'throughput'")" = "9.0,9.0" ] ||
	fail "the value before the cut: $(q okbig.db "select * from metrics")"
"$XRUN" report okbig.yaml -o okbig.json 2>rep.err || fail "report: $(cat rep.err)"
[ "$(jq -r '[.cells[].flag_details[] | select(.code == "output_cut") | .detail] | join(";")' okbig.json)" = "2 runs, cap 16 MiB" ] ||
	fail "no output_cut flag in the JSON: $(jq -c '.cells[].flag_details' okbig.json)"
"$XRUN" report okbig.yaml -o okbig.md 2>rep.err || fail "report md: $(cat rep.err)"
grep -q '^[0-9]*\. \*\*output_cut\*\*: an ok run' okbig.md && grep -q -- "- -: 2 runs, cap 16 MiB" okbig.md ||
	fail "no output_cut note in Markdown: $(grep -i -A1 cut okbig.md)"
"$XRUN" report okbig.yaml --lang ja -o okbig-ja.md 2>rep.err || fail "report ja: $(cat rep.err)"
grep -q "成功した試行の出力が xrun の出力上限を超えて切り詰められた" okbig-ja.md && grep -q "2 回の試行、上限 16 MiB" okbig-ja.md ||
	fail "no mark in Japanese: $(grep -n -A1 "output_cut" okbig-ja.md)"
# Merged with its runs.
"$XRUN" merge merged.db okbig.db 2>merge.err || fail "merge: $(cat merge.err)"
[ "$(q merged.db "select count(*) from output_cut")" = 2 ] || fail "merge lost output_cut"
# The same plan without the flood: no mark.
rm -f okbig.db okbig.db-*
"$XRUN" run oksmall.yaml --db small.db --quiet 2>small.err || fail "small: $(cat small.err)"
"$XRUN" report --db small.db -o small.json 2>rep.err || fail "report small: $(cat rep.err)"
[ "$(jq '[.cells[].flags[] | select(. == "output_cut")] | length' small.json)" = 0 ] ||
	fail "output_cut raised without a cut"
echo "ok: an ok run past the cap is recorded and flagged output_cut (json, md, ja)"
