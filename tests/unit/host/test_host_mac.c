/* macOS hosts: the sh command sent for each reading, and the translators
 * against the recordings in tests/data/macos (see its README.md for where
 * each comes from). The scripts themselves are also run by this
 * machine's sh against fake ifconfig/netstat/... programs that print the
 * recordings, so the section markers and the $1/$2 handling are real.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "counters.h"
#include "facts.h"
#include "host.h"
#include "probe.h"
#include "counters_int.h"
#include "hostos.h"
#include "kv.h"
#include "osmac.h"
#include "probe_int.h"
#include "proc.h"
#include "strv.h"
#include "tap.h"

static char *slurp(const char *name)
{
	const char *src = getenv("XRUN_SOURCE_DIR");
	char path[512];
	struct buf b = BUF_INIT;
	snprintf(path, sizeof path, "%s/tests/data/macos/%s",
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
	is_int(hostos_argv(PLAN_OS_MACOS, HOSTOS_COUNTERS, "en7", "ntp", &av),
	       0, "macos counters argv");
	ok(av.n == 6, "sh -c SCRIPT sh IFACE LETTERS");
	is_str(av.v[0], "sh", "sh");
	is_str(av.v[2], osmac_counters_script, "the fixed script");
	is_str(av.v[4], "en7", "interface as $1");
	is_str(av.v[5], "ntp", "sections as $2");
	ok(strstr(av.v[2], "netstat -I \"$1\" -b -d -n") &&
	       strstr(av.v[2], "netstat -s -p tcp") &&
	       strstr(av.v[2], "ps -axc -o comm="),
	   "netstat -I -b -d, netstat -s -p tcp, ps");
	strv_release(&av);
	hostos_argv(PLAN_OS_MACOS, HOSTOS_NIC, "en0", NULL, &av);
	ok(strstr(av.v[2], "ifconfig \"$1\"") &&
	       strstr(av.v[2], "networksetup -listallhardwareports") &&
	       strstr(av.v[2], "system_profiler SPEthernetDataType"),
	   "nic: ifconfig, networksetup, system_profiler");
	strv_release(&av);
	hostos_argv(PLAN_OS_MACOS, HOSTOS_SYSTEM, NULL, NULL, &av);
	ok(strstr(av.v[2], "sw_vers") &&
	       strstr(av.v[2], "net.inet.tcp.use_newreno"),
	   "system: sw_vers, sysctl");
	strv_release(&av);
}

static void probe_is(const char *doc, const char *name, const char *want)
{
	struct buf out = BUF_INIT;
	struct xr_err err = {0};
	int rc = probe_from_nic_doc(NULL, name, "en7", doc, &out, &err);
	if (want) {
		ok(rc == 0, "%s reads (%s)", name, rc ? err.msg : "");
		is_str(out.s ? out.s : "", want, name);
	} else {
		ok(rc < 0, "%s is an error: %s", name, err.msg);
	}
	buf_release(&out);
}

static void test_nic(void)
{
	char *t = slurp("nic_usb.txt");
	struct buf doc = BUF_INIT;
	ok(t != NULL, "nic_usb.txt");
	hostos_translate(PLAN_OS_MACOS, HOSTOS_NIC, t, "en7", &doc);
	probe_is(doc.s, "nic.mtu", "1500");
	probe_is(doc.s, "nic.link_speed", "2500Mb/s");
	probe_is(doc.s, "nic.duplex", "full");
	probe_is(doc.s, "nic.driver", "AppleUserECM");
	probe_is(doc.s, "nic.pcie_link", NULL);
	ok(strstr(doc.s, "devtype: USB 10/100/1G/2.5G LAN\n") != NULL,
	   "hardware port name kept");
	/* the adapter's ids (0x0bda, 0x8156) found under a hub in
	 * SPUSBDataType: super_speed, 5 Gb/s (USB 3.2 Gen 1) */
	ok(strstr(doc.s, "usb_link: 5 Gb/s (super_speed)\n") != NULL,
	   "USB link speed of the USB adapter");
	free(t);

	buf_reset(&doc);
	t = slurp("nic_wifi.txt");
	hostos_translate(PLAN_OS_MACOS, HOSTOS_NIC, t, "en0", &doc);
	ok(strstr(doc.s, "\nwireless: 1\n") &&
	       strstr(doc.s, "\nwifi_rate: tx 867.0 Mbit/s (802.11ac)\n"),
	   "a Wi-Fi port: SPAirPortDataType's rate of en0");
	probe_is(doc.s, "nic.link_speed", "unknown"); /* media: autoselect */
	free(t);
	buf_reset(&doc);
	t = slurp("nic_usb.txt");
	hostos_translate(PLAN_OS_MACOS, HOSTOS_NIC, t, "en7", &doc);
	ok(!strstr(doc.s, "wifi_rate") && !strstr(doc.s, "wireless"),
	   "an Ethernet port: no Wi-Fi rate");
	free(t);

	buf_reset(&doc);
	t = slurp("nic_pcie.txt");
	hostos_translate(PLAN_OS_MACOS, HOSTOS_NIC, t, "en0", &doc);
	probe_is(doc.s, "nic.mtu", "9000");
	probe_is(doc.s, "nic.link_speed", "10000Mb/s");
	probe_is(doc.s, "nic.driver", "AppleEthernetAquantiaAqtion");
	probe_is(doc.s, "nic.pcie_link", "8.0 GT/s x4");
	free(t);

	buf_reset(&doc);
	hostos_translate(PLAN_OS_MACOS, HOSTOS_NIC, "@@ noiface\n", "en9",
			 &doc);
	probe_is(doc.s, "nic.mtu", NULL);
	{
		struct buf out = BUF_INIT;
		struct xr_err err = {0};
		probe_from_nic_doc(NULL, "nic.mtu", "en9", doc.s, &out, &err);
		ok(strstr(err.msg, "see `ifconfig -l`") != NULL,
		   "macOS names its own listing: %s", err.msg);
		buf_release(&out);
	}
	buf_release(&doc);
}

