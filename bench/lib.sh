# SPDX-License-Identifier: MIT
# The lab setup that bench/sampling.sh and bench/fidelity.sh share (bash;
# source it after `set -eu`): two namespaces joined by a shaped veth pair
# (`xrun lab up`), bare iperf3 blocks run between them, and the plan of an
# xrun block over the same hosts.
#
#   bench_lab STEM LAB_UP_ARGS...   root and a built xrun checked; sets
#       xrun (the binary: $XRUN or build/xrun), pfx (STEM + a random
#       number), port (random) and work (a temporary directory); brings the
#       lab up with `xrun lab up LAB_UP_ARGS --prefix $pfx` and takes it
#       down, and removes $work, at exit.
#   bench_bare BLOCK RUNS DURATION  RUNS bare `iperf3 -c -J` runs of
#       DURATION seconds from the client namespace to a server started in
#       the server namespace: $work/bare-BLOCK-N.json.
#   bench_plan NAME RUNS DURATION [LINE]  the plan of one xrun block on
#       stdout: the lab's netns hosts, iperf3 with the server started by
#       xrun on port+1, one stream, repeat RUNS; LINE (e.g. `sample: 1s`)
#       is added at the top level.
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
xrun=${XRUN:-$top/build/xrun}

bench_lab() {
	local stem=$1
	shift
	pfx=$stem$((RANDOM % 100))
	port=$((20000 + RANDOM % 12000))
	[ "$(id -u)" = 0 ] || { echo "root is needed (namespaces)" >&2; exit 1; }
	[ -x "$xrun" ] || { echo "build xrun first" >&2; exit 1; }
	work=$(mktemp -d)
	trap '"$xrun" lab down --prefix $pfx >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
	"$xrun" lab up "$@" --prefix "$pfx" >"$work/lab.txt"
}

bench_bare() { # block runs duration
	ip netns exec "$pfx-server" iperf3 -s -p "$port" >/dev/null 2>&1 &
	local srv=$! i
	sleep 0.5
	for i in $(seq "$2"); do
		ip netns exec "$pfx-client" iperf3 -c 198.18.0.2 -p "$port" \
			-t "$3" -J >"$work/bare-$1-$i.json"
	done
	kill $srv
	wait $srv 2>/dev/null || true
}

bench_plan() { # name runs duration [line]
	cat <<PLAN
xrun: 1
name: $1
hosts:
  client: {netns: $pfx-client, address: 198.18.0.1, iface: $pfx-veth}
  server: {netns: $pfx-server, address: 198.18.0.2, iface: $pfx-veth}
engine:
  type: iperf3
  client: client
  server: { host: server, start: true }
  port: $((port + 1))
  duration: ${3}s
${4:-}
factors:
  streams: { levels: [1], param: parallel }
repeat: $2
PLAN
}
