/* Counter snapshots: the parser on fixtures (hand-written and captured
 * from a real machine), the deltas (resets, ethtool filtering, CPU
 * percentages), a real local snapshot around loopback traffic, and the
 * remote sh script run through a real sh against the same parser.
 *
 * SPDX-License-Identifier: MIT
 */
#include <arpa/inet.h>
#include <math.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "counters.h"
#include "counters_int.h"
#include "host.h"
#include "plan.h"
#include "proc.h"
#include "tap.h"

static char *fixture(const char *name, size_t *len)
{
	const char *src = getenv("XRUN_SOURCE_DIR");
	char path[1024];
	struct buf b = BUF_INIT;
	snprintf(path, sizeof path, "%s/tests/data/counters/%s",
		 src ? src : XRUN_SOURCE_DIR, name);
	if (buf_read_file(&b, path, 0) < 0) {
		printf("# cannot read %s\n", path);
		exit(1);
	}
	return buf_detach(&b, len);
}

static const struct counter_row *row(const struct counter_row *r, size_t n,
				     const char *scope, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(r[i].scope, scope) == 0 &&
		    strcmp(r[i].name, name) == 0)
			return &r[i];
	return NULL;
}

static double val(const struct counter_row *r, size_t n, const char *scope,
		  const char *name)
{
	const struct counter_row *x = row(r, n, scope, name);
	return x ? x->value : -12345;
}

static size_t count_scope(const struct counter_row *r, size_t n,
			  const char *scope)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += strcmp(r[i].scope, scope) == 0;
	return k;
}

