#!/bin/bash
# SPDX-License-Identifier: MIT
# queue streams rep -> "result: <MB/s>": 1000 x streams, queue b 10% above
# a, a little noise by rep
noise=(0 3 -2)
base=$((1000 * $2))
[ "$1" = b ] && base=$((base + base / 10))
echo "result: $((base + ${noise[$(($3 % 3))]})) MB/s"
