#!/bin/bash
# SPDX-License-Identifier: MIT
# xrun plan --json end to end: run counts after exclusions, the minimum
# number of manual interventions (checked by brute force), abba drift
# cancellation (equal mean position per cell per block; equal mean square
# position in two-cell blocks at repeat 4 and 8), random reproducibility,
# sequential order, warm-ups, the latency probe (its keys, its server,
# null without one; its line in the human form), and exit 2 on a bad plan.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need python3
xr_tmpdir dir

cat > probe.yaml <<'YAML'
xrun: 1
name: probe
engine: { type: iperf3, duration: 1s, target: 127.0.0.1 }
factors:
  a: { levels: [x, y] }
YAML
if ! "$XRUN" plan --json probe.yaml > probe.json 2> probe.err; then
	cat probe.err >&2
	exit 1
fi

# A plan like the issue's: 2 manual factors, an exclusion, a hook factor.
cat > pcie.yaml <<'YAML'
xrun: 1
name: pcie-gen
title: "10GbE NIC x PCIe スロット"
hosts:
  server: { ssh: "lab@server.example", address: 192.0.2.10 }
engine:
  type: iperf3
  client: local
  server: { host: server, start: true }
  duration: 10s
  omit: 1s
factors:
  os:   { levels: [windows11, ubuntu2604], manual: "Boot the client into {{os}}" }
  slot: { levels: [pcie4x1, pcie3x1, pcie3x4], manual: "Move the card to the {{slot}} slot" }
  streams: { levels: [1, 2, 4, 8], param: parallel }
  cc:
    levels: [cubic, reno, bbr]
    apply: [sysctl, -w, "net.ipv4.tcp_congestion_control={{cc}}"]
exclude:
  - { os: windows11, cc: [reno, bbr] }
  - { os: ubuntu2604, slot: pcie3x4, streams: 8 }
repeat: 4
warmup: 1
settle: 2s
YAML

# Holes: the reflected order would cost 7 manual changes, 5 is the minimum.
cat > holes.yaml <<'YAML'
xrun: 1
name: holes
engine: { type: iperf3, duration: 1s, target: 127.0.0.1 }
factors:
  a: { levels: [a0, a1], manual: "set a to {{a}}" }
  b: { levels: [b0, b1], manual: "set b to {{b}}" }
  c: { levels: [c0, c1], manual: "set c to {{c}}" }
  n: { levels: [1, 2], param: parallel }
exclude:
  - { a: a0, b: b0, c: c1 }
  - { a: a1, b: b1, c: c0 }
repeat: 2
YAML

for r in 4 8; do
cat > ab$r.yaml <<YAML
xrun: 1
name: ab$r
engine: { type: iperf3, duration: 1s, target: 127.0.0.1 }
factors:
  cc: { levels: [A, B], param: congestion }
repeat: $r
YAML
done

for s in 42 43; do
cat > rnd$s.yaml <<YAML
xrun: 1
name: rnd
engine: { type: iperf3, duration: 1s, target: 127.0.0.1 }
factors:
  m: { levels: [m1, m2], manual: "switch to {{m}}" }
  p: { levels: [1, 2, 3, 4], param: parallel }
  q: { levels: [u, v, w], param: congestion }
repeat: 6
order: random
seed: $s
YAML
done
cp rnd42.yaml rnd42b.yaml

cat > seq.yaml <<'YAML'
xrun: 1
name: seq
engine: { type: iperf3, duration: 1s, target: 127.0.0.1 }
factors:
  p: { levels: [1, 2, 3], param: parallel }
repeat: 3
order: sequential
warmup: 2
YAML

for f in pcie holes ab4 ab8 rnd42 rnd42b rnd43 seq; do
	"$XRUN" plan --json $f.yaml > $f.json
done

python3 - <<'PY'
import itertools, json, sys
fails = 0
def check(cond, what):
    global fails
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        fails += 1
def load(n):
    return json.load(open(n + ".json"))

