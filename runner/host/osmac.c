/*
 * macOS hosts (sh over the ssh transport, like Linux). macOS has no /sys or
 * /proc, so each reading is one fixed sh script (interface as $1, never
 * spliced in) around the documented tools: ifconfig (MTU, media, status),
 * networksetup -listallhardwareports (the port's name), system_profiler
 * SPEthernetDataType (driver kext, bus, PCIe link), for a Wi-Fi port
 * system_profiler -json SPAirPortDataType (its rate), sw_vers, sysctl,
 * netstat -I IFACE -b -d (interface counters), netstat -s -p tcp and
 * ps -axc. Their text is translated here into the documents the Linux
 * readers take. There is no per-CPU tick counter without a helper
 * program on macOS, so the cpu section is left out.
 *
 * SPDX-License-Identifier: MIT
 */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "counter_group.h"
#include "counters_int.h"
#include "kv.h"
#include "nicrate.h"
#include "osmac.h"
#include "xr_err.h"

#include "banned.h"

const char osmac_nic_script[] =
    "PATH=$PATH:/usr/sbin:/sbin\n"
    "ifconfig \"$1\" >/dev/null 2>&1 || { echo '@@ noiface'; exit 0; }\n"
    "echo '@@ ifconfig'; ifconfig \"$1\"\n"
    "echo '@@ hardwareports'; networksetup -listallhardwareports "
    "2>/dev/null\n"
    /* a Wi-Fi port's rate changes: read on every reading, never kept */
    "w=$(networksetup -listallhardwareports 2>/dev/null | "
    "while IFS= read -r l; do case $l in 'Hardware Port: '*) "
    "p=${l#Hardware Port: };; \"Device: $1\") echo \"$p\";; esac; done)\n"
    "case $w in Wi-Fi|AirPort) echo '@@ airport'; "
    "system_profiler -json SPAirPortDataType 2>/dev/null;; esac\n"
    "m=$(ifconfig \"$1\" | while read -r k v x; do "
    "[ \"$k\" = ether ] && echo \"$v\"; done)\n"
    "if [ -n \"$2\" ] && [ \"$m\" = \"$2\" ]; then "
    "echo '@@ profiler-cached'; exit 0; fi\n"
    "e=$(system_profiler SPEthernetDataType 2>/dev/null)\n"
    "echo '@@ ethernet'; printf '%s\\n' \"$e\"\n"
    "case $e in *'Bus: USB'*) echo '@@ usb'; "
    "system_profiler -json SPUSBDataType 2>/dev/null;; esac\n"
    "exit 0\n";

const char osmac_system_script[] =
    "PATH=$PATH:/usr/sbin:/sbin\n"
    "echo '@@ sw_vers'; sw_vers\n"
    "echo '@@ uname'; printf 'kernel: %s\\nhostname: %s\\n' \"$(uname -r)\" "
    "\"$(uname -n)\"\n"
    "echo '@@ sysctl'\n"
    "for k in machdep.cpu.brand_string hw.logicalcpu hw.memsize "
    "net.inet.tcp.use_newreno; do sysctl \"$k\" 2>/dev/null; done\n"
    "exit 0\n";

/* Each counter group's section, MAC_ID(letter) for each row of
 * COUNTER_GROUP_MAP (runner/desc/counter_group.h), "" for a group that
 * has no reader here (its os column lacks COUNTER_OS_MACOS). */
#define MAC_CASE(letter, body) "case $2 in *" letter "*)" body "esac\n"
#define MAC_NIC(l)                                                             \
	MAC_CASE(l, "\n"                                                       \
		    "  if [ -n \"$1\" ]; then\n"                               \
		    "    if ifconfig \"$1\" >/dev/null 2>&1; then\n"           \
		    "      echo '@@ netstat-if'; netstat -I \"$1\" -b -d -n\n" \
		    "    else echo '@@ noiface'; fi\n"                         \
		    "  fi;;\n")
#define MAC_TCP(l) MAC_CASE(l, " echo '@@ tcpstats'; netstat -s -p tcp;; ")
#define MAC_CPU(l) "" /* top, as the sampler: mactop.c */
#define MAC_CAPTURE(l) MAC_CASE(l, " echo '@@ procs'; ps -axc -o comm=;; ")
#define MAC_GROUP(id, name, letter, os, doc) MAC_##id(letter)

