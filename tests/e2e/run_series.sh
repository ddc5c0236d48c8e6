#!/bin/bash
# SPDX-License-Identifier: MIT
# Series and series metrics on loopback with real iperf3 (issue 18): every
# run stores its intervals as the series engine.throughput on the
# receiving host (the view series, schema/store.md); the plan's series
# metrics (max, p95, median, delta per second) are ordinary metric rows
# equal to what SQL computes from the series; a series metric's `better:
# lower` decides its verdicts' direction; after SIGINT the interrupted run
# is stored `interrupted` with its series and the runs before it keep
# theirs; after SIGKILL every committed run keeps its series and the run
# in flight keeps the chunks flushed every 2 s (schema version 8), which
# its redo on resume does not mix with its own: the view shows the redo's,
# series_data keeps the killed attempt's (schema/store.md).
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need iperf3 sqlite3 jq python3
xr_tmpdir T
port=$(xr_free_port)
plan() { # name duration repeat
	cat <<YAML
xrun: 1
name: $1
engine:
  type: iperf3
  client: local
  server: { host: local, start: true }
  duration: $2
  port: $port
  metrics:
    iv_max: { series: engine.throughput, stat: max }
    iv_p95: { series: engine.throughput, host: server, stat: p95, better: lower }
    iv_median: { series: engine.throughput }
    iv_bits: { series: engine.throughput, stat: delta, rate: true }
factors:
  streams: { levels: [1, 2], param: parallel }
repeat: $3
report:
  compare: [ { factor: streams, baseline: "1" } ]
YAML
}
plan s 2s 2 >s.yaml
"$XRUN" run s.yaml --quiet 2>run.err || { cat run.err; fail "run failed"; }
! grep -q warning run.err || fail "warnings: $(cat run.err)"
XR_DB=s.db
[ "$(q "select count(*) from runs where status='ok'")" = 4 ] || fail "4 ok runs expected"
[ "$(q "select count(distinct run_id) from series where name='engine.throughput' and host='local' and unit='bit/s'")" = 4 ] ||
	fail "engine.throughput missing: $(q "select run_id,host,name,n from series_data")"
[ "$(q "select min(n) from series_data")" -ge 2 ] || fail "fewer than 2 points: $(q "select n from series_data")"
# The series is the engine's intervals, point by point, in order (a
# joint on t alone matched a last short interval of iperf3's, ending
# within a millisecond of the one before, twice).
[ "$(q "with s as (select run_id, row_number() over (partition by run_id order by t) k, t, value from series where name = 'engine.throughput'),
  i as (select run_id, row_number() over (partition by run_id order by seq) k, t_end, value from intervals)
  select count(*) from s join i using (run_id, k) where abs(i.t_end - s.t) <= 0.0005 + 1e-9 and abs(i.value - s.value) <= 1e-6 * abs(i.value)")" = \
  "$(q "select count(*) from intervals")" ] &&
[ "$(q "select count(*) from series where name = 'engine.throughput'")" = "$(q "select count(*) from intervals")" ] ||
	fail "series differ from the intervals: $(q "select run_id, seq, t_end, value from intervals") vs $(q "select run_id, t, value from series where name = 'engine.throughput'")"
# Each metric against SQL and Python over the view.
q "select run_id, t, value from series where name='engine.throughput' order by run_id, t" >pts.txt
q "select run_id, name, value, unit from metrics where name like 'iv_%' order by run_id, name" >met.txt
python3 - pts.txt met.txt <<'PY' || fail "series metrics differ from the series"
import sys, statistics as st
pts = {}
for line in open(sys.argv[1]):
    r, t, v = line.strip().split("|")
    pts.setdefault(int(r), []).append((float(t), float(v)))
want = {}
for r, p in pts.items():
    v = [x for _, x in p]
    ts = [t for t, _ in p]
    dts = [ts[0 + 1] - ts[0]] + [ts[k] - ts[k - 1] for k in range(1, len(ts))]
    want[(r, "iv_max")] = (max(v), "bit/s")
    want[(r, "iv_p95")] = (st.quantiles(v, n=20, method="inclusive")[18], "bit/s")
    want[(r, "iv_median")] = (st.median(v), "bit/s")
    want[(r, "iv_bits")] = (sum(v) / sum(dts), "bit/s/s")
seen = 0
for line in open(sys.argv[2]):
    r, name, val, unit = line.strip().split("|")
    w, u = want[(int(r), name)]
    # the view's t is to the millisecond: a rate's span within 0.2%
    tol = 2e-3 if name == "iv_bits" else 1e-6
    if abs(float(val) - w) > tol * w or unit != u:
        print("FAIL: run %s %s = %s %s, want %r %s" % (r, name, val, unit, w, u))
        sys.exit(1)
    seen += 1
if seen != 4 * len(pts):
    print("FAIL: %d metric rows, want %d" % (seen, 4 * len(pts)))
    sys.exit(1)
PY
# better: lower on the series metric reaches the verdicts; a metric
# without it keeps its direction by name.
"$XRUN" report s.yaml --metric iv_p95 -o p95.json 2>rep.err || { cat rep.err; fail "report failed"; }
[ "$(jq -r '[.comparisons[].higher_is_better] | unique | @csv' p95.json)" = false ] ||
	fail "iv_p95 not lower-is-better: $(jq -c '.comparisons' p95.json)"
