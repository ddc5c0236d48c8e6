#!/bin/bash
# SPDX-License-Identifier: MIT
# Reference scale: a published matrix of ROWS rows (default 1,000,000)
# over the 100 cells of bench/report-scale.sh's store (1,000 runs), every
# cell published ROWS / 100 times, read by `xrun report --reference` to
# JSON; wall time, user CPU and peak RSS (GNU time), and the load. Above
# 800,000 rows (the most that stays under the 16 MiB cap with that plan's
# level names) the store's levels are renamed shorter (cc: c, r; slot: a
# to e) so that 10^6 rows fit: 16.2 MB. XRUN_BENCH_ONE_CELL=1 publishes
# every row for one cell (its runs are what grows, not the cells).
# Usage: bash bench/reference-scale.sh [ROWS] [XRUN]   (XRUN: build/xrun)
set -eu
rows=${1:-1000000}
xrun=${2:-${XRUN:-build/xrun}}
src=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$xrun" ] || { echo "no xrun binary at '$xrun'" >&2; exit 1; }
xrun=$(cd "$(dirname "$xrun")" && pwd)/$(basename "$xrun")
dir=$(XRUN_BENCH_KEEP=1 bash "$src/bench/report-scale.sh" 1000 "$xrun" |
	sed -n 's/^kept //p')
[ -d "$dir" ] || { echo "report-scale.sh kept no store" >&2; exit 1; }
trap 'rm -rf "$dir"' EXIT
cd "$dir"
short=0
[ "$rows" -le 800000 ] || short=1
if [ $short = 1 ]; then
	sqlite3 scale.db <<'SQL'
UPDATE plans SET text = replace(replace(text, 'levels: [cubic, reno]',
  'levels: [c, r]'), 'levels: [s1, s2, s3, s4, s5]', 'levels: [a, b, c, d, e]');
UPDATE runs SET
  cell = replace(replace(replace(replace(replace(replace(replace(cell,
    '"cc":"cubic"', '"cc":"c"'), '"cc":"reno"', '"cc":"r"'),
    '"slot":"s1"', '"slot":"a"'), '"slot":"s2"', '"slot":"b"'),
    '"slot":"s3"', '"slot":"c"'), '"slot":"s4"', '"slot":"d"'),
    '"slot":"s5"', '"slot":"e"'),
  params = replace(replace(params, '"congestion":"cubic"', '"congestion":"c"'),
    '"congestion":"reno"', '"congestion":"r"');
SQL
fi
awk -v n="$rows" -v short=$short -v one="${XRUN_BENCH_ONE_CELL:-0}" 'BEGIN {
	print "unit,Gbit/s"; print "cc,mtu,streams,slot,value"
	for (i = 0; i < n; i++) {
		c = one == 1 ? 0 : i % 100
		if (short)
			printf "%s,%s,%d,%c,%.2f\n", (c < 50 ? "c" : "r"),
			    (int(c / 25) % 2 ? "9000" : "1500"),
			    2 ^ (int(c / 5) % 5), 97 + c % 5,
			    9 + (i % 7) / 100
		else
			printf "%s,%s,%d,s%d,%.2f\n",
			    (c < 50 ? "cubic" : "reno"),
			    (int(c / 25) % 2 ? "9000" : "1500"),
			    2 ^ (int(c / 5) % 5), c % 5 + 1, 9 + (i % 7) / 100
	}
}' > ref.csv
printf 'reference: %s rows, %s bytes\n' "$rows" "$(wc -c < ref.csv)"
a=$(date +%s.%N)
/usr/bin/time -f '%U %M' -o time.txt "$xrun" report --db scale.db \
	--reference ref.csv -o ref.json 2>err.txt || { cat err.txt >&2; exit 1; }
b=$(date +%s.%N)
read -r user rss < time.txt
printf 'xrun report --reference: %.2f s wall, %s s user, %s KB peak\n' \
	"$(echo "$b - $a" | bc)" "$user" "$rss"
python3 -c 'import json,sys; r=json.load(open("ref.json"))["reference"]; print("published cells in the report:", len(r["rows"]), "matched:", r["matched"], "runs:", sum(len(w["published_runs"]) for w in r["rows"]))' 2>/dev/null || true
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
