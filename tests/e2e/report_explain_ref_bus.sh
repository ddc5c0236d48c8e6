#!/bin/bash
# SPDX-License-Identifier: MIT
# Published references state a USB link or a Wi-Fi PHY rate (conditions
# usb and wifi, schema/reference.md "Conditions for ceilings") and their
# cells get the ceilings a measured cell's facts set (schema/report.md,
# "Limits"). One row per level of `nic`, each with its own conditions;
# python3 below computes every ceiling from the formulas, not from xrun:
#   USB data rate: 2.0 13 * 512 * 8 * 8000 = 425.984 Mbit/s; Gen 1 5e9 *
#   8/10 per lane; Gen 2 10e9 * 128/132 per lane; over the frame at MTU
#   1500: data * 1448 / 1514. Line: link * 1448 / 1538. Wi-Fi: the rate.
# (The JSON report prints 10 significant digits: compared to 1e-9.)
#   usb2   (2.5G link on USB 2.0)        330: 330/407.414 = 0.8100  usb
#   usb2r  (the same as "480 Mb/s")      330: the same                 usb
#   usb5g  (5G link, USB 3.2 Gen 1)     3500: 3500/4707.41 = 0.7435 not
#          line; 3500/3825.63 = 0.9149                               usb
#   gen1x2 (10G link, USB 3.2 Gen 1x2)  7000: 7000/9414.82 = 0.7435;
#          7000/7651.25 = 0.9149 (Gen 1x2 is 8b/10b: not 9.70 Gbit/s) usb
#   gen2x2 (10G link, Gen 2x2)          9400: 9400/9414.82 = 0.9984 line
#   wifi   (866.7 Mbit/s, no link)       600: 600/866.7 = 0.6923   wifi
#   wifi_slow                            400: 400/866.7 = 0.4615   none
# The measured cell of usb5g runs at 9400 Mbit/s on a 10000 Mbit/s NIC:
# line-bound, so its sentence says the USB link is not the published one.
# Without mtu the USB ceilings are not used and "mtu" is named missing.
# Then bad values: an error at the field, exit 2.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need sqlite3 python3
xr_tmpdir T
cat >e.yaml <<'YAML'
xrun: 1
name: explain-ref-bus
engine:
  type: command
  timeout: 5s
  run: [sh, -c, 'case "$0" in usb5g|gen2x2) r=9400 ;; *) r=300 ;; esac; echo "rate $r"', "{{nic}}"]
  metrics:
    throughput: { regex: 'rate ([0-9.]+)', unit: Mbit/s }
factors:
  nic: { levels: [usb2, usb2r, usb5g, gen1x2, gen2x2, wifi, wifi_slow] }
repeat: 2
sample: off
YAML
cat >ref.csv <<'CSV'
# USB adapters and a Wi-Fi link, each stated per level of nic
format,2
title,USB and Wi-Fi ceilings
statistic,median
metric,throughput
unit,Mbit/s
condition,protocol,TCP
condition,mtu,1500
condition,link,2.5G,nic=usb2
condition,usb,USB 2.0,nic=usb2
condition,link,2.5G,nic=usb2r
condition,usb,480 Mb/s,nic=usb2r
condition,link,5G,nic=usb5g
condition,usb,USB 3.2 Gen 1,nic=usb5g
condition,link,10G,nic=gen1x2
condition,usb,USB 3.2 Gen 1x2,nic=gen1x2
condition,link,10G,nic=gen2x2
condition,usb,Gen 2x2,nic=gen2x2
condition,wifi,866.7 Mbit/s,nic=wifi
condition,wifi,866.7,nic=wifi_slow
nic,value
usb2,330
usb2r,330
usb5g,3500
gen1x2,7000
gen2x2,9400
wifi,600
wifi_slow,400
CSV
"$XRUN" run e.yaml --db e.db --quiet 2>run.err || { cat run.err; fail "run exit $?"; }
# The facts are set below in host_facts: the runs' own fact sets
# are dropped, so that the session's facts speak for them, as for
# a store from before fact sets (schema/store.md, "fact_sets").
sqlite3 e.db "delete from run_facts" || fail "run facts"
sqlite3 e.db "update host_facts set value = 'ixgbe' where key = 'nic_driver';
	update host_facts set value = '10000' where key = 'nic_link';
	update host_facts set value = '1500' where key = 'nic_mtu';
	update host_facts set value = 'pfifo_fast' where key = 'qdisc_root';
	delete from host_facts where key in ('nic_pcie_link', 'nic_usb_link',
		'nic_wifi_rate')" || fail "facts"
