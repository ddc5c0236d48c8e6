#!/bin/bash
# SPDX-License-Identifier: MIT
# slot mode rep -> "result: <MB/s>": slot x4 with mode b fails (a card
# that does not come up); the others spread 100, 120, 110, 105 by rep,
# far too much for a 1% precision: each sized cell gets its max, 4 runs.
if [ "$1" = x4 ] && [ "$2" = b ]; then
	echo "gen: no link" >&2
	exit 1
fi
v=(100 120 110 105)
echo "result: ${v[$(( ($3 - 1) % 4 ))]} MB/s"
