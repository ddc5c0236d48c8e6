#!/bin/bash
# SPDX-License-Identifier: MIT
# Shards (docs/shards.md) with a fast command engine, sampling off: two
# shards merged hold every (cell, repetition) exactly once; merging a
# shard twice changes nothing; one shard alone names the other as missing
# (exit 1; --partial exit 0); a shard twice, another N and a whole session
# beside shards are refused; `plan --shard` lists what `run --shard` runs;
# the report refuses a comparison split across testbeds and not one whose
# blocks a declared comparison kept together; the testbed lock (busy,
# waited for, taken over from a dead process). Numbers worked by hand in
# the comments.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need sqlite3 python3
xr_tmpdir T

# 2 x 2 cells, repeat 4, abba: one block, pass pairs 1-2 and 3-4, each
# 4 cells x 2 passes x 10.35 s = 82.8 s: unit 0 to shard 1, unit 1 to 2.
cat >p.yaml <<'EOF'
xrun: 1
name: shardt
engine:
  type: command
  run: [sh, -c, 'echo "{\"v\": 5}"']
  metrics:
    throughput: { json: /v, unit: MB/s }
sample: off
factors:
  a: [x, y]
  b: ["1", "2"]
repeat: 4
EOF
# each shard gets its own lock directory name through a namespace-free
# local host: run them one after the other (the lock is the machine's)
"$XRUN" run p.yaml --db s1.db --shard 1/2 --lock-wait 60 -q 2>err1 ||
	fail "shard 1 exit $?: $(cat err1)"
"$XRUN" run p.yaml --db s2.db --shard 2/2 --lock-wait 60 -q 2>err2 ||
	fail "shard 2 exit $?: $(cat err2)"
[ "$(q s1.db "select group_concat(distinct rep) from runs")" = "1,2" ] ||
	fail "shard 1 ran reps $(q s1.db "select group_concat(distinct rep) from runs"), want 1,2"
[ "$(q s2.db "select group_concat(distinct rep) from runs")" = "3,4" ] ||
	fail "shard 2 ran reps $(q s2.db "select group_concat(distinct rep) from runs"), want 3,4"
[ "$(q s1.db "select k || '/' || n || ' ' || units || ' ' || blocks from shards")" = "1/2 2 [0]" ] ||
	fail "shard 1 manifest: $(q s1.db "select * from shards")"
[ "$(q s1.db "select assign from shards")" = "[[0,0,2,1],[0,2,2,2]]" ] ||
	fail "assignment: $(q s1.db "select assign from shards")"

# plan --shard lists exactly the runs run --shard made (cell, rep, block)
"$XRUN" plan p.yaml --shard 2/2 --json >plan2.json || fail "plan --shard exit $?"
python3 - plan2.json <<'PY' >plan2.txt || fail "plan json"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["shard"] == {"k": 2, "n": 2, "units": 2, "seconds": 82.8,
                      "part": "block 0 passes 3-4"}, d["shard"]
for r in d["runs"]:
    print(json.dumps(r["cell"], separators=(",", ":")), r["rep"], r["block"])
PY
q s2.db "select cell, rep, block from runs order by position" | tr '|' ' ' >run2.txt
diff plan2.txt run2.txt || fail "plan --shard 2/2 differs from what run --shard 2/2 ran"

# merged: 4 cells x 4 reps, each exactly once (16 runs); again: no change
"$XRUN" merge all.db s1.db s2.db >m1.out 2>m1.err || fail "merge exit $?: $(cat m1.err)"
[ "$(q all.db "select count(*) from runs")" = 16 ] || fail "merged runs"
[ -z "$(q all.db "select cell_index, rep from runs group by 1, 2 having count(*) <> 1")" ] ||
	fail "a (cell, rep) not exactly once"
[ "$(q all.db "select count(distinct cell_index || '-' || rep) from runs")" = 16 ] ||
	fail "not every (cell, rep) of 4 x 4"
"$XRUN" merge all.db s1.db >m2.out 2>&1 || fail "merge again exit $?"
[ "$(q all.db "select count(*) from runs")" = 16 ] || fail "merging shard 1 twice changed the count"
"$XRUN" status --db all.db >st.out
grep -q "^shards of matrix .*: 1/2 (session 1, testbed local=.*), 2/2 (session 2" st.out ||
	fail "status shards: $(cat st.out)"
