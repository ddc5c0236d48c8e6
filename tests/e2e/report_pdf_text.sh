#!/bin/bash
# SPDX-License-Identifier: MIT
# The PDF's text is the text written (issue 21): libharu's ToUnicode map for
# the embedded TrueType font (a begincidrange, reports/render/pdf_font.h)
# made poppler warn "Invalid 'begincidrange' operator in ToUnicode CMap"
# on every page. For an English and a Japanese report of a known store
# (tests/e2e/lib/known_values.sh, a -10% drop) with a title of mixed
# scripts and symbols:
#  - pdffonts and pdftotext print nothing on stderr;
#  - pdftotext's text holds the title as written, the headings and the
#    verdict of the language (worse / 悪化), and Δ ± → survive the copy;
#  - the ToUnicode stream is a bfrange map (no begincidrange).
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need pdftotext pdffonts python3
if ! fc-list 2>/dev/null | grep -qi ipaex && [ -z "${XRUN_FONT:-}" ]; then
	xr_skip "no Japanese TrueType font (fonts-ipaexfont-gothic)"
fi
xr_tmpdir dir
cp "$XR_LIB/known_values.sh" gen.sh
cat >drop.yaml <<'YAML'
xrun: 1
name: drop
engine:
  type: command
  run: [bash, ./gen.sh, drop, "{{index}}", "{{rep}}", "{{x}}"]
  metrics:
    throughput: { regex: "result: ([0-9]+)", unit: bit/s }
factors:
  x: { levels: [a, b] }
repeat: 4
order: abba
sample: off
YAML
"$XRUN" run drop.yaml --db drop.db --quiet --unattended --yes >run.out 2>&1 ||
	fail "xrun run: $(cat run.out)"
nfail=0
bad() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
title='比較 Δ±→ test <a&b>'
for lang in en ja; do
	"$XRUN" report --db drop.db -o "$lang.pdf" --lang $lang --title "$title" \
		2>"$lang.report.err" || fail "report --lang $lang: $(cat "$lang.report.err")"
	pdffonts "$lang.pdf" >"$lang.fonts" 2>"$lang.fonts.err" || bad "pdffonts $lang.pdf failed"
	[ -s "$lang.fonts.err" ] && bad "pdffonts $lang.pdf warns: $(sort -u "$lang.fonts.err")"
	pdftotext -enc UTF-8 "$lang.pdf" "$lang.txt" 2>"$lang.text.err" || bad "pdftotext $lang.pdf failed"
	[ -s "$lang.text.err" ] && bad "pdftotext $lang.pdf warns: $(sort -u "$lang.text.err" | head -3)"
	grep -qF "$title" "$lang.txt" || bad "$lang: the title is not copied as written: $(head -1 "$lang.txt")"
	grep -q 'Identity-H *yes yes yes' "$lang.fonts" || bad "$lang: the font is not embedded with a ToUnicode map: $(cat "$lang.fonts")"
done
grep -q 'Sessions' en.txt && grep -q 'worse' en.txt && grep -q 'x=b' en.txt ||
	bad "en: headings, verdict or levels missing from the copied text"
grep -q 'セッション' ja.txt && grep -q '悪化' ja.txt && grep -q '判定しきい値 ±1%' ja.txt ||
	bad "ja: headings, verdict or threshold missing from the copied text: $(head -20 ja.txt)"
python3 - en.pdf ja.pdf <<'PY' || nfail=$((nfail + 1))
import re, sys, zlib
for path in sys.argv[1:]:
    data = open(path, "rb").read()
    maps = []
    for m in re.finditer(rb"stream\r?\n(.*?)endstream", data, re.S):
        try:
            t = zlib.decompress(m.group(1))
        except zlib.error:
            continue
        if b"begincmap" in t:
            maps.append(t)
    if not maps:
        sys.exit(f"FAIL: {path}: no CMap stream")
    for t in maps:
        if b"begincidrange" in t or b"beginbfrange" not in t:
            sys.exit(f"FAIL: {path}: the ToUnicode map is not a bfrange map")
        if b"<3000> <30FF> <3000>" not in t or b"<D800>" in t:
            sys.exit(f"FAIL: {path}: kana not mapped, or surrogates mapped")
PY
[ "$nfail" = 0 ] && echo "ok - en and ja PDFs: no poppler warning, the text copied is the text written, a bfrange ToUnicode"
[ "$nfail" = 0 ]
