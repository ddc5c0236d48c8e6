#!/bin/bash
# SPDX-License-Identifier: MIT
# Resume with --no-retry of a session that holds failed, timed-out and
# skipped runs: each is kept as it is (status, attempts, times, output),
# none is executed again; only the pending and the interrupted runs are
# (without --no-retry the failed and timed-out ones are retried in place:
# e2e/run_retry_server, case/run-retry-failed; skipped runs never are).
# --new-session is how to ask for everything again (a new session; the
# old one untouched).
set -eu
: "${XRUN:?set XRUN to the xrun binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v sqlite3 >/dev/null || {
	[ "${CI:-}" = true ] && fail "sqlite3 is needed"
	echo "skip: sqlite3 CLI not installed"; exit 77; }
FAULT="$XRUN_SOURCE_DIR/tests/e2e/lib/fault_engine.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T"
q() { sqlite3 k.db "$1"; }
cat >k.yaml <<YAML
xrun: 1
name: k
engine:
  type: command
  timeout: 1s
  run: [sh, "$FAULT", "{{m}}", "5"]
  metrics:
    throughput: { json: /rate_MBps, unit: MB/s }
factors:
  m: { levels: [values, fail, slow] }
  n: { levels: ["1", "2"] }
repeat: 2
sample: off
YAML
# failed and timed-out runs first; the rest stays pending.
set +e
"$XRUN" run k.yaml --only m=fail --quiet 2>a.err
r1=$?
"$XRUN" run k.yaml --only m=slow --quiet 2>b.err
r2=$?
set -e
[ $r1 = 1 ] && [ $r2 = 1 ] || fail "setup: exits $r1 $r2: $(cat a.err b.err)"
[ "$(q "select count(*) from runs where status='failed'")" = 4 ] &&
	[ "$(q "select count(*) from runs where status='timeout'")" = 4 ] ||
	fail "setup: $(q "select status, count(*) from runs group by status")"
# One pending run skipped (as a manual block can be), one interrupted.
q "update runs set status='skipped', reason='skipped by hand' where id = (select min(id) from runs where status='pending')"
q "update runs set status='interrupted', attempts=1 where id = (select max(id) from runs where status='pending')"
snap="select id, status, attempts, started_at, ended_at, stdout, stderr, reason from runs where status in ('failed','timeout','skipped') order by id"
q "$snap" >before.txt
set +e
"$XRUN" run k.yaml --no-retry 2>c.err
r3=$?
set -e
[ $r3 = 1 ] || fail "resume: exit $r3 (failed runs in the session): $(cat c.err)"
grep -q "resuming session 1 of 'k': 9 of 12 runs done, 1 to redo, 8 failed or timed out kept as they are (--no-retry)" c.err || fail "resume message: $(cat c.err)"
q "$snap" >after.txt
cmp -s before.txt after.txt || fail "kept runs changed: $(diff before.txt after.txt)"
[ "$(q "select count(*) from runs where status='ok'")" = 3 ] ||
	fail "pending/interrupted not run: $(q "select position, status, attempts from runs")"
[ "$(q "select count(*) from runs where status='ok' and attempts=2")" = 1 ] || fail "interrupted run not redone once"
[ "$(q "select count(*) from sessions")" = 1 ] || fail "a new session"
# Nothing left: a second start runs nothing.
set +e
"$XRUN" run k.yaml --no-retry 2>d.err
set -e
q "$snap" >again.txt
cmp -s before.txt again.txt || fail "a second start touched kept runs"
[ "$(q "select max(attempts) from runs")" = 2 ] || fail "a run executed again: $(q "select position, attempts from runs")"
echo "ok: failed, timed-out and skipped runs kept by a resume with --no-retry"
# Asked for: --new-session runs everything again, in session 2.
set +e
"$XRUN" run k.yaml --new-session --quiet 2>e.err
set -e
[ "$(q "select count(*) from runs where session_id=2")" = 12 ] &&
	[ "$(q "select count(*) from runs where session_id=2 and status='pending'")" = 0 ] ||
	fail "--new-session: $(q "select session_id, status, count(*) from runs group by 1, 2")"
q "select id, status, attempts, started_at, ended_at, stdout, stderr, reason from runs where status in ('failed','timeout','skipped') and session_id=1 order by id" >s1.txt
cmp -s before.txt s1.txt || fail "--new-session touched session 1: $(diff before.txt s1.txt)"
echo "ok: --new-session runs them again in a new session"
