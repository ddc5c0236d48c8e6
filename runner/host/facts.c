/*
 * Host facts, read whole when a host is opened and in groups again after
 * a change a factor makes (runner/exec/runfacts.c), so that a report can
 * explain each run from what it ran under and show (and flag) what
 * changed between two sides of a comparison: the driver, firmware, MTU,
 * qdisc, kernel or the engine's version. A fact that cannot be read
 * (a Windows host has no /proc/cpuinfo, a virtual NIC no PCIe link) is
 * simply left out; only running out of memory is an error.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "buf.h"
#include "counters.h"
#include "counters_int.h"
#include "facts.h"
#include "host.h"
#include "hostfact.h"
#include "hostos.h"
#include "kv.h"
#include "nicrate.h"
#include "plan.h"
#include "qdisc_htb.h"
#include "qdisc_police.h"
#include "probe.h"
#include "probe_int.h"
#include "sysread.h"

#include "banned.h"

struct factv {
	struct fact *a;
	size_t n, cap;
	int oom;
};

static void add(struct factv *v, const char *key, const char *value, size_t len)
{
	struct fact *f;
	if (v->oom)
		return;
	if (v->n == v->cap) {
		size_t nc = v->cap ? v->cap * 2 : 16;
		struct fact *na = realloc(v->a, nc * sizeof *na);
		if (!na) {
			v->oom = 1;
			return;
		}
		v->a = na;
		v->cap = nc;
	}
	f = &v->a[v->n];
	memset(f, 0, sizeof *f);
	snprintf(f->key, sizeof f->key, "%s", key);
	f->value = malloc(len + 1);
	if (!f->value) {
		v->oom = 1;
		return;
	}
	memcpy(f->value, value, len);
	f->value[len] = '\0';
	v->n++;
}

static void add_buf(struct factv *v, const char *key, struct buf *b)
{
	sysread_trim_line(b);
	if (b->len)
		add(v, key, b->s, b->len);
}

static void cpu_facts(struct host *h, struct factv *v)
{
	static const char *const model_keys[] = {
	    "model name", "Hardware", "cpu model", "Processor", "uarch", NULL};
	struct buf f = BUF_INIT, b = BUF_INIT;
	struct xr_err e;
	long count = 0;

	if (sysread_file(h, "/proc/cpuinfo", &f, &e) == 0) {
		for (int i = 0; model_keys[i]; i++)
			if (kv_get(f.s, model_keys[i], &b) && b.len) {
				add_buf(v, "cpu_model", &b);
				break;
			}
		for (const char *p = f.s; p && *p;) {
			const char *nl = strchr(p, '\n');
			if (strncmp(p, "processor", 9) == 0 &&
			    (p[9] == ' ' || p[9] == '\t' || p[9] == ':'))
				count++;
			p = nl ? nl + 1 : NULL;
		}
		if (count > 0) {
			buf_reset(&b);
			buf_addf(&b, "%ld", count);
			add_buf(v, "cpu_count", &b);
		}
	}
	buf_reset(&f);
	if (sysread_file(h, "/proc/meminfo", &f, &e) == 0 &&
	    kv_get(f.s, "MemTotal", &b)) {
		unsigned long long kb = strtoull(b.s, NULL, 10);
		if (kb > 0) {
			buf_reset(&b);
			buf_addf(&b, "%llu", kb * 1024ULL);
			add_buf(v, "mem_bytes", &b);
		}
	}
	buf_release(&f);
	buf_release(&b);
}

static void hostname_fact(struct host *h, struct factv *v)
{
	static const char *const un[] = {"uname", "-n", NULL};
	static const char *const hn[] = {"hostname", NULL};
	struct buf b = BUF_INIT;
	struct xr_err e;

	if (sysread_is_local(h)) {
		char name[256];
		if (gethostname(name, sizeof name) == 0) {
			name[sizeof name - 1] = '\0';
			buf_adds(&b, name);
		}
	} else if (sysread_run(h, un, 10.0, &b, &e) < 0) {
		buf_reset(&b);
		sysread_run(h, hn, 10.0, &b, &e);
	}
	add_buf(v, "hostname", &b);
	buf_release(&b);
}

/* Linux: a USB adapter's link from the interface document's usb_speed and
 * usb_version (probe.c), a Wi-Fi interface's PHY rates from `iw dev IF
 * link`, run only when the document says it is wireless. */
