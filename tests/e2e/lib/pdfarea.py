# SPDX-License-Identifier: MIT
# pdfarea.py PDF FIRST LAST COLOUR [MIN_INK MIN_HIT]: the area of a PDF
# chart, from the first word starting with FIRST (its title) down to the
# next word starting with LAST on the same page (its axis label), or LAST
# = +N: N points below, as pdftotext -bbox places them; that
# band of the page rendered by pdftoppm at 144 dpi (two pixels a point,
# PPM read here) must hold at least MIN_INK dark pixels (some channel
# below 200) and MIN_HIT pixels within 12 of COLOUR ("#54a869"). Prints
# what it counted; exit 1 when short, 2 when the words are not there.
import re
import subprocess
import sys

pdf, first, last, colour = sys.argv[1:5]
min_ink = int(sys.argv[5]) if len(sys.argv) > 5 else 4000
min_hit = int(sys.argv[6]) if len(sys.argv) > 6 else 100
bbox = subprocess.run(["pdftotext", "-bbox", pdf, "-"], capture_output=True,
                      text=True).stdout
words, page = [], 0
for line in bbox.splitlines():
    if "<page " in line:
        page += 1
    m = re.search(r'yMin="([0-9.]+)" xMax="[0-9.]+" yMax="([0-9.]+)">([^<]*)<',
                  line)
    if m:
        words.append((page, float(m.group(1)), float(m.group(2)), m.group(3)))
# the first FIRST that has a LAST after it on its page
top = bottom = None
for i, (pg, y0, _, word) in enumerate(words):
    if not word.startswith(first):
        continue
    if last.startswith("+"):
        top, bottom = (pg, y0), y0 + float(last[1:])
        break
    after = [w for w in words[i + 1:] if w[0] == pg and w[3].startswith(last)]
    if after:
        top, bottom = (pg, y0), after[0][2]
        break
if not top or bottom is None:
    print("%s: title %r or axis label %r not found" % (pdf, first, last))
    sys.exit(2)
ppm = subprocess.run(["pdftoppm", "-r", "144", "-f", str(top[0]), "-l",
                      str(top[0]), pdf], capture_output=True).stdout
m = re.match(rb"P6\s+(\d+)\s+(\d+)\s+255\s", ppm)
w, h = int(m.group(1)), int(m.group(2))
px = ppm[m.end():]
want = tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
ink = hit = 0
for y in range(int(2 * top[1]), min(h, int(2 * bottom) + 1)):
    row = px[y * w * 3:(y + 1) * w * 3]
    for x in range(0, 3 * w, 3):
        p = row[x:x + 3]
        ink += min(p) < 200
        hit += all(abs(p[i] - want[i]) < 12 for i in range(3))
print("%s: page %d, y %.0f-%.0f pt, %d dark, %d of %s" %
      (pdf, top[0], top[1], bottom, ink, hit, colour))
sys.exit(0 if ink >= min_ink and hit >= min_hit else 1)
