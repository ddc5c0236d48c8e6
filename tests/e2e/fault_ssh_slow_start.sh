#!/bin/bash
# SPDX-License-Identifier: MIT
# An ssh host slow to answer (fault injection: an `ssh` on PATH that
# waits 1 s before it execs the real one, as a new session did on a loaded
# CI machine, where e2e/ssh_series kept 7 of 12 points and e2e/ssh_latency
# got no reply in its idle phase). The lead-in counts from the far side's
# first snapshot and the probe's first reply: with the iperf3 server, the
# sampler and the ping probe on the ssh host (a real sshd on loopback),
# every run keeps at least 7 points of the far host's nic.rx_bytes (2 s
# at 200 ms and the lead-in's one: 11), one of them before the engine's
# start (t < 0), and 5 idle replies (1 s at 100 ms).
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need sqlite3 iperf3 ping ssh
xr_tmpdir T
xr_need_sshd "$T"
real=$(command -v ssh)
mkdir bin
printf '#!/bin/sh\n# fault injection: a slow ssh\nsleep 1\nexec %s "$@"\n' "$real" >bin/ssh
chmod +x bin/ssh
port=$(xr_free_port)
plan() { # name, then the lines after repeat:
	cat <<YAML
xrun: 1
name: $1
hosts:
  far: ${XR_SSHD_YAML/#\{/\{iface: lo, }
engine:
  type: iperf3
  client: local
  server: { host: far, start: true }
  target: 127.0.0.1
  duration: 2s
  port: $port
repeat: 2
$2
YAML
}
run() { # db
	local rc=0
	PATH=$T/bin:$PATH "$XRUN" run "$1.yaml" --db "$1.db" --unattended 2>"$1.err" || rc=$?
	[ $rc = 0 ] || { cat "$1.err"; fail "$1: exit $rc"; }
	[ "$(q "$1.db" "select count(*) from runs where status='ok'")" = 2 ] ||
		fail "$1 runs: $(q "$1.db" "select position, status, reason from runs")"
}
# The sampler alone (a probe's wait would hide its own)
plan ssh-slow-sampler $'sample: 200ms\ncounters: [nic, cpu]' >s.yaml
run s
few=$(q s.db "select count(*) from runs r where (select count(*) from series s
	where s.run_id = r.id and s.host = 'far' and s.name = 'nic.rx_bytes') < 7")
[ "$few" = 0 ] || fail "$few runs with fewer than 7 points of far nic.rx_bytes: $(q s.db "select run_id, count(*) from series where host = 'far' and name = 'nic.rx_bytes' group by 1")"
idle=$(q s.db "select count(*) from runs r where not exists (select 1 from series s
	where s.run_id = r.id and s.host = 'far' and s.name = 'nic.rx_bytes' and s.t < 0)")
[ "$idle" = 0 ] || fail "$idle runs without a lead-in point of far nic.rx_bytes: $(q s.db "select run_id, min(t) from series where host = 'far' and name = 'nic.rx_bytes' group by 1")"
echo "# far points a run: $(q s.db "select group_concat(n) from (select count(*) n from series where host = 'far' and name = 'nic.rx_bytes' group by run_id)")"
# The probe alone
plan ssh-slow-probe $'sample: off\nlatency: { probe: ping, from: far, to: 127.0.0.1, interval: 100ms, idle: 1s }' >l.yaml
run l
few=$(q l.db "select count(*) from runs r where (select count(*) from series s
	where s.run_id = r.id and s.host = 'far' and s.name = 'latency.rtt' and s.t < 0) < 5")
[ "$few" = 0 ] || fail "$few runs with fewer than 5 idle replies: $(q l.db "select run_id, count(*) from series where name = 'latency.rtt' and t < 0 group by 1")"
echo "ok: a slow ssh host keeps its lead-in: the sampler's points and the probe's idle replies"
