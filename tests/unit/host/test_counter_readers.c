/* The counter readers against the group and series tables
 * (runner/desc/counter_group.h, series_name.h): each group's section
 * letter, a section in the far scripts of exactly the OSes its row names,
 * and the sampler turning each raw counter of SERIES_NAME_MAP into the
 * name the reports read (the TcpExt names by snake case, written here by
 * hand: "TCPRcvQDrop" -> "rcv_q_drop").
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "counter_group.h"
#include "counters.h"
#include "counters_int.h"
#include "osmac.h"
#include "oswin.h"
#include "plan.h"
#include "sampler.h"
#include "series_name.h"
#include "tap.h"

static void test_letters(void)
{
	char l[8];
	counters_letters(COUNTER_GROUP_ALL, l);
	is_str(l, "ntcp", "all: n t c p");
	counters_letters(PLAN_COUNTER_CPU | PLAN_COUNTER_NIC, l);
	is_str(l, "nc", "nic and cpu in the table's order");
	counters_letters(0, l);
	is_str(l, "-", "none");
	counters_letters(PLAN_COUNTER_CAPTURE, l);
	is_str(l, "p", "capture");
}

/* Each OS's script has a section for a group iff the row says it has a
 * reader there. */
static void test_scripts(void)
{
	struct buf ps = BUF_INIT, want = BUF_INIT;
	ok(oswin_script(HOSTOS_COUNTERS, "Ethernet", "ntcp", &ps) == 0,
	   "the PowerShell counters script");
	for (int g = 0; g < COUNTER_GROUP_COUNT; g++) {
		const char *l = counter_group_letter(g);
		unsigned os = counter_group_os(g);
		buf_reset(&want);
		buf_addf(&want, "case $2 in *%s*)", l);
		ok((strstr(counters_remote_script(), want.s) != NULL) ==
		       ((os & COUNTER_OS_LINUX) != 0),
		   "sh: %s %s iff its row says so", counter_group_name(g),
		   want.s);
		ok((strstr(osmac_counters_script, want.s) != NULL) ==
		       ((os & COUNTER_OS_MACOS) != 0),
		   "macOS: %s %s iff its row says so", counter_group_name(g),
		   want.s);
		buf_reset(&want);
		buf_addf(&want, "if ($w -match '%s'", l);
		ok((ps.s && strstr(ps.s, want.s) != NULL) ==
		       ((os & COUNTER_OS_WINDOWS) != 0),
		   "PowerShell: %s %s iff its row says so",
		   counter_group_name(g), want.s);
	}
	ok(strstr(counters_sampler_script(), "case $2 in *n*)\n  if [ -n") !=
	       NULL,
	   "the sampler loop has the same sections");
	buf_release(&ps);
	buf_release(&want);
}

static const char *named(const char *scope, const char *counter)
{
	static char name[64];
	struct counter_row r = {{0}, {0}, 1};
	const char *unit;
	int level;
	snprintf(r.scope, sizeof r.scope, "%s", scope);
	snprintf(r.name, sizeof r.name, "%s", counter);
	if (!sampler_series_name(&r, name, sizeof name, &unit, &level))
		return "(not sampled)";
	return name;
}

/* A row's "%d" as core 3 (a name without one is itself). */
static void core3(char *out, size_t sz, const char *fmt)
{
	snprintf(out, sz, fmt, 3);
}

static void test_series_names(void)
{
	char want[64], counter[64];
#define SERIES_ROW(name, scope, ctr)                                           \
	core3(want, sizeof want, name);                                        \
	core3(counter, sizeof counter, ctr);                                   \
	ok(!strcmp(named(scope, counter), want), "%s %s -> %s (got %s)",       \
	   scope, counter, want, named(scope, counter));
	SERIES_NAME_MAP(SERIES_ROW)
#undef SERIES_ROW
	/* the same, written out */
	is_str(named("tcp", "TCPRcvQDrop"), "tcp.rcv_q_drop", "TCPRcvQDrop");
	is_str(named("tcp", "TCPOFODrop"), "tcp.ofo_drop", "TCPOFODrop");
	is_str(named("udp", "RcvbufErrors"), "udp.rcvbuf_errors",
	       "RcvbufErrors");
	is_str(named("tcp", "RetransSegs"), "tcp.retrans", "RetransSegs");
	is_str(named("cpu", "cpu3_busy_pct"), "cpu.3.busy", "cpu3_busy_pct");
	is_str(named("cpu", "busy_max_pct"), "(not sampled)", "a summary");
	is_str(named("ethtool", "rx_pause"), "nic.ethtool.rx_pause", "ethtool");
	is_str(named("nic", "rx_bytes"), "nic.rx_bytes", "nic");
	is_str(named("softirq", "NET_RX"), "softirq.net_rx", "softirq");
	is_str(named("capture", "tcpdump"), "(not sampled)", "capture");
	is_str(named("bogus", "x"), "(not sampled)", "no such scope");
}

/* Units and levels, as before the table (sampler_feed.c). */
static void test_units(void)
{
	struct counter_row r = {"qdisc", "backlog", 1};
	char name[64];
	const char *unit;
	int level;
	ok(sampler_series_name(&r, name, sizeof name, &unit, &level) &&
	       !strcmp(unit, "B") && level == 1,
	   "qdisc.backlog: B, a level");
	snprintf(r.scope, sizeof r.scope, "nic");
	snprintf(r.name, sizeof r.name, "tx_bytes");
	ok(sampler_series_name(&r, name, sizeof name, &unit, &level) &&
	       !strcmp(unit, "B") && level == 0,
	   "nic.tx_bytes: B, an increase");
	snprintf(r.scope, sizeof r.scope, "cpu");
	snprintf(r.name, sizeof r.name, "procs_running");
	ok(sampler_series_name(&r, name, sizeof name, &unit, &level) &&
	       !strcmp(unit, "1") && level == 1,
	   "cpu.running: 1, a level");
	snprintf(r.name, sizeof r.name, "busy_avg_pct");
	ok(sampler_series_name(&r, name, sizeof name, &unit, &level) &&
	       !strcmp(unit, "%") && level == 1,
	   "cpu.all.busy: %%, a level");
}

int main(void)
{
	test_letters();
	test_scripts();
	test_series_names();
	test_units();
	return tap_done();
}
