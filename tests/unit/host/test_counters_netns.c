/* Probes, counters and facts through a real network-namespace host: a
 * namespace with a veth pair is created here (root only, netns_fixture.h),
 * the answers read through the netns transport are compared with direct
 * reads inside the namespace, real frames are sent over the veth, a real
 * tcpdump is started in it, and the sampler's in-process reader (a thread
 * that entered the namespace) is compared with the far side's reading. Without
 * root every check is skipped with a message (the unit test harness has no skip
 * status).
 *
 * SPDX-License-Identifier: MIT
 */
#include <arpa/inet.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <pthread.h> /* not C11 threads: TSan does not follow them */
#include <unistd.h>

#include "buf.h"
#include "counters.h"
#include "counters_int.h"
#include "facts.h"
#include "host.h"
#include "netns_fixture.h"
#include "plan.h"
#include "probe.h"
#include "proc.h"
#include "tap.h"

static int setup(void)
{
	if (fx_netns_up("xrc") < 0)
		return -1;
	if (fx_run(NULL, "ip", "-n", fx_ns.ns, "link", "set", fx_ns.vb, "mtu",
		   "1400", NULL) < 0 ||
	    fx_run(NULL, "ip", "netns", "exec", fx_ns.ns, "sysctl", "-q", "-w",
		   "net.ipv4.tcp_congestion_control=reno", NULL) < 0)
		return -1;
	return 0;
}

/* Raw Ethernet frames from the root-namespace end: no addresses needed,
 * so nothing can clash with other tests' networks. */
static int send_frames(int count, int size)
{
	struct sockaddr_ll sll = {0};
	unsigned char frame[1500] = {0};
	int fd = socket(AF_PACKET, SOCK_RAW, htons(0x88b5)), sent = 0;
	if (fd < 0)
		return -1;
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(0x88b5);
	sll.sll_ifindex = (int)if_nametoindex(fx_ns.va);
	sll.sll_halen = ETH_ALEN;
	memset(sll.sll_addr, 0xff, ETH_ALEN);
	memset(frame, 0xff, 6);
	frame[6] = 0x02;
	frame[11] = 0x01;
	frame[12] = 0x88;
	frame[13] = 0xb5;
	for (int i = 0; i < count; i++)
		sent += sendto(fd, frame, (size_t)size, 0,
			       (struct sockaddr *)&sll, sizeof sll) == size;
	close(fd);
	return sent;
}

static void test_probes(struct host *h)
{
	struct buf out = BUF_INIT, want = BUF_INIT;
	struct xr_err err = {0};
	char path[128];
	struct utsname u;

	snprintf(path, sizeof path, "/sys/class/net/%s/mtu", fx_ns.vb);
	ok(probe_read(h, "nic.mtu", fx_ns.vb, &out, &err) == 0,
	   "netns nic.mtu");
	fx_run(&want, "ip", "netns", "exec", fx_ns.ns, "cat", path, NULL);
	is_str(out.s, want.s, "nic.mtu = cat inside the namespace");
	is_str(out.s, "1400", "the mtu set in the namespace");
	ok(probe_read(h, "nic.mtu", NULL, &out, &err) == 0,
	   "interface from the host's iface:");
	ok(probe_read(h, "nic.driver", fx_ns.vb, &out, &err) == 0,
	   "netns nic.driver");
	is_str(out.s, "veth", "veth driver through ethtool -i");
	ok(probe_read(h, "nic.pcie_link", fx_ns.vb, &out, &err) < 0 &&
	       strstr(err.msg, "not a PCI device"),
	   "netns veth pcie: %s", err.msg);
	ok(probe_read(h, "tcp.cc", NULL, &out, &err) == 0, "netns tcp.cc");
	fx_run(&want, "ip", "netns", "exec", fx_ns.ns, "sysctl", "-n",
	       "net.ipv4.tcp_congestion_control", NULL);
	is_str(out.s, want.s, "tcp.cc = sysctl inside the namespace");
	is_str(out.s, "reno", "the namespace's own setting, not ours");
	ok(probe_read(h, "kernel", NULL, &out, &err) == 0, "netns kernel");
	uname(&u);
	is_str(out.s, u.release, "kernel through uname -r");
	ok(probe_read(h, "os.release", NULL, &out, &err) == 0,
	   "netns os.release");
	ok(out.len > 0, "os.release '%s'", out.s);
	ok(probe_read(h, "nic.mtu", fx_ns.va, &out, &err) < 0 &&
	       strstr(err.msg, "no interface"),
	   "root-namespace veth end not visible inside: %s", err.msg);

	/* the root-namespace end, read locally through the ioctl */
	ok(probe_read(NULL, "nic.driver", fx_ns.va, &out, &err) == 0,
	   "local nic.driver");
	is_str(out.s, "veth", "veth driver through ETHTOOL_GDRVINFO");
	buf_release(&out);
	buf_release(&want);
}

