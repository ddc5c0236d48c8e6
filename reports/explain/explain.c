/*
 * Explain the number: each cell's ceilings from the host facts and its
 * bottleneck from the runs' series (explain.h); the ceilings' formulas
 * are in explain_ceil.c. The formulas and
 * thresholds are documented, with their sources, in schema/report.md
 * ("Limits"); a change here changes that table.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "engine_cond.h"
#include "explain.h"
#include "explain_int.h"
#include "format.h"
#include "series_name.h"

#include "banned.h"

static const char *observed(const struct report *r, int cell, const char *key)
{
	for (int i = 0; i < r->nobserved; i++)
		if (r->observed[i].cell == cell &&
		    !strcmp(r->observed[i].key, key))
			return r->observed[i].value;
	return NULL;
}

static void ctx_free(struct explain_ctx *x)
{
	free(x->by_cell);
	free(x->first);
	free(x);
}

/* Fills x->by_cell and x->first by a counting sort of the runs by cell. */
static int index_cells(struct explain_ctx *x)
{
	const struct report *r = x->r;
	int *at;
	x->first = calloc((size_t)r->ncells + 2, sizeof *x->first);
	x->by_cell = malloc(((size_t)r->nruns + 1) * sizeof *x->by_cell);
	at = calloc((size_t)r->ncells + 1, sizeof *at);
	if (!x->first || !x->by_cell || !at) {
		free(at);
		return -XR_ENOMEM;
	}
	for (int i = 0; i < r->nruns; i++)
		if (r->runs[i].cell >= 0 && r->runs[i].cell < r->ncells)
			x->first[r->runs[i].cell + 1]++;
	for (int c = 0; c < r->ncells; c++) {
		at[c] = x->first[c];
		x->first[c + 1] += x->first[c];
	}
	for (int i = 0; i < r->nruns; i++)
		if (r->runs[i].cell >= 0 && r->runs[i].cell < r->ncells)
			x->by_cell[at[r->runs[i].cell]++] = i;
	free(at);
	return 0;
}

/* The ceiling bps of kind k, named name, from the facts f1 and f2 of
 * host h (f2 may be NULL), when it is narrower than best. */
static void consider(struct explain_ctx *x, struct explain_ceil *best,
		     double bps, enum explain_kind k, const char *name,
		     const char *h, const char *f1, const char *f2)
{
	if (isfinite(bps) && (!isfinite(best->bps) || bps < best->bps)) {
		const char *v1 = explain_cell_fact(x, h, f1),
			   *v2 = f2 ? explain_cell_fact(x, h, f2) : NULL;
		best->bps = bps;
		best->kind = k;
		snprintf(best->name, sizeof best->name, "%s", name);
		int ja = x->lang == REPORT_LANG_JA;
		best->facts[0] = '\0';
		explain_fact_text(best->facts, sizeof best->facts, ja, h, f1,
				  v1 ? v1 : "?");
		if (v2)
			explain_fact_text(best->facts, sizeof best->facts, ja,
					  h, f2, v2);
	}
}

/* The bus ceilings, each judged by its own share (explain_cell):
 * PCIe, USB, Wi-Fi. */
enum { BUS_PCIE, BUS_USB, BUS_WIFI, BUS_COUNT };

static const struct {
	enum explain_kind kind;
	double share;
} buses[BUS_COUNT] = {{EXPLAIN_PCIE, EXPLAIN_PCIE_SHARE},
		      {EXPLAIN_USB, EXPLAIN_USB_SHARE},
		      {EXPLAIN_WIFI, EXPLAIN_WIFI_SHARE}};

static void missing_once(struct explain_ctx *x, const char *what, const char *h)
{
	char miss[96] = "";
	explain_fact_text(miss, sizeof miss, x->lang == REPORT_LANG_JA, h, what,
			  NULL);
	if (!strstr(x->missing, miss))
		explain_cat(x->missing, sizeof x->missing, ", ", miss);
}

/* PCIe raw; a USB adapter's link data rate over the frame it carries
 * (the Ethernet header on, no FCS or preamble, as tbf counts), so at
 * the MTU; a Wi-Fi PHY rate, an estimate above what the MAC carries. */
