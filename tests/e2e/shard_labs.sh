#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 38's lab check (root only): one plan spread over three testbeds at
# once, three labs of `xrun lab up` (a fourth runs the whole plan beside
# them, the one-machine design to compare with) (each a client and a server namespace,
# its own testbed lock /tmp/xrun-testbed.netns-P-client.lock), real
# iperf3 with xrun starting the server, sampling off; the three stores
# merged. Every (cell, repetition) of the plan ran exactly once, and the
# report's comparisons have the structure of the same design run on one
# machine: the same cells, n per cell, and comparison pairs (A, B, n_a,
# n_b), with every comparison pooled over the three testbeds, none split.
set -eu
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/labplan.sh"
xr_need_root "xrun lab needs root (network namespaces)"
xr_need ip tc iperf3 sqlite3 python3
xr_tmpdir T
labs=()
for l in a b c d; do
	P="s$l$$"
	P=${P:0:10}
	labs+=("$P")
	xr_at_exit "\"\$XRUN\" lab down --prefix '$P' >/dev/null 2>&1"
	"$XRUN" lab up --rate 200mbit --prefix "$P" >"up-$l.out" ||
		fail "lab up $P exit $?"
done

# streams 1 or 2 x reverse or not: 4 cells, repeat 6 (abba: pass pairs
# 1-2, 3-4, 5-6, each 4 x 2 x (1 s + 0.35 s) = 10.8 s): one unit a shard.
plan_for() { # prefix
	xr_lab_plan "$1" shardlab 6 "" \
		$'sample: off\nfactors:\n  streams: { levels: ["1", "2"], param: parallel }\n  reverse: { levels: ["false", "true"], param: reverse }' |
		sed 's/^  duration: 2s$/  duration: 1s/'
}
# The three shards and, in the fourth lab, the same design on one
# machine, to compare with: all at once.
for i in 1 2 3; do
	plan_for "${labs[i - 1]}" >"p$i.yaml"
	"$XRUN" run "p$i.yaml" --db "s$i.db" --shard "$i/3" --unattended -q \
		>"run$i.out" 2>"run$i.err" &
done
plan_for "${labs[3]}" >one.yaml
"$XRUN" run one.yaml --db one.db --unattended -q >/dev/null 2>one.err &
for i in 1 2 3 4; do
	wait -n || fail "a run failed: $(cat run*.err one.err)"
done
for i in 1 2 3; do
	[ "$(q "s$i.db" "select count(*) from runs where status = 'ok'")" = 8 ] ||
		fail "shard $i: $(q "s$i.db" "select status, count(*) from runs group by 1"): $(cat "run$i.err")"
done
"$XRUN" merge all.db s1.db s2.db s3.db >merge.out 2>&1 ||
	fail "merge exit $?: $(cat merge.out)"
[ "$(q all.db "select count(*) from runs")" = 24 ] || fail "merged: not 4 x 6 runs"
[ -z "$(q all.db "select cell_index, rep from runs group by 1, 2 having count(*) <> 1")" ] ||
	fail "a (cell, rep) ran twice or never"
[ "$(q all.db "select count(distinct testbed) from shards")" = 3 ] ||
	fail "three testbeds: $(q all.db "select testbed from shards")"

"$XRUN" report --db all.db -o all.json 2>/dev/null || fail "report all"
"$XRUN" report --db one.db -o one.json 2>/dev/null || fail "report one"
python3 - all.json one.json <<'PY' || fail "structure differs"
import json, sys
a, o = (json.load(open(f)) for f in sys.argv[1:3])
cells = lambda d: sorted((c["label"], c["n"]) for c in d["cells"])
assert cells(a) == cells(o), (cells(a), cells(o))
assert all(n == 6 for _, n in cells(a)), cells(a)
pairs = lambda d: sorted((c["factor"], json.dumps(c["a"]), json.dumps(c["b"]),
                          c["n_a"], c["n_b"]) for c in d["comparisons"])
assert pairs(a) == pairs(o), (pairs(a), pairs(o))
assert len(pairs(a)) == 4, pairs(a)
for c in a["comparisons"]:
    assert "testbed_split" not in c["reason_codes"], c
PY
echo ok
