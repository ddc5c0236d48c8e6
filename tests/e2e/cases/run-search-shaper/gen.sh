#!/bin/sh
# SPDX-License-Identifier: MIT
# A model shaper (as tests/e2e/lib/search_shaper.sh): at offered load $1
# it loses 1 - 437/$1 above 437 and nothing below; every trial carries
# 1651 datagrams.
awk -v r="$1" 'BEGIN { l = r <= 437 ? 0 : 1 - 437 / r; printf "lost %.9f\npackets 1651\n", l }'
