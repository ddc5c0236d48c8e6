#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Sampling (issue 18): does sampling every host during a run change what
# iperf3 measures, and what does it cost? The same iperf3 test over a lab
# link shaped with tbf (`xrun lab up --rate RATE`: two namespaces, a veth
# pair), bare and through xrun with `sample: off`, `1s` and `100ms`, in
# blocks ordered bare, off, 1s, 100ms, 100ms, 1s, off, bare so that drift
# is not mistaken for an effect. Prints each block's median receiver
# throughput, the ratio of medians to bare per variant, xrun's own CPU
# (the summary's RUSAGE_SELF, sampler threads included) per engine second
# and its increase over `off` (what sampling the two netns hosts
# in-process costs: their sampler threads), the CPU of xrun with all its
# children per engine second (iperf3, and the far-side sampler loops
# when a namespace cannot be entered) and its increase over `off`, and
# the sampled points per run hour (XRUN_SERIES_DUMP).
# Usage (root): bash bench/sampling.sh [RUNS_PER_BLOCK] [DURATION_S] [RATE]
#   (defaults 5, 5, 1000mbit)
set -eu
. "$(dirname "$0")/lib.sh"
runs=${1:-5}
dur=${2:-5}
rate=${3:-1000mbit}
bench_lab xsb --rate "$rate"

xrun_block() { # block number, sample:
  bench_plan "sampling$1" "$runs" "$dur" "sample: $2" >"$work/plan-$1.yaml"
  XRUN_SERIES_DUMP=1 /usr/bin/time -f "%U %S" -o "$work/time-$1" \
    "$xrun" run "$work/plan-$1.yaml" --db "$work/x$1.db" --unattended --yes \
    2>"$work/xrun-$1.err" || { cat "$work/xrun-$1.err" >&2; exit 1; }
  echo "$2" >"$work/variant-$1"
}

bench_bare 1 "$runs" "$dur"
xrun_block 2 off
xrun_block 3 1s
xrun_block 4 100ms
xrun_block 5 100ms
xrun_block 6 1s
xrun_block 7 off
bench_bare 8 "$runs" "$dur"
python3 - "$work" "$rate" "$runs" "$dur" <<'PY'
import glob, json, os, re, sqlite3, statistics, sys, time
work, rate, runs, dur = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
med = lambda v: statistics.median(v) / 1e6
rows, by, notes = [], {}, set()
for b in range(1, 9):
    if b in (1, 8):
        v = [json.load(open(f))["end"]["sum_received"]["bits_per_second"]
             for f in sorted(glob.glob(f"{work}/bare-{b}-*.json"))]
        var, own, tree, pts = "bare", None, None, None
    else:
        var = open(f"{work}/variant-{b}").read().strip()
        db = sqlite3.connect(f"{work}/x{b}.db")
        v = [r[0] for r in db.execute(
            "select value from results where metric='throughput' and status='ok'")]
        err = open(f"{work}/xrun-{b}.err").read()
        own = float(re.findall(r"xrun cpu ([0-9.]+) s", err)[-1])
        u, s = open(f"{work}/time-{b}").read().split()[-2:]
        tree = float(u) + float(s)
        pts = sum(int(n) for n in re.findall(r"^xrun: series .* n=(\d+)", err, re.M))
        notes.update(r[0] for r in db.execute("select note from series_notes"))
    by.setdefault(var, []).append((v, own, tree, pts))
    rows.append((b, var, v))
print(f"rate {rate}; {runs} runs x {dur:g} s per block; {os.cpu_count()} cpus, "
      f"load {os.getloadavg()[0]:.1f}; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
print("block  variant  median Mbit/s  min..max")
for b, var, v in rows:
    print(f"{b:5}  {var:7}  {med(v):13.1f}  {min(v)/1e6:.1f}..{max(v)/1e6:.1f}")
bare = [x for v, *_ in by["bare"] for x in v]
eng = 2 * runs * dur  # engine seconds per variant (two blocks)
off_tree = sum(t for _, _, t, _ in by["off"])
off_own = sum(o for _, o, _, _ in by["off"])
for var in ("off", "1s", "100ms"):
    allv = [x for v, *_ in by[var] for x in v]
    own = sum(o for _, o, _, _ in by[var])
    tree = sum(t for _, _, t, _ in by[var])
    pts = sum(p for *_, p in by[var])
    print(f"{var:6} ratio of medians xrun/bare {statistics.median(allv)/statistics.median(bare):.4f}; "
          f"xrun own cpu {100*own/eng:.2f}% of a core ({100*(own-off_own)/eng:+.2f}% over off: "
          f"in-process sampling); xrun+children {100*tree/eng:.2f}% "
          f"({100*(tree-off_tree)/eng:+.2f}% over off); points per run hour "
          f"{pts/eng*3600:.0f}")
for n in sorted(notes):
    print(f"note: {n}")
PY
