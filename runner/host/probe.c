/*
 * Built-in probes: named readings of a host's state that `verify:` checks
 * and host facts record. Every nic.* probe is answered from one document
 * of "key: value" lines about the interface: built here from sysfs and
 * the ETHTOOL_GDRVINFO ioctl on the local host, or printed by one fixed
 * sh script (interface as $1, never spliced into the script) through the
 * transport on any other host, network namespaces included (their /sys is
 * only visible from inside). One interpreter reads both.
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "buf.h"
#include "host.h"
#include "hostos.h"
#include "kv.h"
#include "probe.h"
#include "probe_int.h"
#include "sysread.h"

#include "banned.h"

const char *const probe_names[] = {"nic.driver",    "nic.driver_version",
				   "nic.firmware",  "nic.link_speed",
				   "nic.mtu",	    "nic.pcie_link",
				   "nic.duplex",    "nic.speed_mbps",
				   "tcp.cc",	    "os.release",
				   "kernel",	    "nic.property:",
				   "nic.registry:", NULL};

/* "nic.property:NAME": an adapter's advanced property's DisplayValue,
 * "nic.registry:NAME" its RegistryValue (Windows; NAME is the DisplayName
 * or the RegistryKeyword). */
#define PROBE_PROPERTY "nic.property:"
#define PROBE_REGISTRY "nic.registry:"

/* The NAME of a "nic.property:NAME" / "nic.registry:NAME" probe, or NULL;
 * *key: the doc key prefix it reads. */
static const char *property_name(const char *name, const char **key)
{
	static const struct {
		const char *prefix, *key;
	} fam[] = {{PROBE_PROPERTY, "property."},
		   {PROBE_REGISTRY, "registry."}};
	for (size_t i = 0; name && i < sizeof fam / sizeof fam[0]; i++) {
		size_t n = strlen(fam[i].prefix);
		if (strncmp(name, fam[i].prefix, n) == 0 && name[n]) {
			if (key)
				*key = fam[i].key;
			return name + n;
		}
	}
	return NULL;
}

int probe_known(const char *name)
{
	for (int i = 0; name && probe_names[i]; i++)
		if (strcmp(name, probe_names[i]) == 0)
			return 1;
	return property_name(name, NULL) != NULL;
}

const char *probe_fact_key(const char *name)
{
	/* facts.c reads these through the same probe (nic_facts, the
	 * probe_read of os.release and kernel); nic_link adds the duplex to
	 * nic.link_speed's value, so that one is not the same read. */
	static const char *const map[][2] = {{"nic.driver", "nic_driver"},
					     {"nic.firmware", "nic_firmware"},
					     {"nic.pcie_link", "nic_pcie_link"},
					     {"nic.mtu", "nic_mtu"},
					     {"os.release", "os_release"},
					     {"kernel", "kernel"}};
	for (size_t i = 0; name && i < sizeof map / sizeof *map; i++)
		if (!strcmp(name, map[i][0]))
			return map[i][1];
	return NULL;
}

int probe_needs_iface(const char *name)
{
	return name && strncmp(name, "nic.", 4) == 0;
}

static const char nic_script[] =
    "PATH=$PATH:/usr/sbin:/sbin\n"
    "d=/sys/class/net/$1\n"
    "[ -d \"$d\" ] || { echo 'noiface: 1'; exit 0; }\n"
    "r() { v=; if { read -r v <\"$2\" || [ -n \"$v\" ]; } 2>/dev/null; "
    "then printf '%s: %s\\n' \"$1\" \"$v\"; fi; }\n"
    "r mtu \"$d/mtu\"; r speed \"$d/speed\"; r duplex \"$d/duplex\"\n"
    "r flags \"$d/flags\"\n"
    "if command -v ethtool >/dev/null 2>&1; then\n"
    "  ethtool -i \"$1\" 2>/dev/null\n"
    "fi\n"
    "{ while read -r u; do case $u in DEVTYPE=*) "
    "echo \"devtype: ${u#DEVTYPE=}\";; esac; done <\"$d/uevent\"; } "
    "2>/dev/null\n"
    "if [ -e \"$d/device\" ]; then\n"
    "  echo 'device: 1'\n"
    "  l=$(readlink \"$d/device/driver\" 2>/dev/null) && "
    "echo \"linkdriver: ${l##*/}\"\n"
    "  for p in \"$d/device\" \"$d/device/..\"; do\n"
    "    if [ -r \"$p/current_link_speed\" ]; then\n"
    "      for f in current_link_speed current_link_width max_link_speed "
    "max_link_width; do r \"$f\" \"$p/$f\"; done\n"
    "      break\n"
    "    fi\n"
    "  done\n"
    "  if [ -e \"$d/device/bInterfaceNumber\" ]; then\n"
    "    r usb_speed \"$d/device/../speed\"; "
    "r usb_version \"$d/device/../version\"\n"
    "  fi\n"
    "fi\n"
    "if [ -e \"$d/wireless\" ] || [ -e \"$d/phy80211\" ]; then "
    "echo 'wireless: 1'; fi\n"
    "exit 0\n";

