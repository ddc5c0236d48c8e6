#!/bin/bash
# SPDX-License-Identifier: MIT
# xrun report on a store built with SQL (schema/store.sql) so that every
# number is known: cc=reno is exactly 10% faster than cubic (plus small
# noise and a linear drift over the run order), mtu makes no difference,
# an explicit pair names both factors on both sides (a configuration
# comparison) and another differs in a factor it does not name. Checks the
# JSON verdicts (10% found with a CI containing it, the equal pair never
# called different, the configuration pair decided naming both, the other
# refused naming both), the Markdown pipe
# tables (the PDF's comparison columns, the runs line) and Japanese
# headings and note details, the CSV shape, flags with their numbers, the
# plan's description, a dimensionless metric's caption, and the exit
# status and message for a missing store, one without runs and one whose
# runs are all pending.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need sqlite3 jq awk
xr_tmpdir dir

cat > plan.yaml <<'YAML'
xrun: 1
name: rsql
title: "SQL-built report"
engine:
  type: command
  run: [echo, "{{cc}} {{mtu}}"]
  metrics:
    throughput: { regex: "([0-9.]+)", unit: bit/s }
factors:
  cc: { levels: [cubic, reno] }
  mtu: { levels: ["1500", "9000"] }
repeat: 6
order: abba
report:
  compare:
    - { factor: cc, baseline: cubic }
    - { factor: mtu }
    - { a: { cc: cubic, mtu: "1500" }, b: { cc: reno, mtu: "9000" } }
    - { a: { cc: cubic }, b: { cc: reno, mtu: "9000" } }
sample: off
YAML

sqlite3 r.db < "$XRUN_SOURCE_DIR/schema/store.sql"
plan_text=$(sed "s/'/''/g" plan.yaml)
# 4 cells x 6 passes in mirrored (ABBA) passes; value = 1e9 x (1.10 for
# reno) x (1 + 0.0005 x position: drift) x (1 + noise in +-0.3%).
awk -v plan="$plan_text" 'BEGIN {
	print "PRAGMA user_version = 1; BEGIN;"
	printf "INSERT INTO plans (id, name, title, path, hash, text, " \
		"created_at) VALUES (1, %s, %s, %s, %s, %s, 1764460800);\n",
		"\x27rsql\x27", "\x27SQL-built report\x27", "\x27plan.yaml\x27",
		"\x27h1\x27", "\x27" plan "\x27"
	print "INSERT INTO sessions (id, plan_id, cells_hash, started_at, " \
		"updated_at, ended_at, xrun_version, status) VALUES (1, 1, " \
		"\x27c\x27, 1764460800, 1764461800, 1764461800, \x270.1.0\x27, " \
		"\x27done\x27);"
	split("cubic reno", cc, " "); split("1500 9000", mtu, " ")
	split("0.002 -0.003 0.001 -0.001 0.003 -0.002 0.0 0.002", nz, " ")
	pos = 0; id = 0
	for (pass = 0; pass < 6; pass++) {
		rev = (pass == 1 || pass == 2 || pass == 4)
		for (k = 0; k < 4; k++) {
			c = rev ? 3 - k : k
			ic = int(c / 2); im = c % 2
			v = 1e9 * (ic ? 1.10 : 1.0) * (1 + 0.0005 * pos) * \
				(1 + nz[(pos * 3) % 8 + 1])
			id++
			t = 1764460800 + pos * 10
			cell = sprintf("{\"cc\":\"%s\",\"mtu\":\"%s\"}", cc[ic + 1], mtu[im + 1])
			printf "INSERT INTO runs (id, session_id, position, block, " \
				"block_pos, pass, rep, cell_index, cell, status, " \
				"started_at, ended_at, elapsed, exit_code, engine, " \
				"target, params) VALUES (%d, 1, %d, 0, %d, %d, %d, %d, " \
				"\x27%s\x27, \x27ok\x27, %d, %d, 9, 0, \x27command\x27, " \
				"NULL, NULL);\n", id, pos, pos, pass, pass + 1, c, cell,
				t, t + 9
			printf "INSERT INTO metrics VALUES (%d, \x27throughput\x27, " \
				"%.1f, \x27bit/s\x27);\n", id, v
			printf "INSERT INTO intervals VALUES (%d, 0, 0, 1, %.1f);\n", id, v * 0.99
			printf "INSERT INTO intervals VALUES (%d, 1, 1, 2, %.1f);\n", id, v * 1.01
			printf "INSERT INTO verifications VALUES (%d, \x27cc\x27, " \
				"\x27local\x27, \x27run\x27, \x27%s\x27, \x27%s\x27, 1);\n",
				id, cc[ic + 1], cc[ic + 1]
			if (c == 3)
				printf "INSERT INTO counters VALUES (%d, \x27local\x27, " \
					"\x27nic\x27, \x27rx_dropped\x27, 4);\n", id
			pos++
		}
	}
	# One failed run in cell cubic/1500.
	printf "INSERT INTO runs (id, session_id, position, block, block_pos, " \
		"pass, rep, cell_index, cell, status, started_at, ended_at, " \
		"exit_code, reason, engine) VALUES (%d, 1, %d, 0, %d, 6, 7, 0, " \
		"\x27{\"cc\":\"cubic\",\"mtu\":\"1500\"}\x27, \x27failed\x27, " \
		"1764461500, 1764461501, 1, \x27exit 1\x27, \x27command\x27);\n",
		id + 1, pos, pos
	print "INSERT INTO host_facts (session_id, host, key, value) VALUES (1, \x27local\x27, \x27kernel\x27, " \
		"\x276.1.0-sql-e2e\x27);"
	print "COMMIT;"
}' > fill.sql
sqlite3 r.db < fill.sql

