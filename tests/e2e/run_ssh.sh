#!/bin/bash
# SPDX-License-Identifier: MIT
# xrun run with the iperf3 server on an ssh host (a real sshd on loopback):
# xrun starts and stops `iperf3 -s` over ssh, a factor's apply/verify/
# restore hooks run over ssh with a value that needs quoting, counters and
# facts are read on the remote host through the same transport.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need iperf3 sqlite3
FAULT="$XRUN_SOURCE_DIR/tests/e2e/lib/fault_engine.sh"
xr_tmpdir T
xr_need_sshd "$T"
XR_DB=s.db
port=$(xr_free_port)
echo "orig value" >"$T/state"
cat >s.yaml <<YAML
xrun: 1
name: s
hosts:
  far: $XR_SSHD_YAML
vars: { state: "$T/state" }
engine:
  type: iperf3
  client: local
  server: { host: far, start: true }
  target: 127.0.0.1
  duration: 1s
  port: $port
factors:
  label:
    levels: ["it's one", "two words"]
    on: [far]
    apply: [sh, "$FAULT", write, "{{state}}", "{{label}}"]
    verify: { run: [cat, "{{state}}"] }
    restore: true
  cc: { levels: [reno], param: congestion }
sample: off
YAML
"$XRUN" run s.yaml 2>s.err || { cat s.err; fail "exit $?"; }
[ "$(q "select count(*) from results where metric='throughput' and status='ok' and value > 1e8")" = 2 ] ||
	fail "runs: $(q "select position,status,reason from runs")"
[ "$(q "select count(*) from verifications where factor='label' and host='far' and ok=1 and actual=expected")" = 2 ] ||
	fail "verification over ssh: $(q "select * from verifications")"
[ "$(cat "$T/state")" = "orig value" ] || fail "not restored over ssh: $(cat "$T/state")"
[ "$(q "select value from host_facts where host='far' and key='transport'")" = ssh ] || fail "far facts"
[ "$(q "select count(*) from host_facts where host='far' and key='kernel'")" = 1 ] || fail "far kernel fact"
[ "$(q "select count(distinct run_id) from counters where host='far' and scope='tcp'")" = 2 ] ||
	fail "remote counters: $(q "select host,scope,count(*) from counters group by 1,2")"
sleep 0.3
if pgrep -f "iperf3 -s.*$port" >/dev/null || pgrep -f "iperf3.*-p $port" >/dev/null; then
	fail "iperf3 server left on the ssh host"
fi
echo "ok: iperf3 server and hooks over ssh"
