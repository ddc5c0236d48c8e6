#!/bin/bash
# SPDX-License-Identifier: MIT
# Exclusion scale: a plan of 100 x 100 x 2 = 20,000 cells with N
# exclusions (default 10,000, each naming one level of all three factors:
# half the cells go) for the command engine (/bin/true); `xrun validate`,
# `xrun plan` and `xrun plan --json` timed: wall, user CPU, peak RSS (GNU
# time), and the load average.
# Usage: bash bench/exclude-scale.sh [N] [XRUN]   (XRUN: build/xrun)
set -eu
n=${1:-10000}
xrun=${2:-${XRUN:-build/xrun}}
[ -x "$xrun" ] || { echo "no xrun binary at '$xrun'" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "install GNU time: apt-get install time" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 - "$n" > "$dir/ex.yaml" <<'PY'
import sys
n, L = int(sys.argv[1]), 100
print("xrun: 1\nname: ex\nengine: { type: command, run: [/bin/true] }")
print("factors:")
print("  a: { levels: [%s] }" % ", ".join("a%d" % i for i in range(L)))
print("  b: { levels: [%s] }" % ", ".join("b%d" % i for i in range(L)))
print("  c: { levels: [c0, c1] }\nexclude:")
for i in range(n):
    print("  - { a: a%d, b: b%d, c: c0 }" % (i % L, (i // L) % L))
PY
for cmd in "validate" "plan" "plan --json"; do
	# shellcheck disable=SC2086
	/usr/bin/time -f '%e %U %M' -o "$dir/t" "$xrun" $cmd "$dir/ex.yaml" \
		> /dev/null 2>&1 || { echo "xrun $cmd failed" >&2; exit 1; }
	read -r wall user rss < "$dir/t"
	printf 'xrun %-12s %s s wall, %s s user, %s KB peak\n' "$cmd" "$wall" \
		"$user" "$rss"
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