def common(d, name):
    runs = d["runs"]
    check(d["total_runs"] == len(runs), name + ": total_runs = len(runs)")
    check([r["index"] for r in runs] == list(range(len(runs))),
          name + ": index from 0 in execution order")
    nblk = len(d["blocks"])
    check(sum(b["runs"] for b in d["blocks"]) == len(runs),
          name + ": blocks cover all runs")
    for b in d["blocks"]:
        rs = runs[b["first"]:b["first"] + b["runs"]]
        ok = all(r["block"] == b["index"] and r["pos"] == i and
                 all(r["cell"][k] == v for k, v in b["manual"].items())
                 for i, r in enumerate(rs))
        check(ok, name + ": block %d holds its runs in order" % b["index"])
    check(d["manual_interventions"] == sum(b["changes"] for b in d["blocks"]),
          name + ": interventions = sum of changes")
    # the changes really are the manual factors differing between blocks
    man = [f["name"] for f in d["factors"] if f["manual"]]
    real = sum(sum(d["blocks"][i]["manual"][m] != d["blocks"][i - 1]["manual"][m]
                   for m in man) for i in range(1, nblk))
    check(real == d["manual_interventions"], name + ": changes recounted")
    check(all(isinstance(v, str) for r in runs for v in r["cell"].values()),
          name + ": levels are strings")
    meas = [r for r in runs if not r.get("warmup")]
    check(all(1 <= r["rep"] <= d["repeat"] for r in meas),
          name + ": rep from 1 to repeat")

def min_changes(d):
    man = [f["name"] for f in d["factors"] if f["manual"]]
    blocks = sorted({tuple(r["cell"][m] for m in man) for r in d["runs"]})
    best = None
    for perm in itertools.permutations(blocks):
        c = sum(sum(x != y for x, y in zip(perm[i - 1], perm[i]))
                for i in range(1, len(perm)))
        best = c if best is None else min(best, c)
    return best

def moments(d, power):
    """per block: {cell: sum of pos**power} over measured runs"""
    out = []
    for b in d["blocks"]:
        acc = {}
        for r in d["runs"][b["first"]:b["first"] + b["runs"]]:
            if r.get("warmup"):
                continue
            k = json.dumps(r["cell"], sort_keys=True)
            acc[k] = acc.get(k, 0) + r["pos"] ** power
        out.append(acc)
    return out

d = load("pcie")
common(d, "pcie")
# 2*3*4*3 = 72; windows11 x (reno|bbr): 1*3*4*2 = 24; ubuntu x pcie3x4 x 8: 3
check(d["cells"] == 72 - 24 - 3, "pcie: cells after exclusions (45)")
check(d["total_runs"] == 45 * 4 + len(d["blocks"]) * 1,
      "pcie: total runs = cells x repeat + warm-ups")
check(len(d["blocks"]) == 6, "pcie: 6 manual blocks")
check(d["manual_interventions"] == 5, "pcie: 5 manual changes (minimum)")
check(d["manual_interventions"] == min_changes(d), "pcie: brute force agrees")
check(all(len(set(m.values())) == 1 for m in moments(d, 1)),
      "pcie: abba repeat 4: equal mean position per cell per block")
wu = [r for r in d["runs"] if r.get("warmup")]
check(len(wu) == 6 and all(r["pos"] == 0 and r["rep"] == 0 for r in wu),
      "pcie: one warm-up at the start of every block")
check(all(d["runs"][r["index"] + 1]["cell"] == r["cell"] for r in wu),
      "pcie: warm-up runs the block's first cell")
check(d["title"] == "10GbE NIC x PCIe スロット", "pcie: UTF-8 title")
# the hook factor cc changes as rarely as abba allows inside a block
for b in d["blocks"]:
    rs = [r for r in d["runs"][b["first"]:b["first"] + b["runs"]]
          if not r.get("warmup")]
    ncc = len({r["cell"]["cc"] for r in rs})
    ch = sum(rs[i]["cell"]["cc"] != rs[i - 1]["cell"]["cc"]
             for i in range(1, len(rs)))
    check(ch <= (ncc - 1) * d["repeat"] + 1,
          "pcie: block %d: cc changes %d times" % (b["index"], ch))

d = load("holes")
common(d, "holes")
check(d["cells"] == 12, "holes: 16 - 4 excluded cells")
check(d["manual_interventions"] == 5, "holes: 5 changes (gray order: 7)")
check(min_changes(d) == 5, "holes: brute force minimum is 5")

for r in (4, 8):
    d = load("ab%d" % r)
    common(d, "ab%d" % r)
    seq = "".join(x["cell"]["cc"] for x in d["runs"])
    check(seq[:8] == "ABBABAAB", "ab%d: A B B A B A A B (%s)" % (r, seq))
    m1, m2 = moments(d, 1)[0], moments(d, 2)[0]
    check(len(set(m1.values())) == 1, "ab%d: equal mean position" % r)
    check(len(set(m2.values())) == 1, "ab%d: equal mean square position" % r)

