#!/bin/bash
# SPDX-License-Identifier: MIT
# slot rep -> "result: <MB/s>": pcie3x4 10% above pcie3x1, noise by rep
noise=(0 3 -2 1)
base=1000
[ "$1" = pcie3x4 ] && base=1100
echo "result: $((base + ${noise[$(($2 % 4))]})) MB/s"
