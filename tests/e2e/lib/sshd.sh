# SPDX-License-Identifier: MIT
# A real OpenSSH server on a loopback port, for tests (bash; source it).
#
# Usage:
#   . "$XRUN_SOURCE_DIR/tests/e2e/lib/sshd.sh"
#   xr_sshd_start "$tmpdir" || xr_skip "no sshd"   # prints why
#   xr_at_exit xr_sshd_stop
#   ssh -p "$XR_SSHD_PORT" -i "$XR_SSHD_KEY" $XR_SSH_OPTS root@127.0.0.1 true
#
# After xr_sshd_start DIR:
#   XR_SSHD_PORT   the port sshd listens on (127.0.0.1 only)
#   XR_SSHD_KEY    the client private key (no passphrase) it accepts
#   XR_SSHD_USER   the login user (the current user)
#   XR_SSHD_LOG    sshd's log file (-E), e.g. to count "Accepted" lines
#   XR_SSH_OPTS    "-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null"
#   XR_SSHD_YAML   a plan `hosts:` entry body (flow mapping) for this server
# Everything lives in DIR/sshd; xr_sshd_stop kills the server by its pid
# file. Needs root (sshd must switch users) and /usr/sbin/sshd. Scripts
# call it through common.sh's xr_need_sshd DIR, which skips (fails under
# CI) when it cannot start.
[ -n "${XR_COMMON_SH:-}" ] || . "$(dirname "${BASH_SOURCE[0]}")/common.sh"

xr_sshd_start() {
	local dir="$1/sshd" port i
	XR_SSHD_PID=
	if [ "$(id -u)" != 0 ]; then
		echo "skip: a test sshd needs root" >&2
		return 1
	fi
	if [ ! -x /usr/sbin/sshd ] || ! command -v ssh >/dev/null; then
		echo "skip: openssh-server/openssh-client not installed" >&2
		return 1
	fi
	mkdir -p "$dir" /run/sshd
	chmod 0755 /run/sshd
	ssh-keygen -q -t ed25519 -N '' -f "$dir/host_key" </dev/null
	ssh-keygen -q -t ed25519 -N '' -f "$dir/client_key" </dev/null
	cp "$dir/client_key.pub" "$dir/authorized_keys"
	chmod 600 "$dir/authorized_keys"
	XR_SSHD_USER=$(id -un)
	# HOME: an ssh command runs in the login user's shell, and Debian's bash
	# reads ~/.bashrc for it. Root's .bashrc on the development VM runs
	# `pyenv init`, whose rehash takes a lock file: a login killed by a
	# fault test left it behind and every later login (any test's) waited
	# 60 s for it. The test sessions get an empty home of their own, so no
	# shell start-up file of the machine's runs in them (sshd's SetEnv
	# overrides the default environment, HOME included: sshd_config(5)).
	mkdir -p "$dir/home"
	for i in 1 2 3 4 5 6 7 8; do
		port=$(xr_free_port)
		cat >"$dir/sshd_config" <<EOF
Port $port
ListenAddress 127.0.0.1
HostKey $dir/host_key
PidFile $dir/sshd.pid
AuthorizedKeysFile $dir/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
StrictModes no
UsePAM no
MaxSessions 50
MaxStartups 50
LogLevel VERBOSE
Subsystem sftp internal-sftp
SetEnv XDG_RUNTIME_DIR=$dir/run HOME=$dir/home
EOF
		rm -f "$dir/sshd.log" "$dir/sshd.pid"
		mkdir -p -m 700 "$dir/run" # this sshd's sessions' runtime dir
		/usr/sbin/sshd -D -f "$dir/sshd_config" -E "$dir/sshd.log" &
		XR_SSHD_PID=$!
		# Wait for the listener (or for sshd to die on a busy port).
		for _ in $(seq 50); do
			if ss -ltn "sport = :$port" | grep -q LISTEN; then
				break
			fi
			kill -0 "$XR_SSHD_PID" 2>/dev/null || break
			sleep 0.1
		done
		if kill -0 "$XR_SSHD_PID" 2>/dev/null &&
			ss -ltn "sport = :$port" | grep -q LISTEN; then
			XR_SSHD_PORT=$port
			XR_SSHD_KEY=$dir/client_key
			XR_SSHD_LOG=$dir/sshd.log
			XR_SSHD_DIR=$dir
			XR_SSH_OPTS="-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null"
			XR_SSHD_YAML="{ssh: \"$XR_SSHD_USER@127.0.0.1\", port: $port, identity: \"$XR_SSHD_KEY\", ssh_options: [-o, StrictHostKeyChecking=no, -o, UserKnownHostsFile=/dev/null]}"
			export XR_SSHD_PORT XR_SSHD_KEY XR_SSHD_LOG XR_SSH_OPTS \
				XR_SSHD_USER XR_SSHD_YAML XR_SSHD_DIR
			return 0
		fi
		kill "$XR_SSHD_PID" 2>/dev/null
		wait "$XR_SSHD_PID" 2>/dev/null
		XR_SSHD_PID=
	done
	echo "error: could not start sshd on a loopback port:" >&2
	cat "$dir/sshd.log" >&2 2>/dev/null
	return 1
}

xr_sshd_stop() {
	local kids
	if [ -n "${XR_SSHD_PID:-}" ]; then
		# Per-connection sshd processes (e.g. a ControlMaster's) are
		# children of the listener and outlive it: stop them too.
		kids=$(ps -o pid= --ppid "$XR_SSHD_PID" 2>/dev/null || true)
		[ -z "$kids" ] || kill $kids 2>/dev/null || true
		kill "$XR_SSHD_PID" 2>/dev/null || true
		wait "$XR_SSHD_PID" 2>/dev/null || true
		XR_SSHD_PID=
	fi
}

# An outage of the test sshd (fault tests): xr_sshd_down stops it and every
# connection it serves (the ControlMaster's too) and waits until the port
# is closed; xr_sshd_up starts it again on the same port from the same
# configuration and waits until it listens. Both need ss and fail() (the
# caller's, lib/common.sh).
xr_sshd_down() {
	xr_sshd_stop
	for _ in $(seq 50); do
		ss -ltn "sport = :$XR_SSHD_PORT" | grep -q LISTEN || return 0
		sleep 0.1
	done
	fail "sshd still listening on $XR_SSHD_PORT"
}
xr_sshd_up() {
	/usr/sbin/sshd -D -f "$XR_SSHD_DIR/sshd_config" -E "$XR_SSHD_DIR/sshd.log" &
	XR_SSHD_PID=$!
	for _ in $(seq 50); do
		ss -ltn "sport = :$XR_SSHD_PORT" | grep -q LISTEN && return 0
		sleep 0.1
	done
	fail "sshd did not come back on $XR_SSHD_PORT"
}
