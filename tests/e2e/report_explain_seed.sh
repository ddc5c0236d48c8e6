#!/bin/bash
# SPDX-License-Identifier: MIT
# Seed check (issue 25, Deliver 4 and 6): samples/seed001-pcie-slots.csv
# states its conditions (10GBASE-T, MTU 1500, the effective PCIe link per
# slot), and each published cell gets the ceilings they set. python3
# computes them here from the same formulas (schema/report.md, "Limits"):
#   10GBASE-T TCP goodput at MTU 1500: 10e9 * (1500 - 52) / (1500 + 38)
#   PCIe raw: GT/s * lanes * 128/130 (3.0: 8 GT/s, 4.0: 16 GT/s)
# line when 0.95 <= published / goodput <= 1.05, else bus (pcie) when
# 0.75 <= published / raw <= 1, else none. Expected: every 9.4-ish row
# (>= 9.28) line-bound, every PCIe 3.0 x1 row at 6.2 bus-bound (78-79% of
# 7.877 Gbit/s), and 4.73, 7.89, 6.82 and 5.19 (Windows at 1-2 streams:
# 66% of PCIe 3.0 x1 and below) none. A measured cell of the pcie3x1 slot
# at 9.40 Gbit/s on a 10000 Mbit/s NIC is line-bound: the sentence says
# the slot is not the published one. Then bad conditions: file:line:col.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need sqlite3 python3
xr_tmpdir T
REF="$XRUN_SOURCE_DIR/samples/seed001-pcie-slots.csv"
cat >e.yaml <<'YAML'
xrun: 1
name: explain-seed
engine:
  type: command
  timeout: 5s
  run: [sh, -c, 'echo "rate 9400"']
  metrics:
    throughput: { regex: 'rate ([0-9.]+)', unit: Mbit/s }
factors:
  os: { levels: [ubuntu2604] }
  nic: { levels: [lgy-pcie-mg3] }
  slot: { levels: [pcie3x1, pcie4x1] }
  streams: { levels: ["4"] }
repeat: 2
sample: off
YAML
"$XRUN" run e.yaml --db e.db --quiet 2>run.err || { cat run.err; fail "run exit $?"; }
# The facts are set below in host_facts: the runs' own fact sets
# are dropped, so that the session's facts speak for them, as for
# a store from before fact sets (schema/store.md, "fact_sets").
sqlite3 e.db "delete from run_facts" || fail "run facts"
sqlite3 e.db "update host_facts set value = 'atlantic' where key = 'nic_driver';
	update host_facts set value = '10000' where key = 'nic_link';
	update host_facts set value = '1500' where key = 'nic_mtu';
	update host_facts set value = 'pfifo_fast' where key = 'qdisc_root';
	delete from host_facts where key = 'nic_pcie_link'" || fail "facts"
"$XRUN" report --db e.db --reference "$REF" -o r.json 2>rep.err ||
	{ cat rep.err; fail "report exit $?"; }
python3 - r.json "$REF" <<'PY' || fail "published limits differ from the formulas"
import csv, json, sys
line = 10e9 * (1500 - 52) / (1500 + 38)
raw = {"pcie3x4": 8e9 * 4 * 128 / 130, "pcie4x1": 16e9 * 128 / 130,
       "pcie3x1": 8e9 * 128 / 130}
rows = [r for r in csv.reader(open(sys.argv[2])) if r and len(r) == 5
        and not r[0].startswith("#") and r[0] != "os"]
assert len(rows) == 24, len(rows)
want = {}
for os_, nic, slot, streams, v in rows:
    v = float(v) * 1e9
    if 0.95 <= v / line <= 1.05:
        k, f = "line", v / line
    elif 0.75 <= v / raw[slot] <= 1:
        k, f = "pcie", v / raw[slot]
    else:
        k, f = "none", v / line
    want["os=%s, nic=%s, slot=%s, streams=%s" % (os_, nic, slot, streams)] = (k, f, v)
got = {w["label"]: w["limit"] for w in json.load(open(sys.argv[1]))["reference"]["rows"]}
bad = 0
for lab, (k, f, v) in want.items():
    l = got.get(lab)
    if not l or l["kind"] != k or abs(l["fraction"] - f) > 1e-9:
        print("FAIL: %s: %r, want kind %s fraction %r" % (lab, l, k, f)); bad += 1
tally = {}
for k, f, v in want.values():
    tally[k] = tally.get(k, 0) + 1
# the seed's reading: 9.4 rows line-bound, the 6.2 rows of PCIe 3.0 x1 bus-bound
if tally != {"line": 13, "pcie": 7, "none": 4}:
    print("FAIL: tally %r" % tally); bad += 1
