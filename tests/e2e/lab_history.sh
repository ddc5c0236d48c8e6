#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 36's bars on a real lab link (root only): a one-cell iperf3 plan
# over `xrun lab up` (tbf on the client's veth), one session at a time.
# Six sessions at 300mbit: `report --history` finds no change. Four more
# at 270mbit: over the last eight sessions (four at each rate) exactly one
# change, at the fifth of them, worse, by about 270/300 - 1 = -10%, whose
# causes name the client's root qdisc (tbf 300000000 -> tbf 270000000,
# the qdisc_root fact each session read).
set -eu
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/labplan.sh"
xr_need_root "xrun lab needs root (network namespaces)"
xr_need ip tc iperf3 sqlite3 python3
P="xh$$"
P=${P:0:10}
xr_tmpdir T
xr_at_exit '"$XRUN" lab down --prefix "$P" >/dev/null 2>&1'
xr_lab_plan "$P" lab-history 3 "" $'sample: off' |
	sed 's/^  duration: 2s$/  duration: 1s/' >h.yaml
session() {
	"$XRUN" run h.yaml --db h.db --new-session --unattended -q 2>>run.err ||
		fail "run exit $?: $(cat run.err)"
}
"$XRUN" lab up --rate 300mbit --prefix "$P" >up.out || fail "lab up exit $?"
for s in 1 2 3 4 5 6; do session; done
"$XRUN" report --db h.db --history -o six.json 2>rep.err || fail "report: $(cat rep.err)"
python3 - six.json <<'PY' || fail "six sessions at 300mbit"
import json, sys
h = json.load(open(sys.argv[1]))["history"]
assert len(h["cells"]) == 1 and len(h["cells"][0]["sessions"]) == 6, h
assert h["cells"][0]["changes"] == [], h["cells"][0]["changes"]
PY
"$XRUN" lab up --rate 270mbit --prefix "$P" >up2.out || fail "lab up 270 exit $?"
for s in 7 8 9 10; do session; done
"$XRUN" report --db h.db --history --sessions 3-10 -o eight.json 2>rep.err ||
	fail "report: $(cat rep.err)"
python3 - eight.json <<'PY' || fail "eight sessions, a change at the fifth"
import json, sys
h = json.load(open(sys.argv[1]))["history"]
c = h["cells"][0]
assert [s["session"] for s in c["sessions"]] == list(range(3, 11)), c["sessions"]
ch = c["changes"]
assert len(ch) == 1, ch
ch = ch[0]
assert ch["index"] == 4 and ch["session"] == 7 and ch["direction"] == "worse", ch
# tbf 270 against 300: goodput in proportion, -10% within 2 points
assert -12 < ch["effect"]["pct"] < -8, ch["effect"]
q = [x for x in ch["causes"] if x["key"] == "qdisc_root"]
assert q and q[0]["host"] == "client", ch["causes"]
assert q[0]["before"].startswith("tbf 300000000") and \
    q[0]["after"].startswith("tbf 270000000"), q
print("# change:", ch["text"])
PY
echo ok
