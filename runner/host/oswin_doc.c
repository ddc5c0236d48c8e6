/*
 * What a Windows reading's script printed (oswin.c), turned into the
 * documents the probes, facts and counters read: the ConvertTo-Json
 * sections ("@@ adapter", "@@ hardware", ...) of the nic, system and
 * counters scripts, and the text of `netsh wlan show interfaces`
 * (nicrate.c). Adapters and advanced properties are read under their
 * locale-independent names beside the localized ones (RegistryKeyword,
 * RegistryValue, InterfaceDescription: see oswin.c on Japanese Windows).
 *
 * SPDX-License-Identifier: MIT
 */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "counters_int.h"
#include "kv.h"
#include "nicrate.h"
#include "oswin.h"

#include "banned.h"

/* The JSON value of a section (object or array), or NULL. */
static json_t *section_json(const char *text, const char *name)
{
	size_t len;
	const char *s = kv_section(text, name, &len);
	if (!s)
		return NULL;
	return json_loadb(s, len, JSON_DECODE_ANY, NULL);
}

/* ConvertTo-Json writes one object bare and several as an array. */
static json_t *item(json_t *v, size_t i)
{
	if (json_is_array(v))
		return json_array_get(v, i);
	return i == 0 && json_is_object(v) ? v : NULL;
}

/* A number given as a JSON number or as a numeric string. */
static int get_u64(json_t *o, const char *key, uint64_t *out)
{
	json_t *v = json_object_get(o, key);
	if (json_is_integer(v) && json_integer_value(v) >= 0) {
		*out = (uint64_t)json_integer_value(v);
		return 1;
	}
	/* A real past 2^64 (or a counter printed as 1e300) is not a count:
	 * casting it would be undefined. */
	if (json_is_real(v) && json_real_value(v) >= 0 &&
	    json_real_value(v) < 18446744073709551616.0) {
		*out = (uint64_t)json_real_value(v);
		return 1;
	}
	if (json_is_string(v)) {
		const char *s = json_string_value(v);
		char *end;
		unsigned long long x = strtoull(s, &end, 10);
		if (end != s && *end == '\0') {
			*out = x;
			return 1;
		}
	}
	return 0;
}

static const char *get_str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s && *s ? s : NULL;
}

static void oswin_doc_kv_str(struct buf *doc, const char *key, json_t *o,
			     const char *prop)
{
	const char *s = get_str(o, prop);
	if (s)
		buf_addf(doc, "%s: %s\n", key, s);
}

/* PCIe Link Status encoding, as Get-NetAdapterHardwareInfo shows it. */
static const char *pcie_speed(uint64_t enc)
{
	static const char *const gts[] = {NULL,	      "2.5 GT/s",  "5.0 GT/s",
					  "8.0 GT/s", "16.0 GT/s", "32.0 GT/s",
					  "64.0 GT/s"};
	return enc < sizeof gts / sizeof gts[0] ? gts[enc] : NULL;
}

static void nic_hardware(json_t *hw, struct buf *doc)
{
	uint64_t cs, cw, ms, mw;
	if (!hw)
		return;
	buf_adds(doc, "device: 1\n");
	if (get_u64(hw, "PciExpressCurrentLinkSpeedEncoded", &cs) &&
	    get_u64(hw, "PciExpressCurrentLinkWidth", &cw) && pcie_speed(cs) &&
	    cw > 0) {
		buf_addf(doc, "current_link_speed: %s\n", pcie_speed(cs));
		buf_addf(doc, "current_link_width: %llu\n",
			 (unsigned long long)cw);
		if (get_u64(hw, "PciExpressMaxLinkSpeedEncoded", &ms) &&
		    get_u64(hw, "PciExpressMaxLinkWidth", &mw) &&
		    pcie_speed(ms) && mw > 0) {
			buf_addf(doc, "max_link_speed: %s\n", pcie_speed(ms));
			buf_addf(doc, "max_link_width: %llu\n",
				 (unsigned long long)mw);
		}
	}
}

/* One advanced property under its DisplayName and its RegistryKeyword:
 * property.K: DisplayValue, registry.K: RegistryValue. */
static void nic_property(json_t *p, struct buf *doc)
{
	const char *val = get_str(p, "DisplayValue");
	const char *reg = get_str(p, "RegistryValue");
	const char *names[2];
	names[0] = get_str(p, "DisplayName");
	names[1] = get_str(p, "RegistryKeyword");
	for (int k = 0; k < 2; k++) {
		if (!names[k] ||
		    (k == 1 && names[0] && strcmp(names[0], names[1]) == 0))
			continue;
		if (val)
			buf_addf(doc, "property.%s: %s\n", names[k], val);
		if (reg)
			buf_addf(doc, "registry.%s: %s\n", names[k], reg);
	}
}

