#!/bin/sh
# SPDX-License-Identifier: MIT
# A model shaper that loses 1 - 437/$1 above load 437 and nothing below,
# but fails (exit 1, no output) at its 1st, 3rd and 5th call, counted in
# file $2: an engine error now and then, never twice in a row.
n=$(($(cat "$2" 2>/dev/null || echo 0) + 1))
echo "$n" >"$2"
case $n in 1 | 3 | 5) echo "engine hiccup $n" >&2; exit 1 ;; esac
awk -v r="$1" 'BEGIN { l = r <= 437 ? 0 : 1 - 437 / r; printf "lost %.9f\n", l }'
