#!/bin/bash
# SPDX-License-Identifier: MIT
# Resume and interrupts with real iperf3 over loopback. SIGKILL of xrun in
# the middle of a run: the next start resumes, redoes the run in flight in
# its own row and keeps the finished ones untouched; every position ends
# up present exactly once. SIGINT: exit 130, the run in flight is stored
# as 'interrupted', nothing of the engine survives, a rerun completes.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need iperf3 sqlite3
xr_tmpdir T
port=$(xr_free_port)
cat >r.yaml <<YAML
xrun: 1
name: r
engine:
  type: iperf3
  client: local
  server: { host: local, start: true }
  duration: 1s
  port: $port
factors:
  cc: { levels: [reno, cubic], param: congestion }
  streams: { levels: ["1"], param: parallel }
repeat: 3
sample: off
YAML
# Wait until at least $2 runs of DB $1 are ok and one is running.
wait_runs() {
	for _ in $(seq 100); do
		if [ -f "$1" ] &&
			[ "$(q "$1" "select count(*) from runs where status='ok'" 2>/dev/null || echo 0)" -ge "$2" ] &&
			[ "$(q "$1" "select count(*) from runs where status='running'" 2>/dev/null || echo 0)" -ge 1 ]; then
			return 0
		fi
		sleep 0.1
	done
	fail "runs did not progress in $1"
}

# --- SIGKILL mid-way, then resume ---
"$XRUN" run r.yaml --db k.db --quiet 2>k1.err &
pid=$!
wait_runs k.db 2
sleep 0.3
# The lock file names the iperf3 server xrun started (for the next xrun
# to stop after a SIGKILL), read from the kernel's list of its children.
grep -Eq "^child [0-9]+ [0-9]+ [0-9]+ iperf3$" k.db.lock ||
	fail "lock file does not note the iperf3 server: $(cat k.db.lock)"
kill -9 $pid
wait $pid 2>/dev/null || true
q k.db "select position, status, attempts, started_at, stdout from runs where status='ok' order by position" >before.txt
nok=$(wc -l <before.txt)
[ "$nok" -ge 2 ] || fail "expected >= 2 ok runs before the kill"
[ "$(q k.db "select count(*) from runs where status='running'")" = 1 ] ||
	fail "the run in flight should be left 'running': $(q k.db "select position,status from runs")"
inflight=$(q k.db "select position from runs where status='running'")
"$XRUN" status --db k.db >k.status || fail "status exit $?"
grep -q "is gone: run the plan again to resume" k.status || fail "status after SIGKILL: $(cat k.status)"
# The killed xrun's iperf3 server must not block the port for the resume
# (its process group is gone or at least not ours to keep).
"$XRUN" run r.yaml --db k.db 2>k2.err || { cat k2.err; fail "resume exit $?"; }
grep -q "resuming session 1" k2.err || fail "no resume message: $(cat k2.err)"
[ "$(q k.db "select count(*) from sessions")" = 1 ] || fail "resume created a session"
[ "$(q k.db "select count(*) from runs")" = 6 ] || fail "row count changed"
[ "$(q k.db "select count(distinct position) from results where status='ok' and metric='throughput'")" = 6 ] ||
	fail "not every position ok once: $(q k.db "select position,status,reason from runs")"
[ "$(q k.db "select count(*) from results where metric='throughput'")" = 6 ] || fail "a run executed twice"
q k.db "select position, status, attempts, started_at, stdout from runs where position in (select position from runs) and status='ok' order by position" |
	head -n "$nok" >after.txt
cmp -s before.txt after.txt || fail "earlier ok runs were touched"
[ "$(q k.db "select attempts from runs where position=$inflight")" = 2 ] || fail "run in flight not redone once"
[ "$(q k.db "select max(attempts) from runs where position<>$inflight")" = 1 ] || fail "a finished run was redone"
[ "$(q k.db "select status from sessions")" = done ] || fail "session not done after resume"

# --- SIGINT: exit 130, interrupted, rerun completes ---
"$XRUN" run r.yaml --db i.db --quiet 2>i1.err &
pid=$!
wait_runs i.db 1
sleep 0.3
kill -INT $pid
set +e
wait $pid
rc=$?
set -e
[ $rc -eq 130 ] || { cat i1.err; fail "SIGINT exit $rc, want 130"; }
[ "$(q i.db "select count(*) from runs where status='interrupted'")" = 1 ] ||
	fail "no interrupted run: $(q i.db "select position,status,reason from runs")"
[ "$(q i.db "select status from sessions")" = interrupted ] || fail "session not interrupted"
sleep 0.5
if pgrep -f "iperf3.*-p $port" >/dev/null; then fail "an iperf3 process survived SIGINT"; fi
"$XRUN" run r.yaml --db i.db --quiet 2>i2.err || { cat i2.err; fail "rerun after SIGINT exit $?"; }
[ "$(q i.db "select count(*) from runs where status='ok'")" = 6 ] || fail "rerun did not complete"
[ "$(q i.db "select count(*) from results where metric='throughput'")" = 6 ] || fail "duplicates after SIGINT"
echo "ok: SIGKILL resume and SIGINT"
