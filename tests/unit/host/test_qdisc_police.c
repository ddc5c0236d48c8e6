/*
 * tc policers from `tc -s filter show` text (runner/host/qdisc_police.c)
 * and the drops of the ingress or clsact qdisc (counters_parse.c,
 * qdisc.ingress_drops), from the recordings of tests/data/tc (README.md
 * there names each one's source: real outputs, or constructed from
 * iproute2's printing code where this kernel has no act_police).
 * Sizes: sprint_size() steps of 1024, so 10Kb = 10240 B, 2Kb = 2048,
 * 64Kb = 65536, 3760Kb = 3850240 (python3: 3760 * 1024).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "counters.h"
#include "qdisc_police.h"
#include "tap.h"

static struct buf text;

static const char *rec(const char *file)
{
	char path[512];
	snprintf(path, sizeof path, "%s/tests/data/tc/%s", XRUN_SOURCE_DIR,
		 file);
	buf_reset(&text);
	is_int(buf_read_file(&text, path, 65536), 0, file);
	return text.s;
}

static void fact_is(const struct qdisc_police *p, int n, const char *want,
		    const char *what)
{
	struct buf f = BUF_INIT;
	if (want) {
		is_int(qdisc_police_fact(p, n, &f), 0, what);
		is_str(f.s, want, what);
	} else {
		ok(qdisc_police_fact(p, n, &f) < 0, "%s: no fact", what);
	}
	buf_release(&f);
}

static void u32_ingress(void)
{
	struct qdisc_police p[4];
	const char *why = "x";
	int n = qdisc_police_parse(rec("u32_ingress_police.txt"), p, 4);
	is_int(n, 1, "u32 ingress: one policer");
	is_str(p[0].cls, "u32", "its classifier");
	is_str(p[0].proto, "ip", "its protocol");
	is_int((int)p[0].pref, 1, "its pref");
	ok(p[0].all && p[0].first, "match u32 0 0, the hook's first filter");
	is_near(p[0].rate, 10e6, 0, "rate 10Mbit");
	is_near(p[0].burst, 10240, 0, "burst 10Kb");
	is_near(p[0].mtu, 2048, 0, "mtu 2Kb");
	is_str(p[0].exceed, "drop", "exceed drop");
	ok(p[0].has_stats && p[0].bytes == 13107200 && p[0].packets == 8738 &&
	       p[0].drops == 412 && p[0].overlimits == 412,
	   "its Sent line");
	ok(qdisc_police_limits(&p[0], &why) == 1 && why == NULL, "it limits");
	fact_is(p, n,
		"10000000 overhead 0 linklayer ethernet: u32 protocol ip "
		"pref 1, exceed drop",
		"u32 ingress fact");
}

static void u32_keys(void)
{
	struct qdisc_police p[4];
	const char *why;
	int n = qdisc_police_parse(rec("u32_root_police_keys.txt"), p, 4);
	is_int(n, 3, "u32 root: three policers");
	ok(!p[0].all && p[0].first, "dport 5201 (mask 0000ffff): not all");
	ok(p[1].all && !p[1].first, "match ip src 0/0 after another filter");
	is_str(p[1].exceed, "drop", "drop/pipe: the exceed action first");
	is_near(p[1].mtu, 65536, 0, "mtu 64Kb");
	ok(p[2].atm && p[2].overhead == 20 && p[2].rate == 900e6,
	   "overhead 20b linklayer atm, 900Mbit");
	ok(!qdisc_police_limits(&p[1], &why) && why && strstr(why, "before it"),
	   "the second filter's policer does not hold all traffic");
	fact_is(p, n,
		"none: u32 protocol ip pref 1, exceed drop: the filter does "
		"not match all traffic",
		"u32 root fact: none, the first one's reason");
	is_int(qdisc_police_parse(rec("u32_root_police_keys.txt"), p, 1), 3,
	       "cap 1: all three counted, one filled");
}

static void others(void)
{
	struct qdisc_police p[4];
	const char *t, *basic;
	int n =
	    qdisc_police_parse(rec("matchall_egress_police_pipe.txt"), p, 4);
	is_int(n, 1, "matchall: one policer");
	ok(p[0].all && p[0].first && p[0].rate == 500e6 && p[0].burst == 65500,
	   "matchall 500Mbit burst 65500b");
	fact_is(p, n,
		"none: matchall protocol all pref 49152, exceed pipe: the "
		"exceed action does not drop",
		"exceed pipe: no ceiling");
	t = rec("basic_fw_ingress_police.txt");
	n = qdisc_police_parse(t, p, 4);
	is_int(n, 2, "fw and basic: two policers");
	ok(!p[0].all && p[1].all && !p[1].first && p[0].burst == 3850240,
	   "fw is not all; basic is, after fw; burst 3760Kb");
	basic = strstr(t, "filter parent ffff: protocol all pref 255");
	n = qdisc_police_parse(basic, p, 4);
	fact_is(p, n,
		"1000000000 overhead 0 linklayer ethernet: basic protocol "
		"all pref 255, exceed drop",
		"basic alone: 1Gbit");
	n = qdisc_police_parse(rec("flower_ingress_police_reclassify.txt"), p,
			       4);
	is_int(n, 1, "flower: one policer (the vlan action is not one)");
	ok(!p[0].all && !strcmp(p[0].exceed, "reclassify") && p[0].rate == 37e6,
	   "flower dst_mac: not all; reclassify; 37Mbit");
	ok(p[0].has_stats && p[0].bytes == 1994574813ULL &&
	       p[0].overlimits == 1319959 && p[0].drops == 0,
	   "the recorded Sent line");
	is_int(qdisc_police_parse(rec("u32_ingress_mirred_shot.txt"), p, 4), 0,
	       "mirred only: no policer");
	fact_is(p, 0, NULL, "no policer");
	is_int(qdisc_police_parse(NULL, p, 4), 0, "NULL text");
}

static double qval(const struct counter_row *r, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(r[i].scope, "qdisc") && !strcmp(r[i].name, name))
			return r[i].value;
	return -1;
}

/* The recording (clsact drops 10 on this kernel: a u32 filter's mirred
 * to a device that is down is TC_ACT_SHOT) against the same document
 * with its drops at 0 before: ingress_drops 10, root drops 0. */
static void ingress_drops(void)
{
	struct buf a = BUF_INIT, b = BUF_INIT;
	struct counters_snap *sa = NULL, *sb = NULL;
	struct counter_row *rows = NULL;
	size_t n = 0;
	char *d;
	buf_adds(&b, "@@ xrun-counters 1\n@@ qdisc\n");
	buf_adds(&b, rec("qdisc_clsact_shot.json"));
	buf_adds(&a, b.s);
	d = strstr(a.s, "\"drops\":10");
	ok(d != NULL, "the recording's clsact drops");
	if (d)
		memcpy(d, "\"drops\": 0", 10);
	ok(counters_parse(a.s, a.len, &sa) == 0 &&
	       counters_parse(b.s, b.len, &sb) == 0 &&
	       counters_delta(sa, sb, &rows, &n) == 0,
	   "parse and delta");
	is_near(qval(rows, n, "ingress_drops"), 10, 0,
		"clsact's drops: qdisc.ingress_drops");
	is_near(qval(rows, n, "drops"), 0, 0, "the noqueue root's: 0");
	counters_snap_free(sa);
	counters_snap_free(sb);
	free(rows);
	buf_release(&a);
	buf_release(&b);
}

int main(void)
{
	tap_plan(49);
	u32_ingress();
	u32_keys();
	others();
	ingress_drops();
	buf_release(&text);
	return tap_done();
}
