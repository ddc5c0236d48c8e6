#!/bin/bash
# SPDX-License-Identifier: MIT
# Sized repetitions (repeat: { min, max, precision }) with the command
# engine: a script in the test dir prints a value per run from a PRNG
# seeded by the cell's level and the repetition (argv, no shell), with a
# spread of 0.1% for the quiet cells and 10% for the noisy ones. Quiet
# cells stop at min; noisy ones run more and never past max; every extra
# pass of abba is mirrored by the next one; random and sequential keep
# their own shape; a SIGKILL after the pilot, then a rerun, keeps the
# decision (same rows, same planned counts, nothing recomputed).
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need sqlite3 python3 jq
xr_tmpdir T
cat >noise.py <<'PY'
import json, random, sys, time
level, rep, sleep = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
spread = {"q1": 0.001, "q2": 0.001, "n1": 0.10, "n2": 0.10,
          "m1": 0.01, "m2": 0.01}[level]
r = random.Random(f"{level}-{rep}")
time.sleep(sleep)
print(json.dumps({"v": 100.0 * (1 + spread * r.gauss(0, 1))}))
PY
plan() { # name order sleep
	cat >"$1.yaml" <<YAML
xrun: 1
name: $1
engine:
  type: command
  run: [python3, "$T/noise.py", "{{x}}", "{{rep}}", "$3"]
  metrics:
    throughput: { json: /v, unit: MB/s }
factors:
  x: { levels: [q1, n1, q2, n2] }
repeat: { min: 4, max: 12, precision: 2% }
order: $2
sample: off
YAML
}
runs_of() { # db level
	q "$1" "select count(*) from runs where status='ok' and json_extract(cell,'\$.x')='$2'"
}
check_counts() { # db
	local l
	for l in q1 q2; do
		[ "$(runs_of "$1" $l)" = 4 ] || fail "$1: quiet $l ran $(runs_of "$1" $l), want min 4"
	done
	for l in n1 n2; do
		n=$(runs_of "$1" $l)
		[ "$n" -gt 4 ] && [ "$n" -le 12 ] || fail "$1: noisy $l ran $n, want 5..12"
	done
	[ "$(q "$1" "select count(*) from sizing")" = 4 ] || fail "$1: sizing rows"
	[ "$(q "$1" "select count(*) from sizing where planned = runs_done")" = 4 ] ||
		fail "$1: planned vs done: $(q "$1" "select * from sizing")"
	[ "$(q "$1" "select count(*) from runs where status <> 'ok'")" = 0 ] || fail "$1: runs left"
	# positions are the execution order: dense, unique
	[ "$(q "$1" "select count(distinct position), min(position), max(position) from runs")" = \
		"$(q "$1" "select count(*), 0, count(*) - 1 from runs")" ] || fail "$1: positions not dense"
}

# --- abba: counts, and each pair of extra passes mirrored ---
plan s abba 0
"$XRUN" run s.yaml --quiet 2>s.err || { cat s.err; fail "run exit $?"; }
check_counts s.db
[ "$(q s.db "select stopped from sizing where cell_index in (0, 2) group by stopped")" = planned ] ||
	fail "quiet cells' stop reason: $(q s.db "select cell_index, stopped from sizing")"
# Extra pass j (rep 5 + j) of the cells that need it: pass 2k+1 is pass
# 2k reversed.
for rp in 5 7 9 11; do
	a=$(q s.db "select cell_index from runs where rep=$rp order by position" | tr '\n' ' ')
	b=$(q s.db "select cell_index from runs where rep=$((rp + 1)) order by position" | tr '\n' ' ')
	[ -z "$a" ] && continue
	rb=$(echo "$b" | tr ' ' '\n' | grep . | tac | tr '\n' ' ')
	[ "$a" = "$rb" ] || fail "extra passes $rp/$((rp + 1)) not mirrored: '$a' vs '$b'"