grep -q "^shards: complete" st.out || fail "status: not complete: $(cat st.out)"

# shard 1 alone: shard 2 named missing with its passes, exit 1
set +e
"$XRUN" merge one.db s1.db >o.out 2>o.err
rc=$?
set -e
[ $rc = 1 ] || fail "merge of shard 1 alone exit $rc, want 1"
grep -q "error: shard missing (matrix [0-9a-f]*): 2/2 (block 0 passes 3-4)" o.err ||
	fail "missing shard not named: $(cat o.err)"
"$XRUN" merge one.db s1.db --partial >/dev/null 2>o2.err || fail "--partial exit $?"
grep -q "warning: shard missing" o2.err || fail "--partial: $(cat o2.err)"
"$XRUN" status --db one.db | grep -q "^shard missing (matrix [0-9a-f]*): 2/2" ||
	fail "status of a partial merge"
# the other order gives the same runs
"$XRUN" merge rev.db s2.db s1.db >/dev/null 2>&1 || fail "merge in reverse order"
[ "$(q rev.db "select group_concat(c, ';') from (select cell_index || ':' || rep || ':' || status as c from runs order by cell_index, rep)")" = \
  "$(q all.db "select group_concat(c, ';') from (select cell_index || ':' || rep || ':' || status as c from runs order by cell_index, rep)")" ] ||
	fail "merge order changed the runs"

# refusals: shard 1 twice, N=3 beside N=2, the whole plan beside shards
"$XRUN" run p.yaml --db s1b.db --shard 1/2 --lock-wait 60 -q 2>/dev/null
"$XRUN" run p.yaml --db s13.db --shard 1/3 --lock-wait 60 -q 2>/dev/null
"$XRUN" run p.yaml --db full.db -q 2>/dev/null
for c in "s1b.db:shard 1/2 is in the merged store twice (sessions 1 and 3)" \
	"s13.db:shard 1/2 and shard 1/3 (session 3) divide the plan" \
	"full.db:shard 1/2 and session 3 (the whole plan, not sharded)"; do
	in=${c%%:*}
	set +e
	"$XRUN" merge all.db "$in" >r.out 2>r.err
	rc=$?
	set -e
	[ $rc = 2 ] || fail "merge of $in exit $rc, want 2"
	grep -qF "${c#*:}" r.err || fail "merge of $in: $(cat r.err)"
	[ "$(q all.db "select count(*) from runs")" = 16 ] ||
		fail "refused $in still changed the store"
done

# K/N: the bases spelled out; an empty GitLab variable refused
for bad in 0/2 3/2 / x/2; do
	set +e
	"$XRUN" run p.yaml --db bad.db --shard "$bad" >b.out 2>b.err
	rc=$?
	set -e
	[ $rc = 2 ] || fail "--shard '$bad' exit $rc, want 2"
	[ ! -e bad.db ] || fail "--shard '$bad' created a store"
done
grep -q "K counts from 1" <("$XRUN" run p.yaml --shard 0/2 2>&1) || fail "0/2 message"

# Testbeds. A manual factor nic, 2 x 2 cells, repeat 3: blocks nic=a,
# nic=b; units (1-2: 2 cells x 2 passes x 10.35 = 41.4 s; 3: 20.7 s) in
# block order 41.4, 20.7, 41.4, 20.7: LPT gives block a to shard 1 and
# block b to shard 2. The default comparison on nic then has A only on
# bench-a: refused (testbed_split). Declared, it joins the blocks: shard
# 1 runs all 12, shard 2 none, and the comparison is not split.
cat >m.yaml <<'EOF'
xrun: 1
name: shardm
engine:
  type: command
  run: [sh, -c, 'echo "{\"v\": 5}"']
  metrics:
    throughput: { json: /v, unit: MB/s }
sample: off
factors:
  nic: { levels: [a, b], manual: "put in card {{nic}}" }
  x: ["1", "2"]
