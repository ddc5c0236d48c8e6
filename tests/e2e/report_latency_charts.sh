#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Latency under load in the reports (issue 19 item 5): the per-cell table
# of idle against loaded latency in ms beside the throughput, each cell's
# round-trip time over time beside its throughput (idle phase shaded),
# and the CDF of the loaded round-trip time per cell, in HTML, Markdown
# (SVG files) and PDF, English and Japanese. A command engine prints the
# probe's metrics (ms, stored as s); the series latency.rtt and the
# intervals are put into the store with sqlite3 (known points), and
# python3 computes the empirical CDF of every point with t >= 0 from the
# same points and checks each step of the SVG's lines against the axes'
# own tick labels.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need sqlite3 python3 pdftotext
xr_tmpdir w
cat >p.yaml <<'PLAN'
xrun: 1
name: bloatcharts
engine:
  type: command
  run: [sh, -c, 'case "$0" in deep) i=12.4 l=45 ;; *) i=0.052 l=18 ;; esac; echo "{\"t\": 940, \"idle\": $i, \"loaded\": $l, \"p90\": 50, \"p99\": 61.25, \"inc\": 30, \"loss\": 2.5}"', "{{queue}}"]
  metrics:
    throughput: { json: /t, unit: Mbit/s }
    latency.idle_p50: { json: /idle, unit: ms }
    latency.loaded_p50: { json: /loaded, unit: ms }
    latency.loaded_p90: { json: /p90, unit: ms }
    latency.loaded_p99: { json: /p99, unit: ms }
    latency.increase_p50: { json: /inc, unit: ms }
    latency.loss: { json: /loss, unit: '%' }
factors:
  queue: { levels: [short, deep] }
repeat: 2
sample: off
PLAN
"$XRUN" run p.yaml --db c.db --quiet 2>run.err || { cat run.err; fail "run exit"; }
# every run: an RTT point per probe (t < 0: idle) and four 0.5 s intervals
cat >pts.json <<'JSON'
{"short": {"1": [[-1, 0.012], [-0.5, 0.0125], [0, 0.015], [0.5, 0.018], [1, 0.018], [1.5, 0.02]],
           "2": [[-1, 0.0121], [-0.5, 0.0124], [0, 0.016], [0.5, 0.017], [1, 0.019], [1.5, 0.021]]},
 "deep":  {"1": [[-1, 0.012], [-0.5, 0.0123], [0, 0.03], [0.5, 0.045], [1, 0.05], [1.5, 0.045]],
           "2": [[-1, 0.0122], [-0.5, 0.0125], [0, 0.032], [0.5, 0.044], [1, 0.048], [1.5, 0.047]]}}
JSON
python3 - pts.json >ins.sql <<'PY'
import json, sys
for q, reps in json.load(open(sys.argv[1])).items():
    for rep, p in reps.items():
        print("insert into series_data(run_id, attempt, host, name, unit, n, points) "
              "select id, attempts, 'local', 'latency.rtt', 's', %d, '%s' from runs "
              "where json_extract(cell, '$.queue') = '%s' and rep = %s;" % (len(p), json.dumps(p), q, rep))
PY
sqlite3 c.db <ins.sql || fail "insert series"
sqlite3 c.db "insert into intervals select r.id, s.seq, s.seq * 0.5, s.seq * 0.5 + 0.5, s.v
	from runs r, (select 0 seq, 9.1e8 v union all select 1, 9.4e8 union all select 2, 9.3e8 union all select 3, 9.4e8) s" ||
	fail "insert intervals"
[ "$(sqlite3 c.db "select count(*) from series where name = 'latency.rtt'")" = 24 ] || fail "the store has not the 24 points"

# the table: ms with three significant digits, no more than three decimals
"$XRUN" report p.yaml --db c.db -o r.md || fail "report md"
grep -qx "### Latency under load (median over runs)" r.md || fail "no latency table: $(grep -n '^###' r.md)"
grep -qx "| Cell | throughput | idle p50 | loaded p50 | loaded p90 | loaded p99 | increase p50 | probe loss |" r.md ||
	fail "latency table head: $(grep -A2 '### Latency' r.md)"