fail=0
pass() { echo "ok - $1"; }
bad() { echo "not ok - $1"; fail=1; }
expect() { # jq filter that must print true, description
	if [ "$(jq -r "$1" r.json)" = true ]; then pass "$2"; else
		bad "$2 ($1)"; fi
}

"$XRUN" report --db r.db -o r.json
"$XRUN" report --db r.db -o r.md
"$XRUN" report --db r.db -o r.csv
"$XRUN" report --db r.db --lang ja -o - --format md > ja.md

expect '.cells | length == 4' "four cells"
expect '[.comparisons[] | select(.factor == "cc")] | length == 2' \
	"one cc comparison per mtu level"
expect '[.comparisons[] | select(.factor == "cc") | .verdict == "better"
	and .ci_low_pct <= 10 and .ci_high_pct >= 10
	and (.delta_pct - 10 | fabs) < 1.5] | length == 2 and all' \
	"cc: +10% found better, CI contains 10%"
expect '[.comparisons[] | select(.factor == "cc") | .method] |
	length == 2 and all(. == "position-ols")' "interleaved runs use the position covariate"
expect '[.comparisons[] | select(.factor == "mtu") | .verdict] |
	all(. == "equivalent" or . == "not_significant")' \
	"mtu: equal levels never called different"
expect '[.comparisons[] | select(.factor == null and .configuration)] |
	length == 1' "one configuration pair"
expect '.comparisons[] | select(.factor == null and .configuration) |
	.verdict == "better" and .factors == "cc, mtu" and
	(.warning_codes | index("configuration")) != null' \
	"configuration pair decided, naming both factors"
expect '[.comparisons[] | select(.factor == null and
	.verdict == "not_comparable")] | length == 1' \
	"the pair that does not name mtu on both sides: one refusal"
expect '.comparisons[] | select(.factor == null and
	.verdict == "not_comparable") | .delta_pct == null and
	(.reasons | join(" ") | test("cc") and test("mtu"))' \
	"refusal names both factors"
expect '.cells[] | select(.cell == {"cc":"cubic","mtu":"1500"}) |
	(.flags | index("failed_runs")) != null and .n == 6' \
	"failed run flagged, not counted"
