#!/bin/bash
# SPDX-License-Identifier: MIT
# The USB and Wi-Fi rules of reports/explain (schema/report.md, "Limits")
# on a store whose host facts are set here, without a USB NIC or Wi-Fi: a
# command engine prints each cell's rate (330 or 250 Mbit/s; 600 or 400
# for Wi-Fi), then the host's facts become a 1000 Mbit/s r8152 at MTU 1500
# on a USB 2.0 link ("480 Mb/s (USB 2.10)", the nic_usb_link form that
# runner/host/nicrate.c writes). python3 computes what the report must say:
#   USB 2.0 data rate 13 * 512 * 8 * 8000 = 425984000 bit/s (USB 2.0
#   Table 5-10), TCP payload over the frame at MTU 1500:
#   425984000 * 1448 / 1514 = 407414023.778 bit/s
#   fast 330 Mbit/s: 0.80998685 >= 0.75 (EXPLAIN_USB_SHARE)  -> usb
#   slow 250 Mbit/s: 0.61362640 < 0.75                       -> none, the
#        cell's ceiling the line's 941482444.733 (0.26553867)
# Without nic_mtu the USB ceiling is not used and the report says the fact
# is missing. Then the USB fact is replaced by a Wi-Fi PHY rate, "tx 866.7
# Mbit/s, rx 780.0 Mbit/s", and no nic_link (a wireless interface has
# none): the ceiling is the higher rate, 866.7e6, an estimate;
#   fast 600 Mbit/s: 0.69228107 >= 0.5 (EXPLAIN_WIFI_SHARE)  -> wifi
#   slow 400 Mbit/s: 0.46152071 < 0.5                        -> none
# The Windows and macOS forms of the fact (runner/host/nicrate.c) give the
# same ceilings: 866.7e6, and 867e6 from macOS's rounded transmit rate.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need sqlite3 python3
xr_tmpdir T
cat >e.yaml <<'YAML'
xrun: 1
name: explain-bus
engine:
  type: command
  timeout: 5s
  run: [sh, -c, 'case "$0" in fast) r=$1 ;; *) r=$2 ;; esac; echo "rate $r"', "{{case}}", "{{fast}}", "{{slow}}"]
  metrics:
    throughput: { regex: 'rate ([0-9.]+)', unit: Mbit/s }
factors:
  case: { levels: [fast, slow] }
repeat: 2
sample: off
YAML
run_store() { # db fast slow
	sed "s/{{fast}}/$2/; s/{{slow}}/$3/" e.yaml >"$1.yaml"
	"$XRUN" run "$1.yaml" --db "$1" --quiet 2>run.err || { cat run.err; fail "run exit $?"; }
	# The facts are set below in host_facts: the runs' own fact sets
	# are dropped, so that the session's facts speak for them, as for
	# a store from before fact sets (schema/store.md, "fact_sets").
	sqlite3 "$1" "delete from run_facts" || fail "run facts"
	sqlite3 "$1" "update host_facts set value = 'r8152' where key = 'nic_driver';
		update host_facts set value = '1000' where key = 'nic_link';
		update host_facts set value = '1500' where key = 'nic_mtu';
		update host_facts set value = 'pfifo_fast' where key = 'qdisc_root';
		delete from host_facts where key in ('nic_pcie_link', 'nic_usb_link',
			'nic_wifi_rate')" || fail "facts"
	[ "$(sqlite3 "$1" "select count(*) from host_facts where key in ('nic_driver', 'nic_link', 'nic_mtu', 'qdisc_root')")" = 4 ] ||
		fail "the store has not the four facts to set: $(sqlite3 "$1" 'select key, value from host_facts')"
}
fact() { # db key value
	sqlite3 "$1" "insert into host_facts(session_id, host, key, value)
		select session_id, host, '$2', '$3' from host_facts
		where key = 'nic_mtu'" || fail "insert $2"
}
check() { # report.json fast slow kind ceiling share name missing
	python3 - "$@" <<'PY'
import json, sys
f, fast, slow, kind, ceil, share, name, missing = sys.argv[1:]
fast, slow, ceil, share = float(fast) * 1e6, float(slow) * 1e6, float(ceil), float(share)
line = 1e9 * (1500 - 52) / (1500 + 38)
bad = 0
for c in json.load(open(f))["cells"]:
    case = c["label"].split("=", 1)[1]
    l = c["limit"]
    med = fast if case == "fast" else slow
    msg = []
    bound = ceil > 0 and med >= share * ceil
    want = kind if bound else "none"
    if l["kind"] != want:
        msg.append("kind %s, want %s" % (l["kind"], want))
    if bound:
        if abs(l["ceiling"] - ceil) > 0.1 or abs(l["fraction"] - med / ceil) > 1e-9:
            msg.append("ceiling %r fraction %r, want %r %r" % (l["ceiling"], l["fraction"], ceil, med / ceil))
        if l["ceiling_name"] != name or name not in l["evidence"]["text"]:
            msg.append("ceiling_name %r, want %r in the evidence" % (l["ceiling_name"], name))
    elif kind == "usb" and ceil > 0 and abs(l["fraction"] - med / line) > 1e-9:
        msg.append("fraction %r, want the line's %r" % (l["fraction"], med / line))
    if (l["missing_facts"] or "") != missing:
        msg.append("missing_facts %r, want %r" % (l["missing_facts"], missing))
    if msg:
        print("FAIL: %s: %s (%s)" % (case, "; ".join(msg), l["text"]))
        bad += 1
sys.exit(1 if bad else 0)
PY
}
USB=$(python3 -c 'print(repr(13 * 512 * 8 * 8000 * 1448 / 1514))')
run_store u.db 330 250
fact u.db nic_usb_link '480 Mb/s (USB 2.10)'
"$XRUN" report --db u.db -o u.json 2>rep.err || { cat rep.err; fail "report exit $?"; }
check u.json 330 250 usb "$USB" 0.75 "USB 480 Mb/s (USB 2.10) on local, TCP at MTU 1500" "" ||
	fail "the USB 2.0 ceiling"
