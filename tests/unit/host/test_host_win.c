/* Windows hosts: the PowerShell command sent for each reading (decoded
 * back from -EncodedCommand), the translators against the recordings in
 * tests/data/windows (see its README.md for where each comes from), the
 * per-OS dispatch, and the plan's os: / shell: powershell.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "catalog.h"
#include "counters.h"
#include "facts.h"
#include "host.h"
#include "counters_int.h"
#include "hostos.h"
#include "kv.h"
#include "oswin.h"
#include "plan.h"
#include "probe.h"
#include "probe_int.h"
#include "strv.h"
#include "ps_b64.h"
#include "tap.h"

static char *slurp(const char *name)
{
	const char *src = getenv("XRUN_SOURCE_DIR");
	char path[512];
	struct buf b = BUF_INIT;
	snprintf(path, sizeof path, "%s/tests/data/windows/%s",
		 src ? src : XRUN_SOURCE_DIR, name);
	if (buf_read_file(&b, path, 0) < 0) {
		buf_release(&b);
		return NULL;
	}
	return buf_detach(&b, NULL);
}

static void test_argv(void)
{
	struct strv av = {0};
	struct buf want = BUF_INIT;
	char *script;

	is_int(
	    hostos_argv(PLAN_OS_WINDOWS, HOSTOS_NIC, "Ethernet 2", NULL, &av),
	    0, "windows nic argv");
	ok(av.n == 5, "five words: %zu", av.n);
	is_str(av.v[0], "powershell.exe", "runs powershell.exe");
	is_str(av.v[3], "-EncodedCommand", "as an encoded command");
	script = ps_b64_decode(av.v[4]);
	oswin_script(HOSTOS_NIC, "Ethernet 2", NULL, &want);
	is_str(script, want.s, "base64 of UTF-16LE decodes to the script");
	ok(strstr(script, "$n = 'Ethernet 2'\n") != NULL,
	   "adapter name as a single-quoted literal");
	ok(strstr(script, "Get-NetAdapterHardwareInfo -Name $n") != NULL &&
	       strstr(script, "Get-NetAdapterAdvancedProperty -Name $n") &&
	       strstr(script, "Get-NetAdapter -Name $n"),
	   "nic script reads adapter, hardware info and properties");
	ok(strstr(script, "NdisPhysicalMedium -eq 9") &&
	       strstr(script, "netsh.exe wlan show interfaces"),
	   "and netsh's WLAN interfaces for a Native 802.11 adapter");
	free(script);
	strv_release(&av);
	buf_reset(&want);

	hostos_argv(PLAN_OS_WINDOWS, HOSTOS_COUNTERS, "it's", "ntcp", &av);
	script = ps_b64_decode(av.v[4]);
	ok(strstr(script, "$n = 'it''s'\n$w = 'ntcp'\n") != NULL,
	   "a quote in the name is doubled");
	ok(strstr(script, "Get-NetAdapterStatistics") &&
	       strstr(script, "Win32_PerfRawData_Tcpip_TCPv4") &&
	       strstr(script, "Win32_PerfRawData_PerfOS_Processor") &&
	       strstr(script, "logman query -ets"),
	   "counters script: statistics, TCP, CPU, captures");
	free(script);
	strv_release(&av);

	hostos_argv(PLAN_OS_WINDOWS, HOSTOS_SYSTEM, NULL, NULL, &av);
	script = ps_b64_decode(av.v[4]);
	ok(strstr(script, "Win32_OperatingSystem") &&
	       strstr(script, "Get-NetTCPSetting"),
	   "system script: OS and TCP settings");
	free(script);
	strv_release(&av);

	ok(hostos_argv(PLAN_OS_LINUX, HOSTOS_NIC, "eth0", NULL, &av) ==
	       -XR_EUSAGE,
	   "Linux keeps its own paths");
	strv_release(&av);
	buf_reset(&want);
	oswin_encode("A\xc3\xa9", &want); /* "Aé" */
	is_str(want.s, "QQDpAA==", "UTF-8 to UTF-16LE base64");
	buf_release(&want);
}