done
# Extra runs come after the pilot, and noisy cells only.
[ "$(q s.db "select count(*) from runs where rep > 4 and json_extract(cell,'\$.x') like 'q%'")" = 0 ] ||
	fail "a quiet cell got an extra run"
[ "$(q s.db "select min(position) from runs where rep > 4")" -ge 16 ] || fail "extra runs inside the pilot"
# The decision read the first two successful runs of each cell (min 4:
# max(2, min/2)), recorded in sizing_runs (schema/store.md).
[ "$(q s.db "select group_concat(c, ' ') from (select r.cell_index || ':' || r.rep as c from sizing_runs z join runs r on r.id = z.run_id order by r.cell_index, r.rep)")" = \
	"$(q s.db "select group_concat(c, ' ') from (select cell_index || ':' || rep as c from runs where status = 'ok' and rep <= 2 order by cell_index, rep)")" ] ||
	fail "decision runs: $(q s.db "select z.run_id, r.cell_index, r.rep from sizing_runs z join runs r on r.id = z.run_id")"
[ "$(q s.db "select count(*) from sizing_runs")" = 8 ] || fail "decision runs: want 2 a cell"
# --- random and sequential ---
plan r random 0
"$XRUN" run r.yaml --quiet 2>r.err || { cat r.err; fail "random exit $?"; }
check_counts r.db
plan sq sequential 0
"$XRUN" run sq.yaml --quiet 2>sq.err || { cat sq.err; fail "sequential exit $?"; }
check_counts sq.db
# sequential: each cell's extra runs back to back
q sq.db "select cell_index from runs where rep > 4 order by position" | uniq | sort | uniq -d | grep -q . &&
	fail "sequential extra runs not back to back"

# --- a resume after the pilot keeps the decision ---
plan k abba 0.15
"$XRUN" run k.yaml --quiet 2>k1.err &
pid=$!
# Until the first extra run is stored (a deadline in seconds, not in
# polls: on a loaded machine the 16 pilot runs took longer than 1,200
# polls did, and the kill then came before the decision).
deadline=$((SECONDS + 300))
while [ $SECONDS -lt $deadline ] && kill -0 $pid 2>/dev/null; do
	[ -f k.db ] && [ "$(q k.db "select count(*) from runs where rep > 4 and status='ok'" 2>/dev/null || echo 0)" -ge 1 ] && break
	sleep 0.05
done
kill -0 $pid 2>/dev/null || fail "the run ended before the kill: $(cat k1.err)"
kill -9 $pid
wait $pid 2>/dev/null || true
[ "$(q k.db "select count(*) from sizing")" = 4 ] || fail "no decision before the kill"
q k.db "select cell_index, need, planned, decided_at from sizing order by cell_index" >dec1.txt
"$XRUN" run k.yaml --quiet 2>k2.err || { cat k2.err; fail "resume exit $?"; }
q k.db "select cell_index, need, planned, decided_at from sizing order by cell_index" >dec2.txt
cmp -s dec1.txt dec2.txt || fail "the resume changed the decision: $(cat dec1.txt) vs $(cat dec2.txt)"
[ "$(q k.db "select count(*) from sessions")" = 1 ] || fail "resume made a session"
check_counts k.db
# the same cells, the same plan as the uninterrupted abba run
[ "$(q k.db "select group_concat(planned) from sizing order by cell_index")" = \
	"$(q s.db "select group_concat(planned) from sizing order by cell_index")" ] || fail "resume planned differs"
