#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The whole test suite, as CI runs it (.ci/run calls this, nothing less).
# Every test runs once, where it can find something (issue 33):
#   install         missing Debian packages (.ci/install)
#   format          clang-format check of every C file
#   build           gcc RelWithDebInfo at -O3 (-O3 -g -DNDEBUG), -Werror,
#                   xrun and its man page and completion (every layer):
#                   the lab tests and the second run of the two labelled
#                   twice run on it, and install_deb packages it. -O3 finds warnings the developer's default
#                   -O2 -g does not (gcc's -Wstringop-overread), and -O2
#                   none that -O3 misses, so one build sees both. The unit
#                   tests and benches are built (-Werror) and run in the
#                   sanitizer tree: building them here too cost 40 CPU s
#                   for no test
#   build-sanitize  gcc Debug with ASan+UBSan, -Werror
#   build-tsan      clang with ThreadSanitizer: the threaded code's unit
#                   tests and the layers they link, nothing else
#   build-fuzz      clang libFuzzer targets (with ASan+UBSan) and the
#                   layers they link, nothing else
#   tests-lab       the tests that measure a shaped link or timing
#                   (ctest -L lab: throughput against a tbf rate, latency
#                   against bare ping; case/run-lead-in-cost's wall-time
#                   bar), in the optimised build, one at a
#                   time and with nothing else running: ASan's slowdown
#                   and a neighbour's CPU would be measured with the link
#   tests-sanitize  every other test (unit, case, e2e: ctest -LE lab) once,
#                   under ASan+UBSan: a memory or UB error anywhere on the
#                   paths they drive fails them. They are not run again in
#                   the optimised build: the same C code runs, and what the
#                   optimiser changes (warnings) the -Werror builds see.
#                   Many tests at once (-j$XRUN_TEST_JOBS, 8): most of an
#                   end-to-end test's time is waiting (a run's duration, a
#                   timeout, a child), not CPU.
#   tests-optimised the two tests labelled twice, a second time, in the
#                   optimised build, because that run finds what the
#                   first cannot: e2e/fault_oom tries one failure point in
#                   five under ASan (a memory error on an out-of-memory
#                   path shows only there) and every point here (exit 3
#                   and the stage, never a signal, at each of ~900: past
#                   the 300 s limit in front of ASan's allocator);
#                   e2e/install_deb packages the ASan build there (a
#                   memory error in the installed binary's runs) and the
#                   release build here (no sanitizer runtime in Depends,
#                   lintian on the binary a user gets).
#   tests-tsan      the threaded unit tests (ctest -L threads: samplers,
#                   latency probe, series flusher, process watch) under
#                   ThreadSanitizer: the one stage that can see a data
#                   race. With the two labelled twice, the only tests that
#                   run twice (once under ASan, once under TSan): the two
#                   sanitizers cannot share a build and find different
#                   bugs.
#   fuzz            a short libFuzzer run of each parser (plan, iperf3
#                   JSON, counters, text readers, host OS readers), all
#                   at once, $XRUN_FUZZ_SECONDS (30) of wall time each
# Each stage prints its time; the end is the 15 slowest tests (from the
# ctest logs) and one line "stages: N passed, M failed".
set -u
cd "$(dirname "$0")/.."
# Debian's programs first (tests/e2e/lib/common.sh says why).
PATH=/usr/bin:/bin:/usr/sbin:/sbin:$PATH
export PATH
top=$(pwd)
jobs=${XRUN_JOBS:-2}
test_jobs=${XRUN_TEST_JOBS:-8}
fuzz_secs=${XRUN_FUZZ_SECONDS:-30}
pass=0
fail=0
failed=()
times=()
# CPU seconds (user + system) of the processes this shell has waited for:
# a stage's CPU time does not depend on what else the machine runs, its
# wall time does.
cpu_tmp=$(mktemp)
trap 'rm -f "$cpu_tmp"' EXIT
# Sets CPU_NOW. `times` runs here, in this shell: in a pipe or $(...) it
# would run in a subshell and report that subshell's children (none).
cpu_now() {
	times >"$cpu_tmp"
	CPU_NOW=$(awk 'NR == 2 { n = split($0, f, " "); s = 0
		for (i = 1; i <= n; i++) { split(f[i], p, "m"); s += p[1] * 60 + p[2] }
		printf "%d", s }' "$cpu_tmp")
}
stage() { # name, command...
	local name=$1 t0=$SECONDS c0 cpu ok
	shift
	echo "=== $name"
	cpu_now
	c0=$CPU_NOW
	if "$@"; then
		pass=$((pass + 1))
		ok=ok
	else
		fail=$((fail + 1))
		failed+=("$name")
		ok=FAILED
	fi
	cpu_now
	cpu=$((CPU_NOW - c0))
	echo "=== $name: $ok ($((SECONDS - t0)) s, $cpu CPU s)"
	times+=("$(printf '%-16s %5d s  %5d CPU s' "$name" $((SECONDS - t0)) "$cpu")")
}

