#!/bin/bash
# SPDX-License-Identifier: MIT
# xrun report -o x.pdf end to end: a store from SQL inserts following
# schema/store.sql (known values, a failed run, host facts: checked below)
# or, with XRUN_E2E_REAL_DB=1, from real loopback iperf3 runs (xrun run
# with a 1 s plan: the units assume loopback above 1 Gbit/s, which a
# loaded machine running the suite in parallel does not give); then the PDF in
# English and Japanese read back with pdftotext: the medians the DB holds
# (formatted the way the report formats them), labels, headings, the
# verdict column, and a page rendered with pdftoppm (kept with
# XRUN_KEEP_PDF=1 for a look).
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need pdftotext pdftoppm sqlite3
if ! fc-list 2>/dev/null | grep -qi ipaex && [ -z "${XRUN_FONT:-}" ]; then
	xr_skip "no Japanese TrueType font (fonts-ipaexfont-gothic)"
fi
XR_KEEP=${XRUN_KEEP_PDF:-}
xr_tmpdir dir

# The same formatting as report_fmt_value: 3 significant digits, Gbit/s.
fmt_gbit() {
	awk -v v="$1" 'BEGIN { x = v / 1e9; a = x < 0 ? -x : x;
		d = a >= 100 || a == 0 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : a >= 0.1 ? 3 : 4;
		printf "%.*f\n", d, x }'
}

# A port of our own: tests run in parallel (and 5201 may be anyone's).
port=$(xr_free_port)
cat > e2e.yaml <<YAML
xrun: 1
name: e2e-pdf
title: "E2E loopback PDF"
engine:
  type: iperf3
  client: local
  server: { host: local, start: true }
  duration: 1s
  port: $port
  target: 127.0.0.1
factors:
  streams: { levels: [1, 2], param: parallel }
repeat: 3
order: abba
sample: off
YAML

real=0
if [ -n "${XRUN_E2E_REAL_DB:-}" ] && command -v iperf3 >/dev/null; then
	if "$XRUN" run e2e.yaml --db e2e.db --unattended --yes \
		> run.out 2> run.err; then
		real=1
	else
		echo "xrun run failed:" >&2
		cat run.err >&2
		exit 1
	fi
fi

