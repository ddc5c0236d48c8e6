/* Probes, counters and facts through a real network-namespace host: a
 * namespace with a veth pair is created here (root only), the answers
 * read through the netns transport are compared with direct reads inside
 * the namespace, real frames are sent over the veth, and a real tcpdump
 * is started in it. Without root every check is skipped with a message
 * (the unit test harness has no skip status). */
#include <arpa/inet.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "buf.h"
#include "counters.h"
#include "counters_int.h"
#include "facts.h"
#include "host.h"
#include "plan.h"
#include "probe.h"
#include "proc.h"
#include "tap.h"

static char ns[16], va[24], vb[24];

/* Run argv (NULL-terminated varargs); stdout trimmed into out if given. */
static int run(struct buf *out, const char *a0, ...)
{
	const char *argv[16];
	struct proc_opts o = {0};
	struct proc_result r = {0};
	struct xr_err err;
	va_list ap;
	int n = 0, rc;

	argv[n++] = a0;
	va_start(ap, a0);
	while (n < 15 && (argv[n] = va_arg(ap, const char *)) != NULL)
		n++;
	va_end(ap);
	argv[n] = NULL;
	o.argv = argv;
	o.timeout = 20;
	rc = proc_run(&o, &r, &err);
	if (rc == 0 && (r.status != PROC_EXITED || r.exit_code != 0)) {
		printf("# '%s %s' failed: %s\n", a0, argv[1] ? argv[1] : "",
		       r.err ? r.err : "");
		rc = -1;
	}
	if (out) {
		buf_reset(out);
		if (r.out)
			buf_adds(out, r.out);
		while (out->len && out->s[out->len - 1] == '\n')
			out->s[--out->len] = '\0';
	}
	proc_result_release(&r);
	return rc;
}

static void cleanup(void)
{
	if (ns[0])
		run(NULL, "ip", "netns", "del", ns, NULL);
}

