#!/bin/bash
# SPDX-License-Identifier: MIT
# A bad lab prefix is a usage error, whoever runs it: `xrun lab up|down|
# status --prefix 'BAD!'` exits 2 and says what is wrong with it, quoting
# it, and what a valid one is. The prefix is checked before root, ip or
# anything on the system is looked at, so no root is needed and nothing is
# created; as root the same check runs once more as nobody. (Once, the
# usage error's -1 was read as "help was printed": nothing, exit 0.)
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_tmpdir T

check() { # label, then the command
	local label=$1 rc=0
	shift
	"$@" >out 2>err || rc=$?
	[ "$rc" = 2 ] || fail "$label: exit $rc, not 2 ($(cat err))"
	[ ! -s out ] || fail "$label: wrote to stdout: $(cat out)"
	grep -q "invalid lab prefix 'BAD!'" err ||
		fail "$label: the message does not name the prefix: $(cat err)"
	grep -q "valid: 1 to 10 lowercase letters, digits or '-'" err ||
		fail "$label: the message does not say what is valid: $(cat err)"
}
for sub in up down status; do
	check "lab $sub" "$XRUN" lab "$sub" --prefix 'BAD!'
done
check "lab down --prefix=" "$XRUN" lab down --prefix='BAD!'
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	cp "$XRUN" xrun && chmod 755 . xrun
	check "lab down as nobody" setpriv --reuid=65534 --regid=65534 \
		--clear-groups ./xrun lab down --prefix 'BAD!'
fi
rc=0
"$XRUN" lab down --prefix '-x' 2>err >/dev/null || rc=$?
[ "$rc" = 2 ] && grep -q "invalid lab prefix '-x'" err ||
	fail "a leading '-': exit $rc, $(cat err)"
rc=0
"$XRUN" lab down --prefix 'abcdefghijk' 2>err >/dev/null || rc=$?
[ "$rc" = 2 ] && grep -q "invalid lab prefix 'abcdefghijk'" err ||
	fail "11 letters: exit $rc, $(cat err)"
# Other tests make namespaces and lab records at the same time (ctest -j):
# look only for what these prefixes would have made.
! ls /run/xrun-lab 2>/dev/null | grep -Eq '^(BAD|-x|abcdefghijk)' ||
	fail "a lab record was written"
! ip netns list 2>/dev/null | grep -Eq '^(BAD|-x|abcdefghijk)' ||
	fail "a namespace was made"
echo "ok - a bad lab prefix exits 2 and names the prefix, creating nothing"