/* A wireless adapter's rates from netsh (nicrate.c reads the labels):
 * wifi_rate, the fact nic_wifi_rate. */
static void nic_wlan(const char *text, const char *name, struct buf *doc)
{
	size_t len;
	const char *s = kv_section(text, "wlan", &len);
	struct buf t = BUF_INIT, v = BUF_INIT;
	if (s && name) {
		buf_add(&t, s, len);
		if (nicrate_netsh_wlan(t.s ? t.s : "", name, &v) == 0)
			buf_addf(doc, "wifi_rate: %s\n", v.s);
	}
	buf_release(&t);
	buf_release(&v);
}

int oswin_nic_doc(const char *text, struct buf *doc)
{
	json_t *ad, *hw, *adv, *a, *p;
	uint64_t v;

	buf_adds(doc, "source: Get-NetAdapterHardwareInfo\n");
	if (kv_section(text, "noiface", NULL))
		return buf_adds(doc, "noiface: 1\nnames: Get-NetAdapter\n");
	ad = section_json(text, "adapter");
	hw = section_json(text, "hardware");
	adv = section_json(text, "advanced");
	a = item(ad, 0);
	if (a) {
		oswin_doc_kv_str(doc, "name", a, "Name");
		if (get_u64(a, "InterfaceIndex", &v))
			buf_addf(doc, "index: %llu\n", (unsigned long long)v);
		oswin_doc_kv_str(doc, "driver", a, "DriverFileName");
		oswin_doc_kv_str(doc, "version", a, "DriverVersion");
		oswin_doc_kv_str(doc, "description", a, "InterfaceDescription");
		oswin_doc_kv_str(doc, "status", a, "Status");
		if (get_u64(a, "MtuSize", &v))
			buf_addf(doc, "mtu: %llu\n", (unsigned long long)v);
		/* bits per second; 0 when the media is disconnected */
		if (get_u64(a, "ReceiveLinkSpeed", &v) && v >= 1000000)
			buf_addf(doc, "speed: %llu\n",
				 (unsigned long long)(v / 1000000));
		if (get_u64(a, "NdisPhysicalMedium", &v) && (v == 9 || v == 1))
			buf_adds(doc, "wireless: 1\n");
		if (json_is_boolean(json_object_get(a, "FullDuplex")))
			buf_addf(doc, "duplex: %s\n",
				 json_is_true(json_object_get(a, "FullDuplex"))
				     ? "full"
				     : "half");
	}
	nic_hardware(item(hw, 0), doc);
	for (size_t i = 0; (p = item(adv, i)) != NULL; i++)
		nic_property(p, doc);
	nic_wlan(text, get_str(a, "Name"), doc);
	json_decref(ad);
	json_decref(hw);
	json_decref(adv);
	return doc->truncated ? -XR_ENOMEM : 0;
}

/* A template's provider and AutomaticUseCustom by SettingName. */
static const char *tcp_template(json_t *ts, const char *name, int *custom)
{
	json_t *t;
	for (size_t i = 0; (t = item(ts, i)) != NULL; i++) {
		const char *n = get_str(t, "SettingName");
		if (!n || strcmp(n, name) != 0)
			continue;
		if (custom) {
			const char *c = get_str(t, "AutomaticUseCustom");
			*custom = c && strcmp(c, "Enabled") == 0;
		}
		return get_str(t, "CongestionProvider");
	}
	return NULL;
}

/*
 * The congestion provider a connection gets, and the template it comes
 * from. The transport filter of DestinationPrefix "*" (Get-NetTransportFilter;
 * New-NetTransportFilter maps other prefixes and ports to other templates)
 * names the template of every connection no other filter takes; its
 * default is Automatic, which picks Datacenter for an RTT of 10 ms or less
 * and Internet above (Microsoft Networking blog, "TCP Templates for Windows
 * Server 2019", 2018-10-03), or DatacenterCustom and InternetCustom when
 * the Automatic template's AutomaticUseCustom is Enabled (MSFT_NetTCPSetting).
 * xrun's links are LANs, so tcp_cc is the low-RTT one and tcp_cc_template
 * says both. Without the filter section (an older script): Internet.
 */
