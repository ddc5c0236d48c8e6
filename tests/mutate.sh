#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Mutation bench (not in CI): does the suite notice a meaningful bug?
# For each line of tests/mutations.tsv (name, module, file, exact text,
# replacement, the test expected to kill it, what it breaks) it copies the
# tree to a scratch directory, replaces the first occurrence of the text
# in that copy, rebuilds it incrementally and runs ctest against it (its
# expected killer first: a kill by it needs no other test). A
# mutation the suite does not notice "survives": a hole in the tests. The
# worktree is never modified.
#
#   bash tests/mutate.sh [NAME...]     # default: every mutation
#   bash tests/mutate.sh --check       # only: is every entry's text still
#                                      # in its file? (applies and builds
#                                      # nothing; e2e/mutations_check)
#   bash tests/mutate.sh --quick [NAME...]  # each mutant against its
#                                      # expected killer alone (the 6th
#                                      # column), not the whole suite
#   XRUN_MUTATE_DIR=/tmp/m             # scratch directory (default: mktemp)
#   XRUN_MUTATE_REV=COMMIT             # score that commit's suite instead
#   XRUN_MUTATE_LIST=FILE              # another list (e.g. an older
#                                      # commit's, with XRUN_MUTATE_REV)
#   XRUN_MUTATE_CTEST="-j2"            # ctest arguments; the default leaves
#                                      # out the slow lab, ssh and netns
#                                      # scripts and the PDF rendering
#
# Prints one line a mutation (killed / SURVIVED / STALE: its text is no
# longer in the file / broken: the mutant does not compile) and the score
# "killed K of N". A stale entry counts in N and is never killed: the list
# must be fixed, not the score read without it. Exit 0 when every mutation
# was killed.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
list=${XRUN_MUTATE_LIST:-$top/tests/mutations.tsv}
mode=full
case ${1:-} in
--check) mode=check; shift ;;
--quick) mode=quick; shift ;;
esac

# Is the text of mutation NAME still in its file? (--check, and the
# full run before it copies anything.)
check_list() { # tree -> 0 when every entry applies
	python3 - "$1" "$list" <<'PY'
import sys
top, path = sys.argv[1:3]
bad = n = 0
names = set()
for no, line in enumerate(open(path, encoding="utf-8"), 1):
    line = line.rstrip("\n")
    if not line or line.startswith("#"):
        continue
    n += 1
    cols = line.split("\t")
    if len(cols) != 7:
        print(f"mutations.tsv:{no}: {len(cols)} columns, not 7")
        bad += 1
        continue
    name, module, file, old, new, killer, what = cols
    if name in names:
        print(f"mutations.tsv:{no}: '{name}' listed twice")
        bad += 1
    names.add(name)
    try:
        s = open(f"{top}/{file}", encoding="utf-8").read()
    except OSError:
        print(f"mutations.tsv:{no}: {name}: STALE (no file {file})")
        bad += 1
        continue
    if old not in s:
        print(f"mutations.tsv:{no}: {name}: STALE (text not found in {file})")
        bad += 1
    elif old == new:
        print(f"mutations.tsv:{no}: {name}: replacement equals the text")
        bad += 1
print(f"mutate: {n - bad} of {n} entries apply")
sys.exit(1 if bad else 0)
PY
}
if [ $mode = check ]; then
	check_list "$top"
	exit
fi
ctest_args=${XRUN_MUTATE_CTEST:--j2 -E e2e/(lab|hosts_|ssh_|run_ssh|run_netns|report_pdf|report_font)}
scratch=${XRUN_MUTATE_DIR:-$(mktemp -d /tmp/xr-mutate.XXXXXX)}
src=$scratch/src
bld=$scratch/build
mkdir -p "$src" "$bld"

# A copy of the tree as it is now (tracked and new files, no build dirs),
# or of commit XRUN_MUTATE_REV (to score an older suite with today's list).
if [ -n "${XRUN_MUTATE_REV:-}" ]; then
	git -C "$top" archive "$XRUN_MUTATE_REV" | tar -x -C "$src" || exit 1