repeat: 3
EOF
"$XRUN" run m.yaml --db m1.db --shard 1/2 --testbed bench-a -y -q --lock-wait 60 2>/dev/null
"$XRUN" run m.yaml --db m2.db --shard 2/2 --testbed bench-b -y -q --lock-wait 60 2>/dev/null
[ "$(q m1.db "select group_concat(distinct cell) from runs")" = '{"nic":"a","x":"1"},{"nic":"a","x":"2"}' ] ||
	fail "shard 1 of the nic plan: $(q m1.db "select group_concat(distinct cell) from runs")"
"$XRUN" merge mall.db m1.db m2.db >/dev/null
"$XRUN" report --db mall.db -o m.json 2>/dev/null
python3 - m.json <<'PY' || fail "testbed_split in the report"
import json, sys
d = json.load(open(sys.argv[1]))
nic = [c for c in d["comparisons"] if c["factor"] == "nic"]
assert len(nic) == 2 and all(c["verdict"] == "not_comparable" and
    "testbed_split" in c["reason_codes"] for c in nic), nic
x = [c for c in d["comparisons"] if c["factor"] == "x"]
assert x and not any("testbed_split" in c["reason_codes"] for c in x), x
tb = sorted(s["testbed"] for s in d["session_info"])
assert tb == ["bench-a", "bench-b"], tb
PY
sed 's/^repeat: 3$/repeat: 3\nreport:\n  compare: [ { factor: nic } ]/' m.yaml >md.yaml
"$XRUN" run md.yaml --db d1.db --shard 1/2 -y -q --lock-wait 60 2>/dev/null
"$XRUN" run md.yaml --db d2.db --shard 2/2 -y --lock-wait 60 2>d2.err
[ "$(q d1.db "select count(*) from runs")" = 12 ] || fail "declared: shard 1 runs all 12"
[ "$(q d2.db "select count(*) from runs")" = 0 ] || fail "declared: shard 2 runs none"
grep -q "shard 2/2 has no runs" d2.err || fail "empty shard not said: $(cat d2.err)"
# Shard 1 left its nic=b block pending (a manual change, no terminal to
# confirm it): 6 of its 12 runs not done, named, exit 1 (before issue 41
# the merge dropped the schedules and said nothing); the empty shard 2
# is present, not missing.
rc=0
"$XRUN" merge dall.db d1.db d2.db >/dev/null 2>dall.err || rc=$?
[ "$rc" = 1 ] || fail "merge with an empty shard, 6 runs not done: exit $rc"
grep -q "shard 1/2 (session 1): 6 runs not done" dall.err ||
	fail "the runs not done not named: $(cat dall.err)"
! grep -q "shard missing" dall.err || fail "empty shard missing: $(cat dall.err)"

# The lock: a held lock on this machine by a live process is busy
# (exit 3, the holder named); by an ended one, taken over.
lock=/tmp/xrun-testbed.lock
while ! mkdir -m 700 "$lock" 2>/dev/null; do sleep 0.5; done
# removed at exit only while it holds this test's tag (pid $$ or the
# dead 999999999): another test may hold the lock by then
xr_at_exit "grep -qsE 'pid ($$|999999999) plan other' '$lock/tag' && rm -rf '$lock'"
echo "controller $(hostname) pid $$ plan other shard 1/2" >"$lock/tag"
set +e
"$XRUN" run p.yaml --db busy.db --shard 1/2 -q >busy.out 2>busy.err
rc=$?
set -e
[ $rc = 3 ] || fail "busy testbed exit $rc, want 3"
grep -qF "the testbed is busy: $lock on 'local' is held by controller $(hostname) pid $$ plan other shard 1/2" busy.err ||
	fail "busy message: $(cat busy.err)"
[ "$(q busy.db "select count(*) from runs where status = 'ok'")" = 0 ] || fail "ran on a busy testbed"
echo "controller $(hostname) pid 999999999 plan other shard 1/2" >"$lock/tag"
"$XRUN" run p.yaml --db busy.db --shard 1/2 -q 2>took.err || fail "stale lock exit $?"
grep -q "taking over the testbed lock" took.err || fail "stale lock: $(cat took.err)"
[ ! -e "$lock" ] || fail "lock left after the run"
echo "ok"