static void probe_is(const char *doc, const char *name, const char *want)
{
	struct buf out = BUF_INIT;
	struct xr_err err = {0};
	int rc = probe_from_nic_doc(NULL, name, "Ethernet 2", doc, &out, &err);
	if (want) {
		ok(rc == 0, "%s reads (%s)", name, rc ? err.msg : "");
		is_str(out.s ? out.s : "", want, name);
	} else {
		ok(rc < 0, "%s is an error: %s", name, err.msg);
	}
	buf_release(&out);
}

static void msg_has(const char *doc, const char *name, const char *sub)
{
	struct buf out = BUF_INIT;
	struct xr_err err = {0};
	probe_from_nic_doc(NULL, name, "Ethernet 2", doc, &out, &err);
	ok(strstr(err.msg, sub) != NULL, "%s: '%s' in '%s'", name, sub,
	   err.msg);
	buf_release(&out);
}

static void test_nic(void)
{
	char *t = slurp("nic_x550.txt");
	struct buf doc = BUF_INIT;
	ok(t != NULL, "nic_x550.txt");
	is_int(hostos_translate(PLAN_OS_WINDOWS, HOSTOS_NIC, t, "Ethernet 2",
				&doc),
	       0, "translate");
	probe_is(doc.s, "nic.driver", "ixs.sys");
	probe_is(doc.s, "nic.mtu", "9000");
	probe_is(doc.s, "nic.link_speed", "10000Mb/s");
	probe_is(doc.s, "nic.speed_mbps", "10000");
	probe_is(doc.s, "nic.duplex", "full");
	probe_is(doc.s, "nic.pcie_link", "8.0 GT/s x1 (max 8.0 GT/s x4)");
	probe_is(doc.s, "nic.property:Jumbo Packet", "9014 Bytes");
	probe_is(doc.s, "nic.property:*InterruptModeration", "Enabled");
	probe_is(doc.s, "nic.property:Receive Buffers", "512");
	probe_is(doc.s, "nic.property:No Such", NULL);
	probe_is(doc.s, "nic.firmware", NULL);
	free(t);

	buf_reset(&doc);
	t = slurp("nic_usb.txt");
	hostos_translate(PLAN_OS_WINDOWS, HOSTOS_NIC, t, NULL, &doc);
	probe_is(doc.s, "nic.link_speed", "2500Mb/s");
	probe_is(doc.s, "nic.driver", "rtux64w10.sys");
	probe_is(doc.s, "nic.pcie_link", NULL);
	msg_has(doc.s, "nic.pcie_link",
		"(Get-NetAdapterHardwareInfo shows none");
	probe_is(doc.s, "nic.property:Flow Control", "Disabled");
	free(t);

	buf_reset(&doc);
	t = slurp("nic_wifi.txt");
	hostos_translate(PLAN_OS_WINDOWS, HOSTOS_NIC, t, NULL, &doc);
	ok(strstr(doc.s, "\nwireless: 1\n") != NULL,
	   "NdisPhysicalMedium 9: wireless");
	ok(strstr(doc.s, "\nwifi_rate: tx 866.7 Mbit/s, rx 780.0 Mbit/s "
			 "(802.11ac)\n") != NULL,
	   "netsh's rates of the adapter named Wi-Fi");
	probe_is(doc.s, "nic.link_speed", "780Mb/s");
	free(t);
	buf_reset(&doc);
	t = slurp("nic_usb.txt");
	hostos_translate(PLAN_OS_WINDOWS, HOSTOS_NIC, t, NULL, &doc);
	ok(!strstr(doc.s, "wireless") && !strstr(doc.s, "wifi_rate"),
	   "a wired adapter: neither wireless nor a Wi-Fi rate");
	free(t);

	buf_reset(&doc);
	t = slurp("nic_missing.txt");
	hostos_translate(PLAN_OS_WINDOWS, HOSTOS_NIC, t, NULL, &doc);
	probe_is(doc.s, "nic.mtu", NULL);
	msg_has(doc.s, "nic.mtu", "see `Get-NetAdapter` there");
	free(t);
	buf_release(&doc);
}

