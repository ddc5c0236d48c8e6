#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The speedtest engine end to end: a stand-in `speedtest` on PATH prints
# the recorded tests/data/resp/speedtest.json (the real Ookla CLI needs
# the Internet); xrun runs it, stores its metrics in SI units (bandwidth
# B/s * 8, ms * 1e-3: the file's numbers) and reports them; output
# without the required key fails the run with the key in the reason.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need sqlite3
xr_tmpdir w
mkdir bin
cat >bin/speedtest <<EOF2
#!/bin/sh
[ "\$1 \$2" = "-f json" ] || { echo "bad args: \$*" >&2; exit 2; }
[ -f "$w/broken" ] && { echo '{"ping":{"latency":3}}'; exit 0; }
cat "$XRUN_SOURCE_DIR/tests/data/resp/speedtest.json"
EOF2
chmod +x bin/speedtest
export PATH="$w/bin:$PATH"
cat >p.yaml <<'PLAN'
xrun: 1
name: st
engine: { type: speedtest }
repeat: 2
sample: off
PLAN
"$XRUN" validate p.yaml >/dev/null || fail "validate"
"$XRUN" run p.yaml --unattended 2>run.err || { cat run.err; fail "run exit"; }
XR_DB=st.db
[ "$(q "select count(*) from runs where status='ok'")" = 2 ] || fail "runs: $(q 'select status, reason from runs')"
[ "$(q "select value from metrics where name='throughput' limit 1")" = 67360000.0 ] ||
	fail "throughput: $(q "select name, value from metrics")"
[ "$(q "select value from metrics where name='latency.idle' limit 1")" = 0.004261 ] ||
	fail "latency.idle: $(q "select name, value from metrics")"
[ "$(q "select unit from metrics where name='loss' limit 1")" = % ] || fail "loss unit"
"$XRUN" report p.yaml -o r.md || fail "report"
grep -q "throughput" r.md || fail "report has no throughput: $(cat r.md)"
touch broken
"$XRUN" run p.yaml --db b.db --unattended 2>/dev/null && fail "a run without download.bandwidth passed"
XR_DB=b.db
q "select reason from runs limit 1" | grep -q "no number at '/download/bandwidth'" ||
	fail "reason: $(q 'select reason from runs')"
echo "ok: speedtest metrics stored in SI units; a missing key fails the run"
