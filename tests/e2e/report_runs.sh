#!/bin/bash
# SPDX-License-Identifier: MIT
# Per-run values and the charts of the runs (issue 18) from real loopback
# iperf3 runs (1 s each, 2 cells x 3): the HTML holds a bar, a box and a
# time-series SVG; `report --runs -o runs.csv` has a row for every run and
# metric; the JSON run_values match the store; --runs refuses other
# formats; the PDF (en, ja) reads back with pdftotext and, rendered by
# pdftoppm, the series charts' areas hold their lines and boxes.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need iperf3 jq sqlite3 pdftotext pdftoppm python3
LIB=$(cd "$(dirname "$0")/lib" && pwd)
xr_tmpdir dir

port=$(xr_free_port)
cat > plan.yaml <<YAML
xrun: 1
name: report-runs
engine:
  type: iperf3
  client: local
  server: { host: local, start: true }
  target: 127.0.0.1
  port: $port
  duration: 1s
factors:
  streams: { levels: [1, 2], param: parallel }
repeat: 3
YAML
# A loopback run may fail on a loaded machine: that run is data too (a
# runs.csv row without a metric), so only no store is fatal.
"$XRUN" run plan.yaml --db r.db --unattended --yes > run.out 2>&1 || true
if [ ! -f r.db ] || [ "$(sqlite3 r.db "select count(distinct cell) from runs
	where status = 'ok'")" != 2 ]; then
	cat run.out >&2
	exit 1
fi
"$XRUN" report --db r.db -o r.html
"$XRUN" report --db r.db -o r.json
"$XRUN" report --db r.db -o r.pdf
"$XRUN" report --db r.db --lang ja -o ja.pdf
"$XRUN" report --db r.db --runs -o runs.csv
XR_DB=r.db

fail=0
t() { if eval "$1"; then echo "ok - $2"; else echo "not ok - $2"; fail=1; fi; }
t 'grep -q "data-chart=\"timeseries\"" r.html && grep -q "data-chart=\"box\"" r.html && grep -q "data-chart=\"bar\"" r.html' \
	"html: time-series, box and bar SVGs"
t '[ "$(grep -c "data-chart=\"timeseries\"" r.html)" = 2 ]' "one time series per cell"
runs=$(q "select count(*) from runs where warmup = 0")
rows=$(q "select sum(max(1, (select count(*) from metrics m where
	m.run_id = r.id and r.status = 'ok'))) from runs r where r.warmup = 0")
t '[ "$(tail -n +2 runs.csv | wc -l)" = "$rows" ]' "runs.csv: a row per run and metric ($rows)"
t '[ "$(tail -n +2 runs.csv | cut -d, -f4 | sort -u | wc -l)" = "$runs" ]' \
	"runs.csv: every run ($runs)"
t '[ "$(head -1 runs.csv | tr -d "\r")" = "plan,streams,session,run_id,rep,status,started_at,ended_at,metric,value,unit" ]' \
	"runs.csv header"
t 'jq -e ".run_values | length == $runs" r.json > /dev/null' "json: every run"
# every stored value, compared with the JSON's (relative 1e-9)
q "select m.run_id, m.name, m.value, r.rep, r.status from metrics m
	join runs r on r.id = m.run_id where r.warmup = 0 and r.status = 'ok'" \
	> store.txt
jq -r '.run_values[] | .id as $i | .rep as $p | .status as $s |
	.metrics | to_entries[] | "\($i)|\(.key)|\(.value.value)|\($p)|\($s)"' \
	r.json > json.txt
t '[ "$(wc -l < store.txt)" = "$(wc -l < json.txt)" ] && awk -F"|" "
	NR == FNR { v[\$1 \"|\" \$2] = \$3; m[\$1 \"|\" \$2] = \$4 \"|\" \$5; next }
	{ k = \$1 \"|\" \$2; d = v[k] - \$3; if (d < 0) d = -d;
	  if (!(k in v) || d > 1e-9 * (\$3 < 0 ? -\$3 : \$3) + 1e-12 ||
	      m[k] != \$4 \"|\" \$5) bad++ }
	END { exit bad > 0 }" store.txt json.txt' \
	"json run_values: every metric, rep and status as the store holds them"
t 'jq -e "[.run_values[] | .started_at > 0 and .ended_at >= .started_at] | all" r.json > /dev/null' \
	"json run_values: times"
t '! "$XRUN" report --db r.db --runs -o x.json 2> err.txt && grep -q "runs writes csv" err.txt && [ ! -e x.json ]' \
	"--runs with a json name: refused, nothing written"
t 'pdftotext r.pdf - 2>/dev/null | grep -q "throughput over time" && pdftotext r.pdf - 2>/dev/null | grep -q "distribution"' \
	"pdf reads back with both charts' titles"
# the PDF's series charts drawn (lib/pdfarea.py: ink and chart.c's
# palette 0 between the title and the legend, or below the title: the
# first run's line or dot and its legend swatch, the first box)
t 'python3 "$LIB/pdfarea.py" r.pdf over "#1" "#4573b0" 3000 150' \
	"pdf: the time series is drawn (runs' lines in their colours)"
t 'python3 "$LIB/pdfarea.py" r.pdf distribution. +170 "#4573b0" 1500 40' \
	"pdf: the distribution is drawn (boxes and dots)"
t 'pdftotext ja.pdf - | grep -q "時間ごとのスループット" && pdftotext ja.pdf - | grep -q "エンジン開始からの秒数" && pdftotext ja.pdf - | grep -q "の分布"' \
	"ja pdf: the series charts' titles and axis label"
t 'python3 "$LIB/pdfarea.py" ja.pdf 時間ごとの "#1" "#4573b0" 3000 150 && python3 "$LIB/pdfarea.py" ja.pdf の分布 +170 "#4573b0" 1500 40' \
	"ja pdf: both series charts drawn"
exit $fail