/*
 * A filter's TC_ACT_SHOT at the ingress hook is counted by the clsact
 * qdisc (parent ffff:fff1), not by the root: qdisc.ingress_drops. This
 * kernel has no act_police (CONFIG_NET_ACT_POLICE unset), so a u32
 * match-all filter whose mirred redirects to a device that is down
 * stands in for a policer: that redirect is TC_ACT_SHOT too
 * (net/sched/act_mirred.c), the same path into the qdisc's drops
 * (net/core/dev.c tc_run). 20 frames sent, >= 20 dropped (the kernel's
 * own IPv6 frames may add to them). 4 assertions. The filter's protocol
 * is tc's default, all (fx_run takes 23 arguments).
 */
static void test_ingress_drops(struct host *h)
{
	struct counters_snap *b = NULL, *a = NULL;
	struct counter_row *r = NULL;
	struct xr_err err = {0};
	size_t n = 0;
	double d = -1, root = 0;
	if (fx_run(NULL, "ip", "-n", fx_ns.ns, "link", "add", "xrpd0", "type",
		   "veth", "peer", "name", "xrpd1", NULL) < 0 ||
	    fx_run(NULL, "ip", "netns", "exec", fx_ns.ns, "tc", "qdisc", "add",
		   "dev", fx_ns.vb, "clsact", NULL) < 0 ||
	    fx_run(NULL, "ip", "netns", "exec", fx_ns.ns, "tc", "filter", "add",
		   "dev", fx_ns.vb, "ingress", "u32", "match", "u32", "0", "0",
		   "action", "mirred", "egress", "redirect", "dev", "xrpd0",
		   NULL) < 0) {
		tap_skip("no clsact, u32 or act_mirred here");
	} else {
		ok(counters_snapshot(h, fx_ns.vb, PLAN_COUNTER_NIC, &b, &err) ==
			   0 &&
		       (send_frames(20, 1000), 1) &&
		       counters_snapshot(h, fx_ns.vb, PLAN_COUNTER_NIC, &a,
					 &err) == 0 &&
		       counters_delta(b, a, &r, &n) == 0,
		   "snapshots around 20 frames into a dropping filter");
		for (size_t i = 0; i < n; i++) {
			if (strcmp(r[i].scope, "qdisc"))
				continue;
			if (!strcmp(r[i].name, "ingress_drops"))
				d = r[i].value;
			else if (!strcmp(r[i].name, "drops"))
				root = r[i].value;
		}
		ok(d >= 20, "qdisc.ingress_drops %.0f >= 20", d);
		ok(root <= 0, "the root (noqueue) counts none: %.0f", root);
		{
			struct fact *f = NULL;
			size_t nf = 0, k;
			facts_collect(h, fx_ns.vb, NULL, &f, &nf);
			for (k = 0; k < nf; k++)
				if (!strcmp(f[k].key, "police_ingress"))
					break;
			ok(k == nf, "a mirred filter is no policer: no fact");
			facts_free(f, nf);
		}
	}
	fx_run(NULL, "ip", "netns", "exec", fx_ns.ns, "tc", "qdisc", "del",
	       "dev", fx_ns.vb, "clsact", NULL);
	fx_run(NULL, "ip", "-n", fx_ns.ns, "link", "del", "xrpd0", NULL);
	free(r);
	counters_snap_free(b);
	counters_snap_free(a);
}

