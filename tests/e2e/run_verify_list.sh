#!/bin/bash
# SPDX-License-Identifier: MIT
# verify: as a list (issue 20): every entry is checked before every run and
# stored (the first under the factor's name, the next as NAME#2 ...); a run
# is verified only when all its entries pass, and a failing second entry
# marks the cell verify_failed in the report as the first one would.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need sqlite3
xr_need jq
FAULT="$XRUN_SOURCE_DIR/tests/e2e/lib/fault_engine.sh"
xr_tmpdir T
cat >vl.yaml <<YAML
xrun: 1
name: vl
vars: { state: "$T/state", side: "$T/side" }
engine:
  type: command
  timeout: 5s
  run: [sh, "$FAULT", values]
  metrics:
    throughput: { json: /rate_MBps, unit: MB/s }
factors:
  mode:
    levels: [fast, slow]
    apply: [sh, "$FAULT", write, "{{state}}", "{{mode}}"]
    verify:
      - { run: [cat, "{{state}}"] }
      - run: [cat, "{{side}}"]
        expect: { fast: "on", slow: "on" }
    restore: true
repeat: 2
order: abba
sample: off
YAML
echo orig >state
echo on >side
"$XRUN" validate vl.yaml >/dev/null || fail "a verify list does not validate"
"$XRUN" plan vl.yaml >plan.out || fail "xrun plan: exit $?"
[ "$(grep -c "verify mode: cat" plan.out)" -ge 4 ] ||
	fail "xrun plan does not show both verify entries: $(cat plan.out)"
"$XRUN" run vl.yaml 2>vl.err || { cat vl.err; fail "exit $?"; }
[ "$(q vl.db "select count(*) from verifications where factor='mode' and ok=1")" = 4 ] ||
	fail "first entry not stored per run: $(q vl.db "select * from verifications")"
[ "$(q vl.db "select count(*) from verifications where factor='mode#2' and ok=1 and actual='on'")" = 4 ] ||
	fail "second entry not stored per run: $(q vl.db "select * from verifications")"
[ "$(q vl.db "select count(*) from runs where verified=1 and status='ok'")" = 4 ] || fail "runs not verified"
[ "$(cat state)" = orig ] || fail "restore: true did not read entry 0's original: $(cat state)"

# The second entry fails on one level only: those runs are unverified,
# the warning names the entry, and the report flags the factor.
cat >side.sh <<SH
#!/bin/sh
[ "\$(cat "$T/state")" = slow ] && echo off || echo on
SH
sed -e "s|run: \[cat, \"{{side}}\"\]|run: [sh, \"$T/side.sh\"]|" \
	-e 's/^name: vl$/name: vl2/' vl.yaml >vl2.yaml
grep -q side.sh vl2.yaml || fail "test setup: side.sh not in the plan"
echo orig >state
# exit 5: the 2 slow runs were verified wrong (docs/run.md, Exit codes);
# each was checked by 2 entries: 2 runs, not 4 checks
rc=0; "$XRUN" run vl2.yaml 2>vl2.err || rc=$?
[ "$rc" = 5 ] || { cat vl2.err; fail "vl2: exit $rc, want 5"; }
grep -q "^xrun: 2 ok runs of the session had a setting verified wrong" vl2.err ||
	fail "vl2: summary does not count 2 runs: $(cat vl2.err)"
[ "$(q vl2.db "select count(*) from runs where verified=0 and cell like '%slow%'")" = 2 ] ||
	fail "second entry failing did not unverify: $(q vl2.db "select cell,verified from runs")"
[ "$(q vl2.db "select count(*) from runs where verified=1 and cell like '%fast%'")" = 2 ] ||
	fail "fast runs: $(q vl2.db "select cell,verified from runs")"
[ "$(q vl2.db "select count(*) from verifications where factor='mode#2' and ok=0 and actual='off'")" = 2 ] ||
	fail "second entry mismatch not stored: $(q vl2.db "select * from verifications")"
grep -q "factor 'mode' on 'local' is not verified: run: expected 'on', found 'off'" vl2.err ||
	fail "second entry mismatch not printed: $(cat vl2.err)"
"$XRUN" report --db vl2.db -o vl2.json
[ "$(jq -r '[.cells[] | select(.cell.mode == "slow") | .flags | index("verify_failed") != null] | all and length == 1' vl2.json)" = true ] ||
	fail "report does not flag the second entry's failure: $(jq -c '[.cells[] | {cell, flags}]' vl2.json)"
[ "$(jq -r '[.cells[] | select(.cell.mode == "fast") | .flags | index("verify_failed") == null] | all' vl2.json)" = true ] ||
	fail "report flags a cell whose entries all pass"
echo "ok: a verify list, each entry stored, a factor verified when all pass"
