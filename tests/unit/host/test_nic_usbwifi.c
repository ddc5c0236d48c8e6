/* The interface script (probe.c) on a fake /sys/class/net, bound over the
 * real one in a private mount namespace (unshare -m, root): a USB adapter
 * (device -> a USB interface with bInterfaceNumber, whose parent has
 * speed 5000 and version " 3.20", as drivers/usb/core/sysfs.c prints
 * them), a wireless interface (wireless/) and a PCI-like one (neither).
 * The script must give usb_speed, usb_version and wireless only where
 * they belong; nicrate.c turns them into the nic_usb_link value.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "kv.h"
#include "nicrate.h"
#include "probe_int.h"
#include "proc.h"
#include "tap.h"

static char root[64];

static void put(const char *rel, const char *text)
{
	char path[256];
	FILE *f;
	snprintf(path, sizeof path, "%s/%s", root, rel);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void mk(const char *rel)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", root, rel);
	for (char *p = path + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(path, 0755);
			*p = '/';
		}
	mkdir(path, 0755);
}

static int doc_of(const char *iface, struct buf *out)
{
	const char *argv[] = {"unshare",
			      "-m",
			      "sh",
			      "-c",
			      "mount --bind \"$1\" /sys/class/net || exit 9; "
			      "shift; exec sh -c \"$0\" sh \"$1\"",
			      probe_nic_script(),
			      root,
			      iface,
			      NULL};
	struct proc_opts o = {0};
	struct proc_result res = {0};
	struct xr_err e;
	int rc;
	o.argv = argv;
	o.timeout = 10;
	rc = proc_run(&o, &res, &e);
	if (rc == 0 && res.exit_code == 0) {
		buf_reset(out);
		buf_adds(out, res.out ? res.out : "");
	} else {
		rc = -1;
	}
	proc_result_release(&res);
	return rc;
}

int main(void)
{
	struct buf d = BUF_INIT, v = BUF_INIT, s = BUF_INIT, l = BUF_INIT;
	int rc;
	snprintf(root, sizeof root, "/tmp/xr-usbwifi-%ld", (long)getpid());
	mk("devs/usb2/2-1/2-1:1.0");
	put("devs/usb2/2-1/speed", "5000\n");
	put("devs/usb2/2-1/version", " 3.20\n");
	put("devs/usb2/2-1/2-1:1.0/bInterfaceNumber", "00\n");
	mk("devs/pci/0000:01:00.0");
	mk("usb0");
	put("usb0/mtu", "1500\n");
	mk("wlan0/wireless");
	put("wlan0/mtu", "1500\n");
	mk("eth0");
	put("eth0/mtu", "1500\n");
	{
		char a[256], b[256];
		snprintf(a, sizeof a, "%s/devs/usb2/2-1/2-1:1.0", root);
		snprintf(b, sizeof b, "%s/usb0/device", root);
		if (symlink(a, b) != 0)
			tap_skip_all("cannot make the fake sysfs links");
		snprintf(a, sizeof a, "%s/devs/pci/0000:01:00.0", root);
		snprintf(b, sizeof b, "%s/eth0/device", root);
		if (symlink(a, b) != 0)
			tap_skip_all("cannot make the fake sysfs links");
	}
	if (doc_of("usb0", &d) != 0) {
		tap_skip_all("no private mount namespace (unshare -m as root)");
	}
	tap_plan(7);
	ok(kv_get(d.s, "usb_speed", &s) && !strcmp(s.s, "5000"),
	   "usb0: usb_speed 5000 (doc: %s)", d.s);
	ok(kv_get(d.s, "usb_version", &v) && !strcmp(v.s, "3.20"),
	   "usb0: usb_version 3.20");
	rc = nicrate_usb_link(s.s, v.s, &l);
	ok(rc == 0 && !strcmp(l.s, "5 Gb/s (USB 3.20)"),
	   "usb0: nic_usb_link '%s'", l.s ? l.s : "");
	ok(!kv_get(d.s, "wireless", &s), "usb0: not wireless");
	rc = doc_of("wlan0", &d);
	ok(rc == 0 && kv_get(d.s, "wireless", &s), "wlan0: wireless (doc: %s)",
	   d.s);
	rc = doc_of("eth0", &d);
	ok(rc == 0 && !kv_get(d.s, "usb_speed", &s),
	   "eth0 on PCI: no usb_speed (doc: %s)", d.s);
	ok(!kv_get(d.s, "wireless", &s), "eth0: not wireless");
	{
		const char *rm[] = {"rm", "-rf", root, NULL};
		struct proc_opts o = {0};
		struct proc_result res = {0};
		struct xr_err e;
		o.argv = rm;
		o.timeout = 10;
		proc_run(&o, &res, &e);
		proc_result_release(&res);
	}
	buf_release(&d);
	buf_release(&v);
	buf_release(&s);
	buf_release(&l);
	return tap_done();
}
