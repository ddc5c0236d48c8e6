#!/bin/bash
# SPDX-License-Identifier: MIT
# xrun status, xrun report and the estimate of xrun plan on a store they
# cannot write: a copy without write permission read by another user, and
# (as root) a read-only bind mount, where SQLite can neither write the WAL
# index ("-shm") nor create it. Also: a WAL that still holds data is read
# through its index when the index is there, and refused, not misread,
# when it is not. Nothing is ever created next to the read-only store.
set -eu
: "${XRUN:?set XRUN to the xrun binary}"
fail() {
	echo "FAIL: $*" >&2
	exit 1
}
# Under CI a missing prerequisite is a failure, elsewhere a skip.
need() {
	if [ "${CI:-}" = true ]; then fail "$*"; fi
	echo "skip: $*"
	exit 77
}
for t in sqlite3 python3; do
	command -v "$t" >/dev/null || need "$t is needed"
done
dir=$(mktemp -d)
mnt=
cleanup() {
	if [ -n "$mnt" ]; then umount "$mnt" || return; fi
	chmod -R u+w "$dir" 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT
chmod 755 "$dir"
cd "$dir"

cat > rop.yaml <<'YAML'
xrun: 1
name: rop
engine:
  type: command
  run: [echo, "{{n}}000"]
  duration: 1s
  metrics:
    throughput: { regex: "([0-9.]+)", unit: bit/s }
factors:
  n: { levels: ["1", "2"] }
repeat: 3
sample: off
YAML
"$XRUN" run rop.yaml --unattended --yes --quiet 2> run.err ||
	fail "run: $(cat run.err)"
[ -f rop.db ] && [ ! -e rop.db-wal ] || fail "no clean store: $(ls)"

# Both read commands on the store at $1; output in $2.{st,md,err}.
read_store() {
	local db=$1 out=$2
	shift 2
	"$@" "$XRUN" status --db "$db" > "$out.st" 2> "$out.err" ||
		fail "$out: status exit $?: $(cat "$out.err")"
	grep -qxF "runs: 6: 6 ok, 0 failed, 0 timeout, 0 interrupted, 0 skipped, 0 pending" "$out.st" ||
		fail "$out: status: $(cat "$out.st")"
	"$@" "$XRUN" report --db "$db" -o "$dir/out/$out.md" 2>> "$out.err" ||
		fail "$out: report exit $?: $(cat "$out.err")"
	grep -q "^# rop" "out/$out.md" || fail "$out: report: $(head "out/$out.md")"
}
mkdir out
chmod 777 out

# 1. Another user, a file and a directory without write permission.
mkdir ro1
cp rop.db ro1/
chmod 444 ro1/rop.db
chmod 555 ro1
if [ "$(id -u)" = 0 ]; then
	command -v setpriv >/dev/null || need "setpriv is needed"
	read_store ro1/rop.db perm setpriv --reuid=nobody --regid=nogroup \
		--clear-groups
else
	read_store ro1/rop.db perm
fi
[ "$(ls ro1)" = rop.db ] || fail "files created next to the store: $(ls ro1)"
echo "ok: status and report on a store without write permission"

# 2. A read-only file system: a bind mount remounted read-only.
[ "$(id -u)" = 0 ] || need "root is needed for a read-only mount"
mkdir src ro
cp rop.db rop.yaml src/
mount --bind src ro 2> mount.err || need "cannot bind mount: $(cat mount.err)"
mnt=$dir/ro
mount -o remount,bind,ro ro || fail "cannot remount read-only"
touch ro/x 2> /dev/null && fail "the mount is writable"
read_store ro/rop.db rofs
# The plan's estimate reads its default store (./rop.db) there too.
(cd ro && "$XRUN" plan rop.yaml) > plan.out 2> plan.err ||
	fail "plan: $(cat plan.err)"
grep -q "overhead measured from 5 gaps between finished runs in rop.db" \
	plan.out || fail "plan did not read the store: $(cat plan.out)"
[ "$(ls src)" = "$(printf 'rop.db\nrop.yaml')" ] ||
	fail "files created next to the store: $(ls src)"
echo "ok: status, report and plan on a read-only file system"

# 3. A WAL holding data (a writer killed before its checkpoint). With its
# index the data is read; without, the store is refused, exit 3.
umount ro
mnt=
rm -f src/rop.db-*
python3 - src/rop.db <<'EOF'
import os, sqlite3, sys
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("PRAGMA wal_autocheckpoint = 0")
c.execute("UPDATE plans SET name = 'walname'")
os._exit(0)  # no close, no checkpoint: -wal and -shm stay
EOF
[ -s src/rop.db-wal ] && [ -e src/rop.db-shm ] || fail "no WAL: $(ls src)"
mount --bind src ro && mnt=$dir/ro && mount -o remount,bind,ro ro
"$XRUN" status --db ro/rop.db > wal.st 2> wal.err ||
	fail "status with WAL and index: $(cat wal.err)"
grep -q "^plan 'walname'" wal.st || fail "WAL data not read: $(cat wal.st)"
umount ro
mnt=
rm src/rop.db-shm
mount --bind src ro && mnt=$dir/ro && mount -o remount,bind,ro ro
set +e
"$XRUN" status --db ro/rop.db > nowal.st 2> nowal.err
rc=$?
"$XRUN" report --db ro/rop.db -o out/nowal.md 2> nowal2.err
rc2=$?
set -e
[ $rc = 3 ] && [ $rc2 = 3 ] && [ ! -e out/nowal.md ] ||
	fail "WAL without index: exit $rc/$rc2, want 3: $(cat nowal.err)"
grep -q "write-ahead log 'ro/rop.db-wal' holds data" nowal.err &&
	grep -q "write-ahead log 'ro/rop.db-wal' holds data" nowal2.err ||
	fail "WAL without index: $(cat nowal.err nowal2.err)"
echo "ok: a WAL with data is read through its index, refused without it"
