#!/bin/bash
# SPDX-License-Identifier: MIT
# Factor-bound hosts over real network namespaces (root): a factor whose
# levels bind the engine's client to one of two namespaces. Every run must
# execute in its level's namespace (the command engine prints
# `ip netns identify` and {{client}}), the factor's verify and the NIC
# counters run on the bound host, and each namespace's host facts are kept.
# A second plan binds the iperf3 server per level: xrun starts `iperf3 -s`
# in the level's namespace and the client connects to that address.
# Under CI=true a missing prerequisite fails; elsewhere it skips.
set -eu
. "$(dirname "$0")/lib/common.sh"
# A missing prerequisite skips, and fails under CI (lib/common.sh).
need() { xr_skip "$1"; }
[ "$(id -u)" = 0 ] || need "network namespaces need root"
command -v ip >/dev/null || need "iproute2 not installed"
command -v sqlite3 >/dev/null || need "sqlite3 CLI not installed"
command -v iperf3 >/dev/null || need "iperf3 not installed"
T=$(mktemp -d)
n=$$
nsa=xrun-ba$n
nsb=xrun-bb$n
a1=xba$((n % 100000))
b1=xbA$((n % 100000))
a2=xbb$((n % 100000))
b2=xbB$((n % 100000))
o=$((n % 200))
cleanup() {
	ip netns del "$nsa" 2>/dev/null || true
	ip netns del "$nsb" 2>/dev/null || true
	ip link del "$a1" 2>/dev/null || true
	ip link del "$a2" 2>/dev/null || true
	rm -rf "$T"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
ip netns add "$nsa" || need "cannot create a network namespace"
ip netns add "$nsb"
# The root-side subnets 10.251.$o.0/24 and 10.252.$o.0/24: the first pair
# from pid % 200 on that no interface of this machine has yet, so that a
# second suite run beside this one (another clone) does not share them.
for _ in $(seq 200); do
	[ -z "$(ip -o addr show to "10.251.$o.0/24")$(ip -o addr show to "10.252.$o.0/24")" ] && break
	o=$(((o + 1) % 200))
done
veth() { # root-side ns-side ns subnet
	ip link add "$1" type veth peer name "$2"
	ip link set "$2" netns "$3"
	ip addr add "10.$4.$o.1/24" dev "$1"
	ip link set "$1" up
	ip netns exec "$3" ip addr add "10.$4.$o.2/24" dev "$2"
	ip netns exec "$3" ip link set "$2" up
	ip netns exec "$3" ip link set lo up
}
veth "$a1" "$b1" "$nsa" 251
veth "$a2" "$b2" "$nsb" 252
cd "$T"
q() { sqlite3 "$1" "$2"; }

cat >bind.yaml <<YAML
xrun: 1
name: bind
hosts:
  na: { netns: $nsa, address: 10.251.$o.2, iface: $b1 }
  nb: { netns: $nsb, address: 10.252.$o.2, iface: $b2 }
engine:
  type: command
  run: [sh, -c, 'echo "ns=\$(ip netns identify) client={{client}} iface={{iface}} rate 100"']
  metrics:
    throughput: { regex: 'rate ([0-9]+)', unit: Mbit/s }
factors:
  side:
    levels: [a, b]
    hosts: { client: { a: na, b: nb } }
    verify: { run: [ip, netns, identify], expect: { a: $nsa, b: $nsb } }
repeat: 2
counters: [nic]
sample: off
YAML
"$XRUN" validate bind.yaml >/dev/null || fail "validate"
"$XRUN" plan bind.yaml >plan.out || fail "plan"
grep -q "client=na" plan.out && grep -q "client=nb" plan.out ||
	fail "xrun plan shows no bound hosts: $(cat plan.out)"
"$XRUN" plan --json bind.yaml | python3 -c '
import json, sys
d = json.load(sys.stdin)
hs = {r["cell"]["side"]: r["hosts"]["client"] for r in d["runs"]}
assert hs == {"a": "na", "b": "nb"}, hs
' || fail "plan --json hosts"
"$XRUN" run bind.yaml 2>bind.err || { cat bind.err; fail "exit $?"; }
[ "$(q bind.db "select count(*) from runs where status='ok'")" = 4 ] ||
	fail "runs: $(q bind.db "select position,status,reason from runs")"
for lv in a b; do
	case $lv in a) ns=$nsa h=na addr=10.251.$o.2 ifc=$b1 ;; *) ns=$nsb h=nb addr=10.252.$o.2 ifc=$b2 ;; esac
	want="ns=$ns client=$addr iface=$ifc rate 100"
	got=$(q bind.db "select distinct trim(stdout) from runs where json_extract(cell,'\$.side')='$lv'")
	[ "$got" = "$want" ] || fail "level $lv ran as '$got', want '$want'"
	[ "$(q bind.db "select count(*) from verifications v join runs r on r.id=v.run_id where json_extract(r.cell,'\$.side')='$lv' and v.host='$h' and v.ok=1")" = 2 ] ||
		fail "verify of $lv not on $h: $(q bind.db "select run_id,host,actual,ok from verifications")"
	[ "$(q bind.db "select count(*) from host_facts where host='$h' and key='transport' and value='netns'")" = 1 ] ||
		fail "facts of $h: $(q bind.db "select host,key,value from host_facts")"
	[ "$(q bind.db "select count(*) from host_facts where host='$h' and key='kernel'")" = 1 ] ||
		fail "kernel fact of $h"
	[ "$(q bind.db "select count(distinct c.run_id) from counters c join runs r on r.id=c.run_id where json_extract(r.cell,'\$.side')='$lv' and c.host='$h'")" = 2 ] ||
		fail "counters of $lv not from $h: $(q bind.db "select run_id,host,scope,count(*) from counters group by 1,2,3")"
