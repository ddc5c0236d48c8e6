#!/bin/bash
# SPDX-License-Identifier: MIT
# Report scale: build a store of N runs (default 100,000) with SQL only
# (schema/store.sql; 100 cells = cc x mtu x streams x slot, 1,000 runs
# each, a throughput and a retransmits metric per run, 5 intervals per run,
# ABBA-like run order) and time `xrun report` to JSON, Markdown, CSV and
# HTML (and PDF with XRUN_BENCH_PDF=1).
# Usage: bash bench/report-scale.sh [N] [XRUN]   (XRUN default: build/xrun)
set -eu
n=${1:-100000}
xrun=${2:-${XRUN:-build/xrun}}
src=$(cd "$(dirname "$0")/.." && pwd)
command -v sqlite3 >/dev/null || { echo "sqlite3 is needed" >&2; exit 1; }
[ -x "$xrun" ] || { echo "no xrun binary at '$xrun'" >&2; exit 1; }
xrun=$(cd "$(dirname "$xrun")" && pwd)/$(basename "$xrun")
dir=$(mktemp -d)
if [ -n "${XRUN_BENCH_KEEP:-}" ]; then trap 'echo "kept $dir"' EXIT; else
	trap 'rm -rf "$dir"' EXIT
fi
cd "$dir"

reps=$(( (n + 99) / 100 ))
cat > plan.yaml <<YAML
xrun: 1
name: scale
title: "Report scale: $n runs"
engine: { type: iperf3, client: local, server: { host: local, start: true }, duration: 1s }
factors:
  cc: { levels: [cubic, reno], param: congestion }
  mtu: { levels: ["1500", "9000"] }
  streams: { levels: [1, 2, 4, 8, 16], param: parallel }
  slot: { levels: [s1, s2, s3, s4, s5] }
repeat: $reps
YAML

t0=$(date +%s.%N)
sqlite3 scale.db < "$src/schema/store.sql"
plan=$(sed "s/'/''/g" plan.yaml)
sqlite3 scale.db > /dev/null <<SQL
PRAGMA journal_mode = OFF;
PRAGMA synchronous = OFF;
BEGIN;
INSERT INTO plans (id, name, title, path, hash, text, created_at)
  VALUES (1, 'scale', 'Report scale', 'plan.yaml', 'h', '$plan', 1764460800);
INSERT INTO sessions (id, plan_id, cells_hash, started_at, updated_at,
  ended_at, xrun_version, status)
  VALUES (1, 1, 'c', 1764460800, 1764460800, 1764460800, '0.1.0', 'done');
WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq
  WHERE i < $n - 1),
r AS (SELECT i, (i / 100) % 2 AS rev, i % 100 AS k FROM seq),
c AS (SELECT i, CASE WHEN rev THEN 99 - k ELSE k END AS cell FROM r)
INSERT INTO runs (id, session_id, position, block, block_pos, pass, rep,
  cell_index, cell, status, started_at, ended_at, elapsed, exit_code,
  engine, target, params)
SELECT i + 1, 1, i, 0, i, i / 100, i / 100 + 1, cell,
  printf('{"cc":"%s","mtu":"%s","streams":"%d","slot":"s%d"}',
    CASE WHEN cell / 50 = 0 THEN 'cubic' ELSE 'reno' END,
    CASE WHEN (cell / 25) % 2 = 0 THEN '1500' ELSE '9000' END,
    1 << ((cell / 5) % 5), cell % 5 + 1),
  CASE WHEN i % 997 = 0 THEN 'failed' ELSE 'ok' END,
  1764460800 + i * 2, 1764460800 + i * 2 + 1, 1, 0, 'iperf3', '127.0.0.1',
  printf('{"parallel":%d,"congestion":"%s"}', 1 << ((cell / 5) % 5),
    CASE WHEN cell / 50 = 0 THEN 'cubic' ELSE 'reno' END)
FROM c;
INSERT INTO metrics (run_id, name, value, unit)
SELECT id, 'throughput',
  9.0e9 * (1 + 0.05 * (cell_index / 50)) * (1 + 0.01 * ((cell_index / 5) % 5))
    * (1 + (abs(random()) % 1000 - 500) / 100000.0), 'bit/s'
FROM runs WHERE status = 'ok';
INSERT INTO metrics (run_id, name, value, unit)
SELECT id, 'retransmits', abs(random()) % 3, '1' FROM runs WHERE status = 'ok';
WITH RECURSIVE s(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM s WHERE k < 4)
INSERT INTO intervals (run_id, seq, t_start, t_end, value)
SELECT m.run_id, s.k, s.k * 0.2, s.k * 0.2 + 0.2,
  m.value * (1 + (s.k - 2) / 100.0)
FROM metrics m, s WHERE m.name = 'throughput';
INSERT INTO host_facts (session_id, host, key, value)
  VALUES (1, 'local', 'kernel', '6.1.0');
COMMIT;
SQL
t1=$(date +%s.%N)
runs=$(sqlite3 scale.db "SELECT COUNT(*) FROM runs")
ivs=$(sqlite3 scale.db "SELECT COUNT(*) FROM intervals")
size=$(du -h scale.db | cut -f1)
printf 'store: %s runs, %s intervals, %s, built in %.1f s\n' "$runs" "$ivs" \
	"$size" "$(echo "$t1 - $t0" | bc)"
# Wall time from date; user CPU and peak RSS from GNU time when there.
timed() {
	local out=$1 a b
	a=$(date +%s.%N)
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f '%U %M' -o time.txt "$xrun" report --db scale.db \
			-o "$out" 2>/dev/null
	else
		"$xrun" report --db scale.db -o "$out" 2>/dev/null
		echo "? ?" > time.txt
	fi
	b=$(date +%s.%N)
	read -r user rss < time.txt
	printf 'xrun report -o %-10s %6.2f s wall, %s s user, %s KB peak  (%s bytes)\n' \
		"$out" "$(echo "$b - $a" | bc)" "$user" "$rss" "$(wc -c < "$out")"
}
for fmt in json md csv html; do
	timed "scale.$fmt"
done
[ -z "${XRUN_BENCH_PDF:-}" ] || timed scale.pdf
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
