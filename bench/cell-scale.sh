#!/bin/bash
# SPDX-License-Identifier: MIT
# Cell scale (issue 40): a store of N cells (default 100,000) as a matrix of
# two factors, a (100 levels a0..a99) x b (N / 100 levels b0..), R ok runs
# a cell (default 1) with a throughput metric 9e9 * (1 + (id % 7) / 100),
# built with SQL only (schema/store.sql, no runs), then `xrun report` to
# JSON, Markdown, CSV, HTML and PDF timed: wall, user CPU and peak RSS
# (GNU time). The issue's bar: every format under 5 s and 500 MB.
# Usage: bash bench/cell-scale.sh [N] [R] [XRUN]   (XRUN: build/xrun)
#        XRUN_BENCH_FORMATS="json html" to time some formats only.
set -eu
n=${1:-100000}
r=${2:-1}
xrun=${3:-${XRUN:-build/xrun}}
src=$(cd "$(dirname "$0")/.." && pwd)
command -v sqlite3 >/dev/null || { echo "sqlite3 is needed" >&2; exit 1; }
[ -x "$xrun" ] || { echo "no xrun binary at '$xrun'" >&2; exit 1; }
xrun=$(cd "$(dirname "$xrun")" && pwd)/$(basename "$xrun")
dir=$(mktemp -d)
if [ -n "${XRUN_BENCH_KEEP:-}" ]; then trap 'echo "kept $dir"' EXIT; else
	trap 'rm -rf "$dir"' EXIT
fi
cd "$dir"
na=100
nb=$(( (n + na - 1) / na ))
al=$(seq 0 $((na - 1)) | sed 's/^/a/' | paste -sd, -)
bl=$(seq 0 $((nb - 1)) | sed 's/^/b/' | paste -sd, -)
cat > plan.yaml <<YAML
xrun: 1
name: cells
title: "Cell scale: $((na * nb)) cells"
engine: { type: iperf3, client: local, server: { host: local, start: true }, duration: 1s }
factors:
  a: { levels: [$al] }
  b: { levels: [$bl] }
repeat: $r
YAML
t0=$(date +%s.%N)
sqlite3 cells.db < "$src/schema/store.sql"
plan=$(sed "s/'/''/g" plan.yaml)
sqlite3 cells.db > /dev/null <<SQL
PRAGMA journal_mode = OFF;
PRAGMA synchronous = OFF;
BEGIN;
INSERT INTO plans (id, name, title, path, hash, text, created_at)
  VALUES (1, 'cells', 'Cell scale', 'plan.yaml', 'h', '$plan', 1764460800);
INSERT INTO sessions (id, plan_id, cells_hash, started_at, updated_at,
  ended_at, xrun_version, status)
  VALUES (1, 1, 'c', 1764460800, 1764460800, 1764460800, '0.1.0', 'done');
WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq
  WHERE i < $((na * nb * r)) - 1)
INSERT INTO runs (id, session_id, position, block, block_pos, pass, rep,
  cell_index, cell, status, started_at, ended_at, elapsed, exit_code,
  engine, target, params)
SELECT i + 1, 1, i, 0, i, i / $((na * nb)), i / $((na * nb)) + 1,
  i % $((na * nb)),
  printf('{"a":"a%d","b":"b%d"}', (i % $((na * nb))) / $nb,
    (i % $((na * nb))) % $nb), 'ok',
  1764460800 + i * 2, 1764460800 + i * 2 + 1, 1, 0, 'iperf3', '127.0.0.1',
  '{}'
FROM seq;
INSERT INTO metrics (run_id, name, value, unit)
SELECT id, 'throughput', 9.0e9 * (1 + (id % 7) / 100.0), 'bit/s' FROM runs;
COMMIT;
SQL
t1=$(date +%s.%N)
printf 'store: %s cells, %s runs, %s, built in %.1f s\n' "$((na * nb))" \
	"$(sqlite3 cells.db "SELECT COUNT(*) FROM runs")" \
	"$(du -h cells.db | cut -f1)" "$(echo "$t1 - $t0" | bc)"
for fmt in ${XRUN_BENCH_FORMATS:-json md csv html pdf}; do
	a=$(date +%s.%N)
	set +e
	/usr/bin/time -f '%U %M' -o time.txt "$xrun" report --db cells.db \
		-o "cells.$fmt" 2>err.txt
	rc=$?
	set -e
	b=$(date +%s.%N)
	read -r user rss < <(tail -1 time.txt)
	printf 'xrun report -o cells.%-4s %7.2f s wall, %s s user, %s KB peak, exit %d (%s bytes)%s\n' \
		"$fmt" "$(echo "$b - $a" | bc)" "$user" "$rss" "$rc" \
		"$(wc -c < "cells.$fmt" 2>/dev/null || echo 0)" \
		"$([ $rc = 0 ] || echo ": $(head -c 200 err.txt)")"
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
