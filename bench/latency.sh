#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Latency under load (issue 19): how close is xrun's probe (ping, or irtt
# with PROBE=irtt) to the same bare probe run beside bare iperf3 on the
# same link, and what does the probe cost the engine? Two labs, one after
# the other:
#  1. fidelity: `xrun lab up --rate 20mbit --latency 200ms --bottleneck
#     router` (a deep queue away from the sender, docs/lab.md); blocks
#     bare, xrun, xrun, bare of RUNS runs each (iperf3 -C cubic for DUR s;
#     bare: `ping -n -D -i 0.1` started 2 s before iperf3, the replies
#     split by the send time of their probe, as xrun splits them; irtt:
#     `irtt server` in the server namespace and `irtt client -i 100ms
#     -o FILE.json`, its round trips split by their client send stamps). Prints
#     the median over runs of the idle p50 and the loaded p50 of each side.
#  2. cost: `xrun lab up --rate 1000mbit` (the ends' egress); xrun runs
#     without and with the probe in blocks off, on, on, off; prints the
#     median receiver throughput of each and their ratio.
# Usage (root): [PROBE=ping|irtt] bash bench/latency.sh [RUNS] [DUR_S]
# (defaults ping, 3, 8)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
xrun=${XRUN:-$top/build/xrun}
runs=${1:-3}
dur=${2:-8}
probe_name=${PROBE:-ping}
case $probe_name in ping | irtt) ;; *) echo "PROBE: ping or irtt" >&2; exit 1 ;; esac
pfx=xlb$((RANDOM % 100))
port=$((20000 + RANDOM % 12000))
work=$(mktemp -d)
[ "$(id -u)" = 0 ] || { echo "root is needed (namespaces)" >&2; exit 1; }
[ -x "$xrun" ] || { echo "build xrun first" >&2; exit 1; }
trap '"$xrun" lab down --prefix $pfx >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
echo "# $(date -u +%FT%TZ) probe $probe_name, load: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cpus"

bare_run() { # tag
  ip netns exec "$pfx-server" iperf3 -s -1 -p "$port" >/dev/null 2>&1 &
  local srv=$! a b
  sleep 0.5
  local is=
  if [ "$probe_name" = irtt ]; then
    ip netns exec "$pfx-server" irtt server -b 198.18.0.2:2112 >/dev/null 2>&1 &
    is=$!
    sleep 0.3
    ip netns exec "$pfx-client" irtt client -i 100ms -d $((dur + 4))s \
      --wait=1s -o "$work/irtt-$1.json" 198.18.0.2:2112 >/dev/null 2>&1 &
  else
    ip netns exec "$pfx-client" ping -n -D -i 0.1 -W 1 -w $((dur + 5)) \
      198.18.0.2 >"$work/ping-$1.txt" 2>&1 &
  fi
  local pp=$!
  sleep 2
  a=$(date +%s.%N)
  ip netns exec "$pfx-client" iperf3 -c 198.18.0.2 -p "$port" -t "$dur" \
    -C cubic >/dev/null
  b=$(date +%s.%N)
  wait $pp || true
  wait $srv || true
  if [ -n "$is" ]; then kill "$is"; wait "$is" || true; fi
  echo "$a $b" >"$work/span-$1.txt"
}

plan() { # name, latency line or "", congestion
  cat <<PLAN
xrun: 1
name: $1
hosts:
  client: {netns: $pfx-client, address: 198.18.0.1, iface: $pfx-veth}
  server: {netns: $pfx-server, address: 198.18.0.2, iface: $pfx-veth}
engine:
  type: iperf3
  client: client
  server: { host: server, start: true }
  port: $((port + 1))
  duration: ${dur}s
  congestion: $3
repeat: $runs
$2
PLAN
}

xrun_block() { # block, latency line, congestion
  plan "lat$1" "$2" "$3" >"$work/plan-$1.yaml"
  "$xrun" run "$work/plan-$1.yaml" --db "$work/x$1.db" --unattended --yes \
    2>"$work/xrun-$1.err" || { cat "$work/xrun-$1.err" >&2; exit 1; }
}