static void bus_ceilings(struct explain_ctx *x, const char *h, int udp, int mtu,
			 struct explain_ceil *bus)
{
	const char *pl = explain_cell_fact(x, h, "nic_pcie_link"),
		   *ul = explain_cell_fact(x, h, "nic_usb_link"),
		   *wl = explain_cell_fact(x, h, "nic_wifi_rate");
	char name[160];
	double gts = 0, v;
	int lanes = 0, ja = x->lang == REPORT_LANG_JA;
	/* Japanese: "HOST の ..." (names and units stay as they are) */
	if (pl && sscanf(pl, "%lf GT/s x%d", &gts, &lanes) == 2) {
		if (ja)
			snprintf(name, sizeof name,
				 "%s の PCIe %.1f GT/s x%d（生の速度）", h, gts,
				 lanes);
		else
			snprintf(name, sizeof name,
				 "PCIe %.1f GT/s x%d on %s (raw)", gts, lanes,
				 h);
		consider(x, &bus[BUS_PCIE], explain_pcie_raw(gts, lanes),
			 EXPLAIN_PCIE, name, h, "nic_pcie_link", NULL);
	}
	v = explain_usb_data(explain_usb_signal(ul));
	if (isfinite(v) && mtu <= 68) {
		missing_once(x, "nic_mtu", h);
	} else if (isfinite(v)) {
		if (ja)
			snprintf(name, sizeof name,
				 "%s の USB %s、MTU %d の %s", h, ul, mtu,
				 udp ? "UDP" : "TCP");
		else
			snprintf(name, sizeof name,
				 "USB %s on %s, %s at MTU %d", ul, h,
				 udp ? "UDP" : "TCP", mtu);
		consider(x, &bus[BUS_USB], explain_tbf_goodput(v, mtu, udp),
			 EXPLAIN_USB, name, h, "nic_usb_link", "nic_mtu");
	}
	v = explain_wifi_phy(wl);
	if (isfinite(v)) {
		if (ja)
			snprintf(
			    name, sizeof name,
			    "%s の Wi-Fi PHY 速度 %.1f Mbit/s（推定値: MAC "
			    "が運ぶのはこれより少ない）",
			    h, v / 1e6);
		else
			snprintf(name, sizeof name,
				 "Wi-Fi PHY rate %.1f Mbit/s on %s (an "
				 "estimate: the MAC carries less)",
				 v / 1e6, h);
		consider(x, &bus[BUS_WIFI], v, EXPLAIN_WIFI, name, h,
			 "nic_wifi_rate", NULL);
	}
}

/* The host that received cell ci's data, when the report can tell: the
 * host of the engine.throughput series (runner/exec/series_metric.c
 * receiver(): the server's, the client's in reverse), trusted with two
 * hosts or more only (with one, the server was no host of the plan and
 * the client holds the series either way) and not for bidir. NULL:
 * unknown. */
static const char *cell_receiver(const struct explain_ctx *x, int ci)
{
	const struct report *r = x->r;
	const char *dir = observed(r, ci, "direction");
	if (r->span.nhosts < 2 || (dir && !strcmp(dir, "bidir")))
		return NULL;
	for (int i = x->first[ci]; i < x->first[ci + 1]; i++) {
		const struct report_run *u = &r->runs[x->by_cell[i]];
		const struct report_series *t =
		    u->ok ? report_run_series(u, NULL, SERIES_ENGINE_THROUGHPUT)
			  : NULL;
		if (t)
			return t->host;
	}
	return NULL;
}

/* Does h's hook (ingress, else egress: a root qdisc, an egress policer)
 * carry the cell's ACKs only? Egress on the receiver, ingress on the
 * sender, when the receiver is known (cell_receiver); unknown: no. */
static int acks_only(const struct explain_ctx *x, const char *h, int ingress)
{
	return x->recv && (strcmp(h, x->recv) == 0) != ingress;
}

/* A policer on all traffic of one of h's hooks (police_egress,
 * police_ingress: "RATE overhead O linklayer L: ..." when it limits,
 * "none: ..." when not, runner/host/qdisc_police.h) is a shaper as tbf
 * is: the line, named with its hook. An ingress policer holds the data
 * on the receiver only, an egress one on the sender only (the other
 * sees the ACKs); when the receiver is not known (cell_receiver), both
 * hooks of every host of the cell are ceilings, as tbf's are. */
