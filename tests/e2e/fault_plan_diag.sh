#!/bin/bash
# SPDX-License-Identifier: MIT
# Diagnostics on hostile plans: a NUL byte gets its line and column; a
# plan whose matrix is too big (5000 x 5000 levels, 48 KB of text) is
# refused at once with the position of repeat (or of the last factor),
# from a count of its cells, without expanding it.
set -eu
: "${XRUN:?set XRUN to the xrun binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T"
printf 'xrun: 1\nname: n\nengine:\n  type: command\n  run: [echo, "a\000b"]\n' >nul.yaml
set +e
"$XRUN" validate nul.yaml 2>nul.err
rc=$?
set -e
[ $rc = 2 ] || fail "NUL: exit $rc"
grep -qxF "nul.yaml:5:17: error: a NUL byte in the plan (a plan is text)" nul.err || fail "NUL: $(cat nul.err)"
echo "ok: a NUL byte has a position"

levels=$(seq -s, 0 4999)
for rep in "repeat: 1" ""; do
	cat >big.yaml <<YAML
xrun: 1
name: big
engine:
  type: command
  run: [echo, "{{a}} {{b}}"]
  metrics:
    throughput: { regex: "([0-9]+)", unit: bit/s }
factors:
  a: { levels: [$levels] }
  b: { levels: [$levels] }
$rep
sample: off
YAML
	for cmd in validate plan run; do
		set +e
		# --db: nothing may be created for a refused plan. "At once":
		# its CPU time (user + system), which the machine's load and
		# the tests beside it do not stretch as they do its wall time.
		if [ $cmd = run ]; then
			/usr/bin/time -f '%U %S' -o cpu "$XRUN" run big.yaml --db big.db >out 2>err
		else
			/usr/bin/time -f '%U %S' -o cpu "$XRUN" $cmd big.yaml >out 2>err
		fi
		rc=$?
		set -e
		ms=$(awk '{ printf "%d", ($1 + $2) * 1000 }' cpu)
		[ $rc = 2 ] || fail "$cmd ($rep): exit $rc: $(head -c 300 err)"
		if [ -n "$rep" ]; then at="big.yaml:11:9"; else at="big.yaml:10:3"; fi
		grep -q "^$at: error: the schedule has more than 20000000 runs: 25000000 cells x repeat 1" err ||
			fail "$cmd ($rep): $(head -c 300 err)"
		[ $ms -lt 3000 ] || fail "$cmd ($rep): took $ms ms of CPU"
	done
done
[ ! -e big.db ] || fail "a store was created for a refused plan"
echo "ok: a too-big matrix is refused fast, with a position"
