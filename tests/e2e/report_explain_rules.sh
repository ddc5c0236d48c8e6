#!/bin/bash
# SPDX-License-Identifier: MIT
# The rules of reports/explain (schema/report.md, "Limits") on a store
# whose facts and series are set here, without a lab: a command engine
# prints each cell's rate (930 or 600 Mbit/s), then the host's facts
# become a 1000 Mbit/s igb NIC at MTU 1500 and each cell's runs get the
# series of its case. The Ethernet TCP goodput ceiling is
# 1e9 * (1500 - 52) / (1500 + 38) = 941482444.733 bit/s (IEEE 802.3
# framing, test_explain.c), so python3 gives the fractions:
#   line  930 Mbit/s: 0.98780386 >= 0.95              -> line
#   half  600 Mbit/s: 0.63729282, no series           -> none
#   cpu   cpu.0.busy 95% (softirq 19: 20% of it)      -> cpu
#   edge  cpu.0.busy exactly 90% (EXPLAIN_CORE_BUSY)  -> cpu
#   warm  cpu.0.busy 60%                              -> none
#   drops nic.rx_dropped 20 over 2 s: 10/s >= 1/s     -> drops
#   drip  nic.rx_dropped 1 over 2 s: 0.5/s            -> none
#   pause nic.ethtool.rx_pause 200 over 2 s: 100/s    -> flow_control
# The lead-in point (t < 0) of cpu's busy series is left out of its mean.
# cpu's runs also have the engine's process's core (engine.core, the
# in-process sampler's): on core 0 in 3 of its 4 loaded samples (the
# lead-in's and a null point, when it did not run, left out), so in 6 of 8
# over the cell's 2 runs; edge has none, and says that it does not know.
# Then a tbf of 950 Mbit/s on the root: its ceiling 950e6 * 1448 / 1514 =
# 908586525.76 is the narrower one, and line's 930 is 1.0235653 of it
# (at most 1.05): still line, now named after the tbf.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need sqlite3 python3
xr_tmpdir T
cat >e.yaml <<'YAML'
xrun: 1
name: explain-rules
engine:
  type: command
  timeout: 5s
  run: [sh, -c, 'case "$0" in line) r=930 ;; *) r=600 ;; esac; echo "rate $r"', "{{case}}"]
  metrics:
    throughput: { regex: 'rate ([0-9.]+)', unit: Mbit/s }
factors:
  case: { levels: [line, half, cpu, edge, warm, drops, drip, pause] }
repeat: 2
sample: off
YAML
"$XRUN" run e.yaml --db e.db --quiet 2>run.err || { cat run.err; fail "run exit $?"; }
# The facts are set below in host_facts: the runs' own fact sets
# are dropped, so that the session's facts speak for them, as for
# a store from before fact sets (schema/store.md, "fact_sets").
sqlite3 e.db "delete from run_facts" || fail "run facts"
series() { # case name unit points
	local n
	n=$(python3 -c 'import json, sys; print(len(json.loads(sys.argv[1])))' "$4")
	sqlite3 e.db "insert into series_data(run_id, attempt, host, name, unit,
		n, points) select id, attempts, 'local', '$2', '$3', $n, '$4' from runs
		where json_extract(cell, '\$.case') = '$1'" || fail "insert $1 $2"
}
sqlite3 e.db "update host_facts set value = 'igb' where key = 'nic_driver';
	update host_facts set value = '1000' where key = 'nic_link';
	update host_facts set value = '1500' where key = 'nic_mtu';
	update host_facts set value = 'pfifo_fast' where key = 'qdisc_root';
	delete from host_facts where key = 'nic_pcie_link'" || fail "facts"
[ "$(sqlite3 e.db "select count(*) from host_facts where key in ('nic_driver', 'nic_link', 'nic_mtu', 'qdisc_root')")" = 4 ] ||
	fail "the store has not the four facts to set: $(sqlite3 e.db 'select key, value from host_facts')"
