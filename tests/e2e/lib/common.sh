# SPDX-License-Identifier: MIT
# The shared prologue of the end-to-end scripts (bash; source it first):
#
#   . "$(dirname "$0")/lib/common.sh"
#   xr_need_root "network namespaces"     # or skip (fail under CI)
#   xr_need iperf3 sqlite3                # commands the test needs
#   xr_tmpdir T                           # T=a fresh directory, cd'd into,
#                                         # removed at exit
#   xr_at_exit 'ip netns del "$ns"'       # more cleanup, run before rm -rf
#   port=$(xr_free_port)                  # a free TCP port (bound to 0)
#   net=$(xr_free_net)                    # "10.A.B.": a /24 no interface has
#   XR_DB=run.db; q "select count(*) from runs"   # or q FILE.db SQL
#   [ "$(q "...")" = 4 ] || fail "why"
#
# Skips: xr_skip REASON exits 77 (ctest's skip) with "skip: REASON", except
# under CI (CI=true or 1: root, every package of .ci/install there), where a
# missing prerequisite is a broken setup and fails the test.
[ -n "${XR_COMMON_SH:-}" ] && return 0
XR_COMMON_SH=1
# Debian's programs before anyone's shims, for the script and every
# engine it runs: the suite is specified against the packages .ci/install
# installs, and a version manager's shim in front (pyenv's python3 on the
# development VM: ~0.6 CPU s a start against 0.05 for /usr/bin/python3,
# measured 2026-12-06) cost minutes of CPU over the suite's thousands of
# python3 starts.
PATH=/usr/bin:/bin:/usr/sbin:/sbin:$PATH
export PATH
: "${XRUN:?XRUN must name the xrun binary}"
: "${XRUN_SOURCE_DIR:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)}"
export XRUN XRUN_SOURCE_DIR
XR_LIB=$XRUN_SOURCE_DIR/tests/e2e/lib

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

xr_in_ci() {
	[ "${CI:-}" = true ] || [ "${CI:-}" = 1 ]
}

xr_skip() { # reason
	if xr_in_ci; then
		echo "FAIL: CI=$CI but a prerequisite is missing: $*" >&2
		exit 1
	fi
	echo "skip: $*"
	exit 77
}

xr_need_root() { # what needs it
	[ "$(id -u)" = 0 ] || xr_skip "needs root (${1:-this test})"
}

xr_need() { # command...
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null || xr_skip "$c is not installed"
	done
}

# Cleanup commands run at exit, last added first, then the temp dir goes.
XR_AT_EXIT=()
xr_at_exit() { # shell command
	XR_AT_EXIT=("$1" "${XR_AT_EXIT[@]}")
}
xr_run_at_exit() {
	local c
	for c in "${XR_AT_EXIT[@]}"; do
		eval "$c" || true
	done
	if [ -n "${XR_TMP:-}" ]; then
		if [ -n "${XR_KEEP:-}" ]; then
			echo "kept $XR_TMP"
		else
			rm -rf "$XR_TMP"
		fi
	fi
}
trap xr_run_at_exit EXIT

xr_tmpdir() { # variable name: a fresh directory, the cwd, removed at exit
	XR_TMP=$(mktemp -d /tmp/xr-e2e.XXXXXX) || fail "mktemp"
	printf -v "$1" '%s' "$XR_TMP"
	cd "$XR_TMP" || fail "cd $XR_TMP"
}

# A TCP port nobody listens on now: the kernel picks it (bind to port 0),
# so concurrent tests never draw the same one.
xr_free_port() {
	python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])'
}

# The first three octets ("10.A.B.") of a /24 that no interface of this
# namespace holds now, for a veth's root-side address: drawn at random
# (A in 200..249), so that tests running at once, and another clone's
# suite, do not share one. A draw and its use are not atomic: a clash
# needs two tests to draw the same of 12,500 subnets in the same moment.
xr_free_net() {
	local a b used i
	used=$(ip -4 -o addr show 2>/dev/null | awk '{ print $4 }')
	for i in $(seq 50); do
		a=$((200 + RANDOM % 50)) b=$((RANDOM % 250))
		grep -q "^10\.$a\.$b\." <<<"$used" || break
	done
	echo "10.$a.$b."
}

# q SQL (on $XR_DB) or q FILE.db SQL: the rows, '|'-separated.
q() {
	if [ $# -ge 2 ]; then
		sqlite3 "$1" "$2"
	else
		sqlite3 "${XR_DB:?q: set XR_DB or give the database}" "$1"
	fi
}

# Start the test sshd (lib/sshd.sh) in DIR, stopped at exit; skips (fails
# under CI) when it cannot start.
xr_need_sshd() { # dir
	xr_need_root "a test sshd switches users"
	[ -x /usr/sbin/sshd ] || xr_skip "openssh-server is not installed"
	xr_need ssh
	. "$XR_LIB/sshd.sh"
	xr_sshd_start "$1" || xr_skip "the test sshd did not start"
	xr_at_exit xr_sshd_stop
}

# A network namespace NAME (deleted at exit); skips when none can be made.
xr_need_netns() { # name
	xr_need_root "network namespaces"
	xr_need ip
	ip netns add "$1" || xr_skip "cannot create network namespace $1"
	xr_at_exit "ip netns del '$1' 2>/dev/null"
}

# The command lines of the processes inside namespace NS that match the
# extended regex RE, one a line (empty when none). pgrep sees every
# namespace: a test beside another suite's would see its processes too.
xr_ns_procs() { # ns re
	local p
	for p in $(ip netns pids "$1" 2>/dev/null); do
		tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null && echo
	done | grep -E -- "$2" || true
}