static int police_ceilings(struct explain_ctx *x, const char *h, int udp,
			   int mtu, struct explain_ceil *best)
{
	static const char *const keys[] = {"police_egress", "police_ingress"};
	char name[160], ll[16];
	double rate;
	int ov, found = 0;
	for (int i = 0; i < 2; i++) {
		const char *f = explain_cell_fact(x, h, keys[i]);
		if (acks_only(x, h, i))
			continue;
		if (!f ||
		    sscanf(f, "%lf overhead %d linklayer %15[a-z]", &rate, &ov,
			   ll) != 3 ||
		    !(rate > 0))
			continue;
		if (x->lang == REPORT_LANG_JA)
			snprintf(name, sizeof name,
				 "%s の%sポリサー %.0f Mbit/s、MTU %d の %s", h,
				 i ? "受信側" : "送信側", rate / 1e6, mtu,
				 udp ? "UDP" : "TCP");
		else
			snprintf(name, sizeof name,
				 "policer %.0f Mbit/s on %s %s, %s at MTU %d",
				 rate / 1e6, h, i ? "ingress" : "egress",
				 udp ? "UDP" : "TCP", mtu);
		consider(x, best,
			 explain_police_goodput(rate, mtu, udp, i, ov,
						!strcmp(ll, "atm")),
			 EXPLAIN_LINE, name, h, keys[i], "nic_mtu");
		found = 1;
	}
	return found;
}

/* The narrowest ceiling that one host's facts set. */
static void explain_host_ceilings(struct explain_ctx *x, const char *h, int udp,
				  struct explain_ceil *best,
				  struct explain_ceil *bus)
{
	const struct report *r = x->r;
	const char *link = explain_cell_fact(x, h, "nic_link"),
		   *q = explain_cell_fact(x, h, "qdisc_root");
	const char *drv = explain_cell_fact(x, h, "nic_driver");
	const char *m = explain_cell_fact(x, h, "nic_mtu"),
		   *proto = udp ? "UDP" : "TCP";
	char name[160], key[64];
	int mtu = m ? atoi(m) : 0, pol;
	if (!m) {
		snprintf(key, sizeof key, "mtu@%s", h);
		for (int i = 0; i < r->nconds; i++)
			if (!strcmp(r->conds[i].key, key) &&
			    r->conds[i].nvalues == 1)
				mtu = atoi(r->conds[i].values[0].value);
	}
	bus_ceilings(x, h, udp, mtu, bus);
	if (mtu <= 68 &&
	    (link || q || explain_cell_fact(x, h, "police_egress") ||
	     explain_cell_fact(x, h, "police_ingress"))) {
		missing_once(x, "nic_mtu", h);
		return;
	}
	pol = police_ceilings(x, h, udp, mtu, best);
	/* tbf and htb both charge qdisc_pkt_len() (net/sched/sch_tbf.c,
	 * sch_htb.c htb_charge_class): the same goodput; htb's rate is its
	 * default class's ceil on the path (runner/host/qdisc_htb.h). A root
	 * qdisc shapes what its host sends: on the receiver (when known,
	 * cell_receiver) it holds the ACKs only, no ceiling of the data. */
	if (q && (!strncmp(q, "tbf ", 4) || !strncmp(q, "htb ", 4)) &&
	    !acks_only(x, h, 0)) {
		double rate = strtod(q + 4, NULL);
		if (x->lang == REPORT_LANG_JA)
			snprintf(name, sizeof name,
				 "%s の %.3s %.0f Mbit/s、MTU %d の %s", h, q,
				 rate / 1e6, mtu, proto);
		else
			snprintf(name, sizeof name,
				 "%.3s %.0f Mbit/s on %s, %s at MTU %d", q,
				 rate / 1e6, h, proto, mtu);
		if (rate > 0)
			consider(x, best, explain_tbf_goodput(rate, mtu, udp),
				 EXPLAIN_LINE, name, h, "qdisc_root",
				 "nic_mtu");
	}
	if (link && drv && (!strcmp(drv, "veth") || !strcmp(drv, "loopback"))) {
		/* A virtual interface's speed is nominal, not a wire. */
	} else if (link && strtod(link, NULL) > 0) {
		double mbps = strtod(link, NULL);
		if (x->lang == REPORT_LANG_JA)
			snprintf(name, sizeof name,
				 "%s の %.0f Mbit/s Ethernet、MTU %d の %s", h,
				 mbps, mtu, proto);
		else
			snprintf(name, sizeof name,
				 "%.0f Mbit/s Ethernet on %s, %s at MTU %d",
				 mbps, h, proto, mtu);
		consider(x, best, explain_eth_goodput(mbps * 1e6, mtu, udp),
			 EXPLAIN_LINE, name, h, "nic_link", "nic_mtu");
	} else if (!q && !pol && !explain_cell_fact(x, h, "nic_wifi_rate")) {
		missing_once(x, "nic_link", h);
	}
}

