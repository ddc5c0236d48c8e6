#!/bin/bash
# Runs one data-driven end-to-end case (in the spirit of curl's
# tests/data/testNNN): case.sh DIR, where DIR holds
#   cmd      one line: the arguments for xrun; %DIR% is replaced by DIR.
#            Words are split on blanks and never given to a shell.
#   plan.yaml (optional) the plan the command reads
#   exit     the expected exit status
#   stderr, stdout (optional) one grep -E pattern a line; each must match
#            some line of that stream; a pattern starting with '!' must
#            match no line
#   stdin    (optional) fed to the command's standard input (else
#            /dev/null)
#   root     (optional) skip unless running as root
#   setup    (optional) a bash script run first in the work directory with
#            DIR set (to generate big or binary inputs)
# The command runs in a fresh temporary directory (its cwd), removed after.
set -eu

# Without an argument (how CTest runs it as e2e/case) it tests itself: a
# runner that cannot fail would make every case worthless.
if [ $# -eq 0 ]; then
	: "${XRUN:?XRUN must name the xrun binary}"
	self=$(cd "$(dirname "$0")" && pwd)/case.sh
	t=$(mktemp -d)
	trap 'rm -rf "$t"' EXIT
	mk() { # name exit stderr-pattern
		mkdir -p "$t/$1"
		printf 'xrun: 1\nname: t\nengine: { type: iperf3, server: local }\norder: abab\n' >"$t/$1/plan.yaml"
		echo 'validate %DIR%/plan.yaml' >"$t/$1/cmd"
		echo "$2" >"$t/$1/exit"
		printf '%s\n' "$3" >"$t/$1/stderr"
	}
	mk good 2 "plan\.yaml:4:8: error: unknown order 'abab'"
	mk wrong-exit 0 "unknown order"
	mk wrong-pattern 2 "no such message"
	mk wrong-negation 2 "!unknown order"
	bash "$self" "$t/good" >/dev/null || { echo "self-test: a good case failed"; exit 1; }
	for c in wrong-exit wrong-pattern wrong-negation; do
		if bash "$self" "$t/$c" >/dev/null; then
			echo "self-test: case '$c' should have failed"
			exit 1
		fi
	done
	echo "case.sh self-test: ok"
	exit 0
fi
dir=$(cd "$1" && pwd)
name=$(basename "$dir")
: "${XRUN:?XRUN must name the xrun binary}"

if [ -e "$dir/root" ] && [ "$(id -u)" != 0 ]; then
	echo "skip: case $name needs root"
	exit 77
fi
for f in cmd exit; do
	if [ ! -f "$dir/$f" ]; then
		echo "case $name: missing file '$f'" >&2
		exit 1
	fi
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
if [ -f "$dir/setup" ]; then
	DIR=$dir bash "$dir/setup"
fi

line=$(head -n 1 "$dir/cmd")
line=${line//%DIR%/$dir}
line=${line//%WORK%/$work}
read -r -a args <<<"$line"

input=/dev/null
[ -f "$dir/stdin" ] && input=$dir/stdin
set +e
"$XRUN" "${args[@]}" <"$input" >"$work/.stdout" 2>"$work/.stderr"
rc=$?
set -e

fail=0
want=$(tr -d ' \n' <"$dir/exit")
if [ "$rc" != "$want" ]; then
	echo "case $name: exit status $rc, want $want"
	fail=1
fi
for stream in stdout stderr; do
	[ -f "$dir/$stream" ] || continue
	while IFS= read -r pat || [ -n "$pat" ]; do
		[ -n "$pat" ] || continue
		if [ "${pat:0:1}" = "!" ]; then
			if grep -Eq -- "${pat:1}" "$work/.$stream"; then
				echo "case $name: $stream matches '${pat:1}'" \
					"but must not"
				fail=1
			fi
		elif ! grep -Eq -- "$pat" "$work/.$stream"; then
			echo "case $name: no line of $stream matches '$pat'"
			fail=1
		fi
	done <"$dir/$stream"
done
if [ "$fail" != 0 ]; then
	echo "--- command: xrun ${args[*]}"
	echo "--- stdout:"
	cat "$work/.stdout"
	echo "--- stderr:"
	cat "$work/.stderr"
	exit 1
fi
echo "case $name: ok"