for lab, (k, f, v) in want.items():
    if v >= 9.28e9 and k != "line" or "pcie3x1" in lab and v < 6.5e9 and v > 6e9 and k != "pcie":
        print("FAIL: %s is %s" % (lab, k)); bad += 1
s = got["os=ubuntu2604, nic=lgy-pcie-mg3, slot=pcie3x1, streams=4"]["sentence"]
if "bus-bound; measured 9.40 Gbit/s = 99.8% of" not in s or not s.endswith(
        "line-bound: your PCIe slot is not the published one"):
    print("FAIL: sentence %r" % s); bad += 1
print("tally", tally)
sys.exit(1 if bad else 0)
PY
"$XRUN" report --db e.db --reference "$REF" -o r.md 2>rep.err || fail "md report"
grep -qF "os=ubuntu2604, nic=lgy-pcie-mg3, slot=pcie3x1, streams=4: published 6.18 Gbit/s = 65.6% of 9.41 Gbit/s (10GBASE-T, TCP at MTU 1500); 6.18 Gbit/s = 78% of 7.88 Gbit/s (PCIe 3.0 x1 (raw)): bus-bound; measured 9.40 Gbit/s" r.md ||
	fail "the md report lacks the published limit line: $(grep published r.md | head -3)"
"$XRUN" report --db e.db --reference "$REF" --lang ja -o j.md 2>rep.err || fail "ja report"
grep -qF "公表値 6.18 Gbit/s = 9.41 Gbit/s（10GBASE-T、MTU 1500 の TCP）の 65.6%; 6.18 Gbit/s = 7.88 Gbit/s（PCIe 3.0 x1（生の速度））の 78%: バス律速; 実測値 " j.md &&
	grep -qF "PCIe スロットが公表時と異なります" j.md ||
	fail "the Japanese report lacks the published limit: $(grep 公表値 j.md | head -2)"
# the PDF (read back with pdftotext) and the HTML carry the same line
if command -v pdftotext >/dev/null; then
	"$XRUN" report --db e.db --reference "$REF" -o r.pdf 2>rep.err || fail "pdf report"
	pdftotext r.pdf - | tr -s ' \n' '  ' >r.txt
	grep -qF "slot=pcie3x1, streams=4: published 6.18 Gbit/s = 65.6% of 9.41 Gbit/s (10GBASE-T, TCP at MTU 1500); 6.18 Gbit/s = 78% of 7.88 Gbit/s (PCIe 3.0 x1 (raw)): bus-bound; measured 9.40 Gbit/s = 99.8% of 9.41 Gbit/s (10000 Mbit/s Ethernet on local, TCP at MTU 1500): line-bound: your PCIe slot is not the published one" r.txt ||
		fail "the PDF lacks the published limit line"
elif [ "${CI:-}" = true ]; then
	fail "pdftotext missing"
fi
"$XRUN" report --db e.db --reference "$REF" -o r.html 2>rep.err || fail "html report"
[ "$(grep -c 'class="published"' r.html)" = 24 ] || fail "the HTML has not 24 published limit lines"
# bad conditions: an error at the field, exit 2, no report
bad() { # want-text sed-expression
	sed "$2" "$REF" >bad.csv
	set +e
	"$XRUN" report --db e.db --reference bad.csv -o b.json 2>b.err
	local rc=$?
	set -e
	[ "$rc" = 2 ] || fail "$1: exit $rc, want 2"
	grep -qF "$1" b.err || fail "want '$1' in: $(cat b.err)"
	[ ! -e b.json ] || fail "$1: a report was written"
}
n=$(grep -n '^condition,pcie,3.0 x1,slot=pcie3x1$' "$REF" | cut -d: -f1)
bad "bad.csv:$n:23: error: condition scope 'slot' is not 'FACTOR=LEVEL'" "${n}s/slot=pcie3x1/slot/"
bad "bad.csv:$n:23: error: condition scope 'bus' is not a factor column" "${n}s/slot=/bus=/"
bad "bad.csv:$n:16: error: pcie 'Gen7 x1' is not a PCIe link" "${n}s/3.0 x1/Gen7 x1/"
n=$(grep -n '^condition,link,' "$REF" | cut -d: -f1)
bad "bad.csv:$n:16: error: link 'fast' is not a link speed" "${n}s/10GBASE-T/fast/"
echo "ok - seed 001's published cells: 13 line-bound, 7 bus-bound (PCIe 3.0 x1 at 6.2), 4 none; the measured pcie3x1 cell line-bound: not the published slot"
