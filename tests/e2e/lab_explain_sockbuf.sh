#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 25's socket-buffer drops on a real lab link (root only): UDP at
# 500 Mbit/s over the unshaped veth pair with a 4 KB socket buffer
# (iperf3 -w: the server's receive buffer too) overflows the server's
# receive buffer (measured 7628 drops/s, 410 Mbit/s received). The JSON
# report names drops (as kind, or as also when the CPU holds the sender
# first on a loaded machine), from the server's udp.rcvbuf_errors series.
set -eu
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/labplan.sh"
xr_need_root "xrun lab needs root (network namespaces)"
xr_need ip tc iperf3 sqlite3 python3
P="xs$$"
P=${P:0:10}
xr_tmpdir T
xr_at_exit '"$XRUN" lab down --prefix "$P" >/dev/null 2>&1'
"$XRUN" lab up --profile 10gbe --prefix "$P" >up.out || fail "lab up exit $?"
xr_lab_plan "$P" lab-explain-sockbuf 1 $'  udp: true\n  bitrate: 500M\n  window: 4K' \
	$'sample: 250ms\ncounters: [nic, tcp, cpu]' >u.yaml
rc=0
"$XRUN" run u.yaml --db u.db --unattended 2>run.err || rc=$?
[ $rc = 0 ] || { cat run.err; fail "run exit $rc"; }
n=$(q u.db "select count(*) from series where host = 'server' and name = 'udp.rcvbuf_errors' and t > 0 and value > 0")
[ "$n" -gt 0 ] || fail "no udp.rcvbuf_errors on the server: $(q u.db "select host, name, sum(value) from series where name like 'udp.%' group by 1, 2")"
"$XRUN" report --db u.db -o u.json 2>rep.err || { cat rep.err; fail "report exit $?"; }
python3 - u.json <<'PY' || fail "limit: see above"
import json, sys
l = json.load(open(sys.argv[1]))["cells"][0]["limit"]
print("# " + l["text"])
ok = "drops" in (l["kind"], l["also"]) and "udp.rcvbuf_errors" in l["evidence"]["series"]
sys.exit(0 if ok else 1)
PY
echo "ok - a full socket receive buffer is named: drops, from udp.rcvbuf_errors"
