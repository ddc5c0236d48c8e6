#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 25's window-bound case on a real lab link (root only), without
# netem: a tbf of 100mbit (latency 400ms: a 5 MB queue) holding a standing
# queue of > 1 MB from a background flow (tests/e2e/lib/bloat.sh), and the
# plan's iperf3 in reverse with window: 16K (its ACKs wait in the queue).
# The truth, checked here from the store and the report: the cell's median
# well below the line (< 20% of the tbf's TCP goodput: 95.6 Mbit/s at MTU
# 1500), no qdisc drops, iperf3's client process below EXPLAIN_PROC_BUSY,
# and the JSON report's cells[].limit.kind "window", its evidence naming
# min(cwnd, snd_wnd) / RTT. Two runs of 2 s. 100mbit, not 1000mbit: the
# same queue then lasts 10x longer when the background flow is descheduled
# on a loaded machine (at 1000mbit and load 13-19 the queue drained and
# the fit went: bench/RESULTS.md).
# The precondition, checked from the store: the queue stood through the
# runs, i.e. the cell's RTT mean <= EXPLAIN_RTT_QUEUE (1.5) x its min
# (reports/explain/explain_kind.h; quiet: 1.28-1.30). When it did not (the
# background flow descheduled under load, the queue drained and refilled:
# the CI flake of stop 27, "kind none" at 3.86 Mbit/s), the rule's own gate
# says `none`, which is right: that attempt must then claim no kind but
# window or none, and the case is run again (at most 3 attempts). An
# attempt whose queue stood must say window.
set -eu
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/bloat.sh"
. "$(dirname "$0")/lib/labplan.sh"
xr_need_root "xrun lab needs root (network namespaces)"
xr_need ip tc ss iperf3 sqlite3 python3
P="xw$$"
P=${P:0:10}
xr_tmpdir T
xr_at_exit 'bloat_down; "$XRUN" lab down --prefix "$P" >/dev/null 2>&1'
xr_lab_plan "$P" lab-explain-window 2 $'  window: 16K\n  reverse: true' \
	$'sample: 250ms\ncounters: [nic, tcp, cpu]' >w.yaml
"$XRUN" lab up --rate 100mbit --latency 400ms --prefix "$P" >up.out || fail "lab up exit $?"
bloat_up "$P-client" "$P-server" 198.18.0.2 "$P-veth" "$T" || fail "no standing queue"
attempt() { # N: 0 window-bound as it must be, 2 the queue did not stand
	local n=$1 drops busy
	# bloat_up waited for the first; later ones wait again (5 s), but the
	# RTTs in the store decide whether the queue stood.
	[ "$n" = 1 ] || bloat_wait "$P-client" "$P-veth" 5 || true
	"$XRUN" run w.yaml --db "w$n.db" --unattended 2>run.err || { cat run.err; fail "run exit $?"; }
	"$XRUN" report --db "w$n.db" -o "w$n.json" 2>rep.err || { cat rep.err; fail "report exit $?"; }
	XR_DB=w$n.db
	drops=$(q "select coalesce(sum(json_extract(p.value, '\$[1]')), 0) from series_data s, json_each(s.points) p
		where s.name = 'qdisc.drops' and json_extract(p.value, '\$[0]') > 0")
	stood=$(q "select sum(value) filter (where metric = 'rtt_mean') <=
		1.5 * sum(value) filter (where metric = 'rtt_min') from results")
	busy=$(q "select max(value) from results where metric = 'cpu_host'")
	[ "$(q "select $busy < 90")" = 1 ] || fail "iperf3's client at $busy% of a core: the truth is not CPU-free"
	python3 - "w$n.json" "$drops" "$stood" "$n" <<'PY'
import json, sys
l = json.load(open(sys.argv[1]))["cells"][0]["limit"]
stood, n = sys.argv[3] == "1", sys.argv[4]
print("# attempt %s: %s" % (n, l["text"]))
bad = []
if float(sys.argv[2]) != 0:
    bad.append("%s qdisc drops: the truth is not drop-free" % sys.argv[2])
if not (l["fraction"] < 0.2):
    bad.append("fraction %r: not well below the line (< 0.2)" % l["fraction"])
if not stood:
    if l["kind"] not in ("window", "none"):
        bad.append("the queue did not stand, yet kind %s" % l["kind"])
    for b in bad:
        print("FAIL: " + b)
    if not bad:
        print("# attempt %s: RTT mean > 1.5 x its min (the queue did not stand): "
              "kind %s, as the rule's gate allows; again" % (n, l["kind"]))
    sys.exit(1 if bad else 2)
if l["kind"] != "window":
    bad.append("kind %s, want window" % l["kind"])
if "min(cwnd" not in l["evidence"]["text"] or "engine.snd_wnd" not in l["evidence"]["series"]:
    bad.append("evidence without min(cwnd, snd_wnd): %r" % l["evidence"])
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY
}
for n in 1 2 3; do
	rc=0
	attempt "$n" || rc=$?
	[ $rc = 1 ] && fail "window case (attempt $n)"
	if [ $rc = 0 ]; then
		[ -n "${XR_KEEP:-}" ] && cp "w$n.db" "$XR_KEEP/w.db"
		bloat_down
		echo "ok - a 16K window behind a standing queue: window-bound, < 20% of the tbf, no drops (attempt $n)"
		exit 0
	fi
done
bloat_down
echo "ok - the queue never stood in 3 attempts (load): each said window or none, never another kind; the window claim itself was not checked"