static void test_counters(struct host *h)
{
	unsigned all = PLAN_COUNTER_NIC | PLAN_COUNTER_TCP | PLAN_COUNTER_CPU |
		       PLAN_COUNTER_CAPTURE;
	struct counters_snap *b = NULL, *a = NULL, *l = NULL;
	struct counter_row *r = NULL;
	struct xr_err err = {0};
	struct buf idx = BUF_INIT;
	char path[128];
	size_t n = 0;
	double v = -1, rxb = -1, rxp = -1;
	int sent, got;

	ok(counters_snapshot(h, fx_ns.vb, all, &b, &err) == 0,
	   "netns snapshot before");
	sent = send_frames(50, 1000);
	is_int(sent, 50, "50 frames sent over the veth");
	ok(counters_snapshot(h, fx_ns.vb, all, &a, &err) == 0,
	   "netns snapshot after");
	if (!b || !a)
		return;
	ok(counters_delta(b, a, &r, &n) == 0, "delta");
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(r[i].scope, "nic") &&
		    !strcmp(r[i].name, "rx_bytes"))
			rxb = r[i].value;
		if (!strcmp(r[i].scope, "nic") &&
		    !strcmp(r[i].name, "rx_packets"))
			rxp = r[i].value;
	}
	ok(rxb >= 50000, "veth rx_bytes in the namespace %.0f >= 50000", rxb);
	ok(rxp >= 50, "veth rx_packets %.0f >= 50", rxp);

	/* ethtool -S inside the namespace, parsed */
	got = counters_snap_get(b, "ethtool", "peer_ifindex", &v);
	ok(got && v == (double)if_nametoindex(fx_ns.va),
	   "ethtool -S peer_ifindex %.0f = ifindex of the peer %u", v,
	   if_nametoindex(fx_ns.va));
	ok(counters_snap_get(b, "ethtool", "rx_queue_0_xdp_packets", &v),
	   "rx_queue_0_xdp_packets parsed");
	/* and the same statistics through the local ioctl on the peer */
	ok(counters_snapshot(NULL, fx_ns.va, all, &l, &err) == 0,
	   "local snapshot of the root end");
	snprintf(path, sizeof path, "/sys/class/net/%s/ifindex", fx_ns.vb);
	fx_run(&idx, "ip", "netns", "exec", fx_ns.ns, "cat", path, NULL);
	v = -1;
	got = l && counters_snap_get(l, "ethtool", "peer_ifindex", &v);
	ok(got && v == atof(idx.s),
	   "ETHTOOL_GSTATS peer_ifindex %.0f = ifindex in the namespace %s", v,
	   idx.s);
	ok(l && counters_snap_get(l, "ethtool", "tx_queue_0_xdp_xmit", &v),
	   "ioctl and ethtool -S name the same statistics");
	/* The local netdev section comes from netlink (IFLA_STATS64): the
	 * same names and numbers as the sysfs files (read before and after:
	 * the peer may still send neighbour discovery). */
	{
		static const char *const names[] = {
		    "rx_packets", "tx_packets", "rx_bytes",	"tx_bytes",
		    "rx_dropped", "tx_errors",	"rx_nohandler", "collisions"};
		enum { NN = sizeof names / sizeof *names };
		double lo[NN], hi[NN];
		struct counters_snap *m = NULL;
		for (int pass = 0; pass < 2; pass++) {
			if (pass == 1)
				counters_snapshot(NULL, fx_ns.va,
						  PLAN_COUNTER_NIC, &m, &err);
			for (size_t i = 0; i < NN; i++) {
				struct buf sv = BUF_INIT;
				snprintf(path, sizeof path,
					 "/sys/class/net/%s/statistics/%s",
					 fx_ns.va, names[i]);
				buf_read_file(&sv, path, 64);
				(pass ? hi : lo)[i] = sv.s ? atof(sv.s) : -2;
				buf_release(&sv);
			}
		}
		for (size_t i = 0; i < NN; i++) {
			int same;
			v = -1;
			same = m && counters_snap_get(m, "nic", names[i], &v) &&
			       v >= lo[i] && v <= hi[i];
			ok(same, "local nic %s %.0f = sysfs %.0f..%.0f",
			   names[i], v, lo[i], hi[i]);
		}
		counters_snap_free(m);
	}
	free(r);
	counters_snap_free(b);
	counters_snap_free(a);
	counters_snap_free(l);
	buf_release(&idx);
}

/* A thread inside the namespace (setns) with a counters_reader of its
 * own, as the sampler's: what it reads there. */
struct in_ns {
	struct buf doc;
	int rc;
};

