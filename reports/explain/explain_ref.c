/*
 * Published references get ceilings too (issue 25, Deliver 4): the
 * conditions a reference states (link speed, MTU, PCIe link; file-wide or
 * per level, schema/reference.md) set the same ceilings as a host's facts
 * for each published cell, and a sentence per row sets the published
 * limit beside the measured one ("published 6.18 Gbit/s = 78% of ... PCIe
 * 3.0 x1: bus-bound; measured 9.40 Gbit/s = 99.8% of ...: line-bound:
 * your PCIe slot is not the published one"). A published number comes
 * with no series, so the only kinds it can get are line, pcie and none.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arena.h"
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

struct pub {
	double line, pcie; /* ceilings in bit/s; NaN */
	char line_name[160], pcie_name[160], missing[64];
};

static void pub_ceilings(const struct report_ref *ref,
			 const struct report_ref_row *w, struct pub *p)
{
	const char *link = report_ref_row_cond(ref, w, "link");
	const char *pl = report_ref_row_cond(ref, w, "pcie");
	const char *proto = report_ref_row_cond(ref, w, "protocol");
	int udp = proto && !strcasecmp(proto, "UDP"), lanes = 0;
	int mtu = pub_mtu(report_ref_row_cond(ref, w, "mtu"));
	double bps, gts;
	p->line = p->pcie = NAN;
	p->missing[0] = '\0';
	if (!link || report_ref_parse_link(link, &bps) < 0)
		snprintf(p->missing, sizeof p->missing, "link");
	else if (!mtu)
		snprintf(p->missing, sizeof p->missing, "mtu");
	else {
		p->line = explain_eth_goodput(bps, mtu, udp);
		snprintf(p->line_name, sizeof p->line_name, "%s, %s at MTU %d",
			 link, udp ? "UDP" : "TCP", mtu);
	}
	if (pl && report_ref_parse_pcie(pl, &gts, &lanes) == 0) {
		p->pcie = explain_pcie_raw(gts, lanes);
		if (!strncasecmp(pl, "pcie", 4))
			pl += 4;
		while (*pl == ' ')
			pl++;
		snprintf(p->pcie_name, sizeof p->pcie_name, "PCIe %s (raw)",
			 pl);
	}
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
	if (isfinite(p.pcie) && v >= EXPLAIN_PCIE_SHARE * p.pcie &&
	    v <= p.pcie && l->kind != EXPLAIN_LINE) {
		explain_share(r, ja, v, p.pcie, p.pcie_name, 0, ev, sizeof ev);
		if (!isfinite(l->ceiling) || p.pcie < l->ceiling) {
			l->ceiling = p.pcie;
			l->fraction = v / p.pcie;
			l->ceiling_name = arena_strdup(r->arena, p.pcie_name);
		}
		l->kind = EXPLAIN_PCIE;
	}
	l->evidence = arena_strdup(r->arena, ev);
	l->line = arena_printf(
	    r->arena, "%s%s%s%s%s%s", ev, *ev ? ": " : "",
	    explain_kind_text(l->kind, r->about.lang),
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
	if (m && pl->kind != m->kind && pl->kind && m->kind)
		tail = pl->kind == EXPLAIN_PCIE || m->kind == EXPLAIN_PCIE
			   ? (ja ? ": PCIe スロットが公表時と異なります"
				 : ": your PCIe slot is not the published one")
			   : (ja ? ": 律速要因が公表時と異なります"
				 : ": the bottleneck is not the published one");
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
