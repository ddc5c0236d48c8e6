#!/bin/bash
# SPDX-License-Identifier: MIT
# The one writer of report files (schema/report.md, *Output files*):
# `report -o` naming the store (any format, any spelling, its -wal), a
# plan's report.output naming the --db path, and `plan --from-reference -o`
# naming its input are refused non-zero and keep every byte; a FIFO, a
# device and a symbolic link as -o are refused (without hanging); a link
# planted at the old fixed temporary name OUT.tmp is not followed; and 20
# SIGKILLs at random moments of a large PDF report leave the previous PDF
# readable every time.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need sqlite3 pdftotext
xr_tmpdir T

plan() { # NAME LEVELS REPORT_OUTPUT...
	cat >"$1.yaml" <<YAML
xrun: 1
name: $1
engine:
  type: command
  run: [echo, "result: {{a}}{{b}}{{c}}{{rep}} bit/s"]
  metrics:
    throughput: { regex: "result: ([0-9]+)", unit: bit/s }
factors:
  a: { levels: [$2] }
  b: { levels: [$2] }
  c: { levels: [$2] }
repeat: 2
counters: none
${3:+report: { output: $3 \}}
YAML
}
refused() { # what: the last command's exit in $rc, stderr in err
	[ "$rc" != 0 ] && [ "$rc" != 124 ] && grep -q "refusing to write" err ||
		fail "$1: exit $rc: $(cat err)"
	echo "ok - $1 is refused (exit $rc): $(tail -1 err)"
}

# --- the store ---------------------------------------------------------
plan s "1, 2, 3"
"$XRUN" run s.yaml --db s.db --yes --unattended --quiet 2>run.err ||
	fail "run: $(cat run.err)"
[ "$(q s.db "select count(*) from runs where status='ok'")" = 54 ] ||
	fail "setup: $(q s.db "select count(*) from runs")"
sum0=$(q s.db "select count(*), sum(value) from results")
for o in "s.db --format md" "s.db --format pdf" "s.db --format json" \
	"./s.db --format csv" "$T/s.db --format html" "s.db-wal --format md"; do
	rc=0
	# shellcheck disable=SC2086 # the format option is split on purpose
	"$XRUN" report --db s.db -o $o 2>err >/dev/null || rc=$?
	refused "report -o $o"
done
ln s.db hard.json
rc=0
"$XRUN" report --db s.db -o hard.json 2>err || rc=$?
refused "a hard link to the store"
cp s.db copy.db
rc=0
"$XRUN" report --db s.db -o copy.db --format csv 2>err || rc=$?
refused "another SQLite database"
[ "$(q s.db "pragma integrity_check")" = ok ] &&
	[ "$(q s.db "select count(*), sum(value) from results")" = "$sum0" ] ||
	fail "the store changed: $(q s.db "pragma integrity_check")"
echo "ok - the store keeps every run"

# A plan's report.output naming the --db path: refused before any run.
plan o "1, 2" '"{{plan}}.json"'
rc=0
"$XRUN" run o.yaml --db o.json --yes --unattended 2>err || rc=$?
refused "report.output naming the --db path"
[ "$(q o.json "select count(*) from runs where status='ok'")" = 0 ] &&
	[ "$(q o.json "pragma integrity_check")" = ok ] ||
	fail "runs went ahead or the store broke"
echo "ok - no run went ahead, the store is whole"

# plan --from-reference -o naming its input.
printf '%s\n' "format,2" "title,t" "statistic,single" "metric,throughput" \
	"unit,Mbit/s" "streams,value" "1,941" "4,936" >pub.csv
cp pub.csv pub.orig
rc=0
"$XRUN" plan --from-reference pub.csv -o ./pub.csv 2>err || rc=$?
refused "plan --from-reference -o naming its input"
cmp -s pub.csv pub.orig || fail "the reference changed"

