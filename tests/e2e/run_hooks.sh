#!/bin/bash
# SPDX-License-Identifier: MIT
# apply / verify / restore hooks (no root needed): a factor whose apply
# writes a file and whose verify reads it back. apply runs only when the
# level changes, every run stores its verification, restore: true puts
# back the value found before the first change; a setting that does not
# take is recorded as unverified and printed, never silent.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need sqlite3
FAULT="$XRUN_SOURCE_DIR/tests/e2e/lib/fault_engine.sh"
xr_tmpdir T
mk() { # name levels
	cat >"$1.yaml" <<YAML
xrun: 1
name: $1
vars: { state: "$T/state" }
engine:
  type: command
  timeout: 5s
  run: [sh, "$FAULT", values]
  metrics:
    throughput: { json: /rate_MBps, unit: MB/s }
factors:
  mode:
    levels: $2
    apply: [sh, "$FAULT", write, "{{state}}", "{{mode}}"]
    verify: { run: [cat, "{{state}}"] }
    restore: true
repeat: 2
order: abba
on_finish: [sh, "$FAULT", write, "{{state}}.finished", "$1"]
sample: off
YAML
}

echo orig >state
mk hooks "[fast, slow]"
"$XRUN" run hooks.yaml 2>hooks.err || { cat hooks.err; fail "exit $?"; }
[ "$(cat state)" = orig ] || fail "restore: true did not put back 'orig': $(cat state)"
[ "$(cat state.finished 2>/dev/null)" = hooks ] || fail "on_finish did not run"
# abba: fast slow slow fast -> the level changes 3 times.
[ "$(q hooks.db "select count(*) from hooks where kind='apply'")" = 3 ] ||
	fail "apply must run only on level changes: $(q hooks.db "select kind,level from hooks")"
[ "$(q hooks.db "select count(*) from hooks where kind='capture' and stdout like 'orig%'")" = 1 ] ||
	fail "original value not captured once: $(q hooks.db "select kind,stdout from hooks")"
[ "$(q hooks.db "select count(*) from hooks where kind='restore' and level='orig' and exit_code=0")" = 1 ] ||
	fail "restore hook: $(q hooks.db "select kind,level,exit_code from hooks")"
[ "$(q hooks.db "select count(*) from verifications where factor='mode' and method='run' and ok=1 and actual=expected")" = 4 ] ||
	fail "verification per run: $(q hooks.db "select * from verifications")"
[ "$(q hooks.db "select count(*) from runs where verified=1 and status='ok'")" = 4 ] || fail "runs not verified"
# The verification matches the level of its own run.
[ "$(q hooks.db "select count(*) from verifications v join runs r on r.id=v.run_id where r.cell like '%' || v.actual || '%'")" = 4 ] ||
	fail "verification does not match the run's cell"

# A level that does not take: stored unverified and printed.
echo orig >state
mk broken "[good, broken]"
# exit 5: every run ok, 2 of them measured with the setting verified
# wrong (docs/run.md, Exit codes)
rc=0; "$XRUN" run broken.yaml 2>broken.err || rc=$?
[ "$rc" = 5 ] || { cat broken.err; fail "broken: exit $rc, want 5"; }
grep -q "^xrun: 2 ok runs of the session had a setting verified wrong" broken.err ||
	fail "summary does not count the 2 runs verified wrong: $(cat broken.err)"
[ "$(q broken.db "select count(*) from runs where verified=0 and cell like '%broken%'")" = 2 ] ||
	fail "broken runs not unverified: $(q broken.db "select cell,verified from runs")"
[ "$(q broken.db "select count(*) from verifications where ok=0 and expected='broken' and actual='nope'")" = 2 ] ||
	fail "mismatch not recorded: $(q broken.db "select * from verifications")"
[ "$(q broken.db "select count(*) from runs where verified=1 and cell like '%good%'")" = 2 ] || fail "good runs"
grep -q "factor 'mode' on 'local' is not verified: expected 'broken', found 'nope'" broken.err ||
	fail "mismatch not printed: $(cat broken.err)"
[ "$(cat state)" = orig ] || fail "not restored after the broken plan"

# on: naming one host twice (client is local here): hooks run there once.
echo orig >state
mk twice "[fast, slow]"
sed -i 's/^    restore: true$/    restore: true\n    on: [client, local]/' twice.yaml
grep -q "on: \[client, local\]" twice.yaml || fail "test setup: on: not added"
"$XRUN" run twice.yaml 2>twice.err || { cat twice.err; fail "twice: exit $?"; }
[ "$(q twice.db "select count(*) from hooks where kind='apply'")" = 3 ] ||
	fail "on: [client, local] ran apply twice per change: $(q twice.db "select kind,host,level from hooks")"
[ "$(q twice.db "select count(*) from hooks where kind='capture'")" = 1 ] || fail "twice: captured twice"
[ "$(q twice.db "select count(*) from hooks where kind='restore'")" = 1 ] || fail "twice: restored twice"
[ "$(cat state)" = orig ] || fail "twice: not restored"
echo "ok: hooks apply on change, verify every run, restore"