const char osmac_counters_script[] =
    "PATH=$PATH:/usr/sbin:/sbin\n" COUNTER_GROUP_MAP(MAC_GROUP) "exit 0\n";

/* ---- small text helpers ----------------------------------------------- */

struct line {
	const char *s, *e; /* trimmed */
};

/* Next line of [*p, end), trimmed of blanks and CR. */
static int next_line(const char **p, const char *end, struct line *l)
{
	const char *s = *p, *nl, *e;
	if (s >= end)
		return 0;
	nl = memchr(s, '\n', (size_t)(end - s));
	e = nl ? nl : end;
	*p = nl ? nl + 1 : end;
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	l->s = s;
	l->e = e;
	return 1;
}

/* "Key: value" with that key (case-insensitive): 1 and the value. */
static int line_kv(const struct line *l, const char *key, struct line *v)
{
	size_t kl = strlen(key);
	if ((size_t)(l->e - l->s) <= kl || strncasecmp(l->s, key, kl) != 0 ||
	    l->s[kl] != ':')
		return 0;
	v->s = l->s + kl + 1;
	v->e = l->e;
	while (v->s < v->e && (*v->s == ' ' || *v->s == '\t'))
		v->s++;
	return 1;
}

static int line_is(const struct line *l, const char *s)
{
	return (size_t)(l->e - l->s) == strlen(s) &&
	       memcmp(l->s, s, strlen(s)) == 0;
}

/* ---- interface -------------------------------------------------------- */

/* "1000baseT", "10Gbase-T", "2500Base-T" -> Mb/s; 0 when none. */
static unsigned long media_mbps(const char *s, const char *e)
{
	char *end;
	unsigned long v;
	if (s >= e || *s < '0' || *s > '9')
		return 0;
	v = strtoul(s, &end, 10);
	if (end < e && (*end == 'G' || *end == 'g'))
		v *= 1000;
	else if (end >= e || (*end != 'b' && *end != 'B'))
		return 0;
	return v;
}

/* "media: autoselect (1000baseT <full-duplex,flow-control>)" */
static void mac_media(const struct line *v, struct buf *doc)
{
	const char *s = v->s, *e = v->e;
	/* e < s never happens, but gcc's -O2 cannot see it (memchr bound) */
	const char *open = e > s ? memchr(s, '(', (size_t)(e - s)) : NULL;
	unsigned long mbps;
	char tmp[128];
	if (open) /* the active medium, when autoselect chose one */
		s = open + 1;
	mbps = media_mbps(s, e);
	if (mbps)
		buf_addf(doc, "speed: %lu\n", mbps);
	snprintf(tmp, sizeof tmp, "%.*s", (int)(e - s), s);
	if (strstr(tmp, "full-duplex"))
		buf_adds(doc, "duplex: full\n");
	else if (strstr(tmp, "half-duplex"))
		buf_adds(doc, "duplex: half\n");
}

static void mac_ifconfig(const char *s, size_t len, struct buf *doc)
{
	const char *p = s, *end = s + len;
	struct line l, v;
	int first = 1;
	while (next_line(&p, end, &l)) {
		if (first) {
			/* "en0: flags=8863<UP,...> mtu 1500" */
			const char *f = strstr(l.s, "flags=");
			const char *m = strstr(l.s, " mtu ");
			if (f && f < l.e)
				buf_addf(doc, "flags: 0x%lx\n",
					 strtoul(f + 6, NULL, 16));
			if (m && m < l.e)
				buf_addf(doc, "mtu: %lu\n",
					 strtoul(m + 5, NULL, 10));
			first = 0;
		} else if (line_kv(&l, "media", &v)) {
			mac_media(&v, doc);
		} else if (line_kv(&l, "status", &v)) {
			buf_addf(doc, "status: %.*s\n", (int)(v.e - v.s), v.s);
		}
	}
}

/* networksetup -listallhardwareports: "Hardware Port: X" then
 * "Device: en0" in the same block. */
