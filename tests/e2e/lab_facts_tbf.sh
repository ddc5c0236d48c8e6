#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 34's bar (root only): a factor whose apply hook sets the client's
# tbf to 200mbit or 400mbit on the lab's unshaped veth pair. Each cell is
# explained from its own runs' facts (the fact set read again after the
# hook): both cells `line` in JSON cells[].limit, each with its own ceiling,
# rate x 1448 / 1514 (tbf counts the frame without FCS: schema/report.md
# "Limits"; python3 here: 191281373.84 and 382562747.69 bit/s) within 1%,
# fraction 0.95-1.05. Before fact sets both cells took the session's last
# tbf. The store holds a set per level (cause apply, factor rate), each
# run naming its level's; the System table shows the qdisc per level.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need_root "xrun lab needs root (network namespaces)"
xr_need ip tc iperf3 sqlite3 python3
P="xf$$"
P=${P:0:10}
xr_tmpdir T
xr_at_exit '"$XRUN" lab down --prefix "$P" >/dev/null 2>&1'
"$XRUN" lab up --prefix "$P" >up.out || fail "lab up exit $?: $(cat up.out)"
cat >t.yaml <<YAML
xrun: 1
name: facts-tbf
hosts:
  client: {netns: $P-client, address: 198.18.0.1, iface: $P-veth}
  server: {netns: $P-server, address: 198.18.0.2, iface: $P-veth}
engine:
  type: iperf3
  client: client
  server: { host: server, start: true }
  duration: 2s
factors:
  rate:
    levels: [200mbit, 400mbit]
    apply: [tc, qdisc, replace, dev, "{{iface}}", root, tbf, rate, "{{rate}}", burst, 300kb, latency, 20ms]
    on: [client]
repeat: 2
sample: off
YAML
"$XRUN" run t.yaml --db t.db --unattended 2>run.err || { cat run.err; fail "run exit $?"; }
"$XRUN" report --db t.db -o t.json 2>rep.err || { cat rep.err; fail "report exit $?"; }
"$XRUN" report --db t.db -o t.md 2>rep.err || { cat rep.err; fail "report md exit $?"; }
python3 - t.json <<'PY' || fail "the bar: see above"
import json, sys
cells = json.load(open(sys.argv[1]))["cells"]
bad = 0
for c in cells:
    rate = {"200mbit": 200e6, "400mbit": 400e6}[c["cell"]["rate"]]
    want = rate * 1448 / 1514
    l = c["limit"]
    print("# %s: %s" % (c["cell"]["rate"], l["text"]))
    if l["kind"] != "line" or abs(l["ceiling"] / want - 1) > 0.01 or not 0.95 <= l["fraction"] <= 1.05:
        print("# want line, ceiling %.0f within 1%%, fraction 0.95-1.05" % want)
        bad += 1
sys.exit(1 if bad or len(cells) != 2 else 0)
PY
q t.db "select count(*) from fact_sets where host = 'client' and cause = 'apply' and factor = 'rate'" >n.txt
[ "$(cat n.txt)" -ge 2 ] || fail "apply sets: $(q t.db 'select * from fact_sets')"
# each ok run names a set whose qdisc_root is its own level's rate
[ "$(q t.db "select count(*) from runs r join run_facts f on f.run_id = r.id and f.host = 'client'
	join fact_values v on v.set_id = f.set_id and v.key = 'qdisc_root'
	where r.status = 'ok' and v.value = 'tbf ' || ((json_extract(r.cell, '\$.rate') + 0) * 1000000)")" = 4 ] ||
	fail "runs and their sets: $(q t.db "select r.id, r.cell, v.value from runs r join run_facts f on f.run_id = r.id join fact_values v on v.set_id = f.set_id and v.key = 'qdisc_root'")"
grep -q "| Root qdisc | tbf 200000000 (rate=200mbit) / tbf 400000000 (rate=400mbit) |" t.md ||
	fail "System table: $(grep -i qdisc t.md)"
echo "ok - a hook-set tbf per level: both cells line at their own tbf's ceiling"
