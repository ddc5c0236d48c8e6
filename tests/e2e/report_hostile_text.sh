#!/bin/bash
# SPDX-License-Identifier: MIT
# Hostile report text (issue 13, defect 14): levels and a title that carry
# raw HTML, a line break with a Markdown heading, a spreadsheet formula,
# an ill-formed UTF-8 byte and an emoji, through a real run of the command
# engine. Checks each format: Markdown has no raw <script> and no injected
# heading, CSV prefixes the formula with an apostrophe, JSON stays valid
# with U+FFFD for the bad byte, each writer warns once, and the PDF draws
# a visible '?' where the font has no glyph (pdftotext reads it back).
set -eu
: "${XRUN:?set XRUN to the xrun binary}"
for t in jq; do
	command -v "$t" >/dev/null || { echo "skip: $t is needed"; exit 77; }
done
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
fail() { echo "FAIL: $*" >&2; exit 1; }

cat > plan.yaml <<'YAML'
xrun: 1
name: hostile
description: "Plain *Markdown* stays.\n\n<img src=x onerror=alert(1)>"
engine:
  type: command
  run: [echo, "5"]
  metrics:
    throughput: { regex: "([0-9]+)", unit: bit/s }
factors:
  x:
    levels: ["<script>alert(1)</script>", '=HYPERLINK("http://evil.example","click")']
repeat: 2
sample: off
YAML
"$XRUN" run plan.yaml --unattended >run.out 2>&1 || { cat run.out; fail "run"; }

title=$(printf 'T1 <b>bold</b>\n# injected heading \xff \xf0\x9f\x98\x80 end')

"$XRUN" report --db hostile.db -o r.md --title "$title" 2>md.err ||
	{ cat md.err; fail "md report"; }
grep -q '<script>' r.md && fail "raw <script> in markdown"
grep -q '<img' r.md && fail "raw <img> in markdown"
grep -q '&lt;script&gt;' r.md || fail "level not escaped as an entity"
grep -q '^# injected' r.md && fail "a newline in the title started a heading"
head -1 r.md | grep -q '^# T1 &lt;b&gt;bold&lt;/b&gt; # injected heading' ||
	fail "title line: $(head -1 r.md)"
head -1 r.md | grep -q $'\xef\xbf\xbd' || fail "no U+FFFD in the title"
grep -q 'Plain \*Markdown\* stays.' r.md || fail "description markdown lost"
[ "$(grep -c 'ill-formed UTF-8' md.err)" = 1 ] ||
	fail "markdown warning: $(cat md.err)"

"$XRUN" report --db hostile.db -o r.csv --title "$title" 2>csv.err ||
	{ cat csv.err; fail "csv report"; }
grep -q "\"'=HYPERLINK(\"\"http://evil.example\"\",\"\"click\"\")\"" r.csv ||
	fail "csv formula cell not prefixed: $(cat r.csv)"
grep -q '^hostile,=' r.csv && fail "csv formula cell raw"

"$XRUN" report --db hostile.db -o r.json --title "$title" 2>json.err ||
	{ cat json.err; fail "json report"; }
jq -e . r.json >/dev/null || fail "json invalid"
jq -r '.. | strings' r.json | grep -q $'\xef\xbf\xbd' ||
	fail "json: no U+FFFD where the bad byte was"
jq -r '.. | strings' r.json | grep -q '<script>alert(1)</script>' ||
	fail "json: the level is data and stays as it is"

if command -v pdftotext >/dev/null; then
	if "$XRUN" report --db hostile.db -o r.pdf --title "$title" 2>pdf.err; then
		pdftotext r.pdf r.txt
		grep -q 'T1 <b>bold</b>' r.txt || fail "pdf title: $(head -3 r.txt)"
		# The emoji is in no report font: a visible '?' and a warning.
		grep -q 'heading .* ? end' r.txt ||
			fail "pdf: no visible fallback: $(grep heading r.txt)"
		[ "$(grep -c 'lacks' pdf.err)" = 1 ] ||
			fail "pdf warning: $(cat pdf.err)"
	else
		grep -q 'font' pdf.err || { cat pdf.err; fail "pdf report"; }
		echo "note: no usable font, pdf part skipped"
	fi
fi
echo "ok: hostile report text escaped in md, csv, json and pdf"
