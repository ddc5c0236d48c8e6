#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A metric declared in bytes (a file copy) is stored in bit/s like every
# rate but shown in MB/s by default; a network rate stays in bit/s units.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_tmpdir w
cat >p.yaml <<'PLAN'
xrun: 1
name: copy
engine:
  type: command
  run: [echo, '{"rate": 215.5}']
  metrics:
    throughput: { json: /rate, unit: MB/s }
factors:
  signing: { levels: ["on", "off"] }
repeat: 3
sample: off
PLAN
"$XRUN" run p.yaml --unattended 2>run.err || { cat run.err; fail "run exit $?"; }
[ "$(sqlite3 copy.db "select value from results where metric='throughput' limit 1")" = 1724000000.0 ] ||
	fail "stored value: $(sqlite3 copy.db 'select value from results limit 1')"
"$XRUN" report p.yaml -o r.md
grep -q "throughput (MB/s)" r.md || fail "display unit: $(grep -i metric r.md)"
# 215.5 MB/s in three significant digits, in the table and the cells.
# The matrix shows the geometric mean (215.5 -> 215 or 216 by rounding).
grep -qE '^\| on \| 21[56]( ×/÷[0-9.]+)?( \[[0-9,]+\])? \|$' r.md ||
	fail "value in MB/s not shown in the table: $(cat r.md)"
grep -qE '^\| signing=off( \[[0-9,]+\])? \| 3(/3)? \| 216( ×/÷[0-9.]+)? \| 216 \| 216 \|' r.md ||
	fail "value in MB/s not shown in the cells: $(cat r.md)"
sed -i 's/unit: MB\/s/unit: Mbit\/s/' p.yaml
"$XRUN" run p.yaml --db bits.db --new-session --unattended 2>/dev/null
"$XRUN" report p.yaml --db bits.db -o b.md
grep -q "throughput (Mbit/s)" b.md || fail "network rate unit: $(grep -i metric b.md)"
echo "ok: byte rates shown in MB/s, bit rates in bit/s units"
