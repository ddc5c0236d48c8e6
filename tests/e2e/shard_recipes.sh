#!/bin/bash
# SPDX-License-Identifier: MIT
# The scheduler recipes of docs/shards.md, run as written: the `xrun run`
# line of each recipe's sh block under that scheduler's variables for all
# of its indexes (Slurm arrays from 0, from 1 and with a step; Kubernetes
# Indexed Jobs from 0 with N passed by hand; GitLab's 1-based
# CI_NODE_INDEX; a GitHub matrix), then `xrun merge` of the stores: every
# recipe must give shards 1..3 exactly once (a complete merge, each (cell,
# rep) once). GitLab without its variables gives `--shard /`: refused.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need sqlite3 python3
xr_tmpdir T
doc=$XRUN_SOURCE_DIR/docs/shards.md

# repeat 6, abba, one block: pass pairs 1-2, 3-4, 5-6: three equal units,
# one a shard.
cat >plan.yaml <<'EOF'
xrun: 1
name: recipes
engine:
  type: command
  run: [sh, -c, 'echo "{\"v\": 5}"']
  metrics:
    throughput: { json: /v, unit: MB/s }
sample: off
factors:
  a: [x, y]
repeat: 6
EOF

# The `xrun run` line of the recipe under heading $1.
recipe() {
	python3 - "$doc" "$1" <<'PY'
import sys
text = open(sys.argv[1], encoding="utf-8").read()
sec = text.split("\n### " + sys.argv[2] + "\n", 1)[1].split("\n### ", 1)[0]
block = sec.split("```sh\n", 1)[1].split("```", 1)[0]
lines = [l for l in block.splitlines() if l.startswith("xrun run ")]
assert len(lines) == 1, lines
# the docs name the headline plan; the recipes run this test's
print(lines[0].replace("plans/pcie-gen.yaml", "plan.yaml", 1))
PY
}

# xrun as the recipes call it: this build, waiting for the machine's
# testbed lock (other tests may hold it), quiet.
xrun() { "$XRUN" "$@" --lock-wait 120 -q 2>>runs.err; }

# run_all NAME: the recipe's line once per index (set by the caller's
# env lines, one a shard), then the merge must be whole.
check() { # name dir
	local n
	n=$(ls "$2"/shard-*.db 2>/dev/null | wc -l)
	[ "$n" = 3 ] || fail "$1: $n stores, want 3"
	"$XRUN" merge "$2/all.db" "$2"/shard-*.db >"$2/merge.out" 2>&1 ||
		fail "$1: merge exit $?: $(cat "$2/merge.out")"
	[ "$(q "$2/all.db" "select group_concat(k) from (select k from shards order by k)")" = "1,2,3" ] ||
		fail "$1: shards $(q "$2/all.db" "select group_concat(k) from shards")"
	[ "$(q "$2/all.db" "select count(*) from runs")" = 12 ] ||
		fail "$1: $(q "$2/all.db" "select count(*) from runs") runs, want 12"
	[ -z "$(q "$2/all.db" "select cell_index, rep from runs group by 1, 2 having count(*) <> 1")" ] ||
		fail "$1: a (cell, rep) not exactly once"
}

line=$(recipe "Slurm job arrays")
for arr in "0 1 2|0|" "1 2 3|1|" "0 5 10|0|5"; do
	ids=${arr%%|*} rest=${arr#*|}
	d=slurm-${ids// /-}
	mkdir "$d"
	for id in $ids; do
		(cd "$d" && cp ../plan.yaml . &&
			SLURM_ARRAY_TASK_ID=$id SLURM_ARRAY_TASK_MIN=${rest%%|*} \
			SLURM_ARRAY_TASK_COUNT=3 SLURM_ARRAY_TASK_STEP=${rest#*|} \
			eval "$line") || fail "slurm $ids: task $id exit $?"
	done
	check "slurm array $ids" "$d"
done

line=$(recipe "Kubernetes Indexed Jobs")
# the recipe writes to the pod's /results volume: here a folder
line=${line//\/results\//results\/}
mkdir k8s k8s/results
for i in 0 1 2; do
	(cd k8s && cp ../plan.yaml . && JOB_COMPLETION_INDEX=$i SHARDS=3 \
		eval "$line") || fail "k8s index $i exit $?"
done
mv k8s/results/shard-*.db k8s/
check "kubernetes" k8s

line=$(recipe "GitLab CI \`parallel:\`")
mkdir gitlab
for i in 1 2 3; do
	(cd gitlab && cp ../plan.yaml . && CI_NODE_INDEX=$i CI_NODE_TOTAL=3 \
		eval "$line") || fail "gitlab node $i exit $?"
done
check "gitlab" gitlab
# a runner that drops the variables: --shard / refused, nothing run
mkdir gitlab-bare
set +e
(cd gitlab-bare && cp ../plan.yaml . && set +u &&
	unset CI_NODE_INDEX CI_NODE_TOTAL &&
	eval "$line")
rc=$?
set -e
[ $rc = 2 ] || fail "gitlab without its variables: exit $rc, want 2"
ls gitlab-bare/*.db >/dev/null 2>&1 && fail "gitlab without its variables made a store"

line=$(recipe "GitHub Actions matrices")
mkdir github
for s in 1 2 3; do
	(cd github && cp ../plan.yaml . && SHARD=$s eval "$line") ||
		fail "github shard $s exit $?"
done
check "github" github
echo ok