a, b, c = load("rnd42"), load("rnd42b"), load("rnd43")
common(a, "rnd42")
cells = lambda d: [json.dumps(r["cell"], sort_keys=True) for r in d["runs"]]
check(cells(a) == cells(b), "random: same seed, same order")
check(cells(a) != cells(c), "random: different seed, different order")
for blk in a["blocks"]:
    rs = a["runs"][blk["first"]:blk["first"] + blk["runs"]]
    passes = [cells({"runs": rs[i:i + 12]}) for i in range(0, len(rs), 12)]
    check(all(len(set(p)) == 12 for p in passes),
          "random: block %d: every pass is a permutation" % blk["index"])
    check(len({tuple(p) for p in passes}) > 1,
          "random: block %d: passes differ" % blk["index"])

d = load("seq")
common(d, "seq")
meas = [r for r in d["runs"] if not r.get("warmup")]
check([r["cell"]["p"] for r in meas] == list("111222333"),
      "sequential: repetitions back to back")
check([r["rep"] for r in meas] == [1, 2, 3] * 3, "sequential: rep numbers")
check(d["total_runs"] == 11 and sum(1 for r in d["runs"] if r.get("warmup")) == 2,
      "sequential: 2 warm-ups counted in total_runs")
sys.exit(1 if fails else 0)
PY

# A bad plan: exit 2 and a positioned error, nothing on stdout.
cat > bad.yaml <<'YAML'
xrun: 1
name: bad
engine: { type: iperf3, target: 127.0.0.1 }
factors:
  a: { levels: [x, y] }
exclude:
  - { a: [x, y] }
YAML
set +e
"$XRUN" plan --json bad.yaml > bad.out 2> bad.err
rc=$?
set -e
[ "$rc" -eq 2 ] || { echo "FAIL bad plan: exit $rc, want 2"; cat bad.err; exit 1; }
grep -q "^bad.yaml:[0-9]*:[0-9]*: error: " bad.err ||
	{ echo "FAIL bad plan: no positioned error"; cat bad.err; exit 1; }
[ ! -s bad.out ] || { echo "FAIL bad plan: wrote to stdout"; exit 1; }
echo "ok   bad plan: exit 2 with file:line:col"

# The human form of a one-run plan speaks English ("[1 run]", not "[1 runs]").
printf 'xrun: 1\nname: one\nengine: { type: iperf3, server: local, duration: 1s }\n' > one.yaml
"$XRUN" plan one.yaml > one.txt
grep -q '^block 0: (no manual factors)  \[1 run\]$' one.txt ||
	{ echo "FAIL one run: block line"; cat one.txt; exit 1; }
grep -q '^runs: 1 (' one.txt || { echo "FAIL one run: header"; exit 1; }
echo "ok   one-run plan: '[1 run]'"

# The estimate: 0.35 s per run by default, and the samplers' lead-in
# (pcie-gen samples at the default 1 s: a 0.2 s lead-in, sampler.h
# SAMPLER_LEAD_S) overlapping settle 2 s: the longer, 2 s, counts;
# refined from a real store of an earlier session (./<name>.db): 10 runs
# 15 s apart, each 11.1 s long for duration 10 s + omit 1 s, settle 2 s
# -> (15 - 11.1 - max(2, 0.2)) + 0.1 = 2.0 s.
python3 -c '
import json; d = json.load(open("pcie.json"))
assert d["per_run_overhead_seconds"] == 0.35, d["per_run_overhead_seconds"]
assert abs(d["lead_in_seconds"] - 0.2) < 1e-9, d["lead_in_seconds"]
want = 45 * 4 * (10 + 1 + 2 + 0.35) + 6 * (10 + 1 + 2 + 0.35)
assert abs(d["estimated_seconds"] - want) < 0.1, (d["estimated_seconds"], want)
print("ok   estimate: runs x (duration + omit + max(settle, lead-in 0.2 s) + 0.35 s)")'
"$XRUN" plan pcie.yaml >pcie.txt
grep -q "+ the longer of settle 2s and sampler lead-in 0.2s (they overlap) + overhead 0.35s" pcie.txt ||
	{ echo "FAIL estimate: the human form does not show the lead-in"; grep estimated pcie.txt; exit 1; }