static void test_system(void)
{
	char *t = slurp("system.txt");
	struct buf doc = BUF_INIT, v = BUF_INIT;
	static const char *const want[][2] = {
	    {"os_release", "macOS 14.4.1 (23E224)"},
	    {"kernel", "23.4.0"},
	    {"hostname", "mac-mini.local"},
	    {"tcp_cc", "cubic"},
	    {"cpu_model", "Apple M2"},
	    {"cpu_count", "8"},
	    {"mem_bytes", "17179869184"},
	};
	hostos_translate(PLAN_OS_MACOS, HOSTOS_SYSTEM, t, NULL, &doc);
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		buf_reset(&v);
		ok(kv_get(doc.s, want[i][0], &v), "has %s", want[i][0]);
		is_str(v.s ? v.s : "", want[i][1], want[i][0]);
	}
	free(t);
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

static struct counters_snap *snap_text(const char *t)
{
	struct buf doc = BUF_INIT;
	struct counters_snap *s = NULL;
	hostos_translate(PLAN_OS_MACOS, HOSTOS_COUNTERS, t, NULL, &doc);
	ok(counters_parse(doc.s, doc.len, &s) == 0, "parse");
	buf_release(&doc);
	return s;
}

static void test_counters(void)
{
	char *tb = slurp("counters_before.txt"),
	     *ta = slurp("counters_after.txt");
	struct counters_snap *b = snap_text(tb), *a = snap_text(ta);
	struct counter_row *r = NULL;
	size_t n = 0;
	double v;

	ok(counters_delta(b, a, &r, &n) == 0, "delta");
	is_near(row(r, n, "nic", "rx_bytes"), 1200000000, 0, "Ibytes");
	is_near(row(r, n, "nic", "rx_packets"), 800000, 0, "Ipkts");
	is_near(row(r, n, "nic", "tx_errors"), 2, 0, "Oerrs");
	is_near(row(r, n, "nic", "tx_dropped"), 7, 0, "Drop");
	is_near(row(r, n, "tcp", "RetransSegs"), 800, 0,
		"data packets retransmitted");
	is_near(row(r, n, "tcp", "OutSegs"), 400000, 0, "packets sent");
	is_near(row(r, n, "tcp", "InSegs"), 800000, 0, "packets received");
	is_near(row(r, n, "tcp", "ActiveOpens"), 1, 0, "connection requests");
	is_near(row(r, n, "tcp", "PassiveOpens"), 0, 0,
		"\"1 connection accept\" (singular) read");
	is_near(row(r, n, "tcp", "TCPTimeouts"), 5, 0, "retransmit timeouts");
	is_near(row(r, n, "capture", "tcpdump"), 1, 0, "tcpdump seen");
	is_near(row(r, n, "capture", "wireshark"), 1, 0, "Wireshark seen");
	ok(row(r, n, "cpu", "busy_avg_pct") < 0, "no cpu rows on macOS");
	free(r);
	counters_snap_free(b);
	counters_snap_free(a);
	free(tb);
	free(ta);

	/* The published example has no Drop column (no -d) and address
	 * rows after the link row. */
	{
		char *m = slurp("netstat_bI_moonpoint.txt");
		struct buf t = BUF_INIT;
		struct counters_snap *s;
		buf_addf(&t, "@@ netstat-if\n%s", m ? m : "");
		s = snap_text(t.s);
		ok(s && counters_snap_get(s, "nic", "rx_bytes", &v) &&
		       v == 13047081883.0,
		   "link row Ibytes");
		ok(s && counters_snap_get(s, "nic", "tx_packets", &v) &&
		       v == 29605843.0,
		   "link row Opkts");
		ok(s && !counters_snap_get(s, "nic", "tx_dropped", &v),
		   "no Drop without -d");
		counters_snap_free(s);
		buf_release(&t);
		free(m);
	}
}

