#!/bin/bash
# SPDX-License-Identifier: MIT
# Plan scale: a plan of 1,000,000 runs (980 cells x repeat 1,021, two
# manual factors so the block ordering is exercised, warm-ups on) is
# validated, dry-run as JSON and as text; wall time and peak RSS of each.
# Usage: bash bench/plan-scale.sh [XRUN]   (default: ./build/xrun)
# Needs /usr/bin/time (Debian package `time`) for the peak RSS.
set -euo pipefail
XRUN=${1:-${XRUN:-./build/xrun}}
[ -x "$XRUN" ] || { echo "no xrun binary at '$XRUN'" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "install GNU time: apt-get install time" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

cat > "$dir/scale.yaml" <<'YAML'
xrun: 1
name: scale
title: "1,000,000 runs"
engine: { type: iperf3, target: 127.0.0.1, duration: 1s }
factors:
  nic:  { levels: [x550, aqc113], manual: "Fit the {{nic}} card" }
  slot: { levels: [pcie4x1, pcie3x1, pcie3x4, pcie4x4, pcie5x4],
          manual: "Move the card to {{slot}}" }
  streams: { levels: [1, 2, 4, 8, 16], param: parallel }
  cc:
    levels: [cubic, reno, bbr, htcp]
    apply: [sysctl, -w, "net.ipv4.tcp_congestion_control={{cc}}"]
  len: { levels: [1K, 8K, 64K, 128K, 256K], param: length }
exclude:
  - { nic: x550, slot: pcie5x4, streams: 16 }
repeat: 1021
warmup: 1
YAML

# Output goes to /dev/null (what is measured is xrun, not the disk); its
# size is measured by a separate run through wc.
measure() {
	local what=$1; shift
	/usr/bin/time -f "%e %U %M" -o "$dir/t" "$@" > /dev/null 2> "$dir/err" ||
		{ echo "$what failed:"; cat "$dir/err"; exit 1; }
	read -r secs user kb < "$dir/t"
	printf "%-20s %6.2f s wall  %6.2f s user  %7.1f MB peak RSS  %7.1f MB output\n" \
		"$what" "$secs" "$user" "$(echo "$kb / 1024" | bc -l)" \
		"$(echo "$("$@" 2>/dev/null | wc -c) / 1048576" | bc -l)"
}

echo "xrun: $XRUN ($("$XRUN" version))"
echo "runs: $("$XRUN" plan --json "$dir/scale.yaml" | python3 -c \
	'import json,sys; d=json.load(sys.stdin); print(d["total_runs"], "runs,", d["cells"], "cells,", d["manual_interventions"], "manual changes")')"
measure "xrun validate" "$XRUN" validate "$dir/scale.yaml"
measure "xrun plan --json" "$XRUN" plan --json "$dir/scale.yaml"
measure "xrun plan (text)" "$XRUN" plan "$dir/scale.yaml"

# The other extreme: 1,000,000 distinct cells, repeat 1 (expansion,
# exclusion checks, block grouping and the snake sort dominate; the text
# form cannot cache argv per cell).
lv() { seq -s, 1 "$1" | sed 's/^/[/; s/$/]/'; }
cat > "$dir/cells.yaml" <<YAML
xrun: 1
name: cells
engine: { type: iperf3, target: 127.0.0.1, duration: 1s }
factors:
  board: { levels: [a, b], manual: "Swap to board {{board}}" }
  x: { levels: $(lv 100), param: parallel }
  y: { levels: $(lv 100), param: port }
  z: { levels: $(lv 50) }
exclude:
  - { board: a, x: 1 }
YAML
echo
echo "runs: $("$XRUN" plan --json "$dir/cells.yaml" | python3 -c \
	'import json,sys; d=json.load(sys.stdin); print(d["total_runs"], "runs,", d["cells"], "cells,", d["manual_interventions"], "manual changes")')"
measure "xrun validate" "$XRUN" validate "$dir/cells.yaml"
measure "xrun plan --json" "$XRUN" plan --json "$dir/cells.yaml"
measure "xrun plan (text)" "$XRUN" plan "$dir/cells.yaml"