else
	(cd "$top" && git ls-files -co --exclude-standard -z) |
		(cd "$top" && xargs -0 cp -p --parents -t "$src") || exit 1
fi
echo "mutate: scratch copy in $src"
# Ninja where it is installed (a no-op rebuild costs it a fraction of
# Make's); no unity sources, so that a mutant recompiles its own file, not
# the seven beside it (XRUN_UNITY; an older tree ignores the option).
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
cmake -S "$src" -B "$bld" "${gen[@]}" -DXRUN_UNITY=OFF \
	-DCMAKE_BUILD_TYPE=RelWithDebInfo >"$bld.cmake.log" 2>&1 ||
	{ cat "$bld.cmake.log"; exit 1; }
suite() { # log file; 0 when every test passes, 1 when one fails, 2 when
	# the build fails. A failed test is run again once: a test that fails
	# only under load (a timing bound) is no kill.
	cmake --build "$bld" -j2 >"$1.build" 2>&1 || return 2
	ctest --test-dir "$bld" $ctest_args --timeout 300 --stop-on-failure \
		>"$1" 2>&1 && return 0
	rerun "$1" || return 1
	# A flaky failure stopped the suite early: run all of it, then retry
	# what failed.
	ctest --test-dir "$bld" $ctest_args --timeout 300 >"$1" 2>&1 && return 0
	rerun "$1"
}
rerun() { # log file: the failed tests again, up to 3 times (timing bounds
	# such as test_store's fail under a heavily loaded machine)
	local i
	for i in 1 2 3; do
		ctest --test-dir "$bld" $ctest_args --rerun-failed \
			--output-on-failure --timeout 300 >"$1.rerun" 2>&1 && return 0
	done
	return 1
}
killer_targets() { # test name: the build targets it runs (xrun, the
	# man page an e2e test may read, a unit test's own program)
	local t=(xrun)
	case $1 in
	unit/*) t+=("${1#unit/}") ;;
	*) grep -q 'add_custom_target(xrun_docs' "$src/CMakeLists.txt" &&
		t+=(xrun_docs) ;;
	esac
	printf -- '--target\n%s\n' "${t[@]}"
}
one() { # log file, test name: 0 when it passes, 1 when it fails twice, 2
	# when the build fails, 3 when the test is not found (the expected
	# killer alone, --quick). Only what the killer runs is rebuilt; a
	# failure is tried again, so that a timing bound failing under load is
	# no kill.
	local targets i
	mapfile -t targets < <(killer_targets "$2")
	cmake --build "$bld" -j2 "${targets[@]}" >"$1.build" 2>&1 || return 2
	for i in 1 2; do
		ctest --test-dir "$bld" -R "^$2\$" --output-on-failure \
			--timeout 300 >"$1" 2>&1 && break
		grep -q 'No tests were found' "$1" && return 3
		[ $i = 2 ] && return 1
	done
	grep -q '^100% tests passed' "$1" || return 3
}
first_kill() { # log file, test name: 0 when that test fails on the mutant
	# twice (built: xrun and, for unit/NAME, the program NAME)
	local targets=(--target xrun)
	case $2 in unit/*) targets+=(--target "${2#unit/}") ;; esac
	if [ "$full_built" = 1 ]; then
		# a whole build was made with the previous mutant: make the rest of
		# the tree unmutated again before a targeted build is trusted
		cmake --build "$bld" -j2 >"$1.build" 2>&1 || return 1
		full_built=0
	fi
	cmake --build "$bld" -j2 "${targets[@]}" >"$1.build" 2>&1 || return 1
	local i
	for i in 1 2; do
		ctest --test-dir "$bld" -R "^$2\$" --output-on-failure --timeout 300 \
			>"$1" 2>&1 && return 1
		grep -q 'No tests were found' "$1" && return 1
	done
	echo "$2" >"$1.killer"
	return 0
}
full_built=0
t0=$SECONDS
if [ $mode = quick ]; then
	cmake --build "$bld" -j2 >"$scratch/baseline.log" 2>&1 ||
		{ echo "mutate: the unmutated tree does not build"; exit 1; }
	echo "mutate: built ($((SECONDS - t0)) s)"
elif ! suite "$scratch/baseline.log"; then
	echo "mutate: the unmutated suite fails; fix that first:"
	grep -E 'Failed|\*\*\*' "$scratch/baseline.log" | head -20
	exit 1
fi
[ $mode = quick ] || echo "mutate: baseline passes ($((SECONDS - t0)) s)"

apply() { # file from to -> 0 when replaced
	python3 - "$@" <<'PY'
import sys
path, old, new = sys.argv[1:4]
s = open(path, encoding="utf-8").read()
if old not in s:
    sys.exit(1)
open(path, "w", encoding="utf-8").write(s.replace(old, new, 1))
PY
}

killed=0 total=0 survivors=()
declare -A base_ok
while IFS=$'\t' read -r -u 3 name module file from to killer what; do
	case $name in '' | '#'*) continue ;; esac
	if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qxF -- "$name"; then
		continue
	fi
	cp "$src/$file" "$scratch/orig"
	if ! apply "$src/$file" "$from" "$to"; then
		printf '%-34s %-7s STALE (text not found in %s)\n' "$name" "$module" "$file"
		total=$((total + 1))
		survivors+=("$name")
		continue
	fi
	t0=$SECONDS
	if [ $mode = quick ]; then
		# The killer must pass on the unmutated tree first.
		if [ -z "${base_ok[$killer]:-}" ]; then
			cp "$scratch/orig" "$src/$file"
			one "$scratch/base-$name.log" "$killer"
			base_ok[$killer]=$?
			apply "$src/$file" "$from" "$to"
		fi
		if [ "${base_ok[$killer]}" != 0 ]; then
			cp "$scratch/orig" "$src/$file"
			touch "$src/$file"
			printf '%-34s %-7s broken (%s fails or is not found unmutated)\n' \
				"$name" "$module" "$killer"
			total=$((total + 1))
			survivors+=("$name")
			continue
		fi
		one "$scratch/$name.log" "$killer"
		rc=$?
		[ $rc = 1 ] && echo "$killer" >"$scratch/$name.log.killer"
		[ $rc = 3 ] && rc=0
	else
		# The expected killer first (it is a test of the suite): when it
		# fails on the mutant, and again on a retry, the suite has killed
		# it without running the rest. Only xrun and the killer's own
		# program are rebuilt for that; otherwise the whole build and the
		# whole suite run as before.
		if first_kill "$scratch/$name.log" "$killer"; then
			rc=1
		else
			suite "$scratch/$name.log"
			rc=$?
			full_built=1
		fi
	fi
	cp "$scratch/orig" "$src/$file"
	touch "$src/$file"
	if [ $rc = 2 ]; then
		printf '%-34s %-7s broken (does not compile)\n' "$name" "$module"
		continue
	fi
	total=$((total + 1))
	if [ $rc = 0 ]; then
		survivors+=("$name")
		printf '%-34s %-7s SURVIVED (%s s): %s\n' "$name" "$module" \
			"$((SECONDS - t0))" "$what"
	else
		killed=$((killed + 1))
		# The killer: a test that failed again on the retry.
		first=$(cat "$scratch/$name.log.killer" 2>/dev/null ||
			grep -Eo 'Test +#[0-9]+: [^ ]+ [.]*\*\*\*(Failed|Timeout)' \
				"$scratch/$name.log.rerun" 2>/dev/null |
			head -1 | awk '{print $3}')
		printf '%-34s %-7s killed (%s s) by %s\n' "$name" "$module" \
			"$((SECONDS - t0))" "${first:-?}"
	fi
done 3<"$list"
cmake --build "$bld" -j2 >/dev/null 2>&1 # leave the scratch build unmutated
echo "mutate: killed $killed of $total${survivors[*]:+; survivors: ${survivors[*]}}"
[ -n "${XRUN_MUTATE_DIR:-}" ] || rm -rf "$scratch"
[ "$killed" = "$total" ]