# One clang-format for 100 files, two at a time: a process a file cost
# ~50 CPU seconds, this ~3.
format_check() {
	local err rc=0
	err=$(mktemp)
	{ git ls-files '*.c' '*.h' 2>/dev/null || find runner reports tests -name '*.[ch]'; } |
		xargs -P"$jobs" -n 100 clang-format --dry-run --Werror >/dev/null 2>"$err" || rc=1
	sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/not clang-formatted: \1/p' "$err" | sort -u
	[ $rc -eq 0 ] || [ -s "$err" ] || echo "clang-format failed"
	rm -f "$err"
	return $rc
}

# The suite's trees are built with Ninja (.ci/install installs it): Make's
# recursive rules cost a process or three a target for dependency scans
# and progress lines, which on this two-core machine was a third of a
# build tree's CPU time (tests/README.md has the figures). A tree made
# earlier with another generator is made again.
gen=(-G Ninja)
command -v ninja >/dev/null || gen=()
fresh_tree() { # dir: remove a tree configured with another generator
	local want=${gen[1]:-Unix Makefiles}
	if [ -f "$1/CMakeCache.txt" ] &&
		! grep -qx "CMAKE_GENERATOR:INTERNAL=$want" "$1/CMakeCache.txt"; then
		rm -rf "$1"
	fi
}

# build DIR [--target T...] -- cmake args...
build() {
	local dir=$1 targets=()
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		targets+=("$1")
		shift
	done
	[ $# -eq 0 ] || shift
	fresh_tree "$dir"
	cmake -S "$top" -B "$dir" "${gen[@]}" "$@" >"$dir.cmake.log" 2>&1 || { cat "$dir.cmake.log"; return 1; }
	local rc=0
	cmake --build "$dir" -j"$jobs" "${targets[@]}" >"$dir.build.log" 2>&1 || rc=$?
	grep -Ev '^\[ *[0-9]+%\]|^\[[0-9]+/[0-9]+\] ' "$dir.build.log" | grep -Ev '^gmake|^ninja: ' | head -100 || true
	return $rc
}

# The test targets of a configured tree with label L, as --target args.
label_targets() { # dir label
	ctest --test-dir "$1" -N -L "$2" | sed -n 's|^ *Test *#[0-9]*: unit/||p' |
		sed 's/^/--target /'
}

# run_ctest NAME DIR ctest-args...: output kept in DIR/ctest-NAME.log for
# the slowest-tests table. Per-test timeouts are in CMakeLists.txt.
run_ctest() {
	local name=$1 dir=$2 rc
	shift 2
	ctest --test-dir "$dir" --output-on-failure "$@" 2>&1 | tee "$dir/ctest-$name.log"
	rc=${PIPESTATUS[0]}
	logs+=("$name:$dir/ctest-$name.log")
	return "$rc"
}
logs=()

fuzz_corpus() { # fuzzer name, corpus dir
	local n=$1 corpus=$2 r b
	case $n in
	fuzz_plan) cp plans/*.yaml "$corpus"/ 2>/dev/null ;;
	fuzz_iperf3) cp tests/data/iperf3/*.json "$corpus"/ 2>/dev/null ;;
	fuzz_counters) cp tests/data/counters/* "$corpus"/ 2>/dev/null ;;
	fuzz_text) # first byte: the reader (see fuzz_text.c)
		for r in tests/data/ping/*.txt; do
			{ printf '\000'; cat "$r"; } >"$corpus/${r##*/}.ping"
		done
		for r in tests/data/irtt/*.txt; do
			{ printf '\004'; cat "$r"; } >"$corpus/${r##*/}.irtt"
		done
		printf '\00178,258,213 Bytes/sec' >"$corpus/number"
		printf '\0014.477,973 MB/s' >"$corpus/number-comma"
		for r in tests/data/resp/networkquality-*.json; do
			{ printf '\002'; cat "$r"; } >"$corpus/${r##*/}"
		done
		for r in tests/data/resp/speedtest*.json; do
			{ printf '\003'; cat "$r"; } >"$corpus/${r##*/}"
		done
		{ printf '\005'; cat tests/data/macos/top_l0_s1.txt; } >"$corpus/top" ;;
	fuzz_hostos) # first byte: OS and reading (see fuzz_hostos.c)
		for r in tests/data/windows/*.txt tests/data/macos/*.txt; do
			for b in 0 1 2 3 4 5; do
				{ printf "\\06$b"; cat "$r"; } >"$corpus/${r##*/}.$b"
			done
		done ;;
	esac
}