/* The cell's hosts: those its runs have series from, else every host. */
static void cell_ceilings(struct explain_ctx *x, int ci, int udp,
			  struct explain_ceil *best, struct explain_ceil *bus)
{
	const struct report *r = x->r;
	for (int h = 0; h < r->span.nhosts; h++) {
		int seen = 0, any = 0;
		for (int i = x->first[ci]; i < x->first[ci + 1] && !seen; i++) {
			const struct report_run *u = &r->runs[x->by_cell[i]];
			for (int j = 0; j < u->nseries; j++) {
				any = 1;
				seen |= !strcmp(u->series[j].host,
						r->span.hosts[h]);
			}
		}
		if (seen || !any)
			explain_host_ceilings(x, r->span.hosts[h], udp, best,
					      bus);
	}
}

static void explain_cell(struct explain_ctx *x, int ci, struct explain_limit *l)
{
	const struct report *r = x->r;
	const struct report_cell *c = &r->cells[ci];
	const char *proto = observed(r, ci, "protocol");
	const char *ver = observed(r, ci, "version");
	const char *par = observed(r, ci, "parallel");
	int udp = proto && (!strcmp(proto, "UDP") || !strcmp(proto, "udp"));
	int bits = r->met.primary >= 0 && r->met.metric_units[r->met.primary] &&
		   !strcmp(r->met.metric_units[r->met.primary], "bit/s");
	double med =
	    c->st && r->met.primary >= 0 ? c->st[r->met.primary].median : NAN;
	struct explain_ceil best = {NAN, EXPLAIN_NONE, ""}, bus[BUS_COUNT];
	struct explain_evid e = {0};
	enum explain_kind k[2];
	int nk = 0, ja = x->lang == REPORT_LANG_JA, lossy, others;
	double retr;
	char buf[512];

	x->missing[0] = x->series[0] = x->evidence[0] = x->differ[0] = '\0';
	x->ci = ci;
	retr = explain_loss_rate(x, ci, udp);
	lossy = retr >= EXPLAIN_PER_S;
	x->single =
	    engine_one_thread(c->engine, ver) || (par && atoi(par) <= 1);
	l->ceiling = l->fraction = NAN;
	for (int b = 0; b < BUS_COUNT; b++)
		bus[b] = best;
	x->recv = cell_receiver(x, ci);
	if (explain_is_latency(r->met.metric)) {
		/* A delay: against the queue, never drop-bound. */
		explain_latency_cell(x, med, l);
		if (!l->line)
			l->line = explain_kind_text(EXPLAIN_NONE, x->lang);
		if (!l->evidence)
			l->evidence = l->series = "";
		return;
	}
	if (bits)
		cell_ceilings(x, ci, udp, &best, bus);
	for (int i = x->first[ci]; i < x->first[ci + 1]; i++)
		if (r->runs[x->by_cell[i]].ok)
			explain_run_evidence(r, x->single,
					     &r->runs[x->by_cell[i]], &e);
	if (isfinite(best.bps) && med > 0) {
		l->ceiling = best.bps;
		l->fraction = med / best.bps;
		l->ceiling_name = arena_strdup(r->arena, best.name);
		explain_share(r, ja, med, best.bps, best.name, 1, x->evidence,
			      sizeof x->evidence);
		if (l->fraction >= EXPLAIN_AT_CEILING &&
		    l->fraction <= EXPLAIN_ABOVE_CEILING)
			explain_push(k, &nk, best.kind);
	}
	if (explain_facts_settle(x, med, &best, bus, BUS_COUNT, l))
		return;
	x->near = l->fraction >= EXPLAIN_NEAR_CEILING &&
		  l->fraction < EXPLAIN_AT_CEILING;
	for (int b = 0; b < BUS_COUNT; b++)
		explain_bus_candidate(x, &bus[b], buses[b].share, med, l, k,
				      &nk);
	/* A CPU that carries a ceiling's rate is not what limits the cell. */
	/* A flow that loses packets is held by its losses first. */
	if (lossy && !(nk && k[0] == EXPLAIN_LINE))
		explain_drops_candidate(x, &e, k, &nk);
	/* Busy cores that were as busy before the engine started, with the
	 * engine's own process below EXPLAIN_PROC_BUSY, are other processes'
	 * load: a flow that still runs at its window / RTT is not held by
	 * them (schema/report.md, Limits), so the window is tried first;
	 * unless the engine saturated a core idle before it (engine_rose):
	 * a receiver held by that core shrinks its window too. */
	others = e.leadin >= EXPLAIN_LEADIN_BUSY &&
		 !(e.proc >= EXPLAIN_PROC_BUSY) &&
		 !(e.cpu_runs && 2 * e.rose_runs >= e.cpu_runs);
	if (!nk && !udp && others)
		explain_window_candidate(x, ci, med, k, &nk);
	if (!nk || (nk == 1 && k[0] == EXPLAIN_DROPS))
		explain_cpu_candidate(x, &e, ver, par, k, &nk);
	if (!nk && !udp && !others)
		explain_window_candidate(x, ci, med, k, &nk);
	/* Co-limited: a cell the CPU holds within EXPLAIN_NEAR_CEILING of a
	 * ceiling is held by both; the ceiling is named too (removing the CPU's
	 * limit would gain at most 1 / fraction). */
	if (x->near && nk == 1 &&
	    (k[0] == EXPLAIN_CPU || k[0] == EXPLAIN_ENGINE))
		explain_push(k, &nk, best.kind);
	if (e.nruns && e.pause / e.nruns >= EXPLAIN_PER_S) {
		snprintf(buf, sizeof buf, "%.0f PAUSE frames/s",
			 e.pause / e.nruns);
		explain_cat(x->evidence, sizeof x->evidence, "; ", buf);
		explain_cat(x->series, sizeof x->series, ", ", e.pause_series);
		explain_push(k, &nk, EXPLAIN_FLOW_CONTROL);
	}
	if (isnan(retr)) /* no losses of its own to tell */
		explain_drops_candidate(x, &e, k, &nk);
	l->kind = nk > 0 ? k[0] : EXPLAIN_NONE;
	l->kind2 = nk > 1 ? k[1] : EXPLAIN_NONE;
	l->evidence = arena_strdup(r->arena, x->evidence);
	l->series = arena_strdup(r->arena, x->series);
	l->missing = x->missing[0] ? arena_strdup(r->arena, x->missing) : NULL;
	l->line = arena_printf(
	    r->arena, "%s%s%s%s%s%s%s%s%s", x->evidence[0] ? x->evidence : "",
	    x->evidence[0] ? ": " : "", explain_kind_text(l->kind, x->lang),
	    l->kind2 ? (ja ? "、" : " and ") : "",
	    l->kind2 ? explain_kind_text(l->kind2, x->lang) : "",
	    l->missing ? (ja ? "（不明な事実: " : " (facts missing: ") : "",
	    l->missing ? l->missing : "", l->missing ? (ja ? "）" : ")") : "",
	    "");
}

