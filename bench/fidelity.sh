#!/usr/bin/env bash
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
top=$(cd "$(dirname "$0")/.." && pwd)
xrun=${XRUN:-$top/build/xrun}
runs=${1:-6}
dur=${2:-3}
profile=${3:-2g5}
pfx=xfb$((RANDOM % 100))
port=$((20000 + RANDOM % 12000))
work=$(mktemp -d)
[ "$(id -u)" = 0 ] || { echo "root is needed (namespaces)" >&2; exit 1; }
[ -x "$xrun" ] || { echo "build xrun first" >&2; exit 1; }
trap '"$xrun" lab down --prefix $pfx >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
"$xrun" lab up --profile "$profile" --prefix "$pfx" >"$work/lab.txt"

bare_block() { # block number
  ip netns exec "$pfx-server" iperf3 -s -p "$port" >/dev/null 2>&1 &
  local srv=$! i
  sleep 0.5
  for i in $(seq "$runs"); do
    ip netns exec "$pfx-client" iperf3 -c 198.18.0.2 -p "$port" -t "$dur" -J \
      >"$work/bare-$1-$i.json"
  done
  kill $srv; wait $srv 2>/dev/null || true
}

xrun_block() { # block number
  cat >"$work/plan-$1.yaml" <<PLAN
xrun: 1
name: fidelity$1
hosts:
  client: {netns: $pfx-client, address: 198.18.0.1, iface: $pfx-veth}
  server: {netns: $pfx-server, address: 198.18.0.2, iface: $pfx-veth}
engine:
  type: iperf3
  client: client
  server: { host: server, start: true }
  port: $((port + 1))
  duration: ${dur}s
factors:
  streams: { levels: [1], param: parallel }
repeat: $runs
PLAN
  "$xrun" run "$work/plan-$1.yaml" --db "$work/x$1.db" --unattended --yes \
    2>"$work/xrun-$1.err" || { cat "$work/xrun-$1.err" >&2; exit 1; }
}

bare_block 1
xrun_block 2
xrun_block 3
bare_block 4
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
