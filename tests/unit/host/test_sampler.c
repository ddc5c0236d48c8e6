/* The sampler (runner/host/sampler.c) and the counters it adds: the
 * qdisc section of a snapshot parsed from recorded tc JSON; a local
 * sampler on lo with real UDP traffic; and, as root, samplers on a real
 * network namespace (netns_fixture.h): in-process (its thread entered the
 * namespace: no process in there) and through the far-side loop it falls
 * back to when it cannot enter (CAP_SYS_ADMIN dropped from our effective
 * set, which children regain at exec), whose qdisc drops, UDP and
 * interface counts over the run must equal what tc, /proc/net/snmp and
 * `ip -s link` read inside the namespace report; the far-side loop's
 * death is noted while its series are kept.
 *
 * SPDX-License-Identifier: MIT
 */
#include <arpa/inet.h>
#include <linux/capability.h>
#include <math.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "buf.h"
#include "counters.h"
#include "counters_int.h"
#include "host.h"
#include "netns_fixture.h"
#include "plan.h"
#include "proc.h"
#include "sampler.h"
#include "series.h"
#include "tap.h"

static double sum_of(const struct series_set *ss, const char *name)
{
	const struct series *s = series_set_find(ss, NULL, name);
	double v = 0;
	for (size_t k = 0; s && k < s->n; k++)
		v += s->v[k];
	return v;
}

static int ascending(const struct series *s)
{
	for (size_t k = 1; k < s->n; k++)
		if (!(s->t[k] > s->t[k - 1]))
			return 0;
	return 1;
}

static void test_qdisc_parse(void)
{
	static const char a[] =
	    "@@ xrun-counters 1\n@@ qdisc\n"
	    "[{\"kind\":\"tbf\",\"handle\":\"8001:\",\"root\":true,"
	    "\"options\":{\"rate\":125000},\"bytes\":9,\"packets\":1,"
	    "\"drops\":10,\"overlimits\":4,\"requeues\":0,\"backlog\":300,"
	    "\"qlen\":2},{\"kind\":\"pfifo\",\"parent\":\"8001:1\","
	    "\"drops\":999}]\n@@ snmp\n";
	static const char b[] =
	    "@@ xrun-counters 1\n@@ qdisc\n"
	    "[{\"kind\":\"tbf\",\"root\":true,\"drops\":5830,"
	    "\"overlimits\":9,\"requeues\":1,\"backlog\":0,\"qlen\":0}]\n";
	struct counters_snap *sa = NULL, *sb = NULL;
	struct counter_row *rows = NULL;
	size_t n = 0;
	double v = -1, drops = -1, backlog = -1;

	ok(counters_parse(a, sizeof a - 1, &sa) == 0, "parse a qdisc doc");
	ok(counters_snap_get(sa, "qdisc", "drops", &v) && v == 10,
	   "the root qdisc's drops, not its child's");
	ok(counters_parse(b, sizeof b - 1, &sb) == 0, "parse the next one");
	ok(counters_delta(sa, sb, &rows, &n) == 0, "qdisc delta");
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(rows[i].scope, "qdisc") &&
		    !strcmp(rows[i].name, "drops"))
			drops = rows[i].value;
		if (!strcmp(rows[i].scope, "qdisc") &&
		    !strcmp(rows[i].name, "backlog"))
			backlog = rows[i].value;
	}
	is_near(drops, 5820, 0, "drops is a difference (5830 - 10)");
	is_near(backlog, 0, 0, "backlog is the level at the end");
	free(rows);
	counters_snap_free(sa);
	counters_snap_free(sb);
}

static void send_udp(int count, int size)
{
	struct sockaddr_in sin = {0};
	char payload[1400] = {0};
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	sin.sin_family = AF_INET;
	sin.sin_port = htons(9); /* discard: nobody listens, the bytes
				  * still cross lo */
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	for (int i = 0; i < count; i++)
		sendto(fd, payload, (size_t)size, 0, (struct sockaddr *)&sin,
		       sizeof sin);
	close(fd);
}

