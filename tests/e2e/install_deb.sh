#!/bin/bash
# SPDX-License-Identifier: MIT
# Installing xrun as a Debian user would (needs root; under CI=true it fails
# rather than skips when it cannot run). Run twice by tests/all.sh: on the
# ASan build (a memory error of the installed binary's run, its PDF, its
# status) and on the optimised one (the release package: no sanitizer
# runtime in Depends, lintian on the binary a user gets):
# 1. `cmake --install` into a DESTDIR puts bin/xrun, the man page (that man
#    -l renders), the bash completion, the example plans and samples, the
#    schema docs and JSON Schema, README and the guides under the prefix;
# 2. `cpack -G DEB` builds a .deb whose Depends names the runtime libraries
#    (libhpdf, libyaml, libsqlite3, libjansson), iperf3, openssh-client and
#    the IPAex font (Recommends iputils-ping, Suggests irtt: the latency
#    probes), and lintian finds nothing to say above "info": no
#    error, no warning (copyright in DEP-5, changelog.Debian.gz, the man
#    page compressed, the binary stripped, no essential package in
#    Depends, a maintainer with a real mail host);
# 3. `dpkg -i` installs it; the installed /usr/bin/xrun prints its version,
#    runs the installed command-engine plan (share/xrun/plans/dd-blocksize.yaml)
#    and writes a PDF report (font found without the source tree), away from
#    the source and build trees; then the package is removed again.
set -eu
: "${XRUN:?set XRUN to the xrun binary}"
src=${XRUN_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${XRUN_BUILD_DIR:-$(dirname "$XRUN")}
skip() {
	if [ "${CI:-}" = true ]; then echo "FAIL (CI): $*"; exit 1; fi
	echo "SKIP: $*"; exit 77
}
[ "$(id -u)" = 0 ] || skip "needs root (dpkg -i)"
for t in cpack dpkg dpkg-deb dpkg-shlibdeps man flock lintian; do
	command -v $t >/dev/null || skip "$t missing (apt-get install dpkg-dev man-db cmake lintian)"
done
[ -f "$build/CPackConfig.cmake" ] || skip "no CPackConfig.cmake in $build"
dir=$(mktemp -d)
# An ASan build (the sanitizer stage's run): its package's checks differ.
asan_build=
ldd "$XRUN" | grep -q libasan && asan_build=1
# Only one of these at a time on a machine: the package is global.
exec 9>/tmp/xrun-install-deb.lock
flock 9
installed_before=$(dpkg-query -W -f='${Status}' xrun 2>/dev/null || true)
# dpkg refuses at once while apt or dpkg runs elsewhere on the machine
# (another job installing packages): wait for its lock, up to 5 minutes.
dpkg_wait() {
	local i out rc
	for i in $(seq 150); do
		rc=0
		out=$(dpkg "$@" 2>&1) || rc=$?
		case $rc:$out in
		0:*) return 0 ;;
		*lock*) sleep 2 ;;
		*) echo "$out"; return $rc ;;
		esac
	done
	echo "$out"
	return 1
}
cleanup() {
	case $installed_before in
	*"install ok installed"*) ;; # not ours to remove
	*) dpkg-query -W -f='${Status}' xrun 2>/dev/null | grep -q "install ok installed" &&
		dpkg_wait -r xrun >/dev/null ;;
	esac
	rm -rf "$dir"
}
trap cleanup EXIT
nfail=0
fail() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
pass() { echo "ok - $*"; }

# ---- 1. cmake --install into a DESTDIR ------------------------------------------
DESTDIR=$dir/dest cmake --install "$build" --prefix /usr >"$dir/install.log" 2>&1 ||
	{ cat "$dir/install.log"; fail "cmake --install: exit $?"; }
r=$dir/dest/usr
for f in bin/xrun share/man/man1/xrun.1 share/bash-completion/completions/xrun \
	share/xrun/plans/loopback.yaml share/xrun/plans/dd-blocksize.yaml \
	share/xrun/samples/seed001-pcie-slots.csv share/xrun/schema/plan.md \
	share/xrun/schema/plan.schema.json share/xrun/schema/store.md \
	share/doc/xrun/README.md share/doc/xrun/docs/install.md; do
	[ -e "$r/$f" ] || fail "cmake --install did not install $f"
