#!/bin/bash
# SPDX-License-Identifier: MIT
# Rate search (issue 37) against a fixed 10-step sweep finding the same
# knee: trials and minutes each.
#
#   bash bench/search.sh model     # no root: the command engine's model
#                                  # shaper (tests/e2e/lib/search_shaper.sh,
#                                  # loss 1 - C/load above C), C in 137, 437,
#                                  # 733, 911 between 100 and 1000, 0.1 s
#                                  # trials: trials of a search (ndr 0% and
#                                  # pdr 5%, width 0.5%), and what a 10-step
#                                  # sweep (100, 200 ... 1000) brackets
#   bash bench/search.sh lab       # root: xrun lab up --rate 200mbit
#                                  # --latency 4ms; the search of
#                                  # tests/e2e/lib/labsearch.sh (2 s trials)
#                                  # against 10 fixed levels of bitrate
#                                  # (20, 51 ... 300 Mbit/s, 2 s each) with
#                                  # the same plan's loss accounting;
#                                  # wall minutes of each
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
xrun=${XRUN:-$top/build/xrun}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

model() {
	local c
	for c in 137 437 733 911; do
		sed "s/437/$c/g" "$top/tests/e2e/lib/search_shaper.sh" >gen.sh
		cat >m.yaml <<YAML
xrun: 1
name: m
sample: off
counters: none
engine:
  type: command
  run: [sh, "$work/gen.sh", "{{rate}}"]
  metrics:
    lost: { regex: 'lost (\S+)', unit: '1' }
search:
  param: rate
  min: 100
  max: 1000
  width: 0.5%
  loss: lost
  goals:
    - { name: ndr, loss: 0%, trial: 0.1s, sum: 0.1s, exceed: 0% }
    - { name: pdr, loss: 5%, trial: 0.1s, sum: 0.1s, exceed: 0% }
YAML
		rm -f m.db*
		"$xrun" run m.yaml --db m.db --unattended --quiet
		sqlite3 m.db "select 'C=$c: ' || group_concat(name || ' ' || value, ', ') from metrics where run_id = (select id from runs where position = 0) and name in ('ndr', 'ndr_upper', 'pdr', 'pdr_upper', 'trials')"
		# The sweep: the highest lossless step and the next.
		awk -v c="$c" 'BEGIN { lo = 0; for (r = 100; r <= 1000; r += 100) if (r <= c) lo = r; printf "  10-step sweep: 10 runs, ndr in [%d, %d) (%.0f%% wide)\n", lo, lo + 100, 100 * 100 / (lo + 100) }'
	done
}

lab() {
	. "$top/tests/e2e/lib/common.sh" 2>/dev/null || true
	XRUN=$xrun
	. "$top/tests/e2e/lib/labplan.sh"
	. "$top/tests/e2e/lib/labsearch.sh"
	local p=xb$((RANDOM % 100)) t0 t1
	[ "$(id -u)" = 0 ] || { echo "root is needed (namespaces)" >&2; exit 1; }
	trap '"$xrun" lab down --prefix '$p' >/dev/null 2>&1; rm -rf "$work"' EXIT
	"$xrun" lab up --rate 200mbit --latency 4ms --prefix "$p" >/dev/null
	xr_lab_search_plan "$p" bench-search >s.yaml
	t0=$(date +%s.%N)
	"$xrun" run s.yaml --db s.db --unattended --quiet
	t1=$(date +%s.%N)
	echo "search: $(sqlite3 s.db "select count(*) from trials") trials, $(echo "($t1 - $t0) / 60" | bc -l | cut -c1-5) min; ndr $(sqlite3 s.db "select value from metrics where run_id = (select id from runs where position = 0) and name = 'ndr'")"
	# The same 2 s runs at 10 fixed levels: a factor on bitrate.
	sed -e '/^search:/,$d' s.yaml >w.yaml
	printf '%s\n' "factors:" "  rate: { param: bitrate, levels: [20M, 51M, 82M, 113M, 144M, 176M, 207M, 238M, 269M, 300M] }" \
		"order: sequential" >>w.yaml
	sed -i 's/^  duration: 2s/  duration: 2s/' w.yaml
	t0=$(date +%s.%N)
	"$xrun" run w.yaml --db w.db --unattended --quiet
	t1=$(date +%s.%N)
	echo "sweep: 10 runs, $(echo "($t1 - $t0) / 60" | bc -l | cut -c1-5) min"
	# Each step's loss ratio as the search counts it (search_udp_loss:
	# lost datagrams and the sender's shortfall beyond 10 ms).
	python3 - w.db <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for cell, pk, lo, by in db.execute(
        "select r.cell, (select value from metrics where run_id = r.id and name = 'packets'),"
        " (select value from metrics where run_id = r.id and name = 'lost_packets'),"
        " (select value from metrics where run_id = r.id and name = 'bytes')"
        " from runs r where r.status = 'ok' order by r.position"):
    load = float(json.loads(cell)["rate"].rstrip("M")) * 1e6
    recv = pk - lo
    sent = by / recv * pk * 8
    share = min(1, (sent + max(by / recv * 8, load * 0.01)) / (load * 2))
    loss = 1 - share * (1 - lo / pk)
    print("  step %5.0f Mbit/s: loss %.3f%% (lost %d of %d datagrams)" % (load / 1e6, loss * 100, lo, pk))
PY
}

case "${1:-model}" in
model) model ;;
lab) lab ;;
*) echo "usage: bench/search.sh model|lab" >&2; exit 2 ;;
esac
