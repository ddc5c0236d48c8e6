#!/bin/bash
# SPDX-License-Identifier: MIT
# Facts read again after a manual step and after an apply hook that
# failed (issue 34 Deliver 1; root: a network namespace whose interface's
# MTU stands for what a step changes).
# 1. A manual factor on a terminal (script(1), as e2e/run_manual_tty),
#    host 'box' (the namespace) the command engine's client: the first
#    block runs at the MTU box was opened with (1300); at the prompt of
#    the block change the test sets box's MTU to 1500 (the "card"
#    swapped) and presses Enter. The step's host (on: default client, box)
#    is read again: the second block's 2 runs name a box set holding
#    nic_mtu 1500, caused by the manual step of factor card at level b;
#    the first block's 2 name the open set (1300).
# 2. A factor whose apply hook runs in box, sets its MTU to the level and
#    exits 1: what it changed is read again all the same, so the runs of
#    m=1400 name a box set of nic_mtu 1400 (cause apply, factor m).
# Why not a unit test or a data case: the step between blocks and the
# hooks run only under `xrun run`, and the fact they change must be one
# this machine reads from an interface the test owns (root, a namespace
# created and removed by the test, which a case cannot remove).
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need_root "network namespaces"
xr_need ip sqlite3 script
N="xf$$"
xr_tmpdir T
xr_at_exit 'ip netns del "$N" 2>/dev/null'
ip netns add "$N"
ip -n "$N" link add "$N"a type veth peer name "$N"b
ip -n "$N" link set "$N"a up
ip -n "$N" link set "$N"a mtu 1300
cat >m.yaml <<YAML
xrun: 1
name: facts-manual
hosts:
  local: {}
  box: {netns: $N, iface: ${N}a}
engine:
  type: command
  client: box
  run: [sh, "$XRUN_SOURCE_DIR/tests/e2e/lib/fault_engine.sh", values]
  metrics:
    throughput: { json: /rate_MBps, unit: MB/s }
factors:
  card: { levels: [a, b], manual: "swap the card" }
repeat: 2
order: sequential
sample: off
counters: none
YAML
# Enter for the first block; at the block change's prompt, the swap, then
# Enter again; the pipe stays open 5 s more for the last block (script(1)
# ends the session at its end).
(
	sleep 1
	printf '\n'
	for _ in $(seq 150); do
		grep -q "manual step before run 3" tty.log 2>/dev/null && break
		sleep 0.2
	done
	ip -n "$N" link set "$N"a mtu 1500
	printf '\n'
	sleep 5
) | script -qfc "'$XRUN' run m.yaml --db m.db" tty.log >/dev/null 2>&1 || true
[ "$(q m.db "select count(*) from runs where status = 'ok'")" = 4 ] ||
	fail "runs: $(q m.db 'select position, status, reason from runs'); $(tr '\r' '\n' <tty.log)"
got=$(q m.db "select json_extract(r.cell, '\$.card') || '=' || v.value || ':' ||
	s.cause || ':' || coalesce(s.factor, '-') || ':' || coalesce(s.level, '-')
	from runs r join run_facts f on f.run_id = r.id and f.host = 'box'
	join fact_sets s on s.id = f.set_id
	join fact_values v on v.set_id = s.id and v.key = 'nic_mtu'
	order by r.position" | tr '\n' ' ')
[ "$got" = "a=1300:open:-:- a=1300:open:-:- b=1500:manual:card:b b=1500:manual:card:b " ] ||
	fail "runs' nic_mtu on box: '$got'; sets: $(q m.db 'select * from fact_sets')"

cat >h.yaml <<YAML
xrun: 1
name: facts-hook-failed
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
    levels: ["1400"]
    apply: [sh, -c, 'ip link set dev "\$1" mtu "\$2"; exit 1', sh, ${N}a, "{{m}}"]
    on: [box]
repeat: 2
sample: off
counters: none
YAML
"$XRUN" run h.yaml --db h.db --unattended >h.out 2>&1 || true
got=$(q h.db "select v.value || ':' || s.cause || ':' || coalesce(s.factor, '-')
	from runs r join run_facts f on f.run_id = r.id and f.host = 'box'
	join fact_sets s on s.id = f.set_id
	join fact_values v on v.set_id = s.id and v.key = 'nic_mtu'
	order by r.position" | tr '\n' ' ')
[ "$got" = "1400:apply:m 1400:apply:m " ] ||
	fail "after a failed hook, runs' nic_mtu on box: '$got'; sets: $(q h.db 'select * from fact_sets'); $(cat h.out)"
echo "ok - facts read again after a manual step and a failed hook"
