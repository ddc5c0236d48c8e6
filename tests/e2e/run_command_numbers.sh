#!/bin/bash
# SPDX-License-Identifier: MIT
# Numbers read whole or not at all by the command engine (issue 23 item 2),
# over recorded robocopy summaries (tests/data/robocopy/README.md): a regex
# that captures the tail of "78,258,213" fails the run naming the number,
# never stores 213; `thousands: ","` stores 78258213 B/s, English and
# Japanese; a decimal comma; `ok_exit: "0-7"` makes robocopy's exit 1
# ("files copied") a success and leaves 8 a failure.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need sqlite3
DATA="$XRUN_SOURCE_DIR/tests/data/robocopy"
xr_tmpdir T
plan() { # name file exit metric-spec [ok_exit]
	{
		echo "xrun: 1"
		echo "name: $1"
		echo "engine:"
		echo "  type: command"
		echo "  duration: 1s"
		printf '  run: [sh, -c, "cat %s; exit %s"]\n' "$2" "$3"
		[ -z "${5:-}" ] || echo "  ok_exit: \"$5\""
		echo "  metrics:"
		echo "    speed: $4"
		echo "factors:"
		echo "  x: { levels: [a] }"
		echo "repeat: 1"
	} >"$1.yaml"
}
run_plan() { "$XRUN" run "$1.yaml" --quiet 2>"$1.err" || true; }

# The tail of a longer number: a failed run that names it, no 213.
plan tail "$DATA/en.txt" 0 "{ regex: '([0-9]+) Bytes/sec', unit: B/s }"
run_plan tail
[ "$(q tail.db "select count(*) from results where value=213")" = 0 ] ||
	fail "213 stored: $(q tail.db "select metric,value,status from results")"
q tail.db "select reason from runs" | grep -q "inside the longer number '78,258,213'" ||
	fail "reason: $(q tail.db "select status,reason from runs")"

# thousands: "," reads it whole, English and Japanese: 78,258,213 B/s is
# 626065704 bit/s (python3: 78258213*8).
for lang in en ja; do
	unit="Bytes/sec"
	[ $lang = en ] || unit="バイト/秒"
	plan "th_$lang" "$DATA/$lang.txt" 0 "{ regex: '([0-9][0-9,]*) $unit', unit: B/s, thousands: ',' }"
	run_plan "th_$lang"
	[ "$(q "th_$lang.db" "select count(*) from results where metric='speed' and value=626065704.0 and unit='bit/s' and status='ok'")" = 1 ] ||
		fail "$lang: $(q "th_$lang.db" "select metric,value,unit,status from results" 2>&1; cat "th_$lang.err")"
done

# A misplaced separator is not a number: "7,8258,213" fails the run.
printf 'Speed : 7,8258,213 Bytes/sec.\n' >"$T/bad.txt"
plan badgroup "$T/bad.txt" 0 "{ regex: '([0-9][0-9,]*) Bytes/sec', unit: B/s, thousands: ',' }"
run_plan badgroup
[ "$(q badgroup.db "select count(*) from runs where status='failed'")" = 1 ] ||
	fail "bad grouping: $(q badgroup.db "select status,reason from runs")"

# A decimal comma with "." for thousands: 4.477,973 MB/min is 4477.973.
printf 'Speed : 4.477,973 MegaBytes/min.\n' >"$T/de.txt"
plan dec "$T/de.txt" 0 "{ regex: '([0-9][0-9.,]*) MegaBytes', thousands: '.', decimal: ',' }"
run_plan dec
[ "$(q dec.db "select count(*) from results where metric='speed' and value=4477.973 and status='ok'")" = 1 ] ||
	fail "decimal comma: $(q dec.db "select metric,value,status from results")"

# Exit status: 1 fails by default, succeeds under ok_exit 0-7; 8 fails.
spec="{ regex: '([0-9][0-9,]*) Bytes/sec', unit: B/s, thousands: ',' }"
plan ex1 "$DATA/en.txt" 1 "$spec"
run_plan ex1
[ "$(q ex1.db "select status from runs")" = failed ] || fail "exit 1 without ok_exit is not a failure"
plan ok1 "$DATA/en.txt" 1 "$spec" 0-7
run_plan ok1
[ "$(q ok1.db "select status||' '||exit_code from runs")" = "ok 1" ] ||
	fail "exit 1 under ok_exit: $(q ok1.db "select status,exit_code,reason from runs"; cat ok1.err)"
plan ok8 "$DATA/en.txt" 8 "$spec" 0-7
run_plan ok8
[ "$(q ok8.db "select status||' '||exit_code from runs")" = "failed 8" ] ||
	fail "exit 8 under ok_exit: $(q ok8.db "select status,exit_code from runs")"

# A bad ok_exit and a bad separator are plan errors, at validate.
plan badok "$DATA/en.txt" 0 "$spec" "0-300"
"$XRUN" validate badok.yaml >badok.out 2>&1 && fail "ok_exit 0-300 validated"
grep -q "bad ok_exit '0-300'" badok.out || fail "message: $(cat badok.out)"
plan badsep "$DATA/en.txt" 0 "{ regex: '([0-9]+)', thousands: '_' }"
"$XRUN" validate badsep.yaml >badsep.out 2>&1 && fail "thousands '_' validated"
grep -q "bad thousands separator '_'" badsep.out || fail "message: $(cat badsep.out)"
echo "ok: numbers read whole, thousands and decimal marks, ok_exit, robocopy en/ja"
