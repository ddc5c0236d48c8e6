#!/bin/bash
# SPDX-License-Identifier: MIT
# The manual page: `xrun help --man` (what the build writes to xrun.1 and
# installs as share/man/man1/xrun.1) renders with man -l without warnings,
# has a section per command and subcommand, names every option of every
# option table (as `xrun help --all` lists them), the exit statuses and
# examples; the build's xrun.1 is the same text.
set -eu
: "${XRUN:?set XRUN to the xrun binary}"
src=${XRUN_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
command -v man >/dev/null && command -v groff >/dev/null || {
	[ "${CI:-}" = true ] && { echo "FAIL: man-db/groff-base missing (CI)"; exit 1; }
	echo "SKIP: man or groff missing (apt-get install man-db groff-base)"; exit 77
}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
nfail=0
fail() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
pass() { echo "ok - $*"; }

"$XRUN" help --man >xrun.1 || fail "xrun help --man: exit $?"
if [ -n "${XRUN_BUILD_DIR:-}" ] && [ -f "$XRUN_BUILD_DIR/xrun.1" ]; then
	cmp -s xrun.1 "$XRUN_BUILD_DIR/xrun.1" && pass "the build's xrun.1 is current" ||
		fail "build/xrun.1 differs from xrun help --man"
fi
MANWIDTH=100 man --warnings -l xrun.1 >page.txt 2>warn.txt || fail "man -l: exit $?"
[ ! -s warn.txt ] && pass "man -l renders without warnings" ||
	fail "man -l warnings: $(head -5 warn.txt)"
for s in NAME SYNOPSIS DESCRIPTION COMMANDS "EXIT STATUS" EXAMPLES FILES "SEE ALSO"; do
	grep -q "^$s" page.txt || fail "no section $s"
done
# Every command and subcommand has its subsection and its synopsis.
"$XRUN" help --all >all.txt
cmds=$(awk '/^commands:/ {on = 1; next} /^$/ {on = 0} on && /^  [a-z]/ {print $1}' all.txt)
n=0
for c in $cmds; do
	grep -q "^   $c\$" page.txt || fail "no subsection for $c"
	n=$((n + 1))
done
for s in up down status; do
	grep -q "^   lab $s\$" page.txt || fail "no subsection for lab $s"
done
# Every option of every table, as help --all prints it, is on the page.
opts=$(grep -oE '^  (-[a-z], )?--[a-z][a-z-]*' all.txt | sed 's/.*--/--/' | sort -u)
m=0
for o in $opts; do
	grep -qe "$o" page.txt || fail "option $o is not on the man page"
	m=$((m + 1))
done
[ "$m" -ge 20 ] || fail "too few options found in help --all ($m)"
# Exit statuses: every status of xr_code.h's table and README's.
for code in 0 1 2 3 130; do
	grep -qE "^       $code +" page.txt || fail "exit status $code missing"
done
grep -q 'font' page.txt && grep -q 'xrun run --yes --unattended' page.txt ||
	fail "exit status 3's font or the demo example missing"
# Every example parses (a real command, real options) and names files that
# exist in the source tree.
k=0
while read -r line; do
	# shellcheck disable=SC2086
	set -- $line
	shift
	(cd "$src" && "$XRUN" "$@" --help >/dev/null 2>&1) || fail "example does not parse: $line"
	for w in "$@"; do
		case $w in
		*.yaml | *.csv) [ -e "$src/$w" ] || fail "example names a missing file: $line" ;;
		esac
	done
	k=$((k + 1))
done < <(sed -n '/^EXAMPLES/,/^[A-Z]/p' page.txt | sed -n 's/^ *\(xrun .*\)$/\1/p')
[ "$k" -ge 5 ] || fail "too few examples found ($k)"
[ "$nfail" = 0 ] && pass "$n commands, $m options, exit statuses and $k examples on the man page"
[ "$nfail" = 0 ]
