#!/bin/bash
# SPDX-License-Identifier: MIT
# nic rep -> "result: <MB/s>": b is 10% above a; a little noise by rep
noise=(0 3 -2 1 -3 2 -1 0 2 -2)
n=${noise[$(( ($2 * 7 + ${#1} * 3) % 10 ))]}
base=1000
[ "$1" = b ] && base=1100
echo "result: $(( base + n )) MB/s"