static void test_system(void)
{
	char *t = slurp("system.txt");
	struct buf doc = BUF_INIT, v = BUF_INIT;
	static const char *const want[][2] = {
	    {"hostname", "WIN11-X570"},
	    {"os_release", "Microsoft Windows 11 Pro"},
	    {"kernel", "10.0.22631"},
	    {"tcp_cc", "CTCP"},
	    {"cpu_model", "AMD Ryzen 7 5800X 8-Core Processor"},
	    {"cpu_count", "16"},
	    {"mem_bytes", "34279555072"},
	};
	hostos_translate(PLAN_OS_WINDOWS, HOSTOS_SYSTEM, t, NULL, &doc);
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		buf_reset(&v);
		ok(kv_get(doc.s, want[i][0], &v), "has %s", want[i][0]);
		is_str(v.s ? v.s : "", want[i][1], want[i][0]);
	}
	free(t);
	buf_release(&doc);
	buf_release(&v);
}

/* The congestion provider a connection gets (oswin.c tcp_effective) and
 * pktmon's state, from two recordings and inline variants; the expected
 * strings are what the rules in docs/hosts.md give for those inputs. */
static void test_templates(void)
{
	static const struct {
		const char *file, *cc, *tmpl, *pktmon;
	} rec[] = {
	    {"system_automatic.txt", "CUBIC",
	     "Datacenter (Automatic, RTT <= 10 ms; Internet above: CTCP)",
	     "loaded (no capture, but the PktMon driver stays loaded until "
	     "pktmon unload)"},
	    {"system_filters.txt", "CTCP",
	     "InternetCustom (transport filter *); 1 more transport filter",
	     "running (a pktmon capture perturbs throughput: pktmon stop)"},
	    {"system.txt", "CTCP", "Internet", NULL},
	};
	static const struct {
		const char *text, *cc, *tmpl, *pktmon;
	} inl[] = {
	    /* AutomaticUseCustom Enabled: the Custom pair */
	    {"@@ tcpsetting\n[{\"SettingName\":\"Automatic\","
	     "\"AutomaticUseCustom\":\"Enabled\"},{\"SettingName\":"
	     "\"DatacenterCustom\",\"CongestionProvider\":\"DCTCP\"},"
	     "{\"SettingName\":\"Datacenter\",\"CongestionProvider\":\"CUBIC\"}"
	     ",{\"SettingName\":\"InternetCustom\",\"CongestionProvider\":"
	     "\"CTCP\"}]\n@@ transportfilter\n[]\n@@ pktmon\nStopped\n",
	     "DCTCP",
	     "DatacenterCustom (Automatic, RTT <= 10 ms; InternetCustom "
	     "above: CTCP)",
	     "unloaded"},
	    /* no service (before 1809: ObjectNotFound, empty): no fact */
	    {"@@ "
	     "tcpsetting\n{\"SettingName\":\"Compat\",\"CongestionProvider\":"
	     "\"NewReno\"}\n@@ transportfilter\n{\"SettingName\":\"Compat\","
	     "\"DestinationPrefix\":\"*\"}\n@@ pktmon\n",
	     "NewReno", "Compat (transport filter *)", NULL},
	};
	struct buf doc = BUF_INIT, v = BUF_INIT;
	for (size_t i = 0; i < sizeof rec / sizeof rec[0] + 2; i++) {
		size_t k = i - sizeof rec / sizeof rec[0];
		int isrec = i < sizeof rec / sizeof rec[0];
		char *t = isrec ? slurp(rec[i].file) : NULL;
		const char *cc = isrec ? rec[i].cc : inl[k].cc;
		const char *tm = isrec ? rec[i].tmpl : inl[k].tmpl;
		const char *pm = isrec ? rec[i].pktmon : inl[k].pktmon;
		const char *name = isrec ? rec[i].file : tm;
		buf_reset(&doc);
		hostos_translate(PLAN_OS_WINDOWS, HOSTOS_SYSTEM,
				 isrec ? t : inl[k].text, NULL, &doc);
		buf_reset(&v);
		kv_get(doc.s ? doc.s : "", "tcp_cc", &v);
		ok(v.s && strcmp(v.s, cc) == 0, "%s: tcp_cc %s (%s)", name, cc,
		   v.s ? v.s : "");
		buf_reset(&v);
		kv_get(doc.s ? doc.s : "", "tcp_cc_template", &v);
		ok(v.s && strcmp(v.s, tm) == 0, "%s: tcp_cc_template (%s)",
		   name, v.s ? v.s : "");
		buf_reset(&v);
		if (pm) {
			kv_get(doc.s ? doc.s : "", "pktmon", &v);
			ok(v.s && strcmp(v.s, pm) == 0, "%s: pktmon (%s)", name,
			   v.s ? v.s : "");
		} else {
			ok(!kv_get(doc.s ? doc.s : "", "pktmon", &v),
			   "%s: no pktmon fact", name);
		}
		free(t);
	}
	buf_release(&doc);
	buf_release(&v);
}

