#!/bin/sh
# SPDX-License-Identifier: MIT
# A model shaper for tests/e2e/run_search.sh: at offered load $1 it
# "loses" 1 - C/$1 above C and nothing below (C = $3, default 437);
# sleeps $2 seconds first.
[ "${2:-0}" = 0 ] || sleep "$2"
awk -v r="$1" -v c="${3:-437}" 'BEGIN { l = r <= c ? 0 : 1 - c / r; printf "lost %.9f\n", l }'