# --- not regular files -------------------------------------------------
mkfifo fifo.md
rc=0
timeout 20 "$XRUN" report --db s.db -o fifo.md 2>err || rc=$?
refused "a FIFO as -o"
[ -p fifo.md ] || fail "the FIFO was replaced"
rc=0
# a device node of the test's own (the null device's numbers), never the
# system's /dev/null, which a mutant accepting devices would replace
if mknod null.md c 1 3 2>/dev/null; then
	timeout 20 "$XRUN" report --db s.db -o null.md --format md 2>err || rc=$?
	refused "a device node as -o"
	[ -c null.md ] || fail "the device node was replaced"
fi
mkdir dir.md
rc=0
"$XRUN" report --db s.db -o dir.md 2>err || rc=$?
refused "a directory as -o"

# --- symbolic links (documented: refused, never written through) --------
echo keep >victim
ln -s victim link.pdf
rc=0
"$XRUN" report --db s.db -o link.pdf 2>err || rc=$?
refused "a symbolic link as -o"
[ -L link.pdf ] && [ "$(cat victim)" = keep ] || fail "the link or its target changed"
for f in r.html r.pdf r.md; do
	ln -s victim "$f.tmp"
	"$XRUN" report --db s.db -o "$f" 2>err || fail "-o $f with $f.tmp planted: $(cat err)"
	[ -f "$f" ] && [ ! -L "$f" ] && [ -L "$f.tmp" ] && [ "$(cat victim)" = keep ] ||
		fail "a link planted at $f.tmp was followed: $(ls -l "$f" "$f.tmp"; cat victim)"
done
[ ! -e r-chart-1.svg.tmp ] || fail "a fixed chart temporary"
echo "ok - links planted at r.html.tmp, r.pdf.tmp, r.md.tmp are not followed"
[ -z "$(find . -maxdepth 1 -name '.*.tmp')" ] || fail "temporaries left: $(ls -a)"
echo "ok - no temporary is left behind"

# --- SIGKILL during a large PDF ----------------------------------------
# 216 cells, 432 runs: a PDF of many pages (512 cells took a sanitizer
# build most of this test's time to run and report, for nothing more)
plan big "1, 2, 3, 4, 5, 6"
"$XRUN" run big.yaml --db big.db --yes --unattended --quiet 2>run.err ||
	fail "big run: $(cat run.err)"
"$XRUN" report --db big.db -o big.pdf 2>err || fail "big report: $(cat err)"
pdftotext big.pdf good.txt 2>/dev/null || fail "the first PDF is not readable"
grep -v '[0-9]:[0-9][0-9]' good.txt >good.cut
cp big.pdf prev.pdf
late=0
t0=$(date +%s%N)
"$XRUN" report --db big.db -o other.pdf 2>err
ms=$((($(date +%s%N) - t0) / 1000000))
[ "$ms" -ge 1 ] || ms=1
kills=0
for i in $(seq 1 20); do
	"$XRUN" report --db big.db -o big.pdf 2>/dev/null &
	pid=$!
	sleep "$(awk -v r="$RANDOM" -v ms="$ms" 'BEGIN { printf "%.3f", r / 32768 * ms / 1000 }')"
	kill -KILL "$pid" 2>/dev/null && kills=$((kills + 1))
	wait "$pid" 2>/dev/null || true
	pdftotext big.pdf now.txt 2>/dev/null ||
		fail "kill $i: the previous PDF is not readable ($(wc -c <big.pdf) bytes)"
	# Either the previous PDF, byte for byte, or (a kill that came too
	# late) a whole new one: the same pages, the same text but the time.
	if ! cmp -s big.pdf prev.pdf; then
		grep -v '[0-9]:[0-9][0-9]' now.txt >now.cut
		cmp -s good.cut now.cut || fail "kill $i: a changed PDF that is not a whole report"
		cp big.pdf prev.pdf
		late=$((late + 1))
	fi
done
[ "$kills" -ge 10 ] || fail "only $kills of 20 kills landed before the report ended (${ms} ms)"
find . -maxdepth 1 -name '.big.pdf.*.tmp' -delete
echo "ok - $kills SIGKILLs during a ${ms} ms PDF report: the previous PDF readable every time ($late replaced whole by a report that ended first)"
