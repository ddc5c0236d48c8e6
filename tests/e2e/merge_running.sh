#!/bin/bash
# SPDX-License-Identifier: MIT
# xrun merge of a store whose session is still running (another xrun holds
# it): that session is skipped with a warning saying so, and a merge after
# it ended copies it whole; a session cut short by SIGKILL (status running,
# nobody holds the store) is merged as far as it got, with a warning; a
# session with no plan row is skipped with a warning naming it. The
# summary line counts what was skipped.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need sqlite3
xr_tmpdir T
cat >slow.yaml <<'YAML'
xrun: 1
name: slow
engine:
  type: command
  run: [sh, -c, "sleep 0.3; echo rate {{x}}"]
  metrics:
    throughput: { regex: "rate ([0-9]+)", unit: bit/s }
factors:
  x: { levels: [1, 2] }
repeat: 5
counters: none
YAML
"$XRUN" run slow.yaml --db done.db --quiet --yes --unattended 2>/dev/null || fail "run done"

# A session running now: skipped, said, and merged whole once it ended.
"$XRUN" run slow.yaml --db live.db --quiet --yes --unattended 2>/dev/null &
xp=$!
for _ in $(seq 100); do
	[ "$(q live.db "select count(*) from runs where status='ok'" 2>/dev/null || echo 0)" -ge 1 ] && break
	sleep 0.05
done
"$XRUN" merge m.db done.db live.db >m1.out 2>m1.err || fail "merge during a run: exit $?: $(cat m1.err)"
grep -q "live.db: session 1 is still running (another xrun holds the store): skipped; merge again when it has ended" m1.err ||
	fail "no warning for the running session: $(cat m1.err)"
grep -q "merged 1 session(s) (10 runs) into m.db; 0 already there; skipped 1 still running, 0 with no plan" m1.out ||
	fail "summary: $(cat m1.out)"
echo "ok - a running session is skipped: $(cat m1.err)"
wait $xp || fail "the live run failed"
"$XRUN" merge m.db live.db >m2.out 2>m2.err || fail "merge after the run"
[ ! -s m2.err ] && grep -q "merged 1 session(s) (10 runs)" m2.out ||
	fail "after the run ended: $(cat m2.out m2.err)"
[ "$(q m.db "select count(*) from runs where status='ok'")" = 20 ] || fail "runs in m.db"
echo "ok - once it ended, a later merge copies it whole"

# A session cut short by SIGKILL: merged as far as it got, with a warning.
"$XRUN" run slow.yaml --db cut.db --quiet --yes --unattended 2>/dev/null &
xp=$!
for _ in $(seq 100); do
	[ "$(q cut.db "select count(*) from runs where status='ok'" 2>/dev/null || echo 0)" -ge 2 ] && break
	sleep 0.05
done
kill -KILL $xp
wait $xp 2>/dev/null || true
[ "$(q cut.db "select status from sessions")" = running ] || fail "setup: $(q cut.db "select status from sessions")"
"$XRUN" merge m2.db cut.db >m3.out 2>m3.err || fail "merge of a cut store: $(cat m3.err)"
grep -q "cut.db: session 1 was cut short while running (status running, no xrun holds the store): merged as far as it got" m3.err ||
	fail "no warning for the cut session: $(cat m3.err)"
grep -q "merged 1 session(s)" m3.out || fail "cut summary: $(cat m3.out)"
echo "ok - a session cut short is merged as far as it got, with a warning"

# A session with no plan row: skipped, named.
cp done.db planless.db
"$XRUN" run slow.yaml --db planless.db --quiet --yes --unattended --new-session 2>/dev/null || fail "second session"
q planless.db "update sessions set plan_id = 999 where id = 2"
"$XRUN" merge m4.db planless.db >m4.out 2>m4.err || fail "merge planless: $(cat m4.err)"
grep -q "planless.db: session 2 has no plan row (its plan is missing from the store): skipped" m4.err ||
	fail "no warning for the plan-less session: $(cat m4.err)"
grep -q "merged 1 session(s) (10 runs) into m4.db; 0 already there; skipped 0 still running, 1 with no plan" m4.out ||
	fail "planless summary: $(cat m4.out)"
echo "ok - a session with no plan row is skipped: $(cat m4.err)"