static void *read_in_ns(void *arg)
{
	struct in_ns *r = arg;
	char path[64];
	struct counters_reader *rd;
	int fd;

	snprintf(path, sizeof path, "/run/netns/%s", fx_ns.ns);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	r->rc = fd >= 0 && setns(fd, CLONE_NEWNET) == 0 ? 0 : -1;
	if (fd >= 0)
		close(fd);
	rd = r->rc == 0 ? counters_reader_new(1) : NULL;
	if (rd)
		r->rc = counters_reader_document(
		    rd, fx_ns.vb, PLAN_COUNTER_NIC | PLAN_COUNTER_TCP, &r->doc);
	counters_reader_free(rd);
	return NULL;
}

/* Rows of b - a in scope (nic, tcp, udp): how many, and how many < 0. */
static size_t rows_of(const struct counters_snap *a,
		      const struct counters_snap *b, const char *scope,
		      size_t *negative)
{
	struct counter_row *r = NULL;
	size_t n = 0, k = 0;
	*negative = 0;
	if (a && b && counters_delta(a, b, &r, &n) == 0)
		for (size_t i = 0; i < n; i++)
			if (!strcmp(r[i].scope, scope)) {
				k++;
				*negative += r[i].value < 0;
			}
	free(r);
	return k;
}

/*
 * The in-process reader of the sampler (a thread that entered the
 * namespace) against the far side (`ip netns exec` with the counters
 * script: sysfs remounted there, cat /proc/net/snmp): every interface,
 * TCP and UDP counter read in-process lies between the two far-side
 * reads around it, the namespace's own UDP count (our datagrams, not the
 * root namespace's) included.
 */
static void test_reader(struct host *h)
{
	unsigned what = PLAN_COUNTER_NIC | PLAN_COUNTER_TCP;
	struct counters_snap *f1 = NULL, *f2 = NULL, *in = NULL;
	struct in_ns r = {BUF_INIT, -1};
	struct xr_err err = {0};
	static const char *const scopes[] = {"nic", "tcp", "udp"};
	static const size_t want[] = {24, 1, 0}; /* Udp: rows only when moved */
	double v1 = -1, vi = -2, v2 = -3;
	pthread_t t;

	fx_ns_udp(120);
	send_frames(30, 800);
	counters_snapshot(h, fx_ns.vb, what, &f1, &err);
	ok(pthread_create(&t, NULL, read_in_ns, &r) == 0 &&
	       pthread_join(t, NULL) == 0,
	   "a thread of ours");
	counters_snapshot(h, fx_ns.vb, what, &f2, &err);
	ok(r.rc == 0 && counters_parse(r.doc.s, r.doc.len, &in) == 0,
	   "a thread in the namespace read a document");
	ok(in && !counters_snap_missing_iface(in),
	   "it sees %s, which our namespace has not", fx_ns.vb);
	for (size_t k = 0; k < 3; k++) {
		size_t neg1, neg2;
		size_t n1 = rows_of(f1, in, scopes[k], &neg1);
		size_t n2 = rows_of(in, f2, scopes[k], &neg2);
		ok(n1 >= want[k] && n1 == n2 && neg1 == 0 && neg2 == 0,
		   "%s: %zu counters, each far-side before <= in-process <= "
		   "far-side after (%zu, %zu out of order)",
		   scopes[k], n1, neg1, neg2);
	}
	counters_snap_get(f1, "udp", "OutDatagrams", &v1);
	counters_snap_get(in, "udp", "OutDatagrams", &vi);
	counters_snap_get(f2, "udp", "OutDatagrams", &v2);
	ok(v1 == vi && vi == v2 && vi >= 120,
	   "Udp OutDatagrams of the namespace %.0f = far side %.0f, %.0f", vi,
	   v1, v2);
	counters_snap_get(f1, "nic", "rx_packets", &v1);
	counters_snap_get(in, "nic", "rx_packets", &vi);
	counters_snap_get(f2, "nic", "rx_packets", &v2);
	ok(v1 == vi && vi == v2 && vi >= 30,
	   "rx_packets of %s %.0f = far side %.0f, %.0f", fx_ns.vb, vi, v1, v2);
	counters_snap_free(f1);
	counters_snap_free(f2);
	counters_snap_free(in);
	buf_release(&r.doc);
}