const char *probe_nic_script(void)
{
	return nic_script;
}

/* Add "key: <first line of path>" when the file can be read. */
static void doc_file(struct buf *doc, const char *key, const char *path)
{
	struct buf v = BUF_INIT;
	if (buf_read_file(&v, path, 4096) == 0) {
		sysread_trim_line(&v);
		buf_addf(doc, "%s: %s\n", key, v.s);
	}
	buf_release(&v);
}

static void doc_drvinfo(struct buf *doc, const char *iface)
{
	struct ethtool_drvinfo di;
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return;
	memset(&di, 0, sizeof di);
	memset(&ifr, 0, sizeof ifr);
	di.cmd = ETHTOOL_GDRVINFO;
	snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%s", iface);
	ifr.ifr_data = (void *)&di;
	if (ioctl(fd, SIOCETHTOOL, &ifr) == 0) {
		buf_addf(doc, "driver: %.*s\n", (int)sizeof di.driver,
			 di.driver);
		buf_addf(doc, "version: %.*s\n", (int)sizeof di.version,
			 di.version);
		buf_addf(doc, "firmware-version: %.*s\n",
			 (int)sizeof di.fw_version, di.fw_version);
		buf_addf(doc, "bus-info: %.*s\n", (int)sizeof di.bus_info,
			 di.bus_info);
	}
	close(fd);
}

/* A USB adapter's device is its USB interface (bInterfaceNumber); the USB
 * device above it has the negotiated speed in Mbit/s and the version
 * (Documentation/ABI/testing/sysfs-bus-usb). A Wi-Fi interface has
 * wireless/ or phy80211 (net/wireless/sysfs.c, net/core/net-sysfs.c). */
static void usb_doc(struct buf *doc, const char *d)
{
	char path[160];
	snprintf(path, sizeof path, "%s/device/bInterfaceNumber", d);
	if (access(path, F_OK) == 0) {
		snprintf(path, sizeof path, "%s/device/../speed", d);
		doc_file(doc, "usb_speed", path);
		snprintf(path, sizeof path, "%s/device/../version", d);
		doc_file(doc, "usb_version", path);
	}
}

static void wireless_doc(struct buf *doc, const char *d)
{
	char path[160];
	snprintf(path, sizeof path, "%s/wireless", d);
	if (access(path, F_OK) != 0)
		snprintf(path, sizeof path, "%s/phy80211", d);
	if (access(path, F_OK) == 0)
		buf_adds(doc, "wireless: 1\n");
}

