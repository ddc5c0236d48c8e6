#!/bin/bash
# SPDX-License-Identifier: MIT
# Levels scale: a store whose plan has one factor x of N levels (default
# 100,000: l0 .. l(N-1)), one ok run per cell with a throughput metric
# 9e9 * (1 + (id % 7) / 100), built with SQL only (schema/store.sql), and
# `xrun report` to JSON timed (wall, user CPU, peak RSS from GNU time).
# Usage: bash bench/levels-scale.sh [N] [XRUN]   (XRUN default: build/xrun)
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

levels=$(seq 0 $((n - 1)) | sed 's/^/l/' | paste -sd, -)
cat > plan.yaml <<YAML
xrun: 1
name: levels
title: "Levels scale: $n levels"
engine: { type: iperf3, client: local, server: { host: local, start: true }, duration: 1s }
factors:
  x: { levels: [$levels] }
YAML

t0=$(date +%s.%N)
sqlite3 levels.db < "$src/schema/store.sql"
plan=$(sed "s/'/''/g" plan.yaml)
sqlite3 levels.db > /dev/null <<SQL
PRAGMA journal_mode = OFF;
PRAGMA synchronous = OFF;
BEGIN;
INSERT INTO plans (id, name, title, path, hash, text, created_at)
  VALUES (1, 'levels', 'Levels scale', 'plan.yaml', 'h', '$plan', 1764460800);
INSERT INTO sessions (id, plan_id, cells_hash, started_at, updated_at,
  ended_at, xrun_version, status)
  VALUES (1, 1, 'c', 1764460800, 1764460800, 1764460800, '0.1.0', 'done');
WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq
  WHERE i < $n - 1)
INSERT INTO runs (id, session_id, position, block, block_pos, pass, rep,
  cell_index, cell, status, started_at, ended_at, elapsed, exit_code,
  engine, target, params)
SELECT i + 1, 1, i, 0, i, 0, 1, i, printf('{"x":"l%d"}', i), 'ok',
  1764460800 + i * 2, 1764460800 + i * 2 + 1, 1, 0, 'iperf3', '127.0.0.1',
  '{}'
FROM seq;
INSERT INTO metrics (run_id, name, value, unit)
SELECT id, 'throughput', 9.0e9 * (1 + (id % 7) / 100.0), 'bit/s' FROM runs;
COMMIT;
SQL
t1=$(date +%s.%N)
printf 'store: %s runs, %s, built in %.1f s\n' \
	"$(sqlite3 levels.db "SELECT COUNT(*) FROM runs")" \
	"$(du -h levels.db | cut -f1)" "$(echo "$t1 - $t0" | bc)"
a=$(date +%s.%N)
if [ -x /usr/bin/time ]; then
	/usr/bin/time -f '%U %M' -o time.txt "$xrun" report --db levels.db \
		-o levels.json 2>/dev/null
else
	"$xrun" report --db levels.db -o levels.json 2>/dev/null
	echo "? ?" > time.txt
fi
b=$(date +%s.%N)
read -r user rss < time.txt
printf 'xrun report -o levels.json %6.2f s wall, %s s user, %s KB peak  (%s bytes)\n' \
	"$(echo "$b - $a" | bc)" "$user" "$rss" "$(wc -c < levels.json)"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
