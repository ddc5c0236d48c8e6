#!/bin/bash
# SPDX-License-Identifier: MIT
# The command line: every command that `xrun --help` lists (and every
# subcommand its --help lists) answers --help with exit 0, and `xrun help
# COMMAND` prints the same; usage errors exit 2 with a did-you-mean; `status`
# and `report` take --db=FILE; README.md's command table, docs/run.md's option
# table and docs/cli.md (the output of `xrun help --all`) match the option
# tables in the code.
set -eu
: "${XRUN:?set XRUN to the xrun binary}"
src=${XRUN_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
nfail=0
fail() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
pass() { echo "ok - $*"; }

# ---- --help of every command ------------------------------------------------
"$XRUN" --help >top.out || fail "xrun --help exit $?"
cmds=$(awk '/^commands:/ {on = 1; next} /^$/ {on = 0} on && /^  [a-z]/ {print $1}' top.out)
[ "$(echo "$cmds" | wc -w)" -ge 7 ] || fail "xrun --help lists too few commands: $cmds"
for c in run plan validate status report lab version help; do
	echo "$cmds" | grep -qx "$c" || fail "xrun --help does not list '$c'"
done
check_help() { # words of a command ("lab up")
	local rc=0
	"$XRUN" $1 --help >h.out 2>h.err || rc=$?
	[ $rc = 0 ] || { fail "xrun $1 --help: exit $rc"; return; }
	[ ! -s h.err ] || fail "xrun $1 --help wrote to stderr: $(cat h.err)"
	head -1 h.out | grep -q "^usage: xrun $1\b" ||
		fail "xrun $1 --help: first line $(head -1 h.out)"
	grep -q '^  -h, --help' h.out || fail "xrun $1 --help does not list --help"
	"$XRUN" help $1 >help.out || fail "xrun help $1: exit $?"
	cmp -s h.out help.out || fail "xrun help $1 differs from xrun $1 --help"
	"$XRUN" $1 -h >dash_h.out || fail "xrun $1 -h: exit $?"
	cmp -s h.out dash_h.out || fail "xrun $1 -h differs from --help"
}
n=0
for c in $cmds; do
	check_help "$c"
	n=$((n + 1))
	subs=$(awk '/^subcommands:/ {on = 1; next} /^$/ {on = 0} on && /^  [a-z]/ {print $1}' h.out)
	for s in $subs; do
		check_help "$c $s"
		n=$((n + 1))
	done
done
[ "$nfail" = 0 ] && pass "$n commands and subcommands answer --help and help"

# ---- usage errors -------------------------------------------------------------
rc=0; "$XRUN" report --tittle x -o r.md 2>e.err || rc=$?
[ $rc = 2 ] && grep -q "unknown option '--tittle'; did you mean '--title'?" e.err &&
	grep -q '^usage: xrun report' e.err && pass "unknown option: exit 2, did you mean, usage" ||
	fail "unknown option: rc $rc $(cat e.err)"
rc=0; "$XRUN" status --db 2>e.err || rc=$?
[ $rc = 2 ] && grep -q "option '--db' needs a value (--db FILE)" e.err &&
	pass "missing value: exit 2" || fail "missing value: rc $rc $(cat e.err)"
rc=0; "$XRUN" plan --json=1 x.yaml 2>e.err || rc=$?
[ $rc = 2 ] && grep -q "option '--json' takes no value" e.err &&
	pass "a flag with a value: exit 2" || fail "flag with value: rc $rc $(cat e.err)"
rc=0; "$XRUN" help reprot 2>e.err || rc=$?
[ $rc = 2 ] && grep -q "did you mean 'report'" e.err &&
	pass "help of an unknown command: exit 2, did you mean" || fail "help reprot: rc $rc $(cat e.err)"
rc=0; "$XRUN" lab dowm 2>e.err || rc=$?
[ $rc = 2 ] && grep -q "did you mean 'down'" e.err &&
	pass "unknown lab subcommand: exit 2, did you mean" || fail "lab dowm: rc $rc $(cat e.err)"
"$XRUN" --version | grep -q '^xrun [0-9]' && "$XRUN" version | grep -q '^xrun [0-9]' &&
	pass "version and --version" || fail "version"

# ---- status --db=FILE, report --db=FILE -o OUT -----------------------------------
cat >plan.yaml <<'YAML'
xrun: 1
name: cli-help
engine:
  type: command
  run: [echo, "result: {{n}}000 bit/s"]
  metrics:
    throughput: { regex: "result: ([0-9]+)", unit: bit/s }
factors:
  n: { levels: [1, 2] }
repeat: 2
order: sequential
sample: off
YAML
"$XRUN" run plan.yaml --db=s.db --quiet --unattended 2>run.err || fail "run --db=FILE: $(cat run.err)"
"$XRUN" status --db=s.db >st.out || fail "status --db=FILE: exit $?"
grep -q "^plan 'cli-help', session 1: done" st.out && grep -q '^db s.db$' st.out &&
	grep -q "^runs: 4: 4 ok" st.out && pass "status --db=FILE reads that store" ||
	fail "status --db=FILE: $(cat st.out)"
"$XRUN" report --db=s.db -o out.json || fail "report --db=FILE -o OUT: exit $?"
[ "$(jq '[.cells[] | .n] | add' out.json 2>/dev/null)" = 4 ] &&
	pass "report --db=FILE -o OUT writes the report of that store" ||
	fail "report --db=FILE: $(head -c 300 out.json)"
"$XRUN" report --db=s.db --output=out.md --format=md || fail "report --output=OUT: exit $?"
grep -q '|' out.md && pass "report --output=OUT --format=md" || fail "report --output=: $(cat out.md)"

# ---- the docs match the tables ---------------------------------------------------
"$XRUN" help --all >all.out || fail "xrun help --all: exit $?"
awk '/^```text$/ {on = 1; next} /^```$/ {on = 0} on' "$src/docs/cli.md" >cli.md.out
diff -u cli.md.out all.out >cli.diff && pass "docs/cli.md is the output of xrun help --all" ||
	fail "docs/cli.md is not current (regenerate its text block with 'xrun help --all'):
$(head -40 cli.diff)"
python3 - "$src" "$XRUN" <<'PY' || nfail=$((nfail + 1))
import re, subprocess, sys
src, xrun = sys.argv[1], sys.argv[2]
bad = 0

def options(words):
    """{--long: -s or None} of what `xrun WORDS --help` lists."""
    out = subprocess.run([xrun] + words + ["--help"], capture_output=True,
                         text=True).stdout
    opts, on = {}, False
    for line in out.splitlines():
        if line == "options:":
            on = True
            continue
        if on and not line.startswith("  "):
            on = False
        m = re.match(r"  (?:-(\w), )?--([a-z][a-z-]*)", line) if on else None
        if m and m.group(2) != "help":
            opts["--" + m.group(2)] = "-" + m.group(1) if m.group(1) else None
    return opts

def check(what, doc, code):
    """doc: options a text names (a short form stands for its long one)."""
    global bad
    missing = [o for o, s in code.items() if o not in doc and s not in doc]
    extra = [o for o in doc if o not in code and o not in code.values()]
    if missing or extra:
        print(f"FAIL: {what}: missing {sorted(missing)}, unknown {sorted(extra)}")
        bad = 1
    else:
        print(f"ok - {what} lists the options of the table")

readme = open(f"{src}/README.md", encoding="utf-8").read()
rows = [l for l in readme.splitlines() if l.startswith("| `xrun ")]
for cmd, words in [("validate", ["validate"]), ("plan", ["plan"]),
                   ("run", ["run"]), ("status", ["status"]),
                   ("report", ["report"]), ("lab", ["lab up"]),
                   ("help", ["help"])]:
    row = [r for r in rows if re.search(rf"`xrun {cmd}[ `]", r)]
    if len(row) != 1:
        print(f"FAIL: README.md: {len(row)} rows for xrun {cmd}")
        bad = 1
        continue
    cell = row[0].split(" | ")[0] + " " + row[0].split(" | ")[1]
    doc = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*|-[a-z])\b", cell))
    doc.discard("--help")
    code = {}
    for w in words:
        code.update(options(w.split()))
    if cmd == "lab":
        code.update(options(["lab", "down"]))
        code.update(options(["lab", "status"]))
    check(f"README.md row of xrun {cmd}", doc, code)

run_md = open(f"{src}/docs/run.md", encoding="utf-8").read()
doc = set(re.findall(r"^\| `(--[a-z][a-z-]*)", run_md, re.M))
check("docs/run.md's option table", doc, options(["run"]))
sys.exit(bad)
PY

[ "$nfail" = 0 ] || { echo "$nfail failed"; exit 1; }
echo "cli_help: ok"
