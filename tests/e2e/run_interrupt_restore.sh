#!/bin/bash
# SPDX-License-Identifier: MIT
# SIGINT in the middle of a run still restores what the hooks changed: a
# factor with apply/verify and `restore: true` writes a state file; xrun is
# interrupted while a run is in flight; it exits 130, the run is stored as
# interrupted, the restore hook ran (stored in `hooks`) and the state file
# holds its original value again.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need sqlite3
FAULT="$XR_LIB/fault_engine.sh"
xr_tmpdir T
XR_DB=i.db
cat >i.yaml <<YAML
xrun: 1
name: interrupted
vars: { state: "$T/state" }
engine:
  type: command
  timeout: 60s
  run: [sh, "$FAULT", slow, "30"]
  metrics:
    throughput: { json: /rate_MBps, unit: MB/s }
factors:
  mode:
    levels: [fast, slow]
    apply: [sh, "$FAULT", write, "{{state}}", "{{mode}}"]
    verify: { run: [cat, "{{state}}"] }
    restore: true
repeat: 1
counters: none
YAML
echo orig >state
"$XRUN" run i.yaml --db i.db --quiet 2>i.err &
pid=$!
for _ in $(seq 100); do
	[ "$(q "select count(*) from runs where status='running'" 2>/dev/null || echo 0)" = 1 ] && break
	sleep 0.1
done
[ "$(q "select count(*) from runs where status='running'")" = 1 ] || fail "no run started: $(cat i.err)"
[ "$(cat state)" != orig ] || fail "apply did not change the state"
kill -INT $pid
set +e
wait $pid
rc=$?
set -e
[ $rc = 130 ] || { cat i.err; fail "SIGINT exit $rc, want 130"; }
[ "$(q "select count(*) from runs where status='interrupted'")" = 1 ] ||
	fail "runs: $(q "select position, status from runs")"
[ "$(q "select count(*) from hooks where kind='restore'")" = 1 ] ||
	fail "no restore hook stored: $(q "select kind, level, argv from hooks")"
[ "$(cat state)" = orig ] || fail "state not restored after SIGINT: $(cat state)"
echo "ok: restore hooks run after SIGINT"