static void linux_usb_wifi(struct host *h, const char *iface, const char *doc,
			   struct factv *v)
{
	const char *argv[] = {"iw", "dev", iface, "link", NULL};
	struct buf s = BUF_INIT, ver = BUF_INIT, b = BUF_INIT;
	struct xr_err e;
	if (kv_get(doc, "usb_speed", &s)) {
		kv_get(doc, "usb_version", &ver);
		if (nicrate_usb_link(s.s, ver.s, &b) == 0)
			add_buf(v, "nic_usb_link", &b);
	}
	buf_reset(&s);
	if (kv_get(doc, "wireless", &b) &&
	    sysread_run(h, argv, 10.0, &s, &e) == 0 &&
	    nicrate_iw_link(s.s, &b) == 0)
		add_buf(v, "nic_wifi_rate", &b);
	buf_release(&s);
	buf_release(&ver);
	buf_release(&b);
}

static void nic_facts(struct host *h, const char *iface, struct factv *v)
{
	struct buf doc = BUF_INIT, b = BUF_INIT, d = BUF_INIT;
	struct xr_err e;

	if (probe_nic_doc(h, iface, &doc, &e) < 0)
		goto out;
	if (probe_from_nic_doc(h, "nic.driver", iface, doc.s, &b, &e) == 0)
		add_buf(v, "nic_driver", &b);
	if (probe_from_nic_doc(h, "nic.firmware", iface, doc.s, &b, &e) == 0)
		add_buf(v, "nic_firmware", &b);
	/* A wireless adapter's link speed is its PHY rate (Windows reports
	 * it): nic_wifi_rate carries it, nic_link would read as a wire. */
	if (!kv_get(doc.s ? doc.s : "", "wireless", &d) &&
	    probe_from_nic_doc(h, "nic.link_speed", iface, doc.s, &b, &e) ==
		0 &&
	    probe_from_nic_doc(h, "nic.duplex", iface, doc.s, &d, &e) == 0) {
		if (strcmp(d.s, "unknown") != 0)
			buf_addf(&b, " %s", d.s);
		add_buf(v, "nic_link", &b);
	}
	if (probe_from_nic_doc(h, "nic.pcie_link", iface, doc.s, &b, &e) == 0)
		add_buf(v, "nic_pcie_link", &b);
	if (probe_from_nic_doc(h, "nic.mtu", iface, doc.s, &b, &e) == 0)
		add_buf(v, "nic_mtu", &b);
	if (kv_get(doc.s ? doc.s : "", "usb_link", &b))
		add_buf(v, "nic_usb_link", &b);
	if (kv_get(doc.s ? doc.s : "", "wifi_rate", &b)) /* Windows, macOS */
		add_buf(v, "nic_wifi_rate", &b);
	if (sysread_is_local(h) || host_os(h) == PLAN_OS_LINUX)
		linux_usb_wifi(h, iface, doc.s ? doc.s : "", v);
out:
	buf_release(&doc);
	buf_release(&b);
	buf_release(&d);
}

/* An htb root's ceiling for the traffic no filter classifies: with no
 * filter on the qdisc, every packet goes to its default class, held by
 * that class's ceil and its parents' (qdisc_htb.h); with filters, the
 * flow's class is not known here, and no rate is given. */
static int htb_fact(struct host *h, const char *iface, json_t *q, double *ceil)
{
	const char *cls[] = {"tc", "class", "show", "dev", iface, NULL};
	const char *flt[] = {"tc", "filter", "show", "dev", iface, NULL};
	const char *handle = json_string_value(json_object_get(q, "handle"));
	const char *deflt = json_string_value(
	    json_object_get(json_object_get(q, "options"), "default"));
	struct buf b = BUF_INIT;
	struct xr_err e;
	int rc = -1;
	if (handle && deflt && sysread_run(h, flt, 10.0, &b, &e) == 0 &&
	    b.len == 0 && sysread_run(h, cls, 10.0, &b, &e) == 0 && b.s)
		rc = qdisc_htb_ceil(b.s, handle, deflt, ceil);
	buf_release(&b);
	return rc;
}

/* A tbf root's queue, "limit 1000000 burst 32750" (bytes): tc prints
 * its latency, lat = (limit - burst) / rate (tc-tbf(8); iproute2's
 * q_tbf.c computes limit from latency so), in microseconds, and its burst;
 * the limit is read back from them, to the byte at rates below 1 GB/s
 * (lat is rounded to the microsecond). */
static void queue_fact(const char *kind, json_t *q, struct factv *v)
{
	json_t *o = json_object_get(q, "options");
	json_t *rate = json_object_get(o, "rate");
	json_t *lat = json_object_get(o, "lat");
	json_t *burst = json_object_get(o, "burst");
	double bu;
	char one[96];
	if (strcmp(kind, "tbf") || !json_is_number(rate) ||
	    !json_is_number(lat))
		return;
	/* tc -d prints burst as "32750b/1" */
	bu = json_is_number(burst)   ? json_number_value(burst)
	     : json_is_string(burst) ? strtod(json_string_value(burst), NULL)
				     : NAN;
	if (!(bu >= 0))
		return;
	snprintf(one, sizeof one, "limit %.0f burst %.0f",
		 json_number_value(lat) * 1e-6 * json_number_value(rate) + bu,
		 bu);
	add(v, "qdisc_root_queue", one, strlen(one));
}

