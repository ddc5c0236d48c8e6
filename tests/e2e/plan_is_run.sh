#!/bin/bash
# SPDX-License-Identifier: MIT
# The dry run is the run: `xrun plan` resolves hosts as the runner does.
# 1. (root) Two lab namespaces; a plan whose server is a netns host without
#    `address:` and whose hook runs on the server with {{iface}} (only the
#    server has iface:). `xrun plan --json` gives each run's argv: it must
#    equal the argv the run stores (runs.argv), including -c 198.18.0.2;
#    the human dry run's hook line must be the hook argv the run stores.
# 2. An ssh host known by an alias (HostName in an ssh config): the dry run
#    connects to the HostName `ssh -G` gives, as the run does, not the alias.
# 3. A plan on this machine only (command engine, {{client}} in its argv, a
#    hook with the var iface): dry run and run agree on both.
set -eu
: "${XRUN:?set XRUN to the xrun binary}"
dir=$(mktemp -d)
pre="pr$(($$ % 100000))"
cleanup() {
	[ "$(id -u)" = 0 ] && "$XRUN" lab down --prefix "$pre" >/dev/null 2>&1 || true
	rm -rf "$dir"
}
trap cleanup EXIT
cd "$dir"
nfail=0
fail() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
pass() { echo "ok - $*"; }

# ---- 2. ssh alias (no connection) ----------------------------------------------
cat >ssh_config <<'CFG'
Host lab-alias
  HostName 127.0.0.1
  User nobody
CFG
cat >alias.yaml <<YAML
xrun: 1
name: alias
hosts:
  srv: { ssh: lab-alias, ssh_options: [-F, $dir/ssh_config] }
engine:
  type: iperf3
  server: { host: srv, start: false }
  duration: 1s
factors:
  n: { levels: [1], param: parallel }
sample: off
YAML
"$XRUN" plan --json alias.yaml >alias.json
argv=$(jq -c '.runs[0].argv' alias.json)
echo "$argv" | grep -q '"-c","127.0.0.1"' && pass "ssh alias: the dry run connects to ssh -G's HostName" ||
	fail "ssh alias: dry run argv $argv"

# ---- 3. only this machine --------------------------------------
cat >local.yaml <<'YAML'
xrun: 1
name: local-iface
vars: { iface: lo }
engine:
  type: command
  run: [echo, "1000 {{client}}"]
  metrics:
    throughput: { regex: "^([0-9]+)", unit: bit/s }
factors:
  tag:
    levels: [a, b]
    apply: [echo, "{{iface}}", "{{tag}}"]
sample: off
YAML
"$XRUN" plan local.yaml >local.txt
grep -q 'apply tag: echo lo a  (on local)' local.txt && pass "local plan: hook {{iface}} is lo in the dry run" ||
	fail "local plan dry run: $(grep apply local.txt | head -2)"
"$XRUN" run local.yaml --db local.db --quiet --yes --unattended >/dev/null 2>&1 || fail "local run"
got=$(sqlite3 local.db "select argv from hooks where kind='apply' order by id limit 1")
[ "$got" = '["echo","lo","a"]' ] && pass "local plan: the run's hook got lo too" ||
	fail "local run hook argv $got"
"$XRUN" plan --json local.yaml | jq -c '[.runs[].argv]' >dry.argv
sqlite3 local.db "select argv from runs order by position" | jq -sc . >run.argv
cmp -s dry.argv run.argv && pass "local plan: plan --json argv = stored argv" ||
	fail "local argv differ: $(cat dry.argv) vs $(cat run.argv)"

# ---- 1. netns server without address -------------------------------------------
if [ "$(id -u)" != 0 ] || ! command -v iperf3 >/dev/null; then
	echo "SKIP (part 1): needs root and iperf3"
	[ "$nfail" = 0 ]
	exit
fi
"$XRUN" lab up --prefix "$pre" >lab.out 2>&1 || { cat lab.out; fail "lab up"; exit 1; }
cat >ns.yaml <<YAML
xrun: 1
name: ns-dry
hosts:
  client: { netns: $pre-client }
  server: { netns: $pre-server, iface: $pre-veth }
engine:
  type: iperf3
  client: client
  server: { host: server, start: true }
  duration: 1s
factors:
  streams: { levels: [1, 2], param: parallel }
  note:
    levels: [x]
    apply: [ip, link, show, dev, "{{iface}}"]
    on: [server]
repeat: 1
sample: off
YAML
"$XRUN" plan --json ns.yaml >ns.json
jq -c '[.runs[].argv]' ns.json >dry.argv
grep -q '"-c","198.18.0.2"' dry.argv && pass "netns server without address: the dry run says -c 198.18.0.2" ||
	fail "netns dry run argv: $(cat dry.argv)"
"$XRUN" plan ns.yaml >ns.txt
hook=$(grep 'apply note:' ns.txt | head -1 | sed 's/^ *apply note: //; s/  (on .*//')
[ "$hook" = "ip link show dev $pre-veth" ] && pass "dry run hook: $hook (on server)" ||
	fail "dry run hook line: $(grep 'apply note' ns.txt)"
rc=0
"$XRUN" run ns.yaml --db ns.db --quiet --yes --unattended >run.out 2>&1 || rc=$?
[ $rc = 0 ] || fail "netns run: exit $rc $(tail -5 run.out)"
sqlite3 ns.db "select argv from runs order by position" | jq -sc . >run.argv
cmp -s dry.argv run.argv && pass "netns: plan --json argv = the argv every run stored" ||
	fail "netns argv differ: dry $(cat dry.argv) run $(cat run.argv)"
got=$(sqlite3 ns.db "select argv from hooks where kind='apply' order by id limit 1" | jq -r 'join(" ")')
[ "$got" = "$hook" ] && pass "netns: the stored hook argv is the dry run's" ||
	fail "netns hook: run '$got' dry '$hook'"
[ "$nfail" = 0 ]
