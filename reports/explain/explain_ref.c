/*
 * Published references get ceilings too (issue 25, Deliver 4): the
 * conditions a reference states (link speed, MTU, PCIe link, USB link,
 * Wi-Fi PHY rate; file-wide or per level, schema/reference.md) set the
 * same ceilings as a host's facts for each published cell, and a
 * sentence per row sets the published
 * limit beside the measured one ("published 6.18 Gbit/s = 78% of ... PCIe
 * 3.0 x1: bus-bound; measured 9.40 Gbit/s = 99.8% of ...: line-bound:
 * your PCIe slot is not the published one"). A published number comes
 * with no series, so the only kinds it can get are line, pcie, usb, wifi
 * and none. USB and Wi-Fi (conditions usb and wifi) are judged as a
 * measured cell's: explain.c's formulas and shares.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arena.h"
#include "explain_ceil.h"
#include "explain_int.h"
#include "format.h"
#include "reference.h"

#include "banned.h"

/* An MTU as published: a whole number of 69 to 65535 bytes, else 0. */
static int pub_mtu(const char *s)
{
	char *e;
	double v = s ? strtod(s, &e) : 0;
	if (!s || e == s || *e || !(v > 68 && v <= 65535) || v != floor(v))
		return 0;
	return (int)v;
}

/* The bus ceilings a reference can state, as explain.c's buses: each
 * judged by its own share. */
enum { PUB_PCIE, PUB_USB, PUB_WIFI, PUB_BUSES };

static const struct {
	enum explain_kind kind;
	double share;
	const char *tail[REPORT_LANG_COUNT]; /* the sentence's, when it
						differs from the measured */
} pub_bus[PUB_BUSES] = {
    [PUB_PCIE] = {EXPLAIN_PCIE,
		  EXPLAIN_PCIE_SHARE,
		  {": your PCIe slot is not the published one",
		   ": PCIe スロットが公表時と異なります"}},
    [PUB_USB] = {EXPLAIN_USB,
		 EXPLAIN_USB_SHARE,
		 {": your USB link is not the published one",
		  ": USB 接続が公表時と異なります"}},
    [PUB_WIFI] = {EXPLAIN_WIFI,
		  EXPLAIN_WIFI_SHARE,
		  {": your Wi-Fi link is not the published one",
		   ": Wi-Fi 接続が公表時と異なります"}},
};

struct pub {
	double line, bus[PUB_BUSES]; /* ceilings in bit/s; NaN */
	char line_name[160], bus_name[PUB_BUSES][160], missing[64];
	int ja; /* names in Japanese (names and units as they are) */
};

/* A condition's value without a leading "word" ("PCIe 3.0 x1" ->
 * "3.0 x1"), so that a name does not say it twice. */
static const char *after(const char *v, const char *word)
{
	size_t n = strlen(word);
	if (!strncasecmp(v, word, n))
		v += n;
	while (*v == ' ')
		v++;
	return v;
}

/* USB: the data rate of each lane (explain_usb_data) x lanes over the
 * frame at the MTU, as a measured USB adapter's (explain.c); Wi-Fi: the
 * PHY rate itself, an estimate. */
static void pub_bus_ceilings(const struct report_ref *ref,
			     const struct report_ref_row *w, int udp, int mtu,
			     struct pub *p)
{
	const char *pl = report_ref_row_cond(ref, w, "pcie");
	const char *ul = report_ref_row_cond(ref, w, "usb");
	const char *wl = report_ref_row_cond(ref, w, "wifi");
	double gts, bps;
	int lanes = 0;
	if (pl && report_ref_parse_pcie(pl, &gts, &lanes) == 0) {
		p->bus[PUB_PCIE] = explain_pcie_raw(gts, lanes);
		snprintf(p->bus_name[PUB_PCIE], sizeof p->bus_name[0],
			 p->ja ? "PCIe %s（生の速度）" : "PCIe %s (raw)",
			 after(pl, "pcie"));
	}
	if (ul && report_ref_parse_usb(ul, &bps, &lanes) == 0 && mtu) {
		p->bus[PUB_USB] = explain_tbf_goodput(
		    explain_usb_data(bps) * lanes, mtu, udp);
		if (p->ja)
			snprintf(p->bus_name[PUB_USB], sizeof p->bus_name[0],
				 "USB %s、MTU %d の %s", after(ul, "usb"), mtu,
				 udp ? "UDP" : "TCP");
		else
			snprintf(p->bus_name[PUB_USB], sizeof p->bus_name[0],
				 "USB %s, %s at MTU %d", after(ul, "usb"),
				 udp ? "UDP" : "TCP", mtu);
	}
	if (wl && report_ref_parse_wifi(wl, &bps) == 0) {
		p->bus[PUB_WIFI] = bps;
		snprintf(p->bus_name[PUB_WIFI], sizeof p->bus_name[0],
			 p->ja ? "Wi-Fi PHY 速度 %.1f Mbit/s（推定値: MAC "
				 "が運ぶのはこれより少ない）"
			       : "Wi-Fi PHY rate %.1f Mbit/s (an estimate: "
				 "the MAC carries less)",
			 bps / 1e6);
	}
}

