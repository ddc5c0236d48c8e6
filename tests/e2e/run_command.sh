#!/bin/bash
# SPDX-License-Identifier: MIT
# The command engine through xrun run, with the fault-injection command
# tests/e2e/lib/fault_engine.sh (a fake engine, named as such): known
# values stored exactly in base units; a failing command stored as failed
# with its reason and exit 1 overall; a hanging command killed at its
# timeout with no process of its group left; garbage output is a failed
# run, not a crash.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need sqlite3
FAULT="$XRUN_SOURCE_DIR/tests/e2e/lib/fault_engine.sh"
xr_tmpdir T
plan() { # name mode [extra args...]
	local name=$1 mode=$2
	shift 2
	{
		echo "xrun: 1"
		echo "name: $name"
		echo "engine:"
		echo "  type: command"
		echo "  timeout: 2s"
		printf '  run: [sh, "%s", %s' "$FAULT" "$mode"
		for a in "$@"; do printf ', "%s"' "$a"; done
		echo "]"
		echo "  metrics:"
		echo "    throughput: { regex: '\"rate_MBps\": ([0-9.]+)', unit: MB/s }"
		echo '    latency: { json: /latency_ms, unit: ms }'
		echo "factors:"
		echo "  x: { levels: [a, b] }"
		echo "repeat: 1"
	} >"$name.yaml"
}

# Known values, exactly, in base units: 123.5 MB/s = 988000000 bit/s.
plan vals values
"$XRUN" run vals.yaml --quiet 2>vals.err || { cat vals.err; fail "values exit $?"; }
[ "$(q vals.db "select count(*) from results where metric='throughput' and value=988000000.0 and unit='bit/s' and status='ok'")" = 2 ] ||
	fail "throughput not exact: $(q vals.db "select metric,value,unit,status,reason from results")"
[ "$(q vals.db "select count(*) from results where metric='latency' and value=0.01225 and unit='s'")" = 2 ] ||
	fail "latency not exact: $(q vals.db "select metric,value,unit from results")"
q vals.db "select stdout from runs limit 1" | grep -q '"rate_MBps": 123.5' || fail "raw stdout not kept"

# A failing command: failed with its reason, the other runs go on, exit 1.
plan failing fail
set +e
"$XRUN" run failing.yaml 2>failing.err
rc=$?
set -e
[ $rc -eq 1 ] || { cat failing.err; fail "failing exit $rc, want 1"; }
[ "$(q failing.db "select count(*) from runs where status='failed' and exit_code=1 and reason <> ''")" = 2 ] ||
	fail "failed runs: $(q failing.db "select status,exit_code,reason from runs")"
q failing.db "select stderr from runs limit 1" | grep -q "disk full" || fail "stderr not kept"
[ "$(q failing.db "select count(*) from results where metric is null and status='failed'")" = 2 ] ||
	fail "a failed run must have one results row with metric NULL"

# A hanging command: timed out at its deadline, its whole group killed.
plan hanging hang "$T/pids"
start=$(date +%s.%N)
set +e
"$XRUN" run hanging.yaml --only x=a --quiet 2>hanging.err
rc=$?
set -e
end=$(date +%s.%N)
[ $rc -eq 1 ] || { cat hanging.err; fail "hanging exit $rc, want 1"; }
[ "$(q hanging.db "select status from runs where cell like '%\"a\"%'")" = timeout ] ||
	fail "not a timeout: $(q hanging.db "select status,reason from runs")"
[ "$(q hanging.db "select status from runs where cell like '%\"b\"%'")" = pending ] ||
	fail "--only must leave the other run pending"
awk -v s="$start" -v e="$end" 'BEGIN { exit !((e - s) < 8) }' || fail "timeout took too long"
el=$(q hanging.db "select elapsed from runs where status='timeout'")
awk -v e="$el" 'BEGIN { exit !(e >= 1.9 && e < 5) }' || fail "elapsed $el not at the 2 s deadline"
[ -s pids ] || fail "hang did not start"
for p in $(cat pids); do
	if kill -0 "$p" 2>/dev/null; then fail "process $p of the hung group survived"; fi
done
if ps -eo args | grep -v grep | grep -q "fault_engine.sh hang $T"; then fail "hang survived"; fi

# Garbage output: a failed run with a reason, no crash.
plan garb garbage
set +e
"$XRUN" run garb.yaml --quiet 2>garb.err
rc=$?
set -e
[ $rc -eq 1 ] || { cat garb.err; fail "garbage exit $rc, want 1"; }
[ "$(q garb.db "select count(*) from runs where status='failed' and reason <> ''")" = 2 ] ||
	fail "garbage: $(q garb.db "select status,reason from runs")"

# A missing engine program is an environment error (exit 3), not N failures.
sed 's|run: \[sh,|run: [/nonexistent/xrun-no-such-program,|' vals.yaml >missing.yaml
sed -i 's/^name: vals/name: missing/' missing.yaml
set +e
"$XRUN" run missing.yaml 2>missing.err
rc=$?
set -e
[ $rc -eq 3 ] || { cat missing.err; fail "missing program exit $rc, want 3"; }
# An unreachable host is an environment error before any run (exit 3).
if command -v ssh >/dev/null; then
	sed 's/^name: vals/name: unreach/' vals.yaml |
		sed 's/^engine:/hosts:\n  far: { ssh: "nobody@127.0.0.1", port: 1, ssh_options: [-o, ConnectTimeout=3, -o, BatchMode=yes] }\nengine:\n  client: far/' >unreach.yaml
	set +e
	"$XRUN" run unreach.yaml 2>unreach.err
	rc=$?
	set -e
	[ $rc -eq 3 ] || { cat unreach.err; fail "unreachable host exit $rc, want 3"; }
	[ "$(q unreach.db "select count(*) from runs where status<>'pending'")" = 0 ] || fail "runs ran without a host"
fi
echo "ok: command engine values, failure, timeout, garbage, missing program, unreachable host"
