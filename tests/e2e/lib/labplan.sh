# SPDX-License-Identifier: MIT
# The plan the lab tests run (bash; source after common.sh): the two
# namespaces of `xrun lab up --prefix P` as hosts client (198.18.0.1) and
# server (198.18.0.2) on P-veth, iperf3 from client to a server xrun
# starts, 2 s a run. Used by the e2e lab_explain* tests.
#
#   xr_lab_plan P NAME REPEAT [ENGINE_LINES] [TAIL_LINES] >plan.yaml
#
# ENGINE_LINES: more keys of engine: (two spaces in), e.g.
# $'  window: 16K\n  reverse: true'; TAIL_LINES: top-level keys after
# repeat:, e.g. $'sample: 250ms\ncounters: [nic, tcp, cpu]'.
xr_lab_plan() { # P NAME REPEAT [ENGINE_LINES] [TAIL_LINES]
	printf '%s\n' "xrun: 1" "name: $2" "hosts:" \
		"  client: {netns: $1-client, address: 198.18.0.1, iface: $1-veth}" \
		"  server: {netns: $1-server, address: 198.18.0.2, iface: $1-veth}" \
		"engine:" "  type: iperf3" "  client: client" \
		"  server: { host: server, start: true }" "  duration: 2s"
	[ -z "${4:-}" ] || printf '%s\n' "$4"
	echo "repeat: $3"
	[ -z "${5:-}" ] || printf '%s\n' "$5"
}
