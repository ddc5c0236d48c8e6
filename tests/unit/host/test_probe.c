/* Probes on this machine's real interfaces (lo, and eth0 when it is
 * there), the remote interface script run by a real sh against the same
 * interpreter, and the formatting of a PCIe link.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "buf.h"
#include "probe.h"
#include "probe_int.h"
#include "proc.h"
#include "tap.h"

static char *read_trim(const char *path)
{
	struct buf b = BUF_INIT;
	if (buf_read_file(&b, path, 0) < 0) {
		buf_release(&b);
		return NULL;
	}
	while (b.len && (b.s[b.len - 1] == '\n' || b.s[b.len - 1] == ' '))
		b.s[--b.len] = '\0';
	return buf_detach(&b, NULL);
}

static int probe(const char *name, const char *iface, struct buf *out,
		 struct xr_err *err)
{
	memset(err, 0, sizeof *err);
	return probe_read(NULL, name, iface, out, err);
}

static void test_names(void)
{
	ok(probe_known("nic.pcie_link") && probe_known("kernel") &&
	       probe_known("tcp.cc") && probe_known("os.release"),
	   "documented probes are known");
	ok(!probe_known("nic.pcie") && !probe_known(NULL), "others are not");
	ok(probe_needs_iface("nic.mtu") && !probe_needs_iface("tcp.cc"),
	   "nic.* needs an interface");
	for (int i = 0; probe_names[i]; i++)
		ok(probe_known(probe_names[i]), "listed %s", probe_names[i]);
}

static void test_lo(void)
{
	struct buf out = BUF_INIT;
	struct xr_err err;
	char *want;
	struct utsname u;

	ok(probe("nic.mtu", "lo", &out, &err) == 0, "nic.mtu lo");
	want = read_trim("/sys/class/net/lo/mtu");
	is_str(out.s, want, "nic.mtu lo equals sysfs");
	is_str(out.s, "65536", "lo mtu 65536");
	free(want);
	ok(probe("nic.driver", "lo", &out, &err) == 0, "nic.driver lo");
	ok(out.len > 0, "lo driver non-empty: '%s'", out.s);
	is_str(out.s, "loopback", "lo has no ethtool driver: 'loopback'");
	ok(probe("nic.pcie_link", "lo", &out, &err) < 0, "nic.pcie_link lo");
	ok(strstr(err.msg, "'lo'") && strstr(err.msg, "not a PCI device"),
	   "clear message: %s", err.msg);
	ok(probe("nic.link_speed", "lo", &out, &err) == 0, "link_speed lo");
	is_str(out.s, "unknown", "lo speed is unknown (sysfs says EINVAL)");
	ok(probe("nic.firmware", "lo", &out, &err) < 0, "no firmware on lo: %s",
	   err.msg);

	ok(probe("tcp.cc", NULL, &out, &err) == 0, "tcp.cc");
	want = read_trim("/proc/sys/net/ipv4/tcp_congestion_control");
	is_str(out.s, want, "tcp.cc equals the sysctl");
	free(want);
	ok(probe("kernel", NULL, &out, &err) == 0, "kernel");
	uname(&u);
	is_str(out.s, u.release, "kernel equals uname -r");
	ok(probe("os.release", NULL, &out, &err) == 0, "os.release");
	ok(out.len > 0 && !strchr(out.s, '"') && !strchr(out.s, '\n'),
	   "os.release unquoted, one line: '%s'", out.s);

	ok(probe("nic.mtu", NULL, &out, &err) < 0 &&
	       strstr(err.msg, "needs an interface"),
	   "nic probe without interface: %s", err.msg);
	ok(probe("nic.mtu", "xrnosuch0", &out, &err) < 0 &&
	       strstr(err.msg, "no interface 'xrnosuch0'"),
	   "missing interface: %s", err.msg);
	ok(probe("nic.mtu", "../lo", &out, &err) < 0 &&
	       strstr(err.msg, "invalid interface name"),
	   "path in interface name refused: %s", err.msg);
	ok(probe("nic.speed", "lo", &out, &err) < 0 &&
	       strstr(err.msg, "unknown probe 'nic.speed'") &&
	       strstr(err.msg, "nic.link_speed"),
	   "unknown probe lists the known ones: %s", err.msg);
	buf_release(&out);
}

/* The script the transports run must give the same answers. */
static void test_script(const char *iface)
{
	static const char *const nic[] = {
	    "nic.driver",    "nic.firmware", "nic.link_speed", "nic.mtu",
	    "nic.pcie_link", "nic.duplex",   "nic.speed_mbps", NULL};
	const char *argv[] = {"sh", "-c",  probe_nic_script(),
			      "sh", iface, NULL};
	struct proc_opts o = {0};
	struct proc_result res = {0};
	struct buf a = BUF_INIT, b = BUF_INIT;
	struct xr_err e1, e2;

	o.argv = argv;
	o.timeout = 10;
	ok(proc_run(&o, &res, &e1) == 0, "run the interface script");
	for (int i = 0; nic[i]; i++) {
		int r1 = probe(nic[i], iface, &a, &e1);
		int r2 =
		    probe_from_nic_doc(NULL, nic[i], iface, res.out, &b, &e2);
		if (r1 == 0 && r2 == 0)
			is_str(b.s, a.s, nic[i]);
		else
			ok(r1 == r2 && strcmp(e1.msg, e2.msg) == 0,
			   "%s %s: same error ('%s' / '%s')", iface, nic[i],
			   e1.msg, e2.msg);
	}
	proc_result_release(&res);
	buf_release(&a);
	buf_release(&b);
}

