#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
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
#
# The cost of a run itself: bash bench/overhead.sh --noop [RUNS] [SIZES]
# [SAMPLED] (defaults 1000, "1000 1000000", 100) runs the command engine on
# /bin/true with the default counters (nic, tcp, cpu, capture) in sessions
# of each size with `sample: off`, then in a session of SAMPLED runs with
# the default sampling (`sample: 1s`: the samplers and their idle lead-in,
# what a user pays), and compares them with a shell loop running
# /bin/true, in the order loop, xrun per session, loop. For each session
# it prints:
#   - the session start: seconds from `xrun run` to the first run's line
#     (plan, schedule, inserting the pending runs), and xrun's CPU for it
#   - the steady per-run wall time over RUNS runs (from the 100th run's
#     line on), minus the shell loop's time per iteration
#   - xrun's own CPU per run over the same runs (utime+stime of the xrun
#     process from /proc, children excluded)
# Sessions larger than RUNS are interrupted (SIGINT) once RUNS are timed.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
xrun=${XRUN:-$top/build/xrun}
if [ "${1:-}" = "--noop" ]; then
  [ -x "$xrun" ] || { echo "build xrun first" >&2; exit 1; }
  exec python3 - "$xrun" "${2:-1000}" "${3:-1000 1000000}" "${4:-100}" <<'PY'
import os, subprocess, sys, tempfile, time
xrun, runs, sizes = sys.argv[1], int(sys.argv[2]), [int(x) for x in sys.argv[3].split()]
sampled = int(sys.argv[4])
tck = os.sysconf("SC_CLK_TCK")
work = tempfile.mkdtemp(prefix="xrun-bench-")

def loop(n):
    t0 = time.monotonic()
    subprocess.run(["bash", "-c", f"for i in $(seq {n}); do /bin/true; done"], check=True)
    return (time.monotonic() - t0) / n

def cpu(pid):
    with open(f"/proc/{pid}/stat") as f:
        v = f.read().rsplit(")", 1)[1].split()
    return (int(v[11]) + int(v[12])) / tck  # utime, stime

def plan(size, sample):
    # a x b levels, repeat 1: exactly `size` runs when size = a * b
    a = 1000 if size >= 1000 else 1
    b = size // a
    path = f"{work}/p{size}-{sample}.yaml"
    with open(path, "w") as f:
        f.write(f"""xrun: 1
name: noop{size}
engine:
  type: command
  run: ["/bin/true"]
factors:
  a: {{ levels: [{", ".join(f"a{i}" for i in range(a))}] }}
  b: {{ levels: [{", ".join(f"b{i}" for i in range(b))}] }}
repeat: 1
sample: {sample}
""")
    return path, a * b

def session(size, sample):
    path, n = plan(size, sample)
    skip = min(100, n // 10)
    want = min(runs, n - skip - 1)
    t0 = time.monotonic()
    p = subprocess.Popen([xrun, "run", path, "--db", f"{work}/s{size}-{sample}.db",
                          "--unattended", "--yes"], stderr=subprocess.PIPE, text=True)
    start = start_cpu = ta = ca = None
    k = 0
    for line in p.stderr:
        if "] " not in line or not line.startswith("xrun: ["):
            continue
        k += 1
        if k == 1:
            start, start_cpu = time.monotonic() - t0, cpu(p.pid)
        if k == skip + 1:
            ta, ca = time.monotonic(), cpu(p.pid)
        if k == skip + 1 + want:
            tb, cb = time.monotonic(), cpu(p.pid)
            break
    if k < n:
        p.send_signal(2)
    for _ in p.stderr:
        pass
    p.wait()
    return start, start_cpu, (tb - ta) / want, (cb - ca) / want, want

print(f"machine: {os.cpu_count()} cpus, load {os.getloadavg()[0]:.1f}; "
      f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
l1 = loop(runs)
res = {(s, "off"): session(s, "off") for s in sizes}
if sampled:
    res[(sampled, "1s")] = session(sampled, "1s")
l2 = loop(runs)
sh = (l1 + l2) / 2
print(f"shell loop /bin/true: {1000 * l1:.2f} / {1000 * l2:.2f} ms per iteration (before / after)")
print("session runs | sample | start s | start cpu s | wall/run ms | beyond loop ms | xrun cpu/run ms | timed runs")
for (s, smp), (st, sc, w, c, n) in res.items():
    print(f"{s:>12} | {smp:>6} | {st:7.2f} | {sc:11.2f} | {1000 * w:11.2f} | {1000 * (w - sh):+14.2f} | {1000 * c:15.2f} | {n}")
subprocess.run(["rm", "-rf", work])
PY
fi
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
