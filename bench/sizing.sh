#!/bin/bash
# SPDX-License-Identifier: MIT
# Sized repetitions against a fixed count (issue 12): the same synthetic
# command-engine plan (bench/sizing-values.py prints one value per run from
# a PRNG seeded by the cell and the repetition: two quiet environments,
# spread 0.2%, and two noisy ones, spread 8%; in each, side b is either
# as fast as a or 3% (quiet) / 20% (noisy) faster) is run twice: with
# `repeat: { min: 4, max: 16, precision: 2% }` and with `repeat: 16`. It
# prints the runs each needed and both verdict tables side by side
# (bench/RESULTS.md, "Sized repetitions").
#   bash bench/sizing.sh [XRUN]
set -eu
XRUN=${1:-$(dirname "$0")/../build/xrun}
XRUN=$(cd "$(dirname "$XRUN")" && pwd)/$(basename "$XRUN")
src=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T"
plan() { # name repeat
	cat >"$1.yaml" <<YAML
xrun: 1
name: $1
engine:
  type: command
  run: [python3, "$src/sizing-values.py", "{{env}}", "{{side}}", "{{rep}}"]
  metrics:
    throughput: { json: /v, unit: MB/s }
factors:
  env: { levels: [quiet-same, quiet-faster, noisy-same, noisy-faster] }
  side: { levels: [a, b] }
repeat: $2
report:
  compare:
    - factor: side
      baseline: a
YAML
}
plan sized "{ min: 4, max: 16, precision: 2% }"
plan fixed 16
for n in sized fixed; do
	"$XRUN" run $n.yaml --quiet 2>$n.err || { cat $n.err; exit 1; }
	"$XRUN" report --db $n.db -o $n.json 2>>$n.err
done
python3 - <<'PY'
import json, sqlite3
def load(n):
    runs = sqlite3.connect(f"{n}.db").execute(
        "select count(*) from runs where status='ok'").fetchone()[0]
    d = json.load(open(f"{n}.json"))
    v = {}
    for c in d["comparisons"]:
        env = c["a"]["env"]
        v[env] = (c["verdict"], c["delta_pct"], c["ci_low_pct"], c["ci_high_pct"], c["n_a"], c["n_b"])
    return runs, v
rs, vs = load("sized")
rf, vf = load("fixed")
print(f"runs: sized {rs}, fixed {rf} ({100 * (rf - rs) / rf:.0f}% fewer)")
print("| env | sized: n a/b | sized: Δ [95% CI] | sized verdict | fixed: n a/b | fixed: Δ [95% CI] | fixed verdict | same |")
print("|---|---:|---:|---|---:|---:|---|---|")
same = 0
for env in vs:
    a, b = vs[env], vf[env]
    f = lambda x: f"{x[1]:+.1f}% [{x[2]:+.1f}, {x[3]:+.1f}]" if x[1] is not None else "–"
    s = a[0] == b[0]
    same += s
    print(f"| {env} | {a[4]}/{a[5]} | {f(a)} | {a[0]} | {b[4]}/{b[5]} | {f(b)} | {b[0]} | {'yes' if s else 'no'} |")
print(f"same verdicts: {same} of {len(vs)}")
PY
