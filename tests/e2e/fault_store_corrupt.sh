#!/bin/bash
# SPDX-License-Identifier: MIT
# A damaged store is refused at open, with a clear message and exit 3, by
# run (also --new-session), status and report: a copy cut short, pages
# overwritten with garbage, a header that is not SQLite's. Nothing is
# added to it. The intact original still works.
set -eu
: "${XRUN:?set XRUN to the xrun binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v sqlite3 >/dev/null || {
	[ "${CI:-}" = true ] && fail "sqlite3 is needed"
	echo "skip: sqlite3 CLI not installed"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T"
cat >c.yaml <<'YAML'
xrun: 1
name: c
engine:
  type: command
  run: [sh, -c, "head -c 3000 /dev/zero | tr '\\0' y; echo; echo rate 5"]
  metrics:
    throughput: { regex: "rate ([0-9]+)", unit: bit/s }
factors:
  n: { levels: ["1", "2", "3"] }
repeat: 10
sample: off
YAML
"$XRUN" run c.yaml --quiet 2>c.err || fail "run: $(cat c.err)"
[ ! -e c.db-wal ] || fail "setup: WAL left"
size=$(stat -c %s c.db)
cp c.db cut.db
truncate -s $((size / 2)) cut.db
cp c.db garbled.db
dd if=/dev/urandom of=garbled.db bs=4096 seek=5 count=3 conv=notrunc 2>/dev/null
cp c.db header.db
printf 'this is not a header at all' | dd of=header.db conv=notrunc 2>/dev/null
for db in cut garbled header; do
	before=$(md5sum <$db.db)
	for cmd in "run c.yaml --db $db.db --new-session --quiet" \
		"run c.yaml --db $db.db --quiet" "status --db $db.db" \
		"report --db $db.db -o $db.md"; do
		set +e
		# shellcheck disable=SC2086
		"$XRUN" $cmd >out.txt 2>err.txt
		rc=$?
		set -e
		[ $rc = 3 ] || fail "$db: '$cmd': exit $rc, want 3: $(cat err.txt)"
		grep -q "$db.db: error: the store is damaged (" err.txt ||
			fail "$db: '$cmd': $(cat err.txt)"
		[ "$(wc -l <err.txt)" = 1 ] || fail "$db: message on several lines: $(cat err.txt)"
	done
	[ "$before" = "$(md5sum <$db.db)" ] || fail "$db: the damaged store was written"
	[ ! -e $db.md ] || fail "$db: a report was written"
done
grep -q "cut short: its header counts" <("$XRUN" status --db cut.db 2>&1) || fail "cut: no size in the message"
"$XRUN" status --db c.db >ok.txt || fail "intact store: exit $?"
echo "ok: damaged stores refused at open (exit 3)"
