#!/bin/bash
# SPDX-License-Identifier: MIT
# xrun report -o DIR/r.md writes each matrix table's chart as an SVG file
# beside it (r-chart-1.svg, ...; the comparisons as r-forest-1.svg),
# linked under its table with the caption
# as alt text: every link resolves from the Markdown's folder (a name with
# a space too), every SVG is well-formed XML with its title, bars,
# whiskers, the unit, each bar's value above it, the legend's title and
# the note that the axis starts at 0, and `-o -` writes no image.
set -eu
: "${XRUN:?set XRUN to the xrun binary}"
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"

cat > gen.sh <<'EOF'
#!/bin/bash
noise=(0 3 -2 1 -3)
echo "result: $(( 1000000000 * $2 + ${#1} * 100000000 + noise[$3 % 5] * 1000000 )) bit/s"
EOF
cat > plan.yaml <<'EOF'
xrun: 1
name: md-charts
engine:
  type: command
  run: [bash, "./gen.sh", "{{nic}}", "{{streams}}", "{{rep}}"]
  metrics:
    throughput: { regex: "result: ([0-9]+)", unit: bit/s }
factors:
  streams: { levels: [1, 2] }
  nic: { levels: [a, bb] }
repeat: 3
order: abba
counters: none
EOF
"$XRUN" run plan.yaml --db r.db --unattended --yes > run.out 2>&1 ||
	{ cat run.out >&2; echo "not ok - run failed"; exit 1; }
mkdir out "my out"
"$XRUN" report --db r.db -o out/r.md
"$XRUN" report --db r.db --lang ja -o "my out/my report.md"
"$XRUN" report --db r.db -o - > stdout.md

fail=0
check() { if eval "$1"; then echo "ok - $2"; else echo "not ok - $2"; fail=1; fi; }
check "[ \"\$(ls out)\" = \"\$(printf 'r-box-1.svg\nr-chart-1.svg\nr-forest-1.svg\nr.md')\" ]" "out/: r.md, r-chart-1.svg, the distribution r-box-1.svg (issue 18) and the comparisons r-forest-1.svg (issue 21), nothing else"
check "grep -q 'data-chart=\"forest\"' out/r-forest-1.svg && grep -qF '](r-forest-1.svg)' out/r.md" "the comparisons chart, linked"
check "grep -q 'data-chart=\"box\"' out/r-box-1.svg && grep -q 'data-chart=\"bar\"' out/r-chart-1.svg" "the SVGs say which chart they are"
check "[ -f 'my out/my report-chart-1.svg' ]" "a name with a space: its chart beside it"
check "! grep -q '!\[' stdout.md && [ \"\$(ls *.svg 2>/dev/null)\" = '' ]" "-o -: no image, no link"

cat > links.py <<'EOF'
import html, os, re, sys, urllib.parse
import xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
md = sys.argv[1]
text = open(md, encoding="utf-8").read()
links = re.findall(r"!\[((?:[^\]\\]|\\.)+)\]\(([^)\s]+)\)", text)
# the bar chart's link; the distribution (-box-N.svg) follows it
links = [l for l in links if "-chart-" in l[1]]
errs = []
if len(links) != 1:
    errs.append("%d image links, want 1" % len(links))
for alt, url in links:
    path = os.path.join(os.path.dirname(md), urllib.parse.unquote(url))
    if not os.path.isfile(path):
        errs.append("link %s does not resolve" % url)
        continue
    if not re.match(r"(Figure|図) 1\. throughput", alt):
        errs.append("alt text: %s" % alt)
    root = ET.parse(path).getroot()  # raises when not well-formed
    if root.tag != NS + "svg" or "viewBox" not in root.attrib:
        errs.append("root %s" % root.tag)
    title = root.find(NS + "title")
    if title is None or title.text != html.unescape(re.sub(r"\\(.)", r"\1", alt)):
        errs.append("svg title differs from the alt text")
    texts = [t.text or "" for t in root.iter(NS + "text")]
    if "Gbit/s" not in texts or "streams" not in texts:
        errs.append("unit or axis label missing: %s" % texts)
    if len(root.findall(".//" + NS + "rect")) < 1 + 4 + 2:
        errs.append("background, 4 bars and 2 legend swatches")
    if len(root.findall(".//" + NS + "path")) < 4:
        errs.append("whiskers")
    # each bar's value above it, at its centre (issue 21): gen.sh's
    # medians, 1e9 * streams + 1e8 * len(nic) bit/s, in Gbit/s
    bars = [r for r in root.iter(NS + "rect")
            if r.get("fill") not in ("#fff", "none", None) and
            float(r.get("height")) > 7.5]
    want = ["%.2f" % ((1e9 * st + 1e8 * len(nic)) / 1e9)
            for st in (1, 2) for nic in ("a", "bb")]
    got = []
    for b in bars:
        cx = float(b.get("x")) + float(b.get("width")) / 2
        top = float(b.get("y"))
        got += [t.text for t in root.iter(NS + "text")
                if t.get("text-anchor") == "middle" and
                abs(float(t.get("x")) - cx) < 0.02 and
                top - 12 < float(t.get("y")) < top]
    if got != want:
        errs.append("bar values %s, want %s" % (got, want))
    # the legend's title and the note that the axis starts at 0
    if "nic:" not in texts:
        errs.append("no legend title 'nic:' in %s" % texts)
    if not any(t.startswith("The y axis starts at 0") or
               t.startswith("縦軸は 0 から") for t in texts):
        errs.append("no note on the axis starting at 0")
    # the table it illustrates comes just before the link
    before = text[:text.index("![")]
    if not re.search(r"\| 2 \| [0-9.]+ (±|×/÷)[0-9.]+[^|]* \| [0-9.]+ (±|×/÷)[0-9.]+[^|]* \|\n\n$",
                     before):
        errs.append("the link is not right under its table")
for e in errs:
    print(md + ": " + e)
sys.exit(1 if errs else 0)
EOF
check "$PY links.py out/r.md" "en: link with alt text resolves to a well-formed SVG"
check "$PY links.py 'my out/my report.md'" "ja, a name with a space: the same"
check "grep -qF '](my%20report-chart-1.svg)' 'my out/my report.md'" "the space percent-encoded in the link"
exit $fail