/* A host printing a real past 2^64 (libFuzzer found 1e300 in
 * TotalVisibleMemorySize: a cast undefined in C) gets no value, and the
 * rest of the document still translates. */
static void test_system_huge(void)
{
	static const char *const text =
	    "@@ os\n{\"Caption\":\"W\",\"CSName\":\"H\","
	    "\"TotalVisibleMemorySize\":1e300}\n"
	    "@@ cpu\n{\"Name\":\"C\",\"NumberOfLogicalProcessors\":"
	    "18446744073709551616.0}\n";
	struct buf doc = BUF_INIT, v = BUF_INIT;
	hostos_translate(PLAN_OS_WINDOWS, HOSTOS_SYSTEM, text, NULL, &doc);
	ok(!kv_get(doc.s ? doc.s : "", "mem_bytes", &v),
	   "1e300 KiB of memory is no value");
	ok(!kv_get(doc.s ? doc.s : "", "cpu_count", &v),
	   "2^64 processors is no value");
	ok(kv_get(doc.s ? doc.s : "", "hostname", &v) && strcmp(v.s, "H") == 0,
	   "the rest of the document is read");
	buf_release(&doc);
	buf_release(&v);
}

static double row(const struct counter_row *r, size_t n, const char *scope,
		  const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(r[i].scope, scope) == 0 &&
		    strcmp(r[i].name, name) == 0)
			return r[i].value;
	return -1;
}

static struct counters_snap *snap(const char *file)
{
	char *t = slurp(file);
	struct buf doc = BUF_INIT;
	struct counters_snap *s = NULL;
	hostos_translate(PLAN_OS_WINDOWS, HOSTOS_COUNTERS, t, NULL, &doc);
	ok(counters_parse(doc.s, doc.len, &s) == 0, "parse %s", file);
	free(t);
	buf_release(&doc);
	return s;
}

/* Processor Information (processor groups): "1,0" listed first is CPU 2;
 * DPC time is read where Linux's softirq share is. The expected shares
 * are the recording's deltas over its 10 s (1e8 x 100 ns): CPU 0 idle
 * 3e7 (busy 70%), DPC 4e7 (40%); CPU 1 idle 9e7 (10%), DPC 1e6 (1%);
 * CPU 2 idle 0 (100%), DPC 7e7 (70%: seed 000's "DPC 70%"). */
static void test_counters_groups(void)
{
	struct counters_snap *b = snap("counters_groups_before.txt");
	struct counters_snap *a = snap("counters_groups_after.txt");
	struct counter_row *r = NULL;
	size_t n = 0;

	ok(counters_interval(b, a, &r, &n) == 0, "interval (groups)");
	is_near(row(r, n, "cpu", "cpu0_busy_pct"), 70, 1e-9, "0,0 busy");
	is_near(row(r, n, "cpu", "cpu1_busy_pct"), 10, 1e-9, "0,1 busy");
	is_near(row(r, n, "cpu", "cpu2_busy_pct"), 100, 1e-9,
		"1,0 (group 1) is CPU 2 and 100% busy");
	is_near(row(r, n, "cpu", "cpu0_softirq_pct"), 40, 1e-9,
		"0,0: % DPC Time as the softirq share");
	is_near(row(r, n, "cpu", "cpu1_softirq_pct"), 1, 1e-9, "0,1 DPC");
	is_near(row(r, n, "cpu", "cpu2_softirq_pct"), 70, 1e-9, "1,0 DPC 70%");
	ok(row(r, n, "cpu", "cpu3_busy_pct") < 0,
	   "the _Total instances are no CPU");
	free(r);
	counters_snap_free(b);
	counters_snap_free(a);
}