fuzz_one() { # fuzzer binary: 0 when it found nothing in $fuzz_secs
	local f=$1 n corpus rc=0
	n=$(basename "$f")
	corpus=$(mktemp -d)
	fuzz_corpus "$n" "$corpus"
	if ! "$f" -max_total_time="$fuzz_secs" -max_len=65536 -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 "$corpus" >"$f.log" 2>&1; then
		echo "--- $n FAILED"
		tail -40 "$f.log"
		rc=1
	else
		echo "--- $n for ${fuzz_secs}s: $(grep -E 'stat::number_of_executed_units' "$f.log")"
	fi
	rm -rf "$corpus"
	return $rc
}

# The fuzzers, all at once for $fuzz_secs of wall time each: five
# processes share the two cores (about 0.4 of a core each), so the stage
# takes $fuzz_secs, not three rounds of it.
fuzz() {
	local dir=build-fuzz f pids=() rc=0 p
	for f in "$dir"/fuzz_*; do
		[ -x "$f" ] && [ "${f%.log}" = "$f" ] || continue
		fuzz_one "$f" &
		pids+=($!)
	done
	for p in "${pids[@]}"; do
		wait "$p" || rc=1
	done
	return $rc
}

build_fuzz() { # every tests/fuzz/fuzz_NAME.c, and only what they link
	local f t=()
	for f in tests/fuzz/fuzz_*.c; do
		f=${f##*/}
		t+=(--target "${f%.c}")
	done
	CC=clang build build-fuzz "${t[@]}" -- -DXRUN_FUZZ=ON -DCMAKE_BUILD_TYPE=Debug
}

build_tsan() {
	local t
	fresh_tree build-tsan
	CC=clang cmake -S "$top" -B build-tsan "${gen[@]}" -DXRUN_TSAN=ON \
		-DCMAKE_BUILD_TYPE=RelWithDebInfo >build-tsan.cmake.log 2>&1 ||
		{ cat build-tsan.cmake.log; return 1; }
	t=$(label_targets build-tsan threads)
	[ -n "$t" ] || { echo "no test labelled threads"; return 1; }
	# shellcheck disable=SC2086 # one word a target
	CC=clang build build-tsan $t -- -DXRUN_TSAN=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo
}

# The slowest tests of every ctest stage: "seconds stage test" lines.
slowest() {
	local l
	echo
	echo "15 slowest tests (s, stage, test):"
	for l in "${logs[@]}"; do
		[ -f "${l#*:}" ] || continue
		sed -nE "s|^ *[0-9]+/[0-9]+ Test +#[0-9]+: ([^ ]+) [ .]*(\*\*\*)?([A-Za-z]+)[^0-9]* ([0-9.]+) sec.*|\4 ${l%%:*} \1 \3|p" "${l#*:}"
	done | sort -rn | head -15 | awk '{ printf "  %7.1f  %-9s %-40s %s%s\n", $1, $2, $3, $4, ($1 > 90 ? "  (> 90 s: tests/README.md?)" : "") }'
}

stage install bash .ci/install
stage format format_check
stage build build build --target xrun --target xrun_docs -- -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	"-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O3 -g -DNDEBUG" -DXRUN_WERROR=ON
stage build-sanitize build build-san -- -DCMAKE_BUILD_TYPE=Debug -DXRUN_SANITIZE=ON -DXRUN_WERROR=ON
stage build-tsan build_tsan
stage build-fuzz build_fuzz
# Alone on the machine: nothing else is started until they end. The lock
# is the one bench/ and the lab tests of other checkouts on a shared
# machine take (tests/README.md); CI holds it at once.
lab_alone() { # (a subshell: run_ctest's log is added below)
	(
		command -v flock >/dev/null && flock 9
		run_ctest lab build -L lab -j1
	) 9>/tmp/xrun-measure.lock
}
logs+=("lab:build/ctest-lab.log")
stage tests-lab lab_alone
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
stage tests-sanitize run_ctest sanitize build-san -LE lab -j"$test_jobs"
unset ASAN_OPTIONS UBSAN_OPTIONS
# The tests labelled twice (CMakeLists.txt says why) again in the optimised
# build, after the sanitizer stage: beside it they took a core from the
# CPU-share unit tests (RUN_SERIAL holds only inside one ctest) and from
# run_sizing.
stage tests-optimised run_ctest optimised build -L twice -j2
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$top/tests/tsan.supp"
stage tests-tsan run_ctest tsan build-tsan -L threads -j"$jobs"
unset TSAN_OPTIONS
stage fuzz fuzz

slowest
echo
echo "stage times (wall, and CPU: user + system of everything it ran):"
printf '  %s\n' "${times[@]}"
[ $fail -eq 0 ] || echo "failed stages: ${failed[*]}"
echo "stages: $pass passed, $fail failed"
[ $fail -eq 0 ]
