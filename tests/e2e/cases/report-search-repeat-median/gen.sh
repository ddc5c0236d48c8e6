#!/bin/sh
# SPDX-License-Identifier: MIT
# A model shaper whose capacity is 437 in repetition 1 ($2) and 733 in
# the others: at offered load $1 it loses 1 - C/$1 above C.
c=733
[ "$2" = 1 ] && c=437
awk -v r="$1" -v c="$c" 'BEGIN { l = r <= c ? 0 : 1 - c / r; printf "lost %.9f\n", l }'
