#!/bin/bash
# SPDX-License-Identifier: MIT
# speed mode rep -> "result: <bit/s>"; noise in per mille from rep and mode
noise=(0 3 -2 1 -3 2 -1 0 2 -2)
n=${noise[$(( ($3 * 7 + ${#2} * 3) % 10 ))]}
base=2000000000
[ "$1" = fast ] && base=2200000000
echo "result: $(( base + base / 1000 * n )) bit/s"
