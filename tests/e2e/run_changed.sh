#!/bin/bash
# SPDX-License-Identifier: MIT
# A plan edited under an unfinished session: xrun says what changed (levels,
# repeat/order/seed/exclusions, a factor added, the factor order) and
# refuses with exit 2; --new-session starts over and keeps the old runs; a
# complete session says so and exits 0; another program's SQLite file is
# refused (exit 3) and left alone; status counts runs left 'running'.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need sqlite3
xr_tmpdir T
XR_DB=c.db
plan() { # file, factors block, extra top-level lines
	cat >"$1" <<YAML
xrun: 1
name: changed
engine:
  type: command
  run: [echo, '{"t": 5}']
  metrics:
    throughput: { json: /t, unit: Mbit/s }
factors:
$2
counters: none
$3
YAML
}
plan base.yaml "  a: [x, y]
  b: [1, 2]" "repeat: 2"
"$XRUN" run base.yaml --db c.db --only a=x --quiet 2>base.err || { cat base.err; fail "base exit $?"; }
[ "$(q "select count(*) from runs where status='ok'")" = 4 ] || fail "4 runs ok expected"

refused() { # plan file, pattern
	set +e
	"$XRUN" run "$1" --db c.db --quiet 2>"$1.err"
	rc=$?
	set -e
	[ $rc -eq 2 ] || { cat "$1.err"; fail "$1: exit $rc, want 2"; }
	grep -qF -- "$2" "$1.err" || fail "$1: no '$2' in: $(cat "$1.err")"
	grep -q -- "--new-session" "$1.err" || fail "$1: no hint: $(cat "$1.err")"
}
plan lv.yaml "  a: [x, y, z]
  b: [1, 2]" "repeat: 2"
refused lv.yaml "factor 'a' levels changed: [x, y] -> [x, y, z]"
plan rep.yaml "  a: [x, y]
  b: [1, 2]" "repeat: 3
order: random
seed: 9"
refused rep.yaml "repeat changed: 2 -> 3"
grep -qF 'order changed: "abba" -> "random"' rep.yaml.err || fail "order: $(cat rep.yaml.err)"
grep -qF 'seed changed: (none) -> 9' rep.yaml.err || fail "seed: $(cat rep.yaml.err)"
plan add.yaml "  a: [x, y]
  b: [1, 2]
  c: [p, q]" "repeat: 2"
refused add.yaml "factor 'c' added"
plan ord.yaml "  b: [1, 2]
  a: [x, y]" "repeat: 2"
refused ord.yaml "factor order changed: [a, b] -> [b, a]"
if grep -q "the schedule differs" ord.yaml.err; then fail "factor order: unnamed change"; fi
[ "$(q "select count(*) from sessions")" = 1 ] || fail "a refusal made a session"

# Not a cells change: allowed, the session now points at the new text.
plan title.yaml "  a: [x, y]
  b: [1, 2]" "repeat: 2
title: \"a new title\""
"$XRUN" run title.yaml --db c.db --quiet 2>title.err || { cat title.err; fail "title edit exit $?"; }
[ "$(q "select count(*) from runs where status='ok'")" = 8 ] || fail "resume after a title edit"
"$XRUN" run title.yaml --db c.db 2>done.err || fail "complete session exit $?"
grep -q "is complete" done.err || fail "complete: $(cat done.err)"

# --new-session: a second session; the first one's runs are kept.
"$XRUN" run add.yaml --db c.db --new-session --quiet 2>new.err || { cat new.err; fail "--new-session exit $?"; }
[ "$(q "select count(*) from sessions")" = 2 ] || fail "no second session"
[ "$(q "select count(*) from runs where session_id=1 and status='ok'")" = 8 ] || fail "old runs lost"
[ "$(q "select count(*) from results where session=2 and metric='throughput'")" = 16 ] || fail "new session runs"

# SIGKILL mid-run, then an edited plan is refused (that xrun exits cleanly
# and empties the lock file): status still reads the session, and counts
# the run left 'running' as started.
cat >slow.yaml <<'YAML'
xrun: 1
name: slow
engine:
  type: command
  run: [sh, -c, 'sleep 0.4; echo "{\"t\": 5}"']
  metrics:
    throughput: { json: /t, unit: Mbit/s }
factors:
  a: [x, y]
repeat: 10
counters: none
YAML
sed 's/repeat: 10/repeat: 11/' slow.yaml >slow2.yaml
"$XRUN" run slow.yaml --db s.db --quiet 2>/dev/null &
pid=$!
for _ in $(seq 50); do
	[ "$(sqlite3 s.db "select count(*) from runs where status='ok'" 2>/dev/null || echo 0)" -ge 2 ] && break
	sleep 0.1
done
sleep 0.2
kill -9 $pid
wait $pid 2>/dev/null || true
set +e
"$XRUN" run slow2.yaml --db s.db --quiet 2>slow2.err
rc=$?
set -e
[ $rc -eq 2 ] || { cat slow2.err; fail "edited plan after SIGKILL: exit $rc, want 2"; }
"$XRUN" status --db s.db >st.out 2>st.err || { cat st.err; fail "status after SIGKILL and a refusal: exit $?"; }
grep -q "session 1: running" st.out || fail "status: $(cat st.out)"
grep -q "pending (1 of them started" st.out || fail "status does not count the started run: $(cat st.out)"
"$XRUN" run slow.yaml --db s.db --quiet 2>slow3.err || { cat slow3.err; fail "resume exit $?"; }
[ "$(sqlite3 s.db "select count(*) from results where metric='throughput' and status='ok'")" = 20 ] ||
	fail "resume: $(sqlite3 s.db "select position, status from runs")"

# Another program's SQLite file: refused, untouched.
sqlite3 other.db "create table runs (a, b); insert into runs values (1, 2)"
set +e
"$XRUN" run base.yaml --db other.db --quiet 2>other.err
rc=$?
set -e
[ $rc -eq 3 ] || { cat other.err; fail "foreign DB exit $rc, want 3"; }
grep -q "not an xrun database" other.err || fail "foreign DB: $(cat other.err)"
[ "$(sqlite3 other.db "select count(*) from sqlite_master")" = 1 ] || fail "foreign DB modified"
echo "ok: changed plans, --new-session, foreign DB"
