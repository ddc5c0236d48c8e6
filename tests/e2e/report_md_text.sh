#!/bin/bash
# SPDX-License-Identifier: MIT
# What the Markdown report reads as (issue 21), on stores with known values
# (tests/e2e/lib/known_values.sh):
#  - a comparison refused for too few runs says "need >= 3 runs per side",
#    not "need &gt;= 3" (a '>' without a '<' is plain text);
#  - the outlier note reads "**outlier**: a run's modified z ...", not
#    "**outlier**: outlier: a run's modified z ...";
#  - host facts that did not change between two sessions are listed once,
#    with both sessions ("1, 2"), not once per session; a fact whose value
#    changed keeps a row per value.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need sqlite3
xr_tmpdir dir
cp "$XR_LIB/known_values.sh" gen.sh
plan() { # NAME SCENARIO REPEAT
	cat >"$1.yaml" <<YAML
xrun: 1
name: $1
engine:
  type: command
  run: [bash, ./gen.sh, $2, "{{index}}", "{{rep}}", "{{x}}"]
  metrics:
    throughput: { regex: "result: ([0-9]+)", unit: bit/s }
factors:
  x: { levels: [a, b] }
repeat: $3
order: abba
sample: off
YAML
	local n=$1
	shift 3
	"$XRUN" run "$n.yaml" --db "$n.db" --quiet --unattended --yes "$@" >"$n.out" 2>&1 ||
		fail "xrun run $n: $(cat "$n.out")"
}
nfail=0
bad() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
report() { "$XRUN" report --db "$1.db" -o "$1.md" 2>"$1.err" || fail "report $1: $(cat "$1.err")"; }

plan few drop 2
report few
grep -qF 'need >= 3 runs per side' few.md || bad "too few runs: no 'need >= 3' in few.md"
grep -qF '&gt;' few.md && bad "few.md shows an entity: $(grep -F '&gt;' few.md | head -2)"

plan outl outlier 4
report outl
grep -q '^[0-9]*\. \*\*outlier\*\*: a run.s modified z' outl.md || bad "outlier note: $(grep -F '**outlier**' outl.md)"
grep -q 'outlier: outlier' outl.md && bad "outlier doubled: $(grep 'outlier: outlier' outl.md)"

plan two drop 4
plan two drop 4 --new-session
# A fact that changed between the sessions keeps a row per value.
sqlite3 two.db "update host_facts set value = 'kernel-two' where key = 'kernel' and session_id = 2"
report two
facts=$(sed -n '/^## Host facts/,/^## /p' two.md)
[ "$(echo "$facts" | grep -c '| hostname |')" = 1 ] || bad "hostname listed $(echo "$facts" | grep -c '| hostname |') times"
echo "$facts" | grep -q '| hostname | [^|]* | 1, 2 |' || bad "hostname without both sessions: $(echo "$facts" | grep hostname)"
[ "$(echo "$facts" | grep -c '| kernel |')" = 2 ] || bad "a changed kernel: $(echo "$facts" | grep kernel)"
echo "$facts" | grep -q '| kernel | kernel-two | 2 |' || bad "the changed kernel's session 2 row"

[ "$nfail" = 0 ] && echo "ok - markdown: '>=' plain, outlier note not doubled, unchanged host facts once (1, 2), a changed one per value"
[ "$nfail" = 0 ]