static void test_counters(void)
{
	struct counters_snap *b = snap("counters_before.txt");
	struct counters_snap *a = snap("counters_after.txt");
	struct counter_row *r = NULL;
	size_t n = 0;

	ok(counters_delta(b, a, &r, &n) == 0, "delta");
	is_near(row(r, n, "nic", "rx_dropped"), 1200, 0,
		"ReceivedDiscardedPackets -> rx_dropped");
	is_near(row(r, n, "nic", "rx_errors"), 0, 0, "rx_errors 0 is a row");
	is_near(row(r, n, "nic", "rx_bytes"), 1249001000, 0, "rx_bytes");
	is_near(row(r, n, "nic", "rx_packets"), 830002, 0,
		"rx_packets: unicast + multicast + broadcast");
	is_near(row(r, n, "tcp", "RetransSegs"), 75, 0,
		"TCPv4 + TCPv6 segments retransmitted");
	is_near(row(r, n, "tcp", "InSegs"), 830000, 0, "InSegs");
	is_near(row(r, n, "tcp", "ActiveOpens"), 2, 0, "ActiveOpens");
	is_near(row(r, n, "cpu", "cpu0_busy_pct"), 25, 1e-9,
		"cpu0: 1 - dIdle/dTime");
	is_near(row(r, n, "cpu", "cpu1_busy_pct"), 75, 1e-9, "cpu1");
	is_near(row(r, n, "cpu", "busy_avg_pct"), 50, 1e-9, "average");
	ok(row(r, n, "cpu", "cpu_total_busy_pct") < 0, "_Total is skipped");
	is_near(row(r, n, "capture", "wireshark"), 1, 0, "Wireshark seen");
	is_near(row(r, n, "capture", "dumpcap"), 1, 0, "dumpcap seen");
	is_near(row(r, n, "capture", "tcpdump"), 1, 0, "WinDump as tcpdump");
	is_near(row(r, n, "capture", "pktmon"), 1, 0,
		"PktMon trace session seen");
	free(r);
	counters_snap_free(b);
	counters_snap_free(a);

	{
		struct buf doc = BUF_INIT;
		struct counters_snap *s = NULL;
		hostos_translate(PLAN_OS_WINDOWS, HOSTOS_COUNTERS,
				 "@@ noiface\n", NULL, &doc);
		counters_parse(doc.s, doc.len, &s);
		ok(s && counters_snap_missing_iface(s),
		   "missing adapter reported");
		counters_snap_free(s);
		buf_release(&doc);
	}
}

static void test_iface_names(void)
{
	struct xr_err e;
	ok(hostos_iface_ok(PLAN_OS_WINDOWS, "Ethernet 2", &e) == 0,
	   "Windows names hold spaces");
	ok(hostos_iface_ok(PLAN_OS_WINDOWS, "Eth*", &e) < 0,
	   "wildcards refused");
	ok(hostos_iface_ok(PLAN_OS_LINUX, "Ethernet 2", &e) < 0,
	   "not on Linux");
	ok(probe_known("nic.property:Jumbo Packet"),
	   "nic.property:NAME is a probe");
}

static int load(const char *text, struct plan **p)
{
	struct xr_diag d;
	int rc;
	xr_diag_init(&d, "t.yaml");
	rc = plan_load_mem("t.yaml", text, strlen(text), catalog_builtin(), p,
			   &d);
	xr_diag_release(&d);
	return rc;
}

