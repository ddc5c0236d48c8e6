#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 21's layout bars, as a reader sees them in Chromium: the HTML report
# of a store with a 3×2×3 matrix, two compared factors and a reference,
# in English and Japanese, laid out at 1280 px (a desktop browser) and at
# 390 px (a phone): every table fits its column (no verdict behind a
# sideways scroll) and the page does not scroll sideways. Each page runs
# in an iframe of that width (headless Chromium does not make windows
# narrower than 500 px); a measuring script appended to a copy of the
# report (the report itself holds no script) posts each table's width
# against its container's to the outer page, whose DOM Chromium dumps.
# And the English and Japanese PDFs of the same store are within a page
# of each other, and the system table comes before the first results
# table in the HTML, the Markdown and both PDFs.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need chromium pdfinfo
xr_tmpdir T
cat >gen.sh <<'GEN'
#!/bin/bash
noise=(0 3 -2 1 -3 2 -1 0 2 -2)
n=${noise[$(( ($3 * 7 + $2 * 3 + ${#4}) % 10 ))]}
base=$(( 2000000000 * $2 ))
[ "$1" = b ] && base=$(( base + base / 10 ))
[ "$1" = c ] && base=$(( base + base / 100 ))
[ "$1" = a ] && [ "$2" = 4 ] && [ "$3" = 2 ] && { echo boom >&2; exit 1; }
echo "result: $(( base + base / 100 * n )) bit/s"
GEN
cat >plan.yaml <<'PLAN'
xrun: 1
name: fit-report
title: "Three NICs with a long title: 10GBASE-T adapters in PCIe slots of different generations"
engine:
  type: command
  run: [bash, "./gen.sh", "{{nic}}", "{{streams}}", "{{rep}}", "{{mtu}}"]
  metrics:
    throughput: { regex: "result: ([0-9]+)", unit: bit/s }
factors:
  streams: { levels: [1, 2, 4] }
  mtu: { levels: [1500, 9000] }
  nic:
    levels: [a, b, c]
    apply: [bash, -c, "echo {{nic}} > ./nic.state"]
    verify: { run: [bash, -c, "cat ./nic.state"], expect: "{{nic}}" }
repeat: 3
order: abba
counters: none
report:
  compare: [ { factor: nic, baseline: a }, { factor: mtu, baseline: 1500 } ]
PLAN
cat >ref.csv <<'REF'
metric,throughput
unit,Gbit/s
nic,streams,mtu,value
a,1,1500,2.1
b,4,9000,8.5
REF
"$XRUN" run plan.yaml --db r.db --unattended --yes >run.out 2>&1 || true
[ -s r.db ] || { cat run.out; fail "no store"; }
for l in en ja; do
	"$XRUN" report --db r.db --lang $l --reference ref.csv -o $l.html >/dev/null ||
		fail "report $l.html exit $?"
	"$XRUN" report --db r.db --lang $l --reference ref.csv -o $l.pdf >/dev/null ||
		fail "report $l.pdf exit $?"
done

cat >fit.js <<'JS'
<script>
(function () {
  var out = [], vw = document.documentElement.clientWidth;
  var tables = document.querySelectorAll("table");
  for (var i = 0; i < tables.length; i++) {
    var t = tables[i], p = t.parentElement, r = t.getBoundingClientRect();
    var over = Math.max(t.scrollWidth - p.clientWidth, r.right - vw);
    var head = t.querySelector("th");
    out.push((over > 1 ? "OVER " : "FITS ") + Math.round(r.width) + "/" +
             p.clientWidth + " table " + (i + 1) + " (" +
             (head ? head.textContent : "") + ")");
  }
  var sw = document.documentElement.scrollWidth;
  out.push((sw > vw + 1 ? "OVER " : "FITS ") + "page " + sw + "/" + vw);
  out.push("tables " + tables.length);
  parent.postMessage(out.join("\n"), "*");
})();
</script>
JS
measure() { # report.html width -> lines "FITS|OVER ..."
	sed '/<\/body>/{
r fit.js
N
}' "$1" >m.html
	grep -q 'parent.postMessage' m.html || fail "measuring script not added to $1"
	cat >w.html <<HTML
<!DOCTYPE html><html><body style="margin:0">
<iframe src="m.html" style="width:$2px;height:1200px;border:0"></iframe>
<script>addEventListener("message", function (e) { var p = document.createElement("pre"); p.id = "fit"; p.textContent = e.data; document.body.appendChild(p); });</script>
</body></html>
HTML
	chromium --headless=old --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking \
		--disable-component-update --disable-sync --hide-scrollbars \
		--window-size=1400,1200 --virtual-time-budget=5000 \
		--user-data-dir="$(mktemp -d -p "$T")" --dump-dom \
		"file://$T/w.html" 2>>chromium.log |
		sed -n '/<pre id="fit">/,/<\/pre>/p' | sed 's/<[^>]*>//g'
}
bad=0
for l in en ja; do
	for w in 1280 390; do
		measure $l.html $w >fit-$l-$w.txt
		n=$(sed -n 's/^tables //p' fit-$l-$w.txt)
		[ "${n:-0}" -ge 8 ] || fail "$l at $w px: $n tables measured (Chromium: $(tail -3 chromium.log))"
		if grep -q '^OVER' fit-$l-$w.txt; then
			echo "# $l at $w px:"; grep '^OVER' fit-$l-$w.txt | sed 's/^/#   /'
			bad=1
		fi
	done
done
[ $bad = 0 ] || fail "a table wider than its column"
en=$(pdfinfo en.pdf | sed -n 's/^Pages: *//p')
ja=$(pdfinfo ja.pdf | sed -n 's/^Pages: *//p')
d=$((en - ja))
[ ${d#-} -le 1 ] || fail "English PDF $en pages, Japanese $ja: more than a page apart"
# The system table near the top: before the first results table, in the
# HTML, the Markdown and the PDF (as published comparison pages do).
"$XRUN" report --db r.db -o r.md >/dev/null || fail "report r.md exit $?"
before() { # file first second: the first line with $2 comes before $3's
	local a b
	a=$(grep -n -m1 -F -- "$2" "$1" | cut -d: -f1)
	b=$(grep -n -m1 -F -- "$3" "$1" | cut -d: -f1)
	[ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt "$b" ] ||
		fail "$1: '$2' (line ${a:-none}) not before '$3' (line ${b:-none})"
}
before en.html 'id="system"' 'id="tables"'
before r.md '**System**' '## Results'
grep -q '^| Kernel | '"$(uname -r)"' |$' r.md || fail "r.md: no kernel row in the system table"
pdftotext -layout en.pdf en.txt
before en.txt 'System' 'Table 1.'
pdftotext -layout ja.pdf ja.txt
before ja.txt '測定環境' '表 1.'
echo "ok - every table fits at 1280 and 390 px (en, ja); PDFs en $en, ja $ja pages"
