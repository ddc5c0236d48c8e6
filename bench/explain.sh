#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 25 Deliver 5: the bottleneck xrun names (JSON cells[].limit) on lab
# links whose bottleneck is known, N sessions each (root: network
# namespaces). Cases: line (tbf 1000mbit), htb (the unshaped pair behind
# an htb root whose default class has ceil 800mbit), pcie3x1 (the lab profile: a tbf
# at 6.2 Gbit/s, so "line" from the tbf; no PCIe fact exists in a lab),
# cpu (the unshaped veth pair), cpu-pinned (the same with iperf3's
# `affinity: '0,0'`: both processes on core 0, which saturates whatever
# the host gives), pcie3x1-pinned (pcie3x1 with the client on core 0,
# the server on core 1: the scheduler cannot put both on one core),
# cpu-01 (the unshaped pair pinned so: its capacity gates pcie3x1-pinned), drops (the unshaped pair behind a policer:
# htb root + matchall police 500mbit drop, which counts its drops in
# qdisc.drops; skipped without tc's police action; the policer is also
# read as a ceiling now, qdisc_police.c, so a run at >= 95% of it would be
# named line: not checked, no such kernel here), drops-tbf (a tbf of
# 1000mbit whose queue holds one burst of 3000 B and 50 us: TCP loses at
# its queue and stays far below the rate, counted in qdisc.drops: works
# without police), window (a tbf of 100mbit, latency 400ms, holding a
# standing queue of > 1 MB from a background flow, tests/e2e/lib/bloat.sh;
# the plan's iperf3 reverse with window 16K: its ACKs wait in the queue, so
# it runs at window / RTT, ~5 Mbit/s, no drops; no netem needed),
# sockbuf (UDP at 500M over the unshaped pair with iperf3's window 4K:
# the server's receive buffer overflows, udp.rcvbuf_errors). Prints
# per case the share named
# rightly (kind = truth), the cells called bound by something else (kind
# or also neither the truth nor none), the range of the engine's busiest
# process (% of a core, what EXPLAIN_PROC_BUSY reads), the throughput,
# with the load; then the totals over the counted cases. A shaped case is
# not counted when the unshaped pair (the cpu case, run first) carried
# less than 1.5x its rate in the same pass: the CPU holds it as much as
# its ceiling does, and it has no single truth (the slow hours of a
# shared VM). LOAD=N runs N busy loops beside the bench: another
# tenant's load, the slow hour on demand.
#   usage: bash bench/explain.sh [N]     (XRUN=path, default build/xrun;
#   KEEP=dir keeps the stores of the misses; LOAD=N; CASES="a b" runs
#   only those cases: a shaped case needs its gate's cpu case with it)
set -eu
N=${1:-3}
[ -z "${KEEP:-}" ] || mkdir -p "$KEEP"
XRUN=${XRUN:-build/xrun}
XRUN=$(realpath "$XRUN")
. "$(dirname "$(realpath "$0")")/../tests/e2e/lib/bloat.sh"
P="xb$$"
P=${P:0:10}
T=$(mktemp -d)
HOGS=
trap 'bloat_down; "$XRUN" lab down --prefix "$P" >/dev/null 2>&1; [ -z "$HOGS" ] || kill $HOGS 2>/dev/null; rm -rf "$T"' EXIT
for _ in $(seq "${LOAD:-0}"); do
	sh -c 'while :; do :; done' &
	HOGS="$HOGS $!"
