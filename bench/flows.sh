#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Many-to-one (issue 19, engine.flows): does xrun's two-flow run measure
# what two bare iperf3 clients started together measure on the same shaped
# link? `xrun lab up --rate RATE` (two namespaces, tbf on the ends'
# egress); bare: two `iperf3 -s` in the server namespace and two
# `iperf3 -c -J` from the client namespace started together (`&`, then
# wait), their receivers' sums added; xrun: `flows: 2` with its servers.
# Blocks bare, xrun, xrun, bare. Prints each block's median sum, the ratio
# of medians xrun / bare, and the split between the two flows.
# Usage (root): bash bench/flows.sh [RUNS_PER_BLOCK] [DURATION_S] [RATE]
#   (defaults 3, 3, 200mbit)
set -eu
. "$(dirname "$0")/lib.sh"
runs=${1:-3}
dur=${2:-3}
rate=${3:-200mbit}
bench_lab xfl --rate "$rate"

bare_block() { # block
	local s1 s2 i c1 c2
	ip netns exec "$pfx-server" iperf3 -s -p "$port" >/dev/null 2>&1 &
	s1=$!
	ip netns exec "$pfx-server" iperf3 -s -p $((port + 1)) >/dev/null 2>&1 &
	s2=$!
	sleep 0.5
	for i in $(seq "$runs"); do
		ip netns exec "$pfx-client" iperf3 -c 198.18.0.2 -p "$port" \
			-t "$dur" -J >"$work/bare-$1-$i-1.json" &
		c1=$!
		ip netns exec "$pfx-client" iperf3 -c 198.18.0.2 -p $((port + 1)) \
			-t "$dur" -J >"$work/bare-$1-$i-2.json" &
		c2=$!
		wait $c1 $c2
	done
	kill $s1 $s2
	wait $s1 $s2 2>/dev/null || true
}

xrun_block() { # block
	cat >"$work/plan-$1.yaml" <<PLAN
xrun: 1
name: flows$1
hosts:
  client: {netns: $pfx-client, address: 198.18.0.1, iface: $pfx-veth}
  server: {netns: $pfx-server, address: 198.18.0.2, iface: $pfx-veth}
engine:
  type: iperf3
  client: client
  server: { host: server, start: true }
  port: $((port + 2))
  flows: 2
  duration: ${dur}s
repeat: $runs
PLAN
	"$xrun" run "$work/plan-$1.yaml" --db "$work/x$1.db" --unattended --yes \
		2>"$work/xrun-$1.err" || { cat "$work/xrun-$1.err" >&2; exit 1; }
}

bare_block 1
xrun_block 2
xrun_block 3
bare_block 4
python3 - "$work" "$rate" "$runs" <<'PY'
import json, os, sqlite3, statistics, sys, time
work, rate, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
rx = lambda f: json.load(open(f))["end"]["sum_received"]["bits_per_second"]
bare, xr = {}, {}
for b in (1, 4):
    bare[b] = [[rx(f"{work}/bare-{b}-{i}-{k}.json") for k in (1, 2)]
               for i in range(1, runs + 1)]
for b in (2, 3):
    db = sqlite3.connect(f"{work}/x{b}.db")
    xr[b] = [[db.execute("select value from metrics where run_id=? and name=?",
                         (r, f"throughput.flow{k}")).fetchone()[0] for k in (1, 2)]
             for (r,) in db.execute("select id from runs where status='ok' order by id")]
    for (r, s) in db.execute("select run_id, value from metrics where name='throughput'"):
        f = [v for (v,) in db.execute("select value from metrics where run_id=? and name like 'throughput.flow_'", (r,))]
        assert s == sum(f), (s, f)
m = lambda v: statistics.median(v) / 1e6
print(f"rate {rate}; {os.cpu_count()} cpus, load {os.getloadavg()[0]:.1f}; "
      f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
print("block  variant  runs  median sum Mbit/s  median flow1/flow2")
for b in (1, 2, 3, 4):
    v = bare.get(b) or xr.get(b)
    print(f"{b:5}  {'bare' if b in bare else 'xrun':7}  {len(v):4}  "
          f"{m([a + c for a, c in v]):17.2f}  {statistics.median([a / c for a, c in v]):.3f}")
ab = [a + c for a, c in bare[1] + bare[4]]
ax = [a + c for a, c in xr[2] + xr[3]]
print(f"median sum bare {m(ab):.2f} Mbit/s, xrun {m(ax):.2f} Mbit/s, "
      f"ratio of medians xrun/bare {m(ax) / m(ab):.4f}")
PY