done
[ "$(q bind.db "select count(*) from host_facts where host='local'")" = 0 ] ||
	fail "facts of an unused host"

# A second half into the same store keeps the first half's facts.
cp bind.yaml half.yaml
sed -i 's/^name: bind/name: half/' half.yaml
"$XRUN" run half.yaml --db half.db --only side=a 2>half.err || { cat half.err; fail "half a"; }
"$XRUN" run half.yaml --db half.db --only side=b 2>>half.err || { cat half.err; fail "half b"; }
[ "$(q half.db "select count(distinct session_id) from runs")" = 1 ] || fail "halves in two sessions"
[ "$(q half.db "select count(distinct host) from host_facts where key='transport'")" = 2 ] ||
	fail "halves' facts: $(q half.db "select host,key,value from host_facts where key='transport'")"

# The iperf3 server follows the bound server host.
port=$((20000 + RANDOM % 12000))
cat >srv.yaml <<YAML
xrun: 1
name: srv
hosts:
  na: { netns: $nsa, address: 10.251.$o.2, iface: $b1 }
  nb: { netns: $nsb, address: 10.252.$o.2, iface: $b2 }
engine:
  type: iperf3
  client: local
  server: { host: na, start: true }
  duration: 1s
  port: $port
factors:
  far:
    levels: [a, b]
    hosts: { server: { a: na, b: nb } }
repeat: 2
counters: [tcp]
sample: off
YAML
"$XRUN" run srv.yaml 2>srv.err || { cat srv.err; fail "iperf3 exit $?"; }
[ "$(q srv.db "select count(*) from results where metric='throughput' and status='ok' and value > 1e7")" = 4 ] ||
	fail "iperf3 runs: $(q srv.db "select position,status,reason from runs")"
[ "$(q srv.db "select distinct json_extract(cell,'\$.far') || '=' || target from runs order by 1" | tr '\n' ' ')" = "a=10.251.$o.2 b=10.252.$o.2 " ] ||
	fail "targets: $(q srv.db "select cell,target from runs")"
for ns in "$nsa" "$nsb"; do
	if ip netns pids "$ns" | grep -q .; then fail "processes left in $ns"; fi
done
echo "ok: client and iperf3 server bound per level to two namespaces"
