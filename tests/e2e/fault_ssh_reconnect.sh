#!/bin/bash
# SPDX-License-Identifier: MIT
# A transport failure is not a measurement (issue 24, Medium 6): the test
# sshd (lib/sshd.sh, a real sshd on loopback) is stopped, its connections
# with it, in the middle of a session of short command-engine runs on that
# host. ssh then exits 255 ("Connection refused"); a connection check
# (`ssh ... true`) confirms the host is gone, so the run goes back to
# pending instead of being stored as failed, and xrun waits as the plan's
# `reconnect:` says (docs/run.md, "Lost connections"):
#  1. sshd back after ~3 s: no run failed, the session completes (exit 0);
#  2. `reconnect: { tries: 1 }` and sshd gone for good: exit 3 with "host
#     'far' unreachable since HH:MM:SS after 1 tries", no run failed, the
#     rest pending, `xrun status` says why; once sshd is back the same
#     command resumes and completes the session;
#  3. a command's own exit 255 (the host answering) is a failed run.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need sqlite3 python3
xr_tmpdir T
xr_need_sshd "$T"
wait_ok() { # db count: until that many runs are ok
	for _ in $(seq 300); do
		[ "$(q "$1" "select count(*) from runs where status='ok'" 2>/dev/null || echo 0)" -ge "$2" ] && return 0
		sleep 0.1
	done
	fail "fewer than $2 runs ok in $1 after 30 s: $(q "$1" "select position,status,reason from runs")"
}
plan() { # file reconnect run...
	local f=$1 rec=$2
	shift 2
	cat >"$f" <<YAML
xrun: 1
name: blip
hosts:
  far: $XR_SSHD_YAML
engine:
  type: command
  client: far
  timeout: 10s
  run: $*
  metrics:
    v: { regex: 'v=([0-9]+)', unit: count }
factors:
  x: { levels: [a, b, c, d] }
repeat: 5
counters: none
sample: off
reconnect: $rec
YAML
}
xp=
xr_at_exit '[ -z "$xp" ] || kill -9 "$xp" 2>/dev/null'

# 1. A 3 s outage: nothing failed, the session completes.
plan a.yaml "{ tries: 5, wait: 1s, max_wait: 4s }" "[sh, -c, 'sleep 0.3; echo v=1']"
"$XRUN" run a.yaml --db a.db --unattended 2>a.err &
xp=$!
wait_ok a.db 3
xr_sshd_down
sleep 3
xr_sshd_up
set +e
wait "$xp"
rc=$?
set -e
xp=
[ $rc -eq 0 ] || { cat a.err; fail "outage: exit $rc, want 0"; }
[ "$(q a.db "select count(*) from runs where status='ok'")" = 20 ] ||
	fail "outage: $(q a.db "select position,status,reason from runs where status<>'ok'")"
[ "$(q a.db "select status from sessions")" = done ] || fail "outage: session $(q a.db "select status from sessions")"
grep -q "host 'far' unreachable since [0-9][0-9]:[0-9][0-9]:[0-9][0-9]" a.err ||
	{ cat a.err; fail "outage: no 'unreachable since' line"; }
grep -q "answers again" a.err || { cat a.err; fail "outage: no reconnection said"; }
# The lost run was redone in its row: one more attempt, no failure kept.
[ "$(q a.db "select count(*) from runs where attempts > 1")" -ge 1 ] ||
	fail "outage: no run was redone: $(q a.db "select position,attempts from runs")"

# 2. One try and sshd gone for good: exit 3, the rest pending, resumable.
plan b.yaml "{ tries: 1, wait: 1s }" "[sh, -c, 'sleep 0.3; echo v=1']"
"$XRUN" run b.yaml --db b.db --unattended 2>b.err &
xp=$!
wait_ok b.db 3
xr_sshd_down
t0=$(date +%s)
set +e
wait "$xp"
rc=$?
set -e
xp=
took=$(($(date +%s) - t0))
[ $rc -eq 3 ] || { cat b.err; fail "down for good: exit $rc, want 3"; }
# 1 s of wait, the reconnection's ssh refused at once, 10 s of slack.
[ $took -le 12 ] || fail "down for good: took $took s to stop"
grep -q "host 'far' unreachable since [0-9][0-9]:[0-9][0-9]:[0-9][0-9] after 1 tries" b.err ||
	{ cat b.err; fail "down for good: message"; }
ok=$(q b.db "select count(*) from runs where status='ok'")
[ "$(q b.db "select count(*) from runs where status in ('failed', 'timeout', 'running')")" = 0 ] ||
	fail "down for good: $(q b.db "select position,status,reason from runs where status<>'ok'")"
[ "$(q b.db "select count(*) from runs where status='pending'")" = $((20 - ok)) ] ||
	fail "down for good: pending $(q b.db "select status,count(*) from runs group by 1")"
"$XRUN" status --db b.db >b.status
grep -q "^stopped at #$ok .*host 'far' unreachable since .* after 1 tries" b.status ||
	{ cat b.status; fail "status does not say why the session stopped"; }
xr_sshd_up
"$XRUN" run b.yaml --db b.db --unattended 2>b2.err || { cat b2.err; fail "resume: exit $?"; }
grep -q "resuming session 1" b2.err || { cat b2.err; fail "not resumed"; }
[ "$(q b.db "select count(*) from runs where status='ok'")" = 20 ] ||
	fail "resume: $(q b.db "select status,count(*) from runs group by 1")"
[ "$(q b.db "select count(*) from sessions")" = 1 ] || fail "resume made a new session"

# 3. The host answers: the command's own 255 is a failed run, at once.
plan c.yaml "{ tries: 5, wait: 5s }" "[sh, -c, 'exit 255']"
set +e
"$XRUN" run c.yaml --db c.db --unattended --only x=a 2>c.err
rc=$?
set -e
[ $rc -eq 1 ] || { cat c.err; fail "own 255: exit $rc, want 1"; }
[ "$(q c.db "select count(*) from runs where status='failed' and exit_code=255")" = 5 ] ||
	fail "own 255: $(q c.db "select position,status,exit_code,reason from runs")"
! grep -q unreachable c.err || { cat c.err; fail "own 255 taken for a lost host"; }
echo "ok: a 3 s sshd outage failed no run; down for good: exit 3, pending, resumed ($ok ok before)"
