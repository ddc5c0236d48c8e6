#!/bin/bash
# SPDX-License-Identifier: MIT
# cc rep -> "result: <MB/s>": y 10% above x, a little noise by rep
noise=(0 3 -2)
base=1000
[ "$1" = y ] && base=1100
echo "result: $((base + ${noise[$(($2 % 3))]})) MB/s"