/* A directory of fake tools that print the recordings, first on PATH. */
static int fake_tools(char *dir, size_t dirsz)
{
	static const char *const tools[][2] = {
	    {"ifconfig",
	     "[ \"$1\" = en7 ] || exit 1; echo 'en7: flags=8863<UP> "
	     "mtu 1500'; echo '	media: autoselect (1000baseT "
	     "<full-duplex>)'"},
	    {"networksetup",
	     "printf 'Hardware Port: USB LAN\\nDevice: en7\\n'"},
	    {"system_profiler", "exit 0"},
	};
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, dirsz, "%s/xr-mac-XXXXXX", tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return -1;
	for (size_t i = 0; i < sizeof tools / sizeof tools[0]; i++) {
		char path[600];
		FILE *f;
		snprintf(path, sizeof path, "%s/%s", dir, tools[i][0]);
		f = fopen(path, "w");
		if (!f)
			return -1;
		fprintf(f, "#!/bin/sh\n%s\n", tools[i][1]);
		fclose(f);
		chmod(path, 0755);
	}
	return 0;
}

static void test_script_runs(void)
{
	char dir[512], path[1200];
	struct strv av = {0};
	struct proc_opts o = {0};
	struct proc_result res;
	struct xr_err err;
	struct buf doc = BUF_INIT;
	const char *env[2];

	if (fake_tools(dir, sizeof dir) < 0) {
		ok(0, "fake tools");
		return;
	}
	snprintf(path, sizeof path, "PATH=%s:/usr/bin:/bin", dir);
	env[0] = path;
	env[1] = NULL;
	hostos_argv(PLAN_OS_MACOS, HOSTOS_NIC, "en7", NULL, &av);
	o.argv = (const char *const *)av.v;
	o.env = env;
	o.timeout = 10;
	ok(proc_run(&o, &res, &err) == 0 && res.exit_code == 0,
	   "nic script runs under sh");
	hostos_translate(PLAN_OS_MACOS, HOSTOS_NIC, res.out, "en7", &doc);
	probe_is(doc.s, "nic.link_speed", "1000Mb/s");
	probe_is(doc.s, "nic.driver", "USB LAN");
	proc_result_release(&res);
	strv_release(&av);

	buf_reset(&doc);
	hostos_argv(PLAN_OS_MACOS, HOSTOS_NIC, "en9", NULL, &av);
	o.argv = (const char *const *)av.v;
	ok(proc_run(&o, &res, &err) == 0, "missing interface");
	hostos_translate(PLAN_OS_MACOS, HOSTOS_NIC, res.out, "en9", &doc);
	probe_is(doc.s, "nic.mtu", NULL);
	proc_result_release(&res);
	strv_release(&av);
	buf_release(&doc);

	for (const char *t = "ifconfig\0networksetup\0system_profiler\0"; *t;
	     t += strlen(t) + 1) {
		snprintf(path, sizeof path, "%s/%s", dir, t);
		unlink(path);
	}
	rmdir(dir);
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[700];
	FILE *f;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	if ((f = fopen(path, "w"))) {
		fputs(text, f);
		fclose(f);
	}
}

