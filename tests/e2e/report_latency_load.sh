#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The summary names the latency increase under load in plain words, per
# cell, English and Japanese (issue 19 item 5). Before the latency probe
# lands, a command engine prints the probe's per-run metrics (ms) itself:
# queue=short: idle 12, loaded 18, increase 6; queue=deep: idle 12,
# loaded 50, increase 38 (the same in every run, so each cell's median is
# that value); a comparison on it is lower-is-better. A store without latency.increase_p50 says nothing of it.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_tmpdir w
cat >p.yaml <<'PLAN'
xrun: 1
name: bloat
engine:
  type: command
  run: [sh, -c, 'case "$0" in deep) l=50 ;; *) l=18 ;; esac; echo "{\"t\": 1000, \"idle\": 12, \"loaded\": $l, \"inc\": $((l - 12))}"', "{{queue}}"]
  metrics:
    throughput: { json: /t, unit: Mbit/s }
    latency.idle_p50: { json: /idle, unit: ms }
    latency.loaded_p50: { json: /loaded, unit: ms }
    latency.increase_p50: { json: /inc, unit: ms }
factors:
  queue: { levels: [short, deep] }
repeat: 2
sample: off
PLAN
"$XRUN" run p.yaml --unattended 2>run.err || { cat run.err; fail "run exit"; }
"$XRUN" report p.yaml -o r.md || fail "report"
grep -q "| Latency under load | queue=short: +6.0 ms at the median under load (idle 12 ms, loaded 18 ms); queue=deep: +38 ms at the median under load (idle 12 ms, loaded 50 ms) |" r.md ||
	fail "summary line: $(grep -i latency r.md)"
"$XRUN" report p.yaml -o j.md --lang ja || fail "report ja"
grep -q "| 負荷時の遅延 | queue=short: 負荷時の中央値で +6.0 ms（アイドル 12 ms、負荷時 18 ms）; queue=deep: 負荷時の中央値で +38 ms（アイドル 12 ms、負荷時 50 ms） |" j.md ||
	fail "Japanese summary line: $(grep -i 'ms' j.md | head -3)"
"$XRUN" report p.yaml -o h.html || fail "html"
grep -q "+38 ms at the median under load" h.html || fail "html summary"
# a comparison on the latency increase takes lower as better (issue 19 bar)
"$XRUN" report p.yaml --metric latency.increase_p50 -o c.json || fail "json"
python3 - c.json <<'PY' || fail "direction of latency.increase_p50: $(grep -o '"higher_is_better": [a-z]*' c.json)"
import json, sys
c = json.load(open(sys.argv[1]))["comparisons"]
assert c and all(x["metric"] == "latency.increase_p50" and x["higher_is_better"] is False for x in c)
PY
# without the metric: no line
sed -i '/latency.increase_p50/d' p.yaml
"$XRUN" run p.yaml --db n.db --unattended 2>/dev/null || fail "run 2"
"$XRUN" report p.yaml --db n.db -o n.md || fail "report 2"
grep -q "| Latency under load |" n.md && fail "a line without latency.increase_p50"
echo "ok: the latency increase under load is said per cell, en and ja"
