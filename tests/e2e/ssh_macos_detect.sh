#!/bin/bash
# SPDX-License-Identifier: MIT
# A Mac reached with `ssh:` alone (no `os:` in the plan): xrun asks `uname
# -s`, gets Darwin and runs the macOS commands for probes, counters and
# host facts, through a real sshd on loopback (tests/e2e/lib/sshd.sh).
# The "Mac" is this machine with stand-in uname, sw_vers, sysctl,
# ifconfig, networksetup, system_profiler, netstat and ps first on the
# PATH of the ssh session (a forced command in authorized_keys sets it),
# printing the recordings of tests/data/macos. Needs root.
set -u
[ "$(id -u)" = 0 ] || { echo "skip: needs root to run a test sshd"; exit 77; }
command -v sqlite3 >/dev/null || { echo "skip: sqlite3 not installed"; exit 77; }
. "$XRUN_SOURCE_DIR/tests/e2e/lib/sshd.sh"
T=$(mktemp -d)
trap 'xr_sshd_stop; rm -rf "$T"' EXIT
xr_sshd_start "$T" || exit 77
cd "$T"
fail() { echo "FAIL: $*" >&2; exit 1; }
q() { sqlite3 "$1" "$2"; }
D=$XRUN_SOURCE_DIR/tests/data/macos

# section NAME of a recording
sec() { awk -v s="@@ $2" '$0 == s {on=1; next} /^@@ / {on=0} on' "$1"; }
mkdir fake
sec "$D/system.txt" sw_vers >fake/sw_vers.out
sec "$D/system.txt" sysctl >fake/sysctl.out
sec "$D/nic_usb.txt" ifconfig >fake/ifconfig.out
sec "$D/nic_usb.txt" hardwareports >fake/networksetup.out
sec "$D/nic_usb.txt" ethernet >fake/system_profiler.out
sec "$D/counters_after.txt" netstat-if >fake/netstat-I.out
sec "$D/counters_after.txt" tcpstats >fake/netstat-s.out
sec "$D/counters_after.txt" procs >fake/ps.out
for t in sw_vers sysctl networksetup system_profiler ps; do
	printf '#!/bin/sh\ncat %s/fake/%s.out\n' "$T" "$t" >fake/$t
done
printf '#!/bin/sh\n[ "$1" = en7 ] || exit 1\ncat %s/fake/ifconfig.out\n' "$T" >fake/ifconfig
printf '#!/bin/sh\ncase $1 in -I) cat %s/fake/netstat-I.out;; -s) cat %s/fake/netstat-s.out;; esac\n' "$T" "$T" >fake/netstat
printf '#!/bin/sh\ncase $1 in -s) echo Darwin;; -r) echo 23.4.0;; *) echo mac-mini.local;; esac\n' >fake/uname
chmod 755 fake/*
# every session of this key runs with the stand-ins first on its PATH
sed -i "s|^|command=\"PATH=$T/fake:\$PATH; eval \\\\\"\$SSH_ORIGINAL_COMMAND\\\\\"\" |" \
	"$XR_SSHD_DIR/authorized_keys"
ssh -p "$XR_SSHD_PORT" -i "$XR_SSHD_KEY" $XR_SSH_OPTS -o BatchMode=yes \
	"$XR_SSHD_USER@127.0.0.1" uname -s | grep -qx Darwin ||
	fail "the stand-in uname is not on the session's PATH"

cat >mac.yaml <<EOF
xrun: 1
name: mac-detect
hosts:
  mac: $XR_SSHD_YAML
engine:
  type: command
  client: mac
  timeout: 20s
  run: [sh, -c, 'echo "rate 42"']
  metrics:
    throughput: { regex: 'rate ([0-9]+)', unit: bit/s }
vars: { iface: en7 }
factors:
  os:
    levels: [sonoma]
    verify: { probe: os.release, expect: "macOS 14.4.1 (23E224)" }
    on: [mac]
  link:
    levels: ["2500Mb/s"]
    verify: { probe: nic.link_speed, expect: "{{link}}" }
    on: [mac]
counters: [nic, tcp, capture]
sample: off
EOF
sed -i "s|^  mac: {|  mac: { iface: en7, |" mac.yaml
"$XRUN" run mac.yaml --db mac.db --unattended 2>mac.err ||
	{ cat mac.err; fail "mac plan exit $?"; }
[ "$(q mac.db "select count(*) from verifications where ok=1")" = 2 ] ||
	fail "verify with the macOS probes: $(q mac.db "select * from verifications")"
[ "$(q mac.db "select value from host_facts where host='mac' and key='os_release'")" = "macOS 14.4.1 (23E224)" ] ||
	fail "facts: $(q mac.db "select key, value from host_facts where host='mac'")"
[ "$(q mac.db "select value from host_facts where host='mac' and key='cpu_model'")" = "Apple M2" ] ||
	fail "cpu_model fact from sysctl"
[ "$(q mac.db "select count(*) from counters where host='mac' and scope='tcp' and name='RetransSegs'")" = 1 ] ||
	fail "tcp counters from netstat -s: $(q mac.db "select scope, name, value from counters")"
[ "$(q mac.db "select count(*) from counters where host='mac' and scope='nic' and name='rx_bytes'")" = 1 ] ||
	fail "nic counters from netstat -I: $(q mac.db "select scope, name, value from counters")"
[ "$(q mac.db "select count(*) from counters where host='mac' and scope='capture' and name='tcpdump'")" = 1 ] ||
	fail "capture from ps: $(q mac.db "select scope, name, value from counters")"
echo "ok: an ssh host answering Darwin got the macOS commands"
