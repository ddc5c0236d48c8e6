#!/bin/bash
# SPDX-License-Identifier: MIT
# A published condition against what the runs really used: loopback iperf3
# (1 s runs) with the congestion control pinned to reno, a reference that
# publishes cubic. The iperf3 engine stores the congestion control each run
# used (observed); the verdict is not_comparable with "published congestion
# cubic, measured reno", and the same reference published as reno is
# compared on its numbers.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need iperf3 jq
xr_tmpdir dir
port=$(xr_free_port)
cat > plan.yaml <<YAML
xrun: 1
name: ref-cc
engine:
  type: iperf3
  client: local
  server: { host: local, start: true }
  target: 127.0.0.1
  port: $port
  duration: 1s
  congestion: reno
factors:
  streams: { levels: [1, 2], param: parallel }
repeat: 2
sample: off
YAML
cat > cubic.csv <<'EOF'
format,2
condition,congestion,cubic
condition,duration,1
streams,value
1,10
2,10
EOF
sed 's/cubic/reno/' cubic.csv > reno.csv
"$XRUN" run plan.yaml --db r.db --unattended --yes > run.out 2>&1 ||
	{ cat run.out >&2; exit 1; }
"$XRUN" report --db r.db --reference cubic.csv -o cubic.json
"$XRUN" report --db r.db --reference reno.csv -o reno.json

fail=0
check() { if eval "$1"; then echo "ok - $2"; else echo "not ok - $2"; fail=1; fi; }
check "[ \"\$(jq -r '[.reference.rows[].verdict] | unique | join(\",\")' cubic.json)\" = not_comparable ]" \
	"published cubic, runs with reno: not comparable"
check "jq -r '.reference.rows[0].reasons' cubic.json | grep -qx 'published congestion cubic, measured reno'" \
	"the reason names both congestion controls"
check "jq -r '[.reference.rows[].verdict] | .[]' reno.json | grep -qv not_comparable" \
	"published reno: compared on the numbers"
# validate: the plan pins reno, the reference publishes cubic
set +e
"$XRUN" validate plan.yaml --reference cubic.csv 2> v.err
rc=$?
set -e
check "[ $rc = 2 ] && grep -q \"^cubic.csv:2:22: error: published congestion control 'cubic', the plan sets 'reno'\" v.err" \
	"validate --reference: the plan contradicts the published cc"
exit $fail