/* The interface's root qdisc, "tbf 1000000000" (kind, then its rate in
 * bit/s when it has one), so that a report can name a shaper as a
 * ceiling (reports/explain). tc's JSON gives rates in bytes per second. */
static void qdisc_fact(struct host *h, const char *iface, struct factv *v)
{
	const char *argv[] = {"tc", "-j", "qdisc", "show", "dev", iface, NULL};
	struct buf b = BUF_INIT;
	struct xr_err e;
	json_t *a = NULL;
	if (sysread_run(h, argv, 10.0, &b, &e) == 0 &&
	    (a = json_loadb(b.s, b.len, 0, NULL)) && json_is_array(a)) {
		size_t i;
		json_t *q;
		json_array_foreach(a, i, q)
		{
			const char *kind =
			    json_string_value(json_object_get(q, "kind"));
			json_t *rate = json_object_get(
			    json_object_get(q, "options"), "rate");
			double ceil;
			if (!kind || !json_is_true(json_object_get(q, "root")))
				continue;
			buf_reset(&b);
			buf_adds(&b, kind);
			if (json_is_number(rate))
				buf_addf(&b, " %.0f",
					 json_number_value(rate) * 8);
			else if (!strcmp(kind, "htb") &&
				 htb_fact(h, iface, q, &ceil) == 0)
				buf_addf(&b, " %.0f", ceil);
			add_buf(v, "qdisc_root", &b);
			queue_fact(kind, q, v);
			break;
		}
	}
	json_decref(a);
	buf_release(&b);
}

/* The policers of one direction, police_egress or police_ingress
 * (qdisc_police.h): egress reads the root qdisc's filters (`tc filter
 * show dev IF` lists the root's) and clsact's egress hook, ingress the
 * ingress or clsact qdisc's (`ingress` names ffff:fff2, which the
 * ingress qdisc ffff: answers too). A hook that is absent answers with
 * an error and adds nothing; no policer, no fact. */
static void police_fact(struct host *h, const char *iface, int ingress,
			struct factv *v)
{
	const char *root[] = {"tc", "-s", "filter", "show", "dev", iface, NULL};
	const char *hook[] = {"tc",
			      "-s",
			      "filter",
			      "show",
			      "dev",
			      iface,
			      ingress ? "ingress" : "egress",
			      NULL};
	struct qdisc_police p[8];
	struct buf b = BUF_INIT;
	struct xr_err e;
	int n = 0, k;
	/* Each hook parsed alone: every packet passes both egress hooks
	 * (clsact's, then the root qdisc's), so each has its own first. */
	for (int i = ingress; i < 2; i++) {
		buf_reset(&b);
		if (sysread_run(h, i ? hook : root, 10.0, &b, &e) == 0) {
			k = qdisc_police_parse(b.s, p + n, 8 - n);
			n += k < 8 - n ? k : 8 - n;
		}
	}
	if (qdisc_police_fact(p, n, &b) == 0)
		add_buf(v, ingress ? "police_ingress" : "police_egress", &b);
	buf_release(&b);
}

/* The version of each program the caller names (the plan's engine's):
 * what its version command prints, under its key. */
static void tool_facts(struct host *h, const struct facts_tool *tools,
		       struct factv *v)
{
	struct buf b = BUF_INIT;
	struct xr_err e;
	for (; tools && tools->key; tools++) {
		buf_reset(&b);
		if (sysread_run(h, tools->argv, 10.0, &b, &e) == 0)
			add_buf(v, tools->key, &b);
	}
	buf_release(&b);
}

/* The offloads that change what a packet costs the CPU and what tbf
 * counts (one GSO segment or a whole super-packet): `ethtool -k IF`'s
 * tcp-segmentation-, generic-segmentation-, generic-receive- and
 * large-receive-offload, "tso on, gso on, gro off, lro off". No ethtool,
 * no fact. */
static void offload_fact(struct host *h, const char *iface, struct factv *v)
{
	static const char *const names[][2] = {
	    {"tcp-segmentation-offload", "tso"},
	    {"generic-segmentation-offload", "gso"},
	    {"generic-receive-offload", "gro"},
	    {"large-receive-offload", "lro"}};
	const char *argv[] = {"ethtool", "-k", iface, NULL};
	struct buf b = BUF_INIT, val = BUF_INIT, out = BUF_INIT;
	struct xr_err e;
	if (sysread_run(h, argv, 10.0, &b, &e) == 0 && b.s) {
		for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
			if (!kv_get(b.s, names[i][0], &val) || !val.len)
				continue;
			/* "on", "off [fixed]": the state, not the note */
			val.s[strcspn(val.s, " ")] = '\0';
			buf_addf(&out, "%s%s %s", out.len ? ", " : "",
				 names[i][1], val.s);
		}
		add_buf(v, "nic_offloads", &out);
	}
	buf_release(&b);
	buf_release(&val);
	buf_release(&out);
}