static int local_nic_doc(const char *iface, struct buf *doc)
{
	static const char *const pcie[] = {"current_link_speed",
					   "current_link_width",
					   "max_link_speed", "max_link_width"};
	char d[64], path[160], link[512];
	struct buf ue = BUF_INIT;
	ssize_t n;

	snprintf(d, sizeof d, "/sys/class/net/%s", iface);
	if (access(d, F_OK) != 0)
		return buf_adds(doc, "noiface: 1\n");
	snprintf(path, sizeof path, "%s/mtu", d);
	doc_file(doc, "mtu", path);
	snprintf(path, sizeof path, "%s/speed", d);
	doc_file(doc, "speed", path);
	snprintf(path, sizeof path, "%s/duplex", d);
	doc_file(doc, "duplex", path);
	snprintf(path, sizeof path, "%s/flags", d);
	doc_file(doc, "flags", path);
	doc_drvinfo(doc, iface);
	snprintf(path, sizeof path, "%s/uevent", d);
	if (buf_read_file(&ue, path, 65536) == 0) {
		const char *t = strstr(ue.s, "DEVTYPE=");
		if (t && (t == ue.s || t[-1] == '\n'))
			buf_addf(doc, "devtype: %.*s\n",
				 (int)strcspn(t + 8, "\n"), t + 8);
	}
	buf_release(&ue);
	wireless_doc(doc, d);
	snprintf(path, sizeof path, "%s/device", d);
	if (access(path, F_OK) != 0)
		return doc->truncated ? -XR_ENOMEM : 0;
	buf_adds(doc, "device: 1\n");
	snprintf(path, sizeof path, "%s/device/driver", d);
	n = readlink(path, link, sizeof link - 1);
	if (n > 0) {
		const char *base;
		link[n] = '\0';
		base = strrchr(link, '/');
		buf_addf(doc, "linkdriver: %s\n", base ? base + 1 : link);
	}
	/* A virtio or USB NIC hangs below its PCI device. */
	for (int up = 0; up < 2; up++) {
		snprintf(path, sizeof path, "%s/device%s/current_link_speed", d,
			 up ? "/.." : "");
		if (access(path, R_OK) != 0)
			continue;
		for (int i = 0; i < 4; i++) {
			snprintf(path, sizeof path, "%s/device%s/%s", d,
				 up ? "/.." : "", pcie[i]);
			doc_file(doc, pcie[i], path);
		}
		break;
	}
	usb_doc(doc, d);
	return doc->truncated ? -XR_ENOMEM : 0;
}

int probe_nic_doc(struct host *h, const char *iface, struct buf *doc,
		  struct xr_err *err)
{
	const char *argv[] = {"sh", "-c", nic_script, "sh", iface, NULL};
	if (!sysread_is_local(h) && host_os(h) != PLAN_OS_LINUX) {
		if (hostos_iface_ok(host_os(h), iface, err) < 0)
			return -XR_EUSAGE;
		return hostos_read(h, HOSTOS_NIC, iface, NULL, doc, err);
	}
	if (sysread_iface_ok(iface, err) < 0)
		return -XR_EUSAGE;
	if (sysread_is_local(h)) {
		int rc = local_nic_doc(iface, doc);
		if (rc < 0)
			return xr_err_set(err, rc, NULL, 0, 0,
					  "out of memory reading interface "
					  "'%s'",
					  iface);
		return 0;
	}
	return sysread_run(h, argv, 20.0, doc, err);
}

/* "8.0 GT/s PCIe" -> "8.0 GT/s" */
static void strip_pcie(struct buf *b)
{
	if (b->len >= 5 && strcmp(b->s + b->len - 5, " PCIe") == 0) {
		b->len -= 5;
		b->s[b->len] = '\0';
	}
}

static int nic_pcie(struct host *h, const char *iface, const char *doc,
		    struct buf *out, struct xr_err *err)
{
	struct buf cs = BUF_INIT, cw = BUF_INIT, ms = BUF_INIT, mw = BUF_INIT;
	int rc = 0;

	if (kv_get(doc, "source", &cs) && !kv_get(doc, "device", &mw)) {
		/* Windows or macOS: say what was asked (hostos.h) */
		rc = xr_err_set(err, XR_EHOST, NULL, 0, 0,
				"interface '%s' on host '%s' has no PCIe link "
				"(%s shows none: a USB or virtual adapter)",
				iface, sysread_host_name(h), cs.s);
	} else if (!kv_get(doc, "device", &cs)) {
		rc = xr_err_set(err, XR_EHOST, NULL, 0, 0,
				"interface '%s' on host '%s' is not a PCI "
				"device (a virtual interface: it has no "
				"/sys/class/net/%s/device)",
				iface, sysread_host_name(h), iface);
	} else if (!kv_get(doc, "current_link_speed", &cs) ||
		   !kv_get(doc, "current_link_width", &cw)) {
		rc = xr_err_set(err, XR_EHOST, NULL, 0, 0,
				"interface '%s' on host '%s' is not a PCI "
				"device with a PCIe link (sysfs shows no "
				"current_link_speed for it)",
				iface, sysread_host_name(h));
	} else {
		strip_pcie(&cs);
		buf_reset(out);
		buf_addf(out, "%s x%s", cs.s, cw.s);
		if (kv_get(doc, "max_link_speed", &ms) &&
		    kv_get(doc, "max_link_width", &mw)) {
			strip_pcie(&ms);
			buf_addf(out, " (max %s x%s)", ms.s, mw.s);
		}
	}
	buf_release(&cs);
	buf_release(&cw);
	buf_release(&ms);
	buf_release(&mw);
	return rc;
}