expect '.cells[] | select(.cell == {"cc":"reno","mtu":"9000"}) |
	.flag_details[] | select(.code == "rx_drops") | .detail |
	test("rx_dropped=24")' "receive drops with their number"
expect '.cells[0].interval.n == 12 and .cells[0].interval.peak > .cells[0].max' \
	"interval statistics kept apart"
expect '.runs.ok == 24 and .runs.failed == 1' "runs done and failed"
expect '[.notes[].code] | index("factors_differ") != null' \
	"the refusal is explained in the notes"

# Medians: the model must carry what the DB holds.
want=$(sqlite3 r.db "SELECT value FROM metrics m JOIN runs r ON r.id = m.run_id
	WHERE r.cell = '{\"cc\":\"reno\",\"mtu\":\"1500\"}' ORDER BY value
	LIMIT 2 OFFSET 2" | awk '{ s += $1 } END { printf "%.1f", s / 2 }')
got=$(jq -r '.cells[] | select(.cell == {"cc":"reno","mtu":"1500"}) |
	.median' r.json | awk '{ printf "%.1f", $1 }')
[ "$want" = "$got" ] && pass "median $got" || bad "median $got != $want"

grep -q '^|---' r.md && pass "markdown pipe table" || bad "no pipe table"
grep -qE '\+(9|10)\.[0-9]% \[\+[0-9.]+, \+[0-9.]+\]' r.md &&
	pass "markdown verdict string" || bad "no verdict string in r.md"
grep -qF -- '— not comparable' r.md && pass "markdown refusal" ||
	bad "no refusal in r.md"
grep -qF 'Gbit/s' r.md && grep -qF '1.01 ×/÷1.005' r.md && pass "display unit" ||
	bad "display unit"
grep -qF '## 比較' ja.md && grep -qF '比較不可' ja.md && pass "japanese md" ||
	bad "japanese md"
grep -qF 'rx_dropped=24（local 上）' ja.md &&
	! grep -qE ' on local|retransmits in|warm-up|timed out' ja.md &&
	pass "japanese note details" || bad "japanese note details"
expect '.description == null' "no description: null in JSON"
# The comparison table has the PDF's columns; a '~' or '≈' row keeps its
# delta, CI and p.
grep -qxF '| Factor | Cell | A (baseline) | B | A geomean | B geomean | Δ B vs A [95% CI] | p | n | Verdict |' r.md &&
	pass "markdown comparison columns" ||
	bad "markdown comparison columns: $(grep '^| Factor' r.md)"
grep -E '^\| mtu \|' r.md | grep -qE '\| [-+][0-9.]+% \[[-+][0-9.]+, [-+][0-9.]+\] \| [0-9.e-]+ \| 6\+6 \| (~|≈)' &&
	pass "markdown '~'/'≈' rows keep delta, CI and p" ||
	bad "markdown mtu rows: $(grep -E '^\| mtu' r.md)"
grep -qxF '| Runs | 25: 24 ok, 1 failed |' r.md && pass "markdown runs line" ||
	bad "markdown runs line: $(grep '^| Runs' r.md)"
grep -qF '| Expected | Actual | Result | Runs |' r.md &&
	pass "verification column named" || bad "verification header"

head -1 r.csv | grep -q '^plan,cc,mtu,metric,unit,n,' && pass "csv header" ||
	bad "csv header: $(head -1 r.csv)"
[ "$(wc -l < r.csv)" -eq 5 ] && pass "csv: one row per cell and metric" ||
	bad "csv rows: $(wc -l < r.csv)"

# Variant: a verification of cc failed in one reno/1500 run, and a packet
# capture was running. The cc comparison at mtu=1500 is refused
# (verify_failed), and so is the mtu comparison at cc=reno: its cell
# reno/1500 holds a run that did not measure what the plan says
# (schema/report.md, "Verification"); 1 of its 6 runs.
cp r.db v.db
sqlite3 v.db "UPDATE verifications SET ok = 0, actual = 'cubic'
	WHERE run_id = (SELECT MIN(id) FROM runs
	WHERE cell = '{\"cc\":\"reno\",\"mtu\":\"1500\"}');
	INSERT INTO host_facts (session_id, host, key, value)
	VALUES (1, 'local', 'capture_running', 'tcpdump');"
"$XRUN" report --db v.db -o r.json
expect '.comparisons[] | select(.factor == "cc" and .a.mtu == "1500") |
	.verdict == "not_comparable" and (.reason_codes | index("verify_failed"))
	!= null' "verified wrong: compared setting refused"
expect '.comparisons[] | select(.factor == "cc" and .a.mtu == "9000") |
	.verdict == "better"' "verified wrong elsewhere: other pair unaffected"
expect '.comparisons[] | select(.factor == "mtu" and .a.cc == "reno") |
	.verdict == "not_comparable" and (.reason_codes |
	index("verify_failed")) != null and (.reasons | map(select(test("cc: 1 of 6 runs on A, 0 of 6 on B"))) | length) == 1' \
	"verified wrong, other factor: refused too, counted in runs"
expect '[.cells[] | .flags | index("capture") != null] | length == 4 and all' \
	"capture running flagged"

# Variant: the reno runs a day later (not interleaved): refused (issue 9),
# with the position model's sensitivity line; with `accept: sequential`
# Welch decides, with the warning.
cp r.db w.db
sqlite3 w.db "UPDATE runs SET started_at = started_at + 86400,
	ended_at = ended_at + 86400 WHERE cell LIKE '%reno%'"
"$XRUN" report --db w.db -o r.json
expect '[.comparisons[] | select(.factor == "cc")] | all(.verdict ==
	"not_comparable" and (.reason_codes | index("not_interleaved")) != null
	and .sensitivity.method == "position-ols")' \
	"not interleaved: refused, the position model as sensitivity"
sqlite3 w.db "UPDATE plans SET text = replace(text,
	'{ factor: cc, baseline: cubic }',
	'{ factor: cc, baseline: cubic, accept: sequential }')"
