#!/bin/bash
# SPDX-License-Identifier: MIT
# The comparisons chart (issue 21, data-chart="forest") from controlled
# data: the command engine prints values by level and repetition so that
# each comparison's verdict is known (up +10%: better, down -10%: worse,
# same: equivalent, near +1.2%: different, noisy: not significant). The
# HTML's forest SVG has one dot per comparison at its Δ from the JSON
# report (positions linear in Δ, the ±θ band's edges on the same line at
# ±1%), the verdict's mark in the verdict's colour (chart.c's palette) and
# its verdict text; the Markdown links r-forest-1.svg; the PDF (en, ja)
# holds the chart's title and axis label (pdftotext) and, rendered with
# pdftoppm, ink and the "better" green between them.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need python3 jq pdftotext pdftoppm
LIB=$(cd "$(dirname "$0")/lib" && pwd)
xr_tmpdir dir

cat > gen.sh <<'GEN'
#!/bin/bash
# gen.sh LEVEL REP: a value in bit/s
noise=(0 1 -1 2 -2)
n=${noise[$(( ($2 - 1) % 5 ))]}
case $1 in
base | same) m=1000 ;;
up) m=1100 ;;
down) m=900 ;;
near) m=1012 ;;
noisy) m=1000 n=$(( n * 40 )) ;;
esac
echo "result: $(( m * (1000 + n) * 1000 )) bit/s"
GEN
cat > plan.yaml <<'PLAN'
xrun: 1
name: forest
engine:
  type: command
  run: [bash, "./gen.sh", "{{x}}", "{{rep}}"]
  metrics:
    throughput: { regex: "result: ([0-9]+)", unit: bit/s }
factors:
  x: { levels: [base, up, down, same, near, noisy] }
repeat: 5
order: abba
counters: none
report:
  compare:
    - { factor: x, baseline: base }
PLAN
"$XRUN" run plan.yaml --db r.db --unattended --yes > run.out 2>&1 ||
	fail "run failed: $(cat run.out)"
"$XRUN" report --db r.db -o r.json
"$XRUN" report --db r.db -o r.html
mkdir md
"$XRUN" report --db r.db -o md/r.md
"$XRUN" report --db r.db -o r.pdf
"$XRUN" report --db r.db --lang ja -o ja.pdf

fail=0
t() { if eval "$1"; then echo "ok - $2"; else echo "not ok - $2"; fail=1; fi; }
t '[ "$(jq -r "[.comparisons[] | .b.x + \"=\" + .verdict] | join(\" \")" r.json)" = \
	"up=better down=worse same=equivalent near=different noisy=not_significant" ]' \
	"the designed verdicts (the chart shows these)"
t '[ "$(grep -c "data-chart=\"forest\"" r.html)" = 1 ]' "html: one forest chart"
t 'grep -q "data-chart=\"forest\"" md/r-forest-1.svg && grep -qF "](r-forest-1.svg)" md/r.md' \
	"md: r-forest-1.svg beside it, linked"

cat > forest.py <<'PY'
import json, re, sys
import xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
page = open(sys.argv[1], encoding="utf-8").read()
cmps = json.load(open(sys.argv[2]))["comparisons"]
svg = re.search(r'<svg[^>]*data-chart="forest".*?</svg>', page, re.S).group(0)
root = ET.fromstring(svg)
errs = []
# chart.c's palette by verdict (chart_cmp.c's mark_of)
colour = {"better": "#54a869", "worse": "#c44f52", "equivalent": "#4573b0",
          "different": "#de8552", "not_significant": "#8c8c8c"}
mark = {"better": "▲", "worse": "▼", "equivalent": "≈", "different": "≠",
        "not_significant": "~"}
dots = [float(c.get("cx")) for c in root.iter(NS + "circle")]
if len(dots) != len(cmps):
    errs.append("%d dots for %d comparisons" % (len(dots), len(cmps)))
else:
    d = [c["delta_pct"] for c in cmps]
    i, j = d.index(min(d)), d.index(max(d))
    k = (dots[j] - dots[i]) / (d[j] - d[i])
    at = lambda v: dots[i] + (v - d[i]) * k
    for n, c in enumerate(cmps):
        if abs(at(d[n]) - dots[n]) > 0.02:
            errs.append("dot %d at %.2f, want %.2f" % (n, dots[n], at(d[n])))
    band = [r for r in root.iter(NS + "rect") if r.get("fill") == "#e6edf7"]
    if len(band) != 1:
        errs.append("%d bands" % len(band))
    else:
        x0 = float(band[0].get("x"))
        x1 = x0 + float(band[0].get("width"))
        if abs(x0 - at(-1.0)) > 0.02 or abs(x1 - at(1.0)) > 0.02:
            errs.append("band %.2f..%.2f, want %.2f..%.2f" %
                        (x0, x1, at(-1.0), at(1.0)))
# each verdict's mark in its colour, and its verdict text in the same
for c in cmps:
    v = c["verdict"]
    g = [e for e in root.iter(NS + "g") if e.get("fill") == colour[v]]
    texts = [x.text for e in g for x in e.iter(NS + "text")]
    if mark[v] not in texts:
        errs.append("%s: no %s in %s" % (v, mark[v], colour[v]))
    if not any(x and x.startswith(mark[v] + " ") for x in texts):
        errs.append("%s: no verdict text in %s" % (v, colour[v]))
title = root.find(NS + "title").text
if "±θ (1%)" not in title:
    errs.append("title: %s" % title)
for e in errs:
    print(e)
sys.exit(1 if errs else 0)
PY
t 'python3 forest.py r.html r.json' \
	"html forest: dots at Δ, band at ±θ, marks and verdicts in their colours"

# The PDF's chart: its title and axis label as text, and its area
# rendered (lib/pdfarea.py) holds ink and the "better" green.
t 'pdftotext r.pdf - | grep -q "Comparisons: change of B vs A" && pdftotext r.pdf - | grep -qF "+θ = +1%"' \
	"pdf: the forest chart's title and θ label"
t 'python3 "$LIB/pdfarea.py" r.pdf Comparisons: "%," "#54a869"' \
	"pdf: the chart's area is drawn (ink, better's green)"
t 'pdftotext ja.pdf - | grep -q "比較: B の A に対する変化率" && pdftotext ja.pdf - | grep -q "変化率 %（B 対 A）"' \
	"ja pdf: title and axis label"
t 'pdftotext r.pdf - | grep -q "The y axis starts at 0" && pdftotext ja.pdf - | grep -q "縦軸は 0 から"' \
	"pdf (en, ja): the bar chart's note that its axis starts at 0"
t 'python3 "$LIB/pdfarea.py" ja.pdf 比較: 変化率 "#54a869"' "ja pdf: the chart's area is drawn"
exit $fail