static void tcp_effective(json_t *ts, json_t *tf, struct buf *doc)
{
	const char *def = NULL, *cp, *wcp;
	const char *lan = "Datacenter", *wan = "Internet";
	size_t others = 0, i;
	int custom = 0;
	json_t *f;
	if (!tf) {
		if ((cp = tcp_template(ts, "Internet", NULL)) != NULL)
			buf_addf(doc, "tcp_cc: %s\ntcp_cc_template: Internet\n",
				 cp);
		return;
	}
	for (i = 0; (f = item(tf, i)) != NULL; i++) {
		const char *pfx = get_str(f, "DestinationPrefix");
		if (!def && pfx && strcmp(pfx, "*") == 0)
			def = get_str(f, "SettingName");
		else
			others++;
	}
	if (!def)
		def = "Automatic";
	if (strcmp(def, "Automatic") != 0) {
		if ((cp = tcp_template(ts, def, NULL)) != NULL)
			buf_addf(doc,
				 "tcp_cc: %s\ntcp_cc_template: %s (transport "
				 "filter *)",
				 cp, def);
	} else {
		tcp_template(ts, "Automatic", &custom);
		if (custom) {
			lan = "DatacenterCustom";
			wan = "InternetCustom";
		}
		cp = tcp_template(ts, lan, NULL);
		wcp = tcp_template(ts, wan, NULL);
		if (!cp)
			return;
		buf_addf(doc,
			 "tcp_cc: %s\ntcp_cc_template: %s (Automatic, RTT <= "
			 "10 ms; %s above: %s)",
			 cp, lan, wan, wcp ? wcp : "?");
	}
	if (doc->len && doc->s[doc->len - 1] != '\n' && others)
		buf_addf(doc, "; %zu more transport filter%s", others,
			 others == 1 ? "" : "s");
	if (doc->len && doc->s[doc->len - 1] != '\n')
		buf_addc(doc, '\n');
}

/* The PktMon driver service (pktmon unload: "Stop the PktMon driver
 * service and unload PktMon.sys") and a PktMon ETW session (a capture). */
static void pktmon_fact(const char *text, struct buf *doc)
{
	size_t len;
	const char *s = kv_section(text, "pktmon", &len);
	int running = 0, session = 0;
	for (const char *p = s, *end = s ? s + len : NULL; p && p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		if (n && p[n - 1] == '\r')
			n--;
		if (n == 7 && memcmp(p, "Running", 7) == 0)
			running = 1;
		if (n == 7 && memcmp(p, "session", 7) == 0)
			session = 1;
		p = nl ? nl + 1 : end;
	}
	if (!s || (!len && !session))
		return;
	if (session)
		buf_adds(doc, "pktmon: running (a pktmon capture perturbs "
			      "throughput: pktmon stop)\n");
	else if (running)
		buf_adds(doc,
			 "pktmon: loaded (no capture, but the PktMon driver "
			 "stays loaded until pktmon unload)\n");
	else
		buf_adds(doc, "pktmon: unloaded\n");
}

int oswin_system_doc(const char *text, struct buf *doc)
{
	json_t *os = section_json(text, "os"), *cpu = section_json(text, "cpu");
	json_t *ts = section_json(text, "tcpsetting"), *o, *c;
	json_t *tf = section_json(text, "transportfilter");
	uint64_t v, logical = 0;

	if ((o = item(os, 0)) != NULL) {
		oswin_doc_kv_str(doc, "hostname", o, "CSName");
		oswin_doc_kv_str(doc, "os_release", o, "Caption");
		oswin_doc_kv_str(doc, "kernel", o, "Version");
		if (get_u64(o, "TotalVisibleMemorySize", &v) && v)
			buf_addf(doc, "mem_bytes: %llu\n",
				 (unsigned long long)v * 1024ULL);
	}
	if ((c = item(cpu, 0)) != NULL)
		oswin_doc_kv_str(doc, "cpu_model", c, "Name");
	for (size_t i = 0; (c = item(cpu, i)) != NULL; i++)
		if (get_u64(c, "NumberOfLogicalProcessors", &v))
			logical += v;
	if (logical)
		buf_addf(doc, "cpu_count: %llu\n", (unsigned long long)logical);
	tcp_effective(ts, tf, doc);
	pktmon_fact(text, doc);
	json_decref(tf);
	json_decref(os);
	json_decref(cpu);
	json_decref(ts);
	return doc->truncated ? -XR_ENOMEM : 0;
}

/* ---- counters --------------------------------------------------------- */

/* Linux's interface statistics from Get-NetAdapterStatistics, so that a
 * report compares rx_dropped with rx_dropped across the two OSes. */
