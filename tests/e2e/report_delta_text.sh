#!/bin/bash
# SPDX-License-Identifier: MIT
# What Δ is, and a declared pair that yields no comparison (issue 23,
# Deliver 4 and 5), read back whole from a real run of the command engine:
#  - every decided comparison's JSON `delta_definition` is its method's
#    sentence and `robust.definition` the Hodges-Lehmann one, exactly, in
#    English and Japanese; the Markdown note under the comparisons table
#    holds the three sentences; `p_adj` is null without --adjust and
#    Holm's p with it, `decide_df` 0 for a fixed plan;
#  - a pair whose sides also differ in a factor it does not name (pc) is
#    a note: JSON `pair_notes`, a line in the Markdown, a paragraph in
#    the HTML, exactly, and in the PDF (pdftotext, blanks removed), with
#    its plan position, the same rule `xrun validate` warns with.
set -eu
: "${XRUN:?set XRUN to the xrun binary}"
command -v jq >/dev/null || { echo "skip: jq is needed"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# A value from the levels and the repetition: z=v is 10% above z=u.
cat >gen.sh <<'SH'
base=1000
[ "$2" = v ] && base=1100
echo "result: $((base + $1 * 3))"
SH
cat >p.yaml <<'YAML'
xrun: 1
name: deltatext
engine:
  type: command
  run: [bash, ./gen.sh, "{{rep}}", "{{z}}"]
  metrics:
    throughput: { regex: "result: ([0-9]+)", unit: bit/s }
factors:
  pc: { levels: [x570, b550] }
  nic: { levels: [x550, mg3] }
  z: { levels: [u, v] }
exclude:
  - { pc: x570, nic: x550 }
  - { pc: b550, nic: mg3 }
repeat: 3
order: abba
report:
  compare:
    - { factor: z }
    - { a: { nic: x550 }, b: { nic: mg3 } }
sample: off
YAML
"$XRUN" validate p.yaml 2>val.err || true
grep -q '^p.yaml:20:7: warning: report.compare: the pair yields no comparison: no cell of side b differs from a side-a cell only in the factors b names' val.err ||
	bad "validate: $(cat val.err)"
"$XRUN" run p.yaml --db p.db --quiet --unattended --yes >run.out 2>&1 ||
	{ cat run.out; bad "run"; }

pos_en='Δ (position model) = 100 × (exp(b) − 1) %, b the coefficient of side B in the least-squares fit of ln(y) on the side, the run position and one intercept per session: B'"'"'s geometric mean over A'"'"'s with linear drift removed, minus 1.'
welch_en='Δ (Welch) = 100 × (exp(mean ln(y_B) − mean ln(y_A)) − 1) % = 100 × (geomean(B) / geomean(A) − 1) %.'
hl_en='Robust Δ (Hodges–Lehmann) = 100 × (exp(median of ln(y_B) − ln(y_A) over every pair of a B run and an A run) − 1) %, with Mann–Whitney'"'"'s two-sided p.'
pair_en='report.compare (plan 20:7): the pair nic=x550 against nic=mg3 yields no comparison: no cell of side b differs from a side-a cell only in the factors b names (name every factor the sides differ in, in both a and b)'
pos_ja='Δ（実行順モデル）= 100 × (exp(b) − 1) %。b は ln(y) を側・実行順・セッションごとの切片に最小二乗で回帰したときの側 B の係数で、線形ドリフトを除いた B と A の幾何平均の比から 1 を引いたもの。'
hl_ja='頑健な Δ（Hodges–Lehmann）= 100 × (exp(B の試行と A の試行の全組の ln(y_B) − ln(y_A) の中央値) − 1) %、p は Mann–Whitney の両側検定。'
pair_ja='report.compare（計画 20:7）: 指定ペア nic=x550 と nic=mg3 から比較が得られない: b 側のセルが a 側のセルと b の因子以外でも異なる（両側で異なる因子をすべて a と b に書く）'

check() { # LANG POS HL PAIR
	"$XRUN" report --db p.db --lang "$1" -o "$1.json" 2>"$1.err" ||
		bad "report $1: $(cat "$1.err")"
	"$XRUN" report --db p.db --lang "$1" -o "$1.md" 2>>"$1.err" ||
		bad "report md $1: $(cat "$1.err")"
	n=$(jq '[.comparisons[] | select(.verdict != "not_comparable")] | length' "$1.json")
	[ "$n" = 2 ] || bad "$1: $n decided comparisons, want 2 (z in each pc/nic cell)"
	jq -r '.comparisons[] | select(.method == "position-ols") | .delta_definition' \
		"$1.json" | sort -u >def.txt
	[ "$(cat def.txt)" = "$2" ] || bad "$1 delta_definition: $(cat def.txt)"
	jq -r '.comparisons[].robust.definition' "$1.json" | sort -u >hl.txt
	[ "$(cat hl.txt)" = "$3" ] || bad "$1 robust.definition: $(cat hl.txt)"
	jq -r '.pair_notes[]' "$1.json" >pairs.txt
	[ "$(cat pairs.txt)" = "$4" ] || bad "$1 pair_notes: $(cat pairs.txt)"
	grep -qxF -- "- $4" "$1.md" || bad "$1.md: no pair note line"
	grep -qF -- "$2" "$1.md" || bad "$1.md: no position-model sentence"
	grep -qF -- "$3" "$1.md" || bad "$1.md: no Hodges-Lehmann sentence"
	[ "$(jq '[.comparisons[] | .p_adj] | map(select(. != null)) | length' "$1.json")" = 0 ] ||
		bad "$1: p_adj set without --adjust"
	[ "$(jq '[.comparisons[] | .decide_df] | unique' -c "$1.json")" = "[0]" ] ||
		bad "$1: decide_df of a fixed plan"
}
check en "$pos_en" "$hl_en" "$pair_en"
check ja "$pos_ja" "$hl_ja" "$pair_ja"
grep -qF -- "$welch_en" en.md || bad "en.md: no Welch sentence"
"$XRUN" report --db p.db -o en.html 2>html.err || bad "html: $(cat html.err)"
grep -qF -- "<p class=\"note\">$pair_en</p>" en.html || bad "en.html: no pair note"

# The PDF holds the pair note too, read back with pdftotext: the wrapped
# lines are compared with every blank removed (a line break falls
# anywhere in the sentence), English and Japanese. Twice: among the
# findings on page 1 and under Comparisons, where the Markdown and HTML
# put it (the findings alone hid a PDF that left it out there).
pdf_note() { # LANG NOTE
	"$XRUN" report --db p.db --lang "$1" -o "$1.pdf" 2>"$1.pdf.err" ||
		{ bad "report pdf $1: $(cat "$1.pdf.err")"; return; }
	pdftotext -enc UTF-8 "$1.pdf" "$1.txt" || { bad "pdftotext $1.pdf"; return; }
	python3 - "$1.txt" "$2" <<'PY' || bad "$1.pdf: the pair note not both in the findings and under Comparisons"
import sys
squash = lambda t: "".join(t.split())
n = squash(open(sys.argv[1], encoding="utf-8").read()).count(squash(sys.argv[2]))
print(f"pair note in the PDF's text: {n} times")
sys.exit(0 if n == 2 else 1)
PY
}
if ! command -v pdftotext >/dev/null; then
	[ "${CI:-}" = true ] && bad "pdftotext is needed under CI" || echo "note: no pdftotext, the PDF pair note is not checked"
elif ! fc-list 2>/dev/null | grep -qi ipaex && [ -z "${XRUN_FONT:-}" ]; then
	[ "${CI:-}" = true ] && bad "no Japanese font under CI" || echo "note: no Japanese font, the PDF pair note is not checked"
else
	pdf_note en "$pair_en"
	pdf_note ja "$pair_ja"
fi

# --adjust holm: p_adj is Holm's over the two decided p values
"$XRUN" report --db p.db --adjust holm -o h.json 2>h.err || bad "holm: $(cat h.err)"
jq -r '[.comparisons[] | select(.verdict != "not_comparable") | .p] | sort | .[]' h.json >p.txt
want=$(python3 -c '
import sys
p = sorted(float(x) for x in open("p.txt"))
n = len(p); adj = []; m = 0
for i, v in enumerate(p):
    m = max(m, min(1, (n - i) * v)); adj.append(m)
print(" ".join("%.6g" % a for a in adj))')
got=$(jq -r '[.comparisons[] | select(.verdict != "not_comparable") | {p, p_adj}] | sort_by(.p) | map(.p_adj) | map(tostring) | .[]' h.json |
	python3 -c 'import sys; print(" ".join("%.6g" % float(x) for x in sys.stdin))')
[ "$got" = "$want" ] || bad "holm p_adj $got, want $want (python3 Holm)"
exit $fail
