#!/bin/bash
# The sampler of an ssh host (a real sshd on loopback, tests/e2e/lib/sshd.sh):
# one far-side shell loop per run, started over ssh, streams a snapshot
# every `sample:` period (runner/host/sampler.c, counters.c's sampler
# script). With the iperf3 server on the ssh host and `sample: 200ms`,
# every run stores several points of the far host's lo bytes, TCP segments
# and CPU busy; the far host's lo bytes over the engine's run hold at least
# the bytes iperf3 moved over lo (lo counts each byte once received); no
# run has a sampler note (it did not die); no far-side loop is left after
# xrun exits.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need sqlite3 iperf3
xr_tmpdir T
xr_need_sshd "$T"
XR_DB=s.db
port=$(xr_free_port)
cat >s.yaml <<YAML
xrun: 1
name: ssh-series
hosts:
  far: ${XR_SSHD_YAML/#\{/\{iface: lo, }
engine:
  type: iperf3
  client: local
  server: { host: far, start: true }
  target: 127.0.0.1
  duration: 2s
  port: $port
factors:
  streams: { levels: [1], param: parallel }
repeat: 2
sample: 200ms
counters: [nic, tcp, cpu]
YAML
"$XRUN" run s.yaml --db s.db --unattended 2>s.err || { cat s.err; fail "exit $?"; }
[ "$(q "select count(*) from runs where status='ok'")" = 2 ] ||
	fail "runs: $(q "select position, status, reason from runs")"
for name in nic.rx_bytes tcp.out_segs cpu.all.busy; do
	few=$(q "select count(*) from runs r where r.status='ok' and (select count(*)
		from series s where s.run_id = r.id and s.host = 'far' and s.name = '$name') < 8")
	[ "$few" = 0 ] || fail "$few runs with fewer than 8 points of far $name: \
$(q "select run_id, host, name, count(*) from series group by 1, 2, 3" | head -30)"
done
echo "# far points a run: $(q "select count(*) from series where host='far' and run_id = (select min(id) from runs)")"
# lo's received bytes during the engine's run against what iperf3 moved
# (throughput x 2 s): headers and ACKs only add.
ratio=$(q "select printf('%.3f', (select sum(value) from series where host='far'
	and name='nic.rx_bytes' and t > 0) * 8.0 / (select sum(value * 2.0) from metrics
	where name='throughput'))")
echo "# far lo rx bytes / engine bytes: $ratio"
[ "$(q :memory: "select $ratio >= 0.95")" = 1 ] || fail "far lo bytes below the engine's: $ratio"
[ "$(q "select count(*) from series_notes")" = 0 ] || fail "notes: $(q "select * from series_notes")"
sleep 0.3
# this test's loops only (iface lo, period 0.200): another suite's may run
left=$(pgrep -af "xrun-sample" | grep -E ' sh lo [a-z]* ?0\.200*$' || true)
[ -z "$left" ] || fail "a far-side sampler loop is left: $left"
echo "ok: ssh host sampled by one far-side loop per run"
