#!/bin/bash
# SPDX-License-Identifier: MIT
# A factor whose levels each set several engine parameters (params:), run
# with real iperf3 over loopback, the server started by xrun: the argv
# stored for each run carries exactly the flags of its level, the params
# column the effective parameters, and every run is ok. `xrun plan` shows
# the factor as [params].
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need iperf3 sqlite3 jq
xr_tmpdir T
port=$(xr_free_port)
cat >pp.yaml <<YAML
xrun: 1
name: pp
engine:
  type: iperf3
  client: local
  server: { host: local, start: true }
  duration: 1s
  port: $port
factors:
  test:
    levels: [up-1, down-2]
    params:
      up-1: { parallel: 1 }
      down-2: { parallel: 2, reverse: true }
repeat: 1
order: sequential
sample: off
YAML
XR_DB=pp.db

"$XRUN" validate pp.yaml >/dev/null || fail "plan does not validate"
"$XRUN" plan pp.yaml >plan.out || fail "xrun plan exit $?"
grep -Eq '^  test +up-1, down-2  \[params\]$' plan.out ||
	fail "xrun plan does not show [params]: $(cat plan.out)"

"$XRUN" run pp.yaml --quiet 2>run.err || { cat run.err >&2; fail "run exit $?"; }

[ "$(q "select count(*) from runs")" = 2 ] || fail "2 runs expected"
[ "$(q "select count(*) from runs where status='ok'")" = 2 ] ||
	fail "runs not ok: $(q "select position,status,reason from runs")"
[ "$(q "select count(*) from results where metric='throughput' and status='ok' and value > 1e6")" = 2 ] ||
	fail "throughput missing: $(q "select * from results where metric='throughput'")"

base='"iperf3","-c","127.0.0.1"'
tail_="\"-p\",\"$port\",\"--connect-timeout\",\"3000\",\"-t\",\"1\",\"-O\",\"0\",\"--get-server-output\",\"-J\""
argv_of() { q "select argv from runs where json_extract(cell,'\$.test')='$1'"; }
norm() { jq -c . ; }
want1=$(echo "[$base,\"-P\",\"1\",$tail_]" | norm)
want2=$(echo "[$base,\"-P\",\"2\",\"-R\",$tail_]" | norm)
got1=$(argv_of up-1 | norm)
got2=$(argv_of down-2 | norm)
[ "$got1" = "$want1" ] || fail "up-1 argv $got1, want $want1"
[ "$got2" = "$want2" ] || fail "down-2 argv $got2, want $want2"

p1=$(q "select params from runs where json_extract(cell,'\$.test')='up-1'" | jq -c 'del(.port)')
p2=$(q "select params from runs where json_extract(cell,'\$.test')='down-2'" | jq -c 'del(.port)')
[ "$p1" = '{"parallel":"1"}' ] || fail "up-1 params $p1"
[ "$p2" = '{"parallel":"2","reverse":"true"}' ] || fail "down-2 params $p2"

# The reverse run really was reversed: iperf3 says so in its JSON.
[ "$(q "select stdout from runs where json_extract(cell,'\$.test')='down-2'" |
	jq -r '.start.test_start.reverse')" = 1 ] || fail "iperf3 did not run reversed"
[ "$(q "select stdout from runs where json_extract(cell,'\$.test')='down-2'" |
	jq -r '.start.test_start.num_streams')" = 2 ] || fail "iperf3 did not run 2 streams"
echo "ok - params: levels reach iperf3's argv"
