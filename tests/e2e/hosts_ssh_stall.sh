#!/bin/bash
# SPDX-License-Identifier: MIT
# A far side that stalls while the connection stays up (issue 24, High 4):
# the command engine's command on an ssh host (a real sshd on loopback,
# lib/sshd.sh) stops its far-side watchdog (coreutils timeout) and then
# itself with SIGSTOP, so the far-side deadline never fires. xrun must
# stop its local ssh at the timeout plus the ssh grace (docs/hosts.md:
# 5 s for the far side to report, then 2 s TERM-to-KILL), kill the far
# process group over a second connection, store the run as `timeout`
# and go on with the next run; nothing of the runs may be left on either
# side afterwards.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need sqlite3 pgrep python3
xr_tmpdir T
xr_need_sshd "$T"
XR_DB=st.db
# A word unique to this test in the far command, so that pgrep finds ours.
mark="xr-stall-$$"
xr_at_exit "pkill -KILL -f '$mark' 2>/dev/null"
cat >st.yaml <<YAML
xrun: 1
name: stall
hosts:
  far: $XR_SSHD_YAML
engine:
  type: command
  client: far
  timeout: 2s
  run: [sh, -c, 'kill -STOP \$PPID; kill -STOP \$\$; echo never', $mark]
  metrics:
    v: { regex: 'v=([0-9]+)', unit: count }
factors:
  x: { levels: [a, b] }
repeat: 1
sample: off
YAML
start=$(date +%s.%N)
set +e
timeout 120 "$XRUN" run st.yaml --db st.db --quiet 2>st.err
rc=$?
set -e
took=$(python3 -c "import time; print(round(time.time() - $start, 1))")
[ $rc -ne 124 ] || fail "xrun still waiting after 120 s (the far side stalled)"
# A timeout is a failed measurement: exit 1, as for a local timeout.
[ $rc -eq 1 ] || { cat st.err; fail "exit $rc, want 1"; }
[ "$(q "select count(*) from runs where status='timeout'")" = 2 ] ||
	fail "runs: $(q "select position,status,reason from runs")"
# Each run ends at 2 s + 5 s (the far side's chance to report); ssh goes
# at the local SIGTERM (at worst SIGKILL 2 s later), plus 1 s of slack.
bad=$(q "select position||': '||elapsed from runs where elapsed < 7 or elapsed > 10")
[ -z "$bad" ] || fail "run elapsed outside [7, 10] s: $bad"
[ "$(q "select count(*) from runs where stderr like '%far-side process group % killed%'")" = 2 ] ||
	fail "far-side kill not reported: $(q "select stderr from runs")"
# The wrapper's pid line is the transport's, not the command's stderr.
[ "$(q "select count(*) from runs where stderr like '%@@xrun-far-pid%'")" = 0 ] ||
	fail "the far pid marker leaked into the stored stderr"
left=$(pgrep -af "$mark" || true)
[ -z "$left" ] || fail "left running after xrun returned: $left"
! pgrep -af "ssh .*-p $XR_SSHD_PORT " >/dev/null ||
	fail "a local ssh survived xrun: $(pgrep -af "ssh .*-p $XR_SSHD_PORT ")"
echo "ok: a stalled far side timed out locally (2 runs in ${took} s), nothing left"