static const struct {
	const char *linux_name;
	const char *win[3]; /* summed */
} stat_map[] = {
    {"rx_bytes", {"ReceivedBytes"}},
    {"rx_packets",
     {"ReceivedUnicastPackets", "ReceivedMulticastPackets",
      "ReceivedBroadcastPackets"}},
    {"multicast", {"ReceivedMulticastPackets"}},
    {"rx_dropped", {"ReceivedDiscardedPackets"}},
    {"rx_errors", {"ReceivedPacketErrors"}},
    {"tx_bytes", {"SentBytes"}},
    {"tx_packets",
     {"SentUnicastPackets", "SentMulticastPackets", "SentBroadcastPackets"}},
    {"tx_dropped", {"OutboundDiscardedPackets"}},
    {"tx_errors", {"OutboundPacketErrors"}},
};

/* /proc/net/snmp's Tcp counters from the raw TCPv4 + TCPv6 classes (their
 * "Persec" counters are cumulative counts in raw form). */
static const struct {
	const char *linux_name, *win;
} tcp_map[] = {
    {"RetransSegs", "SegmentsRetransmittedPersec"},
    {"OutSegs", "SegmentsSentPersec"},
    {"InSegs", "SegmentsReceivedPersec"},
    {"ActiveOpens", "ConnectionsActive"},
    {"PassiveOpens", "ConnectionsPassive"},
    {"AttemptFails", "ConnectionFailures"},
    {"EstabResets", "ConnectionsReset"},
};

static void counters_nic(json_t *st, struct buf *doc)
{
	json_t *s = item(st, 0);
	if (!s)
		return;
	buf_adds(doc, "@@ netdev\n");
	for (size_t i = 0; i < sizeof stat_map / sizeof stat_map[0]; i++) {
		uint64_t sum = 0, v;
		int any = 0;
		for (int k = 0; k < 3 && stat_map[i].win[k]; k++)
			if (get_u64(s, stat_map[i].win[k], &v)) {
				sum += v;
				any = 1;
			}
		if (any)
			buf_addf(doc, "%s %llu\n", stat_map[i].linux_name,
				 (unsigned long long)sum);
	}
}

static void counters_tcp(json_t *tp, struct buf *doc)
{
	size_t n = sizeof tcp_map / sizeof tcp_map[0];
	json_t *t;
	if (!item(tp, 0))
		return;
	buf_adds(doc, "@@ snmp\nTcp:");
	for (size_t i = 0; i < n; i++)
		buf_addf(doc, " %s", tcp_map[i].linux_name);
	buf_adds(doc, "\nTcp:");
	for (size_t i = 0; i < n; i++) {
		uint64_t sum = 0, v;
		for (size_t k = 0; (t = item(tp, k)) != NULL; k++)
			if (get_u64(t, tcp_map[i].win, &v))
				sum += v;
		buf_addf(doc, " %llu", (unsigned long long)sum);
	}
	buf_addc(doc, '\n');
}

/*
 * Per-CPU time from the Processor Information counter set (processor-group
 * aware: instances "G,N", group G, number N within it, plus "G,_Total" and
 * "_Total"), or from the older Processor set (instances "N") when the
 * first is missing. % Processor Time is a PERF_100NSEC_TIMER_INV counter:
 * its raw value is the time the CPU ran the idle thread, in 100 ns, and
 * busy % over an interval is 100 * (1 - dRaw / dTimestamp_Sys100NS);
 * % DPC Time and % Interrupt Time are PERF_100NSEC_TIMER counters (time in
 * deferred procedure calls and in interrupt service routines; DPC time is
 * not part of the interrupt time). Written as /proc/stat lines "cpuI other
 * 0 0 idle 0 irq dpc" whose total is the timestamp, so that the DPC share
 * is read where Linux's softirq share is (where NIC receive work runs on
 * both). I numbers the CPUs in (group, number) order, 0 up, as Linux's do.
 * Sources: learn.microsoft.com "Processor Object" (counter types) and
 * "Processor Information" (per group), see tests/data/windows/README.md.
 */
struct wcpu {
	unsigned long group, number;
	uint64_t idle, dpc, irq, ts;
};

static int wcpu_cmp(const void *a, const void *b)
{
	const struct wcpu *x = a, *y = b;
	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	return x->number < y->number ? -1 : x->number > y->number;
}

/* 1 to 5 digits [p, e) as a number up to 0xffff; 0 otherwise. */
static int cpu_digits(const char *p, const char *e, uint64_t *v)
{
	*v = 0;
	if (p == e || e - p > 5)
		return 0;
	for (; p < e; p++) {
		if (*p < '0' || *p > '9')
			return 0;
		*v = *v * 10 + (uint64_t)(*p - '0');
	}
	return 1;
}

/* "_total" (any case): 2; "G,N" or "N": 1 with group and number;
 * "G,_total": 0 (a group's sum, not read); -1 anything else. */