static void test_fixture_pair(void)
{
	size_t lb, la, n = 0;
	char *tb = fixture("before.txt", &lb), *ta = fixture("after.txt", &la);
	struct counters_snap *b = NULL, *a = NULL;
	struct counter_row *r = NULL;

	ok(counters_parse(tb, lb, &b) == 0, "parse before.txt");
	ok(counters_parse(ta, la, &a) == 0, "parse after.txt");
	ok(counters_delta(b, a, &r, &n) == 0, "delta");

	/* nic: differences, a decrease is a reset, new names have no base */
	is_near(val(r, n, "nic", "rx_bytes"), 10000, 0, "nic rx_bytes");
	is_near(val(r, n, "nic", "tx_bytes"), 500, 0, "nic tx_bytes");
	is_near(val(r, n, "nic", "rx_packets"), 20, 0, "nic rx_packets");
	is_near(val(r, n, "nic", "rx_dropped"), 3, 0, "nic rx_dropped");
	is_near(val(r, n, "nic", "tx_packets"), 0, 0, "unchanged nic kept");
	is_near(val(r, n, "nic", "rx_crc_errors"), 6, 0,
		"reset counter: delta = after");
	ok(!row(r, n, "nic", "new_stat"), "stat absent before: no row");
	is_int(count_scope(r, n, "nic"), 11, "every nic counter has a row");

	/* ethtool: only the ones that changed, duplicates numbered */
	is_near(val(r, n, "ethtool", "rx_flow_control_xoff"), 12, 0,
		"ethtool rx_flow_control_xoff");
	ok(!row(r, n, "ethtool", "rx_flow_control_xon"),
	   "unchanged rx_flow_control_xon filtered");
	ok(!row(r, n, "ethtool", "unchanged_stat"), "unchanged stat filtered");
	is_near(val(r, n, "ethtool", "rx_queue_0_packets"), 50, 0,
		"first of a duplicated name");
	is_near(val(r, n, "ethtool", "rx_queue_0_packets#2"), 60, 0,
		"second of a duplicated name gets #2");
	is_near(val(r, n, "ethtool", "port.rx_bytes"), 4000, 0,
		"dotted ethtool name");
	is_int(count_scope(r, n, "ethtool"), 4, "4 changed ethtool stats");

	/* tcp and udp */
	is_near(val(r, n, "tcp", "RetransSegs"), 21, 0, "RetransSegs");
	is_near(val(r, n, "tcp", "InSegs"), 500, 0, "InSegs");
	is_near(val(r, n, "tcp", "OutSegs"), 600, 0, "OutSegs");
	is_near(val(r, n, "tcp", "OutRsts"), 2, 0, "OutRsts");
	is_near(val(r, n, "tcp", "AttemptFails"), 0, 0, "AttemptFails");
	is_near(val(r, n, "tcp", "EstabResets"), 0, 0, "EstabResets");
	ok(!row(r, n, "tcp", "CurrEstab"), "gauge CurrEstab is not a delta");
	ok(!row(r, n, "tcp", "MaxConn"), "MaxConn (-1) not a delta");
	is_near(val(r, n, "tcp", "TCPLostRetransmit"), 3, 0,
		"TcpExt TCPLostRetransmit");
	is_near(val(r, n, "tcp", "TCPSackRecovery"), 2, 0,
		"TcpExt TCPSackRecovery");
	ok(!row(r, n, "tcp", "TCPTimeouts"),
	   "unchanged TcpExt TCPTimeouts: no row");
	ok(!row(r, n, "udp", "SndbufErrors"), "unchanged Udp: no row");
	ok(!row(r, n, "tcp", "SyncookiesSent"), "not-listed TcpExt left out");
	is_near(val(r, n, "udp", "RcvbufErrors"), 2, 0, "udp RcvbufErrors");
	is_near(val(r, n, "udp", "InDatagrams"), 80, 0,
		"Udp, not UdpLite, InDatagrams");

	/* cpu: cpu0 busy 25/175, cpu1 275/325, all 300/500 */
	is_near(val(r, n, "cpu", "cpu0_busy_pct"), 100.0 * 25 / 175, 1e-9,
		"cpu0 busy % (iowait counts as idle)");
	is_near(val(r, n, "cpu", "cpu1_busy_pct"), 100.0 * 275 / 325, 1e-9,
		"cpu1 busy %");
	is_near(val(r, n, "cpu", "busy_avg_pct"), 60, 1e-9, "busy_avg_pct");
	is_near(val(r, n, "cpu", "busy_max_pct"), 100.0 * 275 / 325, 1e-9,
		"busy_max_pct");
	is_near(val(r, n, "cpu", "busy_max_cpu"), 1, 0, "busy_max_cpu");

	/* softirq: summed over CPUs */
	is_near(val(r, n, "softirq", "NET_RX"), 1000, 0, "NET_RX sum");
	is_near(val(r, n, "softirq", "NET_TX"), 10, 0, "NET_TX sum");
	ok(!row(r, n, "softirq", "TIMER"), "TIMER not stored");

	/* capture: one row per tool seen in either snapshot */
	is_near(val(r, n, "capture", "tcpdump"), 2, 0, "2 tcpdump");
	is_near(val(r, n, "capture", "dumpcap"), 1, 0,
		"dumpcap seen only before still counts");
	ok(!row(r, n, "capture", "tshark"), "no tshark row");

	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (strcmp(r[i].scope, r[j].scope) == 0 &&
			    strcmp(r[i].name, r[j].name) == 0)
				ok(0, "duplicate row %s/%s", r[i].scope,
				   r[i].name);
	free(r);
	counters_snap_free(b);
	counters_snap_free(a);
	free(tb);
	free(ta);
}

static void test_captured(void)
{
	size_t len, n = 0;
	char *t = fixture("captured_eth0.txt", &len);
	struct counters_snap *s = NULL;
	struct counter_row *r = NULL;
	struct buf caps = BUF_INIT;

	ok(counters_parse(t, len, &s) == 0, "parse a snapshot captured "
					    "from a virtio NIC");
	ok(counters_delta(s, s, &r, &n) == 0, "delta with itself");
	is_int(count_scope(r, n, "nic"), 24, "24 sysfs statistics");
	ok(count_scope(r, n, "ethtool") == 0,
	   "no ethtool stat changed against itself");
	ok(row(r, n, "tcp", "RetransSegs") && row(r, n, "tcp", "OutRsts"),
	   "core tcp rows even when unchanged");
	ok(!row(r, n, "tcp", "TCPTimeouts"), "no unchanged TcpExt rows");
	ok(row(r, n, "cpu", "cpu0_busy_pct") &&
	       row(r, n, "cpu", "cpu1_busy_pct"),
	   "one row per cpu");
	ok(!row(r, n, "cpu", "cpu2_busy_pct"), "no third cpu");
	is_near(val(r, n, "cpu", "busy_avg_pct"), 0, 0, "no time: 0%");
	ok(row(r, n, "softirq", "NET_RX") != NULL, "NET_RX row");
	ok(count_scope(r, n, "capture") == 0, "no capture running");
	ok(counters_snap_captures(s, &caps) == 0, "procs section read, none");
	buf_release(&caps);
	free(r);
	counters_snap_free(s);
	free(t);
}

