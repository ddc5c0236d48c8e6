#!/bin/bash
# SPDX-License-Identifier: MIT
# Rate search with a command engine (schema/plan.md, "Rate search"): a
# model shaper that loses 1 - 437/load above 437 (tests/e2e/lib/
# search_shaper.sh). Each figure by hand: the first trial at max load 1000
# loses 56.3%, its forwarding rate 437 is the next trial (no loss: ndr's
# lower bound = 437, exactly); one width (1%) up, 441.37 -> 441, loses
# 0.907% (ndr's upper bound: 0.9% apart, done). pdr (5%): the largest load
# losing at most 5% is 437 / 0.95 = 460.0: its lower bound within 1%
# below 460, its upper above. Every trial is a run at a negative position
# with its trials row; the search's run holds the metrics. Then the same
# search killed (SIGKILL) during its fourth trial and resumed: the same
# trials in the same order, the killed one run again in its own row
# (attempts 2), nothing doubled, the same ndr and pdr.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need sqlite3
xr_tmpdir T
GEN=$XRUN_SOURCE_DIR/tests/e2e/lib/search_shaper.sh
plan() { # name sleep
	cat <<YAML
xrun: 1
name: $1
sample: off
counters: none
engine:
  type: command
  run: [sh, "$GEN", "{{rate}}", "$2"]
  metrics:
    lost: { regex: 'lost (\S+)', unit: '1' }
search:
  param: rate
  min: 100
  max: 1000
  width: 1%
  loss: lost
  goals:
    - { name: ndr, loss: 0%, trial: 0.1s, sum: 0.1s, exceed: 0% }
    - { name: pdr, loss: 5%, trial: 0.1s, sum: 0.1s, exceed: 0% }
YAML
}
plan s 0 >s.yaml
"$XRUN" run s.yaml --db s.db --unattended --quiet || fail "run exit $?"
XR_DB=s.db
m() { q "select value from metrics where run_id = (select id from runs where position = 0) and name = '$1'"; }
[ "$(m ndr)" = 437.0 ] || fail "ndr $(m ndr), want 437"
[ "$(m ndr_upper)" = 441.0 ] || fail "ndr upper $(m ndr_upper), want 441"
[ "$(q "select $(m pdr) between 460 * 0.99 and 460 and $(m pdr_upper) > 460")" = 1 ] ||
	fail "pdr $(m pdr) upper $(m pdr_upper): want within 1% below 460, upper above"
# ndr's conditional throughput: 437 x (1 - 0) = 437
[ "$(m ndr_throughput)" = 437.0 ] || fail "ndr throughput $(m ndr_throughput)"
n=$(q "select count(*) from trials")
[ "$(m trials)" = "$n.0" ] || fail "trials metric $(m trials), $n rows"
[ "$(q "select count(*) from runs where position < 0 and status = 'ok'")" = "$n" ] ||
	fail "not every trial is an ok run"
[ "$(q "select group_concat(load, ',') from (select load from trials order by seq limit 3)")" = 1000.0,437.0,441.0 ] ||
	fail "first trials: $(q "select group_concat(load) from trials")"
[ "$(q "select count(*) from results")" -gt 0 ] &&
	[ "$(q "select count(*) from results where position < 0")" = 0 ] ||
	fail "results holds trials"
"$XRUN" status --db s.db | grep -q '1 of 1 done\|1 ok' || { "$XRUN" status --db s.db; fail "status"; }

# Killed during trial 4 (each trial sleeps 0.3 s), then resumed.
plan k 0.3 >k.yaml
"$XRUN" run k.yaml --db k.db --unattended --quiet &
pid=$!
XR_DB=k.db
for _ in $(seq 1 300); do
	[ -f k.db ] && [ "$(q "select count(*) from trials" 2>/dev/null || echo 0)" -ge 4 ] && break
	sleep 0.05
done
kill -9 $pid
wait $pid 2>/dev/null || true
[ "$(q "select count(*) from trials")" = 4 ] || fail "killed at $(q "select count(*) from trials") trials"
"$XRUN" run k.yaml --db k.db --unattended --quiet || fail "resume exit $?"
[ "$(q "select group_concat(load, ',') from (select load from trials order by seq)")" = \
	"$(XR_DB=s.db q "select group_concat(load, ',') from (select load from trials order by seq)")" ] ||
	fail "resumed trials $(q "select group_concat(load) from trials") differ"
[ "$(q "select attempts from runs r join trials t on t.run_id = r.id where t.seq = 4")" = 2 ] ||
	fail "the killed trial was not redone in its row"
[ "$(q "select count(*) from runs where position < 0")" = "$n" ] || fail "trial rows doubled"
[ "$(m ndr)" = 437.0 ] && [ "$(m pdr)" = "$(XR_DB=s.db m pdr)" ] || fail "resumed results differ"
echo "ok: ndr 437, pdr $(m pdr), $n trials; resumed after a kill at trial 4"