probe="latency: { probe: $probe_name, from: client, to: server, interval: 100ms, idle: 2s }"

# 1. fidelity on a deep router queue
"$xrun" lab up --rate 20mbit --latency 200ms --bottleneck router \
  --prefix "$pfx" >"$work/lab.txt"
for i in $(seq "$runs"); do bare_run "a$i"; done
xrun_block 1 "$probe" cubic
xrun_block 2 "$probe" cubic
for i in $(seq "$runs"); do bare_run "b$i"; done
python3 - "$work" "$runs" <<'PY'
import glob, json, os, re, sqlite3, sys
from statistics import median
work = sys.argv[1]
bare_idle, bare_load = [], []
for span in sorted(glob.glob(work + "/span-*.txt")):
    tag = span.rsplit("span-", 1)[1][:-4]
    a, b = map(float, open(span).read().split())
    idle, load = [], []
    pts = []
    if os.path.exists("%s/irtt-%s.json" % (work, tag)):
        for rt in json.load(open("%s/irtt-%s.json" % (work, tag)))["round_trips"]:
            if rt["lost"] == "false":
                pts.append((rt["timestamps"]["client"]["send"]["wall"] / 1e9,
                            rt["delay"]["rtt"] / 1e9))
    else:
        for line in open("%s/ping-%s.txt" % (work, tag)):
            m = re.match(r"\[([0-9.]+)\] .* time=([0-9.]+) ms", line)
            if m:
                rtt = float(m[2]) / 1e3
                pts.append((float(m[1]) - rtt, rtt))
    for sent, rtt in pts:
        (idle if sent < a else load if sent <= b else []).append(rtt)
    bare_idle.append(median(idle))
    bare_load.append(median(load))
xr = {"latency.idle_p50": [], "latency.loaded_p50": []}
for db in ("x1", "x2"):
    c = sqlite3.connect("%s/%s.db" % (work, db))
    for n, v in c.execute("select metric, value from results where status = 'ok' "
                          "and metric in ('latency.idle_p50', 'latency.loaded_p50')"):
        xr[n].append(v)
bi, bl = median(bare_idle), median(bare_load)
xi, xl = median(xr["latency.idle_p50"]), median(xr["latency.loaded_p50"])
print("| idle p50 | %.3f ms | %.3f ms | %+.3f ms |" % (bi * 1e3, xi * 1e3, (xi - bi) * 1e3))
print("| loaded p50 | %.1f ms | %.1f ms | %+.1f ms (%+.1f%%) |"
      % (bl * 1e3, xl * 1e3, (xl - bl) * 1e3, (xl / bl - 1) * 100))
print("# runs: bare loaded %s; xrun loaded %s (ms)" % (
    " ".join("%.1f" % (x * 1e3) for x in bare_load),
    " ".join("%.1f" % (x * 1e3) for x in xr["latency.loaded_p50"])))
PY
"$xrun" lab down --prefix "$pfx" >/dev/null

# 2. the probe's cost on throughput
"$xrun" lab up --rate 1000mbit --prefix "$pfx" >"$work/lab2.txt"
xrun_block 3 "" bbr
xrun_block 4 "$probe" bbr
xrun_block 5 "$probe" bbr
xrun_block 6 "" bbr
python3 - "$work" <<'PY'
import sqlite3, sys
from statistics import median
work = sys.argv[1]
def thr(dbs):
    v = []
    for db in dbs:
        c = sqlite3.connect("%s/%s.db" % (work, db))
        v += [r[0] for r in c.execute("select value from results where status = 'ok' "
                                      "and metric = 'throughput'")]
    return v
off, on = thr(("x3", "x6")), thr(("x4", "x5"))
print("| throughput, 1000mbit | %.1f Mbit/s (n=%d) | %.1f Mbit/s (n=%d) | %+.2f%% |"
      % (median(off) / 1e6, len(off), median(on) / 1e6, len(on),
         (median(on) / median(off) - 1) * 100))
PY
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