sqlite3 u.db "delete from host_facts where key in ('nic_mtu', 'nic_link')" || fail "no mtu"
"$XRUN" report --db u.db -o m.json 2>rep.err || { cat rep.err; fail "report exit $?"; }
check m.json 330 250 usb 0 0.75 "" "nic_mtu of local" ||
	fail "a USB link without an MTU is not used"
run_store w.db 600 400
sqlite3 w.db "delete from host_facts where key = 'nic_link'" || fail "no link"
fact w.db nic_wifi_rate 'tx 866.7 Mbit/s, rx 780.0 Mbit/s'
"$XRUN" report --db w.db -o w.json 2>rep.err || { cat rep.err; fail "report exit $?"; }
check w.json 600 400 wifi 866.7e6 0.5 \
	"Wi-Fi PHY rate 866.7 Mbit/s on local (an estimate: the MAC carries less)" "" ||
	fail "the Wi-Fi estimate"
# the same rate as Windows (netsh, with the radio type) and macOS (the
# transmit rate only) write it: 600/866.7 = 0.69228 and 600/867 = 0.69204
sqlite3 w.db "update host_facts set value = 'tx 866.7 Mbit/s, rx 780.0 Mbit/s (802.11ac)' where key = 'nic_wifi_rate'" || fail "windows form"
"$XRUN" report --db w.db -o ww.json 2>rep.err || { cat rep.err; fail "report exit $?"; }
check ww.json 600 400 wifi 866.7e6 0.5 \
	"Wi-Fi PHY rate 866.7 Mbit/s on local (an estimate: the MAC carries less)" "" ||
	fail "the Wi-Fi estimate from netsh's form"
sqlite3 w.db "update host_facts set value = 'tx 867.0 Mbit/s (802.11ac)' where key = 'nic_wifi_rate'" || fail "macos form"
"$XRUN" report --db w.db -o wm.json 2>rep.err || { cat rep.err; fail "report exit $?"; }
check wm.json 600 400 wifi 867e6 0.5 \
	"Wi-Fi PHY rate 867.0 Mbit/s on local (an estimate: the MAC carries less)" "" ||
	fail "the Wi-Fi estimate from system_profiler's form"
echo "ok - usb at >= 75% of the USB 2.0 bulk rate over the frame, wifi at >= 50% of the PHY rate; none below; no MTU: not used, said missing"
