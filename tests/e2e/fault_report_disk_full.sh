#!/bin/bash
# SPDX-License-Identifier: MIT
# A full disk while a report is written (a small tmpfs, root only): the
# report exits 3 with "no space left on device writing 'FILE'" (for
# Markdown: its first chart image), the
# previous report of each format stays byte for byte, and no temporary is
# left on the full file system.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need sqlite3 pdftotext
xr_need_root "mounting a small tmpfs"
xr_tmpdir T
mkdir small
mount -t tmpfs -o size=4m tmpfs small 2>mount.err ||
	xr_skip "cannot mount a tmpfs: $(cat mount.err)"
xr_at_exit "umount '$T/small'"

cat >full.yaml <<'YAML'
xrun: 1
name: full
engine:
  type: command
  run: [echo, "result: {{a}}{{rep}} bit/s"]
  metrics:
    throughput: { regex: "result: ([0-9]+)", unit: bit/s }
factors:
  a: { levels: [1, 2, 3] }
repeat: 3
counters: none
YAML
"$XRUN" run full.yaml --db full.db --yes --unattended --quiet 2>run.err ||
	fail "run: $(cat run.err)"
for f in r.pdf r.html r.md r.json; do
	"$XRUN" report --db full.db -o "small/$f" 2>err || fail "first $f: $(cat err)"
	cp "small/$f" "$f.orig"
done
# Fill what is left (dd stops at ENOSPC).
dd if=/dev/zero of=small/fill bs=64k 2>/dev/null || true
for f in r.pdf r.html r.md r.json; do
	rc=0
	"$XRUN" report --db full.db --title "second" -o "small/$f" 2>err || rc=$?
	# A Markdown report writes its chart images first: the first of them
	# is the one named.
	[ $rc = 3 ] && grep -Eq "no space left on device writing 'small/($f|r-chart-1.svg)'" err ||
		fail "$f on a full disk: exit $rc: $(cat err)"
	cmp -s "small/$f" "$f.orig" || fail "$f: the previous report changed"
	echo "ok - $f on a full disk: exit 3, $(tail -1 err); the previous report kept"
done
pdftotext small/r.pdf - >/dev/null 2>&1 || fail "the kept PDF is not readable"
[ -z "$(find small -name '.*.tmp')" ] || fail "temporaries left: $(ls -a small)"
echo "ok - no temporary left on the full file system"