done
cd "$T"
plan() { # case [engine lines]
	cat <<YAML
xrun: 1
name: bench-explain-$1
hosts:
  client: {netns: $P-client, address: 198.18.0.1, iface: $P-veth}
  server: {netns: $P-server, address: 198.18.0.2, iface: $P-veth}
engine:
  type: iperf3
  client: client
  server: { host: server, start: true }
  duration: 2s
${2:-}
repeat: 1
sample: 250ms
counters: [nic, tcp, cpu]
YAML
}
kinds() { # json: "kind also"
	python3 -c "import json,sys; l=json.load(open(sys.argv[1]))['cells'][0]['limit']; print(l['kind'], l['also'] or 'none'); print(l['text'], file=sys.stderr)" "$1"
}
proc() { # json: the engine's busiest process, % of a core (EXPLAIN_PROC_BUSY)
	python3 -c "import json,sys; m=json.load(open(sys.argv[1]))['run_values'][0]['metrics']; print(max(m.get(k, {}).get('value', 0) for k in ('cpu_host', 'cpu_remote')))" "$1"
}
tput() { # json: the run's throughput, bit/s
	python3 -c "import json,sys; m=json.load(open(sys.argv[1]))['run_values'][0]['metrics']; print(m.get('throughput', {}).get('value', 0))" "$1"
}
# What the unshaped pair carried this hour (the cpu cases, run first:
# their slowest session, in cap.CASE), and the totals over the counted
# cases.
TR=0 TW=0 TN=0 SKIP=
bench() { # case truth rate@gate (bit/s and the cpu case it needs; 0: none) lab-up-args...
	local c=$1 truth=$2 rate=${3%@*} gate=${3#*@} cap= right=0 wrong=0 i k a counted=1
	shift 3
	case " ${CASES:-$c} " in *" $c "*) ;; *) return 0 ;; esac
	"$XRUN" lab up --prefix "$P" "$@" >/dev/null
	if [ "$c" = drops ] && ! { ip netns exec "$P-client" tc qdisc replace \
		dev "$P-veth" root handle 1: htb default 1 &&
		ip netns exec "$P-client" tc filter add dev "$P-veth" parent 1: \
			matchall action police rate 500mbit burst 64k drop; } 2>/dev/null; then
		"$XRUN" lab down --prefix "$P" >/dev/null
		echo "drops: skipped (this kernel has no tc classifier or police action)"
		return 0
	fi
	if [ "$c" = htb ]; then # an htb root: default class ceil 800mbit under 900mbit
		ip netns exec "$P-client" tc qdisc replace dev "$P-veth" root handle 1: htb default 10
		ip netns exec "$P-client" tc class add dev "$P-veth" parent 1: classid 1:1 htb rate 900mbit burst 256k cburst 256k 2>/dev/null
		ip netns exec "$P-client" tc class add dev "$P-veth" parent 1:1 classid 1:10 htb rate 500mbit ceil 800mbit burst 256k cburst 256k 2>/dev/null
	fi
	if [ "$c" = window ]; then
		bloat_up "$P-client" "$P-server" 198.18.0.2 "$P-veth" "$T" || return 1
		plan "$c" "$(printf '  window: 16K\n  reverse: true')" >p.yaml
	elif [ "$c" = sockbuf ]; then # UDP into a 4 KB receive buffer
		plan "$c" "$(printf '  udp: true\n  bitrate: 500M\n  window: 4K')" >p.yaml
	elif [ "$c" = cpu-pinned ]; then # both iperf3 processes on core 0
		plan "$c" "  affinity: '0,0'" >p.yaml
	elif [ "$c" = pcie3x1-pinned ] || [ "$c" = cpu-01 ]; then # client core 0, server core 1
		plan "$c" "  affinity: '0,1'" >p.yaml
	else
		plan "$c" >p.yaml
	fi
	for i in $(seq "$N"); do
		rm -f s.db
		"$XRUN" run p.yaml --db s.db --unattended 2>/dev/null
		"$XRUN" report --db s.db -o s.json 2>/dev/null
		read -r k a < <(kinds s.json 2>>"texts.$c")
		proc s.json >>"procs.$c"
		tput s.json >>"tputs.$c"
		if [ "$k" = "$truth" ]; then
			right=$((right + 1))
		elif [ -n "${KEEP:-}" ]; then # the store of a miss, to read
			cp s.db "$KEEP/$c.$i.db"
		fi
		for x in $k $a; do
			if [ "$x" != "$truth" ] && [ "$x" != none ]; then
				wrong=$((wrong + 1))
				break
			fi
		done
	done
	bloat_down
	"$XRUN" lab down --prefix "$P" >/dev/null
	[ "$rate" != 0 ] || sort -g "tputs.$c" | head -1 >"cap.$c"
	# A shaped case's truth is its ceiling only when the CPU carries well
	# more: within 1.5x of what the unshaped pair (with the same pinning)
	# carried this hour, both hold the cell. The shaper costs CPU too:
	# beside two busy loops the tbf-shaped pair carried 0.62-0.66 of the
	# unshaped one (bench/RESULTS.md, "Known bottlenecks named").
	[ "$rate" = 0 ] || cap=$(cat "cap.$gate")
	if [ -n "$cap" ] &&
		python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) < 1.5 * float(sys.argv[2]) else 1)" "$cap" "$rate"; then
		counted=0
	fi
	printf '%-8s truth %-6s named rightly %d/%d, called bound by another %d/%d; engine process %s%% of a core; %s Gbit/s; load %s\n' \
		"$c" "$truth" "$right" "$N" "$wrong" "$N" \
		"$(sort -n "procs.$c" | sed -n '1p;$p' | xargs printf '%.1f-' | sed 's/-$//')" \
		"$(sort -g "tputs.$c" | sed -n '1p;$p' | xargs python3 -c 'import sys; print("-".join("%.2f" % (float(x) / 1e9) for x in sys.argv[1:]))')" \
		"$(cut -d' ' -f1-3 /proc/loadavg)"
	sed 's/^/    /' "texts.$c" | sort | uniq -c | sort -rn | head -3
	if [ $counted = 1 ]; then
		TR=$((TR + right)) TW=$((TW + wrong)) TN=$((TN + N))
	else
		SKIP="$SKIP $c"
		printf '    not counted: the unshaped pair (%s) carried %.2f Gbit/s this hour, under 1.5x its %.2f Gbit/s\n' \
			"$gate" "$(python3 -c "print($cap / 1e9)")" "$(python3 -c "print($rate / 1e9)")"
	fi
}
echo "# $(date -u +%FT%TZ) $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), ${LOAD:-0} busy loops beside"
bench cpu cpu 0 --profile 10gbe
bench cpu-pinned cpu 0 --profile 10gbe
bench cpu-01 cpu 0 --profile 10gbe
bench line line 1e9@cpu --rate 1000mbit
bench htb line 0.8e9@cpu --profile 10gbe
bench pcie3x1 line 6.2e9@cpu --profile pcie3x1
bench pcie3x1-pinned line 6.2e9@cpu-01 --profile pcie3x1
bench drops drops 0 --profile 10gbe
bench drops-tbf drops 0 --rate 1000mbit --burst 3000 --latency 50us
bench window window 0 --rate 100mbit --latency 400ms
bench sockbuf drops 0 --profile 10gbe
printf 'total: named rightly %d/%d (%s%%, goal >= 90%%), called bound by another %d (goal 0)%s\n' \
	"$TR" "$TN" "$(python3 -c "print(round(100 * $TR / max($TN, 1), 1))")" "$TW" \
	"${SKIP:+; not counted (no single truth this hour):$SKIP}"
