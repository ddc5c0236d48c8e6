#!/bin/bash
# SPDX-License-Identifier: MIT
# A host lost while a cell is set up is not a failed hook (issue 24
# Deliver 3, the setup half; fault_ssh_reconnect.sh is the run half): the
# test sshd (lib/sshd.sh, a real sshd on loopback) is stopped while the
# factor's apply hook on that host waits for a file. The hook's ssh exits
# 255, the connection check confirms the host is gone, and the run stays
# pending, nothing of the hook stored, waiting as `reconnect:` says
# (docs/run.md, "Lost connections"):
#  1. sshd back after ~2 s: the cell is set up again (apply, verify) and
#     every run is ok and verified (exit 0); no apply row with exit 255,
#     no failed verification;
#  2. `reconnect: { tries: 1 }` and sshd gone for good: exit 3 with "host
#     'far' unreachable since HH:MM:SS after 1 tries", no run failed or
#     unverified, the cell pending, `xrun status` says why; once sshd is
#     back the same command resumes and completes the session, verified.
# Before this, the lost apply was stored as a hook that exited 255, its
# slot counted as applied, and the runs measured unverified.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need sqlite3 ss
xr_tmpdir T
xr_need_sshd "$T"
wait_file() { # glob: until a file matches (the hook has started)
	for _ in $(seq 300); do
		compgen -G "$1" >/dev/null && return 0
		sleep 0.1
	done
	fail "no $1 after 30 s"
}
plan() { # file dir reconnect
	mkdir -p "$2"
	cat >"$1" <<YAML
xrun: 1
name: setup
hosts:
  far: $XR_SSHD_YAML
engine:
  type: command
  timeout: 10s
  run: [sh, -c, 'echo v=1']
  metrics:
    v: { regex: 'v=([0-9]+)', unit: count }
factors:
  x:
    levels: [a, b]
    on: [far]
    apply: [sh, -c, 'touch $2/applying.{{x}}; while [ ! -e $2/go ]; do sleep 0.05; done; echo {{x}} >$2/cur']
    verify: { run: [cat, $2/cur] }
repeat: 2
counters: none
sample: off
reconnect: $3
YAML
}
xp=
xr_at_exit '[ -z "$xp" ] || kill -9 "$xp" 2>/dev/null'
nostored() { # db: nothing of the lost hook kept
	[ "$(q "$1" "select count(*) from hooks where kind='apply' and exit_code<>0")" = 0 ] ||
		fail "$1: a lost apply stored: $(q "$1" "select kind,level,exit_code,stderr from hooks")"
	[ "$(q "$1" "select count(*) from verifications where ok=0")" = 0 ] ||
		fail "$1: a failed verification stored: $(q "$1" "select * from verifications where ok=0")"
	[ "$(q "$1" "select count(*) from runs where status in ('failed','timeout','running') or (status='ok' and verified<>1)")" = 0 ] ||
		fail "$1: $(q "$1" "select position,status,verified,reason from runs")"
}

# 1. sshd stopped during the first apply, back ~2 s later.
plan a.yaml "$T/a" "{ tries: 5, wait: 1s, max_wait: 4s }"
"$XRUN" run a.yaml --db a.db --unattended 2>a.err &
xp=$!
wait_file "$T/a/applying.*"
xr_sshd_down
touch "$T/a/go"
sleep 2
xr_sshd_up
set +e
wait "$xp"
rc=$?
set -e
xp=
[ $rc -eq 0 ] || { cat a.err; fail "outage: exit $rc, want 0"; }
grep -q "not started: host 'far' lost while the cell was set up (apply hook of factor 'x'" a.err ||
	{ cat a.err; fail "outage: the lost setup not said"; }
grep -q "answers again" a.err || { cat a.err; fail "outage: no reconnection said"; }
[ "$(q a.db "select count(*) from runs where status='ok' and verified=1")" = 4 ] ||
	fail "outage: $(q a.db "select position,status,verified,reason from runs")"
[ "$(q a.db "select status from sessions")" = done ] || fail "outage: session $(q a.db "select status from sessions")"
nostored a.db

# 2. One try and sshd gone for good during the first apply.
plan b.yaml "$T/b" "{ tries: 1, wait: 1s }"
"$XRUN" run b.yaml --db b.db --unattended 2>b.err &
xp=$!
wait_file "$T/b/applying.*"
xr_sshd_down
set +e
wait "$xp"
rc=$?
set -e
xp=
[ $rc -eq 3 ] || { cat b.err; fail "down for good: exit $rc, want 3"; }
grep -q "host 'far' unreachable since [0-9][0-9]:[0-9][0-9]:[0-9][0-9] after 1 tries" b.err ||
	{ cat b.err; fail "down for good: message"; }
[ "$(q b.db "select count(*) from runs where status='pending'")" = 4 ] ||
	fail "down for good: $(q b.db "select position,status,reason from runs")"
nostored b.db
"$XRUN" status --db b.db >b.status
grep -q "^stopped at #0 .*host 'far' unreachable since .* after 1 tries" b.status ||
	{ cat b.status; fail "status does not say why the session stopped"; }
xr_sshd_up
touch "$T/b/go"
"$XRUN" run b.yaml --db b.db --unattended 2>b2.err || { cat b2.err; fail "resume: exit $?"; }
grep -q "resuming session 1" b2.err || { cat b2.err; fail "not resumed"; }
[ "$(q b.db "select count(*) from runs where status='ok' and verified=1")" = 4 ] ||
	fail "resume: $(q b.db "select position,status,verified from runs")"
[ "$(q b.db "select count(*) from sessions")" = 1 ] || fail "resume made a new session"
nostored b.db
echo "ok: sshd lost during an apply hook: pending, reconnected and verified; down for good: exit 3, pending, resumed"
