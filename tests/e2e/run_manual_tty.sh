#!/bin/bash
# SPDX-License-Identifier: MIT
# Manual steps on a terminal (a pty from script(1)): xrun prints each
# manual instruction, expanded, waits for Enter, then runs the block; the
# terminal gets one updating progress line.
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
  timeout: 5s
  run: [sh, "$FAULT", values]
  metrics:
    throughput: { json: /rate_MBps, unit: MB/s }
factors:
  slot: { levels: [x1, x4], manual: "Move the card to the {{slot}} slot" }
  n: { levels: [1, 2] }
sample: off
YAML
# Two Enters: the first block's setup, then the change to the other slot.
(sleep 1; printf '\n'; sleep 1.5; printf '\n'; sleep 1.5) |
	script -qfc "'$XRUN' run m.yaml" tty.log >/dev/null 2>&1 || true
tr '\r' '\n' <tty.log >tty.txt
grep -q "Move the card to the x1 slot" tty.txt || fail "first instruction not shown: $(cat tty.txt)"
grep -q "manual step before run 3" tty.txt || fail "no prompt at the block change: $(cat tty.txt)"
grep -q "Move the card to the x4 slot" tty.txt || fail "second instruction not shown"
grep -q "press Enter" tty.txt || fail "no prompt"
grep -q '\[4/4\] 100%  ETA' tty.txt || fail "no progress line: $(cat tty.txt)"
[ "$(q m.db "select count(*) from runs where status='ok'")" = 4 ] || fail "not all runs ok"
[ "$(q m.db "select count(*) from hooks where kind='manual'")" = 2 ] || fail "manual steps not logged"

# With --only half of the runs stay pending: the percentage is the share of
# the session's runs that ended (2 of 4), not the last run's position.
(sleep 1; printf '\n'; sleep 1.5; printf '\n'; sleep 1.5) |
	script -qfc "'$XRUN' run m.yaml --db only.db --only n=1" only.log >/dev/null 2>&1 || true
tr '\r' '\n' <only.log >only.txt
[ "$(q only.db "select count(*) from runs where status='ok'")" = 2 ] || fail "--only: 2 runs ok expected"
grep -q '\[[34]/4\]  50%  ETA' only.txt || fail "--only: progress not at 50%: $(cat only.txt)"
if grep -q '100%' only.txt; then fail "--only: 100% shown with runs pending: $(cat only.txt)"; fi
echo "ok: manual prompts on a terminal"
