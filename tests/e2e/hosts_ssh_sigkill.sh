#!/bin/bash
# SPDX-License-Identifier: MIT
# xrun killed by SIGKILL in the middle of an iperf3 run whose client and
# server (started by xrun) both run on an ssh host (a real sshd on a
# loopback port, tests/e2e/lib/sshd.sh). No cleanup code runs, yet after
# the far side's deadline nothing of the run may be left there (no iperf3
# under sshd, nothing listening on the port) nor here (no ssh client).
# The server has no far-side deadline: it goes because the local ssh that
# holds its pty dies with xrun.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need sqlite3 iperf3 ss
xr_tmpdir T
xr_need_sshd "$T"
xp=
xr_at_exit '[ -z "$xp" ] || kill -9 "$xp" 2>/dev/null'
# Every process below the test sshd that is not an sshd itself.
remote_left() {
	local todo=$XR_SSHD_PID p kids
	while [ -n "$todo" ]; do
		set -- $todo
		p=$1
		shift
		todo="$*"
		kids=$(ps -o pid= --ppid "$p" 2>/dev/null || true)
		todo="$todo $kids"
		todo=$(echo $todo)
		if [ "$p" != "$XR_SSHD_PID" ] &&
			[ "$(ps -o comm= -p "$p" 2>/dev/null)" != sshd ]; then
			ps -o pid=,args= -p "$p" 2>/dev/null || true
		fi
	done
}
port=$(xr_free_port)
cat >k.yaml <<EOF
xrun: 1
name: ssh-sigkill
hosts:
  far: $XR_SSHD_YAML
engine:
  type: iperf3
  client: far
  server: { host: far, start: true }
  duration: 3s
  timeout: 5s
  port: $port
factors:
  streams: { levels: [1, 2], param: parallel }
sample: off
EOF
"$XRUN" run k.yaml --db k.db --unattended 2>k.err &
xp=$!
for _ in $(seq 150); do
	[ "$(sqlite3 k.db "select count(*) from runs where status='running'" 2>/dev/null)" = 1 ] && break
	sleep 0.1
done
sleep 1
ss -ltnH "sport = :$port" | grep -q LISTEN ||
	{ cat k.err; fail "no iperf3 server listening on the ssh host during the run"; }
[ -n "$(remote_left)" ] || fail "nothing running under sshd during the run"
kill -9 "$xp"
wait "$xp" 2>/dev/null || true
xp=
# The client's far-side deadline is 5 s (+2 s kill grace) from its start.
for _ in $(seq 80); do
	[ -z "$(remote_left)" ] && ! ss -ltnH "sport = :$port" | grep -q LISTEN && break
	sleep 0.1
done
left=$(remote_left)
[ -z "$left" ] || fail "left running on the ssh host after xrun was killed: $left"
! ss -ltnH "sport = :$port" | grep -q LISTEN ||
	fail "an iperf3 server still listens on $port after xrun was killed"
! ps -eo args= | grep -v grep | grep -q "^ssh .*-p $XR_SSHD_PORT .*-tt" ||
	fail "a local ssh client survived xrun: $(ps -eo pid=,args= | grep "^ *[0-9]* ssh .*$XR_SSHD_PORT")"
echo "ok: nothing left after SIGKILL of xrun during an ssh run"