int oswin_cpu_instance(const char *p, const char *e, unsigned long *g,
		       unsigned long *n)
{
	const char *comma = memchr(p, ',', (size_t)(e - p));
	uint64_t a, b;
	if (e - p == 6 && !strncasecmp(p, "_total", 6))
		return 2;
	if (!comma) { /* the older Processor set: group 0 */
		if (!cpu_digits(p, e, &a) || a > 0xffff)
			return -1;
		*g = 0;
		*n = (unsigned long)a;
		return 1;
	}
	if (!cpu_digits(p, comma, &a) || a > 0xffff)
		return -1;
	if (e - comma - 1 == 6 && !strncasecmp(comma + 1, "_total", 6))
		return 0;
	if (!cpu_digits(comma + 1, e, &b) || b > 0xffff)
		return -1;
	*g = (unsigned long)a;
	*n = (unsigned long)b;
	return 1;
}

static void counters_cpu(json_t *cp, struct buf *doc)
{
	struct wcpu *v;
	size_t n = 0, cap = json_is_array(cp) ? json_array_size(cp) : 1;
	json_t *c;
	if (!item(cp, 0) || !(v = calloc(cap ? cap : 1, sizeof *v)))
		return;
	for (size_t i = 0; (c = item(cp, i)) != NULL && n < cap; i++) {
		struct wcpu *w = &v[n];
		const char *name;
		if (!(name = get_str(c, "Name")) ||
		    oswin_cpu_instance(name, name + strlen(name), &w->group,
				       &w->number) != 1 ||
		    !get_u64(c, "PercentProcessorTime", &w->idle) ||
		    !get_u64(c, "Timestamp_Sys100NS", &w->ts))
			continue;
		if (!get_u64(c, "PercentDPCTime", &w->dpc))
			w->dpc = 0;
		if (!get_u64(c, "PercentInterruptTime", &w->irq))
			w->irq = 0;
		n++;
	}
	qsort(v, n, sizeof *v, wcpu_cmp);
	buf_adds(doc, "@@ stat\n");
	for (size_t i = 0; i < n; i++) {
		uint64_t busy = v[i].ts > v[i].idle ? v[i].ts - v[i].idle : 0;
		uint64_t sys = v[i].dpc + v[i].irq, other;
		if (sys > busy) /* counters read at slightly different times */
			sys = busy;
		other = busy - sys;
		buf_addf(doc, "cpu%zu %llu 0 0 %llu 0 %llu %llu\n", i,
			 (unsigned long long)other,
			 (unsigned long long)(v[i].ts - busy),
			 (unsigned long long)(v[i].irq < sys ? v[i].irq : sys),
			 (unsigned long long)(sys - (v[i].irq < sys ? v[i].irq
								    : sys)));
	}
	free(v);
}

/* Process names as Get-Process gives them ("Wireshark", "dumpcap"),
 * matched without case; WinDump is tcpdump's Windows port. */
static void counters_procs(const char *s, size_t len, struct buf *doc)
{
	const char *end = s + len;
	buf_adds(doc, "@@ procs\n");
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *e = nl ? nl : end;
		char name[32];
		size_t n = 0;
		while (s < e && (*s == ' ' || *s == '\t'))
			s++;
		for (; s < e && n + 1 < sizeof name && *s != '\r'; s++)
			name[n++] =
			    (char)(*s >= 'A' && *s <= 'Z' ? *s + 32 : *s);
		name[n] = '\0';
		if (strcmp(name, "windump") == 0)
			buf_adds(doc, "tcpdump\n");
		else if (n && counters_is_capture_tool(name))
			buf_addf(doc, "%s\n", name);
		s = nl ? nl + 1 : end;
	}
}

int oswin_counters_doc(const char *text, struct buf *doc)
{
	json_t *st, *tp, *cp;
	const char *procs;
	size_t plen;

	buf_adds(doc, "@@ xrun-counters 1\n");
	if (kv_section(text, "noiface", NULL))
		buf_adds(doc, "@@ noiface\n");
	st = section_json(text, "adapterstats");
	tp = section_json(text, "tcpperf");
	cp = section_json(text, "cpuinfo");
	if (!item(cp, 0)) { /* no Processor Information set: the older one */
		json_decref(cp);
		cp = section_json(text, "cpuperf");
	}
	counters_nic(st, doc);
	counters_tcp(tp, doc);
	counters_cpu(cp, doc);
	procs = kv_section(text, "procs", &plen);
	if (procs)
		counters_procs(procs, plen, doc);
	json_decref(st);
	json_decref(tp);
	json_decref(cp);
	return doc->truncated ? -XR_ENOMEM : 0;
}