static int nic_driver(struct host *h, const char *iface, const char *doc,
		      struct buf *out, struct xr_err *err)
{
	struct buf f = BUF_INIT;
	int rc = 0;

	if ((kv_get(doc, "driver", out) && out->len) ||
	    (kv_get(doc, "linkdriver", out) && out->len)) {
		;
	} else if (kv_get(doc, "flags", &f) &&
		   (strtoul(f.s, NULL, 0) & IFF_LOOPBACK)) {
		buf_reset(out);
		buf_adds(out, "loopback");
	} else if (kv_get(doc, "devtype", out) && out->len) {
		;
	} else {
		rc = xr_err_set(err, XR_EHOST, NULL, 0, 0,
				"cannot tell the driver of interface '%s' on "
				"host '%s' (no ethtool driver information, no "
				"device link in sysfs)",
				iface, sysread_host_name(h));
	}
	buf_release(&f);
	return rc;
}

int probe_from_nic_doc(struct host *h, const char *name, const char *iface,
		       const char *doc, struct buf *out, struct xr_err *err)
{
	struct buf tmp = BUF_INIT;
	const char *prop, *pkey = "property.";
	int rc = 0;

	if (kv_get(doc, "noiface", &tmp)) {
		struct buf list = BUF_INIT;
		if (!kv_get(doc, "names", &list))
			buf_adds(&list, "ip link");
		rc = xr_err_set(err, XR_EHOST, NULL, 0, 0,
				"no interface '%s' on host '%s' (see `%s` "
				"there for valid names)",
				iface, sysread_host_name(h), list.s);
		buf_release(&list);
		buf_release(&tmp);
		return rc;
	}
	buf_reset(out);
	if (strcmp(name, "nic.driver") == 0) {
		rc = nic_driver(h, iface, doc, out, err);
	} else if (strcmp(name, "nic.firmware") == 0) {
		if (!kv_get(doc, "firmware-version", out) || !out->len ||
		    strcmp(out->s, "N/A") == 0)
			rc = xr_err_set(err, XR_EHOST, NULL, 0, 0,
					"interface '%s' on host '%s' reports "
					"no firmware version",
					iface, sysread_host_name(h));
	} else if (strcmp(name, "nic.mtu") == 0) {
		if (!kv_get(doc, "mtu", out))
			rc = xr_err_set(err, XR_EHOST, NULL, 0, 0,
					"cannot read the mtu of interface "
					"'%s' on host '%s'",
					iface, sysread_host_name(h));
	} else if (strcmp(name, "nic.link_speed") == 0 ||
		   strcmp(name, "nic.speed_mbps") == 0) {
		long v =
		    kv_get(doc, "speed", &tmp) ? strtol(tmp.s, NULL, 10) : -1;
		if (v <= 0)
			buf_adds(out, "unknown");
		else
			buf_addf(out, "%ld%s", v, name[4] == 'l' ? "Mb/s" : "");
	} else if (strcmp(name, "nic.duplex") == 0) {
		if (!kv_get(doc, "duplex", out) || !out->len)
			buf_adds(out, "unknown");
	} else if (strcmp(name, "nic.pcie_link") == 0) {
		rc = nic_pcie(h, iface, doc, out, err);
	} else if (strcmp(name, "nic.driver_version") == 0) {
		if (!kv_get(doc, "version", out) || !out->len)
			rc = xr_err_set(err, XR_EHOST, NULL, 0, 0,
					"interface '%s' on host '%s' reports "
					"no driver version",
					iface, sysread_host_name(h));
	} else if ((prop = property_name(name, &pkey)) != NULL) {
		buf_addf(&tmp, "%s%s", pkey, prop);
		if (!kv_get(doc, tmp.s, out))
			rc = xr_err_set(
			    err, XR_EHOST, NULL, 0, 0,
			    "interface '%s' on host '%s' has no advanced "
			    "property '%s'%s (Windows hosts only: see "
			    "Get-NetAdapterAdvancedProperty -Name '%s')",
			    iface, sysread_host_name(h), prop,
			    pkey[0] == 'r' ? " with a registry value" : "",
			    iface);
	} else {
		rc = xr_err_set(err, XR_EINTERNAL, NULL, 0, 0,
				"'%s' is not an interface probe", name);
	}
	buf_release(&tmp);
	return rc;
}