static void test_local(void)
{
	struct plan_host ph;
	struct host *h = NULL;
	struct sampler *s = NULL;
	struct series_set set = {0};
	struct xr_err err = {0};
	const struct series *rx, *cpu;
	unsigned all = PLAN_COUNTER_NIC | PLAN_COUNTER_TCP | PLAN_COUNTER_CPU;

	memset(&ph, 0, sizeof ph);
	ph.name = "client";
	ok(host_open(&ph, "/tmp", &h, &err) == 0, "open the local host");
	ok(sampler_start(h, "client", "lo", all, 0.1, 60, &s, &err) == 0,
	   "start a local sampler: %s", err.msg);
	proc_sleep(0.25);
	sampler_mark(s);
	send_udp(2000, 1000);
	proc_sleep(0.45);
	sampler_stop(s, &set);
	rx = series_set_find(&set, "client", "nic.rx_bytes");
	cpu = series_set_find(&set, "client", "cpu.all.busy");
	ok(rx && rx->n >= 4, "several nic.rx_bytes points (%zu)",
	   rx ? rx->n : 0);
	ok(rx && sum_of(&set, "nic.rx_bytes") >= 2000 * 1000,
	   "the traffic is in the series (%.0f B)",
	   sum_of(&set, "nic.rx_bytes"));
	ok(rx && rx->t[0] < 0 && rx->t[rx->n - 1] > 0.4,
	   "t < 0 in the lead-in, > 0.4 at the end");
	ok(rx && ascending(rx), "t ascends");
	ok(rx && !strcmp(rx->unit, "B"), "bytes in B");
	ok(cpu && cpu->v[0] >= 0 && cpu->v[0] <= 100, "cpu.all.busy is a %%");
	ok(series_set_find(&set, "client", "udp.no_ports") != NULL,
	   "udp.no_ports moved (a port nobody listens on)");
	ok(series_set_find(&set, "client", "qdisc.drops") != NULL,
	   "qdisc.drops sampled");
	ok(series_set_find(&set, "client", "cpu.0.softirq") != NULL,
	   "per-CPU softirq %%");
	is_str(set.note, "", "no note");
	series_set_release(&set);
	host_close(h);
}

/* The lead-in (sampler.h): 0.2 s, or whole periods of a shorter one up to
 * it; sampler_wait_lead returns when its point is in, and that point is
 * the last before the mark (t <= 0, within the lead-in), the next one the
 * stop's. With a 1 s period the old lead-in was 1.1 s. */
static void test_lead(void)
{
	struct plan_host ph;
	struct host *h = NULL;
	struct sampler *s = NULL;
	struct series_set set = {0};
	struct xr_err err = {0};
	const struct series *rx;
	double t0, waited;

	is_near(sampler_lead_s(1.0), 0.2, 1e-12, "lead-in at 1 s: 0.2 s");
	is_near(sampler_lead_s(0.2), 0.2, 1e-12, "at 200 ms: 0.2 s");
	is_near(sampler_lead_s(0.1), 0.2, 1e-12, "at 100 ms: 2 x 0.1 s");
	is_near(sampler_lead_s(0.15), 0.3, 1e-12, "at 150 ms: 2 x 0.15 s");
	memset(&ph, 0, sizeof ph);
	ph.name = "client";
	ok(host_open(&ph, "/tmp", &h, &err) == 0, "open the local host");
	t0 = proc_now_mono();
	ok(sampler_start(h, "client", "lo", PLAN_COUNTER_NIC, 1.0, 60, &s,
			 &err) == 0,
	   "start a local sampler at 1 s: %s", err.msg);
	ok(sampler_wait_lead(s, t0 + 5) == 0, "its lead-in waited");
	waited = proc_now_mono() - t0;
	sampler_mark(s);
	proc_sleep(0.3);
	sampler_stop(s, &set);
	ok(waited >= 0.2 && waited < 0.9,
	   "the wait is 0.2 s, not two periods (%.3f s)", waited);
	rx = series_set_find(&set, "client", "nic.rx_bytes");
	ok(rx && rx->n == 2 && rx->t[0] <= 0 && rx->t[0] > -0.2 &&
	       rx->t[1] >= 0.3 && rx->t[1] < 0.9,
	   "one point in the lead-in, just before the mark (t %.4f), and "
	   "the stop's (t %.3f)",
	   rx && rx->n ? rx->t[0] : NAN, rx && rx->n > 1 ? rx->t[1] : NAN);
	series_set_release(&set);
	host_close(h);
}

/* The namespace with a slow tbf with a tiny queue on vb, which drops
 * most of what the namespace sends. */
static int ns_setup(void)
{
	if (fx_netns_up("xrs") < 0)
		return -1;
	return fx_run(NULL, "ip", "netns", "exec", fx_ns.ns, "tc", "qdisc",
		      "add", "dev", fx_ns.vb, "root", "tbf", "rate", "100kbit",
		      "burst", "3000", "limit", "3000", NULL);
}

