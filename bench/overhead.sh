#!/usr/bin/env bash
# How visible is xrun to the measurement? The same iperf3 loopback test,
# bare and through xrun, in blocks ordered A B B A (bare, xrun, xrun,
# bare) so that drift of the machine does not pass for an xrun effect.
# Prints:
#   - median throughput bare vs through xrun, per block and overall
#   - per-run wall-clock overhead of xrun (xrun block time / runs minus
#     bare block time / runs; includes starting the iperf3 server once)
#   - xrun's own CPU (user+sys of the xrun process itself, from its
#     `xrun cpu N s` summary) per run
# Usage: bash bench/overhead.sh [RUNS_PER_BLOCK] [DURATION_S]  (defaults 8, 2)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
xrun=${XRUN:-$top/build/xrun}
runs=${1:-8}
dur=${2:-2}
port=$((20000 + RANDOM % 12000))
work=$(mktemp -d)
srv=
trap '[ -n "$srv" ] && kill $srv 2>/dev/null; rm -rf "$work"' EXIT
[ -x "$xrun" ] || { echo "build xrun first: cmake -B build && cmake --build build" >&2; exit 1; }

bare_block() { # block number
  iperf3 -s -p "$port" >/dev/null 2>&1 &
  srv=$!
  sleep 0.5
  local t0 t1 i
  t0=$(date +%s.%N)
  for i in $(seq "$runs"); do
    iperf3 -c 127.0.0.1 -p "$port" -t "$dur" -J >"$work/bare-$1-$i.json"
  done
  t1=$(date +%s.%N)
  kill $srv; wait $srv 2>/dev/null || true
  srv=
  echo "$t0 $t1" >"$work/bare-$1.time"
}

xrun_block() { # block number
  cat >"$work/plan-$1.yaml" <<PLAN
xrun: 1
name: overhead$1
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
  local t0 t1
  t0=$(date +%s.%N)
  "$xrun" run "$work/plan-$1.yaml" --db "$work/x$1.db" --unattended --yes \
    2>"$work/xrun-$1.err" || true
  t1=$(date +%s.%N)
  echo "$t0 $t1" >"$work/xrun-$1.time"
}

bare_block 1
xrun_block 2
xrun_block 3
bare_block 4
python3 - "$work" "$runs" <<'PY'
import json, sys, glob, statistics, sqlite3, re
work, runs = sys.argv[1], int(sys.argv[2])
def span(name):
    a, b = map(float, open(f"{work}/{name}.time").read().split())
    return b - a
bare, xr, cpu = {}, {}, []
for b in (1, 4):
    bare[b] = [json.load(open(f))["end"]["sum_received"]["bits_per_second"]
               for f in glob.glob(f"{work}/bare-{b}-*.json")]
for b in (2, 3):
    db = sqlite3.connect(f"{work}/x{b}.db")
    xr[b] = [r[0] for r in db.execute(
        "select value from results where metric='throughput' and status='ok'")]
    m = re.search(r"xrun cpu ([0-9.]+) s", open(f"{work}/xrun-{b}.err").read())
    if m:
        cpu.append(float(m.group(1)))
g = lambda v: statistics.median(v) / 1e9 if v else float("nan")
print("block  variant  runs  median Gbit/s")
for b in (1, 2, 3, 4):
    v = bare.get(b) or xr.get(b)
    print(f"{b:5}  {'bare' if b in bare else 'xrun':7}  {len(v):4}  {g(v):.2f}")
allb = bare[1] + bare[4]
allx = xr[2] + xr[3]
print(f"median throughput bare : {g(allb):.2f} Gbit/s")
print(f"median throughput xrun : {g(allx):.2f} Gbit/s "
      f"({100 * (g(allx) / g(allb) - 1):+.1f}%)")
bare_per = (span("bare-1") + span("bare-4")) / (2 * runs)
xr_per = (span("xrun-2") + span("xrun-3")) / (2 * runs)
print(f"wall per run bare {bare_per:.3f} s, xrun {xr_per:.3f} s, "
      f"overhead {xr_per - bare_per:+.3f} s/run (incl. server start once)")
if cpu:
    print(f"xrun's own CPU: {1000 * sum(cpu) / (2 * runs):.1f} ms/run "
          f"({sum(cpu):.3f} s over {2 * runs} runs)")
else:
    print("xrun's own CPU: not reported (no 'xrun cpu' summary line)")
PY