"$XRUN" report s.yaml --metric iv_max -o max.json 2>rep.err || { cat rep.err; fail "report failed"; }
[ "$(jq -r '[.comparisons[].higher_is_better] | unique | @csv' max.json)" = true ] ||
	fail "iv_max not higher-is-better: $(jq -c '.comparisons' max.json)"

# SIGINT in the second run: the first keeps its series, the second is
# stored interrupted with what the run loop handed over.
plan i 4s 1 >i.yaml
XR_DB=i.db
"$XRUN" run i.yaml --quiet 2>int.err &
pid=$!
for _ in $(seq 100); do
	[ "$(q "select count(*) from runs where status='running' and position=1" 2>/dev/null || echo 0)" = 1 ] && break
	sleep 0.1
done
sleep 1
kill -INT $pid
rc=0
wait $pid || rc=$?
[ $rc = 130 ] || fail "SIGINT exit $rc, want 130: $(cat int.err)"
[ "$(q "select status from runs order by position" | tr '\n' ' ')" = "ok interrupted " ] ||
	fail "statuses: $(q "select position, status from runs")"
[ "$(q "select count(*) from series_data d join runs r on r.id = d.run_id where r.position = 0")" -ge 1 ] ||
	fail "the finished run lost its series after SIGINT"
# The interrupted run: the sampler's series up to the signal, whole
# (chunk 0: what the run loop stored), the lead-in included.
[ "$(q "select count(*) from series s join runs r on r.id = s.run_id where r.position = 1 and s.name = 'cpu.all.busy' and s.t > 0.5")" -ge 1 ] ||
	fail "the interrupted run has no series: $(q "select run_id, attempt, chunk, host, name, n from series_data")"
[ "$(q "select count(*) from series_data d join runs r on r.id = d.run_id where r.position = 1 and d.chunk <> 0")" = 0 ] ||
	fail "the interrupted run kept chunks beside its whole series"

# SIGKILL in the second run, 3 s into its 4 s: the first keeps its
# series, the run in flight its chunks (one flush at 2 s at least: the
# lead-in and the first seconds), and it is redone on resume.
plan k 4s 1 >k.yaml
XR_DB=k.db
"$XRUN" run k.yaml --quiet 2>kill.err &
pid=$!
for _ in $(seq 100); do
	[ "$(q "select count(*) from runs where status='running' and position=1" 2>/dev/null || echo 0)" = 1 ] && break
	sleep 0.1
done
sleep 3
kill -KILL $pid
wait $pid 2>/dev/null || true
[ "$(q "select status from runs order by position" | tr '\n' ' ')" = "ok running " ] ||
	fail "statuses after SIGKILL: $(q "select position, status from runs")"
[ "$(q "select count(*) from series_data d join runs r on r.id = d.run_id where r.position = 0")" -ge 1 ] ||
	fail "the committed run lost its series after SIGKILL"
k1=$(q "select id from runs where position = 1")
[ "$(q "select count(*) from series_data where run_id = $k1 and chunk >= 1 and attempt = 1")" -ge 1 ] ||
	fail "the killed run kept no chunk: $(q "select run_id, attempt, chunk, name, n from series_data")"
# The view shows them: the lead-in (t < 0) and at least 1 s of the run.
[ "$(q "select count(*) from series where run_id = $k1 and name = 'cpu.all.busy' and t < 0")" -ge 1 ] ||
	fail "the killed run's lead-in is not in the view"
[ "$(q "select max(t) from series where run_id = $k1 and name = 'cpu.all.busy'")" \> 0.9 ] ||
	fail "the killed run's chunks end before 1 s: $(q "select t from series where run_id = $k1 and name = 'cpu.all.busy'")"
# No point twice across chunks.
[ "$(q "select count(*) from (select t from series where run_id = $k1 and name = 'cpu.all.busy' group by t having count(*) > 1)")" = 0 ] ||
	fail "a point in two chunks"
killed_pts=$(q "select count(*) from series where run_id = $k1")
"$XRUN" run k.yaml --quiet 2>resume.err || { cat resume.err; fail "resume failed"; }
[ "$(q "select status from runs order by position" | tr '\n' ' ')" = "ok ok " ] ||
	fail "resume did not complete the plan: $(q "select position, status, attempts from runs")"
[ "$(q "select count(distinct run_id) from series")" = 2 ] || fail "resume: series of both runs expected"
# The redo (attempt 2) is one whole row a series; the killed attempt's
# chunks stay beside it, out of the view.
[ "$(q "select count(*) from series_data where run_id = $k1 and attempt = 2 and chunk <> 0")" = 0 ] ||
	fail "the redo kept its chunks"
[ "$(q "select count(*) from series_data where run_id = $k1 and attempt = 1 and chunk >= 1")" -ge 1 ] ||
	fail "the killed attempt's chunks were dropped"
[ "$(q "select count(*) from series where run_id = $k1")" = \
  "$(q "select count(*) from series_data d, json_each(d.points) where d.run_id = $k1 and d.attempt = 2")" ] ||
	fail "the view mixes the attempts of run $k1"
[ "$(q "select count(*) from (select name, t from series where run_id = $k1 group by host, name, t having count(*) > 1)")" = 0 ] ||
	fail "the view shows a point twice after the redo"
[ "$killed_pts" -ge 1 ] || fail "no point of the killed attempt"
# The report reads the redo's series.
"$XRUN" report k.yaml -o k.json 2>rep.err || { cat rep.err; fail "report of the resumed store failed"; }
echo "ok"
