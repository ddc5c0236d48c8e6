#!/bin/bash
# SPDX-License-Identifier: MIT
# The store lock is on the database file itself: a second xrun reaching a
# store in use through a symlink or a hard link is refused (exit 3), and
# never runs a run twice. The "<db>.lock" notes file is never followed
# through a symlink nor truncated: a symlink or a hard link there to some
# other file is refused and the file keeps its content.
set -eu
: "${XRUN:?set XRUN to the xrun binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v sqlite3 >/dev/null || {
	[ "${CI:-}" = true ] && fail "sqlite3 is needed"
	echo "skip: sqlite3 CLI not installed"; exit 77; }
T=$(mktemp -d)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
cd "$T"
# Each run waits for the file go (made once the second xruns were tried):
# the first xrun holds the store for as long as the test needs, however
# slow the machine.
cat >s.yaml <<YAML
xrun: 1
name: s
engine:
  type: command
  run: [sh, -c, "while [ ! -e $T/go ]; do sleep 0.05; done; echo 5"]
  metrics:
    throughput: { regex: "([0-9.]+)", unit: bit/s }
factors:
  n: { levels: ["1", "2"] }
repeat: 4
sample: off
YAML
"$XRUN" run s.yaml --db g.db --quiet 2>first.err &
pid=$!
for _ in $(seq 50); do
	[ -s g.db.lock ] && break
	sleep 0.1
done
ln -s g.db sym.db
ln g.db hard.db
mkdir d && ln -s ../g.db d/g.db
for other in sym.db hard.db d/g.db "$T/./g.db"; do
	set +e
	timeout 60 "$XRUN" run s.yaml --db "$other" --quiet 2>second.err
	rc=$?
	set -e
	[ $rc = 3 ] || fail "second xrun on '$other': exit $rc, want 3: $(cat second.err)"
	grep -q "another xrun is running on this store" second.err ||
		fail "second xrun on '$other': $(cat second.err)"
done
touch go
wait $pid || fail "first xrun: exit $?: $(cat first.err)"
pid=
[ "$(sqlite3 g.db "select count(*) from runs")" = 8 ] || fail "runs added twice"
[ "$(sqlite3 g.db "select count(*) from runs where attempts<>1")" = 0 ] ||
	fail "a run executed twice: $(sqlite3 g.db "select position,attempts from runs")"
echo "ok: symlink, hard link and another spelling of a store in use refused"

# A symlinked lock path: refused, its target untouched.
echo victim-content >victim.txt
rm -f g.db.lock
ln -s victim.txt g.db.lock
set +e
"$XRUN" run s.yaml --db g.db --new-session --quiet 2>sl.err
rc=$?
set -e
[ $rc = 3 ] || fail "symlinked lock file: exit $rc, want 3: $(cat sl.err)"
grep -q "lock file is a symbolic link" sl.err || fail "symlinked lock: $(cat sl.err)"
[ "$(cat victim.txt)" = victim-content ] || fail "the symlink's target was changed"
# A hard link to another file there: refused too.
rm g.db.lock
ln victim.txt g.db.lock
set +e
"$XRUN" run s.yaml --db g.db --new-session --quiet 2>hl.err
rc=$?
set -e
[ $rc = 3 ] || fail "hard-linked lock file: exit $rc: $(cat hl.err)"
grep -q "not a plain file of its own" hl.err || fail "hard-linked lock: $(cat hl.err)"
[ "$(cat victim.txt)" = victim-content ] || fail "the hard link's file was changed"
# A plain lock file left by a crash is reused, not truncated before the
# lock is held (its notes name what to stop).
rm g.db.lock
printf '999999\n' >g.db.lock
"$XRUN" run s.yaml --db g.db --new-session --quiet 2>ok.err || fail "rerun: $(cat ok.err)"
echo "ok: a symlink or hard link as the lock file never writes through"
