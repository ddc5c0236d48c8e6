#!/bin/bash
# SPDX-License-Identifier: MIT
# `xrun lab down` leaves no namespace or veth of the lab behind, whatever
# came before it: up twice, up with another profile, a failed first up, a
# failed re-shape, an up killed halfway (SIGKILL while `ip link add`
# hangs, faked by an `ip` wrapper), and namespaces that existed before up
# (those stay, the veth up made in them goes). Root only; no traffic.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need_root "xrun lab needs root (network namespaces)"
xr_need ip tc
P="xd$$"
P=${P:0:10}
xr_tmpdir T
cleanup() {
	"$XRUN" lab down --prefix "$P" >/dev/null 2>&1 || true
	for n in client server; do ip netns del "$P-$n" 2>/dev/null || true; done
}
xr_at_exit cleanup
nss() { ip netns list | awk '{print $1}' | grep "^$P-" | sort | tr '\n' ' ' || true; }
veths() {
	local n c=0
	for n in client server; do
		ip -n "$P-$n" -o link show 2>/dev/null | grep -q "$P-veth" && c=$((c + 1))
	done
	ip -o link show | grep -q "$P-veth" && c=$((c + 10))
	echo $c
}
gone() { # what: nothing of the lab is left
	[ -z "$(nss)" ] || fail "$1: namespaces left: $(nss)"
	[ "$(veths)" = 0 ] || fail "$1: veth left"
	[ ! -e "/run/xrun-lab/$P.json" ] || fail "$1: record left"
}

# Up twice, re-shaped, unshaped again: one down removes it all.
"$XRUN" lab up --prefix "$P" --profile pcie3x1 >/dev/null || fail "up"
"$XRUN" lab up --prefix "$P" --profile pcie3x1 >/dev/null || fail "up again"
"$XRUN" lab up --prefix="$P" --profile=2g5 >/dev/null || fail "re-shape"
tc -n "$P-server" qdisc show dev "$P-veth" | grep -q "rate 2500Mbit" || fail "2g5 not applied"
"$XRUN" lab up --prefix "$P" >/dev/null || fail "unshape"
tc -n "$P-server" qdisc show dev "$P-veth" | grep -q tbf && fail "10gbe left a tbf"
"$XRUN" lab down --prefix "$P" | grep -q "is down" || fail "down message"
gone "up, up, re-shape, down"

# tc refusing every qdisc: a failed first up leaves nothing, a failed
# re-shape leaves the lab and its record as they were.
mkdir fake
printf '#!/bin/sh\necho "RTNETLINK answers: Invalid argument" >&2\nexit 2\n' >fake/tc
chmod +x fake/tc
set +e
PATH=$T/fake:$PATH "$XRUN" lab up --prefix "$P" --profile 2g5 >/dev/null 2>f1.err
rc=$?
set -e
[ $rc = 3 ] || fail "failed first up: exit $rc: $(cat f1.err)"
grep -q "shaping the link with tbf failed: RTNETLINK answers: Invalid argument" f1.err ||
	fail "failed up message: $(cat f1.err)"
gone "failed first up"
"$XRUN" lab up --prefix "$P" --profile pcie3x1 >/dev/null || fail "up"
cp "/run/xrun-lab/$P.json" rec.json
set +e
PATH=$T/fake:$PATH "$XRUN" lab up --prefix "$P" --profile 2g5 >/dev/null 2>f2.err
rc=$?
set -e
[ $rc = 3 ] || fail "failed re-shape: exit $rc"
cmp -s rec.json "/run/xrun-lab/$P.json" || fail "failed re-shape changed the record"
tc -n "$P-client" qdisc show dev "$P-veth" | grep -q "rate 6200Mbit" || fail "failed re-shape changed the shape"
"$XRUN" lab down --prefix "$P" >/dev/null || fail "down"
gone "failed re-shape"

# An up killed after making the namespaces, before the veth.
real_ip=$(command -v ip)
printf '#!/bin/sh\ncase "$*" in *"link add"*) exec sleep 20;; esac\nexec %s "$@"\n' "$real_ip" >fake/ip
rm fake/tc
chmod +x fake/ip
PATH=$T/fake:$PATH "$XRUN" lab up --prefix "$P" >/dev/null 2>&1 &
xp=$!
for _ in $(seq 100); do
	[ "$(nss)" = "$P-client $P-server " ] && break
	sleep 0.05
done
sleep 0.3
kill -9 $xp
wait $xp 2>/dev/null || true
[ -n "$(nss)" ] || fail "the killed up made no namespace (test broken)"
"$XRUN" lab down --prefix "$P" | grep -q "is down" || fail "down after a killed up says it was not up"
gone "killed up"
# The same, then up again (what one does after an interrupted up): the
# namespaces are still the lab's own.
PATH=$T/fake:$PATH "$XRUN" lab up --prefix "$P" >/dev/null 2>&1 &
xp=$!
for _ in $(seq 100); do
	[ "$(nss)" = "$P-client $P-server " ] && break
	sleep 0.05
done
sleep 0.3
kill -9 $xp
wait $xp 2>/dev/null || true
"$XRUN" lab up --prefix "$P" >up.out || fail "up after a killed up"
! grep -q "existed before" up.out || fail "up took its own namespaces for foreign ones: $(cat up.out)"
"$XRUN" lab down --prefix "$P" | grep -q "is down" || fail "down after killed up, up"
gone "killed up, up"

# Namespaces that were there before up are not down's to remove; the veth
# pair up made in them is.
ip netns add "$P-client"
ip netns add "$P-server"
"$XRUN" lab up --prefix "$P" >up.out || fail "up in existing namespaces"
grep -q "namespace '$P-client' existed before" up.out || fail "no note: $(cat up.out)"
[ "$(veths)" = 2 ] || fail "no veth made in existing namespaces"
"$XRUN" lab down --prefix "$P" >down.out || fail "down"
grep -q "is down" down.out || fail "down message: $(cat down.out)"
# One note for each namespace it leaves, client first (cmd_lab.c's text).
[ "$(grep "^note: " down.out)" = "note: namespace '$P-client' was not made by 'xrun lab up' and is left in place
note: namespace '$P-server' was not made by 'xrun lab up' and is left in place" ] ||
	fail "down's notes on the namespaces it left: $(cat down.out)"
[ "$(nss)" = "$P-client $P-server " ] || fail "down removed namespaces it did not make: $(nss)"
[ "$(veths)" = 0 ] || fail "down left the veth it made"
ip netns del "$P-client"
ip netns del "$P-server"
gone "existing namespaces"
echo "ok: lab down leaves nothing behind"
