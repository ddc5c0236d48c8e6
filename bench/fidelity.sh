#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fidelity: does going through xrun change what iperf3 measures? The same
# iperf3 test over a shaped lab link (`xrun lab up --profile 2g5`: two
# namespaces joined by a veth pair with tbf at 2.5 Gbit/s), bare (`ip netns
# exec ... iperf3 -c`) and through xrun (netns hosts, server started by
# xrun, default counters), in interleaved blocks ordered bare, xrun, xrun,
# bare. Prints the median throughput of each block, the ratio of medians
# xrun / bare, and the spread of the bare runs for scale.
# Usage (root): bash bench/fidelity.sh [RUNS_PER_BLOCK] [DURATION_S] [PROFILE]
#   (defaults 6, 3, 2g5)
set -eu
. "$(dirname "$0")/lib.sh"
runs=${1:-6}
dur=${2:-3}
profile=${3:-2g5}
bench_lab xfb --profile "$profile"

xrun_block() { # block number
  bench_plan "fidelity$1" "$runs" "$dur" >"$work/plan-$1.yaml"
  "$xrun" run "$work/plan-$1.yaml" --db "$work/x$1.db" --unattended --yes \
    2>"$work/xrun-$1.err" || { cat "$work/xrun-$1.err" >&2; exit 1; }
}

bench_bare 1 "$runs" "$dur"
xrun_block 2
xrun_block 3
bench_bare 4 "$runs" "$dur"
python3 - "$work" "$profile" <<'PY'
import glob, json, os, sqlite3, statistics, sys, time
work, profile = sys.argv[1], sys.argv[2]
bare, xr = {}, {}
for b in (1, 4):
    bare[b] = [json.load(open(f))["end"]["sum_received"]["bits_per_second"]
               for f in sorted(glob.glob(f"{work}/bare-{b}-*.json"))]
for b in (2, 3):
    db = sqlite3.connect(f"{work}/x{b}.db")
    xr[b] = [r[0] for r in db.execute(
        "select value from results where metric='throughput' and status='ok'")]
g = lambda v: statistics.median(v) / 1e9
print(f"profile {profile}; {os.cpu_count()} cpus, load "
      f"{os.getloadavg()[0]:.1f}; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
print("block  variant  runs  median Gbit/s  min..max")
for b in (1, 2, 3, 4):
    v = bare.get(b) or xr.get(b)
    print(f"{b:5}  {'bare' if b in bare else 'xrun':7}  {len(v):4}  "
          f"{g(v):13.3f}  {min(v) / 1e9:.3f}..{max(v) / 1e9:.3f}")
ab, ax = bare[1] + bare[4], xr[2] + xr[3]
print(f"median bare {g(ab):.3f} Gbit/s, xrun {g(ax):.3f} Gbit/s, "
      f"ratio of medians xrun/bare {g(ax) / g(ab):.4f}")
print(f"bare runs: cv {100 * statistics.stdev(ab) / statistics.mean(ab):.2f}%")
PY
