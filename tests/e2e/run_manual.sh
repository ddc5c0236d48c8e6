#!/bin/bash
# SPDX-License-Identifier: MIT
# Manual factors unattended: the block that needs no manual change runs,
# the rest stays pending and `xrun status` lists the pending manual steps
# with their instructions expanded; the next start continues with the next
# block. A plan whose cells changed is refused with what changed unless
# --new-session; --only with an unknown factor or level is a usage error;
# a DB from a newer xrun is refused.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need sqlite3
FAULT="$XRUN_SOURCE_DIR/tests/e2e/lib/fault_engine.sh"
xr_tmpdir T
mk() { # file name nlevels repeat [extra factor line]
	cat >"$1" <<YAML
xrun: 1
name: $2
engine:
  type: command
  timeout: 5s
  run: [sh, "$FAULT", values]
  metrics:
    throughput: { json: /rate_MBps, unit: MB/s }
factors:
  slot: { levels: [x1, x4], manual: "Move the card to the {{slot}} slot" }
  n: { levels: $3 }
${5:-}
repeat: $4
sample: off
YAML
}

mk m.yaml m "[1, 2]" 1
"$XRUN" run m.yaml --unattended 2>m1.err </dev/null || { cat m1.err; fail "exit $?"; }
[ "$(q m.db "select count(*) from runs where status='ok'")" = 2 ] || fail "first block did not run"
[ "$(q m.db "select count(distinct json_extract(cell,'\$.slot')) from runs where status='ok'")" = 1 ] ||
	fail "runs of two manual blocks executed"
[ "$(q m.db "select count(*) from runs where status='pending'")" = 2 ] || fail "second block not pending"
grep -q "need a manual change" m1.err || fail "no pending note: $(cat m1.err)"
"$XRUN" status m.yaml >st.out || fail "status exit $?"
first=$(q m.db "select json_extract(cell,'\$.slot') from runs where status='ok' limit 1")
other=$(q m.db "select json_extract(cell,'\$.slot') from runs where status='pending' limit 1")
grep -q "manual step: slot=$other: Move the card to the $other slot" st.out ||
	fail "status does not list the pending manual step: $(cat st.out)"
grep -qE "^runs: 4: 2 ok, 0 failed, .* 2 pending" st.out || fail "status counts: $(cat st.out)"
# Blocks numbered as `xrun plan` numbers them.
"$XRUN" plan m.yaml >plan.out
grep -q "^block 1: slot=$other" plan.out || fail "plan blocks: $(cat plan.out)"
grep -q "^block 1 (slot=$other): 2 runs: 0 done, 0 failed, 2 pending" st.out ||
	fail "status block numbering: $(cat st.out)"
grep -q "slot=$first): 2 runs: 2 done, 0 failed, 0 pending" st.out || fail "block line: $(cat st.out)"
# Started again: the first pending block is now the current state.
"$XRUN" run m.yaml --unattended 2>m2.err </dev/null || { cat m2.err; fail "second exit $?"; }
[ "$(q m.db "select count(*) from runs where status='ok'")" = 4 ] || fail "second block did not run"
[ "$(q m.db "select status from sessions")" = done ] || fail "session not done"

# --only: unknown factor or level -> exit 2 with a message.
set +e
"$XRUN" run m.yaml --only nope=1 --db o.db 2>o1.err; rc1=$?
"$XRUN" run m.yaml --only n=7 --db o.db 2>o2.err; rc2=$?
set -e
[ $rc1 -eq 2 ] && grep -q "unknown factor 'nope'" o1.err || fail "--only unknown factor: $rc1 $(cat o1.err)"
[ $rc2 -eq 2 ] && grep -q "no level '7'" o2.err || fail "--only unknown level: $rc2 $(cat o2.err)"

# A changed plan on an unfinished session is refused, saying what changed.
mk c.yaml c "[1, 2]" 1
"$XRUN" run c.yaml --only n=1 --unattended --quiet 2>/dev/null </dev/null || fail "c exit $?"
[ "$(q c.db "select count(*) from runs where status='pending'")" -ge 1 ] || fail "c should be unfinished"
mk c.yaml c "[1, 3]" 2 "  z: { levels: [p, q] }"
set +e
"$XRUN" run c.yaml --unattended 2>c2.err </dev/null
rc=$?
set -e
[ $rc -eq 2 ] || { cat c2.err; fail "changed plan exit $rc, want 2"; }
grep -q "factor 'n' levels changed: \[1, 2\] -> \[1, 3\]" c2.err || fail "levels change not said: $(cat c2.err)"
grep -q "factor 'z' added" c2.err || fail "added factor not said: $(cat c2.err)"
grep -q "repeat changed: 1 -> 2" c2.err || fail "repeat change not said: $(cat c2.err)"
grep -q -- "--new-session" c2.err || fail "no hint: $(cat c2.err)"
"$XRUN" run c.yaml --unattended --new-session --quiet 2>c3.err </dev/null || { cat c3.err; fail "--new-session exit $?"; }
[ "$(q c.db "select count(*) from sessions")" = 2 ] || fail "--new-session did not make a session"

# A DB written by a newer xrun is refused.
sqlite3 new.db "PRAGMA user_version = 99"
set +e
"$XRUN" run m.yaml --db new.db 2>new.err
rc=$?
set -e
[ $rc -eq 3 ] && grep -q "newer" new.err || fail "newer DB: $rc $(cat new.err)"
echo "ok: manual blocks unattended, status, changed plan, --only errors"
