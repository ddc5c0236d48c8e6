/*
 * The counter snapshot document: parsing (the one parser both producers
 * in counters.c share, also fed by the fuzzer) and the deltas stored
 * after every run. Counters are kept as unsigned 64-bit integers so that
 * byte counts of a long run lose nothing; a counter that went down was
 * reset (driver reload, 32-bit wrap) and its delta is its new value.
 *
 * Rows per delta: every sysfs interface statistic and the core Tcp
 * counters of /proc/net/snmp (zeros included: "0 drops" is a finding);
 * ethtool, TcpExt and Udp statistics only when they moved (a NIC can
 * have a thousand of them); cpuN_busy_pct, busy_avg_pct, busy_max_pct,
 * busy_max_cpu; NET_RX and NET_TX; one capture row per tool seen. Per
 * sampling interval also cpuN_softirq_pct, softirq_avg_pct and
 * procs_running (a gauge: the run queue when the interval ended).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "buf.h"
#include "counters.h"
#include "counter_group.h"
#include "counters_int.h"

#include "banned.h"

/* A snapshot keeps one list per scope of COUNTER_SCOPE_MAP
 * (runner/desc/counter_group.h), which names each row's scope. */

enum section {
	SEC_NONE = 0,
	SEC_NETDEV = 1 << 0,
	SEC_ETHTOOL = 1 << 1,
	SEC_SNMP = 1 << 2,
	SEC_NETSTAT = 1 << 3,
	SEC_STAT = 1 << 4,
	SEC_SOFTIRQS = 1 << 5,
	SEC_PROCS = 1 << 6,
	SEC_NOIFACE = 1 << 7,
	SEC_UNKNOWN = 1 << 8,
	SEC_QDISC = 1 << 9,
};

struct kv {
	char name[64];
	uint64_t v;
	size_t seq; /* order of appearance, to number duplicates stably */
	int sparse; /* a row only when it moved (TcpExt, Udp) */
	int level;  /* a gauge (qdisc backlog): its value, not a delta */
};

struct kvv {
	struct kv *a;
	size_t n, cap;
};

struct cpuj {
	int idx;
	uint64_t total, idle, softirq;
};

struct counters_snap {
	struct kvv sc[COUNTER_SCOPE_COUNT];
	struct cpuj *cpu;
	size_t ncpu, capcpu;
	unsigned sections;
	uint64_t running; /* /proc/stat procs_running, when has_running */
	int has_running;
};

/* Counters worth a row; the rest of /proc/net/snmp are gauges or noise. */
static const char *const tcp_keep[] = {"ActiveOpens",
				       "PassiveOpens",
				       "AttemptFails",
				       "EstabResets",
				       "InSegs",
				       "OutSegs",
				       "RetransSegs",
				       "InErrs",
				       "OutRsts",
				       "InCsumErrors",
				       NULL};
static const char *const tcpext_keep[] = {"TCPLostRetransmit",
					  "TCPTimeouts",
					  "TCPSackRecovery",
					  "TCPRenoRecovery",
					  "TCPFastRetrans",
					  "TCPSlowStartRetrans",
					  "TCPSynRetrans",
					  "TCPRetransFail",
					  "TCPSpuriousRTOs",
					  "TCPAbortOnTimeout",
					  "ListenOverflows",
					  "ListenDrops",
					  "TCPBacklogDrop",
					  "TCPRcvQDrop",
					  "TCPOFOQueue",
					  "TCPOFODrop",
					  "TCPZeroWindowDrop",
					  "TCPDSACKRecv",
					  NULL};
static const char *const udp_keep[] = {
    "InDatagrams",  "OutDatagrams", "NoPorts",	    "InErrors",
    "RcvbufErrors", "SndbufErrors", "InCsumErrors", NULL};
#define CAPTURE_ITEM(n) #n,
static const char *const capture_tools[] = {
    COUNTERS_CAPTURE_TOOLS(CAPTURE_ITEM, ) NULL};
#undef CAPTURE_ITEM

