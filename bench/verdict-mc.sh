#!/bin/bash
# Verdict Monte Carlo (issue 9): run bench/verdict-mc.c, which simulates
# DESIGNS small interleaved A/B designs per scenario (6+6, 8+4, 9+3; equal
# and unequal noise; linear drift; two sessions with a step; no effect and
# +3%) and prints, per estimator, the share of 95% tests that reject and
# of 95% intervals that cover the true effect, as a Markdown table.
# Usage: bash bench/verdict-mc.sh [DESIGNS] [SEED] [BIN]
#   DESIGNS default 20000, SEED default 9, BIN default build/verdict-mc
set -eu
designs=${1:-20000}
seed=${2:-9}
bin=${3:-build/verdict-mc}
[ -x "$bin" ] || { echo "no verdict-mc binary at '$bin' (cmake --build build --target verdict-mc)" >&2; exit 1; }
echo "machine: $(nproc) cores, $(uname -sr), $(date -u +%Y-%m-%d)"
/usr/bin/time -f "time: %e s wall, %U s user" "$bin" "$designs" "$seed"
