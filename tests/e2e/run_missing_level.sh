#!/usr/bin/env bash
# A program missing for one level is a failed run (stored with its reason,
# the plan goes on, exit 1); missing before anything ran is an environment
# error (exit 3).
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_tmpdir w
cat >p.yaml <<'PLAN'
xrun: 1
name: miss
engine:
  type: command
  run: ["{{tool}}", "value 42"]
  metrics:
    throughput: { regex: "([0-9]+)", unit: Mbit/s }
factors:
  tool: { levels: [echo, no-such-tool-xyz] }
repeat: 2
order: sequential
sample: off
PLAN
rc=0
"$XRUN" run p.yaml --unattended 2>err.txt || rc=$?
[ $rc -eq 1 ] || { cat err.txt; fail "exit $rc, want 1"; }
[ "$(sqlite3 miss.db "select count(*) from runs where status='ok' and cell like '%echo%'")" = 2 ] ||
	fail "echo runs: $(sqlite3 miss.db 'select status, reason from runs')"
[ "$(sqlite3 miss.db "select count(*) from runs where status='failed' and reason like '%cannot execute%no-such-tool-xyz%'")" = 2 ] ||
	fail "missing-tool runs: $(sqlite3 miss.db 'select status, reason from runs')"
[ "$(sqlite3 miss.db "select value from results where metric='throughput' limit 1")" = 42000000.0 ] ||
	fail "value: $(sqlite3 miss.db 'select value from results')"

# The same program missing for the first run: environment, exit 3.
sed -i 's/levels: \[echo, no-such-tool-xyz\]/levels: [no-such-tool-xyz, echo]/' p.yaml
rc=0
"$XRUN" run p.yaml --db first.db --unattended 2>err2.txt || rc=$?
[ $rc -eq 3 ] || { cat err2.txt; fail "first-run missing: exit $rc, want 3"; }
grep -q "no-such-tool-xyz" err2.txt || fail "message: $(cat err2.txt)"
echo "ok: missing program per level is a failed run; before any run exit 3"
