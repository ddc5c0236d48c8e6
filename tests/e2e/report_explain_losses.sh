#!/bin/bash
# SPDX-License-Identifier: MIT
# The drops rule with a TCP flow's own losses (reports/explain,
# schema/report.md "Limits"): a command engine prints each cell's rate
# (600 Mbit/s, no ceiling: the host's link is set to unknown) and its
# retransmits over engine.duration 2 s; series are set here. A cell whose
# engine counts retransmits is drop-bound only with >= 1 retransmit/s of
# its own, and then before the CPU:
#   lossy      40 retransmits (20/s), nic.rx_dropped 10/s, core 95%  -> drops, also cpu
#   bystander   0 retransmits, nic.rx_dropped 10/s (other traffic)   -> none
#   busy        0 retransmits, core 95%                              -> cpu
#   trickle     1 retransmit (0.5/s), nic.rx_dropped 10/s            -> none
#   lossyqueue 40 retransmits, nic.rx_dropped 10/s, core 60%, a run queue
#              of 4 on 1 core, the engine's one process 50% (>= its
#              16.7% share): drops, and no CPU from the run queue alone
#   lossyloops 40 retransmits, nic.rx_dropped 10/s, core 0 and all CPUs
#              100% busy before and during (other processes' loops), the
#              engine's process 50%: drops, the others' load not named
# and a UDP flow's own losses are its lost datagrams (iperf3's
# lost_packets; the cell's observed protocol set to UDP here):
#   udplossy   40 lost (20/s), udp.rcvbuf_errors 10/s, core 95%      -> drops, also cpu
#   udpclean    0 lost, udp.rcvbuf_errors 10/s (another socket's), core 95% -> cpu
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need sqlite3 python3
xr_tmpdir T
cat >e.yaml <<'YAML'
xrun: 1
name: explain-losses
engine:
  type: command
  timeout: 5s
  duration: 2s
  run: [sh, -c, 'case "$0" in lossy|lossyqueue|lossyloops) n=40 ;; trickle) n=1 ;; *) n=0 ;; esac; l=0; [ "$0" = udplossy ] && l=40; echo "rate 600 retr $n lost $l cpu 50"', "{{case}}"]
  metrics:
    throughput: { regex: 'rate ([0-9.]+)', unit: Mbit/s }
    retransmits: { regex: 'retr ([0-9]+)', unit: count }
    lost_packets: { regex: 'lost ([0-9]+)', unit: count }
    cpu_host: { regex: 'cpu ([0-9]+)', unit: '%' }
factors:
  case: { levels: [lossy, bystander, busy, trickle, udplossy, udpclean, lossyqueue, lossyloops] }
repeat: 2
sample: off
YAML
"$XRUN" run e.yaml --db e.db --quiet 2>run.err || { cat run.err; fail "run exit $?"; }
# The facts are set below in host_facts: the runs' own fact sets
# are dropped, so that the session's facts speak for them, as for
# a store from before fact sets (schema/store.md, "fact_sets").
sqlite3 e.db "delete from run_facts" || fail "run facts"
sqlite3 e.db "update host_facts set value = 'unknown' where key = 'nic_link';
	update host_facts set value = 'igb' where key = 'nic_driver';
	update host_facts set value = 'pfifo_fast' where key = 'qdisc_root'" || fail "facts"
series() { # case name unit points
	local n
	n=$(python3 -c 'import json, sys; print(len(json.loads(sys.argv[1])))' "$4")
	sqlite3 e.db "insert into series_data(run_id, attempt, host, name, unit,
		n, points) select id, attempts, 'local', '$2', '$3', $n, '$4' from runs
		where json_extract(cell, '\$.case') = '$1'" || fail "insert $1 $2"
}
for c in lossy bystander trickle lossyqueue lossyloops; do
	series $c nic.rx_dropped 1 '[[0.5,5],[1,5],[1.5,5],[2,5]]'
done
for c in udplossy udpclean; do
	series $c udp.rcvbuf_errors 1 '[[0.5,5],[1,5],[1.5,5],[2,5]]'
	sqlite3 e.db "insert into observed(run_id, key, value) select id, 'protocol', 'UDP'
		from runs where json_extract(cell, '\$.case') = '$c'" || fail "observed $c"
done
series lossyqueue cpu.0.busy % '[[0.5,60],[1,60],[1.5,60],[2,60]]'
series lossyqueue cpu.running 1 '[[0.5,4],[1,4],[1.5,4],[2,4]]'
sqlite3 e.db "insert into observed(run_id, key, value) select id, 'parallel', '1'
	from runs where json_extract(cell, '\$.case') = 'lossyqueue'" || fail "observed lossyqueue"
series lossyloops cpu.0.busy % '[[-0.25,100],[0.5,100],[1,100],[1.5,100],[2,100]]'
series lossyloops cpu.all.busy % '[[-0.25,100],[0.5,100],[1,100],[1.5,100],[2,100]]'
sqlite3 e.db "insert into observed(run_id, key, value) select id, 'parallel', '1'
	from runs where json_extract(cell, '\$.case') = 'lossyloops'" || fail "observed lossyloops"
for c in lossy busy udplossy udpclean; do
	series $c cpu.0.busy % '[[0.5,95],[1,95],[1.5,95],[2,95]]'
done
"$XRUN" report --db e.db -o r.json 2>rep.err || { cat rep.err; fail "report exit $?"; }
python3 - r.json <<'PY' || fail "limits with the flow's own losses"
import json, sys
want = {"lossy": ("drops", "cpu"), "bystander": ("none", None),
        "busy": ("cpu", None), "trickle": ("none", None),
        "udplossy": ("drops", "cpu"), "udpclean": ("cpu", None),
        "lossyqueue": ("drops", None), "lossyloops": ("drops", None)}
bad = 0
for c in json.load(open(sys.argv[1]))["cells"]:
    case = c["label"].split("=", 1)[1]
    l = c["limit"]
    if (l["kind"], l["also"]) != want.pop(case):
        print("FAIL: %s: %s / %s (%s)" % (case, l["kind"], l["also"], l["text"]))
        bad += 1
    if case == "udplossy" and "udp.rcvbuf_errors" not in l["evidence"]["series"]:
        print("FAIL: udplossy series %r" % l["evidence"]["series"]); bad += 1
    if case == "lossy" and not l["text"].startswith("10 drops/s; core 0 of local 95% busy"):
        print("FAIL: lossy text %r" % l["text"]); bad += 1
if want:
    print("FAIL: cells missing: %s" % ", ".join(want)); bad += 1
sys.exit(1 if bad else 0)
PY
echo "ok - drops with the flow's own losses (TCP retransmits, UDP lost datagrams >= 1/s) come before the CPU; drops without them are not the cell's"
