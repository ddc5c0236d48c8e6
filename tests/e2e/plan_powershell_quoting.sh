#!/bin/bash
# SPDX-License-Identifier: MIT
# `xrun plan` shows each hook quoted for the shell of the host it runs on
# (issue 20): PowerShell quoting ('...' with '' inside, the call operator
# before a quoted command word, ',' '$' '@' never bare) on a
# `shell: powershell` / `os: windows` host, POSIX sh quoting elsewhere, so
# that a line can be pasted into the shell it will run in.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_tmpdir T
out=$("$XRUN" plan "$XRUN_SOURCE_DIR/plans/win-tuning.yaml") || fail "xrun plan win-tuning: exit $?"
grep -qF "apply rxbuf: powershell -NoProfile -NonInteractive -Command 'Set-NetAdapterAdvancedProperty -InterfaceDescription ''Realtek Gaming 10GbE Family Controller''" <<<"$out" ||
	fail "win-tuning hooks not in PowerShell quoting: $(grep -m1 'apply rxbuf' <<<"$out")"
grep -qF "'\\''" <<<"$out" && fail "POSIX quoting left in a Windows plan: $(grep -m1 -F "'\\''" <<<"$out")"
cat >q.yaml <<'YAML'
xrun: 1
name: q
hosts:
  win: { ssh: "me@pc.example", shell: powershell }
  lin: { ssh: "me@linux.example" }
engine: { type: iperf3, client: win, server: lin, duration: 1s }
factors:
  a:
    levels: [x]
    apply: ["C:\\Program Files\\tool.exe", "a,b", "$env:X", "it's"]
    restore: ["C:\\Program Files\\tool.exe", reset]
  b:
    levels: [y]
    apply: [sh, -c, "echo it's"]
    on: [lin]
sample: off
YAML
out=$("$XRUN" plan q.yaml) || fail "xrun plan q: exit $?"
grep -qF "apply a: & 'C:\\Program Files\\tool.exe' 'a,b' '\$env:X' 'it''s'  (on win)" <<<"$out" ||
	fail "PowerShell words: $(grep 'apply a' <<<"$out")"
grep -qF "restore a: & 'C:\\Program Files\\tool.exe' reset" <<<"$out" ||
	fail "restore on a Windows host: $(grep 'restore a' <<<"$out")"
grep -qF "apply b: sh -c 'echo it'\\''s'  (on lin)" <<<"$out" ||
	fail "POSIX host keeps sh quoting: $(grep 'apply b' <<<"$out")"
# the engine's command on a Windows client too (seed 004's robocopy plan)
"$XRUN" validate "$XRUN_SOURCE_DIR/plans/nas-copy-windows.yaml" >/dev/null || fail "nas-copy-windows.yaml does not validate"
out=$("$XRUN" plan "$XRUN_SOURCE_DIR/plans/nas-copy-windows.yaml") || fail "xrun plan nas-copy-windows: exit $?"
grep -qF "powershell -NoProfile -NonInteractive -Command '\$ErrorActionPreference = ''Stop''; \$p = Get-Content" <<<"$out" ||
	fail "engine command on a Windows client not in PowerShell quoting: $(grep -m1 'Get-Content' <<<"$out")"
[ "$(grep -c "verify signing:" <<<"$out")" -ge 3 ] || fail "nas-copy-windows: three verify entries not shown"
echo "ok: xrun plan quotes hooks for the shell of their host"
