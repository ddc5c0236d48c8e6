#!/bin/bash
# SPDX-License-Identifier: MIT
# Engine output meant for a terminal (issue 24 items 6 and 12): a command
# engine whose stderr sets the window title (ESC ] 0 ; title BEL), clears
# the screen (ESC [ 2 J, ESC [ H) and rewrites the line (CR) fails its
# run; `xrun run` and `xrun status` show its reason with those controls
# escaped (\x1b ...), not obeyed, and keep its UTF-8 text; the stored
# stderr stays byte for byte what the engine wrote.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need sqlite3 od
xr_tmpdir T
ESC=$(printf '\033')
# The engine's stderr, as printf(1) writes it.
noise='\033]0;owned\007\033[2J\033[Hboom \302\265s \343\201\202\r50%%'
printf '#!/bin/sh\nprintf '"'%s'"' >&2\nexit 3\n' "$noise" >noise.sh
cat >term.yaml <<YAML
xrun: 1
name: term
engine:
  type: command
  run: [sh, $T/noise.sh]
  metrics:
    throughput: { regex: "rate ([0-9]+)", unit: bit/s }
sample: off
YAML
set +e
"$XRUN" run term.yaml 2>run.err
rc=$?
set -e
[ $rc = 1 ] || fail "exit $rc, want 1: $(cat run.err)"
XR_DB=term.db
[ "$(q "select status from runs")" = failed ] || fail "run not failed"
# Stored as the engine wrote it.
[ "$(q "select hex(stderr) from runs")" = "$(printf "$noise" | od -An -tx1 | tr -d ' \n' | tr a-f A-F)" ] ||
	fail "stderr not stored byte for byte: $(q "select hex(stderr) from runs")"
# The terminal gets no control character of the engine's: no ESC, BEL
# or CR anywhere in what xrun printed.
for out in run.err; do
	! grep -q "[$ESC$(printf '\007\r')]" "$out" || fail "$out holds a raw control: $(od -c "$out" | head)"
done
grep -qF 'boom' run.err || fail "the reason is not shown: $(cat run.err)"
# (the reason's tail of stderr has its CR and LF as spaces already)
want='\x1b]0;owned\x07\x1b[2J\x1b[Hboom µs あ 50%'
grep -qF "$want" run.err || fail "run: controls not escaped as \\xHH, or UTF-8 not kept: $(cat run.err)"
"$XRUN" status term.yaml >status.out 2>status.err || fail "status: $(cat status.err)"
! grep -q "[$ESC$(printf '\007\r')]" status.out || fail "status prints a raw control: $(od -c status.out | head)"
grep -qF "$want" status.out || fail "status: reason not escaped: $(cat status.out)"
echo "ok: engine controls escaped in run and status, UTF-8 kept, stored raw"
