#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 35 item 4's bar: a session whose runs all failed because the iperf3
# server was down (start: false, nothing listening) turns ok when the
# server is up and the same command runs again, without --new-session:
# each failed run is run again in its place (retry: 1 by default), its
# attempts counted (2) and both attempts kept in run_attempts (the first
# failed with iperf3's "Connection refused"). A third run finds the session
# complete. Then --no-retry on a failed session keeps its runs failed.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need iperf3 sqlite3
xr_tmpdir T
port=$(xr_free_port)
cat >p.yaml <<YAML
xrun: 1
name: retry-server
engine:
  type: iperf3
  server: { host: local, start: false }
  target: 127.0.0.1
  port: $port
  duration: 1s
factors:
  cc: { levels: [cubic, reno], param: congestion }
repeat: 1
sample: off
counters: none
YAML
rc=0
"$XRUN" run p.yaml --db r.db --unattended 2>a.err || rc=$?
[ $rc = 1 ] || fail "no server: exit $rc, want 1: $(cat a.err)"
[ "$(q r.db "select group_concat(status || ' ' || attempts) from runs")" = "failed 1,failed 1" ] ||
	fail "no server: $(q r.db "select status, attempts, reason from runs")"
iperf3 -s -p "$port" -D --pidfile "$T/srv.pid" >/dev/null 2>&1 || fail "cannot start iperf3 -s"
for _ in $(seq 50); do [ -s "$T/srv.pid" ] && break; sleep 0.1; done
xr_at_exit 'kill "$(cat "$T/srv.pid")" 2>/dev/null'
sleep 0.3
rc=0
"$XRUN" run p.yaml --db r.db --unattended 2>b.err || rc=$?
[ $rc = 0 ] || fail "server up: exit $rc, want 0: $(cat b.err)"
grep -q "^xrun: resuming session 1 of 'retry-server': 0 of 2 runs done, 0 to redo, 2 failed or timed out to run again in place (retry: 1)" b.err ||
	fail "the resume line: $(cat b.err)"
grep -q "^xrun: 2 runs this time (2 retried): 2 ok, 0 failed, 0 timeout" b.err || fail "the summary: $(cat b.err)"
[ "$(q r.db "select group_concat(status || ' ' || attempts) from runs")" = "ok 2,ok 2" ] ||
	fail "after the retry: $(q r.db "select status, attempts, reason from runs")"
[ "$(q r.db "select count(*) from sessions")" = 1 ] || fail "a new session was made"
got=$(q r.db "select group_concat(x, ',') from (select a.attempt || ' ' || a.status || ' ' ||
	(coalesce(a.reason, '') like '%Connection refused%') x
	from run_attempts a join runs r on r.id = a.run_id order by r.position, a.attempt)")
[ "$got" = "1 failed 1,2 ok 0,1 failed 1,2 ok 0" ] || fail "run_attempts: $got"
"$XRUN" run p.yaml --db r.db --unattended 2>c.err || fail "complete: exit $?: $(cat c.err)"
grep -q "is complete (2 runs)" c.err || fail "not complete: $(cat c.err)"
echo "ok: failed runs (no server) turned ok in place by the next run, attempts 2, both kept"

# --no-retry: a failed session stays failed, nothing is run
kill "$(cat "$T/srv.pid")"
rm -f "$T/srv.pid"
sed -i 's/name: retry-server/name: retry-kept/' p.yaml
"$XRUN" run p.yaml --db k.db --unattended 2>/dev/null && fail "no server: exit 0"
rc=0
"$XRUN" run p.yaml --db k.db --unattended --no-retry 2>d.err || rc=$?
[ $rc = 0 ] || fail "--no-retry: exit $rc: $(cat d.err)"
grep -q "^xrun: 2 failed or timed-out runs kept as they are (--no-retry)" d.err || fail "--no-retry: $(cat d.err)"
[ "$(q k.db "select group_concat(status || ' ' || attempts) from runs")" = "failed 1,failed 1" ] ||
	fail "--no-retry ran them: $(q k.db "select status, attempts from runs")"
echo "ok: --no-retry keeps them failed"
