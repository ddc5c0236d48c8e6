#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 34 Deliver 4 (root only): latency under load explained against the
# queue the facts allow. `xrun lab up --rate 100mbit --bottleneck router`
# puts the queue in a router namespace (TCP small queues keep a sender's
# own qdisc nearly empty: docs/lab.md), named here as a plan host so its
# facts are read; a factor's apply hook sets the router's tbf queue limit
# to 250000 or 2500000 B; iperf3 with a 512K window (the kernel makes
# its advertised window about 850 KB); ping from client to server. With
# --metric latency.loaded_p50, each cell's ceiling is its median idle RTT
# plus limit x 8 / rate (tc-tbf(8); the limit read back from tc's lat and
# burst: 249999 B -> 19.99992 ms, 2500000 B -> 200 ms; python3 below):
#   250000:  the queue overflows (retransmits), the RTT swings below its
#            full 20 ms as CUBIC backs off: `queue` (queue-bound)
#   2500000: a plateau far below the 200 ms the queue allows, the window
#            over the rate: `window` (window-bound; measured 0.85-0.91 of
#            window x 8 / rate: the receiver's unacknowledged data is in
#            the window but not in the queue. A 256K window, 0.81-0.84 of
#            it, sat too near EXPLAIN_WINDOW_FIT's 0.8)
# and neither line says drop (before: "3 drops/s: drop-bound" and "no
# limit found").
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need_root "xrun lab needs root (network namespaces)"
xr_need ip tc iperf3 sqlite3 python3 ping
P="xq$$"
P=${P:0:10}
xr_tmpdir T
xr_at_exit '"$XRUN" lab down --prefix "$P" >/dev/null 2>&1'
"$XRUN" lab up --rate 100mbit --bottleneck router --prefix "$P" >up.out ||
	fail "lab up exit $?: $(cat up.out)"
cat >l.yaml <<YAML
xrun: 1
name: facts-latency
hosts:
  client: {netns: $P-client, address: 198.18.0.1, iface: $P-veth}
  server: {netns: $P-server, address: 198.18.0.2, iface: $P-veth}
  router: {netns: $P-router, iface: $P-s}
engine:
  type: iperf3
  client: client
  server: { host: server, start: true }
  duration: 3s
  congestion: cubic
  window: 512K
factors:
  queue:
    levels: ["250000", "2500000"]
    apply: [tc, qdisc, replace, dev, "{{iface}}", root, tbf, rate, 100mbit, burst, 32kb, limit, "{{queue}}"]
    on: [router]
repeat: 2
sample: off
latency: { probe: ping, from: client, to: server, interval: 100ms, idle: 1s }
YAML
"$XRUN" run l.yaml --db l.db --unattended 2>run.err || { cat run.err; fail "run exit $?"; }
"$XRUN" report --db l.db --metric latency.loaded_p50 -o l.json 2>rep.err || { cat rep.err; fail "report exit $?"; }
python3 - l.json l.db <<'PY' || fail "latency against the queue: see above"
import json, sqlite3, statistics, sys
cells = json.load(open(sys.argv[1]))["cells"]
db = sqlite3.connect(sys.argv[2])
want = {"250000": ("queue", 249999 * 8 / 100e6), "2500000": ("window", 2500000 * 8 / 100e6)}
bad = 0
for c in cells:
    q = c["cell"]["queue"]
    kind, delay = want[q]
    idle = statistics.median(v for v, in db.execute(
        "select m.value from metrics m join runs r on r.id = m.run_id where "
        "r.status = 'ok' and m.name = 'latency.idle_p50' and "
        "json_extract(r.cell, '$.queue') = ?", (q,)))
    l = c["limit"]
    print("# queue %s B: %s" % (q, l["text"]))
    if (l["kind"] != kind or abs(l["ceiling"] / (idle + delay) - 1) > 0.01
            or "drop" in l["text"]):
        print("# want %s, ceiling %.6f s (idle %.6f + %.6f)" % (kind, idle + delay, idle, delay))
        bad += 1
sys.exit(1 if bad or len(cells) != 2 else 0)
PY
echo "ok - loaded RTT against the tbf's queue: queue-bound when it overflows, window-bound on a plateau below it"
