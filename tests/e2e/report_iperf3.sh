#!/bin/bash
# SPDX-License-Identifier: MIT
# Reports from real loopback iperf3 runs (1 s each): `xrun run` writes the
# plan's report outputs (Markdown and JSON) at the end of the run, then
# `xrun report` renders md, csv and json again from the store. Checks that
# the medians the store holds are the model's, interval statistics come
# from the iperf3 intervals, the comparison (n=3+3) has the verdict its
# CI and the threshold give, and the text formats have their tables.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need iperf3 jq sqlite3
xr_tmpdir dir

# A port of its own: other tests may be using iperf3's default.
port=$(xr_free_port)
cat > plan.yaml <<YAML
xrun: 1
name: report-iperf3
title: "Loopback iperf3 report"
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
order: abba
report:
  output: [run.md, run.json]
sample: off
YAML
if ! "$XRUN" run plan.yaml --db r.db --unattended --yes > run.out 2>&1; then
	cat run.out >&2
	exit 1
fi
"$XRUN" report --db r.db -o r.json
"$XRUN" report --db r.db -o r.md
"$XRUN" report --db r.db -o r.csv

fail=0
t() { if eval "$1"; then echo "ok - $2"; else echo "not ok - $2"; fail=1; fi; }
t '[ -s run.md ] && [ -s run.json ]' "xrun run wrote the plan's outputs"
t 'jq -e ".cells | length == 2" run.json > /dev/null' "run.json has the cells"
t 'grep -q "^|---" r.md' "markdown pipe table"
t '[ "$(head -1 r.csv | cut -d, -f1-3)" = "plan,streams,metric" ]' "csv header"
t 'jq -e "[.cells[] | .n == 3 and .interval.n > 0 and .interval.peak >= .min]
	| all" r.json > /dev/null' "n=3 per cell, interval statistics present"
t 'jq -e ".comparisons | length == 1 and (.[0] | .n_a == 3 and .n_b == 3)" \
	r.json > /dev/null' "one streams comparison, n=3+3"
# Loopback throughput decides no particular verdict, but the verdict must be
# the one its CI and the threshold give (higher throughput is better).
t 'jq -e "(.threshold * 100) as \$th | .comparisons[0] |
	if .verdict == \"not_comparable\" then (.reason_codes | length > 0)
	elif .ci_low_pct > \$th then .verdict == \"better\"
	elif .ci_high_pct < -\$th then .verdict == \"worse\"
	elif .ci_low_pct >= -\$th and .ci_high_pct <= \$th then
		.verdict == \"equivalent\"
	else .verdict == \"not_significant\" end" r.json > /dev/null' \
	"the verdict follows from its CI and the threshold"
# Medians from the store, compared with the model's (relative 1e-9).
nmed=0
while IFS='|' read -r cell med; do
	got=$(jq -r --argjson c "$cell" '.cells[] | select(.cell == $c) |
		.median' r.json)
	t "awk -v a=$got -v b=$med 'BEGIN { d = a - b; if (d < 0) d = -d;
		exit !(d <= 1e-9 * b) }'" "median of $cell: $got"
	nmed=$((nmed + 1))
	top=$(awk -v a="${top:-0}" -v b="$med" 'BEGIN { print (b > a ? b : a) }')
done < <(sqlite3 r.db "
	WITH v AS (SELECT r.cell AS cell, m.value AS value FROM runs r
		JOIN metrics m ON m.run_id = r.id WHERE r.status = 'ok'
		AND r.warmup = 0 AND m.name = 'throughput'),
	o AS (SELECT cell, value, ROW_NUMBER() OVER (PARTITION BY cell
		ORDER BY value) AS k, COUNT(*) OVER (PARTITION BY cell) AS n
		FROM v)
	SELECT cell, AVG(value) FROM o WHERE k IN ((n + 1) / 2, (n + 2) / 2)
	GROUP BY cell ORDER BY cell;")
t '[ $nmed = 2 ]' "two medians in the store"
# The display unit from the largest cell median (model_stats.c: a factor
# of 1000 while the median is at least 1000 of it): Gbit/s from 1e9 bit/s
# on a quiet machine, Mbit/s when the machine is loaded.
unit=$(awk -v t="${top:-0}" 'BEGIN { u = "bit/s"; if (t >= 1e3) u = "kbit/s";
	if (t >= 1e6) u = "Mbit/s"; if (t >= 1e9) u = "Gbit/s"; if (t >= 1e12) u = "Tbit/s"; print u }')
t "grep -qF $unit r.md" "display unit $unit"
exit $fail
