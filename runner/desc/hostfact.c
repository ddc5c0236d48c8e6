/*
 * The host facts' table (hostfact.h): one row per key a store keeps,
 * read by runner/host/facts.c (which keys a Windows or macOS system
 * document gives, the group each key is read in), runner/exec/runfacts.c
 * (what an apply hook can change) and reports/render/table_sys.c (the
 * system table's rows and labels); schema/store.md's table is checked
 * against it. An engine's version fact is the engine's row
 * (engine_cond.c), listed here after the facts xrun reads.
 *
 * SPDX-License-Identifier: MIT
 */
#include "hostfact.h"

#include <stddef.h>
#include <string.h>

#include "engine_cond.h"

#include "banned.h"

#define HOST HOSTFACT_G_HOST
#define OS HOSTFACT_G_OS
#define NIC HOSTFACT_G_NIC
#define QDISC HOSTFACT_G_QDISC
#define CAPTURE HOSTFACT_G_CAPTURE
#define FIXED 0	 /* no factor changes it */
#define FACTOR 1 /* a factor's setting can */
/* what each OS reads: Linux, Windows, macOS */
#define READ(l, w, m) {l, w, m}, NULL
#define ALL(s) READ(s, s, s)

/* The facts xrun reads, in the system table's order; labelled rows are
 * its rows. */
static const struct hostfact facts[] = {
    {"hostname", HOST, FIXED,
     READ("`uname -n` (this machine: gethostname)",
	  "Win32_OperatingSystem CSName", "`uname -n`"),
     NULL, NULL},
    {"os_release", OS, FIXED,
     READ("/etc/os-release PRETTY_NAME", "Win32_OperatingSystem Caption",
	  "`sw_vers`"),
     "OS", "OS"},
    {"kernel", OS, FIXED,
     READ("`uname -r`", "Win32_OperatingSystem Version", "`uname -r`"),
     "Kernel", "カーネル"},
    {"cpu_model", HOST, FIXED,
     READ("/proc/cpuinfo model name (Hardware, cpu model, Processor, uarch)",
	  "Win32_Processor Name", "`sysctl machdep.cpu.brand_string`"),
     "CPU", "CPU"},
    {"cpu_count", HOST, FIXED,
     READ("/proc/cpuinfo processor lines",
	  "Win32_Processor NumberOfLogicalProcessors",
	  "`sysctl hw.logicalcpu`"),
     "CPU threads", "CPU スレッド数"},
    {"mem_bytes", HOST, FIXED,
     READ("/proc/meminfo MemTotal",
	  "Win32_OperatingSystem TotalVisibleMemorySize",
	  "`sysctl hw.memsize`"),
     "Memory", "メモリ"},
    {"tcp_cc", HOST, FIXED,
     READ(NULL, "Get-NetTCPSetting CongestionProvider (the LAN template)",
	  "`sysctl net.inet.tcp.use_newreno`"),
     NULL, NULL},
    {"tcp_cc_template", HOST, FIXED,
     READ(NULL, "Get-NetTCPSetting, Get-NetTransportFilter", NULL), NULL, NULL},
    {"pktmon", HOST, FIXED,
     READ(NULL, "`logman query -ets`, the PktMon service", NULL), NULL, NULL},
    {"nic_driver", NIC, FACTOR, ALL("the `nic.driver` probe"), "NIC driver",
     "NIC ドライバ"},
    {"nic_firmware", NIC, FACTOR, ALL("the `nic.firmware` probe"),
     "NIC firmware", "NIC ファームウェア"},
    {"nic_link", NIC, FACTOR,
     ALL("the `nic.link_speed` and `nic.duplex` probes (none when wireless)"),
     "Link", "リンク"},
    {"nic_pcie_link", NIC, FACTOR, ALL("the `nic.pcie_link` probe"),
     "PCIe link", "PCIe リンク"},
    {"nic_mtu", NIC, FACTOR, ALL("the `nic.mtu` probe"), "MTU", "MTU"},
    {"nic_usb_link", NIC, FACTOR,
     READ("sysfs device/../speed and version", NULL,
	  "`system_profiler -json SPUSBDataType` device_speed"),
     NULL, NULL},
    {"nic_wifi_rate", NIC, FACTOR,
     READ("`iw dev IF link`", "`netsh wlan show interfaces`",
	  "`system_profiler -json SPAirPortDataType`"),
     NULL, NULL},
    {"nic_offloads", NIC, FACTOR, READ("`ethtool -k IF`", NULL, NULL), NULL,
     NULL},
    {"qdisc_root", QDISC, FACTOR,
     READ("`tc -j qdisc show dev IF` (an htb root: `tc class show`)", NULL,
	  NULL),
     "Root qdisc", "ルート qdisc"},
    {"qdisc_root_queue", QDISC, FACTOR,
     READ("`tc -j qdisc show dev IF` (a tbf root's lat and burst)", NULL, NULL),
     NULL, NULL},
    {"police_egress", QDISC, FACTOR,
     READ("`tc -s filter show dev IF` (root and egress)", NULL, NULL), NULL,
     NULL},
    {"police_ingress", QDISC, FACTOR,
     READ("`tc -s filter show dev IF ingress`", NULL, NULL), NULL, NULL},
    {"capture_running", CAPTURE, FACTOR,
     READ("/proc/*/comm (the `capture` counters)",
	  "Get-Process, `logman query -ets`", "`ps -axc -o comm=`"),
     NULL, NULL},
};

/* xrun's own, stored beside the facts it reads (runner/exec/hostset.c). */
static const struct hostfact own[] = {
    {"xrun_version", 0, FIXED, ALL("xrun's own version"), NULL, NULL},
    {"plan_hash", 0, FIXED, ALL("the plan's hash"), NULL, NULL},
    {"transport", 0, FIXED, ALL("the host's transport (local, ssh, netns)"),
     NULL, NULL},
};

/* the rows' words stay here (a unity source holds the files after it) */
#undef HOST
#undef OS
#undef NIC
#undef QDISC
#undef CAPTURE
#undef FIXED
#undef FACTOR
#undef READ
#undef ALL

#define NFACTS (int)(sizeof facts / sizeof facts[0])
#define NOWN (int)(sizeof own / sizeof own[0])

const struct hostfact *hostfact_at(int i)
{
	const struct hostfact *f;
	int ntools = 0;
	if (i < 0)
		return NULL;
	if (i < NFACTS)
		return &facts[i];
	i -= NFACTS;
	while (engine_version_fact(ntools))
		ntools++;
	if (i < ntools)
		return engine_version_fact(i);
	i -= ntools;
	f = i < NOWN ? &own[i] : NULL;
	return f;
}

const struct hostfact *hostfact_find(const char *key)
{
	const struct hostfact *f;
	for (int i = 0; key && (f = hostfact_at(i)); i++)
		if (!strcmp(f->key, key))
			return f;
	return NULL;
}

unsigned hostfact_factor_groups(void)
{
	const struct hostfact *f;
	unsigned g = 0;
	for (int i = 0; (f = hostfact_at(i)); i++)
		if (f->by_factor)
			g |= f->group;
	return g;
}

const char *hostfact_group_name(unsigned group)
{
	static const char *const names[] = {"host",  "os",    "nic",
					    "qdisc", "tools", "capture"};
	for (unsigned b = 0; b < sizeof names / sizeof names[0]; b++)
		if (group == 1u << b)
			return names[b];
	return group ? "" : "xrun";
}
