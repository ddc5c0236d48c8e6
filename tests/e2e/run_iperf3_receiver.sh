#!/bin/bash
# SPDX-License-Identifier: MIT
# The stored intervals of a real 2 s loopback iperf3 run are the
# receiver's (issue 18: interval p95/peak must come from the side whose
# throughput sits beside them): forward, the server's intervals from
# server_output_json (--get-server-output against xrun's -J server);
# reverse, the client's own. Compared value by value with the JSON the
# store kept (runs.stdout), by sqlite3's json functions.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need iperf3 sqlite3
xr_tmpdir dir

port=$(xr_free_port)
cat > plan.yaml <<YAML
xrun: 1
name: receiver-intervals
engine:
  type: iperf3
  client: local
  server: { host: local, start: true }
  target: 127.0.0.1
  port: $port
  duration: 2s
factors:
  dir: { levels: ["false", "true"], param: reverse }
repeat: 1
sample: off
YAML
if ! "$XRUN" run plan.yaml --db r.db --unattended --yes > run.out 2>&1; then
	cat run.out >&2
	fail "xrun run"
fi
XR_DB=r.db
[ "$(q "select count(*) from runs where status = 'ok'")" = 2 ] ||
	fail "two ok runs: $(q "select status, reason from runs")"

# the receiver's sums, runts (< 1/4 of the longest) and omitted left out
want() { # run_id json-path-of-the-receiving-side
	q "with iv as (select key, json_extract(value, '\$.sum') s
	       from runs, json_each(runs.stdout, '$2') where runs.id = $1),
	    m as (select max(json_extract(s, '\$.end') -
	                     json_extract(s, '\$.start')) len from iv)
	   select printf('%.6f %.3f', json_extract(s, '\$.end'),
	                 json_extract(s, '\$.bits_per_second'))
	   from iv, m where json_extract(s, '\$.end') -
	                    json_extract(s, '\$.start') >= 0.25 * m.len
	   order by key"
}
got() { q "select printf('%.6f %.3f', t_end, value) from intervals
	   where run_id = $1 order by seq"; }

for id in $(q "select id from runs order by id"); do
	rev=$(q "select json_extract(stdout, '\$.start.test_start.reverse')
		 from runs where id = $id")
	side='$.server_output_json.intervals'
	[ "$rev" = 1 ] && side='$.intervals'
	w=$(want "$id" "$side")
	g=$(got "$id")
	[ -n "$g" ] || fail "run $id: no intervals stored"
	[ "$g" = "$w" ] || fail "run $id (reverse=$rev): stored intervals
$g
are not the receiver's ($side)
$w"
	[ "$(q "select value from observed where run_id = $id and
		key = 'interval_side'")" = receiver ] ||
		fail "run $id: interval_side is not receiver"
	# the sender's intervals differ: the test would pass on them too
	# only by accident
	s=$(want "$id" "$([ "$rev" = 1 ] &&
		echo '$.server_output_json.intervals' || echo '$.intervals')")
	[ "$s" != "$g" ] || fail "run $id: sender and receiver alike"
	[ -n "$(q "select value from metrics where run_id = $id and
		name = 'rtt_mean' and value > 0")" ] ||
		fail "run $id: no rtt_mean metric"
done
echo "ok: stored intervals are the receiver's (forward and reverse)"