static void mac_ports(const char *s, size_t len, const char *iface,
		      struct buf *doc)
{
	const char *p = s, *end = s + len;
	struct line l, v, port = {NULL, NULL};
	while (next_line(&p, end, &l)) {
		if (line_kv(&l, "Hardware Port", &v))
			port = v;
		else if (line_kv(&l, "Device", &v) && port.s &&
			 (size_t)(v.e - v.s) == strlen(iface) &&
			 memcmp(v.s, iface, strlen(iface)) == 0)
			buf_addf(doc, "devtype: %.*s\n", (int)(port.e - port.s),
				 port.s);
	}
}

/* system_profiler SPEthernetDataType: one block per device, headed by an
 * indented "Name:" line; keep the block whose "BSD name" is iface. */
static void mac_ethernet(const char *s, size_t len, const char *iface,
			 struct buf *doc)
{
	const char *p = s, *end = s + len;
	struct line l, v;
	struct buf blk = BUF_INIT;
	int mine = 0, done = 0;
	while (!done) {
		int more = next_line(&p, end, &l);
		int head = more && l.e > l.s && l.e[-1] == ':' &&
			   !memchr(l.s, ':', (size_t)(l.e - l.s - 1));
		if (!more || head) {
			if (mine)
				buf_add(doc, blk.s ? blk.s : "", blk.len);
			buf_reset(&blk);
			mine = 0;
			done = !more;
			continue;
		}
		if (line_kv(&l, "BSD name", &v))
			mine = (size_t)(v.e - v.s) == strlen(iface) &&
			       memcmp(v.s, iface, strlen(iface)) == 0;
		else if (line_kv(&l, "Kext name", &v) ||
			 line_kv(&l, "Driver", &v)) {
			const char *k = v.e;
			if (k - v.s > 5 && (memcmp(k - 5, ".kext", 5) == 0 ||
					    memcmp(k - 5, ".dext", 5) == 0))
				k -= 5;
			buf_addf(&blk, "driver: %.*s\n", (int)(k - v.s), v.s);
		} else if (line_kv(&l, "Version", &v))
			buf_addf(&blk, "version: %.*s\n", (int)(v.e - v.s),
				 v.s);
		else if (line_kv(&l, "Bus", &v))
			buf_addf(&blk, "bus: %.*s\n%s", (int)(v.e - v.s), v.s,
				 line_is(&v, "PCI") ? "device: 1\n" : "");
		else if (line_kv(&l, "Link Width", &v))
			buf_addf(&blk, "current_link_width: %.*s\n",
				 (int)(v.e - v.s - (*v.s == 'x')),
				 v.s + (*v.s == 'x'));
		else if (line_kv(&l, "Vendor ID", &v))
			buf_addf(&blk, "usb_vendor: %.*s\n", (int)(v.e - v.s),
				 v.s);
		else if (line_kv(&l, "Product ID", &v))
			buf_addf(&blk, "usb_product: %.*s\n", (int)(v.e - v.s),
				 v.s);
		else if (line_kv(&l, "Link Speed", &v))
			buf_addf(&blk, "current_link_speed: %.*s\n",
				 (int)(v.e - v.s), v.s);
	}
	buf_release(&blk);
}

/* system_profiler -json SPUSBDataType: buses whose "_items" nest hubs
 * and devices; a device names product_id "0x8156" and vendor_id "0x0bda"
 * or "0x0bda  (Realtek ...)", and its device_speed. Depth-bounded. */
static const char *usb_speed_of(json_t *items, const char *vid, const char *pid,
				int depth)
{
	json_t *it;
	size_t i;
	if (!json_is_array(items) || depth > 16)
		return NULL;
	json_array_foreach(items, i, it)
	{
		const char *p =
		    json_string_value(json_object_get(it, "product_id"));
		const char *v =
		    json_string_value(json_object_get(it, "vendor_id"));
		const char *s =
		    json_string_value(json_object_get(it, "device_speed"));
		size_t vl = strlen(vid);
		if (p && v && s && strcasecmp(p, pid) == 0 &&
		    strncasecmp(v, vid, vl) == 0 &&
		    (v[vl] == 0 || v[vl] == ' '))
			return s;
		if ((s = usb_speed_of(json_object_get(it, "_items"), vid, pid,
				      depth + 1)) != NULL)
			return s;
	}
	return NULL;
}

/* The USB link of a USB adapter (the ethernet block's vendor and product
 * ids), in the signalling rates of the USB specifications. */