static void pub_ceilings(const struct report_ref *ref,
			 const struct report_ref_row *w, struct pub *p)
{
	const char *link = report_ref_row_cond(ref, w, "link");
	const char *proto = report_ref_row_cond(ref, w, "protocol");
	int udp = proto && !strcasecmp(proto, "UDP");
	int mtu = pub_mtu(report_ref_row_cond(ref, w, "mtu"));
	double bps;
	int has_link = link && report_ref_parse_link(link, &bps) == 0;
	p->line = NAN;
	for (int b = 0; b < PUB_BUSES; b++)
		p->bus[b] = NAN;
	p->missing[0] = '\0';
	/* a Wi-Fi link has no wire speed: its rate stands for it */
	if (!has_link && !report_ref_row_cond(ref, w, "wifi"))
		snprintf(p->missing, sizeof p->missing, "link");
	if (!mtu && (has_link || report_ref_row_cond(ref, w, "usb")))
		explain_cat(p->missing, sizeof p->missing, ", ", "mtu");
	if (has_link && mtu) {
		p->line = explain_eth_goodput(bps, mtu, udp);
		if (p->ja)
			snprintf(p->line_name, sizeof p->line_name,
				 "%s、MTU %d の %s", link, mtu,
				 udp ? "UDP" : "TCP");
		else
			snprintf(p->line_name, sizeof p->line_name,
				 "%s, %s at MTU %d", link, udp ? "UDP" : "TCP",
				 mtu);
	}
	pub_bus_ceilings(ref, w, udp, mtu, p);
}

/* The published cell's limit: the same rules as a measured cell's
 * ceilings (explain.c, schema/report.md "Limits"). */
static void pub_limit(const struct report *r, const struct report_ref *ref,
		      const struct report_ref_row *w, struct explain_limit *l)
{
	int ja = r->about.lang == REPORT_LANG_JA, mi = ref->value_metric[0];
	double v = w->v[0].published;
	char ev[512] = "";
	struct pub p;
	memset(l, 0, sizeof *l);
	l->ceiling = l->fraction = NAN;
	l->series = l->evidence = "";
	l->line = explain_kind_text(EXPLAIN_NONE, r->about.lang);
	if (mi < 0 || !r->met.metric_units[mi] ||
	    strcmp(r->met.metric_units[mi], "bit/s") || !(v > 0))
		return;
	p.ja = ja;
	pub_ceilings(ref, w, &p);
	l->missing = p.missing[0] ? arena_strdup(r->arena, p.missing) : NULL;
	if (isfinite(p.line)) {
		l->ceiling = p.line;
		l->fraction = v / p.line;
		l->ceiling_name = arena_strdup(r->arena, p.line_name);
		explain_share(r, ja, v, p.line, p.line_name, 1, ev, sizeof ev);
		if (l->fraction >= EXPLAIN_AT_CEILING && l->fraction <= 1.05)
			l->kind = EXPLAIN_LINE;
	}
	for (int b = 0; b < PUB_BUSES; b++) {
		double c = p.bus[b];
		if (!isfinite(c) || v < pub_bus[b].share * c || v > c ||
		    l->kind == EXPLAIN_LINE || l->kind2)
			continue;
		explain_share(r, ja, v, c, p.bus_name[b], 0, ev, sizeof ev);
		if (!isfinite(l->ceiling) || c < l->ceiling) {
			l->ceiling = c;
			l->fraction = v / c;
			l->ceiling_name = arena_strdup(r->arena, p.bus_name[b]);
		}
		if (l->kind)
			l->kind2 = pub_bus[b].kind;
		else
			l->kind = pub_bus[b].kind;
	}
	l->evidence = arena_strdup(r->arena, ev);
	l->line = arena_printf(
	    r->arena, "%s%s%s%s%s%s%s%s", ev, *ev ? ": " : "",
	    explain_kind_text(l->kind, r->about.lang),
	    l->kind2 ? (ja ? "、" : " and ") : "",
	    l->kind2 ? explain_kind_text(l->kind2, r->about.lang) : "",
	    l->missing ? (ja ? "（不明な条件: " : " (conditions missing: ")
		       : "",
	    l->missing ? l->missing : "", l->missing ? (ja ? "）" : ")") : "");
}

/* "published ...: bus-bound; measured ...: line-bound: your PCIe slot is
 * not the published one"; NULL when the reference states no ceiling. */
static const char *pub_sentence(const struct report *r,
				const struct report_ref_row *w,
				const struct explain_limit *pl,
				const struct explain_limit *cells)
{
	int ja = r->about.lang == REPORT_LANG_JA;
	const struct explain_limit *m =
	    w->status == REPORT_REF_MATCHED && w->cell >= 0 ? &cells[w->cell]
							    : NULL;
	const char *tail = "";
	if (!isfinite(pl->ceiling))
		return NULL;
	if (m && pl->kind != m->kind && pl->kind && m->kind) {
		tail = ja ? ": 律速要因が公表時と異なります"
			  : ": the bottleneck is not the published one";
		for (int b = PUB_BUSES - 1; b >= 0; b--)
			if (pl->kind == pub_bus[b].kind ||
			    m->kind == pub_bus[b].kind)
				tail = pub_bus[b].tail[r->about.lang];
	}
	return arena_printf(
	    r->arena, "%s %s%s%s%s%s", ja ? "公表値" : "published", pl->line,
	    m ? "; " : "", m ? (ja ? "実測値 " : "measured ") : "",
	    m ? m->line : "", tail);
}

int explain_refs(const struct report *r, struct explain *x)
{
	const struct report_ref *ref = r->ref;
	if (!ref || !ref->nrows || !ref->nvalues)
		return 0;
	x->refs = arena_alloc(r->arena, (size_t)ref->nrows * sizeof *x->refs);
	x->ref_lines =
	    arena_alloc(r->arena, (size_t)ref->nrows * sizeof *x->ref_lines);
	if (!x->refs || !x->ref_lines)
		return -XR_ENOMEM;
	x->nrefs = ref->nrows;
	for (int k = 0; k < ref->nrows; k++) {
		pub_limit(r, ref, &ref->rows[k], &x->refs[k]);
		x->ref_lines[k] =
		    pub_sentence(r, &ref->rows[k], &x->refs[k], x->cells);
	}
	return 0;
}