series cpu cpu.0.busy % '[[-0.5,3],[0.5,95],[1,96],[1.5,94],[2,95]]'
series cpu cpu.0.softirq % '[[0.5,19],[1,19],[1.5,19],[2,19]]'
series cpu engine.core 1 '[[-0.5,0],[0.5,0],[1,1],[1.5,null],[1.75,0],[2,0]]'
series edge cpu.0.busy % '[[0.5,90],[1,90],[1.5,90],[2,90]]'
series warm cpu.0.busy % '[[0.5,60],[1,60],[1.5,60],[2,60]]'
series drops nic.rx_dropped 1 '[[0.5,5],[1,5],[1.5,5],[2,5]]'
series drip nic.rx_dropped 1 '[[1,0],[2,1]]'
series pause nic.ethtool.rx_pause 1 '[[1,100],[2,100]]'
check() { # report.json tbf-rate (0: none)
	python3 - "$1" "$2" <<'PY'
import json, sys
rate = float(sys.argv[2])
eth = 1e9 * (1500 - 52) / (1500 + 38)
tbf = rate * (1500 - 52) / (1500 + 14) if rate else float("inf")
ceil = min(eth, tbf)
name = ("tbf %.0f Mbit/s on local, TCP at MTU 1500" % (rate / 1e6) if tbf < eth
        else "1000 Mbit/s Ethernet on local, TCP at MTU 1500")
want = {"line": "line", "half": "none", "cpu": "cpu", "edge": "cpu",
        "warm": "none", "drops": "drops", "drip": "none",
        "pause": "flow_control"}
evid = {"cpu": "core 0 of local 95% busy, 20% softirq; the engine's "
               "process on local ran on it in 6 of 8 samples",
        "edge": "core 0 of local 90% busy",
        "drops": "10 drops/s", "pause": "100 PAUSE frames/s"}
bad = 0
for c in json.load(open(sys.argv[1]))["cells"]:
    case = c["label"].split("=", 1)[1]
    l = c["limit"]
    med = 930e6 if case == "line" else 600e6
    msg = []
    if l["kind"] != want[case]:
        msg.append("kind %s, want %s" % (l["kind"], want[case]))
    if abs(l["fraction"] - med / ceil) > 1e-9:
        msg.append("fraction %r, want %r" % (l["fraction"], med / ceil))
    if abs(l["ceiling"] - ceil) > 0.1:
        msg.append("ceiling %r, want %r" % (l["ceiling"], ceil))
    if l["ceiling_name"] != name:
        msg.append("ceiling_name %r, want %r" % (l["ceiling_name"], name))
    if case in evid and evid[case] not in l["evidence"]["text"]:
        msg.append("evidence %r lacks %r" % (l["evidence"]["text"], evid[case]))
    if case == "cpu" and "local engine.core" not in l["evidence"]["series"]:
        msg.append("series %r lack local engine.core" % l["evidence"]["series"])
    if case == "edge" and "whether the engine's process ran on it is not known (no engine.core on local)" not in l["evidence"]["text"]:
        msg.append("edge has no engine.core, not said: %r" % l["evidence"]["text"])
    if msg:
        print("FAIL: %s: %s (%s)" % (case, "; ".join(msg), l["text"]))
        bad += 1
    del want[case]
if want:
    print("FAIL: cells missing: %s" % ", ".join(want))
    bad += 1
sys.exit(1 if bad else 0)
PY
}
"$XRUN" report --db e.db -o r.json 2>rep.err || { cat rep.err; fail "report exit $?"; }
check r.json 0 || fail "limits with the Ethernet ceiling"
sqlite3 e.db "update host_facts set value = 'tbf 950000000' where key = 'qdisc_root'" || fail "tbf fact"
"$XRUN" report --db e.db -o t.json 2>rep.err || { cat rep.err; fail "report exit $?"; }
check t.json 950e6 || fail "limits with the tbf ceiling"
echo "ok - line at >= 95% of the narrowest ceiling (Ethernet, then tbf), a core at >= 90% busy, >= 1 drop or PAUSE frame a second; none below"
