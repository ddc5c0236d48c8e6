# SPDX-License-Identifier: MIT
# The lab plan of the rate search tests (bash; source after common.sh and
# labplan.sh): iperf3 UDP of 1472-byte datagrams (one 1514-byte frame
# each) from client to server, a 4 MB socket buffer (the receiver's
# drops under a busy machine otherwise come first), a search from 20 to
# 300 Mbit/s to 0.5%, ndr (0%) and pdr (0.5%) goals of one 2 s trial a
# load (RFC 2544's zero-exceed form: one lossy trial makes an upper
# bound). unsent 10ms: on this 2-core machine shared by several builds
# iperf3's sender ends a trial up to ~10 ms behind its pacing (measured
# 0.2-0.6% of a 2 s trial at 66-110 Mbit/s, load average 13-22); that lag
# is not a loss of the link.
#   xr_lab_search_plan P NAME >plan.yaml
xr_lab_search_plan() { # P NAME
	xr_lab_plan "$1" "$2" 1 $'  udp: true\n  length: 1472\n  window: 4M' \
		$'sample: off\nsearch:\n  param: bitrate\n  min: 20mbit\n  max: 300mbit\n  width: 0.5%\n  unsent: 10ms\n  goals:\n    - { name: ndr, loss: 0%, trial: 2s, sum: 2s, exceed: 0% }\n    - { name: pdr, loss: 0.5%, trial: 2s, sum: 2s, exceed: 0% }'
}
# goal NAME FIELD of cells[0].search in report JSON $1
xr_search_goal() { # json name field
	q :memory: "select json_extract(g.value, '\$.$3') from json_each(json_extract(readfile('$1'), '\$.cells[0].search.goals')) g where json_extract(g.value, '\$.name') = '$2'"
}
