#!/bin/bash
# SPDX-License-Identifier: MIT
# The history change rule through the binary (bench/RESULTS.md, "History
# false alarms and power"): histories of 8 sessions x 6 cells x 3 runs
# written into stores (one real session of a command-engine plan as the
# template, seven more by SQL with drawn values), then `xrun report
# --history -o h.json` on each. Null: no change, each cell a CV drawn
# from 1-5% and one of four error shapes (normal, Student t3, lognormal,
# a drift within each session); the share of histories with any change.
# Power: the same with a 5% drop in one cell after session 4 at CV 1%;
# the share found, and found at session 5 alone.
#   bash bench/history.sh [HISTORIES] [SEED]    (default 200, 1)
# Needs a build (build/xrun), python3 and sqlite3. bench/history-mc.c is
# the same design on the rule alone, for many more histories.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
xrun=${XRUN:-$top/build/xrun}
n=${1:-200}
seed=${2:-1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
cat >t.yaml <<'EOF'
xrun: 1
name: histbench
engine:
  type: command
  run: [echo, '{"v": 100}']
  metrics:
    throughput: { json: /v, unit: MB/s }
sample: off
factors:
  a: [c1, c2, c3, c4, c5, c6]
repeat: 3
EOF
"$xrun" run t.yaml --db t.db -q 2>/dev/null
python3 - "$xrun" "$n" "$seed" <<'PY'
import json, math, random, shutil, sqlite3, subprocess, sys
xrun, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(seed)

def err(kind, cv, r):
    if kind == "t3":
        z = rng.gauss(0, 1) / math.sqrt(sum(rng.gauss(0, 1) ** 2 for _ in range(3)) / 3)
        return cv * z / math.sqrt(3)
    if kind == "lognormal":
        s = 0.9
        m, sd = math.exp(s * s / 2), math.exp(s * s / 2) * math.sqrt(math.exp(s * s) - 1)
        return math.log(1 + cv * (math.exp(rng.gauss(0, s)) - m) / sd)
    e = cv * rng.gauss(0, 1)
    return e + (cv * 2.0 * (r / 2 - 0.5) if kind == "drift" else 0)

def history(path, step_cell):
    shutil.copy("t.db", path)
    db = sqlite3.connect(path)
    kinds = ["normal", "t3", "lognormal", "drift"]
    cells = [json.loads(c) for (c,) in db.execute(
        "select distinct cell from runs order by cell_index")]
    sess = db.execute("select * from sessions where id = 1").fetchone()
    cols = [d[0] for d in db.execute("select * from sessions").description]
    cv = {i: (0.01 if i == step_cell else 0.01 + 0.04 * rng.random()) for i in range(6)}
    kind = {i: ("normal" if i == step_cell else rng.choice(kinds)) for i in range(6)}
    for s in range(1, 9):
        if s > 1:
            row = dict(zip(cols, sess))
            row["id"] = s
            row["started_at"] = row["started_at"] + 3600 * (s - 1)
            db.execute("insert into sessions (%s) values (%s)" % (
                ",".join(row), ",".join("?" * len(row))), list(row.values()))
            db.execute("insert into session_keys values (?, ?)", (s, "%032x" % rng.getrandbits(128)))
            db.execute("insert into host_facts select ?, host, key, value from host_facts where session_id = 1", (s,))
        db.execute("delete from metrics where run_id in (select id from runs where session_id = ?)", (s,))
        if s > 1:
            db.execute("insert into runs (session_id, position, block, block_pos, pass, rep, warmup, cell_index, cell, status, attempts, started_at, ended_at, elapsed) select ?, position, block, block_pos, pass, rep, warmup, cell_index, cell, status, attempts, started_at + ?, ended_at + ?, elapsed from runs where session_id = 1", (s, 3600 * (s - 1), 3600 * (s - 1)))
        for rid, ci, rep in db.execute("select id, cell_index, rep from runs where session_id = ?", (s,)).fetchall():
            v = math.log(8e8) + err(kind[ci], cv[ci], rep - 1)
            if ci == step_cell and s > 4:
                v += math.log(0.95)
            db.execute("insert into metrics values (?, 'throughput', ?, 'bit/s')", (rid, math.exp(v)))
    db.commit()
    db.close()
    out = subprocess.run([xrun, "report", "--db", path, "--history", "-o", "-", "--format", "json"],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)["history"]["cells"]

any_null = found = right = 0
for h in range(n):
    cells = history("n.db", -1)
    any_null += any(c["changes"] for c in cells)
    cells = history("p.db", 0)
    c0 = [c for c in cells if c["label"] == "a=c1"][0]
    found += bool(c0["changes"])
    right += [c["session"] for c in c0["changes"]] == [5]
print(f"histories {n} (8 sessions x 6 cells x 3 runs) through {xrun}")
print(f"null: histories with any change {100 * any_null / n:.1f}% ({any_null})")
print(f"power, -5% after session 4 at CV 1%: found {100 * found / n:.1f}%, "
      f"exactly at session 5 {100 * right / n:.1f}%")
PY