check() { # report.json reference.csv with-mtu
	python3 - "$@" <<'PY'
import csv, json, sys
f, ref, with_mtu = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
usb_data = {"USB 2.0": 13 * 512 * 8 * 8000, "480 Mb/s": 13 * 512 * 8 * 8000,
            "USB 3.2 Gen 1": 5e9 * 8 / 10, "USB 3.2 Gen 1x2": 2 * 5e9 * 8 / 10,
            "Gen 2x2": 2 * 10e9 * 128 / 132}
conds, vals = {}, {}
for r in csv.reader(l for l in open(ref) if not l.startswith("#")):
    if r and r[0] == "condition" and len(r) == 4:
        conds.setdefault(r[3].split("=")[1], {})[r[1]] = r[2]
    elif len(r) == 2 and r[0] != "nic" and r[0] in conds:
        vals[r[0]] = float(r[1]) * 1e6
want = {}
for lev, c in conds.items():
    v, cands = vals[lev], []
    line = float(c["link"][:-1]) * 1e9 * 1448 / 1538 if "link" in c and with_mtu else None
    if "usb" in c and with_mtu:
        cands.append(("usb", 0.75, usb_data[c["usb"]] * 1448 / 1514))
    if "wifi" in c:
        cands.append(("wifi", 0.5, float(c["wifi"].split()[0]) * 1e6))
    if line and 0.95 <= v / line <= 1.05:
        want[lev] = ("line", line)
        continue
    bound = [(k, cl) for k, s, cl in cands if s * cl <= v <= cl]
    want[lev] = bound[0] if bound else ("none", line)
    if not with_mtu and "usb" in c:
        want[lev] += ("mtu",)
rows = {w["label"]: w for w in json.load(open(f))["reference"]["rows"]}
bad = 0
for lev, w in want.items():
    l = rows["nic=" + lev]["limit"]
    kind, ceil = w[0], w[1]
    msg = []
    if l["kind"] != kind:
        msg.append("kind %s, want %s" % (l["kind"], kind))
    if ceil and (abs(l["ceiling"] - ceil) > 1e-9 * ceil or abs(l["fraction"] - vals[lev] / ceil) > 1e-9):
        msg.append("ceiling %r fraction %r, want %r %r" % (l["ceiling"], l["fraction"], ceil, vals[lev] / ceil))
    if not ceil and l["ceiling"] is not None:
        msg.append("ceiling %r, want none" % l["ceiling"])
    miss = w[2] if len(w) > 2 else None
    if miss and miss not in (l["missing_facts"] or ""):
        msg.append("missing %r, want %r" % (l["missing_facts"], miss))
    if msg:
        print("FAIL: %s: %s (%s)" % (lev, "; ".join(msg), l["text"]))
        bad += 1
    else:
        print("ok %s: %s %s" % (lev, kind, l["text"]))
if with_mtu:
    s = rows["nic=usb5g"]["limit"]["sentence"]
    if "USB-bound; measured 9.40 Gbit/s = 99.8% of" not in s or not s.endswith(
            "line-bound: your USB link is not the published one"):
        print("FAIL: sentence %r" % s); bad += 1
    if "wifi" not in [rows["nic=wifi"]["limit"]["kind"]] or rows["nic=wifi"]["limit"]["missing_facts"]:
        print("FAIL: a Wi-Fi row needs no link: %r" % rows["nic=wifi"]["limit"]); bad += 1
sys.exit(1 if bad else 0)
PY
}
"$XRUN" report --db e.db --reference ref.csv -o r.json 2>rep.err || { cat rep.err; fail "report exit $?"; }
check r.json ref.csv 1 || fail "published USB and Wi-Fi limits differ from the formulas"
sed '/^condition,mtu,/d' ref.csv >nomtu.csv
"$XRUN" report --db e.db --reference nomtu.csv -o n.json 2>rep.err || { cat rep.err; fail "report exit $?"; }
check n.json nomtu.csv 0 || fail "a USB condition without an MTU is used"
"$XRUN" report --db e.db --reference ref.csv -o r.md 2>rep.err || fail "md report"
grep -qF "nic=usb5g: published 3.50 Gbit/s = 74.4% of 4.71 Gbit/s (5G, TCP at MTU 1500); 3.50 Gbit/s = 91% of 3.83 Gbit/s (USB 3.2 Gen 1, TCP at MTU 1500): USB-bound; measured 9.40 Gbit/s" r.md ||
	fail "the md report lacks the published USB limit: $(grep published r.md | head -3)"
