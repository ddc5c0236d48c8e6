#!/bin/bash
# Reference scale: a published matrix of ROWS rows (default 800,000: the
# largest that stays under the 16 MiB cap with this plan's level names)
# over the 100 cells of bench/report-scale.sh's store (1,000 runs), every
# cell published ROWS / 100 times, read by `xrun report --reference` to
# JSON; wall time, user CPU and peak RSS (GNU time), and the load.
# Usage: bash bench/reference-scale.sh [ROWS] [XRUN]   (XRUN: build/xrun)
set -eu
rows=${1:-800000}
xrun=${2:-${XRUN:-build/xrun}}
src=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$xrun" ] || { echo "no xrun binary at '$xrun'" >&2; exit 1; }
xrun=$(cd "$(dirname "$xrun")" && pwd)/$(basename "$xrun")
dir=$(XRUN_BENCH_KEEP=1 bash "$src/bench/report-scale.sh" 1000 "$xrun" |
	sed -n 's/^kept //p')
[ -d "$dir" ] || { echo "report-scale.sh kept no store" >&2; exit 1; }
trap 'rm -rf "$dir"' EXIT
cd "$dir"
awk -v n="$rows" 'BEGIN {
	print "unit,Gbit/s"; print "cc,mtu,streams,slot,value"
	for (i = 0; i < n; i++) {
		c = i % 100
		printf "%s,%s,%d,s%d,%.2f\n", (c < 50 ? "cubic" : "reno"),
		    (int(c / 25) % 2 ? "9000" : "1500"), 2 ^ (int(c / 5) % 5),
		    c % 5 + 1, 9 + (i % 7) / 100
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
python3 -c 'import json,sys; r=json.load(open("ref.json"))["reference"]; print("published cells in the report:", len(r["rows"]))' 2>/dev/null || true
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