static void test_eth0(void)
{
	struct buf out = BUF_INIT;
	struct xr_err err;
	char link[256];
	ssize_t n;

	n = readlink("/sys/class/net/eth0/device/driver", link,
		     sizeof link - 1);
	if (n <= 0) {
		printf("# skip eth0: no device driver link\n");
		return;
	}
	link[n] = '\0';
	ok(probe("nic.driver", "eth0", &out, &err) == 0, "nic.driver eth0");
	is_str(out.s, strrchr(link, '/') + 1, "eth0 driver = sysfs driver");
	if (access("/sys/class/net/eth0/device/current_link_speed", F_OK) &&
	    access("/sys/class/net/eth0/device/../current_link_speed", F_OK)) {
		ok(probe("nic.pcie_link", "eth0", &out, &err) < 0 &&
		       strstr(err.msg, "PCIe link"),
		   "no PCIe link: %s", err.msg);
	} else {
		ok(probe("nic.pcie_link", "eth0", &out, &err) == 0,
		   "nic.pcie_link eth0");
		ok(strstr(out.s, " GT/s x") && strstr(out.s, "(max "),
		   "pcie link: %s", out.s);
	}
	buf_release(&out);
}

static void test_pcie_format(void)
{
	static const char doc[] = "mtu: 9000\nspeed: 10000\nduplex: full\n"
				  "driver: ixgbe\nfirmware-version: 0x800\n"
				  "device: 1\n"
				  "current_link_speed: 8.0 GT/s PCIe\n"
				  "current_link_width: 1\n"
				  "max_link_speed: 8.0 GT/s PCIe\n"
				  "max_link_width: 4\n";
	struct buf out = BUF_INIT;
	struct xr_err err;
	ok(probe_from_nic_doc(NULL, "nic.pcie_link", "eth9", doc, &out, &err) ==
	       0,
	   "pcie from document");
	is_str(out.s, "8.0 GT/s x1 (max 8.0 GT/s x4)", "pcie link text");
	probe_from_nic_doc(NULL, "nic.link_speed", "eth9", doc, &out, &err);
	is_str(out.s, "10000Mb/s", "link speed text");
	probe_from_nic_doc(NULL, "nic.speed_mbps", "eth9", doc, &out, &err);
	is_str(out.s, "10000", "speed in Mb/s");
	probe_from_nic_doc(NULL, "nic.firmware", "eth9", doc, &out, &err);
	is_str(out.s, "0x800", "firmware");
	probe_from_nic_doc(NULL, "nic.driver", "eth9", doc, &out, &err);
	is_str(out.s, "ixgbe", "driver");
	ok(probe_from_nic_doc(NULL, "nic.mtu", "eth9", "noiface: 1\n", &out,
			      &err) < 0 &&
	       strstr(err.msg, "no interface 'eth9'"),
	   "missing interface: %s", err.msg);
	probe_from_nic_doc(NULL, "nic.driver", "br0",
			   "flags: 0x1003\ndevtype: bridge\n", &out, &err);
	is_str(out.s, "bridge", "virtual device type as driver");
	buf_release(&out);
}

int main(void)
{
	tap_plan(45); /* at least: without eth0 its checks do not run */
	test_names();
	test_lo();
	test_script("lo");
	if (access("/sys/class/net/eth0", F_OK) == 0) {
		test_script("eth0");
		test_eth0();
	}
	test_pcie_format();
	return tap_done();
}
