#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 34 (root only): the MTU set per level by a hook, behind the lab's
# 300mbit tbf (`xrun lab up --rate 300mbit`: a tbf on each end). The fact
# set read again after the hook gives each cell its own MTU, so each is
# explained at its own: 300e6 x (1500 - 52) / (1500 + 14) = 286922060.8
# bit/s at 1500, 300e6 x (9000 - 52) / (9000 + 14) = 297803416.9 at 9000
# (python3 below; schema/report.md "Limits"): both `line` within 1% of
# their own ceiling, fraction 0.95-1.05 (before fact sets the 9000 cells
# read "103.6% of 287 Mbit/s ... at MTU 1500"). The System table shows the
# MTU per level on both hosts.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need_root "xrun lab needs root (network namespaces)"
xr_need ip tc iperf3 sqlite3 python3
P="xm$$"
P=${P:0:10}
xr_tmpdir T
xr_at_exit '"$XRUN" lab down --prefix "$P" >/dev/null 2>&1'
"$XRUN" lab up --rate 300mbit --prefix "$P" >up.out || fail "lab up exit $?: $(cat up.out)"
cat >m.yaml <<YAML
xrun: 1
name: facts-mtu
hosts:
  client: {netns: $P-client, address: 198.18.0.1, iface: $P-veth}
  server: {netns: $P-server, address: 198.18.0.2, iface: $P-veth}
engine:
  type: iperf3
  client: client
  server: { host: server, start: true }
  duration: 2s
factors:
  mtu:
    levels: ["1500", "9000"]
    apply: [ip, link, set, dev, "{{iface}}", mtu, "{{mtu}}"]
    on: [client, server]
repeat: 2
sample: off
YAML
"$XRUN" run m.yaml --db m.db --unattended 2>run.err || { cat run.err; fail "run exit $?"; }
"$XRUN" report --db m.db -o m.json 2>rep.err || { cat rep.err; fail "report exit $?"; }
"$XRUN" report --db m.db -o m.md 2>rep.err || { cat rep.err; fail "report md exit $?"; }
python3 - m.json <<'PY' || fail "MTU per level: see above"
import json, sys
cells = json.load(open(sys.argv[1]))["cells"]
bad = 0
for c in cells:
    mtu = int(c["cell"]["mtu"])
    want = 300e6 * (mtu - 52) / (mtu + 14)
    l = c["limit"]
    print("# MTU %d: %s" % (mtu, l["text"]))
    if (l["kind"] != "line" or abs(l["ceiling"] / want - 1) > 0.01 or
            not 0.95 <= l["fraction"] <= 1.05 or
            "TCP at MTU %d" % mtu not in l["ceiling_name"]):
        print("# want line at MTU %d, ceiling %.0f within 1%%" % (mtu, want))
        bad += 1
sys.exit(1 if bad or len(cells) != 2 else 0)
PY
grep -q "| MTU | 1500 (mtu=1500) / 9000 (mtu=9000) | 1500 (mtu=1500) / 9000 (mtu=9000) |" m.md ||
	fail "System table: $(grep '| MTU' m.md)"
echo "ok - MTU 1500/9000 set by a hook: each cell at its own MTU's ceiling"
