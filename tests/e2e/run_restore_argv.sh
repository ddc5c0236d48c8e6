#!/usr/bin/env bash
# restore: [argv] gets {{original}}: the value the factor's verify read
# before the first change, and puts it back at the end.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_tmpdir w
cat >p.yaml <<PLAN
xrun: 1
name: rst
vars: { f: $w/state }
engine:
  type: command
  run: [echo, "1"]
  metrics:
    throughput: { regex: "([0-9]+)", unit: bit/s }
factors:
  mode:
    levels: [a, b]
    apply: [sh, -c, 'printf %s "\$1" > "\$2"', sh, "{{mode}}", "{{f}}"]
    verify: { run: [cat, "{{f}}"] }
    restore: [sh, -c, 'printf %s "\$1" > "\$2"', sh, "{{original}}", "{{f}}"]
repeat: 2
sample: off
PLAN
printf 'was here' >state
"$XRUN" run p.yaml --unattended 2>err.txt || { cat err.txt; fail "exit $?"; }
[ "$(cat state)" = "was here" ] || fail "state not restored: '$(cat state)'"
[ "$(sqlite3 rst.db "select count(*) from hooks where kind='restore' and argv like '%was here%'")" = 1 ] ||
	fail "restore hook: $(sqlite3 rst.db 'select kind, argv from hooks')"
[ "$(sqlite3 rst.db "select count(*) from verifications where ok=1")" = 4 ] ||
	fail "verifications: $(sqlite3 rst.db 'select * from verifications')"
echo "ok: restore argv with {{original}}"
