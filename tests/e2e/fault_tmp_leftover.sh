#!/bin/bash
# SPDX-License-Identifier: MIT
# The temporary directory a SIGKILLed xrun leaves (/tmp/xrun-PID-XXXXXX,
# its ssh control sockets) is removed at the next start (issue 40), and
# nothing else: planted here, with this process's pid in the suffix so
# that parallel tests keep apart, (a) one of a pid no process has: removed
# with what it holds; (b) one of a pid that runs (this shell): kept; (c)
# one of another user (nobody) and a dead pid: kept; (d) a link of that
# name form to a directory: kept, and its target whole; (e) a name of
# another form (7 characters after the pid): kept.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_tmpdir T
# A pid no process can have: above the kernel's pid_max (a pid of a
# process that ended may be reused while a parallel suite starts many).
dead=$(($(cat /proc/sys/kernel/pid_max) + 1 + $$ % 1000))
kill -0 "$dead" 2>/dev/null && fail "pid $dead above pid_max is alive"
s=$(printf '%06d' $(($$ % 1000000)))
a=/tmp/xrun-$dead-a$(echo $s | cut -c2-)
b=/tmp/xrun-$$-b$(echo $s | cut -c2-)
c=/tmp/xrun-$dead-c$(echo $s | cut -c2-)
d=/tmp/xrun-$dead-d$(echo $s | cut -c2-)
e=/tmp/xrun-$dead-e${s}
xr_at_exit "rm -rf -- '$a' '$b' '$c' '$d' '$e'"
# (a) and (c) are made whole here and renamed into /tmp at once: an xrun
# of a test running beside this one sweeps a dead pid's directory of its
# own user the moment it starts, so one half made there (c before its
# chown, a before its socket) would be gone under this test.
mkdir "$b" "$e" a.new c.new
echo x >a.new/sock
if [ "$(id -u)" = 0 ]; then chown nobody c.new; fi
mv -T a.new "$a"
mv -T c.new "$c"
mkdir target
echo keep >target/f
ln -s "$T/target" "$d"
cat >p.yaml <<'YAML'
xrun: 1
name: sweep
engine:
  type: command
  run: [sh, -c, 'echo "v 1"']
  metrics:
    v: { regex: 'v ([0-9]+)', unit: "1" }
repeat: 1
sample: off
counters: none
YAML
"$XRUN" run p.yaml --db p.db --unattended --quiet || fail "exit $?"
[ ! -e "$a" ] || fail "the dead xrun's directory is left: $(ls -la "$a")"
[ -d "$b" ] || fail "a running pid's directory was removed"
if [ "$(id -u)" = 0 ]; then [ -d "$c" ] || fail "another user's directory was removed"; fi
[ -L "$d" ] && [ "$(cat target/f)" = keep ] || fail "the link or its target was touched"
[ -d "$e" ] || fail "a name of another form was removed"
echo "ok: a dead xrun's temporary directory removed, nothing else"