done
[ -x "$r/bin/xrun" ] || fail "bin/xrun is not executable"
n=$(ls "$src"/plans/*.yaml | wc -l)
[ "$(ls "$r"/share/xrun/plans/*.yaml | wc -l)" = "$n" ] || fail "not every plan installed"
man -l "$r/share/man/man1/xrun.1" 2>/dev/null | grep -q 'EXIT STATUS' ||
	fail "man -l does not render the installed page"
bash -n "$r/share/bash-completion/completions/xrun" || fail "installed completion does not parse"
[ "$nfail" = 0 ] && pass "cmake --install into DESTDIR: binary, man page, completion, plans, samples, schema, docs"

# ---- 2. cpack -G DEB ---------------------------------------------------------------
(cd "$dir" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$dir/pkg" >cpack.log 2>&1) ||
	{ tail -20 "$dir/cpack.log"; fail "cpack -G DEB failed"; }
deb=$(ls "$dir"/pkg/xrun_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || { fail "cpack wrote no .deb"; exit 1; }
deps=$(dpkg-deb -f "$deb" Depends)
for d in libhpdf libyaml libsqlite3 libjansson iperf3 openssh-client fonts-ipaexfont-gothic; do
	echo "$deps" | grep -q "$d" || fail "Depends lacks $d: $deps"
done
# the latency probes' programs: ping recommended, irtt suggested
rec=$(dpkg-deb -f "$deb" Recommends)
sug=$(dpkg-deb -f "$deb" Suggests)
echo "$rec" | grep -q "iputils-ping" || fail "Recommends lacks iputils-ping: $rec"
echo "$sug" | grep -q "irtt" || fail "Suggests lacks irtt: $sug"
dpkg-deb -c "$deb" >"$dir/contents.txt"
grep -q '\./usr/bin/xrun$' "$dir/contents.txt" || fail ".deb has no /usr/bin/xrun"
grep -q 'usr/share/man/man1/xrun.1' "$dir/contents.txt" || fail ".deb has no man page"
# The release package (an optimised build): no sanitizer runtime in
# Depends. The sanitizer stage packages its ASan build, whose Depends name
# libasan and libubsan as they must (tests/all.sh: this test runs twice).
if [ -z "$asan_build" ]; then
	echo "$deps" | grep -Eq 'lib(asan|ubsan|tsan)' &&
		fail "the release package depends on a sanitizer runtime: $deps"
fi
[ "$nfail" = 0 ] && pass "cpack -G DEB: $(basename "$deb"), Depends: $deps"
n0=$nfail
# Essential packages are always there; naming one unversioned is an error.
for d in $(echo "$deps" | tr ',' '\n' | sed 's/^ *//; s/ .*//'); do
	[ "$(dpkg-query -W -f='${Essential}' "$d" 2>/dev/null)" = yes ] &&
		fail "Depends names the essential package $d: $deps"
done
# Settable at configure time (-DXRUN_DEB_MAINTAINER=...); never localhost.
m=$(dpkg-deb -f "$deb" Maintainer)
{ echo "$m" | grep -Eq '^[^<]+ <[^@> ]+@[^@> ]+\.[a-z]+>$' && ! echo "$m" | grep -q '@localhost'; } ||
	fail "Maintainer is not a name and a mail address on a real host: $m"
for f in usr/share/doc/xrun/copyright usr/share/doc/xrun/changelog.Debian.gz \
	usr/share/man/man1/xrun.1.gz; do
	grep -q "\./$f\$" "$dir/contents.txt" || fail ".deb has no /$f"
done
grep -q 'man1/xrun\.1$' "$dir/contents.txt" && fail ".deb has the man page uncompressed"
mkdir "$dir/x"
dpkg-deb -x "$deb" "$dir/x"
head -1 "$dir/x/usr/share/doc/xrun/copyright" |
	grep -q '^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' ||
	fail "copyright is not machine-readable (DEP-5): $(head -1 "$dir/x/usr/share/doc/xrun/copyright")"
# the licence of LICENSE (MIT), as DEP-5 names it: Expat, with its text
grep -qx 'License: Expat' "$dir/x/usr/share/doc/xrun/copyright" &&
	grep -qF 'Permission is hereby granted, free of charge' "$dir/x/usr/share/doc/xrun/copyright" ||
	fail "copyright does not carry the MIT (Expat) licence"
zcat "$dir/x/usr/share/doc/xrun/changelog.Debian.gz" | head -1 |
	grep -qF "xrun ($(dpkg-deb -f "$deb" Version))" ||
	fail "changelog.Debian.gz does not start with this version: $(zcat "$dir/x/usr/share/doc/xrun/changelog.Debian.gz" | head -1)"
file_out=$(file -b "$dir/x/usr/bin/xrun" 2>/dev/null || true)
case $file_out in *"not stripped"*) fail "/usr/bin/xrun is not stripped: $file_out" ;; esac
# lintian: E: errors and W: warnings fail (I: info and N: notes do not):
# with --fail-on, lintian exits non-zero on either, or when it cannot run.
# The release package's check: the ASan run (the sanitizer stage, eight
# tests at once) leaves it and the strace below to the optimised run,
# where they take seconds, not the minute they take there.
rc=0
if [ -n "$asan_build" ]; then
	echo "note: an ASan build: lintian is the release package's check (the optimised run)"
