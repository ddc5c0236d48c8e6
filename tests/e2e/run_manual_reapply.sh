#!/bin/bash
# SPDX-License-Identifier: MIT
# A manual step (a reboot, another card) may undo a setting: the apply
# hooks of automatic factors run again at the start of every manual block,
# even when their level did not change; `xrun plan` shows it too.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need script
FAULT="$XRUN_SOURCE_DIR/tests/e2e/lib/fault_engine.sh"
xr_tmpdir T
cat >m.yaml <<YAML
xrun: 1
name: m
vars: { state: $T/state }
engine:
  type: command
  timeout: 5s
  run: [sh, "$FAULT", values]
  metrics:
    throughput: { json: /rate_MBps, unit: MB/s }
factors:
  os: { levels: [a, b], manual: "Boot into {{os}}" }
  cc:
    levels: [reno]
    apply: [sh, -c, 'printf %s "\$1" > "\$2"', sh, "{{cc}}", "{{state}}"]
    verify: { run: [cat, "{{state}}"] }
repeat: 2
sample: off
YAML
"$XRUN" plan m.yaml >plan.txt
[ "$(grep -c 'apply cc' plan.txt)" = 2 ] || fail "xrun plan: apply not shown in each block: $(cat plan.txt)"
# The "reboot" between the blocks wipes the setting: once the first
# block's two runs are stored (a fixed sleep raced them on a loaded
# machine, where reading the facts again after the apply hook takes a
# while), then Enter for the second block.
first_block() {
	for _ in $(seq 300); do
		[ "$(sqlite3 m.db "select count(*) from runs where status='ok'" 2>/dev/null)" = 2 ] && return
		sleep 0.1
	done
}
(sleep 1; printf '\n'; first_block; rm -f "$T/state"; printf '\n'; sleep 1.5) |
	script -qfc "'$XRUN' run m.yaml" tty.log >/dev/null 2>&1 || true
[ "$(sqlite3 m.db "select count(*) from runs where status='ok'")" = 4 ] || fail "not all runs ok: $(tr '\r' '\n' <tty.log)"
[ "$(sqlite3 m.db "select count(*) from hooks where kind='apply'")" = 2 ] ||
	fail "apply hooks: $(sqlite3 m.db "select kind, level from hooks")"
[ "$(sqlite3 m.db "select count(*) from verifications where ok=1")" = 4 ] ||
	fail "verifications: $(sqlite3 m.db "select * from verifications")"
echo "ok: apply hooks again after a manual step"