static void write_tool(const char *dir, const char *name, const char *body)
{
	char path[700];
	FILE *f;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	if ((f = fopen(path, "w"))) {
		fprintf(f, "#!/bin/sh\n%s\n", body);
		fclose(f);
		chmod(path, 0755);
	}
}

static int lines_of(const char *dir, const char *name)
{
	char path[700];
	int n = 0, c;
	FILE *f;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (!(f = fopen(path, "r")))
		return 0;
	while ((c = fgetc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

/* Write section `sec` of recording `file` as the output of fake tool
 * `tool` in dir. */
static void fake_from(const char *dir, const char *tool, const char *file,
		      const char *sec)
{
	char path[700], *t = slurp(file);
	size_t n = 0;
	const char *body = t ? kv_section(t, sec, &n) : NULL;
	FILE *f;
	snprintf(path, sizeof path, "%s/%s.out", dir, tool);
	f = fopen(path, "w");
	if (f) {
		fwrite(body ? body : "", 1, n, f);
		fclose(f);
	}
	snprintf(path, sizeof path, "%s/%s", dir, tool);
	f = fopen(path, "w");
	if (f) {
		fprintf(f, "#!/bin/sh\ncat '%s/%s.out'\n", dir, tool);
		fclose(f);
		chmod(path, 0755);
	}
	free(t);
}

/*
 * The whole path through a real transport: a host with os: macos in a
 * network namespace (ip netns exec keeps our PATH, which starts with the
 * stand-in tools), read by probe_read, counters_snapshot and
 * facts_collect exactly as a run would. Root only.
 */
static void test_dispatch_netns(void)
{
	char dir[512], ns[32], path[1200];
	struct plan_host ph = {0};
	struct host *h = NULL;
	struct buf out = BUF_INIT;
	struct xr_err err = {0};
	struct counters_snap *snap = NULL;
	struct fact *facts = NULL;
	size_t nf = 0;
	double v;
	int have_os = 0, have_cpu = 0;
	const char *old_path = getenv("PATH");

	if (geteuid() != 0) {
		tap_skip("netns dispatch test needs root");
		return;
	}
	snprintf(ns, sizeof ns, "xrmac%d", (int)getpid() % 100000);
	snprintf(path, sizeof path, "ip netns add %s", ns);
	if (system(path) != 0 || fake_tools(dir, sizeof dir) < 0) {
		tap_skip("cannot create a namespace");
		return;
	}
	fake_from(dir, "sw_vers", "system.txt", "sw_vers");
	fake_from(dir, "sysctl", "system.txt", "sysctl");
	fake_from(dir, "netstat", "counters_after.txt", "netstat-if");
	fake_from(dir, "ps", "counters_after.txt", "procs");
	/* an adapter whose MAC is in DIR/mac; system_profiler counts its
	 * calls in DIR/sp.count (one line each) */
	write_tool(dir, "ifconfig",
		   "[ \"$1\" = en0 ] && { echo 'en0: flags=8863<UP> mtu 1500';"
		   " echo '	ether 3c:a6:f6:00:00:02'; exit 0; }; "
		   "[ \"$1\" = en7 ] || exit 1; echo 'en7: flags=8863<UP> "
		   "mtu 1500'; echo '	media: autoselect (1000baseT "
		   "<full-duplex>)'; echo \"	ether $(cat \"$(dirname \"$0\")"
		   "/mac\")\"");
	/* SPAirPortDataType: tests/data/macos/airport.json */
	snprintf(
	    path, sizeof path,
	    "echo x >> \"$(dirname \"$0\")/sp.count\"; [ \"$2\" != "
	    "SPAirPortDataType ] || cat '%s/tests/data/macos/airport.json'",
	    getenv("XRUN_SOURCE_DIR") ? getenv("XRUN_SOURCE_DIR")
				      : XRUN_SOURCE_DIR);
	write_tool(dir, "system_profiler", path);
	write_file(dir, "mac", "00:e0:4c:68:0a:1b\n");
	snprintf(path, sizeof path, "%s:%s", dir, old_path ? old_path : "");
	setenv("PATH", path, 1);

	ph.name = "mac";
	ph.netns = ns;
	ph.os = PLAN_OS_MACOS;
	ok(host_open(&ph, NULL, &h, &err) == 0, "open netns host: %s", err.msg);
	if (h) {
		ok(probe_read(h, "nic.link_speed", "en7", &out, &err) == 0,
		   "nic.link_speed via the macOS commands (%s)", err.msg);
		is_str(out.s ? out.s : "", "1000Mb/s", "from fake ifconfig");
		ok(probe_read(h, "os.release", NULL, &out, &err) == 0,
		   "os.release (%s)", err.msg);
		is_str(out.s ? out.s : "", "macOS 14.4.1 (23E224)",
		       "from sw_vers");
		ok(probe_read(h, "tcp.cc", NULL, &out, &err) == 0, "tcp.cc");
		is_str(out.s ? out.s : "", "cubic", "from sysctl");
		ok(counters_snapshot(h, "en7",
				     PLAN_COUNTER_NIC | PLAN_COUNTER_CAPTURE,
				     &snap, &err) == 0,
		   "counter snapshot (%s)", err.msg);
		ok(snap && counters_snap_get(snap, "nic", "rx_bytes", &v) &&
		       v == 1350000000.0,
		   "rx_bytes from netstat -I");
		ok(snap && counters_snap_get(snap, "capture", "tcpdump", &v),
		   "tcpdump from ps");
		counters_snap_free(snap);
		ok(counters_snapshot(h, "en9", PLAN_COUNTER_NIC, &snap, &err) <
			   0 &&
		       strstr(err.msg, "ifconfig -l"),
		   "missing interface: %s", err.msg);
		ok(facts_collect(h, "en7", NULL, &facts, &nf) == 0, "facts");
		for (size_t i = 0; i < nf; i++) {
			if (!strcmp(facts[i].key, "os_release") &&
			    !strcmp(facts[i].value, "macOS 14.4.1 (23E224)"))
				have_os = 1;
			if (!strcmp(facts[i].key, "cpu_model") &&
			    !strcmp(facts[i].value, "Apple M2"))
				have_cpu = 1;
		}
		ok(have_os && have_cpu, "facts from the macOS commands");
		facts_free(facts, nf);
		/* system_profiler once per adapter and session: the probe
		 * above and the facts' NIC reading share one call; another
		 * MAC (an adapter swapped) is read again, once */
		is_int(lines_of(dir, "sp.count"), 1,
		       "system_profiler run once for two NIC readings");
		write_file(dir, "mac", "00:e0:4c:68:0a:99\n");
		probe_read(h, "nic.mtu", "en7", &out, &err);
		probe_read(h, "nic.mtu", "en7", &out, &err);
		is_int(lines_of(dir, "sp.count"), 2,
		       "another adapter's MAC: read again, then kept");
		/* a Wi-Fi port: SPAirPortDataType on every reading, its
		 * rate the fact nic_wifi_rate */
		write_tool(dir, "networksetup",
			   "printf 'Hardware Port: USB LAN\\nDevice: en7\\n\\n"
			   "Hardware Port: Wi-Fi\\nDevice: en0\\n'");
		ok(facts_collect(h, "en0", NULL, &facts, &nf) == 0,
		   "Wi-Fi facts");
		have_os = 0;
		for (size_t i = 0; i < nf; i++)
			have_os += !strcmp(facts[i].key, "nic_wifi_rate") &&
				   !strcmp(facts[i].value,
					   "tx 867.0 Mbit/s (802.11ac)");
		is_int(have_os, 1, "nic_wifi_rate from SPAirPortDataType");
		facts_free(facts, nf);
		is_int(
		    lines_of(dir, "sp.count"), 4,
		    "a Wi-Fi port: SPAirPortDataType and SPEthernetDataType");
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
	test_counters();
	test_script_runs();
	test_dispatch_netns();
	return tap_done();
}
