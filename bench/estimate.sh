#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# How close is `xrun plan`'s estimate to the real time of a session (issue
# 35 item 5)? Runs the README's demo (plans/loopback.yaml: iperf3 over
# loopback, 16 runs of 2 s, the default sampling) and a plan whose levels
# set iperf3's duration through params: (1 s and 3 s, repeat 3, 12 runs),
# each in a fresh directory: prints the estimate (`xrun plan --json`, no
# earlier store: the 0.35 s allowance), the session's wall time (from the
# start of `xrun run` to its exit, the iperf3 server's start included)
# and the difference. Usage: bash bench/estimate.sh
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
xrun=${XRUN:-$top/build/xrun}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
port=$((20000 + RANDOM % 12000))
cat >"$work/params.yaml" <<YAML
xrun: 1
name: estimate-params
engine:
  type: iperf3
  client: local
  server: { host: local, start: true }
  port: $port
  duration: 1s
factors:
  len:
    levels: [short, long]
    params:
      short: { duration: 1s }
      long: { duration: 3s }
repeat: 3
YAML
cp "$top/plans/loopback.yaml" "$work/loopback.yaml"
sed -i 's/^  output: .*$/  output: []/' "$work/loopback.yaml"
echo "machine: $(nproc) cpus, load $(cut -d' ' -f1 /proc/loadavg); $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "plan | runs | estimate s | real s | estimate/real"
for p in loopback params; do
  (cd "$work" && "$xrun" plan --json "$p.yaml" >"$p.json")
  est=$(python3 -c "import json; print(json.load(open('$work/$p.json'))['estimated_seconds'])")
  runs=$(python3 -c "import json; print(json.load(open('$work/$p.json'))['total_runs'])")
  t0=$(date +%s.%N)
  (cd "$work" && "$xrun" run "$p.yaml" --db "$p.db" --unattended --quiet 2>"$p.err") || { cat "$work/$p.err"; exit 1; }
  t1=$(date +%s.%N)
  python3 -c "e, r = $est, $t1 - $t0; print(f'$p | $runs | {e:.1f} | {r:.1f} | {e / r:.3f}')"
done
