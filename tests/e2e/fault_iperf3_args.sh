#!/bin/bash
# SPDX-License-Identifier: MIT
# Option injection through iperf3 parameters. A placeholder's value is one
# argv word even inside `extra` (a level "--logfile /path" stays one word,
# so iperf3 never writes that file); a level with a leading dash for a
# parameter that takes a value (congestion, target, ...) is refused at
# validate time with the level's position (exit 2), not as a failure of
# every run of it.
set -eu
: "${XRUN:?set XRUN to the xrun binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T"
# A port of our own: the suite runs tests side by side (the README demo
# holds 5201).
PORT=$(python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])')
cat >inj.yaml <<'YAML'
xrun: 1
name: inj
engine:
  type: iperf3
  client: local
  server: { host: local, start: true }
  duration: 1s
  congestion: "{{cc}}"
  target: "{{t}}"
  bitrate: "{{r}}M"
factors:
  cc: { levels: [cubic, "-D"] }
  t: { levels: ["127.0.0.1", "--logfile=/tmp/x"] }
  r: { levels: ["5", "x"] }
sample: off
YAML
set +e
"$XRUN" validate inj.yaml >v.out 2>v.err
rc=$?
"$XRUN" run inj.yaml --quiet >r.out 2>r.err
rc2=$?
set -e
[ $rc = 2 ] && [ $rc2 = 2 ] || fail "validate exit $rc, run exit $rc2, want 2: $(cat v.err)"
grep -qxF "inj.yaml:12:25: error: factor 'cc' level '-D' makes iperf3 parameter 'congestion' '-D' start with '-': iperf3 would read it as an option" v.err ||
	fail "congestion: $(cat v.err)"
grep -qxF "inj.yaml:13:30: error: factor 't' level '--logfile=/tmp/x' makes the target address '--logfile=/tmp/x' start with '-': iperf3 would read it as an option" v.err ||
	fail "target: $(cat v.err)"
grep -q "^inj.yaml:14:22: error: factor 'r' level 'x': bad value 'xM' for iperf3 parameter 'bitrate'" v.err ||
	fail "bitrate: $(cat v.err)"
[ ! -e inj.db ] || fail "run started on an invalid plan"
echo "ok: leading-dash and bad levels refused at validate time with their position"

cat >extra.yaml <<YAML
xrun: 1
name: extra
engine:
  type: iperf3
  client: local
  server: { host: local, start: true }
  port: $PORT
  duration: 1s
  extra: "-4 {{x}}"
factors:
  x: { levels: ["--logfile $T/written", "-R"] }
sample: off
YAML
"$XRUN" validate extra.yaml >/dev/null 2>e.err || fail "extra: validate: $(cat e.err)"
"$XRUN" plan extra.yaml >plan.out 2>plan.err || fail "extra: plan: $(cat plan.err)"
grep -qF -- "-J -4 '--logfile $T/written'" plan.out || fail "extra split a level: $(grep iperf3 plan.out)"
grep -qF -- "-J -4 -R" plan.out || fail "extra: plain words: $(grep iperf3 plan.out)"
if command -v iperf3 >/dev/null; then
	set +e
	"$XRUN" run extra.yaml --quiet 2>run.err
	set -e
	[ ! -e written ] || fail "iperf3 wrote the file a level named"
	grep -q '"-4","--logfile '"$T"'/written"\]' <(sqlite3 extra.db "select argv from runs" 2>/dev/null || true) ||
		[ "${CI:-}" != true ] || fail "argv stored: $(sqlite3 extra.db "select argv from runs")"
fi
echo "ok: a placeholder in extra never splits into words"
