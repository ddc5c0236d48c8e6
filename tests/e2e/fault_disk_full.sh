#!/bin/bash
# SPDX-License-Identifier: MIT
# A store on a file system that fills up during the session (a small
# tmpfs): xrun stops with exit 3, its summary counts only the runs the
# store holds, and a resume on a larger file system completes the session
# with every run exactly once.
set -eu
: "${XRUN:?set XRUN to the xrun binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
need() {
	if [ "${CI:-}" = true ]; then fail "$*"; fi
	echo "skip: $*"
	exit 77
}
command -v sqlite3 >/dev/null || need "sqlite3 is needed"
[ "$(id -u)" = 0 ] || need "root is needed to mount a small tmpfs"
T=$(mktemp -d)
mnt=
cleanup() {
	[ -n "$mnt" ] && umount "$mnt"
	rm -rf "$T"
}
trap cleanup EXIT
cd "$T"
mkdir small
mount -t tmpfs -o size=640k tmpfs small 2>mount.err || need "cannot mount tmpfs: $(cat mount.err)"
mnt=$T/small
# Each run prints ~60 KB: the store fills after a few runs.
cat >full.yaml <<'YAML'
xrun: 1
name: full
engine:
  type: command
  run: [sh, -c, "head -c 60000 /dev/urandom | od -An -tx1 | head -c 60000; echo; echo rate 5"]
  metrics:
    throughput: { regex: "rate ([0-9]+)", unit: bit/s }
repeat: 40
sample: off
YAML
set +e
"$XRUN" run full.yaml --db small/full.db 2>full.err
rc=$?
set -e
[ $rc = 3 ] || fail "full disk: exit $rc, want 3: $(tail -3 full.err)"
stored=$(sqlite3 small/full.db "select count(*) from runs where status='ok'")
grep -Eq "runs? this time: $stored ok," full.err ||
	fail "summary does not count what was stored ($stored ok): $(grep 'this time' full.err)"
[ "$stored" -ge 1 ] && [ "$stored" -lt 40 ] || fail "setup: $stored runs stored"
echo "ok: after a full disk the summary says $stored ok, as stored"
# Resume on a larger file system: every run ends up stored exactly once.
cp small/full.db small/full.db-wal . 2>/dev/null || cp small/full.db .
umount small
mnt=
"$XRUN" run full.yaml --db full.db --quiet 2>resume.err ||
	fail "resume: exit $?: $(cat resume.err)"
[ "$(sqlite3 full.db "select count(*) from runs where status='ok'")" = 40 ] ||
	fail "resume: $(sqlite3 full.db "select status, count(*) from runs group by status")"
[ "$(sqlite3 full.db "select count(*) from results where metric='throughput'")" = 40 ] ||
	fail "a run stored twice"
[ "$(sqlite3 full.db "pragma integrity_check")" = ok ] || fail "integrity"
echo "ok: the resume completes the session"