static void mac_usb(const char *s, size_t len, struct buf *doc)
{
	static const struct {
		const char *name, *rate;
	} rates[] = {{"low_speed", "1.5 Mb/s"},
		     {"full_speed", "12 Mb/s"},
		     {"high_speed", "480 Mb/s"},
		     {"super_speed", "5 Gb/s"},
		     {"super_speed_plus", "10 Gb/s"}};
	struct buf vid = BUF_INIT, pid = BUF_INIT;
	json_t *j = json_loadb(s, len, 0, NULL);
	const char *sp = NULL;
	if (j && kv_get(doc->s ? doc->s : "", "usb_vendor", &vid) &&
	    kv_get(doc->s ? doc->s : "", "usb_product", &pid))
		sp = usb_speed_of(json_object_get(j, "SPUSBDataType"), vid.s,
				  pid.s, 0);
	if (sp) {
		const char *rate = NULL;
		for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++)
			if (strcmp(sp, rates[i].name) == 0)
				rate = rates[i].rate;
		if (rate)
			buf_addf(doc, "usb_link: %s (%s)\n", rate, sp);
		else
			buf_addf(doc, "usb_link: %s\n", sp);
	}
	json_decref(j);
	buf_release(&vid);
	buf_release(&pid);
}

int osmac_ether(const char *text, char *mac, size_t n)
{
	size_t len;
	const char *s = kv_section(text, "ifconfig", &len);
	const char *p = s, *end = s ? s + len : NULL;
	struct line l;
	while (p && next_line(&p, end, &l)) {
		const char *a = l.s; /* next_line skipped the indent */
		size_t k;
		if (l.e - a < 7 || memcmp(a, "ether ", 6) != 0)
			continue;
		a += 6;
		for (k = 0; a + k < l.e && a[k] != ' ' && k + 1 < n; k++)
			mac[k] = a[k];
		mac[k] = '\0';
		return k > 0;
	}
	return 0;
}

void osmac_profiler_text(const char *text, struct buf *out)
{
	static const char *const names[] = {"ethernet", "usb"};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		size_t len;
		const char *s = kv_section(text, names[i], &len);
		if (s)
			buf_addf(out, "@@ %s\n%.*s", names[i], (int)len, s);
	}
}

/* A Wi-Fi port's PHY rate (nicrate.c reads the JSON): wifi_rate, the
 * fact nic_wifi_rate; a port without a wire speed is marked wireless. */
static void mac_airport(const char *s, size_t len, const char *iface,
			struct buf *doc)
{
	struct buf t = BUF_INIT, v = BUF_INIT;
	buf_add(&t, s, len);
	buf_adds(doc, "wireless: 1\n");
	if (iface && nicrate_airport_json(t.s ? t.s : "", iface, &v) == 0)
		buf_addf(doc, "wifi_rate: %s\n", v.s);
	buf_release(&t);
	buf_release(&v);
}

int osmac_nic_doc(const char *text, const char *iface, struct buf *doc)
{
	const char *s;
	size_t n;
	buf_adds(doc, "source: system_profiler SPEthernetDataType\n");
	if (kv_section(text, "noiface", NULL))
		return buf_adds(doc, "noiface: 1\nnames: ifconfig -l\n");
	if ((s = kv_section(text, "ifconfig", &n)) != NULL)
		mac_ifconfig(s, n, doc);
	if ((s = kv_section(text, "ethernet", &n)) != NULL)
		mac_ethernet(s, n, iface, doc);
	if ((s = kv_section(text, "usb", &n)) != NULL)
		mac_usb(s, n, doc);
	if ((s = kv_section(text, "hardwareports", &n)) != NULL)
		mac_ports(s, n, iface, doc);
	if ((s = kv_section(text, "airport", &n)) != NULL)
		mac_airport(s, n, iface, doc);
	return doc->truncated ? -XR_ENOMEM : 0;
}

/* ---- system ----------------------------------------------------------- */