# The lead-in is 0.2 s (whole periods of a shorter one: 100 ms x 2, 150 ms
# x 2 = 0.3 s), none when nothing is sampled.
for s in "sample: 200ms|0.2" "sample: 2s|0.2" "sample: 100ms|0.2" "sample: 150ms|0.3" "sample: off|0.0" "counters: none|0.0"; do
	printf 'xrun: 1\nname: lead\nengine: { type: iperf3, server: local, duration: 2s }\nrepeat: 3\n%s\n' \
		"${s%|*}" >lead.yaml
	"$XRUN" plan --json lead.yaml >lead.json
	python3 -c '
import json, sys; d = json.load(open("lead.json")); want = float(sys.argv[1])
assert abs(d["lead_in_seconds"] - want) < 1e-9, (sys.argv[2], d["lead_in_seconds"], want)
e = 3 * (2 + want + 0.35)
assert abs(d["estimated_seconds"] - e) < 0.05 + 1e-9, (sys.argv[2], d["estimated_seconds"], e)
' "${s#*|}" "${s%|*}" || { echo "FAIL lead-in of ${s%|*}"; exit 1; }
done
echo "ok   lead-in: 200ms, 2s, 100ms 0.2 s, 150ms 0.3 s, off and counters: none 0"
# The latency probe: its keys in --json (null without one), its line in the
# human form; its idle phase is the lead-in when longer than the samplers'.
for l in "probe: irtt, interval: 50ms, idle: 3s|irtt|server|0.05|3|True" \
	"probe: ping, to: 192.0.2.7|ping|192.0.2.7|0.1|2|False" \
	"probe: irtt, to: 192.0.2.7|irtt|192.0.2.7|0.1|2|False"; do
	IFS='|' read -r y probe to iv idle srv <<<"$l"
	printf 'xrun: 1\nname: lat\nengine: { type: iperf3, server: local, duration: 2s }\nlatency: { %s }\n' "$y" >lat.yaml
	"$XRUN" plan --json lat.yaml >lat.json
	python3 -c '
import json, sys; d = json.load(open("lat.json")); l = d["latency"]
p, to, iv, idle, srv = sys.argv[1:]
want = {"probe": p, "from": "client", "to": to, "interval_seconds": float(iv),
        "idle_seconds": float(idle), "server": srv == "True"}
assert l == want, (l, want)
assert abs(d["lead_in_seconds"] - max(0.2, float(idle))) < 1e-9, d["lead_in_seconds"]
' "$probe" "$to" "$iv" "$idle" "$srv" || { echo "FAIL latency in --json: $y: $(cat lat.json | head -c 600)"; exit 1; }
	"$XRUN" plan lat.yaml >lat.txt
	grep -q "^latency probe: $probe from client to $to every ${iv}s, ${idle}s idle before each run (in the lead-in)" lat.txt ||
		{ echo "FAIL latency in the human form: $y: $(grep -i latency lat.txt)"; exit 1; }
	if [ "$srv" = True ]; then
		grep -q "xrun starts its server on the target" lat.txt || { echo "FAIL no server line: $y"; exit 1; }
	elif grep -q "starts its server" lat.txt; then
		echo "FAIL a server line for $y"; exit 1
	fi
done
"$XRUN" plan --json lead.yaml | python3 -c 'import json, sys; assert json.load(sys.stdin)["latency"] is None' ||
	{ echo "FAIL latency is not null without a probe"; exit 1; }
echo "ok   latency: the probe in --json and the human form, null without one"
if command -v sqlite3 >/dev/null; then
	sqlite3 pcie-gen.db < "$XRUN_SOURCE_DIR/schema/store.sql"
	sqlite3 pcie-gen.db "
	INSERT INTO plans(id,name,hash,text,created_at) VALUES(1,'pcie-gen','h','t',0);
	INSERT INTO sessions(id,plan_id,cells_hash,started_at,updated_at,xrun_version)
	  VALUES(1,1,'c',0,0,'0');
	WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i+1 FROM k WHERE i<9)
	INSERT INTO runs(session_id,position,block,block_pos,pass,rep,cell_index,
	  cell,status,started_at,ended_at,elapsed)
	  SELECT 1,i,0,i,0,1,0,'{}','ok',i*15.0,i*15.0+11.1,11.1 FROM k;"
	"$XRUN" plan --json pcie.yaml > pcie2.json
	python3 -c '
import json; d = json.load(open("pcie2.json"))
assert abs(d["per_run_overhead_seconds"] - 2.0) < 1e-6, d["per_run_overhead_seconds"]
print("ok   estimate: overhead refined from ./pcie-gen.db")'
else
	echo "note: sqlite3 CLI missing, estimate refinement not checked"
fi
