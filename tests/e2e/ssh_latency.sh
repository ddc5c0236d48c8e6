#!/bin/bash
# SPDX-License-Identifier: MIT
# The latency probe sent from an ssh host (a real sshd on loopback,
# tests/e2e/lib/sshd.sh): `latency: { probe: ping, from: far, ... }` runs
# ping over ssh beside iperf3 (server on far, client local), its lines
# streamed back. Every run stores latency.rtt points under host 'far' in
# both phases and the latency metrics; the same with `probe: irtt` from far
# to the local host (xrun starts irtt's server here, the client there); no
# ping or irtt of this test is left after xrun exits (pgrep).
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need sqlite3 iperf3 ping pgrep
xr_tmpdir T
xr_need_sshd "$T"
port=$(xr_free_port)
plan() { # probe [to] [from]
	cat <<YAML
xrun: 1
name: ssh-latency-$1
hosts:
  far: $XR_SSHD_YAML
engine:
  type: iperf3
  client: local
  server: { host: far, start: true }
  target: 127.0.0.1
  duration: 2s
  port: $port
repeat: 2
latency: { probe: $1, from: ${3:-far}, to: ${2:-127.0.0.1}, interval: 70ms, idle: 1s }
YAML
}
check() { # db probe [sender]
	local from=${3:-far}
	[ "$(q "$1" "select count(*) from runs where status='ok'")" = 2 ] ||
		fail "$2 runs: $(q "$1" "select position, status, reason from runs")"
	few=$(q "$1" "select count(*) from runs r where
		(select count(*) from series s where s.run_id = r.id and s.host = '$from'
		 and s.name = 'latency.rtt' and s.t < 0) < 5 or
		(select count(*) from series s where s.run_id = r.id and s.host = '$from'
		 and s.name = 'latency.rtt' and s.t >= 0) < 5")
	[ "$few" = 0 ] || fail "$2: $few runs with fewer than 5 idle or loaded points of $from latency.rtt: $(q "$1" "select run_id, host, name, count(*) from series group by 1, 2, 3")"
	for m in idle_p50 loaded_p50 loss; do
		n=$(q "$1" "select count(*) from metrics where name = 'latency.$m'")
		[ "$n" = 2 ] || fail "$2: latency.$m stored for $n of 2 runs"
	done
	echo "# $2 from $from: $(q "$1" "select count(*) from series where name = 'latency.rtt'") points, idle p50 $(q "$1" "select printf('%.3f', avg(value) * 1e3) from metrics where name = 'latency.idle_p50'") ms"
}
plan ping >ping.yaml
"$XRUN" run ping.yaml --db ping.db --unattended 2>ping.err || { cat ping.err; fail "ping run exit $?"; }
check ping.db ping
if command -v irtt >/dev/null; then
	plan irtt local >irtt.yaml
	"$XRUN" run irtt.yaml --db irtt.db --unattended 2>irtt.err || { cat irtt.err; fail "irtt run exit $?"; }
	check irtt.db irtt
	n=$(q irtt.db "select count(*) from series where host = 'far' and name = 'latency.send_delay'")
	[ "$n" -ge 10 ] || fail "irtt from far: $n latency.send_delay points"
	# and toward the ssh host: xrun starts irtt's server there, over ssh
	plan irtt far local >irtt2.yaml
	"$XRUN" run irtt2.yaml --db irtt2.db --unattended 2>irtt2.err || { cat irtt2.err; fail "irtt to far exit $?"; }
	check irtt2.db irtt local
elif [ "${CI:-}" = true ]; then
	fail "no irtt (apt-get install irtt)"
else
	echo "# skipped the irtt half: no irtt"
fi
# this test's probes only (interval 0.070, which no other test uses; the
# unit tests' live probes use 0.050): another suite's may run beside it
left=$(pgrep -af "^(ping -n -D -i 0\.070|irtt client -i 0\.070s)" || true)
[ -z "$left" ] || fail "a probe is left: $left"
echo "ok: the latency probe (ping, irtt) sent from an ssh host, and irtt toward one (its server started over ssh)"