if [ "$real" = 0 ]; then
	rm -f e2e.db
	sqlite3 e2e.db < "$XRUN_SOURCE_DIR/schema/store.sql"
	plan_text=$(sed "s/'/''/g" e2e.yaml)
	{
		echo "PRAGMA user_version = 1;"
		echo "BEGIN;"
		echo "INSERT INTO plans VALUES (1, 'e2e-pdf', 'E2E loopback PDF'," \
			"'e2e.yaml', 'e2ehash', '$plan_text', 1764460800);"
		echo "INSERT INTO sessions VALUES (1, 1, 'cells', NULL," \
			"1764460800, 1764461000, 1764461000, '0.1.0', NULL, 'done');"
		# ABBA over 2 cells x 3 reps: positions 0..5 plus one failed run.
		pos=0
		for spec in "1:9.41e9" "2:18.7e9" "2:18.6e9" "1:9.38e9" \
			"1:9.44e9" "2:18.8e9"; do
			s=${spec%%:*}
			v=${spec#*:}
			ci=$((s - 1))
			rid=$((pos + 1))
			t=$((1764460800 + pos * 2))
			echo "INSERT INTO runs (id, session_id, position, block," \
				"block_pos, pass, rep, cell_index, cell, status," \
				"started_at, ended_at, elapsed, exit_code, engine," \
				"target, params) VALUES ($rid, 1, $pos, 0, $pos, 0," \
				"$((pos / 2 + 1)), $ci, '{\"streams\":\"$s\"}', 'ok'," \
				"$t, $((t + 1)), 1.0, 0, 'iperf3', '127.0.0.1'," \
				"'{\"parallel\":$s}');"
			echo "INSERT INTO metrics VALUES ($rid, 'throughput', $v," \
				"'bit/s');"
			echo "INSERT INTO verifications VALUES ($rid, 'streams'," \
				"'local', 'engine', '$s', '$s', 1);"
			pos=$((pos + 1))
		done
		echo "INSERT INTO runs (id, session_id, position, block," \
			"block_pos, pass, rep, cell_index, cell, status, started_at," \
			"ended_at, exit_code, reason, engine) VALUES (7, 1, 6, 0, 6," \
			"0, 4, 1, '{\"streams\":\"2\"}', 'failed', 1764460820," \
			"1764460821, 1, 'iperf3: error - unable to connect', 'iperf3');"
		echo "INSERT INTO host_facts VALUES (1, 'local', 'kernel'," \
			"'6.1.0-e2e-amd64');"
		echo "INSERT INTO host_facts VALUES (1, 'local', 'iperf3_version'," \
			"'iperf 3.12');"
		echo "COMMIT;"
	} > fill.sql
	sqlite3 e2e.db < fill.sql
fi

# Medians per cell, as the DB holds them (ok, non-warm-up runs).
medians=$(sqlite3 e2e.db "
	WITH v AS (SELECT r.cell AS cell, m.value AS value FROM runs r
		JOIN metrics m ON m.run_id = r.id
		WHERE r.status = 'ok' AND r.warmup = 0 AND m.name = 'throughput'),
	o AS (SELECT cell, value, ROW_NUMBER() OVER (PARTITION BY cell
		ORDER BY value) AS k, COUNT(*) OVER (PARTITION BY cell) AS n
		FROM v)
	SELECT cell, AVG(value) FROM o
	WHERE k IN ((n + 1) / 2, (n + 2) / 2) GROUP BY cell ORDER BY cell;")
[ -n "$medians" ] || { echo "no ok runs in the store" >&2; exit 1; }

if ! "$XRUN" report --db e2e.db -o en.pdf > rep.out 2> rep.err; then
	cat rep.err >&2
	exit 1
fi
"$XRUN" report --db e2e.db --lang ja -o ja.pdf
pdftotext -layout en.pdf en.txt 2>/dev/null
pdftotext -layout ja.pdf ja.txt 2>/dev/null

fail=0
check() { # file, fixed string, what
	if grep -qF -- "$2" "$1"; then
		echo "ok - $3"
	else
		echo "not ok - $3: '$2' not in $1"
		fail=1
	fi
}
check en.txt "E2E loopback PDF" "title"
while IFS='|' read -r cell med; do
	check en.txt "$(fmt_gbit "$med")" "median of $cell ($med bit/s)"
	check ja.txt "$(fmt_gbit "$med")" "median of $cell in ja"
done <<< "$medians"
check en.txt "Gbit/s" "display unit"
check en.txt "throughput by streams" "table caption names the row factor"
check en.txt "Comparisons" "comparisons heading"
check en.txt "Verdict" "verdict column"
check en.txt "Figure 1." "bar chart"
check ja.txt "比較" "japanese comparisons heading"
check ja.txt "判定" "japanese verdict column"
check ja.txt "結果" "japanese results heading"
if [ "$real" = 0 ]; then
	check en.txt "7: 6 ok, 1 failed" "runs done/failed"
	check en.txt "6.1.0-e2e-amd64" "host facts in the appendix"
	check en.txt "[+" "a verdict with its CI"
fi
# Verdict strings as the report formats them: one of the four forms.
if grep -qE '(\+|-)[0-9.]+% \[[-+][0-9.]+, [-+][0-9.]+\]|≈ \(|~ \(p=|— not comparable' en.txt; then
	echo "ok - a verdict string"
else
	echo "not ok - no verdict string in en.txt"
	fail=1
fi
pdftoppm -r 60 -f 1 -l 1 -png en.pdf page 2>/dev/null
[ -s page-1.png ] || [ -s page-01.png ] || { echo "not ok - pdftoppm"; fail=1; }
exit $fail
