#!/bin/bash
# SPDX-License-Identifier: MIT
# Verdict Monte Carlo (issue 9): run bench/verdict-mc.c, which simulates
# DESIGNS small interleaved A/B designs per scenario (6+6, 8+4, 9+3; equal
# and unequal noise; linear drift; two sessions with a step; no effect and
# +3%) and prints, per estimator, the share of 95% tests that reject and
# of 95% intervals that cover the true effect, as a Markdown table.
# With MODE "balanced": the balanced designs of issue 23 instead (n + n in
# ABBA order, n 3-16, equal and 4x noise, one or two sessions; HC3-BM,
# HC2-BM, HC2-BMG and the verdict, size and power at +1.5%).
# Usage: bash bench/verdict-mc.sh [DESIGNS] [SEED] [BIN] [MODE]
#   DESIGNS default 20000, SEED default 9, BIN default build/verdict-mc
set -eu
designs=${1:-20000}
seed=${2:-9}
bin=${3:-build/verdict-mc}
mode=${4:-}
[ -x "$bin" ] || { echo "no verdict-mc binary at '$bin' (cmake --build build --target verdict-mc)" >&2; exit 1; }
echo "machine: $(nproc) cores, $(uname -sr), $(date -u '+%Y-%m-%d %H:%M UTC'), load:$(uptime | sed 's/.*load average://')"
/usr/bin/time -f "time: %e s wall, %U s user" "$bin" "$designs" "$seed" $mode
