#!/bin/bash
# SPDX-License-Identifier: MIT
# WORK cell rep -> "result: <bit/s>". The session is counted from the
# cell's runs so far (3 a session): sessions 1-3 at 100 Mbit/s, session 4
# at 90 (a=x) or 110 (a=y); each run the level x (1 + (rep - 2) / 100).
echo >>"$1/count.$2"
s=$(( ($(wc -l <"$1/count.$2") - 1) / 3 + 1 ))
base=100000000
[ $s = 4 ] && [ "$2" = x ] && base=90000000
[ $s = 4 ] && [ "$2" = y ] && base=110000000
echo "result: $(( base + base / 100 * ($3 - 2) )) bit/s"