/* PRETTY_NAME="Debian GNU/Linux 12 (bookworm)" */
static int os_release(struct host *h, struct buf *out, struct xr_err *err)
{
	struct buf f = BUF_INIT;
	int rc = sysread_file(h, "/etc/os-release", &f, err);
	if (rc < 0) {
		buf_reset(&f);
		rc = sysread_file(h, "/usr/lib/os-release", &f, err);
	}
	if (rc == 0) {
		const char *p = strstr(f.s, "PRETTY_NAME=");
		rc = -XR_EHOST;
		if (p && (p == f.s || p[-1] == '\n')) {
			const char *s = p + 12;
			size_t n = strcspn(s, "\n");
			if (n >= 2 && (s[0] == '"' || s[0] == '\'') &&
			    s[n - 1] == s[0]) {
				s++;
				n -= 2;
			}
			buf_reset(out);
			buf_add(out, s, n);
			rc = 0;
		}
		if (rc < 0)
			xr_err_set(err, XR_EHOST, NULL, 0, 0,
				   "no PRETTY_NAME in /etc/os-release on "
				   "host '%s'",
				   sysread_host_name(h));
	}
	buf_release(&f);
	return rc;
}

static int kernel(struct host *h, struct buf *out, struct xr_err *err)
{
	static const char *const argv[] = {"uname", "-r", NULL};
	if (sysread_is_local(h)) {
		struct utsname u;
		if (uname(&u) < 0)
			return xr_err_set(err, XR_EHOST, NULL, 0, 0,
					  "uname failed: %s", strerror(errno));
		return buf_adds(out, u.release);
	}
	return sysread_run(h, argv, 20.0, out, err);
}

/* tcp.cc, os.release, kernel of a Windows or macOS host. */
static int system_probe(struct host *h, const char *name, struct buf *out,
			struct xr_err *err)
{
	static const struct {
		const char *probe, *key;
	} keys[] = {{"tcp.cc", "tcp_cc"},
		    {"os.release", "os_release"},
		    {"kernel", "kernel"}};
	struct buf doc = BUF_INIT;
	const char *key = NULL;
	int rc;
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (strcmp(name, keys[i].probe) == 0)
			key = keys[i].key;
	rc = hostos_read(h, HOSTOS_SYSTEM, NULL, NULL, &doc, err);
	if (rc == 0 && (!key || !kv_get(doc.s ? doc.s : "", key, out)))
		rc = xr_err_set(err, XR_EHOST, NULL, 0, 0,
				"host '%s' (%s) gave no value for probe '%s'",
				sysread_host_name(h), hostos_name(host_os(h)),
				name);
	buf_release(&doc);
	return rc;
}

int probe_read(struct host *h, const char *name, const char *iface,
	       struct buf *out, struct xr_err *err)
{
	struct buf doc = BUF_INIT;
	int rc;

	if (!probe_known(name)) {
		struct buf known = BUF_INIT;
		for (int i = 0; probe_names[i]; i++)
			buf_addf(&known, "%s%s", i ? ", " : "", probe_names[i]);
		rc = xr_err_set(err, XR_EUSAGE, NULL, 0, 0,
				"unknown probe '%s' (known: %s)",
				name ? name : "", known.s);
		buf_release(&known);
		return rc;
	}
	buf_reset(out);
	if (probe_needs_iface(name)) {
		if (!iface && h)
			iface = host_iface(h);
		if (!iface)
			return xr_err_set(err, XR_EUSAGE, NULL, 0, 0,
					  "probe '%s' needs an interface "
					  "(set iface: on host '%s')",
					  name, sysread_host_name(h));
		rc = probe_nic_doc(h, iface, &doc, err);
		if (rc == 0)
			rc =
			    probe_from_nic_doc(h, name, iface, doc.s, out, err);
	} else if (!sysread_is_local(h) && host_os(h) != PLAN_OS_LINUX) {
		rc = system_probe(h, name, out, err);
	} else if (strcmp(name, "tcp.cc") == 0) {
		rc = sysread_file(
		    h, "/proc/sys/net/ipv4/tcp_congestion_control", out, err);
	} else if (strcmp(name, "os.release") == 0) {
		rc = os_release(h, out, err);
	} else {
		rc = kernel(h, out, err);
	}
	buf_release(&doc);
	if (rc == 0)
		sysread_trim_line(out);
	return rc;
}
