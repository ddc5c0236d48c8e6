#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run calls this, nothing less):
#   1. install missing Debian packages (.ci/install)
#   2. clang-format check of every C file
#   3. normal build with -Werror, all unit, case and end-to-end tests
#      (and a Release build with -Werror; XRUN_WERROR is off by default so
#      that a user's or packager's build never fails on a warning)
#   4. ASan+UBSan build, all tests again
#   5. a short libFuzzer run of the plan, iperf3-JSON and counters parsers
# Ends with one line "N passed, M failed" over the stages.
set -u
cd "$(dirname "$0")/.."
top=$(pwd)
jobs=${XRUN_JOBS:-2}
fuzz_secs=${XRUN_FUZZ_SECONDS:-20}
pass=0
fail=0
failed=()
stage() { # name, command...
  local name=$1
  shift
  echo "=== $name"
  local t0=$SECONDS
  if "$@"; then
    pass=$((pass + 1))
    echo "=== $name: ok ($((SECONDS - t0)) s)"
  else
    fail=$((fail + 1))
    failed+=("$name")
    echo "=== $name: FAILED ($((SECONDS - t0)) s)"
  fi
}

format_check() {
  local bad=0 f
  while IFS= read -r f; do
    if ! clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then
      echo "not clang-formatted: $f"
      bad=1
    fi
  done < <(git ls-files '*.c' '*.h' 2>/dev/null || find runner reports tests -name '*.[ch]')
  return $bad
}

build() { # dir, cmake args...
  local dir=$1
  shift
  cmake -S "$top" -B "$dir" "$@" >"$dir.cmake.log" 2>&1 || { cat "$dir.cmake.log"; return 1; }
  local rc=0
  cmake --build "$dir" -j"$jobs" >"$dir.build.log" 2>&1 || rc=$?
  grep -Ev '^\[ *[0-9]+%\]' "$dir.build.log" | grep -v '^gmake' | head -100 || true
  [ $rc -eq 0 ] && [ -x "$dir/xrun" ]
}

run_ctest() { # dir
  ctest --test-dir "$1" -j"$jobs" --output-on-failure --timeout 600
}

fuzz() {
  local dir=build-fuzz f n corpus rc=0
  CC=clang build "$dir" -DXRUN_FUZZ=ON -DCMAKE_BUILD_TYPE=Debug || return 1
  for f in "$dir"/fuzz_*; do
    [ -x "$f" ] || continue
    n=$(basename "$f")
    corpus=$(mktemp -d)
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
    echo "--- $n for ${fuzz_secs}s"
    if ! "$f" -max_total_time="$fuzz_secs" -max_len=65536 -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 "$corpus" >"$dir/$n.log" 2>&1; then
      tail -40 "$dir/$n.log"
      rc=1
    else
      grep -E 'stat::number_of_executed_units' "$dir/$n.log" || true
    fi
    rm -rf "$corpus"
  done
  return $rc
}

stage install bash .ci/install
stage format format_check
stage build build build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DXRUN_WERROR=ON
# A packager's build: -O3-style optimisation finds warnings -O2 -g does not
# (gcc's -Wstringop-overread); built once with -Werror, not tested again.
stage build-release build build-release -DCMAKE_BUILD_TYPE=Release -DXRUN_WERROR=ON
stage tests run_ctest build
stage build-sanitize build build-san -DCMAKE_BUILD_TYPE=Debug -DXRUN_SANITIZE=ON -DXRUN_WERROR=ON
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
stage tests-sanitize run_ctest build-san
stage fuzz fuzz

echo
[ $fail -eq 0 ] || echo "failed stages: ${failed[*]}"
echo "stages: $pass passed, $fail failed"
[ $fail -eq 0 ]
