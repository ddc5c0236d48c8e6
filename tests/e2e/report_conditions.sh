#!/bin/bash
# SPDX-License-Identifier: MIT
# The conditions table (issue 10, item 4), with no reference: on a real
# iperf3 loopback run, the congestion control each run used (also when
# the plan left it to the kernel's default), the iperf3 version, protocol,
# direction, duration and streams, each with its run count, and a note
# when a condition varies within a cell; the controller's load with its
# CPU count; the same in Markdown, HTML and JSON (`conditions`); on a
# command-engine run the engine and the load. The controller_loaded flag:
# raised when the stored load exceeds the CPU count, not when it does not.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need iperf3 sqlite3 jq
xr_tmpdir T
port=$(xr_free_port)
default_cc=$(cat /proc/sys/net/ipv4/tcp_congestion_control 2>/dev/null || echo cubic)
cat >lb.yaml <<YAML
xrun: 1
name: cond
engine:
  type: iperf3
  client: local
  server: { host: local, start: true }
  duration: 1s
  port: $port
factors:
  streams: { levels: [1, 2], param: parallel }
repeat: 2
counters: none
YAML
"$XRUN" run lb.yaml --db lb.db --quiet 2>lb.err || { cat lb.err; fail "iperf3 run exit $?"; }
"$XRUN" report --db lb.db -o lb.json || fail "report json"
cc=$(jq -r '.conditions[] | select(.key == "congestion") | .values[0].value' lb.json)
[ "$cc" = "$default_cc" ] || fail "congestion control: '$cc', kernel default '$default_cc': $(jq -c .conditions lb.json)"
[ "$(jq '.conditions[] | select(.key == "congestion") | .values[0].runs' lb.json)" = 4 ] ||
	fail "cc run count: $(jq -c '.conditions[] | select(.key == "congestion")' lb.json)"
jq -e '.conditions[] | select(.key == "version") | .values[0].value | test("^(iperf )?3\\.")' lb.json >/dev/null ||
	fail "iperf3 version: $(jq -c .conditions lb.json)"
jq -e '[.conditions[] | select(.key == "direction") | .values[] | .value] == ["forward"]' lb.json >/dev/null ||
	fail "direction: $(jq -c .conditions lb.json)"
jq -e '[.conditions[] | select(.key == "test_duration") | .values[] | .value] == ["1"]' lb.json >/dev/null ||
	fail "duration: $(jq -c .conditions lb.json)"
jq -e '[.conditions[] | select(.key == "parallel") | .values[] | .runs] == [2, 2]' lb.json >/dev/null ||
	fail "streams: $(jq -c .conditions lb.json)"
jq -e '.conditions[] | select(.key == "controller_load") | .cpus >= 1 and .runs == 4' lb.json >/dev/null ||
	fail "load: $(jq -c .conditions lb.json)"
"$XRUN" report --db lb.db -o lb.md || fail "report md"
grep -q "^## Conditions observed" lb.md || fail "no conditions section in Markdown"
grep -q "^| congestion control (sender) | $default_cc (4) |" lb.md || fail "cc row: $(grep -A12 Conditions lb.md)"
grep -q "^| load of the machine running xrun (1 min) | .* on [0-9]* CPUs (4) |" lb.md || fail "load row: $(grep -A12 Conditions lb.md)"
# the version row is named after the engine's row (runner/desc engine_label)
grep -q "^| iperf3 version | iperf 3\.[0-9.]* (4) |" lb.md || fail "version row: $(grep -A12 Conditions lb.md)"
"$XRUN" report --db lb.db --lang ja -o ja.md || fail "report ja"
grep -q "^| 輻輳制御（送信側） | $default_cc (4) |" ja.md || fail "ja cc row: $(grep -A12 '測定時の条件' ja.md)"
grep -q "^| iperf3 のバージョン | iperf 3\.[0-9.]* (4) |" ja.md || fail "ja version row: $(grep -A12 '測定時の条件' ja.md)"
"$XRUN" report --db lb.db -o lb.html || fail "report html"
grep -q 'id="conditions"' lb.html || grep -q "Conditions observed" lb.html || fail "no conditions in HTML"

