#!/bin/bash
# SPDX-License-Identifier: MIT
# Runs one data-driven end-to-end case (in the spirit of curl's
# tests/data/testNNN): case.sh DIR. The format is described in
# tests/e2e/cases/README.md; in short, DIR holds
#   cmd       the arguments for xrun, one step a line (never given to a
#             shell: words split on blanks); %DIR%, %WORK%, %SRC%, %FAULT%,
#             %PORT% are replaced
#   exit      the expected exit status of the last step (earlier steps
#             must exit 0), or one status a line, one per step
#   stdout, stderr   grep -E patterns the last step's stream must match
#             (a leading '!': must match no line)
#   stdin     fed to every step (else /dev/null)
#   requires  words: root, sshd, iperf3, netns, or any command name;
#             unmet: skip (exit 77), a failure under CI=true
#   root      (old form of `requires: root`)
#   setup     a bash script run first in the work directory
#   *.yaml    copied to the work directory with the %...% words replaced
#   sql       after the steps: "QUERY => EXPECTED" lines checked on the
#             store (rows joined by ';', columns by '|'); "db FILE" picks
#             the store (default: the one *.db of the work directory)
#   expect-report.md (.csv, .json)  lines (fixed strings, '!' negates) to
#             find in `xrun report --db STORE -o report.md` (.csv, .json)
# The steps run in a fresh temporary directory (its cwd), removed after.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/common.sh"

# Without an argument (how CTest runs it as e2e/case) it tests itself: a
# runner that cannot fail would make every case worthless.
if [ $# -eq 0 ]; then
	self=$here/case.sh
	xr_tmpdir t
	mk() { # name exit stderr-pattern
		mkdir -p "$t/$1"
		printf 'xrun: 1\nname: t\nengine: { type: iperf3, server: local }\norder: abab\n' >"$t/$1/plan.yaml"
		echo 'validate %DIR%/plan.yaml' >"$t/$1/cmd"
		echo "$2" >"$t/$1/exit"
		printf '%s\n' "$3" >"$t/$1/stderr"
	}
	mkrun() { # name sql-line report-line
		mkdir -p "$t/$1"
		cat >"$t/$1/plan.yaml" <<'YAML'
xrun: 1
name: self
engine:
  type: command
  run: [sh, "%FAULT%", values]
  metrics:
    throughput: { json: /rate_MBps, unit: MB/s }
factors:
  x: [a, b]
repeat: 1
sample: off
YAML
		printf 'run %%WORK%%/plan.yaml --db %%WORK%%/s.db --quiet\nstatus --db %%WORK%%/s.db\n' >"$t/$1/cmd"
		echo 0 >"$t/$1/exit"
		printf '%s\n' "$2" >"$t/$1/sql"
		printf '%s\n' "$3" >"$t/$1/expect-report.md"
	}
	mk good 2 "plan\.yaml:4:8: error: unknown order 'abab'"
	mk wrong-exit 0 "unknown order"
	mk wrong-pattern 2 "no such message"
	mk wrong-negation 2 "!unknown order"
	mkrun run-good "select count(*) from runs where status='ok' => 2" "self"
	mkrun wrong-sql "select count(*) from runs where status='ok' => 3" "self"
	mkrun wrong-report "select count(*) from runs => 2" "no such text in a report"
	mk wrong-requires 2 "unknown order"
	echo "no-such-command-xyz" >"$t/wrong-requires/requires"
	for c in good run-good; do
		bash "$self" "$t/$c" >"$t/out" ||
			{ cat "$t/out"; echo "self-test: case '$c' failed"; exit 1; }
	done
	for c in wrong-exit wrong-pattern wrong-negation wrong-sql wrong-report; do
		if bash "$self" "$t/$c" >/dev/null; then
			echo "self-test: case '$c' should have failed"
			exit 1
		fi
	done
	set +e
	CI= bash "$self" "$t/wrong-requires" >/dev/null
	rc=$?
	CI=true bash "$self" "$t/wrong-requires" >/dev/null 2>&1
	rc_ci=$?
	set -e
	[ $rc = 77 ] || { echo "self-test: unmet requirement: exit $rc, want 77"; exit 1; }
	[ $rc_ci = 1 ] || { echo "self-test: unmet requirement under CI: exit $rc_ci, want 1"; exit 1; }
	echo "case.sh self-test: ok"
	exit 0
fi
dir=$(cd "$1" && pwd)
name=$(basename "$dir")

for f in cmd exit; do
	[ -f "$dir/$f" ] || fail "case $name: missing file '$f'"
done

xr_tmpdir work
reqs=
[ -e "$dir/root" ] && reqs=root
[ -f "$dir/requires" ] && reqs="$reqs $(cat "$dir/requires")"
for r in $reqs; do
	case $r in
	root) xr_need_root "case $name" ;;
	sshd) xr_need_sshd "$work" ;;
	netns) xr_need_netns "xr-case-$$" ;;
	*) xr_need "$r" ;;
	esac
