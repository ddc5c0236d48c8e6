#!/bin/bash
# SPDX-License-Identifier: MIT
# restore: true against kills and signals. A factor's apply writes a
# file, its verify reads it back; the file starts as ORIGINAL.
#  - SIGKILL in a run, then a resume: the resumed xrun restores the value
#    the killed one captured (kept in the store), not the level it finds.
#  - SIGINT, SIGTERM, SIGHUP, and a second Ctrl-C: exit 130, the run in
#    flight stored 'interrupted', the session 'interrupted', the restore
#    hook run, and no report output written.
set -eu
: "${XRUN:?set XRUN to the xrun binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v sqlite3 >/dev/null || {
	[ "${CI:-}" = true ] && fail "sqlite3 is needed"
	echo "skip: sqlite3 CLI not installed"; exit 77; }
FAULT="$XRUN_SOURCE_DIR/tests/e2e/lib/fault_engine.sh"
T=$(mktemp -d)
pid=
cleanup() { [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$T"; }
trap cleanup EXIT
cd "$T"
q() { sqlite3 "$1" "$2"; }
mk() { # name engine-argv
	cat >"$1.yaml" <<YAML
xrun: 1
name: $1
engine:
  type: command
  timeout: 60s
  run: $2
  metrics:
    throughput: { json: /rate_MBps, unit: MB/s }
factors:
  mode:
    levels: [aaa, bbb]
    apply: [sh, "$FAULT", write, "$T/state", "{{mode}}"]
    verify: { run: [cat, "$T/state"] }
    restore: true
repeat: 2
report:
  output: $T/$1.md
sample: off
YAML
}
# Wait until a run of DB $1 is 'running'.
wait_running() {
	for _ in $(seq 100); do
		[ "$(q "$1" "select count(*) from runs where status='running'" 2>/dev/null || echo 0)" -ge 1 ] && return 0
		sleep 0.1
	done
	fail "no run started in $1"
}

# --- SIGKILL, then resume -------------------------------------------------
echo ORIGINAL >state
mk kill "[sh, \"$FAULT\", slow, \"1\"]"
"$XRUN" run kill.yaml --quiet 2>kill1.err &
pid=$!
wait_running kill.db
sleep 0.2
kill -KILL $pid
wait $pid 2>/dev/null || true
pid=
case $(cat state) in aaa | bbb) ;; *) fail "setup: state is '$(cat state)' after the kill" ;; esac
[ "$(q kill.db "select value from originals")" = ORIGINAL ] ||
	fail "original not stored: $(q kill.db "select * from originals")"
"$XRUN" run kill.yaml --quiet 2>kill2.err || fail "resume: exit $?: $(cat kill2.err)"
[ "$(cat state)" = ORIGINAL ] || fail "resume restored '$(cat state)', not ORIGINAL"
[ "$(q kill.db "select count(*) from hooks where kind='capture'")" = 1 ] ||
	fail "the resume captured again: $(q kill.db "select kind,stdout from hooks")"
[ "$(q kill.db "select level from hooks where kind='restore'")" = ORIGINAL ] ||
	fail "restore hook: $(q kill.db "select kind,level from hooks")"
echo "ok: restore after SIGKILL + resume puts back the true original"

# A resume with nothing left to apply still restores.
echo ORIGINAL >state
# The first run ends at once, the second lasts 5 s: the test kills xrun
# in the second, however slow the machine is to see it start.
mk kill2 "[sh, -c, 'if [ -e $T/k2.first ]; then exec sh $FAULT slow 5; fi; touch $T/k2.first; exec sh $FAULT values']"
sed -i 's/^repeat: 2$/repeat: 1/' kill2.yaml
"$XRUN" run kill2.yaml --quiet 2>k2.err &
pid=$!
for _ in $(seq 100); do
	[ "$(q kill2.db "select count(*) from runs where status='ok'" 2>/dev/null || echo 0)" = 1 ] &&
		[ "$(q kill2.db "select count(*) from runs where status='running'" 2>/dev/null || echo 0)" = 1 ] && break
	sleep 0.1
done
kill -KILL $pid
wait $pid 2>/dev/null || true
pid=
q kill2.db "update runs set status='ok', attempts=1 where status='running'"
echo bbb >state # as the killed xrun left it
"$XRUN" run kill2.yaml --quiet 2>k3.err || fail "resume: exit $?: $(cat k3.err)"
[ "$(cat state)" = ORIGINAL ] || fail "nothing left to run: not restored: $(cat state)"
echo "ok: a resume with nothing to apply restores too"

# --- SIGINT, SIGTERM, SIGHUP: like SIGTERM ---------------------------------
for sig in INT TERM HUP; do
	n=s${sig,,}
	echo ORIGINAL >state
	mk "$n" "[sh, \"$FAULT\", slow, \"5\"]"
	"$XRUN" run "$n.yaml" --quiet 2>"$n.err" &
	pid=$!
	wait_running "$n.db"
	kill -"$sig" $pid
	set +e
	wait $pid
	rc=$?
	set -e
	pid=
	[ $rc = 130 ] || fail "SIG$sig: exit $rc, want 130: $(cat "$n.err")"
	[ "$(cat state)" = ORIGINAL ] || fail "SIG$sig: not restored: $(cat state)"
	[ "$(q "$n.db" "select status from sessions")" = interrupted ] ||
		fail "SIG$sig: session $(q "$n.db" "select status from sessions")"
	[ "$(q "$n.db" "select count(*) from runs where status='interrupted'")" = 1 ] ||
		fail "SIG$sig: runs: $(q "$n.db" "select position,status from runs")"
	[ ! -e "$n.md" ] || fail "SIG$sig: a report was written after the interrupt"
	echo "ok: SIG$sig stops, restores, writes no report"
done

# --- a second Ctrl-C: the engine (ignoring SIGTERM) dies at once, and the
# settings are still put back.
echo ORIGINAL >state
mk twice "[sh, -c, \"trap '' TERM; sleep 20; echo '{}'\"]"
"$XRUN" run twice.yaml --quiet 2>twice.err &
pid=$!
wait_running twice.db
kill -INT $pid
sleep 0.3
t0=$(date +%s%N)
kill -INT $pid
set +e
wait $pid
rc=$?
set -e
pid=
t=$((($(date +%s%N) - t0) / 1000000))
[ $rc = 130 ] || fail "second Ctrl-C: exit $rc: $(cat twice.err)"
[ "$(cat state)" = ORIGINAL ] || fail "second Ctrl-C: not restored: $(cat state)"
[ $t -lt 1500 ] || fail "second Ctrl-C took $t ms to stop"
[ ! -e twice.md ] || fail "second Ctrl-C: a report was written"
[ "$(q twice.db "select status from sessions")" = interrupted ] || fail "second Ctrl-C: session not interrupted"
echo "ok: a second Ctrl-C kills at once and still restores"
