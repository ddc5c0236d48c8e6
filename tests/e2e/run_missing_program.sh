#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A program the engine needs that is not there stops `xrun run` before any
# run with exit 3 and a message naming it, not N failed runs: iperf3 (the
# iperf3 engine's program, from its descriptor) and a command engine's
# run[0]. Nothing is run and no run is stored as failed.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need sqlite3
xr_tmpdir w
port=$(xr_free_port)

# iperf3 missing: a PATH with a shell but no iperf3.
mkdir bin
ln -s "$(command -v sh)" bin/sh
cat >i.yaml <<PLAN
xrun: 1
name: i
engine: { type: iperf3, server: local, duration: 1s, port: $port }
factors:
  x: { levels: [a, b] }
repeat: 2
sample: off
PLAN
rc=0
PATH=$PWD/bin "$XRUN" run i.yaml --unattended --quiet 2>i.err || rc=$?
[ $rc -eq 3 ] || { cat i.err; fail "iperf3 missing: exit $rc, want 3"; }
grep -q "engine program 'iperf3' is not found" i.err ||
	fail "iperf3 missing: message: $(cat i.err)"
[ "$(sqlite3 i.db "select count(*) from runs where status not in ('pending')")" = 0 ] ||
	fail "iperf3 missing: runs ran: $(sqlite3 i.db 'select status, reason from runs')"

# A command engine's run[0] missing.
cat >c.yaml <<'PLAN'
xrun: 1
name: c
engine:
  type: command
  run: [no-such-program-xyz, "{{x}}"]
  metrics:
    throughput: { regex: "([0-9]+)", unit: Mbit/s }
factors:
  x: { levels: [a, b] }
repeat: 2
sample: off
PLAN
rc=0
"$XRUN" run c.yaml --unattended --quiet 2>c.err || rc=$?
[ $rc -eq 3 ] || { cat c.err; fail "run[0] missing: exit $rc, want 3"; }
grep -q "engine program 'no-such-program-xyz' is not found" c.err ||
	fail "run[0] missing: message: $(cat c.err)"
[ "$(sqlite3 c.db "select count(*) from runs where status not in ('pending')")" = 0 ] ||
	fail "run[0] missing: runs ran: $(sqlite3 c.db 'select status, reason from runs')"
echo "ok: a missing engine program exits 3 before any run"
