#!/bin/bash
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
cleanup() {
	# only this test's own processes: the tag is unique to this run
	for p in $(pgrep -f "$tag"); do kill -KILL "$p" 2>/dev/null || true; done
	rm -rf "$T"
}
trap cleanup EXIT
cd "$T"
# The sleepers run this very script file under a name unique to the test,
# so that a survivor is found by its command line.
cat >daemonise.sh <<EOF2
#!/bin/sh
if [ "\${1:-}" = sleep ]; then exec sleep 300; fi
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
YAML
"$XRUN" run d.yaml --quiet 2>d.err || fail "run: exit $?: $(cat d.err)"
sleep 0.2
if pgrep -f "$tag" >/dev/null; then
	fail "daemonised processes survived the run: $(pgrep -af "$tag")"
fi
[ "$(sqlite3 d.db "select count(*) from runs where status='ok' and stderr like '%killed % left running in the background%'")" = 3 ] ||
	fail "stderr does not say what was killed: $(sqlite3 d.db "select stderr from runs")"
echo "ok: daemonised grandchildren of the engine are killed after each run"

# While a run is in flight, SIGTERM to xrun: nothing survives either.
cat >slow.yaml <<YAML
xrun: 1
name: slow
engine:
  type: command
  run: [sh, -c, "setsid sh $T/daemonise.sh sleep $tag </dev/null >/dev/null 2>&1 & sleep 30"]
  metrics:
    throughput: { regex: "([0-9.]+)", unit: bit/s }
YAML
"$XRUN" run slow.yaml --quiet 2>slow.err &
pid=$!
for _ in $(seq 50); do pgrep -f "$tag" >/dev/null && break; sleep 0.1; done
pgrep -f "$tag" >/dev/null || fail "the daemon did not start"
kill -TERM $pid
set +e
wait $pid
rc=$?
set -e
[ $rc = 130 ] || fail "SIGTERM: exit $rc: $(cat slow.err)"
sleep 0.2
if pgrep -f "$tag" >/dev/null; then fail "a daemon survived SIGTERM: $(pgrep -af "$tag")"; fi
echo "ok: and after an interrupt"
