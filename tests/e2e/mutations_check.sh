#!/bin/bash
# SPDX-License-Identifier: MIT
# The mutation bench cannot go stale: every entry of tests/mutations.tsv
# still names text found in its file (`tests/mutate.sh --check`: applies
# and builds nothing), the list holds at least 40 mutations, and --check
# does fail on an entry whose text is gone.
set -eu
. "$(dirname "$0")/lib/common.sh"
src=${XRUN_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
out=$(bash "$src/tests/mutate.sh" --check 2>&1) || fail "stale entries: $out"
n=$(grep -cv '^#' "$src/tests/mutations.tsv")
[ "$n" -ge 40 ] || fail "tests/mutations.tsv holds $n mutations, fewer than 40"
echo "$out" | grep -qx "mutate: $n of $n entries apply" || fail "count: $out"

# A copy of the bench with one entry gone stale must fail, naming it.
xr_tmpdir T
mkdir -p "$T/tests" "$T/runner/plan"
cp "$src/tests/mutate.sh" "$T/tests/"
printf 'int x;\n' >"$T/runner/plan/a.c"
printf 'ok\tplan\trunner/plan/a.c\tint x;\tint y;\tunit/t\tx\n' >"$T/tests/mutations.tsv"
printf 'gone\tplan\trunner/plan/a.c\tint z;\tint y;\tunit/t\tx\n' >>"$T/tests/mutations.tsv"
if out=$(bash "$T/tests/mutate.sh" --check 2>&1); then
	fail "--check passed a stale entry: $out"
fi
echo "$out" | grep -q "mutations.tsv:2: gone: STALE (text not found in runner/plan/a.c)" ||
	fail "stale entry not named: $out"
echo "$out" | grep -qx "mutate: 1 of 2 entries apply" || fail "count: $out"
echo "ok - $n mutations, every one applies; a stale one fails --check"