static void test_plan_os(void)
{
	struct plan *p = NULL;
	const struct plan_host *h;
	int rc = load("xrun: 1\nname: t\n"
		      "hosts:\n"
		      "  win: { ssh: me@w, shell: powershell }\n"
		      "  win2: { ssh: me@w2, os: windows }\n"
		      "  mac: { ssh: me@m, os: macos }\n"
		      "  ubu: { ssh: me@u }\n"
		      "engine: { type: iperf3, server: ubu }\n"
		      "factors:\n"
		      "  mtu:\n"
		      "    levels: [a]\n"
		      "    verify: { probe: \"nic.property:Jumbo Packet\", "
		      "expect: \"9014 Bytes\" }\n",
		      &p);
	is_int(rc, 0, "plan with os: loads (nic.property: is a known probe)");
	if (rc == 0) {
		h = plan_host_find(p, "win");
		ok(h && h->os == PLAN_OS_WINDOWS,
		   "shell: powershell means windows");
		h = plan_host_find(p, "win2");
		ok(h && h->os == PLAN_OS_WINDOWS &&
		       h->shell == PLAN_SHELL_POWERSHELL,
		   "os: windows quotes for powershell");
		h = plan_host_find(p, "mac");
		ok(h && h->os == PLAN_OS_MACOS && h->shell == PLAN_SHELL_SH,
		   "os: macos");
		h = plan_host_find(p, "ubu");
		ok(h && h->os == PLAN_OS_LINUX && !h->os_given,
		   "default linux, to be detected on an ssh host");
		h = plan_host_find(p, "mac");
		ok(h && h->os_given, "os: given");
		h = plan_host_find(p, "win");
		ok(h && h->os_given, "shell: powershell gives the os");
		plan_free(p);
	}
	p = NULL;
	rc = load("xrun: 1\nname: t\nhosts:\n  x: { ssh: me@x, os: beos }\n"
		  "engine: { type: iperf3, server: x }\n",
		  &p);
	ok(rc < 0, "unknown os refused");
	plan_free(p);
}

/*
 * The whole path through a real transport: a host with os: windows in a
 * network namespace, where a stand-in powershell.exe (first on our PATH,
 * which ip netns exec keeps) decodes -EncodedCommand and answers with the
 * recording that matches the script. Root only.
 */
