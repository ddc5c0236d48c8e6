#!/usr/bin/env bash
# How visible is xrun to the measurement? Runs the same iperf3 loopback
# test N times bare and N times through xrun, and prints:
#   - median throughput, bare vs through xrun (Gbit/s)
#   - per-run wall-clock overhead of xrun (total / runs - bare per run)
#   - xrun's own CPU time (user+sys, its own process only, from the
#     summary line xrun prints) per run and per second of engine time
# Usage: bash bench/overhead.sh [RUNS] [DURATION_S]   (defaults 10, 2)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
xrun=${XRUN:-$top/build/xrun}
runs=${1:-10}
dur=${2:-2}
port=$((20000 + RANDOM % 20000))
work=$(mktemp -d)
trap 'kill $srv 2>/dev/null || true; rm -rf "$work"' EXIT
[ -x "$xrun" ] || { echo "build xrun first: cmake -B build && cmake --build build" >&2; exit 1; }

iperf3 -s -p "$port" >/dev/null 2>&1 &
srv=$!
sleep 0.5
t0=$(date +%s.%N)
for i in $(seq "$runs"); do
  iperf3 -c 127.0.0.1 -p "$port" -t "$dur" -J >"$work/bare-$i.json"
done
t1=$(date +%s.%N)
kill $srv; wait $srv 2>/dev/null || true

cat >"$work/plan.yaml" <<PLAN
xrun: 1
name: overhead
engine:
  type: iperf3
  client: local
  server: { host: local, start: true }
  port: $((port + 1))
  duration: ${dur}s
factors:
  streams: { levels: [1], param: parallel }
repeat: $runs
counters: [nic, tcp, cpu, capture]
PLAN
t2=$(date +%s.%N)
"$xrun" run "$work/plan.yaml" --db "$work/o.db" --unattended --yes 2>"$work/xrun.err" || true
t3=$(date +%s.%N)
python3 - "$work" "$runs" "$t0" "$t1" "$t2" "$t3" <<'PY'
import json, sys, glob, statistics, sqlite3, re
work, runs = sys.argv[1], int(sys.argv[2])
t0, t1, t2, t3 = map(float, sys.argv[3:7])
bare = [json.load(open(f))["end"]["sum_received"]["bits_per_second"]
        for f in glob.glob(work + "/bare-*.json")]
db = sqlite3.connect(work + "/o.db")
xr = [r[0] for r in db.execute(
    "select value from results where metric='throughput' and status='ok'")]
err = open(work + "/xrun.err").read()
cpu = re.search(r"xrun cpu ([0-9.]+) s", err)
print(f"runs: {runs} bare, {len(xr)} through xrun")
print(f"median throughput bare : {statistics.median(bare)/1e9:.2f} Gbit/s")
if xr:
    print(f"median throughput xrun : {statistics.median(xr)/1e9:.2f} Gbit/s "
          f"({100*(statistics.median(xr)/statistics.median(bare)-1):+.1f}%)")
bare_per = (t1 - t0) / runs
xr_per = (t3 - t2) / runs
print(f"wall per run bare {bare_per:.3f} s, xrun {xr_per:.3f} s, "
      f"overhead {xr_per - bare_per:+.3f} s/run (incl. server start once)")
if cpu:
    c = float(cpu.group(1))
    print(f"xrun's own CPU: {c:.3f} s total, {1000*c/runs:.1f} ms/run")
else:
    print("xrun's own CPU: not reported (no 'xrun cpu' summary line)")
PY
