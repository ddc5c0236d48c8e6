#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 20 item 4: the cost per counters snapshot on an ssh host, one
# persistent far shell per host (host_session.c) against a new ssh session
# and far shell per snapshot (plan `session: false`), on the loopback
# test sshd the suite uses (tests/e2e/lib/sshd.sh). Blocks of N snapshots
# (bench/session.c: interface lo, nic + tcp + cpu) alternate process,
# session, session, process, ... so that drift is not mistaken for an
# effect. Prints per block and the medians per snapshot: wall ms, xrun's
# own CPU ms (RUSAGE_SELF) and with its ssh clients (RUSAGE_CHILDREN).
# The far side's CPU (sshd, sh) is not counted. Only the sh path: there is
# no PowerShell here.
# Usage (root): bash bench/session.sh [N] [PAIRS]   (defaults 50, 3)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
bin=${SESSION_BENCH:-$top/build/session-bench}
n=${1:-50}
pairs=${2:-3}
[ -x "$bin" ] || { echo "build session-bench first (cmake --build build)" >&2; exit 1; }
work=$(mktemp -d)
export XRUN=${XRUN:-$top/build/xrun}
. "$top/tests/e2e/lib/sshd.sh"
trap 'xr_sshd_stop; rm -rf "$work"' EXIT
xr_sshd_start "$work" >&2 || { echo "no test sshd" >&2; exit 1; }
uptime
for p in $(seq "$pairs"); do
	if [ $((p % 2)) = 1 ]; then order="process session"; else order="session process"; fi
	for m in $order; do
		"$bin" "$m" "$n" "$XR_SSHD_PORT" "$XR_SSHD_KEY" | tee -a "$work/blocks"
	done
done
uptime
python3 - "$work/blocks" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
print("per snapshot (median over blocks):")
for mode in ("process", "session"):
    b = [r for r in rows if r[0] == mode]
    n = int(b[0][1])
    wall = statistics.median(float(r[2]) / n * 1e3 for r in b)
    own = statistics.median((float(r[3]) + float(r[4])) / n * 1e3 for r in b)
    allc = statistics.median((float(r[3]) + float(r[4]) + float(r[5]) + float(r[6])) / n * 1e3 for r in b)
    bad = sum(int(r[7]) for r in b)
    print(f"  {mode:8s} blocks {len(b)} x {n}: wall {wall:.2f} ms, xrun CPU {own:.2f} ms, "
          f"xrun + ssh clients CPU {allc:.2f} ms, failed {bad}")
PY