/* `ethtool -S` of a veth inside a namespace, as the script printed it;
 * the after-document is the same with one XDP counter moved. */
static void test_veth_fixture(void)
{
	size_t len, n = 0;
	char *t = fixture("captured_veth_netns.txt", &len);
	char *moved = strstr(t, "rx_queue_0_xdp_packets: 0");
	struct counters_snap *b = NULL, *a = NULL;
	struct counter_row *r = NULL;
	double v = -1;
	int got;

	ok(counters_parse(t, len, &b) == 0, "parse veth snapshot");
	got = counters_snap_get(b, "ethtool", "peer_ifindex", &v);
	ok(got && v == 15, "peer_ifindex parsed (%.0f)", v);
	ok(counters_snap_get(b, "ethtool", "tx_queue_0_xdp_xmit_errors", &v),
	   "tx_queue_0_xdp_xmit_errors parsed");
	ok(moved != NULL, "fixture has rx_queue_0_xdp_packets: 0");
	if (moved)
		moved[strlen("rx_queue_0_xdp_packets: ")] = '7';
	ok(counters_parse(t, len, &a) == 0, "parse moved copy");
	ok(counters_delta(b, a, &r, &n) == 0, "delta");
	is_int(count_scope(r, n, "ethtool"), 1, "one ethtool row");
	is_near(val(r, n, "ethtool", "rx_queue_0_xdp_packets"), 7, 0,
		"rx_queue_0_xdp_packets delta");
	is_int(count_scope(r, n, "nic"), 24, "veth sysfs statistics");
	free(r);
	counters_snap_free(a);
	counters_snap_free(b);
	free(t);
}

static void test_garbage(void)
{
	static const char *const docs[] = {
	    "",
	    "@@",
	    "@@ netdev\nrx_bytes\nrx_bytes -5\nrx_bytes 1x\n",
	    "@@ ethtool\n:\n : 5\nname: 99999999999999999999999\n",
	    "@@ snmp\nTcp: A\nTcp: 1 2 3\nTcp: 5\n:\n",
	    "@@ stat\ncpu\ncpux 1 2 3 4\ncpu9999999999 1 2 3 4\ncpu0 1\n",
	    "@@ softirqs\nNET_RX:\nNET_RX: a b\n",
	    "@@ procs\n\n   \ntcpdump   \n",
	    "@@ bogus\nrx_bytes 5\n@@ netdev\nrx_bytes 5\0 7\n",
	};
	static const char nul_doc[] = "@@ netdev\nrx_bytes 5\0 7\n";
	static const size_t lens[] = {0, 2, 0, 0, 0, 0, 0, 0, 0};
	for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
		struct counters_snap *s = NULL;
		struct counter_row *r = NULL;
		size_t n = 0, len = lens[i] ? lens[i] : strlen(docs[i]);
		int rc = counters_parse(docs[i], len, &s);
		ok(rc == 0 && s, "odd document %zu parses", i);
		if (i == 8) {
			counters_snap_free(s);
			rc = counters_parse(nul_doc, sizeof nul_doc - 1, &s);
			ok(rc == 0 && s, "document with a NUL byte parses");
		}
		if (s)
			counters_delta(s, s, &r, &n);
		free(r);
		counters_snap_free(s);
	}
	/* random bytes */
	srand(7);
	for (int k = 0; k < 200; k++) {
		char doc[512];
		struct counters_snap *s = NULL;
		for (size_t i = 0; i < sizeof doc; i++) {
			int c = rand() % 40;
			doc[i] = c < 10	  ? (char)('0' + c)
				 : c < 14 ? '\n'
				 : c < 18 ? ' '
				 : c < 20 ? ':'
				 : c < 22 ? '@'
					  : (char)('a' + c - 22);
		}
		counters_parse(doc, sizeof doc, &s);
		counters_snap_free(s);
	}
	ok(1, "random documents do not crash");
}