int osmac_system_doc(const char *text, struct buf *doc)
{
	struct line l, v, name = {NULL, NULL}, ver = {NULL, NULL},
			  build = {NULL, NULL};
	const char *s, *p, *end;
	size_t n;

	if ((s = kv_section(text, "sw_vers", &n)) != NULL) {
		for (p = s, end = s + n; next_line(&p, end, &l);) {
			if (line_kv(&l, "ProductName", &v))
				name = v;
			else if (line_kv(&l, "ProductVersion", &v))
				ver = v;
			else if (line_kv(&l, "BuildVersion", &v))
				build = v;
		}
		if (name.s && ver.s) {
			buf_addf(doc, "os_release: %.*s %.*s",
				 (int)(name.e - name.s), name.s,
				 (int)(ver.e - ver.s), ver.s);
			if (build.s)
				buf_addf(doc, " (%.*s)",
					 (int)(build.e - build.s), build.s);
			buf_addc(doc, '\n');
		}
	}
	if ((s = kv_section(text, "uname", &n)) != NULL)
		buf_add(doc, s, n);
	if ((s = kv_section(text, "sysctl", &n)) == NULL)
		return doc->truncated ? -XR_ENOMEM : 0;
	for (p = s, end = s + n; next_line(&p, end, &l);) {
		if (line_kv(&l, "machdep.cpu.brand_string", &v))
			buf_addf(doc, "cpu_model: %.*s\n", (int)(v.e - v.s),
				 v.s);
		else if (line_kv(&l, "hw.logicalcpu", &v))
			buf_addf(doc, "cpu_count: %.*s\n", (int)(v.e - v.s),
				 v.s);
		else if (line_kv(&l, "hw.memsize", &v))
			buf_addf(doc, "mem_bytes: %.*s\n", (int)(v.e - v.s),
				 v.s);
		/* xnu's tcp_newtcpcb: NewReno when use_newreno is set,
		 * else CUBIC */
		else if (line_kv(&l, "net.inet.tcp.use_newreno", &v))
			buf_addf(doc, "tcp_cc: %s\n",
				 strtol(v.s, NULL, 10) ? "newreno" : "cubic");
	}
	return doc->truncated ? -XR_ENOMEM : 0;
}

/* ---- counters --------------------------------------------------------- */

/* netstat -I IFACE -b -d columns -> Linux interface statistics. Drop is
 * the output queue's drops in BSD netstat. */
static const struct {
	const char *col, *linux_name;
} if_map[] = {
    {"Ipkts", "rx_packets"}, {"Ierrs", "rx_errors"}, {"Ibytes", "rx_bytes"},
    {"Opkts", "tx_packets"}, {"Oerrs", "tx_errors"}, {"Obytes", "tx_bytes"},
    {"Coll", "collisions"},  {"Drop", "tx_dropped"},
};

#define MAC_MAXCOL 24

static int split(const struct line *l, struct line *tok, int max)
{
	const char *p = l->s;
	int n = 0;
	while (p < l->e && n < max) {
		while (p < l->e && (*p == ' ' || *p == '\t'))
			p++;
		if (p == l->e)
			break;
		tok[n].s = p;
		while (p < l->e && *p != ' ' && *p != '\t')
			p++;
		tok[n++].e = p;
	}
	return n;
}

/* The header names the columns; the link-layer row ("<Link#N>") holds the
 * interface totals. Its Address may be empty (a tunnel), so the numbers
 * are taken from the right. */
static void mac_netstat_if(const char *s, size_t len, struct buf *doc)
{
	struct line hdr[MAC_MAXCOL], row[MAC_MAXCOL], l;
	const char *p = s, *end = s + len;
	int nh = 0, nr, first_num = -1;

	while (next_line(&p, end, &l)) {
		if (nh == 0) {
			nh = split(&l, hdr, MAC_MAXCOL);
			for (int i = 0; i < nh; i++)
				if (line_is(&hdr[i], "Ipkts"))
					first_num = i;
			if (first_num < 0)
				return;
			continue;
		}
		nr = split(&l, row, MAC_MAXCOL);
		if (nr < 3 || (size_t)(row[2].e - row[2].s) < 6 ||
		    memcmp(row[2].s, "<Link#", 6) != 0 || nr < nh - first_num)
			continue;
		buf_adds(doc, "@@ netdev\n");
		for (int i = first_num; i < nh; i++) {
			const struct line *t = &row[nr - (nh - i)];
			for (size_t k = 0; k < sizeof if_map / sizeof if_map[0];
			     k++)
				if (line_is(&hdr[i], if_map[k].col) &&
				    t->s[0] >= '0' && t->s[0] <= '9')
					buf_addf(doc, "%s %.*s\n",
						 if_map[k].linux_name,
						 (int)(t->e - t->s), t->s);
		}
		return;
	}
}

