#!/bin/bash
# SPDX-License-Identifier: MIT
# A command engine that daemonises a sleeper (setsid ... &, and a double
# fork) leaves no process behind: xrun, a child subreaper, kills what a
# run left outside its process group when the run ends, and says so in
# the run's stderr.
set -eu
: "${XRUN:?set XRUN to the xrun binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v setsid >/dev/null && command -v sqlite3 >/dev/null || {
	[ "${CI:-}" = true ] && fail "setsid and sqlite3 are needed"
	echo "skip: setsid or sqlite3 missing"; exit 77; }
T=$(mktemp -d)
tag="xrun-orphan-$$-$RANDOM"
# A daemon's command line starts so; the engine's own (sh -c ...) does not.
pat="^sh $T/daemonise.sh sleep .*$tag"
cleanup() {
	# only this test's own processes: the tag is unique to this run
	for p in $(pgrep -f "$pat"); do kill -KILL "$p" 2>/dev/null || true; done
	rm -rf "$T"
}
trap cleanup EXIT
cd "$T"
# The sleepers run this very script file under a name unique to the test,
# so that a survivor is found by its command line.
cat >daemonise.sh <<EOF2
#!/bin/sh
if [ "\${1:-}" = sleep ]; then sleep 300; exit; fi
setsid sh "$T/daemonise.sh" sleep $tag </dev/null >/dev/null 2>&1 &
( setsid sh "$T/daemonise.sh" sleep $tag </dev/null >/dev/null 2>&1 & )
sleep 0.2
echo 5
EOF2
cat >d.yaml <<YAML
xrun: 1
name: d
engine:
  type: command
  run: [sh, "$T/daemonise.sh"]
  metrics:
    throughput: { regex: "([0-9.]+)", unit: bit/s }
repeat: 3
sample: off
YAML
"$XRUN" run d.yaml --quiet 2>d.err || fail "run: exit $?: $(cat d.err)"
sleep 0.2
if pgrep -f "$pat" >/dev/null; then
	fail "daemonised processes survived the run: $(pgrep -af "$pat")"
fi
[ "$(sqlite3 d.db "select count(*) from runs where status='ok' and stderr like '%killed % left running in the background%'")" = 3 ] ||
	fail "stderr does not say what was killed: $(sqlite3 d.db "select stderr from runs")"
echo "ok: daemonised grandchildren of the engine are killed after each run"

# A daemon an apply hook starts lasts the session (a capture, a server a
# plan starts itself): the engine's runs see it; it dies with xrun.
cat >hook.yaml <<YAML
xrun: 1
name: hook
engine:
  type: command
  run: [sh, -c, "for i in 1 2 3 4 5 6 7 8 9 10; do pgrep -f '^sh $T/daemonise.sh sleep hook-$tag' >/dev/null && { echo 5; exit 0; }; sleep 0.1; done; exit 1"]
  metrics:
    throughput: { regex: "([0-9.]+)", unit: bit/s }
factors:
  m:
    levels: [a, b]
    apply: [sh, -c, "setsid sh $T/daemonise.sh sleep hook-$tag </dev/null >/dev/null 2>&1 &"]
repeat: 2
sample: off
YAML
"$XRUN" run hook.yaml --quiet 2>hook.err || fail "hook daemon gone during the session: $(cat hook.err)"
sleep 0.2
if pgrep -f "$pat" >/dev/null; then fail "a hook's daemon outlived xrun: $(pgrep -af "$pat")"; fi
echo "ok: a hook's daemon lasts the session and dies with xrun"

# While a run is in flight, SIGTERM to xrun: nothing survives either.
cat >slow.yaml <<YAML
xrun: 1
name: slow
engine:
  type: command
  run: [sh, -c, "setsid sh $T/daemonise.sh sleep $tag </dev/null >/dev/null 2>&1 & sleep 30"]
  metrics:
    throughput: { regex: "([0-9.]+)", unit: bit/s }
sample: off
YAML
"$XRUN" run slow.yaml --quiet 2>slow.err &
pid=$!
for _ in $(seq 50); do pgrep -f "$pat" >/dev/null && break; sleep 0.1; done
pgrep -f "$pat" >/dev/null || fail "the daemon did not start"
kill -TERM $pid
set +e
wait $pid
rc=$?
set -e
[ $rc = 130 ] || fail "SIGTERM: exit $rc: $(cat slow.err)"
sleep 0.2
if pgrep -f "$pat" >/dev/null; then fail "a daemon survived SIGTERM: $(pgrep -af "$pat")"; fi
echo "ok: and after an interrupt"
