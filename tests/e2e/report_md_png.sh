#!/bin/bash
# SPDX-License-Identifier: MIT
# xrun report -o DIR/r.md --png (issue 21): a PNG beside every chart SVG,
# linked instead of it; each decodes (tests/e2e/lib/png.py: signature,
# CRCs, IHDR, IDAT inflated and unfiltered with python3's zlib), is 1200
# px wide with the SVG's aspect ratio, is not blank and shows the bars in
# the palette's colours; a Japanese report's PNG is the very image drawn
# with IPAex Gothic as the only font and not the one drawn without a
# Japanese font (tofu). --png is refused for other formats and stdout.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need python3
LIB=$(cd "$(dirname "$0")/lib" && pwd)
IPAEX=/usr/share/fonts/opentype/ipaexfont-gothic
DEJAVU=/usr/share/fonts/truetype/dejavu
xr_tmpdir dir

cat > gen.sh <<'GEN'
#!/bin/bash
noise=(0 3 -2 1 -3)
echo "result: $(( 1000000000 * $2 + ${#1} * 100000000 + noise[$3 % 5] * 1000000 )) bit/s"
GEN
cat > plan.yaml <<'PLAN'
xrun: 1
name: md-png
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
PLAN
"$XRUN" run plan.yaml --db r.db --unattended --yes > run.out 2>&1 ||
	fail "run failed: $(cat run.out)"
mkdir en ja
if ! "$XRUN" report --db r.db -o en/r.md --png 2> err.txt; then
	# built without librsvg: the flag says so, and nothing is written
	grep -q "built without librsvg" err.txt || fail "--png: $(cat err.txt)"
	[ ! -e en/r.md ] || fail "--png without librsvg wrote en/r.md"
	xr_skip "xrun was built without librsvg (--png refused clearly)"
fi
"$XRUN" report --db r.db --lang ja -o ja/r.md --png

fail=0
t() { if eval "$1"; then echo "ok - $2"; else echo "not ok - $2"; fail=1; fi; }
t '[ "$(ls en)" = "$(printf "r-box-1.png\nr-box-1.svg\nr-chart-1.png\nr-chart-1.svg\nr-forest-1.png\nr-forest-1.svg\nr.md")" ]' \
	"en/: a PNG beside each SVG"
t 'grep -qF "](r-chart-1.png)" en/r.md && grep -qF "](r-box-1.png)" en/r.md && ! grep -qF ".svg)" en/r.md' \
	"the Markdown links the PNGs"

cat > check.py <<'PY'
import re, sys
sys.path.insert(0, sys.argv[1])
import png
errs = []
for path in sys.argv[2:]:
    svg = open(path[:-4] + ".svg", encoding="utf-8").read()
    m = re.search(r'<svg [^>]*width="([0-9.]+)" height="([0-9.]+)"', svg)
    sw, sh = float(m.group(1)), float(m.group(2))
    img = png.read(path)
    w, h = img[0], img[1]
    want_h = round(sh * 1200 / sw)
    if w != 1200 or abs(h - want_h) > 1:
        errs.append("%s: %dx%d, want 1200x%d" % (path, w, h, want_h))
    # every other pixel of every other row
    seen = {}
    for p in png.pixels(img, 2):
        seen[p] = seen.get(p, 0) + 1
    dark = png.ink(img, 2) * 4
    if len(seen) < 16 or not (0.01 < dark / (w * h) < 0.6):
        errs.append("%s: blank? %d colours, %d dark pixels" %
                    (path, len(seen), dark))
    # the first two series' colours (chart.c's palette) fill the bars
    if path.endswith("-chart-1.png"):
        for c in [(69, 115, 176), (222, 133, 82)]:
            if seen.get(bytes(c), 0) * 4 < 1000:
                errs.append("%s: %d pixels of %s" %
                            (path, seen.get(bytes(c), 0) * 4, c))
for e in errs:
    print(e)
sys.exit(1 if errs else 0)
PY
t 'python3 check.py "$LIB" en/r-chart-1.png en/r-box-1.png en/r-forest-1.png' \
	"en PNGs: 1200 px wide, the SVG's aspect, not blank, bars in their colours"

# The same Japanese report with one font directory each: IPAex Gothic
# alone must give the very same image; DejaVu alone draws tofu.
fc() { # name dir
	mkdir -p "fc-$1" "$1"
	cat > "fc-$1/fonts.conf" <<FC
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <dir>$2</dir>
  <cachedir>$PWD/fc-$1/cache</cachedir>
  <include ignore_missing="yes">/etc/fonts/conf.d</include>
</fontconfig>
FC
	FONTCONFIG_FILE=$PWD/fc-$1/fonts.conf "$XRUN" report --db r.db \
		--lang ja -o "$1/r.md" --png 2> /dev/null
}
[ -d "$IPAEX" ] && [ -d "$DEJAVU" ] || xr_skip "IPAex or DejaVu fonts missing"
fc ipa "$IPAEX"
fc tofu "$DEJAVU"
t 'python3 check.py "$LIB" ja/r-chart-1.png' "ja PNG decodes, not blank"
t 'cmp -s ja/r-chart-1.png ipa/r-chart-1.png && cmp -s ja/r-box-1.png ipa/r-box-1.png' \
	"ja PNGs: the images IPAex Gothic alone draws"
t '! cmp -s ja/r-chart-1.png tofu/r-chart-1.png' \
	"ja PNG: not the image drawn without a Japanese font (tofu)"

t '! "$XRUN" report --db r.db -o r.html --png 2> e1 && grep -q "not for .r.html." e1 && [ ! -e r.html ]' \
	"--png with html: refused, nothing written"
t '! "$XRUN" report --db r.db -o - --png > /dev/null 2> e2 && grep -q "png" e2' \
	"--png to stdout: refused"
exit $fail
