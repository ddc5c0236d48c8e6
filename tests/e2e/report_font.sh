#!/bin/bash
# SPDX-License-Identifier: MIT
# xrun report -o x.pdf with XRUN_FONT set to a font without Japanese glyphs
# (DejaVu Sans, from fonts-dejavu-core): a Japanese report, or an English
# one whose levels are Japanese, is refused with exit 3 and a message that
# names the font file; no PDF is left behind. An English report in that
# font is written. Needs sqlite3 and a build with fontconfig.
set -eu
. "$(dirname "$0")/lib/common.sh"
font=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
xr_need sqlite3
[ -r "$font" ] || xr_skip "no $font (fonts-dejavu-core)"
if [ -n "${XRUN_BUILD_DIR:-}" ] &&
	! grep -q '^FONTCONFIG_FOUND:INTERNAL=1' "$XRUN_BUILD_DIR/CMakeCache.txt"; then
	xr_skip "built without fontconfig: glyphs are not checked"
fi
xr_tmpdir dir

fill() { # db, level of the second cell
	sqlite3 "$1" < "$XRUN_SOURCE_DIR/schema/store.sql"
	sqlite3 "$1" "PRAGMA user_version = 1;
	INSERT INTO plans VALUES (1, 'font', 'Font check', 'p.yaml', 'h',
	'xrun: 1' || char(10) || 'name: font', 1764460800);
	INSERT INTO sessions VALUES (1, 1, 'c', NULL, 1764460800, 1764461000,
	1764461000, '0.1.0', NULL, 'done');
	INSERT INTO runs (id, session_id, position, block, block_pos, pass, rep,
	cell_index, cell, status, started_at, ended_at, engine) VALUES
	(1, 1, 0, 0, 0, 0, 1, 0, '{\"link\":\"wired\"}', 'ok', 1764460800,
	 1764460801, 'command'),
	(2, 1, 1, 0, 1, 0, 1, 1, '{\"link\":\"$2\"}', 'ok', 1764460802,
	 1764460803, 'command');
	INSERT INTO metrics VALUES (1, 'throughput', 9.4e9, 'bit/s'),
	(2, 'throughput', 8.1e9, 'bit/s');"
}
fill en.db wifi
fill ja.db 無線

fail=0
pass() { echo "ok - $1"; }
bad() { echo "not ok - $1"; fail=1; }
run() { # expected exit, what, args...
	local want=$1 what=$2 rc=0
	shift 2
	XRUN_FONT=$font "$XRUN" report "$@" > out 2> err || rc=$?
	[ "$rc" = "$want" ] && pass "$what: exit $rc" ||
		bad "$what: exit $rc, want $want: $(cat err)"
}
refused() { # pdf, what
	grep -qF "font '$font' (XRUN_FONT) lacks Japanese glyphs" err &&
		pass "$2: the message names the font" || bad "$2: $(cat err)"
	[ ! -e "$1" ] && pass "$2: no PDF" || bad "$2: $1 written"
}
run 3 "japanese report" --db en.db --lang ja -o ja.pdf
refused ja.pdf "japanese report"
run 3 "japanese levels" --db ja.db -o lv.pdf
refused lv.pdf "japanese levels"
run 0 "english report" --db en.db -o en.pdf
[ -s en.pdf ] && pass "english report written" || bad "no en.pdf"
exit $fail