/* tc's own count of the root qdisc's drops on vb. */
static double tc_drops(void)
{
	struct buf out = BUF_INIT;
	struct buf doc = BUF_INIT;
	struct counters_snap *s = NULL;
	double v = -1;
	fx_run(&out, "ip", "netns", "exec", fx_ns.ns, "tc", "-s", "-j", "qdisc",
	       "show", "dev", fx_ns.vb, NULL);
	buf_adds(&doc, "@@ qdisc\n");
	buf_adds(&doc, out.s ? out.s : "");
	if (counters_parse(doc.s, doc.len, &s) == 0)
		counters_snap_get(s, "qdisc", "drops", &v);
	counters_snap_free(s);
	buf_release(&out);
	buf_release(&doc);
	return v;
}

/* What the namespace itself reports: Udp OutDatagrams and SndbufErrors
 * (cat /proc/net/snmp inside), vb's tx packets and bytes (ip -s link). */
struct far {
	double drops, out_datagrams, sndbuf_errors, tx_packets, tx_bytes;
};

/* In /proc/net/snmp text, the value of name on the lines starting with
 * tag: a line of names, then a line of values. */
static double snmp_field(const char *text, const char *tag, const char *name)
{
	const char *h = strstr(text, tag), *v;
	int col = -1, k = 0;
	char word[64];
	if (!h || !(v = strstr(h + 1, tag)))
		return -1;
	for (const char *p = h + strlen(tag); *p && *p != '\n';) {
		int n = 0;
		if (sscanf(p, " %63s%n", word, &n) != 1)
			break;
		if (!strcmp(word, name))
			col = k;
		k++;
		p += n;
	}
	v += strlen(tag);
	for (k = 0; col >= 0 && k <= col; k++) {
		int n = 0;
		if (sscanf(v, " %63s%n", word, &n) != 1)
			return -1;
		v += n;
	}
	return col >= 0 ? atof(word) : -1;
}

static struct far far_read(void)
{
	struct buf out = BUF_INIT;
	struct far f;
	const char *p;

	f.drops = tc_drops();
	fx_run(&out, "ip", "netns", "exec", fx_ns.ns, "cat", "/proc/net/snmp",
	       NULL);
	f.out_datagrams =
	    snmp_field(out.s ? out.s : "", "\nUdp: ", "OutDatagrams");
	f.sndbuf_errors =
	    snmp_field(out.s ? out.s : "", "\nUdp: ", "SndbufErrors");
	fx_run(&out, "ip", "-n", fx_ns.ns, "-s", "-j", "link", "show", "dev",
	       fx_ns.vb, NULL);
	p = out.s ? strstr(out.s, "\"tx\":{") : NULL;
	f.tx_bytes = p ? atof(strstr(p, "\"bytes\":") + 8) : -1;
	f.tx_packets = p ? atof(strstr(p, "\"packets\":") + 10) : -1;
	buf_release(&out);
	return f;
}

/* CAP_SYS_ADMIN in our thread's effective set (setns needs it; the
 * sampler's thread inherits the set, an exec'd child gets it back). */
static int sys_admin(int on)
{
	struct __user_cap_header_struct hd = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct d[2];
	if (syscall(SYS_capget, &hd, d) < 0)
		return -1;
	if (on)
		d[0].effective |= 1u << CAP_SYS_ADMIN;
	else
		d[0].effective &= ~(1u << CAP_SYS_ADMIN);
	return (int)syscall(SYS_capset, &hd, d);
}

/*
 * One sampled run on the namespace with real traffic (UDP from inside
 * it through the tbf, UDP on our lo that must not show): the series'
 * sums over the run against the namespace's own reports before and after.
 * farside: start it without CAP_SYS_ADMIN, so that it falls back.
 */
