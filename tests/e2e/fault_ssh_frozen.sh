#!/bin/bash
# SPDX-License-Identifier: MIT
# A frozen ssh connection is a lost host (issue 40 item 4). iperf3's server
# on an ssh host (the test sshd, lib/sshd.sh, a real sshd on loopback), the
# client here, 2 runs of 4 s (with runs of 2 s, on a machine at load 20
# the stop came after the first run had ended and the second was the one
# lost). 1 s into the first run every sshd process of xrun's connections
# is stopped (SIGSTOP: the connection stops answering,
# the server it started keeps running and holding its port; a new
# connection gets new processes) for the rest of the test. The run in
# flight, ok by the client's numbers, is not stored ok: a round trip
# through its connection fails (HOST_CHECK_TIMEOUT, 8 s), the run goes
# back to pending, "host 'far' lost during the run", and is done again
# once the host answers on a new connection; the server the frozen
# connection still holds is ended first (its watch file names it), so the
# run done again does not fail with "port ... already in use". Both
# runs end ok, the first in its second attempt, none failed.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need sqlite3 iperf3 pgrep
xr_tmpdir T
xr_need_sshd "$T"
XR_DB=f.db
port=$(xr_free_port)
stopped=
thaw() { [ -z "$stopped" ] || kill -CONT $stopped 2>/dev/null || true; }
xr_at_exit thaw
cat >f.yaml <<YAML
xrun: 1
name: frozen
hosts:
  far: $XR_SSHD_YAML
engine:
  type: iperf3
  client: local
  server: { host: far, start: true }
  target: 127.0.0.1
  duration: 4s
  port: $port
reconnect: { tries: 3, wait: 1s }
repeat: 2
sample: off
counters: none
YAML
# The sshd processes under this test's sshd (per connection: the monitor
# and its session child), found by parent, never by name alone.
sshd_procs() {
	local p kids all=
	kids=$(pgrep -P "$XR_SSHD_PID" || true)
	while [ -n "$kids" ]; do
		local next=
		for p in $kids; do
			case $(cat "/proc/$p/comm" 2>/dev/null) in sshd*) all="$all $p" ;; esac
			next="$next $(pgrep -P "$p" || true)"
		done
		kids=$(echo $next)
	done
	echo $all
}
start=$(date +%s.%N)
"$XRUN" run f.yaml --db f.db --unattended 2>f.err &
xp=$!
# the first run's client has started (its port is this test's own)
for _ in $(seq 400); do
	pgrep -f "iperf3 -c .*$port" >/dev/null && break
	sleep 0.05
done
sleep 1
stopped=$(sshd_procs)
[ -n "$stopped" ] || { kill $xp; cat f.err; fail "no sshd process of xrun's connection found"; }
kill -STOP $stopped
set +e
wait $xp
rc=$?
set -e
took=$(python3 -c "import time; print(round(time.time() - $start, 1))")
thaw
cat f.err
[ $rc -eq 0 ] || fail "exit $rc, want 0"
[ "$(q "select status, count(*) from runs group by status")" = "ok|2" ] ||
	fail "runs: $(q "select position, status, attempts, reason from runs")"
[ "$(q "select attempts from runs order by position")" = "$(printf '2\n1')" ] ||
	fail "attempts: $(q "select position, attempts from runs")"
grep -q "run 1 not counted: host 'far' lost during the run" f.err ||
	fail "the lost run was not said"
grep -q "host 'far' answers again (try 1), the engine processes the lost connection left ended" f.err ||
	fail "the frozen connection's server was not ended"
! grep -q "already in use" f.err || fail "the port was still held"
echo "ok: a frozen connection lost its host, the run in flight done again (${took} s)"
