#!/bin/bash
# SPDX-License-Identifier: MIT
# A Japanese report is Japanese except names and units (issue 35: "on pc,
# TCP at MTU 1500", "forward" and "vs" were left in sentences). Every
# sentence kind a report writes is generated here in `--lang ja` from
# small stores, and its Markdown is read word by word: an ASCII word must
# be a name (plan, factor, level, host, metric, flag code, engine, fact
# key or value, condition value, a run's stored reason: all read back
# from the report's JSON) or on the whitelist below (units, protocols,
# methods and tools by their names), else the test fails naming it.
# Stores and the sentences they make:
#  - kinds: six levels against a baseline, one of each verdict (better,
#    worse, equivalent, not significant, different): findings and
#    comparison lines, the method paragraph, the multiplicity note;
#  - seq: sequential order: a refused comparison and its reasons;
#  - fail: failed and timed-out runs with their reasons, too few runs;
#  - kinds edited by SQL: an interrupted session, and host facts that set
#    each ceiling the limits name (Ethernet, tbf, htb, policers on both
#    hooks, PCIe, USB, Wi-Fi) and a missing MTU;
#  - why there is no comparison (issue 35): factors nested by exclusions
#    (nest), declared comparisons left one level or no baseline (decl),
#    no factor with two levels (three), no factor (none); declared
#    metrics without values: a series never sampled, one sampled on
#    another host, one before the engine's run (gaps), a regex that never
#    matched (nomatch).
# `counters: none`: what this machine's TCP counters did meanwhile (a
# retransmission under load) is no sentence kind of the test's.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need python3 sqlite3
xr_tmpdir dir

cat >gen.sh <<'SH'
# level rep: a base, +10%, -10%, the same, noisy, +2% (see the header)
r=$2
case $1 in
a | d) v=$((1700 + r % 2 * 17)) ;;
b) v=$((1870 + r % 2 * 17)) ;;
c) v=$((1530 + r % 2 * 17)) ;;
e) set -- 1615 1802 1564 1836 1632 1768 && eval "v=\${$r}" ;;
f) v=$((1725 + r % 3 * 17)) ;;
esac
echo "result: $v"
SH
plan() { # NAME LEVELS ORDER RUN-ARGS [EXTRA-YAML]
	cat >"$1.yaml" <<YAML
xrun: 1
name: $1
engine:
  type: command
  run: $4
  timeout: 2
  metrics:
    throughput: { regex: "result: ([0-9]+)", unit: Mbit/s }
factors:
  x: { levels: [$2] }
repeat: 6
order: $3
sample: off
counters: none
${5:-}
YAML
	"$XRUN" run "$1.yaml" --db "$1.db" --quiet --unattended --yes \
		>"$1.out" 2>&1 || true
}
plan kinds "a, b, c, d, e, f" random '[sh, ./gen.sh, "{{x}}", "{{rep}}"]' \
	"report:
  compare: [ { factor: x, baseline: a } ]"
plan seq "a, b" sequential '[sh, ./gen.sh, "{{x}}", "{{rep}}"]'
plan fail "a, b" random \
	'[sh, -c, "[ $0 = a ] && sleep 5; echo connect: Connection refused >&2; exit 1", "{{x}}"]'