"$XRUN" status --db s.db >st.txt || fail "status exit $?"
grep -q '^  {"x":"q1"}: pilot 4, need 3 -> 4; done 4, reached .*, planned$' st.txt || fail "status: $(cat st.txt)"
grep -Eq '^  \{"x":"n1"\}: pilot 4, need [0-9]+ -> (1[0-2]|[5-9]); done' st.txt || fail "status: $(cat st.txt)"
# The report: the sizing table, the flag on the cells stopped at max
# without the precision (none on the quiet ones), JSON.
"$XRUN" report --db s.db -o s.md 2>rep.err && "$XRUN" report --db s.db -o s.json 2>>rep.err || { cat rep.err; fail "report exit $?"; }
grep -q "^## Repetitions sized from the pilot" s.md || fail "no sizing table"
grep -q "^| x=q1 | 4 | 3 | 4 (max 12) | 4 | .* | planned |$" s.md || fail "sizing row q1: $(grep x=q1 s.md)"
if command -v pdftotext >/dev/null; then
	"$XRUN" report --db s.db -o s.pdf 2>>rep.err || fail "pdf report exit $?"
	pdftotext s.pdf - 2>/dev/null | grep -q "Repetitions sized from the pilot" || fail "no sizing table in the PDF"
fi
python3 - s.json <<'PY' || fail "json sizing"
import json, sys
d = json.load(open(sys.argv[1]))
c = {x["cell"]["x"]: x for x in d["cells"]}
assert c["q1"]["sizing"]["stopped"] == "planned", c["q1"]["sizing"]
assert "precision_not_reached" not in c["q1"]["flags"]
for k in ("n1", "n2"):
    z = c[k]["sizing"]
    assert 4 < z["done"] <= 12, z
    assert ("precision_not_reached" in c[k]["flags"]) == (z["stopped"] == "max" and z["reached"] > 0.02), (k, z)
PY
# --- a manual block finishes with its extra passes before the next ---
cat >m.yaml <<YAML
xrun: 1
name: m
engine:
  type: command
  run: [python3, "$T/noise.py", "{{x}}", "{{rep}}", "0"]
  metrics:
    throughput: { json: /v, unit: MB/s }
factors:
  slot: { levels: [s1, s2], manual: "Move the card to {{slot}}" }
  x: { levels: [q1, n1] }
repeat: { min: 4, max: 12, precision: 2% }
sample: off
YAML
"$XRUN" run m.yaml --unattended --quiet 2>m1.err </dev/null || { cat m1.err; fail "manual exit $?"; }
[ "$(q m.db "select count(*) from sizing where block = 0")" = 2 ] || fail "block 0 not sized"
[ "$(q m.db "select count(*) from sizing where block = 1")" = 0 ] || fail "block 1 sized before its pilot"
[ "$(q m.db "select count(*) from runs where block = 0 and status <> 'ok'")" = 0 ] || fail "block 0 left runs"
[ "$(q m.db "select count(*) from runs where block = 1")" = 8 ] || fail "block 1 is not its pilot"
[ "$(q m.db "select count(*) from runs where block = 0 and rep > 4")" -gt 0 ] || fail "no extra pass in block 0"
[ "$(q m.db "select max(position) from runs where block = 0")" -lt "$(q m.db "select min(position) from runs where block = 1")" ] ||
	fail "block 0's extra runs are not inside block 0"
"$XRUN" run m.yaml --unattended --quiet 2>m2.err </dev/null || { cat m2.err; fail "manual 2 exit $?"; }
[ "$(q m.db "select count(*) from sizing")" = 4 ] || fail "block 1 not sized"
[ "$(q m.db "select count(*) from runs where status <> 'ok'")" = 0 ] || fail "manual plan left runs"
[ "$(q m.db "select count(distinct position), max(position) + 1 from runs")" = "$(q m.db "select count(*), count(*) from runs")" ] ||
	fail "manual plan positions not dense"

# --- a declared comparison sizes both cells for its Δ interval ---
for c in own cmp; do
	cat >$c.yaml <<YAML
xrun: 1
name: $c
engine:
  type: command
  run: [python3, "$T/noise.py", "{{x}}", "{{rep}}", "0"]
  metrics:
    throughput: { json: /v, unit: MB/s }
factors:
  x: { levels: [m1, m2] }
repeat: { min: 4, max: 30, precision: 1.5% }
sample: off
YAML
done
printf 'report:\n  compare:\n    - factor: x\n      baseline: m1\n' >>cmp.yaml
for c in own cmp; do
	"$XRUN" run $c.yaml --quiet 2>$c.err || { cat $c.err; fail "$c exit $?"; }
