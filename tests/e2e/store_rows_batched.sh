#!/bin/bash
# SPDX-License-Identifier: MIT
# A session larger than one batch of rows (4,096) gets its rows in `runs`
# as it reaches them (schema version 6, schedules): after an interrupt the
# store holds the first batch only, `xrun status` still counts every
# scheduled run (the rest as pending, and says so), and a resume carries
# on without running anything twice.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need sqlite3
xr_tmpdir T
{
	printf 'xrun: 1\nname: big\nengine:\n  type: command\n  run: ["/bin/true"]\n'
	printf 'factors:\n  a: { levels: [%s] }\n' "$(seq -s, -f 'a%g' 0 9)"
	printf '  b: { levels: [%s] }\n' "$(seq -s, -f 'b%g' 0 999)"
	printf 'repeat: 1\n'
} >big.yaml
# Run until at least $1 runs are ok, then SIGINT.
run_some() {
	"$XRUN" run big.yaml --db big.db --unattended --yes 2>run.err &
	pid=$!
	for _ in $(seq 300); do
		n=$(q big.db "select count(*) from runs where status='ok'" 2>/dev/null || echo 0)
		[ "$n" -ge "$1" ] && break
		sleep 0.1
	done
	kill -INT "$pid"
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" = 130 ] || fail "exit $rc, not 130: $(tail -3 run.err)"
}
run_some 5
[ "$(q big.db "select runs from schedules")" = 10000 ] || fail "schedules: $(q big.db "select * from schedules")"
[ "$(q big.db "select count(*) from runs")" = 4096 ] || fail "rows: $(q big.db "select count(*) from runs")"
[ "$(q big.db "select max(position) from runs")" = 4095 ] || fail "rows are not a prefix"
ok=$(q big.db "select count(*) from runs where status='ok'")
intr=$(q big.db "select count(*) from runs where status='interrupted'")
"$XRUN" status --db big.db >st.out 2>&1 || fail "status: $(cat st.out)"
grep -q "^runs: 10000: $ok ok, 0 failed, 0 timeout, $intr interrupted, 0 skipped, $((10000 - ok - intr)) pending" st.out ||
	fail "status counts: $(cat st.out)"
grep -q "^later in the schedule: 5904 runs, pending" st.out || fail "no line for the runs without a row: $(cat st.out)"
# Resumed: continues after the done ones, runs none twice.
run_some $((ok + 5))
[ "$(q big.db "select count(*) from runs where attempts > 2")" = 0 ] ||
	fail "a run executed again"
grep -q "resuming session 1 of 'big': $ok of 10000 runs done" run.err || fail "resume: $(head -2 run.err)"
[ "$(q big.db "select count(*) from sessions")" = 1 ] || fail "a second session"
echo "ok: rows made a batch at a time; status counts the rest; resume continues"
