#!/bin/bash
# SPDX-License-Identifier: MIT
# The answer first (issue 35): every report opens with its findings.
#  - a declared comparison of known values (a: 100+rep, b: 110+2rep Mbit/s,
#    ABBA, so the position model's effect is the ratio of the geometric
#    means, computed here by python3): its line, with the verdict, effect
#    and both sides' values, on page 1 of the PDF (pdftotext -f 1 -l 1),
#    first in the Markdown and HTML, in the JSON's findings array;
#  - one number per cell: the bar chart's caption says geomean and its
#    bar values are the geometric means the table shows;
#  - a session whose runs all failed names the stored reason ("Connection
#    refused") on page 1 of its PDF, in every format (CSV: failures);
#  - a session still running says so at the top with the pid running it;
#    killed, it says "Interrupted" and how far it got;
#  - the Markdown has no empty header row; the HTML's comparisons chart
#    fits a 390 px screen (its least width, svg_chart.c's 0.9 scale).
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need pdftotext python3 sqlite3
xr_tmpdir dir
nfail=0
bad() {
	echo "FAIL: $*"
	nfail=$((nfail + 1))
}
okay() { echo "ok - $*"; }

cat >gen.sh <<'SH'
case $1 in a) echo "result: $((100 + $2))" ;; *) echo "result: $((110 + 2 * $2))" ;; esac
SH
cat >ok.yaml <<'YAML'
xrun: 1
name: known
engine:
  type: command
  run: [sh, ./gen.sh, "{{x}}", "{{rep}}"]
  metrics:
    throughput: { regex: "result: ([0-9]+)", unit: Mbit/s }
factors:
  x: { levels: [a, b] }
repeat: 4
order: abba
sample: off
report:
  compare: [ { factor: x } ]
YAML
"$XRUN" run ok.yaml --db ok.db --quiet --unattended --yes >run.out 2>&1 ||
	fail "xrun run: $(cat run.out)"
for f in pdf md html json csv; do
	"$XRUN" report --db ok.db -o "ok.$f" 2>>rep.err || fail "report $f"
done
# a: 101..104, b: 112, 114, 116, 118 (Mbit/s)
read -r ga gb delta <<<"$(python3 -c '
import math
g = lambda v: math.exp(sum(map(math.log, v)) / len(v))
a = g([101, 102, 103, 104]); b = g([112, 114, 116, 118])
print("%.3g %.3g %+.1f%%" % (a, b, 100 * (b / a - 1)))')"
line="x=a → x=b: ▲ $delta"
pdftotext -f 1 -l 1 ok.pdf p1.txt
grep -qF "$line" p1.txt && grep -qF "better" p1.txt &&
	grep -qF "geomean $ga → $gb Mbit/s" p1.txt &&
	okay "page 1 of the PDF: $line ... geomean $ga → $gb" ||
	bad "page 1 lacks '$line' / 'geomean $ga → $gb': $(head -12 p1.txt)"
[ "$(grep -m1 '^## ' ok.md)" = "## Findings" ] &&
	sed -n '/^## Findings/,/^|/p' ok.md | grep -qF "$line" &&
	okay "markdown: findings first, with the verdict" ||
	bad "markdown findings: $(head -8 ok.md)"
grep -o '<h2 id="[a-z]*"' ok.html | head -1 | grep -q findings &&
	grep -qF "$line" ok.html && okay "html: findings first" ||
	bad "html: findings not first"
python3 - "$delta" <<'PY' && okay "json: findings[0] is the verdict" ||
import json, sys
d = json.load(open("ok.json"))
f = d["findings"][0]
assert list(d).index("findings") < list(d).index("cells"), list(d)
assert f["kind"] == "verdict" and f["verdict"] == "better", f
assert sys.argv[1] in f["text"], f["text"]
c = d["comparisons"][f["comparison"]]
assert abs(c["delta_pct"] - float(sys.argv[1].rstrip("%"))) < 0.05, c
assert d["progress"] == {"state": "done", "done": 8, "scheduled": 8,
                         "pid": None}, d["progress"]
PY
	bad "json findings"
# one number per cell: the chart says geomean and shows the table's
grep -qF 'Figure 1. throughput by x (geomean, whiskers = 95% interval)' \
	ok.md && okay "the bar chart's caption names the geomean" ||
	bad "chart caption: $(grep -m1 'Figure 1' ok.md)"