grep -qx "| queue=short | 940 Mbit/s | 0.052 ms | 18.0 ms | 50.0 ms | 61.2 ms | 30.0 ms | 2.50 % |" r.md ||
	fail "short row: $(grep -A4 '### Latency' r.md)"
grep -qx "| queue=deep | 940 Mbit/s | 12.4 ms | 45.0 ms | 50.0 ms | 61.2 ms | 30.0 ms | 2.50 % |" r.md ||
	fail "deep row: $(grep -A4 '### Latency' r.md)"
# the medians table of every metric says ms too, never "0.0001 s"
grep -q "| queue=short | 940 Mbit/s | 0.052 ms | 18.0 ms |" r.md || fail "metric medians: $(grep 'queue=short |' r.md)"
grep -q "idle 0.052 ms, loaded 18 ms" r.md || fail "summary: $(grep 'Latency under load |' r.md)"
# Markdown references the charts, written beside it
for c in latency-1 latency-2 cdf-1; do
	grep -q "](r-$c.svg)" r.md || fail "r.md does not reference r-$c.svg"
	[ -s "r-$c.svg" ] || fail "r-$c.svg not written"
done
grep -q '<title>Round-trip time under load, cumulative distribution per cell' r-cdf-1.svg || fail "cdf svg title"

# HTML: the CDF's steps and the time series' points where the axes put them
"$XRUN" report p.yaml --db c.db -o r.html || fail "report html"
python3 - r.html pts.json <<'PY' || fail "charts in r.html"
import json, re, sys
html = open(sys.argv[1]).read()
pts = json.load(open(sys.argv[2]))
def svg(kind):
    return re.findall(r'<svg [^>]*data-chart="%s".*?</svg>' % kind, html, re.S)
def paths(s):  # the lines with more than two points (axes and grid have two)
    out = []
    for d in re.findall(r'<path d="([^"]*)"', s):
        p = [tuple(map(float, m)) for m in re.findall(r'[ML](-?[\d.]+) (-?[\d.]+)', d)]
        if len(p) > 2:
            out.append(p)
    return out
def ticks(s, anchor):  # numeric labels with the given anchor: (value, x, y)
    t = []
    for x, y, a, v in re.findall(r'<text x="([\d.-]+)" y="([\d.-]+)" font-size="[\d.]+" text-anchor="(\w+)">(-?[\d.]+)</text>', s):
        if a == anchor:
            t.append((float(v), float(x), float(y)))
    return t
def fit(t):  # value -> position through the first and last tick
    (v0, p0), (v1, p1) = t[0], t[-1]
    return lambda v: p0 + (v - v0) * (p1 - p0) / (v1 - v0)
def close(a, b, what):
    assert abs(a - b) < 0.02, "%s: %.3f, expected %.3f" % (what, a, b)

(c,) = svg("cdf")
xt = ticks(c, "middle")
yt = ticks(c, "end")
assert xt[0][0] == 0 and yt[0][0] == 0 and yt[-1][0] == 1, (xt, yt)
X = fit([(v, x) for v, x, _ in xt])
Y = fit([(v, y - 0.33 * 7.5) for v, _, y in yt])
lines = paths(c)
assert len(lines) == 2, "%d lines in the CDF" % len(lines)
for cell, line in zip(["short", "deep"], lines):
    v = sorted(p[1] * 1e3 for rep in pts[cell].values() for p in rep if p[0] >= 0)
    want, i = [], 0
    while i < len(v):
        j = i
        while j < len(v) and v[j] == v[i]:
            j += 1
        want += [(v[i], i / len(v)), (v[i], j / len(v))]
        i = j
    assert len(line) == len(want), "%s: %d points, expected %d" % (cell, len(line), len(want))
    for (px, py), (ms, share) in zip(line, want):
        close(px, X(ms), "%s x of %.3f ms" % (cell, ms))
        close(py, Y(share), "%s y of %.3f" % (cell, share))
