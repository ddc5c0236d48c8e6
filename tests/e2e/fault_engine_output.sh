#!/bin/bash
# Engine output faults: stdout holding NUL bytes is stored whole (a blob of
# all its bytes, not text cut at the first NUL), and stdout past the
# 16 MiB cap fails its run with a reason that names the cap, not only the
# metric that could not be read from the cut text.
set -eu
: "${XRUN:?set XRUN to the xrun binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v sqlite3 >/dev/null || {
	[ "${CI:-}" = true ] && fail "sqlite3 is needed"
	echo "skip: sqlite3 CLI not installed"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T"
q() { sqlite3 "$1" "$2"; }
cat >nul.yaml <<'YAML'
xrun: 1
name: nul
engine:
  type: command
  run: [printf, 'rate 5\000after the NUL\n']
  metrics:
    throughput: { regex: "rate ([0-9]+)", unit: bit/s }
YAML
"$XRUN" run nul.yaml --quiet 2>nul.err || fail "run: exit $?: $(cat nul.err)"
[ "$(q nul.db "select hex(stdout) from runs")" = "$(printf 'rate 5\000after the NUL\n' | od -An -tx1 | tr -d ' \n' | tr a-f A-F)" ] ||
	fail "stdout not stored whole: $(q nul.db "select typeof(stdout), length(stdout), hex(stdout) from runs")"
[ "$(q nul.db "select status from runs")" = ok ] || fail "run not ok"
# Text without NUL stays text.
cat >txt.yaml <<'YAML'
xrun: 1
name: txt
engine:
  type: command
  run: [echo, "rate 7"]
  metrics:
    throughput: { regex: "rate ([0-9]+)", unit: bit/s }
YAML
"$XRUN" run txt.yaml --quiet 2>txt.err || fail "txt: $(cat txt.err)"
[ "$(q txt.db "select typeof(stdout) || ':' || stdout from runs")" = "text:rate 7" ] ||
	fail "plain stdout: $(q txt.db "select typeof(stdout), stdout from runs")"
echo "ok: stdout with NUL bytes stored whole"

# 17 MiB of filler, then the value: past the cap.
cat >big.yaml <<'YAML'
xrun: 1
name: big
engine:
  type: command
  run: [sh, -c, "head -c 17825792 /dev/zero | tr '\\0' x; echo; echo rate 9"]
  metrics:
    throughput: { regex: "rate ([0-9]+)", unit: bit/s }
YAML
set +e
"$XRUN" run big.yaml --quiet 2>big.err
rc=$?
set -e
[ $rc = 1 ] || fail "big: exit $rc, want 1: $(cat big.err)"
reason=$(q big.db "select reason from runs")
case $reason in
*"stdout passed xrun's 16 MiB output cap and was cut after 16777216 bytes"*"regex"*) ;;
*) fail "the reason does not name the cap: $reason" ;;
esac
[ "$(q big.db "select length(stdout) from runs")" = 16777216 ] || fail "kept bytes"
echo "ok: the 16 MiB cap is named in the reason"