/* Push len bytes through a TCP connection over 127.0.0.1. */
static long loopback_bytes(size_t len)
{
	struct sockaddr_in sa = {0};
	socklen_t sl = sizeof sa;
	int l = socket(AF_INET, SOCK_STREAM, 0), c, s;
	char *buf = calloc(1, 65536);
	size_t sent = 0, got = 0;

	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(l, (struct sockaddr *)&sa, sizeof sa) < 0 ||
	    listen(l, 1) < 0 || getsockname(l, (struct sockaddr *)&sa, &sl) < 0)
		return -1;
	c = socket(AF_INET, SOCK_STREAM, 0);
	if (connect(c, (struct sockaddr *)&sa, sizeof sa) < 0)
		return -1;
	s = accept(l, NULL, NULL);
	while (got < len) {
		if (sent < len) {
			size_t k = len - sent > 65536 ? 65536 : len - sent;
			ssize_t w = send(c, buf, k, MSG_DONTWAIT);
			if (w > 0)
				sent += (size_t)w;
		}
		ssize_t r = recv(s, buf, 65536, MSG_DONTWAIT);
		if (r > 0)
			got += (size_t)r;
	}
	close(c);
	close(s);
	close(l);
	free(buf);
	return (long)got;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void test_local_lo(void)
{
	unsigned all = PLAN_COUNTER_NIC | PLAN_COUNTER_TCP | PLAN_COUNTER_CPU |
		       PLAN_COUNTER_CAPTURE;
	struct counters_snap *b = NULL, *a = NULL;
	struct counter_row *r = NULL;
	struct xr_err err = {0};
	size_t n = 0;
	long sent;
	double t0, best = 1e9;

	ok(counters_snapshot(NULL, "lo", all, &b, &err) == 0,
	   "local snapshot on lo");
	sent = loopback_bytes(4 << 20);
	is_int(sent, 4 << 20, "4 MiB over loopback");
	ok(counters_snapshot(NULL, "lo", all, &a, &err) == 0,
	   "second local snapshot");
	ok(counters_delta(b, a, &r, &n) == 0, "delta");
	ok(val(r, n, "nic", "rx_bytes") >= sent, "lo rx_bytes %.0f >= %ld",
	   val(r, n, "nic", "rx_bytes"), sent);
	ok(val(r, n, "nic", "tx_packets") > 0, "lo tx_packets moved");
	ok(val(r, n, "tcp", "OutSegs") > 0, "tcp OutSegs moved (%.0f)",
	   val(r, n, "tcp", "OutSegs"));
	is_near(val(r, n, "tcp", "ActiveOpens"), 1, 1,
		"about one connection opened");
	ok(val(r, n, "cpu", "busy_max_pct") >= 0 &&
	       val(r, n, "cpu", "busy_max_pct") <= 100,
	   "busy_max_pct is a percentage");
	ok(count_scope(r, n, "ethtool") == 0, "lo has no ethtool stats");
	free(r);
	counters_snap_free(b);
	counters_snap_free(a);

	/* Cheap enough to take around every run: no subprocess. */
	for (int i = 0; i < 20; i++) {
		struct counters_snap *s = NULL;
		t0 = now();
		counters_snapshot(NULL, "lo", all, &s, &err);
		if (now() - t0 < best)
			best = now() - t0;
		counters_snap_free(s);
	}
	printf("# fastest local snapshot: %.3f ms\n", best * 1e3);
	ok(best < 0.01, "a local snapshot takes %.3f ms (< 10 ms)", best * 1e3);

	ok(counters_snapshot(NULL, "xrnosuch0", all, &b, &err) < 0 && !b,
	   "missing interface is an error");
	ok(strstr(err.msg, "no interface 'xrnosuch0'") != NULL, "message: %s",
	   err.msg);
	ok(counters_snapshot(NULL, "../../etc", all, &b, &err) < 0,
	   "path-like interface refused: %s", err.msg);
	ok(counters_snapshot(NULL, NULL, all, &b, &err) == 0,
	   "no interface: nic skipped");
	counters_delta(b, b, &r, &n);
	ok(count_scope(r, n, "nic") == 0, "no nic rows without iface");
	ok(count_scope(r, n, "tcp") > 0, "tcp rows without iface");
	free(r);
	counters_snap_free(b);
}

/* The remote script, run by a real sh here, must say the same as the
 * local producer (up to the counters that move in between). */
