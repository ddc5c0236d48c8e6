#!/bin/bash
# SPDX-License-Identifier: MIT
# A verify's read of a fact is a fact of its run (issue 34 Deliver 1;
# root: a network namespace). Factor m's apply hook runs on this machine
# and sets the MTU of an interface in a namespace (ip -n), so nothing
# touches the namespace's host: no fact of it is read again after the
# hook; factor chk only verifies that host's nic.mtu (expect {{m}}). Each
# run's fact set on the namespace host holds the MTU its verify read, a set
# caused by the verify (cause verify, factor chk) each time the value
# changed: runs of m=1400 name nic_mtu 1400, runs of m=1500 nic_mtu 1500.
# The namespace's host was opened at MTU 1500: its first set says 1500.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need_root "network namespaces"
xr_need ip sqlite3
N="xv$$"
xr_tmpdir T
xr_at_exit 'ip netns del "$N" 2>/dev/null'
ip netns add "$N"
ip -n "$N" link add "$N"a type veth peer name "$N"b
ip -n "$N" link set "$N"a up
cat >v.yaml <<YAML
xrun: 1
name: facts-verify
hosts:
  local: {}
  box: {netns: $N, iface: ${N}a}
engine:
  type: command
  run: [sh, "$XRUN_SOURCE_DIR/tests/e2e/lib/fault_engine.sh", values]
  metrics:
    throughput: { json: /rate_MBps, unit: MB/s }
factors:
  m:
    levels: ["1400", "1500"]
    apply: [ip, -n, $N, link, set, dev, ${N}a, mtu, "{{m}}"]
    on: [local]
  chk:
    levels: [x]
    verify: { probe: nic.mtu, expect: "{{m}}" }
    on: [box]
repeat: 2
order: sequential
sample: off
counters: none
YAML
"$XRUN" run v.yaml --db v.db --unattended 2>run.err || { cat run.err; fail "run exit $?"; }
got=$(q v.db "select json_extract(r.cell, '\$.m') || '=' || v.value || ':' || s.cause
	from runs r join run_facts f on f.run_id = r.id and f.host = 'box'
	join fact_sets s on s.id = f.set_id
	join fact_values v on v.set_id = s.id and v.key = 'nic_mtu'
	where r.status = 'ok' order by r.position" | tr '\n' ' ')
[ "$got" = "1400=1400:verify 1400=1400:verify 1500=1500:verify 1500=1500:verify " ] ||
	fail "runs' nic_mtu on box: '$got'; sets: $(q v.db 'select * from fact_sets')"
[ "$(q v.db "select group_concat(cause || ':' || coalesce(factor, '-'), ' ') from fact_sets where host = 'box' order by id")" = "open:- verify:chk verify:chk" ] ||
	fail "box's sets: $(q v.db "select id, cause, factor from fact_sets where host = 'box'")"
# The hook on this machine changed none of its facts: read again after
# each change, they are its open set still (a set only when they differ).
[ "$(q v.db "select group_concat(cause, ' ') from fact_sets where host = 'local'")" = open ] ||
	fail "local's sets: $(q v.db "select id, cause, factor from fact_sets where host = 'local'")"
echo "ok - a verify's read of nic.mtu is the fact of its run"