static void capture_fact(struct host *h, struct factv *v)
{
	struct counters_snap *s = NULL;
	struct buf b = BUF_INIT;
	struct xr_err e;
	if (counters_snapshot(h, NULL, PLAN_COUNTER_CAPTURE, &s, &e) == 0) {
		struct buf list = BUF_INIT;
		int n = counters_snap_captures(s, &list);
		if (n == 0)
			buf_adds(&b, "no");
		else if (n > 0)
			buf_addf(&b, "yes: %s", list.s);
		buf_release(&list);
		add_buf(v, "capture_running", &b);
	}
	counters_snap_free(s);
	buf_release(&b);
}

/* A Windows or macOS host: one script gives what Linux reads from /proc,
 * uname and os-release (hostos.h, the system document): the host and OS
 * keys that either reads (their rows of runner/desc/hostfact.c). */
static void system_facts(struct host *h, struct factv *v)
{
	const struct hostfact *f;
	struct buf doc = BUF_INIT, b = BUF_INIT;
	struct xr_err e;
	if (hostos_read(h, HOSTOS_SYSTEM, NULL, NULL, &doc, &e) == 0)
		for (int i = 0; (f = hostfact_at(i)); i++)
			if ((f->group & (FACTS_HOST | FACTS_OS)) &&
			    (f->reader[HOSTFACT_WINDOWS] ||
			     f->reader[HOSTFACT_MACOS]) &&
			    kv_get(doc.s ? doc.s : "", f->key, &b))
				add_buf(v, f->key, &b);
	buf_release(&doc);
	buf_release(&b);
}

/* The group each key is read in is its row's (runner/desc/hostfact.c); a
 * tool's version (FACTS_TOOLS) is the caller's key, read only for it;
 * xrun's own keys (xrun_version, plan_hash, transport) are in none. */
unsigned facts_key_group(const char *key, const struct facts_tool *tools)
{
	const struct hostfact *f = hostfact_find(key);
	if (f && f->group != FACTS_TOOLS)
		return f->group;
	for (; key && tools && tools->key; tools++)
		if (!strcmp(tools->key, key))
			return FACTS_TOOLS;
	return 0;
}

/* hostname, OS and kernel, CPU and memory of a Linux host (or this
 * machine). */
static void linux_host(struct host *h, unsigned what, struct factv *v)
{
	struct buf b = BUF_INIT;
	struct xr_err e;
	if (what & FACTS_HOST)
		hostname_fact(h, v);
	if (what & FACTS_OS) {
		if (probe_read(h, "os.release", NULL, &b, &e) == 0)
			add_buf(v, "os_release", &b);
		buf_reset(&b);
		if (probe_read(h, "kernel", NULL, &b, &e) == 0)
			add_buf(v, "kernel", &b);
	}
	if (what & FACTS_HOST)
		cpu_facts(h, v);
	buf_release(&b);
}

int facts_collect_some(struct host *h, const char *iface, unsigned what,
		       const struct facts_tool *tools, struct fact **facts,
		       size_t *n)
{
	struct factv v = {0};
	int is_linux = sysread_is_local(h) || host_os(h) == PLAN_OS_LINUX;

	*facts = NULL;
	*n = 0;
	if (!iface && h)
		iface = host_iface(h);
	/* A Windows or macOS host's one system document holds both. */
	if (!is_linux && (what & (FACTS_HOST | FACTS_OS)))
		system_facts(h, &v);
	else if (is_linux)
		linux_host(h, what, &v);
	if (iface && (what & FACTS_NIC)) {
		nic_facts(h, iface, &v);
		if (is_linux)
			offload_fact(h, iface, &v);
	}
	if (iface && is_linux && (what & FACTS_QDISC)) {
		qdisc_fact(h, iface, &v);
		police_fact(h, iface, 0, &v);
		police_fact(h, iface, 1, &v);
	}
	if (what & FACTS_TOOLS)
		tool_facts(h, tools, &v);
	if (what & FACTS_CAPTURE)
		capture_fact(h, &v);
	if (v.oom) {
		facts_free(v.a, v.n);
		return -XR_ENOMEM;
	}
	*facts = v.a;
	*n = v.n;
	return 0;
}

int facts_collect(struct host *h, const char *iface,
		  const struct facts_tool *tools, struct fact **facts,
		  size_t *n)
{
	return facts_collect_some(h, iface, FACTS_ALL, tools, facts, n);
}

void facts_free(struct fact *facts, size_t n)
{
	if (!facts)
		return;
	for (size_t i = 0; i < n; i++)
		free(facts[i].value);
	free(facts);
}