/* netstat -s -p tcp: "\t123 packets sent" -> /proc/net/snmp names. In
 * the patterns "~" is netstat's plural s ("1 packet sent") and "(*)" a
 * parenthesised count such as "(4567 bytes)". */
static const struct {
	const char *text, *name;
	int ext; /* TcpExt rather than Tcp */
} tcp_map[] = {
    {"packet~ sent", "OutSegs", 0},
    {"packet~ received", "InSegs", 0},
    {"data packet~ (*) retransmitted", "RetransSegs", 0},
    {"connection request~", "ActiveOpens", 0},
    {"connection accept~", "PassiveOpens", 0},
    {"bad connection attempt~", "AttemptFails", 0},
    {"retransmit timeout~", "TCPTimeouts", 1},
};

static int text_match(const char *pat, const char *s, const char *e)
{
	while (*pat) {
		if (*pat == '~') {
			if (s < e && *s == 's')
				s++;
			pat++;
		} else if (strncmp(pat, "(*)", 3) == 0) {
			const char *close;
			if (s == e || *s != '(')
				return 0;
			close = memchr(s, ')', (size_t)(e - s));
			if (!close)
				return 0;
			s = close + 1;
			pat += 3;
		} else {
			if (s == e || *s != *pat)
				return 0;
			s++;
			pat++;
		}
	}
	return s == e;
}

static void mac_tcp(const char *s, size_t len, struct buf *doc)
{
	enum { N = sizeof tcp_map / sizeof tcp_map[0] };
	unsigned long long v[N];
	int have[N] = {0};
	const char *p = s, *end = s + len;
	struct line l;

	while (next_line(&p, end, &l)) {
		char *num_end;
		unsigned long long x;
		if (l.s == l.e || *l.s < '0' || *l.s > '9')
			continue;
		x = strtoull(l.s, &num_end, 10);
		if (num_end >= l.e || *num_end != ' ')
			continue;
		for (int i = 0; i < N; i++)
			if (!have[i] &&
			    text_match(tcp_map[i].text, num_end + 1, l.e)) {
				v[i] = x;
				have[i] = 1;
			}
	}
	for (int ext = 0; ext < 2; ext++) {
		int any = 0;
		for (int i = 0; i < N; i++)
			any |= have[i] && tcp_map[i].ext == ext;
		if (!any)
			continue;
		buf_adds(doc, ext ? "@@ netstat\nTcpExt:" : "@@ snmp\nTcp:");
		for (int i = 0; i < N; i++)
			if (have[i] && tcp_map[i].ext == ext)
				buf_addf(doc, " %s", tcp_map[i].name);
		buf_adds(doc, ext ? "\nTcpExt:" : "\nTcp:");
		for (int i = 0; i < N; i++)
			if (have[i] && tcp_map[i].ext == ext)
				buf_addf(doc, " %llu", v[i]);
		buf_addc(doc, '\n');
	}
}

static void mac_procs(const char *s, size_t len, struct buf *doc)
{
	const char *p = s, *end = s + len;
	struct line l;
	buf_adds(doc, "@@ procs\n");
	while (next_line(&p, end, &l)) {
		char name[32];
		size_t n = 0;
		for (const char *c = l.s; c < l.e && n + 1 < sizeof name; c++)
			name[n++] =
			    (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
		name[n] = '\0';
		if (n && counters_is_capture_tool(name))
			buf_addf(doc, "%s\n", name);
	}
}

int osmac_counters_doc(const char *text, struct buf *doc)
{
	const char *s;
	size_t n;
	buf_adds(doc, "@@ xrun-counters 1\n");
	if (kv_section(text, "noiface", NULL))
		buf_adds(doc, "@@ noiface\n");
	if ((s = kv_section(text, "netstat-if", &n)) != NULL)
		mac_netstat_if(s, n, doc);
	if ((s = kv_section(text, "tcpstats", &n)) != NULL)
		mac_tcp(s, n, doc);
	if ((s = kv_section(text, "procs", &n)) != NULL)
		mac_procs(s, n, doc);
	return doc->truncated ? -XR_ENOMEM : 0;
}