grep -qF "nic=wifi: published 0.600 Gbit/s = 69% of 0.867 Gbit/s (Wi-Fi PHY rate 866.7 Mbit/s (an estimate: the MAC carries less)): Wi-Fi-bound" r.md ||
	fail "the md report lacks the published Wi-Fi limit: $(grep 'nic=wifi' r.md | head -3)"
"$XRUN" report --db e.db --reference ref.csv --lang ja -o j.md 2>rep.err || fail "ja report"
grep -qF "（USB 3.2 Gen 1、MTU 1500 の TCP）の 91%: USB 律速; 実測値 " j.md &&
	grep -qF "USB 接続が公表時と異なります" j.md ||
	fail "the Japanese report lacks the published USB limit: $(grep 公表値 j.md | head -2)"
bad() { # want-text sed-expression
	sed "$2" ref.csv >bad.csv
	set +e
	"$XRUN" report --db e.db --reference bad.csv -o b.json 2>b.err
	local rc=$?
	set -e
	[ "$rc" = 2 ] || fail "$1: exit $rc, want 2"
	grep -qF "$1" b.err || fail "want '$1' in: $(cat b.err)"
	[ ! -e b.json ] || fail "$1: a report was written"
}
n=$(grep -n '^condition,usb,USB 3.2 Gen 1,' ref.csv | cut -d: -f1)
bad "bad.csv:$n:15: error: usb 'USB 3.1' is not a USB link" "${n}s/USB 3.2 Gen 1/USB 3.1/"
bad "bad.csv:$n:15: error: usb 'USB 3.1 Gen 1x2' is not a USB link" "${n}s/USB 3.2 Gen 1/USB 3.1 Gen 1x2/"
bad "bad.csv:$n:15: error: usb '8 GT/s' is not a USB link" "${n}s/USB 3.2 Gen 1/8 GT\/s/"
n=$(grep -n '^condition,wifi,866.7 Mbit/s,' ref.csv | cut -d: -f1)
bad "bad.csv:$n:16: error: wifi 'fast' is not a Wi-Fi PHY rate" "${n}s/866.7 Mbit\/s/fast/"
bad "bad.csv:$n:16: error: wifi '866 GT/s' is not a Wi-Fi PHY rate" "${n}s/866.7 Mbit\/s/866 GT\/s/"
echo "ok - published USB 2.0, 3.2 Gen 1 and Gen 1x2 cells USB-bound, Gen 2x2 at 9.4 line-bound, Wi-Fi at 69% of its PHY rate Wi-Fi-bound, at 46% none; no MTU: USB not used; bad values: errors at the field"
