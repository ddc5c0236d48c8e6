#!/bin/sh
# A model shaper for tests/e2e/run_search.sh: at offered load $1 it
# "loses" 1 - 437/$1 above 437 and nothing below; sleeps $2 seconds first.
[ "${2:-0}" = 0 ] || sleep "$2"
awk -v r="$1" 'BEGIN { l = r <= 437 ? 0 : 1 - 437 / r; printf "lost %.9f\n", l }'
