#!/bin/bash
# SPDX-License-Identifier: MIT
# xrun run across a real network namespace (root): iperf3 server started by
# xrun inside the namespace, client here, over a veth pair. A factor whose
# hooks run on the server host only (per-namespace congestion control
# sysctl): applied there, verified there for every run, restored there.
# Counters come from both ends of the veth; facts from both hosts.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need_root "needs root for network namespaces"
xr_need iperf3 ip sqlite3
xr_tmpdir T
n=$$
ns=xrun-rt$n
a=xra$((n % 100000))
b=xrb$((n % 100000))
net=$(xr_free_net)
xr_at_exit 'ip link del "$a" 2>/dev/null'
xr_need_netns "$ns"
ip link add "$a" type veth peer name "$b"
ip link set "$b" netns "$ns"
ip addr add "${net}1/24" dev "$a"
ip link set "$a" up
ip netns exec "$ns" ip addr add "${net}2/24" dev "$b"
ip netns exec "$ns" ip link set "$b" up
ip netns exec "$ns" ip link set lo up
ip netns exec "$ns" sysctl -qw net.ipv4.tcp_congestion_control=reno 2>/dev/null ||
	{ echo "skip: congestion control is not per-namespace on this kernel"; exit 77; }
orig=$(ip netns exec "$ns" sysctl -n net.ipv4.tcp_congestion_control)
# Only the allowed algorithms can be set inside a namespace.
read -r c1 c2 _ < <(ip netns exec "$ns" cat /proc/sys/net/ipv4/tcp_allowed_congestion_control) || true
[ -n "${c2:-}" ] || { echo "skip: fewer than two congestion controls allowed in a namespace"; exit 77; }
port=$(xr_free_port)
cat >ns.yaml <<YAML
xrun: 1
name: ns
hosts:
  srv: { netns: $ns, address: ${net}2, iface: $b }
vars: { iface: $a }
engine:
  type: iperf3
  client: local
  server: { host: srv, start: true }
  duration: 1s
  port: $port
factors:
  scc:
    levels: [$c1, $c2]
    on: [srv]
    apply: [sysctl, -w, "net.ipv4.tcp_congestion_control={{scc}}"]
    verify: { run: [sysctl, -n, net.ipv4.tcp_congestion_control] }
    restore: true
  streams: { levels: [1, 2], param: parallel }
sample: off
YAML
XR_DB=ns.db
"$XRUN" run ns.yaml 2>ns.err || { cat ns.err; fail "exit $?"; }
[ "$(q "select count(*) from results where metric='throughput' and status='ok' and value > 1e7")" = 4 ] ||
	fail "runs: $(q "select position,status,reason from runs")"
[ "$(q "select count(*) from verifications where factor='scc' and host='srv' and ok=1")" = 4 ] ||
	fail "server-side verification: $(q "select * from verifications")"
[ "$(q "select count(*) from hooks where kind='apply' and host='srv'")" -ge 2 ] || fail "apply not on srv"
[ "$(q "select count(*) from hooks where kind='restore' and host='srv' and level='$orig'")" = 1 ] ||
	fail "restore: $(q "select kind,host,level from hooks")"
[ "$(ip netns exec "$ns" sysctl -n net.ipv4.tcp_congestion_control)" = "$orig" ] || fail "server cc not restored"
[ "$(q "select count(distinct host) from counters where scope='nic' and name like '%bytes%' and value > 0")" = 2 ] ||
	fail "nic counters from both ends: $(q "select host,scope,name,value from counters where scope='nic' limit 20")"
[ "$(q "select count(*) from host_facts where host='srv' and key='transport' and value='netns'")" = 1 ] || fail "srv facts"
[ "$(q "select count(distinct target) from runs")" = 1 ] && [ "$(q "select target from runs limit 1")" = "${net}2" ] ||
	fail "target: $(q "select distinct target from runs")"
if ip netns pids "$ns" | grep -q .; then fail "processes left in the namespace: $(ip netns pids "$ns")"; fi
echo "ok: netns server, server-side hooks, counters at both ends"