static int in_list(const char *const *list, const char *s, size_t n)
{
	for (; *list; list++)
		if (strlen(*list) == n && memcmp(*list, s, n) == 0)
			return 1;
	return 0;
}

int counters_is_capture_tool(const char *comm)
{
	return in_list(capture_tools, comm, strlen(comm));
}

static int kvv_add(struct kvv *v, const char *name, size_t nlen, uint64_t val)
{
	struct kv *e;
	if (v->n == v->cap) {
		size_t nc = v->cap ? v->cap * 2 : 32;
		struct kv *na = realloc(v->a, nc * sizeof *na);
		if (!na)
			return -XR_ENOMEM;
		v->a = na;
		v->cap = nc;
	}
	e = &v->a[v->n];
	if (nlen >= sizeof e->name)
		nlen = sizeof e->name - 1;
	memcpy(e->name, name, nlen);
	e->name[nlen] = '\0';
	e->v = val;
	e->sparse = 0;
	e->level = 0;
	e->seq = v->n++;
	return 0;
}

static int counters_parse_kv_cmp(const void *pa, const void *pb)
{
	const struct kv *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);
	if (c)
		return c;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static struct kv *kvv_find(const struct kvv *v, const char *name)
{
	size_t lo = 0, hi = v->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(v->a[mid].name, name);
		if (c == 0)
			return &v->a[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/*
 * Sort for lookups, and give repeated names (some drivers report the same
 * statistic name once per queue) a "#2", "#3" suffix in order of
 * appearance, because the store keys rows by name.
 */
static void kvv_finish(struct kvv *v)
{
	int renamed = 0;
	if (v->n < 2)
		return;
	qsort(v->a, v->n, sizeof *v->a, counters_parse_kv_cmp);
	for (size_t i = 1, k = 2; i < v->n; i++) {
		char tmp[64];
		size_t j = i - 1;
		if (strcmp(v->a[i].name, v->a[j].name) != 0) {
			k = 2;
			continue;
		}
		snprintf(tmp, sizeof tmp, "%s", v->a[i].name);
		snprintf(v->a[i].name, sizeof v->a[i].name, "%.52s#%zu", tmp,
			 k++ % 100000);
		renamed = 1;
	}
	if (renamed)
		qsort(v->a, v->n, sizeof *v->a, counters_parse_kv_cmp);
}

/* A whole token of decimal digits, at most 20 of them: 0 or -XR_EPARSE. */
static int parse_u64(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	if (n == 0 || n > 20)
		return -XR_EPARSE;
	for (size_t i = 0; i < n; i++) {
		unsigned d;
		if (s[i] < '0' || s[i] > '9')
			return -XR_EPARSE;
		d = (unsigned)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -XR_EPARSE;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Next whitespace-separated token of [*p, end). */
static int next_tok(const char **p, const char *end, const char **tok,
		    size_t *len)
{
	const char *s = *p;
	while (s < end && is_space(*s))
		s++;
	if (s == end)
		return 0;
	*tok = s;
	while (s < end && !is_space(*s))
		s++;
	*len = (size_t)(s - *tok);
	*p = s;
	return 1;
}

static void trim(const char **s, const char **e)
{
	while (*s < *e && is_space(**s))
		(*s)++;
	while (*e > *s && is_space((*e)[-1]))
		(*e)--;
}

static unsigned section_of(const char *s, const char *e)
{
	static const struct {
		const char *name;
		unsigned bit;
	} tab[] = {{"netdev", SEC_NETDEV}, {"ethtool", SEC_ETHTOOL},
		   {"snmp", SEC_SNMP},	   {"netstat", SEC_NETSTAT},
		   {"stat", SEC_STAT},	   {"softirqs", SEC_SOFTIRQS},
		   {"procs", SEC_PROCS},   {"noiface", SEC_NOIFACE},
		   {"qdisc", SEC_QDISC}};
	trim(&s, &e);
	for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
		if (strlen(tab[i].name) == (size_t)(e - s) &&
		    memcmp(tab[i].name, s, (size_t)(e - s)) == 0)
			return tab[i].bit;
	return SEC_UNKNOWN;
}

/* "name value" (sysfs statistics). */
static int line_netdev(struct counters_snap *cs, const char *s, const char *e)
{
	const char *name, *val;
	size_t nl, vl;
	uint64_t v;
	if (!next_tok(&s, e, &name, &nl) || !next_tok(&s, e, &val, &vl))
		return 0;
	if (parse_u64(val, vl, &v) < 0)
		return 0;
	return kvv_add(&cs->sc[COUNTER_SCOPE_NIC], name, nl, v);
}

/* "     rx_queue_0_xdp_packets: 0" (ethtool -S); headers have no value. */
static int line_ethtool(struct counters_snap *cs, const char *s, const char *e)
{
	const char *colon = NULL, *ns = s, *ne, *vs, *ve = e;
	uint64_t v;
	for (const char *p = s; p < e; p++)
		if (*p == ':')
			colon = p;
	if (!colon)
		return 0;
	ne = colon;
	vs = colon + 1;
	trim(&ns, &ne);
	trim(&vs, &ve);
	if (ns == ne || parse_u64(vs, (size_t)(ve - vs), &v) < 0)
		return 0;
	return kvv_add(&cs->sc[COUNTER_SCOPE_ETHTOOL], ns, (size_t)(ne - ns),
		       v);
}

/*
 * /proc/net/snmp and /proc/net/netstat: a "Tcp: Name Name ..." header
 * line followed by a "Tcp: 1 2 ..." value line with the same prefix.
 */
struct pairs {
	const char *hdr, *hdr_end; /* pending header line, or NULL */
	size_t plen;		   /* its prefix length, colon included */
};

static int line_pairs(struct counters_snap *cs, struct pairs *pp, const char *s,
		      const char *e)
{
	const char *colon = memchr(s, ':', (size_t)(e - s));
	const char *hp, *vp, *ht, *vt;
	size_t plen, hl, vl;
	const char *const *keep = NULL;
	enum counter_scope sc = COUNTER_SCOPE_TCP;
	int rc = 0;

	if (!colon)
		return 0;
	plen = (size_t)(colon - s) + 1;
	if (!pp->hdr || pp->plen != plen || memcmp(pp->hdr, s, plen) != 0) {
		pp->hdr = s;
		pp->hdr_end = e;
		pp->plen = plen;
		return 0;
	}
	if (plen == 4 && memcmp(s, "Tcp:", 4) == 0) {
		keep = tcp_keep;
	} else if (plen == 7 && memcmp(s, "TcpExt:", 7) == 0) {
		keep = tcpext_keep;
	} else if (plen == 4 && memcmp(s, "Udp:", 4) == 0) {
		keep = udp_keep;
		sc = COUNTER_SCOPE_UDP;
	}
	hp = pp->hdr + plen;
	vp = s + plen;
	while (keep && rc == 0 && next_tok(&hp, pp->hdr_end, &ht, &hl) &&
	       next_tok(&vp, e, &vt, &vl)) {
		uint64_t v;
		if (in_list(keep, ht, hl) && parse_u64(vt, vl, &v) == 0) {
			rc = kvv_add(&cs->sc[sc], ht, hl, v);
			/* the core Tcp counters always get a row (a zero
			 * RetransSegs is a finding); the rest only if moved */
			if (rc == 0 && keep != tcp_keep)
				cs->sc[sc].a[cs->sc[sc].n - 1].sparse = 1;
		}
	}
	pp->hdr = NULL;
	return rc;
}

/* "cpuN user nice system idle iowait irq softirq steal guest guest_nice";
 * guest time is already inside user, so it is not added again. */
static int line_stat(struct counters_snap *cs, const char *s, const char *e)
{
	const char *t;
	size_t tl;
	uint64_t f[8] = {0}, idx;
	struct cpuj *c;
	int nf = 0;

	if (!next_tok(&s, e, &t, &tl))
		return 0;
	/* "procs_running N": the tasks runnable at the moment of the read,
	 * the reader included (proc(5)): a gauge, not a counter. */
	if (tl == 13 && !memcmp(t, "procs_running", 13)) {
		if (next_tok(&s, e, &t, &tl) &&
		    parse_u64(t, tl, &cs->running) == 0)
			cs->has_running = 1;
		return 0;
	}
	if (tl < 4 || memcmp(t, "cpu", 3) != 0 ||
	    parse_u64(t + 3, tl - 3, &idx) < 0 || idx > 1u << 20)
		return 0;
	while (nf < 8 && next_tok(&s, e, &t, &tl)) {
		if (parse_u64(t, tl, &f[nf]) < 0)
			return 0;
		nf++;
	}
	if (nf < 4)
		return 0;
	if (cs->ncpu == cs->capcpu) {
		size_t nc = cs->capcpu ? cs->capcpu * 2 : 16;
		struct cpuj *na = realloc(cs->cpu, nc * sizeof *na);
		if (!na)
			return -XR_ENOMEM;
		cs->cpu = na;
		cs->capcpu = nc;
	}
	c = &cs->cpu[cs->ncpu++];
	c->idx = (int)idx;
	c->total = 0;
	for (int i = 0; i < nf; i++)
		c->total += f[i];
	c->idle = f[3] + f[4];
	c->softirq = nf > 6 ? f[6] : 0;
	return 0;
}

/* "NET_RX:  12  34" summed over the CPUs. */
static int line_softirq(struct counters_snap *cs, const char *s, const char *e)
{
	const char *name, *t;
	size_t nl, tl;
	uint64_t sum = 0, v;
	if (!next_tok(&s, e, &name, &nl))
		return 0;
	if (!(nl == 7 && (memcmp(name, "NET_RX:", 7) == 0 ||
			  memcmp(name, "NET_TX:", 7) == 0)))
		return 0;
	while (next_tok(&s, e, &t, &tl))
		if (parse_u64(t, tl, &v) == 0)
			sum += v;
	return kvv_add(&cs->sc[COUNTER_SCOPE_SOFTIRQ], name, nl - 1, sum);
}

static int line_procs(struct counters_snap *cs, const char *s, const char *e)
{
	struct kvv *v = &cs->sc[COUNTER_SCOPE_CAPTURE];
	size_t n;
	trim(&s, &e);
	n = (size_t)(e - s);
	if (!in_list(capture_tools, s, n))
		return 0;
	for (size_t i = 0; i < v->n; i++)
		if (strlen(v->a[i].name) == n &&
		    memcmp(v->a[i].name, s, n) == 0) {
			v->a[i].v++;
			return 0;
		}
	return kvv_add(v, s, n, 1);
}

/*
 * The "@@ qdisc" section: `tc -s -j qdisc show dev IF` (remote hosts) or
 * the same JSON written by counters.c from RTM_GETQDISC. The root qdisc's
 * statistics cover the whole interface (a classful or mq root sums its
 * children). The ingress or clsact qdisc (parent ffff:fff1) adds its
 * drops as ingress_drops: its filters' TC_ACT_SHOT (a policer at the
 * ingress or clsact hooks) is counted there, not at the root (net/core/
 * dev.c tc_run, sch_handle_ingress). Text that is not such JSON adds
 * nothing.
 */
static int parse_qdisc(struct counters_snap *cs, const char *s, const char *e)
{
	static const struct {
		const char *key;
		int level;
	} keys[] = {{"drops", 0},
		    {"overlimits", 0},
		    {"requeues", 0},
		    {"backlog", 1},
		    {"qlen", 1}};
	json_t *root = json_loadb(s, (size_t)(e - s), 0, NULL), *q;
	size_t i, k;
	int rc = 0, seen = 0;

	if (!json_is_array(root)) {
		json_decref(root);
		return 0;
	}
	json_array_foreach(root, i, q)
	{
		const char *par =
		    json_string_value(json_object_get(q, "parent"));
		json_t *d = json_object_get(q, "drops");
		if (par && !strcmp(par, "ffff:fff1") && json_is_integer(d) &&
		    json_integer_value(d) >= 0 && rc == 0)
			rc = kvv_add(&cs->sc[COUNTER_SCOPE_QDISC],
				     "ingress_drops", 13,
				     (uint64_t)json_integer_value(d));
		if (!json_is_true(json_object_get(q, "root")) || seen)
			continue;
		seen = 1;
		for (k = 0; rc == 0 && k < sizeof keys / sizeof keys[0]; k++) {
			json_t *v = json_object_get(q, keys[k].key);
			struct kvv *kv = &cs->sc[COUNTER_SCOPE_QDISC];
			if (!json_is_integer(v) || json_integer_value(v) < 0)
				continue;
			rc = kvv_add(kv, keys[k].key, strlen(keys[k].key),
				     (uint64_t)json_integer_value(v));
			if (rc == 0)
				kv->a[kv->n - 1].level = keys[k].level;
		}
	}
	json_decref(root);
	return rc;
}

int counters_parse(const char *text, size_t len, struct counters_snap **out)
{
	struct counters_snap *cs = calloc(1, sizeof *cs);
	const char *p = text, *end = text + len;
	unsigned sec = SEC_NONE;
	const char *qdisc = NULL; /* where the qdisc section's text starts */
	struct pairs pp = {0};
	int rc = 0;

	*out = NULL;
	if (!cs)
		return -XR_ENOMEM;
	while (rc == 0 && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		if (e - p >= 3 && memcmp(p, "@@ ", 3) == 0) {
			if (qdisc)
				rc = parse_qdisc(cs, qdisc, p);
			qdisc = NULL;
			sec = section_of(p + 3, e);
			if (sec == SEC_QDISC)
				qdisc = nl ? nl + 1 : end;
			cs->sections |= sec;
			pp.hdr = NULL;
		} else if (memchr(p, '\0', (size_t)(e - p))) {
			; /* not text: ignore the line */
		} else if (sec == SEC_NETDEV) {
			rc = line_netdev(cs, p, e);
		} else if (sec == SEC_ETHTOOL) {
			rc = line_ethtool(cs, p, e);
		} else if (sec == SEC_SNMP || sec == SEC_NETSTAT) {
			rc = line_pairs(cs, &pp, p, e);
		} else if (sec == SEC_STAT) {
			rc = line_stat(cs, p, e);
		} else if (sec == SEC_SOFTIRQS) {
			rc = line_softirq(cs, p, e);
		} else if (sec == SEC_PROCS) {
			rc = line_procs(cs, p, e);
		}
		p = nl ? nl + 1 : end;
	}
	if (rc == 0 && qdisc)
		rc = parse_qdisc(cs, qdisc, end);
	if (rc < 0) {
		counters_snap_free(cs);
		return rc;
	}
	for (int i = 0; i < COUNTER_SCOPE_COUNT; i++)
		kvv_finish(&cs->sc[i]);
	*out = cs;
	return 0;
}

void counters_snap_free(struct counters_snap *s)
{
	if (!s)
		return;
	for (int i = 0; i < COUNTER_SCOPE_COUNT; i++)
		free(s->sc[i].a);
	free(s->cpu);
	free(s);
}

int counters_snap_missing_iface(const struct counters_snap *s)
{
	return (s->sections & SEC_NOIFACE) != 0;
}

int counters_snap_captures(const struct counters_snap *s, struct buf *out)
{
	const struct kvv *v = &s->sc[COUNTER_SCOPE_CAPTURE];
	if (!(s->sections & SEC_PROCS))
		return COUNTERS_NOT_READ;
	for (size_t i = 0; i < v->n; i++)
		buf_addf(out, "%s%s x%llu", i ? ", " : "", v->a[i].name,
			 (unsigned long long)v->a[i].v);
	return (int)v->n;
}

int counters_snap_get(const struct counters_snap *s, const char *scope,
		      const char *name, double *v)
{
	for (int i = 0; i < COUNTER_SCOPE_COUNT; i++) {
		const struct kv *k;
		if (strcmp(counter_scope_name(i), scope) != 0)
			continue;
		k = kvv_find(&s->sc[i], name);
		if (k)
			*v = (double)k->v;
		return k != NULL;
	}
	return 0;
}

struct rows {
	struct counter_row *a;
	size_t n, cap;
};

static int rows_add(struct rows *r, const char *scope, const char *name,
		    double value)
{
	struct counter_row *e;
	if (r->n == r->cap) {
		size_t nc = r->cap ? r->cap * 2 : 64;
		struct counter_row *na = realloc(r->a, nc * sizeof *na);
		if (!na)
			return -XR_ENOMEM;
		r->a = na;
		r->cap = nc;
	}
	e = &r->a[r->n++];
	memset(e, 0, sizeof *e);
	snprintf(e->scope, sizeof e->scope, "%s", scope);
	snprintf(e->name, sizeof e->name, "%s", name);
	e->value = value;
	return 0;
}

static uint64_t diff(uint64_t before, uint64_t after)
{
	return after >= before ? after - before : after;
}

static int delta_counters(const struct counters_snap *b,
			  const struct counters_snap *a, enum counter_scope sc,
			  int changed_only, struct rows *r)
{
	const struct kvv *va = &a->sc[sc];
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < va->n; i++) {
		const struct kv *kb = kvv_find(&b->sc[sc], va->a[i].name);
		uint64_t d;
		if (!kb)
			continue; /* appeared during the run: no baseline */
		d = va->a[i].level ? va->a[i].v : diff(kb->v, va->a[i].v);
		if ((changed_only || va->a[i].sparse) && d == 0)
			continue;
		rc = rows_add(r, counter_scope_name(sc), va->a[i].name,
			      (double)d);
	}
	return rc;
}

static const struct cpuj *cpu_find(const struct counters_snap *s, int idx)
{
	for (size_t i = 0; i < s->ncpu; i++)
		if (s->cpu[i].idx == idx)
			return &s->cpu[i];
	return NULL;
}

/* busy = total - idle - iowait, per CPU and over all CPUs together. */
static int delta_cpu(const struct counters_snap *b,
		     const struct counters_snap *a, struct rows *r)
{
	uint64_t sum_total = 0, sum_busy = 0;
	double max_pct = -1;
	int max_cpu = -1, rc = 0, n = 0;
	char name[64];

	for (size_t i = 0; rc == 0 && i < a->ncpu; i++) {
		const struct cpuj *ca = &a->cpu[i];
		const struct cpuj *cb = cpu_find(b, ca->idx);
		uint64_t dt, di, busy;
		double pct;
		if (!cb)
			continue;
		dt = diff(cb->total, ca->total);
		di = diff(cb->idle, ca->idle);
		busy = dt > di ? dt - di : 0;
		pct = dt ? 100.0 * (double)busy / (double)dt : 0.0;
		sum_total += dt;
		sum_busy += busy;
		n++;
		if (pct > max_pct) {
			max_pct = pct;
			max_cpu = ca->idx;
		}
		snprintf(name, sizeof name, "cpu%d_busy_pct", ca->idx);
		rc = rows_add(r, counter_scope_name(COUNTER_SCOPE_CPU), name,
			      pct);
	}
	if (rc < 0 || n == 0)
		return rc;
	rc = rows_add(r, counter_scope_name(COUNTER_SCOPE_CPU), "busy_avg_pct",
		      sum_total ? 100.0 * (double)sum_busy / (double)sum_total
				: 0.0);
	if (rc == 0)
		rc = rows_add(r, counter_scope_name(COUNTER_SCOPE_CPU),
			      "busy_max_pct", max_pct);
	if (rc == 0)
		rc = rows_add(r, counter_scope_name(COUNTER_SCOPE_CPU),
			      "busy_max_cpu", (double)max_cpu);
	return rc;
}

/* One row per tool seen in either snapshot: the larger count. */
static int delta_capture(const struct counters_snap *b,
			 const struct counters_snap *a, struct rows *r)
{
	int rc = 0;
	for (int k = 0; rc == 0 && capture_tools[k]; k++) {
		const struct kv *kb =
		    kvv_find(&b->sc[COUNTER_SCOPE_CAPTURE], capture_tools[k]);
		const struct kv *ka =
		    kvv_find(&a->sc[COUNTER_SCOPE_CAPTURE], capture_tools[k]);
		uint64_t v = 0;
		if (kb)
			v = kb->v;
		if (ka && ka->v > v)
			v = ka->v;
		if (v)
			rc = rows_add(r,
				      counter_scope_name(COUNTER_SCOPE_CAPTURE),
				      capture_tools[k], (double)v);
	}
	return rc;
}

int counters_delta(const struct counters_snap *before,
		   const struct counters_snap *after, struct counter_row **rows,
		   size_t *nrows)
{
	unsigned both = before->sections & after->sections;
	struct rows r = {0};
	int rc = 0;

	*rows = NULL;
	*nrows = 0;
	if (both & SEC_NETDEV)
		rc = delta_counters(before, after, COUNTER_SCOPE_NIC, 0, &r);
	if (rc == 0 && (both & SEC_ETHTOOL))
		rc =
		    delta_counters(before, after, COUNTER_SCOPE_ETHTOOL, 1, &r);
	if (rc == 0 && (both & SEC_SNMP)) {
		rc = delta_counters(before, after, COUNTER_SCOPE_TCP, 0, &r);
		if (rc == 0)
			rc = delta_counters(before, after, COUNTER_SCOPE_UDP, 0,
					    &r);
	}
	if (rc == 0 && (both & SEC_STAT))
		rc = delta_cpu(before, after, &r);
	if (rc == 0 && (both & SEC_SOFTIRQS))
		rc =
		    delta_counters(before, after, COUNTER_SCOPE_SOFTIRQ, 0, &r);
	if (rc == 0 && (both & SEC_QDISC))
		rc = delta_counters(before, after, COUNTER_SCOPE_QDISC, 0, &r);
	if (rc == 0 && ((before->sections | after->sections) & SEC_PROCS))
		rc = delta_capture(before, after, &r);
	if (rc < 0) {
		free(r.a);
		return rc;
	}
	*rows = r.a;
	*nrows = r.n;
	return 0;
}

/* cpuN_softirq_pct and softirq_avg_pct: the share of each CPU's time
 * spent in softirqs over the interval (where NIC receive work runs). */
static int softirq_pct(const struct counters_snap *b,
		       const struct counters_snap *a, struct rows *r)
{
	uint64_t sum_total = 0, sum_si = 0;
	char name[64];
	int rc = 0, n = 0;

	for (size_t i = 0; rc == 0 && i < a->ncpu; i++) {
		const struct cpuj *ca = &a->cpu[i];
		const struct cpuj *cb = cpu_find(b, ca->idx);
		uint64_t dt, ds;
		if (!cb)
			continue;
		dt = diff(cb->total, ca->total);
		ds = diff(cb->softirq, ca->softirq);
		if (ds > dt)
			ds = dt;
		sum_total += dt;
		sum_si += ds;
		n++;
		snprintf(name, sizeof name, "cpu%d_softirq_pct", ca->idx);
		rc = rows_add(r, counter_scope_name(COUNTER_SCOPE_CPU), name,
			      dt ? 100.0 * (double)ds / (double)dt : 0.0);
	}
	if (rc == 0 && n)
		rc = rows_add(
		    r, counter_scope_name(COUNTER_SCOPE_CPU), "softirq_avg_pct",
		    sum_total ? 100.0 * (double)sum_si / (double)sum_total
			      : 0.0);
	return rc;
}

int counters_interval(const struct counters_snap *before,
		      const struct counters_snap *after,
		      struct counter_row **rows, size_t *nrows)
{
	struct rows r;
	int rc = counters_delta(before, after, rows, nrows);

	if (rc < 0 || !(before->sections & after->sections & SEC_STAT))
		return rc;
	r.a = *rows;
	r.n = r.cap = *nrows;
	rc = softirq_pct(before, after, &r);
	/* the run queue at the end of the interval (the scheduler's
	 * nr_running that the 1-minute load average smooths) */
	if (rc == 0 && after->has_running)
		rc = rows_add(&r, counter_scope_name(COUNTER_SCOPE_CPU),
			      "procs_running", (double)after->running);
	*rows = r.a;
	*nrows = r.n;
	return rc;
}
