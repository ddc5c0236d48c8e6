#!/bin/bash
# SPDX-License-Identifier: MIT
# queue rep -> "result: <MB/s>": b 10% above a, a little noise by rep.
# The first run of b fails once (while ./fail-once, made by setup, exists).
if [ "$1" = b ] && [ -e fail-once ]; then
	rm -f fail-once
	echo "gen.sh: b fails once" >&2
	exit 1
fi
noise=(0 3 -2)
base=1000
[ "$1" = b ] && base=1100
echo "result: $((base + ${noise[$(($2 % 3))]})) MB/s"