"$XRUN" report --db w.db -o r.json
expect '[.comparisons[] | select(.factor == "cc")] | all(.method == "welch"
	and (.warning_codes | index("not_interleaved")) != null and
	(.warning_codes | index("accepted_sequential")) != null and
	.verdict == "better")' "accepted sequential: Welch with a warning"

# Variant: the reno runs used another engine, target and parameters: the
# cc comparisons are refused as engine_differs naming each difference; the
# mtu comparisons (same engine on both sides) are not.
cp r.db e.db
sqlite3 e.db "UPDATE runs SET engine = 'iperf3', target = '10.0.0.2',
	params = '{\"window\":\"4M\"}' WHERE cell LIKE '%reno%'"
"$XRUN" report --db e.db -o r.json
"$XRUN" report --db e.db -o ed.md
expect '[.comparisons[] | select(.factor == "cc")] | length == 2 and
	all(.verdict == "not_comparable" and
	(.reason_codes | index("engine_differs")) != null)' \
	"engine differs: compared pair refused"
expect '[.comparisons[] | select(.factor == "mtu")] | length == 2 and
	all((.reason_codes // [] | index("engine_differs")) == null)' \
	"engine differs: same-engine pairs unaffected"
grep -qF "engine command vs iperf3" ed.md && grep -qF "target ? vs 10.0.0.2" ed.md &&
	grep -qF window ed.md && pass "engine differs: each difference named" ||
	bad "engine differs in markdown: $(grep -i engine ed.md)"

# Variant: a description, a dimensionless metric with a table of its own
# and a Japanese report; warm-up runs are counted in the header.
cp r.db d.db
sqlite3 d.db "UPDATE plans SET text = replace(text, 'report:',
	'description: Ten percent, measured.' || char(10) || 'report:' ||
	char(10) || '  tables: [{rows: cc, columns: [mtu]},' ||
	' {rows: cc, columns: [mtu], metric: retransmits}]');
	INSERT INTO metrics SELECT id, 'retransmits', 3, '1' FROM runs
	WHERE status = 'ok';
	INSERT INTO runs (id, session_id, position, block, block_pos, pass, rep,
	cell_index, cell, status, warmup) VALUES (900, 1, 90, 0, 90, 0, 0, 0,
	'{\"cc\":\"cubic\",\"mtu\":\"1500\"}', 'ok', 1);"
"$XRUN" report --db d.db -o r.json
"$XRUN" report --db d.db -o d.md
"$XRUN" report --db d.db --lang ja -o dja.md
expect '.description == "Ten percent, measured."' "description in JSON"
[ "$(sed -n 3p d.md)" = "Ten percent, measured." ] &&
	pass "description under the markdown title" ||
	bad "markdown description: $(sed -n 1,4p d.md)"
grep -qxF '### retransmits by cc × mtu' d.md && ! grep -qF '(1)' d.md &&
	pass "dimensionless metric: no '(1)'" ||
	bad "caption: $(grep '^### ' d.md)"
grep -qxF '| Runs | 25: 24 ok, 1 failed; +1 warm-up |' d.md &&
	pass "warm-up in the runs line" || bad "runs: $(grep '^| Runs' d.md)"
grep -qF '+1 ウォームアップ' dja.md && grep -qE '再送 [0-9]+ 回' dja.md &&
	pass "japanese warm-up and retransmit details" ||
	bad "japanese details: $(grep -E 'ウォーム|再送|retrans' dja.md)"

# A store whose runs are all pending (a session started, nothing ran):
# the count includes the warm-up run, and the message says what to do.
cp r.db p.db
sqlite3 p.db "UPDATE runs SET status = 'pending';
	INSERT INTO runs (id, session_id, position, block, block_pos, pass, rep,
	cell_index, cell, status, warmup) VALUES (900, 1, 90, 0, 90, 0, 0, 0,
	'{\"cc\":\"cubic\",\"mtu\":\"1500\"}', 'pending', 1);"
set +e
"$XRUN" report --db p.db -o p.md 2> p.err
rc=$?
set -e
[ $rc = 3 ] && grep -qxF "p.db: error: no finished runs to report in 'p.db' (26 scheduled, none finished yet; run or resume the plan: xrun run PLAN)" p.err &&
	pass "pending store: warm-up counted, next step given" ||
	bad "pending store: rc $rc $(cat p.err)"

# A store without runs: a clear message and exit 3.
sqlite3 empty.db < "$XRUN_SOURCE_DIR/schema/store.sql"
set +e
"$XRUN" report --db empty.db -o e.md 2> e.err
rc=$?
"$XRUN" report --db missing.db -o m.md 2> m.err
rc2=$?
"$XRUN" report --db r.db 2> u.err
rc3=$?
set -e
[ $rc = 3 ] && grep -q "no runs to report" e.err && [ ! -e e.md ] &&
	pass "empty store: exit 3" || bad "empty store: rc $rc $(cat e.err)"
[ $rc = 3 ] && grep -qxF "empty.db: error: no runs to report in 'empty.db' (run the plan first: xrun run PLAN)" e.err &&
	pass "empty store: the documented message" || bad "empty: $(cat e.err)"
[ $rc2 = 3 ] && grep -q "missing.db" m.err && pass "missing store: exit 3" ||
	bad "missing store: rc $rc2 $(cat m.err)"
grep -qxF "missing.db: error: no store here (No such file or directory); run the plan first, or name it with PLAN or --db FILE" m.err &&
	pass "missing store: the documented message" ||
	bad "missing store message: $(cat m.err)"
[ $rc3 = 2 ] && pass "no -o: usage, exit 2" || bad "no -o: rc $rc3"

# A store from a newer xrun is refused, not misread.
cp r.db newer.db
sqlite3 newer.db "PRAGMA user_version = 99"
set +e
"$XRUN" report --db newer.db -o n.md 2> n.err
rc4=$?
set -e
[ $rc4 = 3 ] && grep -q "newer" n.err && [ ! -e n.md ] &&
	pass "newer store: exit 3" || bad "newer store: rc $rc4 $(cat n.err)"
exit $fail
