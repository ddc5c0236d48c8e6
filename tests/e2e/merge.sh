#!/bin/bash
# SPDX-License-Identifier: MIT
# xrun merge (issue 10): two stores of one plan merged into a third, then
# one of them again: the run count is unchanged and nothing is duplicated;
# each session keeps its own host facts, hooks and load rows; a store of
# another plan is refused (exit 2, the output untouched) unless --force; a
# store older than version 4 (no session keys) merges once, however often
# it is given; report and status read the merged store, and the report
# lists both sessions with their plan hash and hosts. The command engine
# prints known values (tests/e2e/lib/fault_engine.sh), so no network.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need sqlite3 jq
FAULT="$XRUN_SOURCE_DIR/tests/e2e/lib/fault_engine.sh"
xr_tmpdir T
plan() { # file levels...
	local f=$1
	shift
	{
		echo "xrun: 1"
		echo "name: halves"
		echo "engine:"
		echo "  type: command"
		echo "  run: [sh, \"$FAULT\", values]"
		echo "  metrics:"
		echo "    throughput: { regex: '\"rate_MBps\": ([0-9.]+)', unit: MB/s }"
		echo "factors:"
		echo "  x: { levels: [$*] }"
		echo "repeat: 3"
		echo "counters: none"
	} >"$f"
}
plan p.yaml a, b
plan other.yaml a, b, c
"$XRUN" run p.yaml --db a.db --quiet 2>/dev/null || fail "run a"
"$XRUN" run p.yaml --db b.db --quiet 2>/dev/null || fail "run b"
"$XRUN" run other.yaml --db o.db --quiet 2>/dev/null || fail "run other"
# The second machine: its own hostname in its facts.
sqlite3 b.db "update host_facts set value = 'machine-b' where key = 'hostname'"

"$XRUN" merge m.db a.db b.db >m1.out || fail "merge exit $?"
grep -q "merged 2 session(s) (12 runs) into m.db; 0 already there" m1.out || fail "merge said: $(cat m1.out)"
[ "$(q m.db "select count(*) from runs")" = 12 ] || fail "runs after merge"
[ "$(q m.db "select count(*) from sessions")" = 2 ] || fail "sessions after merge"
[ "$(q m.db "select count(*) from plans")" = 1 ] || fail "one plan file, stored once"
for t in metrics observed host_facts hooks run_load; do
	want=$(($(q a.db "select count(*) from $t") + $(q b.db "select count(*) from $t")))
	[ "$(q m.db "select count(*) from $t")" = "$want" ] || fail "$t: $(q m.db "select count(*) from $t"), want $want"
done
[ "$(q m.db "select count(distinct value) from host_facts where key = 'hostname'")" = 2 ] ||
	fail "host facts per session: $(q m.db "select session_id, host, value from host_facts where key='hostname'")"
[ "$(q m.db "select count(*) from metrics m join runs r on r.id = m.run_id where r.status = 'ok'")" = \
	"$(($(q a.db "select count(*) from metrics") * 2))" ] || fail "metrics not attached to the copied runs"

# The same input again, and both again: nothing added.
"$XRUN" merge m.db a.db >m2.out || fail "second merge exit $?"
grep -q "merged 0 session(s) (0 runs) into m.db; 1 already there" m2.out || fail "second merge said: $(cat m2.out)"
"$XRUN" merge -q m.db b.db a.db >m3.out || fail "third merge exit $?"
[ ! -s m3.out ] || fail "--quiet printed: $(cat m3.out)"
[ "$(q m.db "select count(*) from runs")" = 12 ] || fail "runs after merging again: $(q m.db "select count(*) from runs")"
[ "$(q m.db "select count(*) from host_facts")" = "$(($(q a.db "select count(*) from host_facts") * 2))" ] ||
	fail "facts duplicated"

# Another plan: refused, the output untouched; --force merges it.
set +e
"$XRUN" merge m.db o.db 2>o.err
rc=$?
set -e
[ $rc = 2 ] || fail "another plan: exit $rc, want 2: $(cat o.err)"
grep -q "use --force" o.err || fail "another plan: $(cat o.err)"
[ "$(q m.db "select count(*) from runs")" = 12 ] || fail "a refused merge changed the output"
cp m.db forced.db
"$XRUN" merge --force forced.db o.db >/dev/null || fail "--force exit $?"
[ "$(q forced.db "select count(*) from runs")" = 21 ] || fail "--force runs: $(q forced.db "select count(*) from runs")"
[ "$(q forced.db "select count(*) from plans")" = 2 ] || fail "--force plans"

# Into itself, or a file that is no store: refused.
set +e
"$XRUN" merge m.db m.db 2>self.err
rc=$?
echo "not a store" >junk.db
"$XRUN" merge m.db junk.db 2>junk.err
rc2=$?
set -e
[ $rc = 2 ] && grep -q "output store itself" self.err || fail "self merge: exit $rc: $(cat self.err)"
[ $rc2 = 3 ] || fail "junk input: exit $rc2: $(cat junk.err)"

# A store from before version 4 (no session keys): merged once.
cp a.db v2.db
sqlite3 v2.db "drop table session_keys; drop table run_load; pragma user_version = 3"
"$XRUN" merge v2m.db v2.db >/dev/null || fail "v2 merge"
"$XRUN" merge v2m.db v2.db >v2.out || fail "v2 merge again"
grep -q "merged 0 session(s)" v2.out || fail "v2 merged twice: $(cat v2.out)"
[ "$(q v2m.db "select count(*) from runs")" = 6 ] || fail "v2 runs: $(q v2m.db "select count(*) from runs")"
[ "$(q v2.db "pragma user_version")" = 3 ] || fail "the input was changed"

# report and status read the merged store; the report lists both sessions.
"$XRUN" report --db m.db -o m.json || fail "report json"
[ "$(jq '.session_info | length' m.json)" = 2 ] || fail "session_info: $(jq -c .session_info m.json)"
[ "$(jq -r '[.session_info[].plan_hash] | unique | length' m.json)" = 1 ] || fail "plan hashes"
jq -e '[.session_info[].hosts] | any(test("machine-b"))' m.json >/dev/null || fail "hosts: $(jq -c .session_info m.json)"
[ "$(jq '.runs.ok' m.json)" = 12 ] || fail "report runs: $(jq -c .runs m.json)"
"$XRUN" report --db m.db -o m.md || fail "report md"
hash=$(q m.db "select substr(hash, 1, 12) from plans")
[ "$(grep -c "| $hash |" m.md)" = 2 ] || fail "sessions table: $(grep -A5 '## Sessions' m.md)"
grep -q "machine-b" m.md || fail "machine-b not in the report"
"$XRUN" status --db m.db >st.out || fail "status exit $?"
grep -q "6 ok" st.out || fail "status: $(cat st.out)"
echo "ok: merge"