static void test_script_matches_local(const char *iface)
{
	const char *argv[] = {
	    "sh", "-c", counters_remote_script(), "sh", iface, "ntcp", NULL};
	struct proc_opts o = {0};
	struct proc_result res = {0};
	struct xr_err err = {0};
	struct counters_snap *rs = NULL, *ls = NULL;
	struct counter_row *rr = NULL, *lr = NULL;
	struct buf doc = BUF_INIT;
	size_t rn = 0, ln = 0;
	int same = 1;

	o.argv = argv;
	o.timeout = 10;
	ok(proc_run(&o, &res, &err) == 0, "run the counters script");
	is_int(res.exit_code, 0, "script exits 0");
	ok(counters_parse(res.out, res.out_len, &rs) == 0, "parse its output");
	counters_local_document(iface, 15, &doc);
	ok(counters_parse(doc.s, doc.len, &ls) == 0, "parse local document");
	counters_delta(rs, rs, &rr, &rn);
	counters_delta(ls, ls, &lr, &ln);
	ok(rn > 20 && rn == ln,
	   "%s: same number of rows (%zu script, %zu local)", iface, rn, ln);
	for (size_t i = 0; i < rn && i < ln; i++)
		if (strcmp(rr[i].scope, lr[i].scope) ||
		    strcmp(rr[i].name, lr[i].name))
			same = 0;
	ok(same, "%s: same rows in the same order", iface);
	free(rr);
	free(lr);
	counters_snap_free(rs);
	counters_snap_free(ls);
	buf_release(&doc);
	proc_result_release(&res);

	argv[4] = "xrnosuch0";
	proc_run(&o, &res, &err);
	counters_parse(res.out, res.out_len, &rs);
	ok(rs && counters_snap_missing_iface(rs),
	   "script reports a missing interface");
	counters_snap_free(rs);
	proc_result_release(&res);
}

/* What ssh does with it: one command line, every word quoted for the
 * remote shell, parsed again by that shell. */
static void test_script_through_quoting(void)
{
	struct buf line = BUF_INIT;
	const char *argv[] = {"sh", "-c", NULL, NULL};
	struct proc_opts o = {0};
	struct proc_result res = {0};
	struct xr_err err = {0};
	struct counters_snap *s = NULL;
	double v = -1;
	int got;

	buf_adds(&line, "sh -c ");
	host_quote_sh(counters_remote_script(), &line);
	buf_adds(&line, " sh ");
	host_quote_sh("lo", &line);
	buf_adds(&line, " ntcp");
	argv[2] = line.s;
	o.argv = argv;
	o.timeout = 10;
	ok(proc_run(&o, &res, &err) == 0 && res.exit_code == 0,
	   "script survives quoting for a remote sh");
	got = counters_parse(res.out, res.out_len, &s) == 0 &&
	      counters_snap_get(s, "nic", "rx_bytes", &v);
	ok(got && v > 0, "lo rx_bytes read through the quoted script (%.0f)",
	   v);
	ok(s && counters_snap_get(s, "tcp", "RetransSegs", &v),
	   "tcp section through the quoted script");
	counters_snap_free(s);
	proc_result_release(&res);
	buf_release(&line);
}

/*
 * The scripts copy /proc files with the shell's own builtins: run with a
 * PATH of sh and sleep only (no cat), the snapshot still has every TCP,
 * UDP and CPU row the local producer has, and the sampler loop still
 * prints a frame every period (its only process per sample is sleep).
 */
