#!/bin/bash
# SPDX-License-Identifier: MIT
# Many-to-one (engine.flows, issue 19): two iperf3 clients here against two
# servers in a network namespace, over a veth pair, started together in
# every run. The store holds both flows and their sum (throughput ==
# throughput.flow1 + throughput.flow2 exactly, each > 0), the JSON report
# shows them; with servers of our own (start: false) whose second serves
# one test only, the runs after the first fail with flow 2 named and the
# session goes on. Bad `flows` input: exit 2 with file:line:col.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need_root "needs root for network namespaces"
xr_need iperf3 ip sqlite3 python3
xr_tmpdir T
n=$$
ns=xrun-fl$n
a=xfa$((n % 100000))
b=xfb$((n % 100000))
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
port=$(xr_free_port)
[ "$port" -lt 65535 ] || port=$((port - 1))

plan() { # NAME START REPS: a two-flow plan
	cat >"$1.yaml" <<YAML
xrun: 1
name: $1
hosts:
  srv: { netns: $ns, address: ${net}2, iface: $b }
engine:
  type: iperf3
  client: local
  server: { host: srv, start: $2 }
  duration: 1s
  port: $port
  flows: 2
  bitrate: 50M
repeat: $3
sample: off
YAML
}

# 1. Both flows and their sum.
plan two true 2
XR_DB=two.db
"$XRUN" run two.yaml --db two.db 2>two.err || { cat two.err; fail "exit $?"; }
[ "$(q "select count(*) from runs where status='ok'")" = 2 ] ||
	fail "runs: $(q "select position,status,reason from runs")"
for r in 1 2; do
	f1=$(q "select value from metrics where run_id=$r and name='throughput.flow1'")
	f2=$(q "select value from metrics where run_id=$r and name='throughput.flow2'")
	[ -n "$f1" ] && [ -n "$f2" ] || fail "run $r: no per-flow throughput: $(q "select name from metrics where run_id=$r")"
	[ "$(q "select count(*) from metrics where run_id=$r and name='throughput' and value > 0
		and value = (select sum(value) from metrics where run_id=$r and name in ('throughput.flow1', 'throughput.flow2'))
		and $f1 > 1e6 and $f2 > 1e6")" = 1 ] ||
		fail "run $r: throughput $(q "select value from metrics where run_id=$r and name='throughput'") != $f1 + $f2"
	[ "$(q "select count(*) from metrics where run_id=$r and name='retransmits'
		and value = (select sum(value) from metrics where run_id=$r and name like 'retransmits.flow_')")" = 1 ] ||
		fail "run $r: retransmits not the flows' sum"
done
[ "$(q "select value from observed where run_id=1 and key='ports'")" = "$port,$((port + 1))" ] ||
	fail "observed ports: $(q "select key,value from observed where run_id=1")"
[ "$(q "select count(distinct name) from series where name like 'engine.rtt.flow_'")" = 2 ] ||
	fail "per-flow rtt series: $(q "select distinct name from series where name like 'engine.%'")"
if ip netns pids "$ns" | grep -q .; then fail "servers left in the namespace: $(ip netns pids "$ns")"; fi
"$XRUN" report --db two.db -o two.json
python3 - two.json <<'PY' || fail "JSON report"
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["run_values"]:
    m = r["metrics"]
    f1, f2, s = (m[k]["value"] for k in ("throughput.flow1", "throughput.flow2", "throughput"))
    assert f1 > 0 and f2 > 0, m
    # the report rounds to 10 significant digits
    assert abs(s - (f1 + f2)) <= 1e-9 * s, (s, f1, f2)
c = d["cells"][0]["metrics"]
assert "throughput.flow1" in c and "throughput.flow2" in c, list(c)
PY
echo "ok: two flows stored, throughput = flow1 + flow2, shown in the JSON report"

# 2. A failing flow fails its run, named; the session goes on.
ip netns exec "$ns" iperf3 -s -p "$port" >s1.log 2>&1 &
s1=$!
ip netns exec "$ns" iperf3 -s -1 -p $((port + 1)) >s2.log 2>&1 &
s2=$!
xr_at_exit "kill $s1 $s2 2>/dev/null"
for _ in $(seq 200); do
	[ "$(ip netns exec "$ns" ss -Hltn "( sport = :$port or sport = :$((port + 1)) )" | wc -l)" = 2 ] && break
	sleep 0.05
done
plan own false 3
XR_DB=own.db
set +e
"$XRUN" run own.yaml --db own.db >own.out 2>own.err
rc=$?
set -e
[ $rc = 1 ] || fail "exit $rc, want 1 (failed runs): $(cat own.err)"
[ "$(q "select count(*) from runs where status in ('ok', 'failed')")" = 3 ] ||
	fail "every run done: $(q "select position,status,reason from runs")"
[ "$(q "select count(*) from runs where status='ok'")" = 1 ] ||
	fail "the first run (both servers there) is ok: $(q "select position,status,reason from runs")"
[ "$(q "select count(*) from runs where status='failed' and reason like 'flow 2 of 2 (port $((port + 1))): %'")" = 2 ] ||
	fail "flow 2 named: $(q "select status,reason from runs")"
[ "$(q "select count(*) from metrics m join runs r on r.id=m.run_id where r.status='failed' and m.name='throughput'")" = 0 ] ||
	fail "a failed run has no run throughput"
[ "$(q "select count(*) from metrics m join runs r on r.id=m.run_id where r.status='failed' and m.name='throughput.flow1' and m.value > 0")" = 2 ] ||
	fail "flow 1 of a failed run keeps its measurement"
kill "$s1" 2>/dev/null || true
echo "ok: a failed flow fails its run with the flow named; the session goes on"

# 3. Bad input: file:line:col, exit 2.
cat >bad.yaml <<YAML
xrun: 1
name: bad
engine:
  type: iperf3
  client: local
  server: { host: local, start: true }
  port: 65535
  cport: 6000
  flows: 2
factors:
  f: { levels: [1, 2], param: flows }
sample: off
YAML
set +e
"$XRUN" validate bad.yaml >bad.out 2>bad.err
rc=$?
set -e
[ $rc = 2 ] || fail "validate exit $rc, want 2"
grep -qxF "bad.yaml:8:3: error: iperf3 'cport' cannot be set with flows: 2 (the flows would bind the same client port)" bad.err ||
	fail "cport: $(cat bad.err)"
grep -qxF "bad.yaml:9:3: error: iperf3 flows: 2 from port 65535 need ports up to 65536 (past 65535)" bad.err ||
	fail "port range: $(cat bad.err)"
grep -q "^bad.yaml:11:3: error: factor 'f': cannot vary 'flows'" bad.err ||
	fail "factor: $(cat bad.err)"
grep -q "bad value '17' for iperf3 parameter 'flows'" <(sed 's/flows: 2/flows: 17/' bad.yaml >b17.yaml; "$XRUN" validate b17.yaml 2>&1) ||
	fail "17 flows accepted"
echo "ok: bad flows input refused with its position"
