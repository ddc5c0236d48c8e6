#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 37 (root only): the same search as lab_search.sh with 0.1% of the
# UDP datagrams dropped at random on the server (this kernel has no netem:
# nftables' `numgen random mod 1000 0 drop`). Every 2 s trial carries at
# least 3,396 datagrams (20 Mbit/s: 20e6 x 2 / (1472 x 8)), so it loses
# one with probability 1 - 0.999^3396 = 96.7%: there is no NDR above the
# lower bound (min load is an upper bound: irregular, no load reported).
# The PDR at 0.5% is the shaped rate: within 2% of 194,451,783 bit/s
# (0.1% lost stays under 0.5% up to the tbf's ceiling).
set -eu
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/labplan.sh"
. "$(dirname "$0")/lib/labsearch.sh"
xr_need_root "xrun lab needs root (network namespaces)"
xr_need ip tc iperf3 sqlite3 nft
P="xr$$"
P=${P:0:10}
xr_tmpdir T
xr_at_exit '"$XRUN" lab down --prefix "$P" >/dev/null 2>&1'
"$XRUN" lab up --rate 200mbit --latency 4ms --prefix "$P" >up.out || fail "lab up exit $?"
ip netns exec "$P-server" nft -f - <<'NFT' || fail "nft"
table inet xrloss {
	chain in {
		type filter hook input priority 0; policy accept;
		meta l4proto udp numgen random mod 1000 0 drop
	}
}
NFT
xr_lab_search_plan "$P" lab-search-loss >s.yaml
"$XRUN" run s.yaml --db s.db --unattended --quiet 2>run.err || { cat run.err; fail "run exit $?"; }
"$XRUN" report --db s.db -o s.json 2>rep.err || { cat rep.err; fail "report exit $?"; }
XR_DB=s.db
# where loss began (the sender's shortfall on a busy machine, or the tbf)
echo "# $(q :memory: "select json_extract(readfile('s.json'), '\$.cells[0].search.drops.text')")"
pdr=$(xr_search_goal s.json pdr load)
echo "# ndr $(xr_search_goal s.json ndr load) ($(xr_search_goal s.json ndr irregular)), pdr $pdr, $(q "select count(*) from trials") trials: $(q "select group_concat(cast(load as int) || ':' || round(loss * 100, 3), ' ') from trials")"
[ -z "$(xr_search_goal s.json ndr load)" ] || fail "an ndr above the lower bound: $(xr_search_goal s.json ndr load)"
[ "$(xr_search_goal s.json ndr irregular)" = "min load is an upper bound" ] ||
	fail "ndr: '$(xr_search_goal s.json ndr irregular)'"
[ -n "$pdr" ] && [ "$(q :memory: "select abs($pdr / 194451783.4 - 1) <= 0.02")" = 1 ] ||
	fail "pdr $pdr is not within 2% of 194451783 bit/s"
