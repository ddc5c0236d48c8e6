#!/bin/bash
# SPDX-License-Identifier: MIT
# Known values for the verdict tests (tests/e2e/report_verdicts.sh): not a
# fake engine but the data a command engine measures, chosen so that every
# comparison's truth is known.
#   known_values.sh SCENARIO INDEX REP LEVEL [LEVEL2]
# prints "result: V bit/s" with V = 1e9 x (scenario's effect for the
# levels) x (1 + noise), the noise taken from a fixed table by run index
# (execution order), so drift and order are under the test's control.
scen=$1 idx=$2 rep=$3 l1=${4:-} l2=${5:-}
noise=(0.3 -0.2 0.1 -0.4 0.25 -0.05 0.35 -0.3 0.15 -0.1 0.2 -0.25 0.05
	-0.15 0.3 -0.35 0.1 -0.2 0.4 0.0 -0.3 0.2 -0.1 0.15)
e=${noise[$((idx % ${#noise[@]}))]}
[ "$scen" = failing ] && [ "$idx" = 3 ] && { echo "boom" >&2; exit 1; }
awk -v s="$scen" -v i="$idx" -v r="$rep" -v e="$e" -v l1="$l1" -v l2="$l2" '
BEGIN {
	v = 1e9; n = e / 100                      # noise: -0.4% .. +0.4%
	if (s == "drift")   v *= 1 + 0.01 * i + n / 5  # +1% per run, no effect
	if (s == "small")   v *= (l1 == "b" ? 1.01 : 1) * (1 + n)
	if (s == "up")      v *= (l1 == "b" ? 1.10 : 1) * (1 + n)
	if (s == "drop")    v *= (l1 == "b" ? 0.90 : 1) * (1 + n)
	if (s == "failing") v *= 1 + n
	if (s == "outlier") {                     # +5%, one B run halved
		v *= (l1 == "b" ? 1.05 : 1) * (1 + 2 * n)
		if (l1 == "b" && r == 2) v /= 2
	}
	if (s == "flat")    v *= (l1 == "b" ? 1.10 : 1)   # no noise at all
	if (s == "config")  v *= (l1 == "b" && l2 == "q" ? 1.10 : 1) * (1 + n)
	if (s == "pcie")    v *= (l1 == "lgy-pcie-mg3" ? 1.10 : 1) * (1 + n)
	printf "result: %.0f bit/s\n", v
}'
