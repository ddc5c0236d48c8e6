#!/bin/bash
# SPDX-License-Identifier: MIT
# `xrun lab down --prefix P` for namespaces that `lab up` never made (made
# here with `ip netns add` under a random prefix), and after an up whose
# record was lost: down refuses (exit 3), says how to remove them by hand,
# and the namespaces survive; with nothing there, "was not up" (exit 0).
# Root only; no traffic.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need_root "network namespaces"
xr_need ip tc
P="xf$(od -An -N3 -tx1 /dev/urandom | tr -d ' \n')"
xr_tmpdir T
xr_at_exit "ip netns del '$P-client' 2>/dev/null; ip netns del '$P-server' 2>/dev/null; rm -f '/run/xrun-lab/$P.json'"
both() { ip netns list | awk '{print $1}' | grep -c "^$P-\(client\|server\)$" || true; }

ip netns add "$P-client" || xr_skip "cannot create network namespaces"
ip netns add "$P-server"
rc=0
"$XRUN" lab down --prefix "$P" >out 2>err || rc=$?
[ $rc = 3 ] || fail "down of namespaces up never made: exit $rc: $(cat out err)"
grep -q "no record of 'xrun lab up --prefix $P'" err &&
	grep -q "remove them by hand: ip netns del $P-client; ip netns del $P-server" err ||
	fail "message: $(cat err)"
[ "$(both)" = 2 ] || fail "namespaces up never made were removed: $(ip netns list)"
echo "ok - down of a prefix up never made: exit 3, both namespaces left, $(cat err)"
ip netns del "$P-client"
ip netns del "$P-server"
"$XRUN" lab down --prefix "$P" | grep -q "was not up" || fail "nothing there: not 'was not up'"
echo "ok - nothing there: was not up"

# An up whose record was lost (/run cleared): the same refusal.
"$XRUN" lab up --prefix "$P" >/dev/null || fail "up"
rm "/run/xrun-lab/$P.json"
rc=0
"$XRUN" lab down --prefix "$P" >out 2>err || rc=$?
[ $rc = 3 ] && [ "$(both)" = 2 ] || fail "down without the record: exit $rc, $(both) namespaces: $(cat err)"
echo "ok - down after the record was lost: refused, the namespaces left for removal by hand"