# A condition that varies within a cell: noted with the cell.
cp lb.db vary.db
sqlite3 vary.db "update observed set value = 'reno' where key = 'congestion' and run_id =
	(select min(id) from runs where cell like '%\"1\"%' and status = 'ok')"
"$XRUN" report --db vary.db -o vary.json
jq -e '.conditions[] | select(.key == "congestion") | (.varies_in_cells | length == 1) and
	(.values | length == 2)' vary.json >/dev/null || fail "varies: $(jq -c '.conditions[0:8]' vary.json)"
"$XRUN" report --db vary.db -o vary.md
grep -q "varies within a cell: streams=1" vary.md || fail "varies note: $(grep -A12 Conditions vary.md)"

# controller_loaded: raised when a run ended above the CPU count, not else.
cp lb.db quiet.db
sqlite3 quiet.db "update run_load set load1 = 0.1"
"$XRUN" report --db quiet.db -o quiet.json
jq -e '[.cells[].flags[]] | index("controller_loaded") == null' quiet.json >/dev/null ||
	fail "controller_loaded on a quiet controller"
cp lb.db loaded.db
sqlite3 loaded.db "update run_load set load1 = 0.1; update run_load set load1 = cpus + 6 where run_id =
	(select min(id) from runs where cell like '%\"2\"%' and status = 'ok')"
"$XRUN" report --db loaded.db -o loaded.json
jq -e '[.cells[] | select(.flags | index("controller_loaded"))] | length == 1' loaded.json >/dev/null ||
	fail "controller_loaded: $(jq -c '[.cells[] | {cell, flags}]' loaded.json)"
jq -e '.conditions[] | select(.key == "controller_load") | .runs_over_cpus == 1' loaded.json >/dev/null ||
	fail "runs over cpus: $(jq -c .conditions loaded.json)"
"$XRUN" report --db loaded.db -o loaded.md
grep -q "above the CPU count after 1 of 4 runs \[[0-9]*\]" loaded.md || fail "load note: $(grep -A12 Conditions loaded.md)"
grep -q "controller_loaded" loaded.md || fail "flag not explained in the notes"
"$XRUN" report --db loaded.db -o loaded.pdf || fail "report pdf"
if command -v pdftotext >/dev/null; then
	pdftotext loaded.pdf - | grep -q "Conditions observed" || fail "no conditions in the PDF"
fi

# The command engine: the engine and the load.
cat >cmd.yaml <<YAML
xrun: 1
name: condcmd
engine:
  type: command
  run: [sh, "$XRUN_SOURCE_DIR/tests/e2e/lib/fault_engine.sh", values]
  metrics:
    throughput: { regex: '"rate_MBps": ([0-9.]+)', unit: MB/s }
factors:
  x: { levels: [a, b] }
repeat: 3
counters: none
YAML
"$XRUN" run cmd.yaml --db cmd.db --quiet 2>/dev/null || fail "command run"
"$XRUN" report --db cmd.db -o cmd.json || fail "command report"
jq -e '[.conditions[] | select(.key == "engine") | .values[]] == [{"value": "command", "runs": 6}]' cmd.json >/dev/null ||
	fail "engine row: $(jq -c .conditions cmd.json)"
jq -e '[.conditions[].key] | index("controller_load") != null and index("congestion") == null' cmd.json >/dev/null ||
	fail "command conditions: $(jq -c .conditions cmd.json)"
"$XRUN" report --db cmd.db -o cmd.md
grep -q "^| engine | command (6) |" cmd.md || fail "engine row in Markdown: $(grep -A8 Conditions cmd.md)"
echo "ok: conditions"