static void sampled_run(struct host *h, int farside)
{
	unsigned what = PLAN_COUNTER_NIC | PLAN_COUNTER_TCP | PLAN_COUNTER_CPU;
	const char *how = farside ? "far-side" : "in-process";
	struct sampler *s = NULL;
	struct series_set set = {0};
	struct xr_err err = {0};
	struct buf pids = BUF_INIT;
	const struct series *tx;
	struct far b, a;
	int rc;

	b = far_read();
	if (farside)
		ok(sys_admin(0) == 0, "CAP_SYS_ADMIN dropped");
	rc = sampler_start(h, "server", fx_ns.vb, what, 0.1, 60, &s, &err);
	if (farside)
		sys_admin(1);
	ok(rc == 0, "start a %s netns sampler: %s", how, err.msg);
	proc_sleep(0.5);
	fx_run(&pids, "ip", "netns", "pids", fx_ns.ns, NULL);
	if (farside)
		ok(pids.len > 0, "the far-side loop runs in the namespace");
	else
		is_str(pids.s, "", "no process in the namespace: in-process");
	sampler_mark(s);
	fx_ns_udp(200);
	send_udp(300, 500); /* our lo: not the namespace's */
	proc_sleep(0.5);
	sampler_stop(s, &set);
	a = far_read();
	tx = series_set_find(&set, "server", "nic.tx_packets");
	ok(tx && tx->n >= 4 && ascending(tx),
	   "%s: several tx points, t ascends", how);
	ok(a.drops - b.drops > 50, "tbf dropped packets (%.0f)",
	   a.drops - b.drops);
	is_near(sum_of(&set, "qdisc.drops"), a.drops - b.drops, 0,
		"qdisc.drops over the run = tc's count");
	is_near(sum_of(&set, "udp.out_datagrams") +
		    sum_of(&set, "udp.sndbuf_errors"),
		200, 0, "udp.out_datagrams + udp.sndbuf_errors = 200 sent");
	is_near(sum_of(&set, "udp.out_datagrams"),
		a.out_datagrams - b.out_datagrams, 0,
		"udp.out_datagrams = /proc/net/snmp's in the namespace");
	is_near(sum_of(&set, "udp.sndbuf_errors"),
		a.sndbuf_errors - b.sndbuf_errors, 0,
		"udp.sndbuf_errors = /proc/net/snmp's in the namespace");
	is_near(sum_of(&set, "nic.tx_packets"), a.tx_packets - b.tx_packets, 0,
		"nic.tx_packets = ip -s link's in the namespace");
	is_near(sum_of(&set, "nic.tx_bytes"), a.tx_bytes - b.tx_bytes, 0,
		"nic.tx_bytes = ip -s link's in the namespace");
	ok(series_set_find(&set, "server", "cpu.all.busy") != NULL,
	   "cpu.all.busy sampled");
	if (farside)
		ok(strstr(set.note,
			  "through a far-side loop: cannot enter it "
			  "in-process (Operation not permitted)") != NULL,
		   "the fallback is noted: '%s'", set.note);
	else
		is_str(set.note, "", "no note");
	series_set_release(&set);
	buf_release(&pids);
}

static void test_netns(void)
{
	struct plan_host ph;
	struct host *h = NULL;
	struct sampler *s = NULL;
	struct series_set set = {0};
	struct xr_err err = {0};
	struct buf pids = BUF_INIT;
	const struct series *tx;

	memset(&ph, 0, sizeof ph);
	ph.name = "server";
	ph.netns = fx_ns.ns;
	ph.iface = fx_ns.vb;
	ok(host_open(&ph, "/tmp", &h, &err) == 0, "open the netns host");
	sampled_run(h, 0);
	sampled_run(h, 1);

	/* The far-side loop's death: every process of the namespace
	 * killed. */
	sys_admin(0);
	ok(sampler_start(h, "server", fx_ns.vb, PLAN_COUNTER_NIC, 0.1, 60, &s,
			 &err) == 0,
	   "start another far-side one");
	sys_admin(1);
	proc_sleep(0.5);
	fx_run(&pids, "ip", "netns", "pids", fx_ns.ns, NULL);
	for (char *p = pids.s; p && *p;) {
		long pid = strtol(p, &p, 10);
		if (pid > 0)
			kill((pid_t)pid, SIGKILL);
		while (*p == '\n')
			p++;
	}
	proc_sleep(0.3);
	sampler_stop(s, &set);
	ok(strstr(set.note, "sampler on 'server' died") != NULL,
	   "its death is noted: '%s'", set.note);
	tx = series_set_find(&set, "server", "nic.tx_packets");
	ok(tx && tx->n >= 1, "the points before it died are kept");
	series_set_release(&set);
	buf_release(&pids);
	host_close(h);
}

int main(void)
{
	tap_plan(56);
	test_qdisc_parse();
	test_local();
	test_lead();
	if (geteuid() != 0 || !proc_which("ip") || !proc_which("tc")) {
		tap_skip("netns sampler: need root, iproute2 and tc");
		return tap_done();
	}
	if (ns_setup() < 0) {
		ok(0, "create namespace %s with a veth pair and tbf", fx_ns.ns);
		return tap_done();
	}
	test_netns();
	return tap_done();
}