done
[ "$(q cmp.db "select count(distinct planned) from sizing")" = 1 ] ||
	fail "the pair's cells are not sized alike: $(q cmp.db "select * from sizing")"
[ "$(q cmp.db "select min(planned) from sizing")" -gt "$(q own.db "select min(planned) from sizing")" ] ||
	fail "the comparison did not raise the need: own $(q own.db "select need from sizing") cmp $(q cmp.db "select need from sizing")"
[ "$(q cmp.db "select min(need) from sizing")" -ge "$(q own.db "select max(need) from sizing")" ] ||
	fail "a compared cell needs less than alone"
# The JSON says what the decision took (decide_df: the decision runs
# of both sides, 1 df a side), and a merged store keeps the split decision:
# `xrun merge` copies sizing_runs, so the merged store's comparisons are
# the original's, number for number (issue 23).
"$XRUN" report --db cmp.db -o cmp.json 2>s.rerr || { cat s.rerr; fail "report"; }
[ "$(jq -c '[.comparisons[].decide_df] | unique' cmp.json)" = "[2]" ] ||
	fail "decide_df: $(jq -c '[.comparisons[].decide_df]' cmp.json)"
"$XRUN" merge -q merged.db cmp.db || fail "merge exit $?"
[ "$(q merged.db "select count(*) from sizing_runs")" = "$(q cmp.db "select count(*) from sizing_runs")" ] || fail "merge lost sizing_runs"
"$XRUN" report --db merged.db -o merged.json 2>m.rerr || { cat m.rerr; fail "merged report"; }
[ "$(jq -c '.comparisons' merged.json)" = "$(jq -c '.comparisons' cmp.json)" ] ||
	fail "merged comparisons differ: $(diff <(jq '.comparisons' cmp.json) <(jq '.comparisons' merged.json) | head -20)"

# xrun plan: the range before any run; --dimension from the store.
"$XRUN" plan s.yaml --db s.db >plan.txt || fail "plan exit $?"
grep -q "^sized: repeat min 4, max 12, precision 2% .*: 16 to 48 runs" plan.txt || fail "plan: $(head -12 plan.txt)"
"$XRUN" plan s.yaml --dimension --db s.db >dim.txt || fail "dimension exit $?"
grep -q "^levels: runs only" dim.txt || fail "dimension: $(cat dim.txt)"
grep -Eq '^  \{"x":"q1"\} +4 .* 3$' dim.txt || fail "dimension q1: $(cat dim.txt)"

# --- validation, with file:line:col ---
plan v abba 0
bad() { # repeat-value expected-message
	sed "s/^repeat:.*/repeat: $1/" v.yaml >b.yaml
	set +e
	"$XRUN" validate b.yaml >b.out 2>&1
	rc=$?
	set -e
	[ $rc = 2 ] || fail "validate '$1' exit $rc"
	grep -q "^b.yaml:[0-9]*:[0-9]*: error: .*$2" b.out || fail "validate '$1': $(cat b.out)"
}
bad "{ min: 1, max: 16, precision: 1% }" "repeat.min' must be an integer in 2"
bad "{ min: 4, max: 3, precision: 1% }" "repeat.max 3 is below min 4"
bad "{ min: 4, max: 8, precision: 0% }" "not a percentage above 0"
bad "{ min: 4, max: 8, precision: 1 }" "not a percentage above 0"
bad "{ min: 4, max: 8 }" "repeat needs precision"
bad "{ max: 8, precision: 1% }" "repeat needs min"
# A pilot of two is allowed, with a warning (the verdicts need three).
sed "s/^repeat:.*/repeat: { min: 2, max: 8, precision: 1% }/" v.yaml >w.yaml
"$XRUN" validate w.yaml >w.out 2>&1 || fail "min 2: $(cat w.out)"
grep -q "^w.yaml:[0-9]*:[0-9]*: warning: a pilot of 2 runs" w.out || fail "min 2 warning: $(cat w.out)"
echo ok