for v in "$ga" "$gb"; do
	grep -q ">$v</text>" ok-chart-1.svg && grep -qF "| $v ×/÷" ok.md ||
		bad "bar value $v is not the table's"
done
grep -qF '| Cell | n | geomean ×/÷ 95% interval | median |' ok.md &&
	okay "the cells table leads with the geomean, then labelled others" ||
	bad "cells table head: $(grep -m1 '^| Cell' ok.md)"
if grep -qE '^\| +\|' ok.md; then
	bad "an empty header cell: $(grep -m1 -E '^\| +\|' ok.md)"
else
	okay "markdown: every table has a real header row"
fi
# the comparisons chart at 390 px: its least width fits the column
mw=$(grep -o 'data-chart="forest" style="min-width: [0-9]*px' ok.html |
	grep -o '[0-9]*px' | tr -d px)
[ -n "$mw" ] && [ "$mw" -le 366 ] &&
	okay "the comparisons chart shrinks to ${mw}px (390 px less margins)" ||
	bad "comparisons chart min-width '${mw}'"

# Every run fails: the reason, as stored, on page 1 and in every format.
cat >fail.yaml <<'YAML'
xrun: 1
name: refused
engine:
  type: command
  run: [sh, -c, "echo 'connect failed: Connection refused' >&2; exit 1"]
  metrics:
    throughput: { regex: "result: ([0-9]+)", unit: Mbit/s }
factors:
  x: { levels: [a, b] }
repeat: 2
sample: off
YAML
"$XRUN" run fail.yaml --db fail.db --quiet --unattended --yes >run2.out 2>&1 &&
	fail "a failing session exited 0"
reason=$(sqlite3 fail.db "select distinct reason from runs")
for f in pdf md html json csv; do
	"$XRUN" report --db fail.db -o "fail.$f" 2>>rep.err || fail "report $f"
done
pdftotext -f 1 -l 1 fail.pdf f1.txt
grep -qF "4 of 4 runs failed: $reason" f1.txt &&
	okay "page 1 of a failed session's PDF: 4 of 4 runs failed: $reason" ||
	bad "page 1 lacks the reason '$reason': $(head -12 f1.txt)"
grep -qF "4 of 4 runs failed: $reason" fail.md &&
	grep -qF "4 of 4 runs failed: $reason" fail.html ||
	bad "md/html lack the reason"
python3 - "$reason" <<'PY' && okay "json and csv carry the reason" ||
import csv, json, sys
d = json.load(open("fail.json"))
f = [x for x in d["findings"] if x["kind"] == "failed"]
assert f and f[0]["reason"] == sys.argv[1] and f[0]["count"] == 4, f
assert all(u["reason"] == sys.argv[1] for u in d["run_values"])
rows = list(csv.DictReader(open("fail.csv", newline="")))
assert [r["failures"] for r in rows] == ["2x " + sys.argv[1]] * 2, rows
PY
	bad "json/csv reason"

# A session running now, then killed: the top says which.
cat >slow.yaml <<'YAML'
xrun: 1
name: slow
engine:
  type: command
  run: [sh, -c, "[ $0 = 1 ] || while [ ! -e go ]; do sleep 0.05; done; echo 'result: 5'", "{{rep}}"]
  timeout: 60
  metrics:
    throughput: { regex: "result: ([0-9]+)", unit: Mbit/s }
repeat: 3
sample: off
YAML
"$XRUN" run slow.yaml --db slow.db --quiet --unattended --yes >run3.out 2>&1 &
pid=$!
xr_at_exit "kill $pid 2>/dev/null"
for _ in $(seq 200); do
	[ "$(sqlite3 slow.db "select count(*) from runs where status = 'ok'" \
		2>/dev/null)" = 1 ] && break
	sleep 0.05
done
"$XRUN" report --db slow.db -o - >running.md 2>>rep.err
grep -qF "**Unfinished: 1 of 3 runs done; xrun (pid $pid) is running it now**" \
	running.md && okay "a running session: 1 of 3 done, pid $pid" ||
	bad "running: $(sed -n 3,6p running.md)"
kill -9 "$pid"
wait "$pid" 2>/dev/null || true
"$XRUN" report --db slow.db -o - >killed.md 2>>rep.err
grep -qF "**Interrupted: 1 of 3 runs done; no xrun is running it" killed.md &&
	okay "killed: interrupted, 1 of 3 done" ||
	bad "killed: $(sed -n 3,6p killed.md)"
[ $nfail = 0 ] || fail "$nfail check(s) failed"