static int setup(void)
{
	snprintf(ns, sizeof ns, "xrc%d", (int)getpid() % 1000000);
	snprintf(va, sizeof va, "%sa", ns);
	snprintf(vb, sizeof vb, "%sb", ns);
	atexit(cleanup);
	if (run(NULL, "ip", "netns", "add", ns, NULL) < 0)
		return -1;
	if (run(NULL, "ip", "link", "add", va, "type", "veth", "peer", "name",
		vb, "netns", ns, NULL) < 0 ||
	    run(NULL, "ip", "link", "set", va, "up", NULL) < 0 ||
	    run(NULL, "ip", "-n", ns, "link", "set", vb, "mtu", "1400", "up",
		NULL) < 0 ||
	    run(NULL, "ip", "netns", "exec", ns, "sysctl", "-q", "-w",
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
	sll.sll_ifindex = (int)if_nametoindex(va);
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

	snprintf(path, sizeof path, "/sys/class/net/%s/mtu", vb);
	ok(probe_read(h, "nic.mtu", vb, &out, &err) == 0, "netns nic.mtu");
	run(&want, "ip", "netns", "exec", ns, "cat", path, NULL);
	is_str(out.s, want.s, "nic.mtu = cat inside the namespace");
	is_str(out.s, "1400", "the mtu set in the namespace");
	ok(probe_read(h, "nic.mtu", NULL, &out, &err) == 0,
	   "interface from the host's iface:");
	ok(probe_read(h, "nic.driver", vb, &out, &err) == 0,
	   "netns nic.driver");
	is_str(out.s, "veth", "veth driver through ethtool -i");
	ok(probe_read(h, "nic.pcie_link", vb, &out, &err) < 0 &&
	       strstr(err.msg, "not a PCI device"),
	   "netns veth pcie: %s", err.msg);
	ok(probe_read(h, "tcp.cc", NULL, &out, &err) == 0, "netns tcp.cc");
	run(&want, "ip", "netns", "exec", ns, "sysctl", "-n",
	    "net.ipv4.tcp_congestion_control", NULL);
	is_str(out.s, want.s, "tcp.cc = sysctl inside the namespace");
	is_str(out.s, "reno", "the namespace's own setting, not ours");
	ok(probe_read(h, "kernel", NULL, &out, &err) == 0, "netns kernel");
	uname(&u);
	is_str(out.s, u.release, "kernel through uname -r");
	ok(probe_read(h, "os.release", NULL, &out, &err) == 0,
	   "netns os.release");
	ok(out.len > 0, "os.release '%s'", out.s);
	ok(probe_read(h, "nic.mtu", va, &out, &err) < 0 &&
	       strstr(err.msg, "no interface"),
	   "root-namespace veth end not visible inside: %s", err.msg);

	/* the root-namespace end, read locally through the ioctl */
	ok(probe_read(NULL, "nic.driver", va, &out, &err) == 0,
	   "local nic.driver");
	is_str(out.s, "veth", "veth driver through ETHTOOL_GDRVINFO");
	buf_release(&out);
	buf_release(&want);
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

	ok(counters_snapshot(h, vb, all, &b, &err) == 0,
	   "netns snapshot before");
	sent = send_frames(50, 1000);
	is_int(sent, 50, "50 frames sent over the veth");
	ok(counters_snapshot(h, vb, all, &a, &err) == 0,
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
	ok(got && v == (double)if_nametoindex(va),
	   "ethtool -S peer_ifindex %.0f = ifindex of the peer %u", v,
	   if_nametoindex(va));
	ok(counters_snap_get(b, "ethtool", "rx_queue_0_xdp_packets", &v),
	   "rx_queue_0_xdp_packets parsed");
	/* and the same statistics through the local ioctl on the peer */
	ok(counters_snapshot(NULL, va, all, &l, &err) == 0,
	   "local snapshot of the root end");
	snprintf(path, sizeof path, "/sys/class/net/%s/ifindex", vb);
	run(&idx, "ip", "netns", "exec", ns, "cat", path, NULL);
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
				counters_snapshot(NULL, va, PLAN_COUNTER_NIC,
						  &m, &err);
			for (size_t i = 0; i < NN; i++) {
				struct buf sv = BUF_INIT;
				snprintf(path, sizeof path,
					 "/sys/class/net/%s/statistics/%s", va,
					 names[i]);
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

static void test_capture_and_facts(struct host *h)
{
	const char *argv[] = {"ip", "netns", "exec", ns,	  "tcpdump",
			      "-i", vb,	     "-w",   "/dev/null", NULL};
	struct proc_opts o = {0};
	struct counters_snap *b = NULL, *a = NULL;
	struct counter_row *r = NULL;
	struct xr_err err = {0};
	struct proc *p;
	struct fact *f = NULL;
	size_t n = 0, nf = 0;
	double tcpdumps = 0;
	const char *cap = NULL, *drv = NULL, *ipf = NULL, *hn = NULL;
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
		facts_collect(h, vb, &f, &nf);
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

	ok(facts_collect(h, NULL, &f, &nf) == 0, "netns facts");
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
	tap_plan(37);
	struct plan_host ph;
	struct host *h = NULL;
	struct xr_err err = {0};

	if (geteuid() != 0 || !proc_which("ip")) {
		tap_skip_all("netns tests: need root and iproute2");
	}
	if (setup() < 0) {
		ok(0, "create namespace %s with a veth pair", ns);
		return tap_done();
	}
	memset(&ph, 0, sizeof ph);
	ph.name = "nsbox";
	ph.netns = ns;
	ph.iface = vb;
	ok(host_open(&ph, "/tmp", &h, &err) == 0, "open netns host");
	if (!h) {
		printf("# %s\n", err.msg);
		return tap_done();
	}
	ok(!host_is_local(h), "a netns host is not local");
	test_probes(h);
	test_counters(h);
	test_capture_and_facts(h);
	host_close(h);
	return tap_done();
}