static void test_scripts_without_cat(void)
{
	char dir[] = "/tmp/xrcatXXXXXX", sl[64], sh[64];
	const char *sp = access("/usr/bin/sleep", X_OK) == 0 ? "/usr/bin/sleep"
							     : "/bin/sleep";
	const char *argv[] = {"/bin/sh", "-c", NULL,  "sh",
			      "",	 "tc", "0.1", NULL};
	struct proc_opts o = {0};
	struct proc_result res = {0};
	struct xr_err err = {0};
	struct counters_snap *rs = NULL, *ls = NULL;
	struct counter_row *rr = NULL, *lr = NULL;
	struct buf text = BUF_INIT, doc = BUF_INIT;
	size_t rn = 0, ln = 0, frames = 0, good = 0;

	if (!mkdtemp(dir)) {
		ok(0, "a directory with sleep and sh");
		return;
	}
	snprintf(sl, sizeof sl, "%s/sleep", dir);
	snprintf(sh, sizeof sh, "%s/sh", dir);
	ok(symlink(sp, sl) == 0 && symlink("/bin/sh", sh) == 0,
	   "PATH of sh and sleep only");
	buf_addf(&text, "PATH=%s\n%s", dir, counters_remote_script());
	argv[2] = text.s;
	o.argv = argv;
	o.timeout = 10;
	ok(proc_run(&o, &res, &err) == 0 && res.exit_code == 0 &&
	       counters_parse(res.out, res.out_len, &rs) == 0,
	   "the snapshot script without cat");
	counters_local_document(NULL, PLAN_COUNTER_TCP | PLAN_COUNTER_CPU,
				&doc);
	counters_parse(doc.s, doc.len, &ls);
	if (rs)
		counters_delta(rs, rs, &rr, &rn);
	if (ls)
		counters_delta(ls, ls, &lr, &ln);
	ok(rn > 10 && rn == ln && count_scope(rr, rn, "tcp") > 0 &&
	       count_scope(rr, rn, "cpu") > 0,
	   "its rows: %zu, the local producer's %zu", rn, ln);
	proc_result_release(&res);

	buf_reset(&text);
	buf_addf(&text, "PATH=%s\n%s", dir, counters_sampler_script());
	argv[2] = text.s;
	/* Killed at the timeout: the loop does not end itself. What is
	 * checked is that it loops (two frames or more) with only sh and
	 * sleep, not how fast: 5 s for two frames at 0.1 s (25 times
	 * their time) holds on a loaded machine. */
	o.timeout = 5.0;
	proc_run(&o, &res, &err);
	for (const char *p = res.out; p && (p = strstr(p, "@@ xrun-sample "));
	     p++) {
		const char *b = strchr(p, '\n'),
			   *e = b ? strstr(b, "@@ xrun-sample-end") : NULL;
		struct counters_snap *f = NULL;
		frames++;
		if (e && counters_parse(b + 1, (size_t)(e - b - 1), &f) == 0 &&
		    counters_snap_get(f, "tcp", "RetransSegs", &(double){0}))
			good++;
		counters_snap_free(f);
	}
	ok(frames >= 2 && good >= frames - 1,
	   "the sampler loop without cat: %zu frames in 5 s at 0.1 s, "
	   "%zu with TCP counters",
	   frames, good);
	proc_result_release(&res);
	free(rr);
	free(lr);
	counters_snap_free(rs);
	counters_snap_free(ls);
	buf_release(&text);
	buf_release(&doc);
	unlink(sl);
	unlink(sh);
	rmdir(dir);
}

/* The far loop's lead-in: its second frame $5 (0.2) seconds after its
 * first, then every $3 (1) second: the far uptimes of its frames. The
 * intervals are the sleep plus the snapshot's own time, so the first is
 * checked against 0.2 s and against the next one, not to the tick. */
static void test_sampler_script_lead(void)
{
	const char *argv[] = {"/bin/sh", "-c", counters_sampler_script(),
			      "sh",	 "",   "c",
			      "1.000",	 "",   "0.200",
			      NULL};
	struct proc_opts o = {0};
	struct proc_result res = {0};
	struct xr_err err = {0};
	double up[8];
	int n = 0;

	o.argv = argv;
	o.timeout = 3.0; /* killed there: frames at 0, 0.2, 1.2, 2.2 s */
	proc_run(&o, &res, &err);
	for (const char *p = res.out;
	     n < 8 && p && (p = strstr(p, "@@ xrun-sample ")); p++)
		up[n++] = strtod(p + strlen("@@ xrun-sample "), NULL);
	ok(n >= 3 && up[1] - up[0] >= 0.19 && up[1] - up[0] < 0.7 &&
	       up[2] - up[1] >= 0.99,
	   "the far loop: a first interval of 0.2 s (%.2f), then the period "
	   "(%.2f), %d frames",
	   n >= 2 ? up[1] - up[0] : -1, n >= 3 ? up[2] - up[1] : -1, n);
	proc_result_release(&res);
}

int main(void)
{
	tap_plan(115);
	test_fixture_pair();
	test_captured();
	test_veth_fixture();
	test_garbage();
	test_local_lo();
	test_script_matches_local("lo");
	test_script_through_quoting();
	test_scripts_without_cat();
	test_sampler_script_lead();
	if (access("/sys/class/net/eth0/statistics", F_OK) == 0)
		test_script_matches_local("eth0");
	return tap_done();
}