else
	lintian --fail-on error,warning "$deb" >"$dir/lintian.out" 2>"$dir/lintian.err" || rc=$?
fi
[ $rc = 0 ] ||
	fail "lintian: exit $rc, $(grep -c '^E: ' "$dir/lintian.out") errors, $(grep -c '^W: ' "$dir/lintian.out") warnings:
$(grep -v '^[IN]: ' "$dir/lintian.out") $(grep -v 'root privileges' "$dir/lintian.err")"
[ -n "$asan_build" ] || [ "$nfail" != "$n0" ] || pass "lintian $(basename "$deb"): 0 errors, 0 warnings (copyright, changelog.Debian.gz, xrun.1.gz, stripped, Depends)"

# ---- 3. dpkg -i, use, dpkg -r ------------------------------------------------------
case $installed_before in
*"install ok installed"*) skip "a package xrun is installed already: not replacing it" ;;
esac
dpkg_wait -i "$deb" >"$dir/dpkg.log" 2>&1 || {
	cat "$dir/dpkg.log"
	fail "dpkg -i failed (missing Depends? apt-get install ./$(basename "$deb"))"
	exit 1
}
pass "dpkg -i $(basename "$deb")"
# Nothing may lead back to the source or build trees: run from a fresh dir
# with neither in reach.
work=$dir/work
mkdir "$work"
cd "$work"
/usr/bin/xrun version | grep -q "^xrun [0-9]" && pass "installed xrun version: $(/usr/bin/xrun version)" ||
	fail "installed xrun version"
plan=/usr/share/xrun/plans/dd-blocksize.yaml
/usr/bin/xrun validate "$plan" >/dev/null || fail "xrun validate $plan"
rc=0
/usr/bin/xrun run "$plan" --db "$work/dd.db" --yes --unattended --quiet || rc=$?
[ $rc = 0 ] && pass "installed xrun runs $plan" || fail "xrun run $plan: exit $rc"
rc=0
/usr/bin/xrun report --db "$work/dd.db" -o "$work/dd.pdf" >report.out 2>&1 || rc=$?
[ $rc = 0 ] && [ -s "$work/dd.pdf" ] && pass "installed xrun writes a PDF (its font found)" ||
	fail "xrun report -o dd.pdf: exit $rc $(cat report.out)"
# The embedded plan (no PLAN): status names its store, ./loopback.db.
/usr/bin/xrun status >status.out 2>&1 || true
grep -q 'loopback.db' status.out && pass "the embedded plan is there (status names ./loopback.db)" ||
	fail "xrun status without a plan: $(cat status.out)"
# An installed plan file: its levels.
/usr/bin/xrun plan --levels /usr/share/xrun/plans/loopback.yaml | grep -q '^cc=cubic$' ||
	fail "plan --levels of the installed loopback plan"
MANPATH=/usr/share/man man -w xrun >/dev/null 2>&1 && pass "man xrun finds the page" ||
	fail "man -w xrun does not find the installed page"
if strings /usr/bin/xrun | grep -qF "$src/"; then
	# The path is compiled in (XRUN_SOURCE_DIR) for tests only: make sure
	# the binary does not read anything there at run time.
	if command -v strace >/dev/null && [ -z "$asan_build" ]; then
		# (an ASan binary: LeakSanitizer cannot run under ptrace)
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
			strace -f -e trace=openat,stat,access -o trace.txt \
			/usr/bin/xrun run "$plan" --db "$work/dd2.db" --quiet >/dev/null 2>&1 || true
		if grep -F "$src" trace.txt >/dev/null; then
			fail "the installed xrun opens files under $src: $(grep -F "$src" trace.txt | head -3)"
		else
			pass "the installed xrun reads nothing under the source tree (strace)"
		fi
	fi
fi
dpkg_wait -r xrun >/dev/null || fail "dpkg -r xrun"
[ ! -e /usr/bin/xrun ] && pass "dpkg -r removes it" || fail "/usr/bin/xrun left after dpkg -r"
[ "$nfail" = 0 ]
