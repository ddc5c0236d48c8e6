#!/bin/bash
# SPDX-License-Identifier: MIT
# A latency probe slow to start (fault injection: a `ping` on PATH that
# waits 1.5 s before it execs the real one, as ping over a new ssh session
# did on a loaded CI machine: "got no reply ... in its 1.1 s idle phase").
# The idle phase counts from the first reply: both runs are ok, each with
# at least 8 replies before the engine's start (idle 1 s at 100 ms), and
# a ping that never answers still fails its run with the reason, and
# leaves no process behind.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need sqlite3 iperf3 ping
xr_tmpdir T
real=$(command -v ping)
mkdir bin
cat >bin/ping <<SH
#!/bin/sh
# fault injection: a slow-starting ping
sleep 1.5
exec $real "\$@"
SH
chmod +x bin/ping
port=$(xr_free_port)
plan() { # target
	cat <<YAML
xrun: 1
name: probe-slow-start
engine:
  type: iperf3
  client: local
  server: { host: local, start: true }
  target: 127.0.0.1
  duration: 1s
  port: $port
repeat: 2
latency: { probe: ping, from: local, to: $1, interval: 100ms, idle: 1s }
YAML
}
plan 127.0.0.1 >slow.yaml
rc=0
PATH=$T/bin:$PATH "$XRUN" run slow.yaml --db slow.db --unattended 2>slow.err || rc=$?
[ $rc = 0 ] || { cat slow.err; fail "slow-starting probe: exit $rc"; }
[ "$(q slow.db "select count(*) from runs where status = 'ok'")" = 2 ] ||
	fail "runs: $(q slow.db "select position, status, reason from runs")"
few=$(q slow.db "select count(*) from runs r where (select count(*) from series s
	where s.run_id = r.id and s.name = 'latency.rtt' and s.t < 0) < 8")
[ "$few" = 0 ] || fail "$few runs with fewer than 8 idle replies: $(q slow.db "select run_id, count(*) from series where name = 'latency.rtt' and t < 0 group by 1")"
# A ping that never answers (fault injection: it prints nothing and
# sleeps): the run fails with why, after the idle phase and 5 s to start
mkdir mute
# its sleep's length names this test's process: pgrep sees every test's
mute=61.$$
printf '#!/bin/sh\n# fault injection: a ping that never answers\nexec sleep %s\n' "$mute" >mute/ping
chmod +x mute/ping
plan 127.0.0.1 >none.yaml
PATH=$T/mute:$PATH "$XRUN" run none.yaml --db none.db --unattended 2>none.err &&
	fail "a probe without replies: exit 0"
r=$(q none.db "select reason from runs order by id limit 1")
case $r in
*"got no reply from 127.0.0.1 in "*"(its idle phase and the time to start)"*) ;;
*) fail "no-reply reason: $r" ;;
esac
left=$(pgrep -fx "sleep $mute" || true)
[ -z "$left" ] || fail "the mute ping is left: $left"
echo "ok: a probe slow to start keeps its idle phase; one without replies fails its run with why"