# The report reads the trials back (reports/model/model_search.c): the
# same ndr, every trial; where loss began: no loss at 437, some at the
# next load tried above it, 441 (1 - 437/441 = 0.907%), and at max load
# 1000, 56.3% (a command engine has no datagram counts: nothing is said of
# what was sent).
"$XRUN" report --db s.db -o s.json 2>rep.err && "$XRUN" report --db s.db -o s.md 2>>rep.err || { cat rep.err; fail "report exit $?"; }
g() { q :memory: "select json_extract(g.value, '\$.$2') from json_each(json_extract(readfile('s.json'), '\$.cells[0].search.goals')) g where json_extract(g.value, '\$.name') = '$1'"; }
[ "$(g ndr load)" = 437.0 ] && [ "$(g ndr throughput)" = 437.0 ] && [ "$(g ndr upper)" = 441.0 ] ||
	fail "JSON ndr $(g ndr load) / $(g ndr throughput) / $(g ndr upper)"
[ "$(g pdr load)" = "$(XR_DB=s.db m pdr)" ] || fail "JSON pdr $(g pdr load) is not the search's $(XR_DB=s.db m pdr)"
[ "$(q :memory: "select json_array_length(json_extract(readfile('s.json'), '\$.cells[0].search.trials'))")" = "$n" ] ||
	fail "JSON trials are not the store's $n"
[ "$(q :memory: "select json_extract(readfile('s.json'), '\$.cells[0].search.drops.from') || ' ' || json_extract(readfile('s.json'), '\$.cells[0].search.drops.to')")" = "437.0 441.0" ] ||
	fail "drops: $(q :memory: "select json_extract(readfile('s.json'), '\$.cells[0].search.drops')")"
grep -q '^| - | ndr | 437 | – | 437 | 441 | 3 |  |$' s.md || { grep -A4 'Rate search' s.md; fail "markdown table row"; }
grep -q '^Loss began between 437 (the highest trial load without loss) and 441: at 441, 0.907% lost; at 1000, 56.3% lost\.$' s.md ||
	{ grep 'Loss began' s.md; fail "where loss began"; }
[ -s s-search-1.svg ] || fail "no chart"
# The cell's runs are its one search, not its trials.
[ "$(q :memory: "select json_extract(readfile('s.json'), '\$.cells[0].runs') || ' ' || json_extract(readfile('s.json'), '\$.cells[0].ok')")" = "1 1" ] ||
	fail "cells[0] runs/ok: $(q :memory: "select json_extract(readfile('s.json'), '\$.cells[0].runs')")"
# xrun merge carries the trials with their searches (store_merge.c).
"$XRUN" merge m.db s.db >/dev/null 2>merge.err || { cat merge.err; fail "merge exit $?"; }
[ "$(q m.db "select count(*) from trials t join runs r on r.id = t.run_id join runs s on s.id = t.search_id where r.position < 0 and s.position = 0")" = "$n" ] ||
	fail "merged store: $(q m.db "select count(*) from trials") trials of $n linked to their search"

# Repetitions of a search are repetitions of the cell: a factor on the
# shaper's capacity (437, 733), repeat 3, ABBA (Thue-Morse passes: 437
# 733, 733 437, 437 733 ... as every abba plan); the ndr of each search
# is the cell's metric, compared like any (here refused: the model has no
# noise, zero variance, which is the right answer for it).
cat >f.yaml <<YAML
xrun: 1
name: f
sample: off
counters: none
repeat: 3
factors:
  cap: { levels: ["437", "733"] }
engine:
  type: command
  run: [sh, "$GEN", "{{rate}}", "0", "{{cap}}"]
  metrics:
    lost: { regex: 'lost (\S+)', unit: '1' }
search:
  param: rate
  min: 100
  max: 1000
  width: 1%
  loss: lost
  goals:
    - { name: ndr, loss: 0%, trial: 0.1s, sum: 0.1s, exceed: 0% }
report:
  compare: [{ factor: cap, baseline: "437" }]
YAML
"$XRUN" run f.yaml --db f.db --unattended --quiet || fail "factor run exit $?"
[ "$(q f.db "select group_concat(json_extract(cell, '\$.cap') || '=' || (select value from metrics m where m.run_id = r.id and m.name = 'ndr'), ' ') from (select * from runs where position >= 0 order by position) r")" = \
	"437=437.0 733=733.0 733=733.0 437=437.0 733=733.0 437=437.0" ] ||
	fail "searches in order: $(q f.db "select group_concat(cell) from runs where position >= 0")"
"$XRUN" report --db f.db --metric ndr -o f.json 2>rep.err || { cat rep.err; fail "report exit $?"; }
[ "$(q :memory: "select json_extract(c.value, '\$.metric') || ' ' || json_extract(c.value, '\$.n_a') || '+' || json_extract(c.value, '\$.n_b') || ' ' || json_extract(c.value, '\$.reason_codes[0]') from json_each(json_extract(readfile('f.json'), '\$.comparisons')) c")" = "ndr 3+3 zero_variance" ] ||
	fail "ndr comparison: $(q :memory: "select json_extract(readfile('f.json'), '\$.comparisons')")"
