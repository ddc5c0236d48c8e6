#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 35 item 4: an attended `xrun run` (a terminal: a pty from
# script(1)) retries the failed runs of every manual block, asking for the
# change when it is needed, since the person is there to make it;
# unattended, a retry never enters a block that needs a change
# (case/run-retry-failed). A script, not a data case: xrun prompts only
# when its stdin is a terminal (isatty), which a case cannot give.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need script sqlite3
FAULT="$XRUN_SOURCE_DIR/tests/e2e/lib/fault_engine.sh"
xr_tmpdir T
cat >m.yaml <<YAML
xrun: 1
name: m
engine:
  type: command
  run: [sh, "$FAULT", "{{mode}}"]
  metrics:
    throughput: { json: /rate_MBps, unit: MB/s }
factors:
  slot: { levels: [x1, x4], manual: "Move the card to the {{slot}} slot" }
  mode: [values, fail]
sample: off
YAML
# Unattended: the x1 block, then the x4 block (each: values ok, fail
# failed); the second start does not go back to x1 for its retry.
"$XRUN" run m.yaml --db m.db --unattended --quiet 2>/dev/null && fail "run 1: exit 0"
"$XRUN" run m.yaml --db m.db --unattended --quiet 2>/dev/null && fail "run 2: exit 0"
[ "$(q m.db "select group_concat(attempts, ' ') from (select attempts from runs where status = 'failed' order by position)")" = "1 1" ] ||
	fail "before: $(q m.db "select position, status, attempts from runs")"
# Attended: Enter for the first block's setup (x1), Enter for the change
# to x4: both failed runs are run again (attempt 2), none left.
(sleep 1; printf '\n'; sleep 1.5; printf '\n'; sleep 6) |
	script -qfc "'$XRUN' run m.yaml --db m.db" tty.log >/dev/null 2>&1 || true
tr '\r' '\n' <tty.log >tty.txt
grep -q "Move the card to the x4 slot" tty.txt || fail "no change to x4 asked for: $(cat tty.txt)"
grep -q "2 runs this time (2 retried)" tty.txt || fail "not both retried: $(cat tty.txt)"
if grep -q "not run again" tty.txt; then fail "a retry left attended: $(cat tty.txt)"; fi
got=$(q m.db "select group_concat(slot || ':' || attempts, ' ') from (select json_extract(cell, '$.slot') slot, attempts from runs where status = 'failed' order by position)")
[ "$got" = "x1:2 x4:2" ] || fail "attempts of the failed runs: $got, want x1:2 x4:2"
echo "ok: attended, the failed runs of both manual blocks retried"