assert "queue=short (n=8)" in c and "queue=deep (n=8)" in c, "CDF legend"

ts = svg("latency")
assert len(ts) == 2, "%d latency charts" % len(ts)
for cell, s in zip(["short", "deep"], ts):
    xt = ticks(s, "middle")
    X = fit([(v, x) for v, x, _ in xt])
    R = fit([(v, y - 0.33 * 7.5) for v, _, y in ticks(s, "start")])  # the right axis, ms
    (band,) = re.findall(r'<rect x="([\d.]+)" y="[\d.]+" width="([\d.]+)" height="[\d.]+" fill="#e6edf7"', s)
    close(float(band[0]), X(-1), "idle band start")
    close(float(band[0]) + float(band[1]), X(0), "idle band end")
    lines = paths(s)
    assert len(lines) == 2, "%s: %d lines" % (cell, len(lines))
    rtt = [p for p in lines if len(p) == 6]
    assert len(rtt) == 1, [len(p) for p in lines]
    for (px, py), (t, v) in zip(rtt[0], pts[cell]["1"]):
        close(px, X(t), "%s t %.1f" % (cell, t))
        close(py, R(v * 1e3), "%s rtt %.1f ms" % (cell, v * 1e3))
    assert "run #1 (shaded: idle" in html
PY

# PDF: the charts' labels and the table, read back
"$XRUN" report p.yaml --db c.db -o r.pdf || fail "report pdf"
pdftotext r.pdf r.txt || fail "pdftotext"
for s in "Round-trip time under load, cumulative distribution per cell" "share of replies <= x" \
	"round-trip time under load (ms)" "queue=deep: throughput and round-trip time over time, run #1" \
	"round-trip time (right, ms)" "throughput (left, Mbit/s)" "Latency under load (median over runs)" \
	"seconds from the engine's start" "0.052 ms"; do
	grep -qF "$s" r.txt || fail "PDF lacks '$s'"
done
grep -qx "idle" r.txt || fail "PDF: the idle band's label"

# Japanese labels
"$XRUN" report p.yaml --db c.db -o j.md --lang ja || fail "report ja"
grep -qx "### 負荷時の遅延（試行の中央値）" j.md || fail "ja table"
grep -q "| セル | throughput | アイドル p50 | 負荷時 p50 | 負荷時 p90 | 負荷時 p99 | 増加 p50 | プローブ損失 |" j.md || fail "ja head"
grep -q "負荷時の往復遅延の累積分布" j-cdf-1.svg || fail "ja cdf title"
grep -q "負荷時の往復遅延（ms）" j-cdf-1.svg || fail "ja cdf axis"
grep -q "往復遅延（右軸、ms）" j-latency-1.svg || fail "ja time series key"
"$XRUN" report p.yaml --db c.db -o j.pdf --lang ja || fail "report ja pdf"
pdftotext j.pdf - | grep -q "負荷時の往復遅延（ms）" || fail "ja PDF axis"

# without the series and the probe's metrics: no latency chart nor table
sqlite3 c.db "delete from series_data where name = 'latency.rtt'" || fail "delete"
"$XRUN" report p.yaml --db c.db -o n.html || fail "report without series"
grep -q 'data-chart="cdf"\|data-chart="latency"' n.html && fail "a latency chart without latency.rtt"
sed -i '/latency\./d' p.yaml
"$XRUN" run p.yaml --db n.db --quiet 2>/dev/null || fail "run 2"
"$XRUN" report p.yaml --db n.db -o n.md || fail "report 2"
grep -q "Latency under load" n.md && fail "a latency table without the probe's metrics"
echo "ok: latency table in ms, RTT beside throughput and the loaded CDF in HTML, Markdown, PDF (en, ja)"
