#!/bin/bash
# SPDX-License-Identifier: MIT
# Bash completion: the script `xrun help --bash-completion` writes (the
# build's xrun.bash-completion, installed as
# share/bash-completion/completions/xrun) is sourced in bash and _xrun is
# called with COMP_WORDS/COMP_CWORD set as bash sets them: commands,
# subcommands, every option of every table, option values from the tables,
# plan files, and --only FACTOR=LEVEL from the plan named on the line (also
# when bash has split FACTOR=LEVEL at '=').
set -eu
: "${XRUN:?set XRUN to the xrun binary}"
dir=$(mktemp -d)
bin=$(mktemp -d)
trap 'rm -rf "$dir" "$bin"' EXIT
cd "$dir"
nfail=0
fail() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
pass() { echo "ok - $*"; }

"$XRUN" help --bash-completion >xrun.bash || fail "help --bash-completion: exit $?"
bash -n xrun.bash || fail "the script does not parse"
if [ -n "${XRUN_BUILD_DIR:-}" ] && [ -f "$XRUN_BUILD_DIR/xrun.bash-completion" ]; then
	cmp -s xrun.bash "$XRUN_BUILD_DIR/xrun.bash-completion" &&
		pass "the build's completion script is current" ||
		fail "build/xrun.bash-completion differs from help --bash-completion"
fi
mkdir sub
ln -s "$XRUN" "$bin/xrun"
cat >speed.yaml <<'YAML'
xrun: 1
name: speed
engine:
  type: command
  run: [echo, "{{n}}"]
  metrics:
    throughput: { regex: "([0-9]+)", unit: bit/s }
factors:
  n: { levels: [1, 2] }
  mode: { levels: [fast, safe] }
sample: off
YAML
touch other.yml notes.txt old.db

# comp WORD... : the replies, sorted, on one line
cat >run.sh <<'SH'
source ./xrun.bash
comp() {
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMP_LINE="$*"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_xrun
	printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//'
}
SH
check() { # EXPECTED WORD...
	local want=$1 got
	shift
	got=$(PATH="$bin:$PATH" bash -c 'source ./run.sh; comp "$@"' comp "$@")
	[ "$got" = "$want" ] && pass "[$*] -> $got" || fail "[$*]: got '$got', want '$want'"
}
check "lab" xrun l
check "report run" xrun r
check "--db --help --lock-wait --new-session --no-retry --only --quiet --shard --testbed --unattended --yes" xrun run --
check "mode=fast mode=safe n=1 n=2" xrun run speed.yaml --only ""
check "mode=safe" xrun run speed.yaml --only mode=s
check "safe" xrun run speed.yaml --only mode = s
# Right after the '=' readline replaces the empty text after it: the
# levels alone, or the line would read mode==fast (issue 23).
check "fast safe" xrun run speed.yaml --only mode =
check "mode=fast mode=safe n=1 n=2" xrun run speed.yaml --only =
check "n=1 n=2" xrun speed.yaml -q --only n
check "--only=mode=fast --only=mode=safe" xrun run speed.yaml --only=mode
check "csv html json junit md pdf" xrun report --format ""
check "worse" xrun report -o r.xml --fail-on wo
check "ja" xrun report speed.yaml -o x.pdf --lang j
check "old.db sub/" xrun report --db ""
check "down status up" xrun lab ""
check "--prefix --profile" xrun lab up --p
check "pcie3x1" xrun lab up --profile pc
check "other.yml speed.yaml sub/" xrun plan ""
check "" xrun plan speed.yaml ""
check "report" xrun help rep

# Every option of every command table is offered after "--".
"$XRUN" help --all >all.txt
cmds=$(awk '/^commands:/ {on = 1; next} /^$/ {on = 0} on && /^  [a-z]/ {print $1}' all.txt)
n=0
for c in $cmds "lab up" "lab down" "lab status"; do
	want=$("$XRUN" help $c | grep -oE '^  (-[a-z], )?--[a-z][a-z-]*' | sed 's/.*--/--/' | sort | tr '\n' ' ' | sed 's/ $//')
	# shellcheck disable=SC2086
	got=$(PATH="$bin:$PATH" bash -c 'source ./run.sh; comp "$@"' comp xrun $c --)
	[ "$got" = "$want" ] || fail "xrun $c --: got '$got', want '$want'"
	n=$((n + 1))
done
got=$(PATH="$bin:$PATH" bash -c 'source ./run.sh; comp "$@"' comp xrun "")
for c in $cmds; do
	echo " $got " | grep -q " $c " || fail "command $c is not offered"
done
[ "$nfail" = 0 ] && pass "the options of $n commands and subcommands match their tables"
[ "$nfail" = 0 ]