# no comparison, each reason; declared metrics without values
small() { # NAME FACTORS-YAML [EXTRA-YAML] [RUN]
	local run='[sh, -c, "echo result: 100; echo xrun-interval 0 1 90"]'
	[ $# -lt 4 ] || run=$4
	cat >"$1.yaml" <<YAML
xrun: 1
name: $1
hosts:
  peer: { ssh: peer.invalid }
engine:
  type: command
  run: $run
  metrics:
    throughput: { regex: "result: ([0-9]+)", unit: Mbit/s }
${3:-}
$2
repeat: 1
sample: off
counters: none
YAML
	"$XRUN" run "$1.yaml" --db "$1.db" --quiet --unattended \
		>"$1.out" 2>&1 || true
}
small nest "factors:
  nic: { levels: [x520, x710] }
  slot: { levels: [p3, p4] }
exclude:
  - { nic: x520, slot: p4 }
  - { nic: x710, slot: p3 }"
small decl "factors:
  nic: { levels: [a, b] }
  proto: { levels: [tcp, udp, sctp] }
exclude:
  - { nic: b }
  - { proto: tcp }
report:
  compare:
    - { factor: nic }
    - { factor: proto, baseline: tcp }
    - { a: { nic: b }, b: { nic: a } }"
small three "factors:
  x: { levels: [a, b, c] }
  os: { levels: [linux] }"
small none ""
small gaps "factors:
  x: { levels: [a] }" \
	"    typo: { series: engine.thruput, host: client, stat: max }
    far: { series: engine.throughput, host: peer, stat: max }"
small early "factors:
  x: { levels: [a] }" \
	"    early: { series: engine.throughput, host: client, stat: max }" \
	'[sh, -c, "echo result: 100; echo xrun-interval -2 -1 9"]'
small nomatch "factors:
  x: { levels: [a] }" "    latency: { regex: \"latency ([0-9]+)\" }"

[ "$(sqlite3 fail.db "select group_concat(distinct status) from runs")" = \
	"timeout,failed" ] || [ "$(sqlite3 fail.db \
	"select count(distinct status) from runs")" = 2 ] ||
	fail "the fail plan should time out and fail: $(cat fail.out)"

# kinds with one run pending and the session left running: interrupted
cp kinds.db stopped.db
sqlite3 stopped.db "update runs set status = 'pending', started_at = null,
	ended_at = null where id = (select max(id) from runs);
	update sessions set status = 'running', ended_at = null"
# kinds with host facts that set each ceiling (one store each)
facts() { # NAME KEY=VALUE...
	local n=$1 kv
	shift
	cp kinds.db "$n.db"
	# the session's facts and every fact set the runs held under
	# (run_facts: the explanations read these)
	sqlite3 "$n.db" "update host_facts set value = 'e1000e'
		where key = 'nic_driver'; delete from host_facts
		where key in ('nic_link', 'qdisc_root', 'nic_mtu');
		update fact_values set value = 'e1000e' where key = 'nic_driver';
		delete from fact_values
		where key in ('nic_link', 'qdisc_root', 'nic_mtu')"
	for kv in "$@"; do
		sqlite3 "$n.db" "insert into host_facts (session_id, host, key,
			value) select 1, 'local', '${kv%%=*}', '${kv#*=}';
			insert into fact_values (set_id, key, value)
			select id, '${kv%%=*}', '${kv#*=}' from fact_sets
			where host = 'local'"
	done
	[ "$(sqlite3 "$n.db" "select count(*) from run_facts")" -gt 0 ] ||
		fail "$n.db: no run_facts (the explanations read each run's set)"
}
# (cells of 1.53 to 1.87 Gbit/s: each ceiling near enough to be named)
facts eth nic_link=2000Mb/s nic_mtu=1500
facts tbf nic_mtu=1500 'qdisc_root=tbf 1900000000 burst 1540'
facts htb nic_mtu=1500 'qdisc_root=htb 1900000000'
facts egress nic_mtu=1500 \
	'police_egress=1800000000 overhead 0 linklayer ethernet: x'
facts ingress nic_mtu=1500 \
	'police_ingress=1900000000 overhead 4 linklayer atm: x'
facts pcie nic_mtu=1500 'nic_pcie_link=2.5 GT/s x1'
facts wifi nic_mtu=1500 'nic_wifi_rate=tx 2400.0 Mbit/s, rx 2000.0 Mbit/s'
facts nomtu nic_link=2000Mb/s
# USB 2.0's 480 Mb/s carries about 0.41 Gbit/s: cells scaled to 0.34-0.41
facts usb nic_mtu=1500 'nic_usb_link=480 Mb/s (high_speed)'
sqlite3 usb.db "update metrics set value = value * 0.22"

cat >scan.py <<'PY'
# scan.py NAME...: the ASCII words of each NAME.md that are neither names
# (from NAME.json) nor on the whitelist, with the line they are on.
import json, re, sys

def scan(n):
    md = open(n + ".md").read()
    d = json.load(open(n + ".json"))
    names = set()
    def add(s):
        if isinstance(s, str):
            names.update(re.findall(r"[A-Za-z][A-Za-z0-9_]*", s))
    for k in ("plan", "title", "metric", "unit", "display_unit"):
        add(d.get(k))
    for f in d["factors"]:
        add(f["name"])
        for v in f["levels"]:
            add(v)
    for h in d["hosts"]:
        add(h)
    for x in d["host_facts"]:
        add(x["key"]); add(x["value"])
    for x in d["conditions"]:
        for v in x.get("values", []):
            add(v.get("value"))
    for x in d["notes"]:
        add(x["code"])
    for u in d["run_values"]:
        add(u.get("reason"))
    for g in d["declared_no_values"]:
        for k in ("metric", "series", "host", "detail"):
            add(g.get(k))
        for v in g["nearest"]:
            add(v)
    for c in d["cells"]:
        add(c.get("engine"))
    # Names of units, protocols, methods, tools and options, as a Japanese
    # benchmark article writes them.
    allow = set("""
    bit kbit Mbit Gbit Tbit B KiB MiB GiB kB MB GB s ms us ns UTC GT Gb Mb
    TCP UDP MTU CPU DPC NIC PCIe USB Wi Fi PHY MAC RTT OS Ethernet PAUSE
    qdisc tbf htb softirq iperf iperf3 xrun cwnd snd_wnd ABBA
    HC2 HC3 TOST Welch Bell McCaffrey Hodges Lehmann Mann Whitney holm adjust
    ln exp p n b t y y_A y_B x CI p95 SI A B k
    report compare accept sequential baseline a only
    """.split())
    bad = {}
    for no, line in enumerate(md.splitlines(), 1):
        t = re.sub(r"\]\([^)]*\)", "]", line)        # image and link targets
        t = re.sub(r"`[^`]*`", "", t)                  # code spans
        for w in re.findall(r"(?<![\w.])[A-Za-z][A-Za-z0-9_]*", t):
            if re.search(r"\d", w) and re.fullmatch(r"[0-9a-f]{12,}", w):
                continue
            if w in allow or w in names or re.fullmatch(r"[0-9a-f]{12}", w):
                continue
            if re.fullmatch(r"[a-z0-9]+(_[a-z0-9]+)+", w):
                continue  # a key: a fact, metric, series or flag code
            bad.setdefault(w, no)
    for w, no in sorted(bad.items(), key=lambda x: x[1]):
        print("%s.md:%d: '%s' in: %s" % (n, no, w, md.splitlines()[no - 1][:160]))
    return len(bad)

sys.exit(1 if sum(scan(n) for n in sys.argv[1:]) else 0)
PY
leaks=0
stores="kinds seq fail stopped eth tbf htb egress ingress pcie usb wifi nomtu
	nest decl three none gaps early nomatch"
for n in $stores; do
	for f in md json; do
		"$XRUN" report --db "$n.db" --lang ja -o "$n.$f" 2>"$n.err" ||
			fail "report $n.$f: $(cat "$n.err")"
	done
done
# shellcheck disable=SC2086
python3 scan.py $stores || leaks=$((leaks + 1))
# what the stores were for: each sentence kind is in some report
need() { # FILE TEXT WHAT
	grep -qF -- "$2" "$1" && echo "ok - $3" || {
		echo "FAIL: $3: no '$2' in $1"
		leaks=$((leaks + 1))
	}
}
for v in 改善 悪化 同等 有意差なし 差あり; do
	need kinds.md "$v" "a finding with verdict $v"
done
need kinds.md "## 方法" "the method after the results"
need seq.md "比較不可" "a refused comparison"
need fail.md "試行が失敗: exited with status 1" "failed runs with their reason"
need fail.md "試行がタイムアウト" "timed-out runs"
need stopped.md "**中断: 35 / 36 試行が終了" "an interrupted session"
need eth.md "local の 2000 Mbit/s Ethernet、MTU 1500 の TCP" "an Ethernet line"
need tbf.md "local の tbf 1900 Mbit/s" "a tbf shaper"
need htb.md "local の htb 1900 Mbit/s" "an htb shaper"
need egress.md "local の送信側ポリサー 1800 Mbit/s" "an egress policer"
need ingress.md "local の受信側ポリサー 1900 Mbit/s" "an ingress policer"
need pcie.md "local の PCIe 2.5 GT/s x1" "a PCIe link"
need usb.md "local の USB 480 Mb/s (high_speed)" "a USB link"
need wifi.md "local の Wi-Fi PHY 速度" "a Wi-Fi rate"
need nomtu.md "local の nic_mtu" "a missing fact"
need nest.md "比較なし: 因子 'nic' から比較が得られない" "nested factors"
need decl.md "因子 'nic' は 1 つの水準（a）にしか試行がなく" "one level left"
need decl.md "因子 'proto' の基準の水準 'tcp' に試行がない" "no baseline"
need decl.md "a 側の水準をもつセルがない" "a pair without side a"
need decl.md "指定された 3 件の比較" "every declared one yields none"
need three.md "水準がちょうど 2 つの因子もない（x: 3 水準, os: 1 水準）" \
	"no two levels, each factor's levels"
need none.md "比較なし: 計画に因子がなく" "no factor"
need gaps.md "typo: 宣言済み・値なし（系列 'engine.thruput' はホスト local で採取されなかった。近い名前: engine.throughput）" \
	"a series never sampled, with the nearest name"
need gaps.md "far: 宣言済み・値なし（系列 'engine.throughput' は peer ではなくホスト local で採取された）" \
	"a series sampled on another host"
need early.md "ホスト local の系列 'engine.throughput' にエンジン実行中の点がない" \
	"a series without a point in the run"
need nomatch.md "件の試行がこの指標で失敗" "a regex that never matched"
need nomatch.md "正常に終了した試行がない: 失敗 1 件" "no run ended ok"
[ $leaks = 0 ] || fail "$leaks report(s) with English words or a missing kind"
echo "ok - every sentence kind in Japanese"
