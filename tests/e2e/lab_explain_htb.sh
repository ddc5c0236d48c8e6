#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 25 Deliver 1, an htb shaper read from the interface's qdisc (root
# only): the unshaped veth pair with an htb root on the client's veth
# (class 1:1 rate 900mbit, its child 1:10 rate 500mbit ceil 800mbit, the
# default class; no filter): the JSON report's cells[].limit is line-bound
# at the default class's ceil, 800 Mbit/s, counted as tbf counts
# (qdisc_pkt_len): python3 800e6*1448/1514 = 765125495.4 bit/s, with
# fraction >= 0.95. The store's qdisc_root fact is "htb 800000000".
set -eu
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/labplan.sh"
xr_need_root "xrun lab needs root (network namespaces)"
xr_need ip tc iperf3 sqlite3
P="xh$$"
P=${P:0:10}
xr_tmpdir T
xr_at_exit '"$XRUN" lab down --prefix "$P" >/dev/null 2>&1'
"$XRUN" lab up --profile 10gbe --prefix "$P" >up.out || fail "lab up exit $?"
ns() { ip netns exec "$P-client" tc "$@"; }
ns qdisc replace dev "$P-veth" root handle 1: htb default 10 2>/dev/null ||
	fail "cannot set an htb root"
ns class add dev "$P-veth" parent 1: classid 1:1 htb rate 900mbit burst 256k cburst 256k 2>/dev/null
ns class add dev "$P-veth" parent 1:1 classid 1:10 htb rate 500mbit ceil 800mbit burst 256k cburst 256k 2>/dev/null
xr_lab_plan "$P" lab-explain-htb 2 "" "counters: [nic, tcp]" >h.yaml
"$XRUN" run h.yaml --db h.db --unattended 2>run.err || { cat run.err; fail "run exit $?"; }
[ "$(q h.db "select value from host_facts where host = 'client' and key = 'qdisc_root' order by rowid desc limit 1")" = "htb 800000000" ] ||
	fail "qdisc_root fact: $(q h.db "select host, key, value from host_facts where key = 'qdisc_root'")"
"$XRUN" report --db h.db -o h.json 2>rep.err || { cat rep.err; fail "report exit $?"; }
limit() {
	q :memory: "select json_extract(c.value, '\$.limit.$1') from json_each(json_extract(readfile('h.json'), '\$.cells')) c limit 1"
}
echo "# $(limit text)"
[ "$(limit kind)" = line ] || fail "kind '$(limit kind)': $(limit text)"
case $(limit ceiling_name) in "htb 800 Mbit/s on client"*) ;;
*) fail "ceiling named '$(limit ceiling_name)'" ;; esac
[ "$(q :memory: "select abs($(limit ceiling) - 765125495.4) < 1")" = 1 ] ||
	fail "ceiling $(limit ceiling), want 765125495.4"
[ "$(q :memory: "select $(limit fraction) >= 0.95")" = 1 ] ||
	fail "fraction $(limit fraction) < 0.95"
echo "ok - htb default class ceil 800mbit under 900mbit: line-bound at $(limit fraction) of 765.1 Mbit/s"
