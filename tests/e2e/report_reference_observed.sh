#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 23 item 1, the bar: a plan whose cc levels are not applied (a
# label: no param, apply, step or host) and whose streams factor is a
# label too, against a reference with cc and streams columns, gives no
# "reproduced" cell: each column named after an observable condition is
# matched to what iperf3 observed for the cell's runs (the kernel default
# congestion control, /proc/sys/net/ipv4/tcp_congestion_control, and one
# stream), so the cells are not_comparable with both values.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need iperf3 jq
xr_tmpdir dir
def=$(cat /proc/sys/net/ipv4/tcp_congestion_control)
lv1=cubic lv2=reno
[ "$def" != cubic ] || lv1=htcp
[ "$def" != reno ] || lv2=htcp
port=$(xr_free_port)
cat > plan.yaml <<YAML
xrun: 1
name: ref-observed
engine:
  type: iperf3
  client: local
  server: { host: local, start: true }
  target: 127.0.0.1
  port: $port
  duration: 1s
factors:
  cc: { levels: [$lv1, $lv2] }
  streams: { levels: [1, 2] }
repeat: 1
sample: off
YAML
"$XRUN" run plan.yaml --db r.db --unattended --yes > run.out 2>&1 ||
	{ cat run.out >&2; exit 1; }
# published values: what loopback measured, so only conditions can differ
med=$(q r.db "select value from results where metric='throughput' and status='ok' limit 1")
{
	echo "format,2"
	echo "condition,duration,1"
	echo "cc,streams,value"
	for c in $lv1 $lv2; do for s in 1 2; do echo "$c,$s,$med"; done; done
} > ref.csv
"$XRUN" report --db r.db --reference ref.csv -o ref.json
fail=0
check() { if eval "$1"; then echo "ok - $2"; else echo "not ok - $2"; fail=1; fi; }
check "! jq -r '.reference.rows[].verdict' ref.json | grep -q reproduced" \
	"no cell reproduced when cc and streams were not applied"
check "[ \"\$(jq -r '[.reference.rows[].verdict] | unique | join(\",\")' ref.json)\" = not_comparable ]" \
	"every cell not comparable"
check "jq -r '.reference.rows[] | select(.label | test(\"cc=$lv1\")) | .reasons' ref.json | grep -q 'published cc $lv1, measured $def'" \
	"the reason names the published and the observed cc"
check "jq -r '.reference.rows[] | select(.label | test(\"streams=2\")) | .reasons' ref.json | grep -q 'published streams 2, measured 1'" \
	"the reason names the published and the observed streams"
exit $fail
