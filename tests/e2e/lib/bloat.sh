#!/bin/bash
# SPDX-License-Identifier: MIT
# A standing queue in a lab link's tbf (bufferbloat) without netem, for
# the window-bound case of issue 25 (bench/explain.sh `window`,
# tests/e2e/lab_explain_window.sh). A background iperf3 of 8 streams, each
# window-capped (-w 256K; the kernel caps SO_RCVBUF at net.core.rmem_max),
# keeps the tbf at its rate with 0.3-2.3 MB queued: every packet through
# it, the test flow's ACKs too, waits queue / rate (25-55 ms at 100mbit)
# and the queue's limit (tbf latency 400ms at 100mbit: 5 MB) is never
# reached, so nothing drops. A test flow in reverse (data from the server, unqueued; its ACKs
# wait in the client's tbf) with a small window (16K) then runs at
# window / RTT, far below the tbf (forward, its own packets would sit in
# its host's tbf and TCP small queues would hold it instead). Measured
# (bench/RESULTS.md, "The window-bound lab case"): at 100mbit, test
# flow 3.2-6.5 Mbit/s at 0.90-0.97 of min(cwnd, snd_wnd) / RTT, RTT
# 25-55 ms, 0 drops (load 10-15); at 1000mbit the queue (8 ms) drained
# whenever the background flow was descheduled at load 13-19, and the fit
# went.
#   bloat_up CLIENT_NS SERVER_NS SERVER_ADDR IFACE DIR   (sets BLOAT_PIDS)
#   bloat_wait CLIENT_NS IFACE [SECONDS]   (the backlog > 1 MB again)
#   bloat_down
# Waits (event: the qdisc's backlog > 1 MB, polled) at most 30 s; returns 1
# with a message when the queue does not build.
bloat_up() {
	local cns=$1 sns=$2 addr=$3 dev=$4 dir=$5 port i
	port=$(ip netns exec "$sns" python3 -c 'import socket
s = socket.socket()
s.bind(("", 0))
print(s.getsockname()[1])') || return 1
	ip netns exec "$sns" iperf3 -s -1 -B "$addr" -p "$port" >"$dir/bloat-s.log" 2>&1 &
	BLOAT_PIDS=$!
	for i in $(seq 300); do
		ip netns exec "$sns" ss -Hltn "sport = :$port" | grep -q . && break
		sleep 0.1
	done
	ip netns exec "$cns" iperf3 -c "$addr" -p "$port" -t 600 -P 8 -w 256K \
		>"$dir/bloat-c.log" 2>&1 &
	BLOAT_PIDS="$BLOAT_PIDS $!"
	bloat_wait "$cns" "$dev"
}

# Waits (polled) at most SECONDS (30) for the tbf's backlog on CLIENT_NS's
# IFACE to exceed 1 MB again: 0, or 1 with a message.
bloat_wait() { # CLIENT_NS IFACE [SECONDS]
	local i b=0 s=${3:-30}
	for i in $(seq $((s * 10))); do
		b=$(ip netns exec "$1" tc -s qdisc show dev "$2" |
			sed -n 's/.*backlog \([0-9]*\)b.*/\1/p' | head -1)
		[ "${b:-0}" -gt 1000000 ] && return 0
		sleep 0.1
	done
	echo "bloat_up: the tbf's backlog stayed at ${b:-0} B (< 1 MB) for $s s" >&2
	return 1
}

bloat_down() {
	local p
	for p in ${BLOAT_PIDS:-}; do
		kill "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	BLOAT_PIDS=
}
