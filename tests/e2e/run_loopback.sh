#!/bin/bash
# SPDX-License-Identifier: MIT
# xrun run with real iperf3 over loopback, the server started by xrun:
# streams x congestion control, repeat 2. Every run stored once and ok,
# throughput plausible in bit/s, -C verified against what iperf3 used,
# counters and host facts stored; a rerun says complete; a second xrun on
# the same DB is refused while the first runs; xrun status reads it.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need iperf3 sqlite3
xr_tmpdir T
port=$(xr_free_port)
cat >lb.yaml <<YAML
xrun: 1
name: lb
engine:
  type: iperf3
  client: local
  server: { host: local, start: true }
  duration: 1s
  port: $port
factors:
  streams: { levels: [1, 2], param: parallel }
  cc: { levels: [reno, cubic], param: congestion }
repeat: 2
sample: off
YAML
XR_DB=lb.db

# A second xrun on the same DB while the first runs is refused.
"$XRUN" run lb.yaml --quiet 2>first.err &
pid=$!
for _ in $(seq 50); do
	[ -s lb.db.lock ] && [ "$(q "select count(*) from runs where status='ok'" 2>/dev/null || echo 0)" -ge 1 ] && break
	sleep 0.2
done
set +e
"$XRUN" run lb.yaml 2>second.err
rc2=$?
wait $pid
rc1=$?
set -e
[ $rc1 -eq 0 ] || { cat first.err; fail "first run exit $rc1"; }
[ $rc2 -eq 3 ] || { cat second.err; fail "second xrun exit $rc2, want 3"; }
grep -q "another xrun is running" second.err || fail "no lock message: $(cat second.err)"

[ "$(q "select count(*) from runs")" = 8 ] || fail "8 runs expected"
[ "$(q "select count(distinct position) from results where metric='throughput' and status='ok'")" = 8 ] ||
	fail "every run once with throughput: $(q "select position,status,reason from runs")"
[ "$(q "select count(*) from results where metric='throughput'")" = 8 ] || fail "duplicate results"
[ "$(q "select count(*) from results where metric='throughput' and unit='bit/s' and value > 1e8")" = 8 ] ||
	fail "implausible throughput: $(q "select value, unit from results where metric='throughput'")"
[ "$(q "select count(*) from verifications where factor='cc' and method='engine' and ok=1 and expected=actual")" = 8 ] ||
	fail "-C not verified: $(q "select * from verifications")"
[ "$(q "select count(*) from runs where verified=1")" = 8 ] || fail "runs not marked verified"
[ "$(q "select count(*) from runs where argv like '%\"-C\",\"reno\"%'")" = 4 ] || fail "argv lacks -C reno"
[ "$(q "select count(distinct run_id) from counters")" = 8 ] || fail "counters missing"
[ "$(q "select count(*) from host_facts where key in ('kernel','xrun_version','plan_hash','iperf3_version')")" = 4 ] ||
	fail "host facts missing: $(q "select key from host_facts")"
[ "$(q "select status from sessions")" = done ] || fail "session not done"
[ "$(q "select count(*) from intervals")" -ge 8 ] || fail "no interval series"

# Same plan again: complete, nothing runs.
"$XRUN" lb.yaml 2>again.err || fail "rerun exit $?"
grep -q "is complete" again.err || fail "rerun did not say complete: $(cat again.err)"
[ "$(q "select count(*) from sessions")" = 1 ] || fail "rerun made a session"

"$XRUN" status --db lb.db >status.out || fail "status exit $?"
grep -qE "^runs: 8: 8 ok, 0 failed" status.out || fail "status: $(cat status.out)"

# No iperf3 server of ours is left behind.
if pgrep -f "iperf3 -s.*$port" >/dev/null; then fail "iperf3 server survived"; fi
# The port taken by something else: exit 3 before any run, said clearly.
if command -v python3 >/dev/null; then
	# The holder binds a free port of its own choosing and says which.
	python3 -c 'import socket,sys,time
s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("0.0.0.0", 0)); s.listen(); print(s.getsockname()[1], flush=True)
time.sleep(60)' >busy.port &
	busy=$!
	for _ in $(seq 50); do [ -s busy.port ] && break; sleep 0.1; done
	sed -i "s/^  port: .*/  port: $(cat busy.port)/" lb.yaml
	set +e
	"$XRUN" run lb.yaml --db busy.db 2>busy.err
	rc=$?
	set -e
	kill $busy 2>/dev/null || true
	wait $busy 2>/dev/null || true
	[ $rc -eq 3 ] || { cat busy.err; fail "port in use exit $rc, want 3"; }
	grep -q "in use" busy.err || fail "port message: $(cat busy.err)"
fi
echo "ok: loopback plan stored, verified, resumable and locked"
