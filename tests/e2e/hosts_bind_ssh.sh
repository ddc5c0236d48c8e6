#!/bin/bash
# SPDX-License-Identifier: MIT
# Factor-bound hosts over ssh (a real sshd on loopback, root): one factor
# binds the engine's client to one of two ssh hosts, here two listeners of
# the test sshd on two ports, so that the far side can tell them apart
# ($SSH_CONNECTION holds the server port). Every run must execute on its
# level's host, the factor's verify runs there, and both hosts' facts are
# kept. Under CI=true a missing prerequisite fails; elsewhere it skips.
set -eu
. "$(dirname "$0")/lib/common.sh"
# A missing prerequisite skips, and fails under CI (lib/common.sh).
need() { xr_skip "$1"; }
command -v sqlite3 >/dev/null || need "sqlite3 CLI not installed"
[ "$(id -u)" = 0 ] || need "a test sshd needs root"
T=$(mktemp -d)
. "$XRUN_SOURCE_DIR/tests/e2e/lib/sshd.sh"
xr_sshd_start "$T" || { rm -rf "$T"; need "cannot start a test sshd"; }
pid2=
stop2() {
	[ -n "$pid2" ] || return 0
	kids=$(ps -o pid= --ppid "$pid2" 2>/dev/null || true)
	[ -z "$kids" ] || kill $kids 2>/dev/null || true
	kill "$pid2" 2>/dev/null || true
	wait "$pid2" 2>/dev/null || true
}
trap 'stop2; xr_sshd_stop; rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
# A second listener of the same server set-up on another port.
p1=$XR_SSHD_PORT
for _ in 1 2 3 4 5 6 7 8; do
	p2=$((20000 + RANDOM % 12000))
	ss -ltn "sport = :$p2" | grep -q LISTEN || break
done
sed -e "s/^Port .*/Port $p2/" -e "s#^PidFile .*#PidFile $XR_SSHD_DIR/sshd2.pid#" \
	"$XR_SSHD_DIR/sshd_config" >"$XR_SSHD_DIR/sshd2_config"
/usr/sbin/sshd -D -f "$XR_SSHD_DIR/sshd2_config" -E "$XR_SSHD_DIR/sshd2.log" &
pid2=$!
for _ in $(seq 50); do
	ss -ltn "sport = :$p2" | grep -q LISTEN && break
	sleep 0.1
done
ss -ltn "sport = :$p2" | grep -q LISTEN || need "second sshd listener did not start"
cd "$T"
q() { sqlite3 b.db "$1"; }
h2=$(echo "$XR_SSHD_YAML" | sed "s/port: $p1/port: $p2/")
cat >b.yaml <<YAML
xrun: 1
name: b
hosts:
  one: $XR_SSHD_YAML
  two: $h2
engine:
  type: command
  run: [sh, -c, 'echo "port=\$(echo \$SSH_CONNECTION | cut -d" " -f4) rate 5"']
  metrics:
    throughput: { regex: 'rate ([0-9]+)', unit: Mbit/s }
factors:
  box:
    levels: [a, b]
    hosts: { client: { a: one, b: two } }
    verify: { run: [sh, -c, 'echo \$SSH_CONNECTION | cut -d" " -f4'], expect: { a: "$p1", b: "$p2" } }
repeat: 2
counters: [tcp]
sample: off
YAML
"$XRUN" run b.yaml 2>b.err || { cat b.err; fail "exit $?"; }
[ "$(q "select count(*) from runs where status='ok'")" = 4 ] ||
	fail "runs: $(q "select position,status,reason from runs")"
for lv in a b; do
	case $lv in a) h=one p=$p1 ;; *) h=two p=$p2 ;; esac
	got=$(q "select distinct trim(stdout) from runs where json_extract(cell,'\$.box')='$lv'")
	[ "$got" = "port=$p rate 5" ] || fail "level $lv ran as '$got', want port $p"
	[ "$(q "select count(*) from verifications v join runs r on r.id=v.run_id where json_extract(r.cell,'\$.box')='$lv' and v.host='$h' and v.ok=1")" = 2 ] ||
		fail "verify of $lv on $h: $(q "select run_id,host,expected,actual,ok from verifications")"
	[ "$(q "select value from host_facts where host='$h' and key='transport'")" = ssh ] ||
		fail "facts of $h: $(q "select host,key,value from host_facts")"
	[ "$(q "select count(distinct c.run_id) from counters c join runs r on r.id=c.run_id where json_extract(r.cell,'\$.box')='$lv' and c.host='$h'")" = 2 ] ||
		fail "counters of $lv not from $h"
done
echo "ok: client bound per level to two ssh hosts"
