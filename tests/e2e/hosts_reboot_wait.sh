#!/bin/bash
# SPDX-License-Identifier: MIT
# Waiting for a rebooted host (a real sshd on loopback, root). A manual
# factor "Boot the box into {{os}}" binds the client to host 'one' or
# 'two' and has `wait:`; 'two' is an sshd that only starts a few seconds
# after xrun reaches its block (as a machine booting into the other OS
# would). Unattended, xrun must announce the step, wait with a progress
# line naming the host, check the level with the factor's verify once the
# host answers, and run the block; with a host that never comes back, it
# must leave the block pending at the timeout with the reason stored.
# Under CI=true a missing prerequisite fails; elsewhere it skips.
set -eu
. "$(dirname "$0")/lib/common.sh"
# A missing prerequisite skips, and fails under CI (lib/common.sh).
need() { xr_skip "$1"; }
command -v sqlite3 >/dev/null || need "sqlite3 CLI not installed"
[ "$(id -u)" = 0 ] || need "a test sshd needs root"
T=$(mktemp -d)
. "$XRUN_SOURCE_DIR/tests/e2e/lib/sshd.sh"
xr_sshd_start "$T" || { rm -rf "$T"; need "cannot start a test sshd"; }
late=
stop_late() {
	[ -n "$late" ] || return 0
	kids=$(ps -o pid= --ppid "$late" 2>/dev/null || true)
	[ -z "$kids" ] || kill $kids 2>/dev/null || true
	kill "$late" 2>/dev/null || true
	wait "$late" 2>/dev/null || true
	late=
}
trap 'stop_late; xr_sshd_stop; rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
p1=$XR_SSHD_PORT
for _ in 1 2 3 4 5 6 7 8; do
	p2=$((20000 + RANDOM % 12000))
	ss -ltn "sport = :$p2" | grep -q LISTEN || break
done
sed -e "s/^Port .*/Port $p2/" -e "s#^PidFile .*#PidFile $XR_SSHD_DIR/late.pid#" \
	"$XR_SSHD_DIR/sshd_config" >"$XR_SSHD_DIR/late_config"
cd "$T"
h2=$(echo "$XR_SSHD_YAML" | sed "s/port: $p1/port: $p2/")
plan() { # name wait
	cat >"$1.yaml" <<YAML
xrun: 1
name: $1
hosts:
  one: $XR_SSHD_YAML
  two: $h2
engine:
  type: command
  run: [sh, -c, 'echo "port=\$(echo \$SSH_CONNECTION | cut -d" " -f4) rate 5"']
  metrics:
    throughput: { regex: 'rate ([0-9]+)', unit: Mbit/s }
factors:
  os:
    levels: [first, second]
    manual: "Boot the box into {{os}}"
    hosts: { client: { first: one, second: two } }
    wait: $2
    verify: { run: [sh, -c, 'echo \$SSH_CONNECTION | cut -d" " -f4'], expect: { first: "$p1", second: "$p2" } }
  n: [1, 2]
counters: none
YAML
}

# The host of the second block comes up 4 s after xrun starts waiting.
plan w 60s
(
	while ! grep -q "waiting for host 'two'" w.err 2>/dev/null; do sleep 0.2; done
	sleep 4
	exec /usr/sbin/sshd -D -f "$XR_SSHD_DIR/late_config" -E "$XR_SSHD_DIR/late.log"
) &
late=$!
t0=$(date +%s)
"$XRUN" run w.yaml --unattended 2>w.err || { cat w.err; fail "exit $?"; }
t1=$(date +%s)
q() { sqlite3 "$1" "$2"; }
[ "$(q w.db "select count(*) from runs where status='ok'")" = 4 ] ||
	{ cat w.err; fail "runs: $(q w.db "select position,status,reason from runs")"; }
grep -q "manual step before run 3 (unattended" w.err || { cat w.err; fail "no announcement"; }
grep -q "Boot the box into second" w.err || fail "instruction not shown"
grep -q "waiting for host 'two' (ssh .* port $p2) to be os=second: attempt 1" w.err ||
	{ cat w.err; fail "no progress line"; }
[ $((t1 - t0)) -ge 4 ] || fail "did not wait ($((t1 - t0)) s)"
[ "$(q w.db "select count(*) from hooks where kind='wait' and host='two' and exit_code=0")" = 1 ] ||
	fail "wait not recorded: $(q w.db "select kind,host,exit_code,stderr from hooks")"
got=$(q w.db "select distinct trim(stdout) from runs where json_extract(cell,'\$.os')='second'")
[ "$got" = "port=$p2 rate 5" ] || fail "second block ran as '$got'"
[ "$(q w.db "select value from host_facts where host='two' and key='transport'")" = ssh ] ||
	fail "facts of the rebooted host"
# Its facts read when it answered again are a set caused by the manual
# step (schema/store.md "fact_sets"), and the block's 2 runs name it.
[ "$(q w.db "select count(*) from runs r join run_facts f on f.run_id = r.id
	and f.host = 'two' join fact_sets s on s.id = f.set_id where
	s.cause = 'manual' and s.factor = 'os' and s.level = 'second' and
	json_extract(r.cell, '\$.os') = 'second'")" = 2 ] ||
	fail "fact sets: $(q w.db "select * from fact_sets; select * from run_facts")"
stop_late

# A host that never comes back: the block is left pending with a reason.
plan p 3s
set +e
"$XRUN" run p.yaml --unattended 2>p.err
rc=$?
set -e
[ "$rc" -le 1 ] || { cat p.err; fail "exit $rc"; }
[ "$(q p.db "select count(*) from runs where status='ok'")" = 2 ] &&
	[ "$(q p.db "select count(*) from runs where status='pending' and json_extract(cell,'\$.os')='second'")" = 2 ] ||
	fail "runs: $(q p.db "select position,status from runs")"
grep -q "block 2 left pending: host 'two' .* was not os=second within 3s" p.err || { cat p.err; fail "no reason"; }
[ "$(q p.db "select count(*) from hooks where kind='wait' and host='two' and exit_code is null and stderr like '%within 3s%'")" = 1 ] ||
	fail "reason not stored: $(q p.db "select kind,host,exit_code,stderr from hooks")"
# A manual step on the same host (a card moved: the PC powers off and
# comes back under the same name): its connection is dropped and opened
# again, and the engine, which held the old one, is reopened on the new.
cat >same.yaml <<YAML
xrun: 1
name: same
hosts:
  one: $(echo "$XR_SSHD_YAML" | sed 's/}$/, wait: 20s }/')
engine:
  type: command
  client: one
  run: [sh, -c, 'echo "port=\$(echo \$SSH_CONNECTION | cut -d" " -f4) rate 5"']
  metrics:
    throughput: { regex: 'rate ([0-9]+)', unit: Mbit/s }
factors:
  card: { levels: [a, b], manual: "Move the card to {{card}}" }
  n: [1, 2]
counters: none
YAML
"$XRUN" run same.yaml --unattended 2>same.err || { cat same.err; fail "same host: exit $?"; }
[ "$(q same.db "select count(*) from runs where status='ok' and stdout like 'port=$p1 rate 5%'")" = 4 ] ||
	{ cat same.err; fail "same host: $(q same.db "select position,status,reason,stdout from runs")"; }
# One wait when the first block starts (the host is up: at once), one
# after the step.
[ "$(q same.db "select count(*) from hooks where kind='wait' and host='one' and exit_code=0")" = 2 ] ||
	fail "same host: waits: $(q same.db "select kind,host,level,exit_code from hooks")"
echo "ok: waited for a late host, checked it, left a dead one pending, reopened a rebooted one"