static void test_dispatch_netns(void)
{
	char dir[256], ns[32], path[1400], fake[600];
	const char *src = getenv("XRUN_SOURCE_DIR");
	const char *old_path = getenv("PATH");
	struct plan_host ph = {0};
	struct host *h = NULL;
	struct buf out = BUF_INIT;
	struct xr_err err = {0};
	struct counters_snap *snap = NULL;
	struct fact *facts = NULL;
	size_t nf = 0;
	double v;
	int have = 0;
	FILE *f;

	if (geteuid() != 0) {
		tap_skip("netns dispatch test needs root");
		return;
	}
	snprintf(dir, sizeof dir, "/tmp/xr-win-XXXXXX");
	snprintf(ns, sizeof ns, "xrwin%d", (int)getpid() % 100000);
	snprintf(path, sizeof path, "ip netns add %s", ns);
	if (!mkdtemp(dir) || system(path) != 0) {
		tap_skip("cannot create a namespace");
		return;
	}
	snprintf(fake, sizeof fake, "%s/powershell.exe", dir);
	f = fopen(fake, "w");
	if (f) {
		const char *d = src ? src : XRUN_SOURCE_DIR;
		fprintf(f,
			"#!/bin/sh\n"
			"[ \"$3\" = -EncodedCommand ] || exit 9\n"
			"s=$(printf %%s \"$4\" | base64 -d | tr -d '\\000')\n"
			"case $s in\n"
			"*\"$n = 'Ethernet 2'\"*Get-NetAdapterHardwareInfo*) "
			"cat '%s/tests/data/windows/nic_x550.txt';;\n"
			"*\"$n = 'Wi-Fi'\"*Get-NetAdapterHardwareInfo*) "
			"cat '%s/tests/data/windows/nic_wifi.txt';;\n"
			"*Get-NetAdapterHardwareInfo*) echo '@@ noiface';;\n"
			"*Win32_OperatingSystem*) "
			"cat '%s/tests/data/windows/system.txt';;\n"
			"*) cat '%s/tests/data/windows/counters_after.txt';;\n"
			"esac\n",
			d, d, d, d);
		fclose(f);
		chmod(fake, 0755);
	}
	snprintf(path, sizeof path, "%s:%s", dir, old_path ? old_path : "");
	setenv("PATH", path, 1);

	ph.name = "win";
	ph.netns = ns;
	ph.os = PLAN_OS_WINDOWS;
	ok(host_open(&ph, NULL, &h, &err) == 0, "open netns host: %s", err.msg);
	if (h) {
		ok(probe_read(h, "nic.pcie_link", "Ethernet 2", &out, &err) ==
		       0,
		   "nic.pcie_link via PowerShell (%s)", err.msg);
		is_str(out.s ? out.s : "", "8.0 GT/s x1 (max 8.0 GT/s x4)",
		       "from Get-NetAdapterHardwareInfo");
		ok(probe_read(h, "nic.property:Jumbo Packet", "Ethernet 2",
			      &out, &err) == 0,
		   "nic.property (%s)", err.msg);
		is_str(out.s ? out.s : "", "9014 Bytes", "advanced property");
		ok(probe_read(h, "nic.mtu", "Ethernet 9", &out, &err) < 0 &&
		       strstr(err.msg, "Get-NetAdapter"),
		   "missing adapter: %s", err.msg);
		ok(probe_read(h, "tcp.cc", NULL, &out, &err) == 0, "tcp.cc");
		is_str(out.s ? out.s : "", "CTCP", "Internet template");
		ok(counters_snapshot(h, "Ethernet 2",
				     PLAN_COUNTER_NIC | PLAN_COUNTER_TCP |
					 PLAN_COUNTER_CPU |
					 PLAN_COUNTER_CAPTURE,
				     &snap, &err) == 0,
		   "counter snapshot (%s)", err.msg);
		ok(snap && counters_snap_get(snap, "nic", "rx_dropped", &v) &&
		       v == 1203.0,
		   "rx_dropped from Get-NetAdapterStatistics");
		ok(snap && counters_snap_get(snap, "capture", "pktmon", &v),
		   "pktmon session seen");
		counters_snap_free(snap);
		ok(facts_collect(h, "Ethernet 2", NULL, &facts, &nf) == 0,
		   "facts");
		for (size_t i = 0; i < nf; i++)
			if ((!strcmp(facts[i].key, "os_release") &&
			     !strcmp(facts[i].value,
				     "Microsoft Windows 11 Pro")) ||
			    (!strcmp(facts[i].key, "nic_pcie_link") &&
			     !strcmp(facts[i].value,
				     "8.0 GT/s x1 (max 8.0 GT/s x4)")) ||
			    (!strcmp(facts[i].key, "capture_running") &&
			     strstr(facts[i].value, "pktmon")))
				have++;
		is_int(have, 3, "facts: OS, PCIe link, capture running");
		facts_free(facts, nf);
		/* a Wi-Fi adapter: netsh's rates are the fact nic_wifi_rate;
		 * its link speed (the receive rate) is no nic_link */
		have = 0;
		ok(facts_collect(h, "Wi-Fi", NULL, &facts, &nf) == 0,
		   "Wi-Fi facts");
		for (size_t i = 0; i < nf; i++) {
			if (!strcmp(facts[i].key, "nic_wifi_rate") &&
			    !strcmp(facts[i].value, "tx 866.7 Mbit/s, rx 780.0 "
						    "Mbit/s (802.11ac)"))
				have++;
			if (!strcmp(facts[i].key, "nic_link") ||
			    !strcmp(facts[i].key, "nic_driver"))
				have += 10;
		}
		is_int(
		    have, 11,
		    "facts: nic_wifi_rate from netsh, a driver, no nic_link");
		facts_free(facts, nf);
		host_close(h);
	}
	setenv("PATH", old_path ? old_path : "/usr/bin:/bin", 1);
	snprintf(path, sizeof path, "ip netns del %s; rm -rf '%s'", ns, dir);
	if (system(path) != 0)
		printf("# cleanup failed\n");
	buf_release(&out);
}

int main(void)
{
	test_argv();
	test_nic();
	test_system();
	test_system_huge();
	test_templates();
	test_counters();
	test_counters_groups();
	test_iface_names();
	test_plan_os();
	test_dispatch_netns();
	return tap_done();
}