int explain_build(const struct report *r, struct explain **out)
{
	struct explain *x;
	struct explain_ctx *c;
	*out = NULL;
	if (!r->arena || !r->met.metric_units || !r->cells || !r->ncells)
		return 0; /* a model built by hand: nothing to explain */
	x = arena_alloc(r->arena, sizeof *x);
	c = calloc(1, sizeof *c);
	if (!x || !c) {
		free(c);
		return -XR_ENOMEM;
	}
	c->r = r;
	c->lang = r->about.lang;
	x->cells = arena_alloc(r->arena, (r->ncells + 1) * sizeof *x->cells);
	x->pairs = arena_alloc(r->arena, (r->ncmps + 1) * sizeof *x->pairs);
	if (!x->cells || !x->pairs || index_cells(c) < 0) {
		ctx_free(c);
		return -XR_ENOMEM;
	}
	for (int i = 0; i < r->ncells; i++)
		explain_cell(c, i, &x->cells[i]);
	if (explain_refs(r, x) < 0) {
		ctx_free(c);
		return -XR_ENOMEM;
	}
	for (int i = 0; i < r->ncmps; i++) {
		const struct report_cmp *m = &r->cmps[i];
		enum explain_kind a = x->cells[m->a].kind;
		enum explain_kind b = x->cells[m->b].kind;
		x->pairs[i] = a == b
				  ? NULL
				  : arena_printf(r->arena,
						 c->lang == REPORT_LANG_JA
						     ? "%s は%s、%s は%s"
						     : "%s is %s; %s is %s",
						 r->cells[m->a].label,
						 explain_kind_text(a, c->lang),
						 r->cells[m->b].label,
						 explain_kind_text(b, c->lang));
	}
	ctx_free(c);
	*out = x;
	return 0;
}
