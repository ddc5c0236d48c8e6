#!/bin/bash
# SPDX-License-Identifier: MIT
# xrun through a real sshd started here on a loopback port with a generated
# key (tests/e2e/lib/sshd.sh). A command engine, an apply hook, a verify
# command and counter reads all run on the ssh host; factor levels full of
# shell metacharacters ($(touch ...), `...`, ;, quotes) must reach the
# remote command as one literal argument each and create no file. Then
# iperf3 with its server started by xrun on the ssh host: the runs complete
# and no server is left behind. Finally an unreachable ssh host fails
# before any run with a clear message and exit 3.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need sqlite3 iperf3
xr_tmpdir T
xr_need_sshd "$T"
CANARY=$T/pwned

cat >words.yaml <<EOF
xrun: 1
name: ssh-words
hosts:
  far: $XR_SSHD_YAML
engine:
  type: command
  client: far
  timeout: 20s
  run: [sh, -c, 'printf "%s" "\$1" > "\$2"; echo "rate 42"', sh, "{{word}}", "$T/got-{{index}}"]
  metrics:
    throughput: { regex: 'rate ([0-9]+)', unit: bit/s }
factors:
  word:
    levels: ['\$(touch $CANARY)', '\`touch $CANARY\`', 'a;touch $CANARY', "it's \"q\" * ~ \$HOME", '| touch $CANARY &&']
    apply: [sh, -c, 'printf "%s" "\$1" > "\$2"', sh, "{{word}}", "$T/applied"]
    verify: { run: [cat, "$T/applied"], expect: "{{word}}" }
    on: [far]
counters: [tcp, cpu]
sample: off
EOF
SECONDS=0
"$XRUN" run words.yaml --db words.db --unattended 2>words.err ||
	{ cat words.err; fail "words plan exit $?"; }
[ ! -e "$CANARY" ] || fail "a level ran a command: $CANARY exists"
[ "$(q words.db "select count(*) from results where status='ok' and metric='throughput' and value=42")" = 5 ] ||
	fail "runs: $(q words.db "select status, reason from results")"
[ "$(q words.db "select count(*) from verifications where ok=1")" = 5 ] ||
	fail "verify through ssh: $(q words.db "select * from verifications")"
# Each level arrived as one literal argument.
for f in got-*; do
	grep -qxF -- "$(cat "$f")" <<<"$(q words.db "select value from json_each((select json_group_array(json_extract(cell,'\$.word')) from runs))")" ||
		fail "remote got '$(cat "$f")', which is no level"
done
[ "$(ls got-* | wc -l)" = 5 ] || fail "expected 5 outputs, got $(ls got-* | wc -l)"
grep -qF '$(touch' got-* || fail "the \$(...) level did not arrive literally"
[ "$(q words.db "select count(*) from counters where host='far' and scope='tcp'")" -gt 0 ] ||
	fail "no tcp counters read on the ssh host"
# One connection for the whole plan: the ControlMaster was reused.
n=$(grep -c "Accepted publickey" "$XR_SSHD_LOG")
[ "$n" -le 2 ] || fail "$n ssh connections for one plan (ControlMaster not reused)"

# iperf3 with the server on the ssh host, started and stopped by xrun.
port=$(xr_free_port)
cat >iperf.yaml <<EOF
xrun: 1
name: ssh-iperf
hosts:
  far: $XR_SSHD_YAML
engine:
  type: iperf3
  client: local
  server: { host: far, start: true }
  duration: 1s
  port: $port
factors:
  streams: { levels: [1, 2], param: parallel }
sample: off
EOF
echo "# words plan: ${SECONDS}s"; SECONDS=0
"$XRUN" run iperf.yaml --db iperf.db --unattended 2>iperf.err ||
	{ cat iperf.err; fail "iperf plan exit $?"; }
[ "$(q iperf.db "select count(*) from results where status='ok' and metric='throughput' and value > 1e6")" = 2 ] ||
	fail "iperf runs: $(q iperf.db "select status, metric, value, reason from results")"
sleep 0.5
if ss -ltnH "sport = :$port" | grep -q LISTEN; then
	fail "an iperf3 server is still listening on $port after the plan"
fi

# Unreachable: clear error before any run, exit 3.
xr_sshd_stop
set +e
"$XRUN" run words.yaml --db gone.db --unattended 2>gone.err
rc=$?
set -e
[ $rc -eq 3 ] || { cat gone.err; fail "unreachable host exit $rc, want 3"; }
grep -q "far" gone.err && grep -qi "refused\|reach" gone.err ||
	fail "unclear unreachable message: $(cat gone.err)"
[ ! -e "$CANARY" ] || fail "canary created"
echo "ok: ssh host e2e (last part ${SECONDS}s)"
