#!/bin/sh
# SPDX-License-Identifier: MIT
# Fails the first time (no marker file $1 yet: it makes it), prints a
# value every time after: a server that was down, then up.
if [ -e "$1" ]; then
	echo '{"rate_MBps": 100}'
else
	: >"$1"
	echo "flaky: connection refused" >&2
	exit 1
fi