done
port=
subst() { # text: the %...% words replaced
	local s=$1
	if [[ $s == *%PORT%* ]] && [ -z "$port" ]; then
		port=$(xr_free_port)
	fi
	s=${s//%DIR%/$dir}
	s=${s//%WORK%/$work}
	s=${s//%SRC%/$XRUN_SOURCE_DIR}
	s=${s//%FAULT%/$XR_LIB/fault_engine.sh}
	s=${s//%PORT%/$port}
	printf '%s' "$s"
}
for y in "$dir"/*.yaml; do
	[ -f "$y" ] || continue
	subst "$(cat "$y")" >"$work/$(basename "$y")"
	echo >>"$work/$(basename "$y")"
done
if [ -f "$dir/setup" ]; then
	DIR=$dir bash "$dir/setup"
fi

input=/dev/null
[ -f "$dir/stdin" ] && input=$dir/stdin
mapfile -t steps < <(grep -v '^[[:space:]]*$' "$dir/cmd")
mapfile -t wants < <(tr -s ' \n' '\n' <"$dir/exit" | grep .)
nsteps=${#steps[@]}
fail=0
for i in "${!steps[@]}"; do
	read -r -a args <<<"$(subst "${steps[$i]}")"
	if [ ${#wants[@]} -eq "$nsteps" ]; then
		want=${wants[$i]}
	elif [ "$i" = $((nsteps - 1)) ]; then
		want=${wants[0]}
	else
		want=0
	fi
	set +e
	"$XRUN" "${args[@]}" <"$input" >"$work/.stdout" 2>"$work/.stderr"
	rc=$?
	set -e
	if [ "$rc" != "$want" ]; then
		echo "case $name: step $((i + 1)) (xrun ${args[*]}): exit status $rc, want $want"
		fail=1
		break
	fi
done

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

store() { # the store the sql and report checks read
	local dbs
	if [ -n "${db:-}" ]; then
		echo "$db"
		return
	fi
	dbs=$(cd "$work" && ls -- *.db 2>/dev/null || true)
	if [ "$(echo "$dbs" | grep -c .)" != 1 ]; then
		echo "case $name: no single *.db in the work directory ($dbs): add 'db FILE' to sql" >&2
		return 1
	fi
	echo "$work/$dbs"
}
db=
if [ -f "$dir/sql" ]; then
	xr_need sqlite3
	while IFS= read -r line || [ -n "$line" ]; do
		case $line in '' | '#'*) continue ;; esac
		if [[ $line == "db "* ]]; then
			db=$work/$(subst "${line#db }")
			continue
		fi
		query=${line% => *}
		expect=${line##* => }
		[ "$query" != "$line" ] || { echo "case $name: sql line without ' => ': $line"; fail=1; continue; }
		s=$(store) || { fail=1; break; }
		got=$(sqlite3 "$s" "$query" 2>&1 | paste -sd ';' -) || true
		if [ "$got" != "$expect" ]; then
			echo "case $name: sql: $query"
			echo "case $name:   got '$got', want '$expect'"
			fail=1
		fi
	done <"$dir/sql"
fi
for exp in "$dir"/expect-report.*; do
	[ -f "$exp" ] || continue
	ext=${exp##*.}
	s=$(store) || { fail=1; break; }
	if ! "$XRUN" report --db "$s" -o "$work/report.$ext" >"$work/.report.out" 2>&1; then
		echo "case $name: xrun report -o report.$ext failed: $(cat "$work/.report.out")"
		fail=1
		continue
	fi
	while IFS= read -r want || [ -n "$want" ]; do
		[ -n "$want" ] || continue
		if [ "${want:0:1}" = "!" ]; then
			if grep -qF -- "${want:1}" "$work/report.$ext"; then
				echo "case $name: report.$ext contains '${want:1}' but must not"
				fail=1
			fi
		elif ! grep -qF -- "$want" "$work/report.$ext"; then
			echo "case $name: report.$ext lacks '$want'"
			fail=1
		fi
	done <"$exp"
	[ $fail = 0 ] || { echo "--- report.$ext:"; cat "$work/report.$ext"; }
done

if [ "$fail" != 0 ]; then
	echo "--- last step: xrun ${args[*]}"
	echo "--- stdout:"
	cat "$work/.stdout"
	echo "--- stderr:"
	cat "$work/.stderr"
	exit 1
fi
echo "case $name: ok"
