#!/bin/bash
# SPDX-License-Identifier: MIT
# The sampler of an ssh host (a real sshd on loopback, tests/e2e/lib/sshd.sh):
# one far-side shell loop per run, started over ssh, streams a snapshot
# every `sample:` period (runner/host/sampler.c, counters.c's sampler
# script). With the iperf3 server on the ssh host and `sample: 200ms`,
# every run stores several points of the far host's lo bytes, TCP segments
# and CPU busy; the far host's lo bytes over the engine's run hold at least
# the bytes iperf3 moved over lo (lo counts each byte once received); no
# run has a sampler note (it did not die); no far-side loop is left after
# xrun exits. The far loop also follows the engine's process over there
# (the iperf3 server, its pid in a watch file in .xrun-w, mode 0700, of
# the session's XDG_RUNTIME_DIR, which this sshd sets:
# runner/host/counters_script.c):
# far engine.cpu x its intervals over the engine's run is the CPU time
# iperf3 itself gives for its server (cpu_remote x 2 s) to 0.1 s, and
# engine.core names a core of this machine; no watch file is left once
# xrun has closed the host. Where the wrapper cannot leave its file (the
# runtime directory a file), the run goes on unfollowed.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need sqlite3 iperf3
xr_tmpdir T
xr_need_sshd "$T"
XR_DB=s.db
port=$(xr_free_port)
cat >s.yaml <<YAML
xrun: 1
name: ssh-series
hosts:
  far: ${XR_SSHD_YAML/#\{/\{iface: lo, }
engine:
  type: iperf3
  client: local
  server: { host: far, start: true }
  target: 127.0.0.1
  duration: 2s
  port: $port
factors:
  streams: { levels: [1], param: parallel }
repeat: 2
sample: 200ms
counters: [nic, tcp, cpu]
YAML
"$XRUN" run s.yaml --db s.db --unattended 2>s.err || { cat s.err; fail "exit $?"; }
[ "$(q "select count(*) from runs where status='ok'")" = 2 ] ||
	fail "runs: $(q "select position, status, reason from runs")"
for name in nic.rx_bytes tcp.out_segs cpu.all.busy; do
	few=$(q "select count(*) from runs r where r.status='ok' and (select count(*)
		from series s where s.run_id = r.id and s.host = 'far' and s.name = '$name') < 8")
	[ "$few" = 0 ] || fail "$few runs with fewer than 8 points of far $name: \
$(q "select run_id, host, name, count(*) from series group by 1, 2, 3" | head -30)"
done
echo "# far points a run: $(q "select count(*) from series where host='far' and run_id = (select min(id) from runs)")"
# lo's received bytes during the engine's run against what iperf3 moved
# (throughput x 2 s): headers and ACKs only add.
ratio=$(q "select printf('%.3f', (select sum(value) from series where host='far'
	and name='nic.rx_bytes' and t > 0) * 8.0 / (select sum(value * 2.0) from metrics
	where name='throughput'))")
echo "# far lo rx bytes / engine bytes: $ratio"
[ "$(q :memory: "select $ratio >= 0.95")" = 1 ] || fail "far lo bytes below the engine's: $ratio"
[ "$(q "select count(*) from series_notes")" = 0 ] || fail "notes: $(q "select * from series_notes")"
python3 - s.db "$(nproc)" <<'PY' || fail "far engine.cpu against iperf3's cpu_remote: see above"
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
cores, bad = int(sys.argv[2]), 0
for run, in db.execute("select id from runs where status = 'ok'"):
    pts = {}
    for name, p in db.execute("select name, points from series_data where run_id = ? and host = 'far' and name like 'engine.c%' order by chunk", (run,)):
        pts.setdefault(name, []).extend(json.loads(p))
    want = db.execute("select value * 2 / 100 from metrics where run_id = ? and name = 'cpu_remote'", (run,)).fetchone()
    cpu = sorted(pts.get("engine.cpu", []))
    got = sum(v * (t - cpu[i - 1][0] if i else t) for i, (t, v) in enumerate(cpu) if t > 0 and v is not None) / 100
    cs = [v for t, v in pts.get("engine.core", []) if v is not None]
    print("# run %d far: engine.cpu %.3f CPU s, iperf3 cpu_remote %s CPU s, cores %s" % (run, got, want and round(want[0], 3), sorted(set(cs))))
    if want is None or abs(got - want[0]) > 0.1 or not cs or any(c != int(c) or not 0 <= c < cores for c in cs):
        bad += 1
sys.exit(bad > 0)
PY
# the watch directory the loop made: the user's, mode 0700 (issue 40)
[ "$(stat -c '%a %U' "$XR_SSHD_DIR/run/.xrun-w")" = "700 $(id -un)" ] ||
	fail "watch directory: $(stat -c '%a %U' "$XR_SSHD_DIR/run/.xrun-w")"
left=$(ls -A "$XR_SSHD_DIR/run/.xrun-w")
[ -z "$left" ] || fail "watch files left over there: $left"
sleep 0.3
# this test's loops only (iface lo, period 0.200): another suite's may run
# (its last word is the session's watch token)
left=$(pgrep -af "xrun-sample" | grep -E ' sh lo [a-z]* ?0\.200* [0-9a-f]{16}$' || true)
[ -z "$left" ] || fail "a far-side sampler loop is left: $left"

# A far runtime directory the wrapper cannot write in (a file, not a
# directory): the run goes on as before, its server is not followed (no
# far engine series), and nothing of the wrapper is in what it stored.
rm -r "$XR_SSHD_DIR/run"
echo not-a-directory >"$XR_SSHD_DIR/run"
sed -i 's/^repeat: 2/repeat: 1/' s.yaml
"$XRUN" run s.yaml --db w.db --unattended 2>w.err || { cat w.err; fail "exit $? with an unwritable runtime dir"; }
XR_DB=w.db
[ "$(q "select count(*) from runs where status='ok'")" = 1 ] ||
	fail "unwritable runtime dir: $(q "select position, status, reason from runs")"
[ "$(q "select count(*) from series where host='far' and name like 'engine.c%'")" = 0 ] ||
	fail "far engine series without a watch file"
[ "$(q "select count(*) from series where host='far' and name='cpu.all.busy'")" -ge 8 ] ||
	fail "the far loop stopped sampling: $(q "select * from series_notes")"
! grep -q 'xrun-w' w.err || fail "the wrapper's words reached xrun: $(grep xrun-w w.err)"
[ "$(cat "$XR_SSHD_DIR/run")" = not-a-directory ] || fail "the file was written"
echo "ok: ssh host sampled by one far-side loop per run, its engine followed"