static void test_capture_and_facts(struct host *h)
{
	const char *argv[] = {"ip", "netns",  "exec", fx_ns.ns,	   "tcpdump",
			      "-i", fx_ns.vb, "-w",   "/dev/null", NULL};
	struct proc_opts o = {0};
	struct counters_snap *b = NULL, *a = NULL;
	struct counter_row *r = NULL;
	struct xr_err err = {0};
	struct proc *p;
	struct fact *f = NULL;
	size_t n = 0, nf = 0;
	double tcpdumps = 0;
	const char *cap = NULL, *drv = NULL, *ipf = NULL, *hn = NULL;
	/* the version command an iperf3 plan hands in (runner/desc) */
	static const char *const ver[] = {"iperf3", "--version", NULL};
	const struct facts_tool tools[] = {{"iperf3_version", ver},
					   {NULL, NULL}};
	char me[256] = "";
	const char *mine = me;

	counters_snapshot(h, NULL, PLAN_COUNTER_CAPTURE, &b, &err);
	if (!proc_which("tcpdump")) {
		tap_skip("capture detection: tcpdump not installed");
	} else {
		o.argv = argv;
		p = proc_spawn(&o, NULL, &err);
		ok(p != NULL, "tcpdump started in the namespace");
		for (int i = 0; p && i < 50 && tcpdumps < 1; i++) {
			proc_sleep(0.1);
			counters_snap_free(a);
			a = NULL;
			counters_snapshot(h, NULL, PLAN_COUNTER_CAPTURE, &a,
					  &err);
			if (a && !counters_snap_get(a, "capture", "tcpdump",
						    &tcpdumps))
				tcpdumps = 0;
		}
		counters_delta(b, a, &r, &n);
		ok(n >= 1 && !strcmp(r[0].scope, "capture") &&
		       !strcmp(r[0].name, "tcpdump") && r[0].value >= 1,
		   "capture row tcpdump while it runs");
		free(r);
		facts_collect(h, fx_ns.vb, NULL, &f, &nf);
		for (size_t i = 0; i < nf; i++)
			if (!strcmp(f[i].key, "capture_running"))
				cap = f[i].value;
		ok(cap && !strncmp(cap, "yes: tcpdump", 12),
		   "fact capture_running '%s'", cap ? cap : "(none)");
		facts_free(f, nf);
		if (p)
			proc_stop(p);
	}
	counters_snap_free(a);
	counters_snap_free(b);

	ok(facts_collect(h, NULL, tools, &f, &nf) == 0, "netns facts");
	for (size_t i = 0; i < nf; i++) {
		printf("# fact %s = %s\n", f[i].key, f[i].value);
		if (!strcmp(f[i].key, "nic_driver"))
			drv = f[i].value;
		if (!strcmp(f[i].key, "iperf3_version"))
			ipf = f[i].value;
		if (!strcmp(f[i].key, "hostname"))
			hn = f[i].value;
	}
	gethostname(me, sizeof me - 1);
	is_str(drv, "veth", "fact nic_driver");
	is_str(hn, mine, "fact hostname (namespaces share the UTS name)");
	if (proc_which("iperf3"))
		ok(ipf && !strncmp(ipf, "iperf 3.", 8), "fact iperf3_version");
	facts_free(f, nf);
}

int main(void)
{
	tap_plan(57);
	struct plan_host ph;
	struct host *h = NULL;
	struct xr_err err = {0};

	if (geteuid() != 0 || !proc_which("ip")) {
		tap_skip_all("netns tests: need root and iproute2");
	}
	if (setup() < 0) {
		ok(0, "create namespace %s with a veth pair", fx_ns.ns);
		return tap_done();
	}
	memset(&ph, 0, sizeof ph);
	ph.name = "nsbox";
	ph.netns = fx_ns.ns;
	ph.iface = fx_ns.vb;
	ok(host_open(&ph, "/tmp", &h, &err) == 0, "open netns host");
	if (!h) {
		printf("# %s\n", err.msg);
		return tap_done();
	}
	ok(!host_is_local(h), "a netns host is not local");
	test_probes(h);
	test_counters(h);
	test_ingress_drops(h);
	test_reader(h);
	test_capture_and_facts(h);
	host_close(h);
	return tap_done();
}
