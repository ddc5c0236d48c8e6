/* The sampler (runner/host/sampler.c) and the counters it adds: the
 * qdisc section of a snapshot parsed from recorded tc JSON; a local
 * sampler on lo with real UDP traffic; and, as root, a sampler on a real
 * network namespace (one far-side loop) whose qdisc drops must equal
 * what tc reports, and whose death is noted while its series are kept. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "buf.h"
#include "counters.h"
#include "counters_int.h"
#include "host.h"
#include "plan.h"
#include "proc.h"
#include "sampler.h"
#include "series.h"
#include "tap.h"

static char ns[16], va[24], vb[24];

static int run(struct buf *out, const char *a0, ...)
{
	const char *argv[24];
	struct proc_opts o = {0};
	struct proc_result r = {0};
	struct xr_err err;
	va_list ap;
	int n = 0, rc;

	argv[n++] = a0;
	va_start(ap, a0);
	while (n < 23 && (argv[n] = va_arg(ap, const char *)) != NULL)
		n++;
	va_end(ap);
	argv[n] = NULL;
	o.argv = argv;
	o.timeout = 20;
	rc = proc_run(&o, &r, &err);
	if (rc == 0 && (r.status != PROC_EXITED || r.exit_code != 0))
		rc = -1;
	if (out) {
		buf_reset(out);
		if (r.out)
			buf_adds(out, r.out);
	}
	proc_result_release(&r);
	return rc;
}

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

static int ns_setup(void)
{
	snprintf(ns, sizeof ns, "xrs%d", (int)getpid() % 1000000);
	snprintf(va, sizeof va, "%sa", ns);
	snprintf(vb, sizeof vb, "%sb", ns);
	if (run(NULL, "ip", "netns", "add", ns, NULL) < 0)
		return -1;
	/* Addresses only inside the namespace and a static neighbour, so
	 * nothing clashes with other tests' networks; a slow tbf with a
	 * tiny queue on vb drops most of what the namespace sends. */
	if (run(NULL, "ip", "link", "add", va, "type", "veth", "peer", "name",
		vb, "netns", ns, NULL) < 0 ||
	    run(NULL, "ip", "link", "set", va, "up", NULL) < 0 ||
	    run(NULL, "ip", "-n", ns, "link", "set", vb, "up", NULL) < 0 ||
	    run(NULL, "ip", "-n", ns, "addr", "add", "10.99.0.2/24", "dev", vb,
		NULL) < 0 ||
	    run(NULL, "ip", "-n", ns, "neigh", "add", "10.99.0.1", "lladdr",
		"02:00:00:00:00:01", "nud", "permanent", "dev", vb, NULL) < 0 ||
	    run(NULL, "ip", "netns", "exec", ns, "tc", "qdisc", "add", "dev",
		vb, "root", "tbf", "rate", "100kbit", "burst", "3000", "limit",
		"3000", NULL) < 0)
		return -1;
	return 0;
}

static void ns_cleanup(void)
{
	if (ns[0])
		run(NULL, "ip", "netns", "del", ns, NULL);
}

/* tc's own count of the root qdisc's drops on vb. */
static double tc_drops(void)
{
	struct buf out = BUF_INIT;
	struct buf doc = BUF_INIT;
	struct counters_snap *s = NULL;
	double v = -1;
	run(&out, "ip", "netns", "exec", ns, "tc", "-s", "-j", "qdisc", "show",
	    "dev", vb, NULL);
	buf_adds(&doc, "@@ qdisc\n");
	buf_adds(&doc, out.s ? out.s : "");
	if (counters_parse(doc.s, doc.len, &s) == 0)
		counters_snap_get(s, "qdisc", "drops", &v);
	counters_snap_free(s);
	buf_release(&out);
	buf_release(&doc);
	return v;
}

static void ns_traffic(void)
{
	run(NULL, "ip", "netns", "exec", ns, "bash", "-c",
	    "p=$(printf '%1000s' x); for i in $(seq 200); do "
	    "printf '%s' \"$p\" >/dev/udp/10.99.0.1/9 2>/dev/null; done; "
	    "exit 0",
	    NULL);
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
	double before, after;

	memset(&ph, 0, sizeof ph);
	ph.name = "server";
	ph.netns = ns;
	ph.iface = vb;
	ok(host_open(&ph, "/tmp", &h, &err) == 0, "open the netns host");
	before = tc_drops();
	ok(sampler_start(h, "server", vb, PLAN_COUNTER_NIC | PLAN_COUNTER_TCP,
			 0.1, 60, &s, &err) == 0,
	   "start a netns sampler: %s", err.msg);
	proc_sleep(0.6);
	sampler_mark(s);
	ns_traffic();
	proc_sleep(0.6);
	sampler_stop(s, &set);
	after = tc_drops();
	tx = series_set_find(&set, "server", "nic.tx_packets");
	ok(tx && tx->n >= 4 && ascending(tx), "several tx points, t ascends");
	ok(after - before > 50, "tbf dropped packets (%.0f)", after - before);
	is_near(sum_of(&set, "qdisc.drops"), after - before, 0,
		"qdisc.drops over the run = tc's count");
	is_str(set.note, "", "no note");
	series_set_release(&set);

	/* Its death: every process of the namespace killed. */
	memset(&set, 0, sizeof set);
	ok(sampler_start(h, "server", vb, PLAN_COUNTER_NIC, 0.1, 60, &s,
			 &err) == 0,
	   "start another");
	proc_sleep(0.5);
	run(&pids, "ip", "netns", "pids", ns, NULL);
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
	tap_plan(27);
	test_qdisc_parse();
	test_local();
	if (geteuid() != 0 || !proc_which("ip") || !proc_which("tc")) {
		tap_skip("netns sampler: need root, iproute2 and tc");
		return tap_done();
	}
	atexit(ns_cleanup);
	if (ns_setup() < 0) {
		ok(0, "create namespace %s with a veth pair and tbf", ns);
		return tap_done();
	}
	test_netns();
	return tap_done();
}
