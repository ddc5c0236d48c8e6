/*
 * The comparisons chart (chart.h, chart_forest): each compared pair's
 * change Δ (B vs A, percent) with its 95% interval as a thin line and the
 * 90% interval of the equivalence test as a thick one, against the ±θ
 * band of the noise threshold, the verdict's mark (▲ ▼ ≈ ~ ≠) at Δ in the
 * verdict's colour, the pair's name and its verdict after it (or under
 * it when both do not fit) above the interval. The rules
 * are the verdict's (reports/verdict/verdict.c, schema/report.md
 * "Verdicts"): better/worse when the 95% interval lies beyond ±θ,
 * equivalent when the 90% interval lies inside it; the chart only shows
 * the numbers the verdict was decided on. Shapes in points, y down, for
 * the SVG and PDF drawers.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "chart.h"
#include "chart_fig.h"
#include "format.h"
#include "rtable.h"
#include "xr_err.h"

#include "banned.h"

#define FONT 7.5
#define MARK 9.0  /* the verdict's mark */
#define ROW 16.0  /* an interval's line */
#define LINE 10.0 /* a text line above it */
#define PAD 8.0	  /* left and right of the plot */
#define TOP 14.0  /* the ±θ labels */

/* The verdict's mark and colour (a palette index). */
static const char *mark_of(enum report_verdict v, int *colour)
{
	switch (v) {
	case REPORT_BETTER:
		*colour = 2;
		return "▲";
	case REPORT_WORSE:
		*colour = 3;
		return "▼";
	case REPORT_EQUIVALENT:
		*colour = 0;
		return "≈";
	case REPORT_DIFFERENT:
		*colour = 1;
		return "≠";
	case REPORT_NOT_SIGNIFICANT:
		*colour = 7;
		return "~";
	default:
		*colour = CHART_INK;
		return "—";
	}
}

static int shown(const struct report_cmp *c)
{
	return c->verdict != REPORT_NOT_COMPARABLE && isfinite(c->delta_pct) &&
	       isfinite(c->ci_low_pct) && isfinite(c->ci_high_pct);
}

/* The x range: every shown interval, 0 and ±θ. */
static void x_range(const struct report *r, double th, struct chart_axis *x)
{
	double lo = -th, hi = th, pad;
	int i;
	for (i = 0; i < r->ncmps; i++)
		if (shown(&r->cmps[i])) {
			lo = fmin(lo, r->cmps[i].ci_low_pct);
			hi = fmax(hi, r->cmps[i].ci_high_pct);
		}
	pad = (hi - lo) * 0.04;
	chart_axis_fit(x, lo - pad, hi + pad, 0);
}

/* "nic=a → nic=bb (streams=1)": the sides that differ, then the rest. */
static const char *pair_name(const struct report *r, const struct report_cmp *c,
			     struct arena *a)
{
	const struct report_cell *A = &r->cells[c->a], *B = &r->cells[c->b];
	char sa[512], sb[512], co[512];
	report_fmt_side(r, A, B, sa, sizeof sa);
	report_fmt_side(r, B, A, sb, sizeof sb);
	report_fmt_common(r, A, B, co, sizeof co);
	if (!*co || !strcmp(co, "–"))
		return arena_printf(a, "%s → %s", sa, sb);
	return arena_printf(a, "%s → %s (%s)", sa, sb, co);
}

/* A horizontal interval from lo to hi at y, with caps when thin. */
static int interval(struct chart_fig *f, const struct chart_axis *x, double lo,
		    double hi, double y, int colour, double w, int caps)
{
	double x0 = chart_axis_pos(x, lo), x1 = chart_axis_pos(x, hi);
	if (chart_fig_line(f, colour, w, x0, y, x1, y) < 0)
		return -XR_ENOMEM;
	if (!caps)
		return 0;
	if (chart_fig_line(f, colour, w, x0, y - 3, x0, y + 3) < 0 ||
	    chart_fig_line(f, colour, w, x1, y - 3, x1, y + 3) < 0)
		return -XR_ENOMEM;
	return 0;
}

/* Comparison c's rows from *y down: its name and verdict, then its
 * interval line; *y moves past them. */
static int pair(struct chart_fig *f, const struct report *r,
		const struct report_cmp *c, const struct chart_axis *x,
		double width, double *y, struct arena *a)
{
	char head[256];
	const char *name = pair_name(r, c, a), *mk;
	double yl, wn, wh;
	int colour;
	struct chart_op *o;

	if (!name)
		return -XR_ENOMEM;
	rt_verdict_head(r, c, head, sizeof head);
	mk = mark_of(c->verdict, &colour);
	wn = chart_text_estimate(name, strlen(name), FONT);
	wh = chart_text_estimate(head, strlen(head), FONT);
	*y += LINE;
	if (chart_fig_text(f, PAD, *y, -1, FONT, name) < 0)
		return -XR_ENOMEM;
	/* The verdict right after the name, else at the start of a line of
	 * its own: never at the right edge, which a narrow screen scrolls
	 * out of sight (390 px: the chart's left part is what shows). */
	if (wn + wh + 12 > width - 2 * PAD) {
		*y += LINE;
		wn = -12;
	}
	if (chart_fig_text(f, PAD + wn + 12, *y, -1, FONT, head) < 0)
		return -XR_ENOMEM;
	f->ops[f->nops - 1].colour = colour;
	yl = *y + ROW / 2 + 1;
	*y += ROW;
	if (!shown(c))
		return 0;
	if (interval(f, x, c->ci_low_pct, c->ci_high_pct, yl, CHART_INK, 0.8,
		     1) < 0 ||
	    (isfinite(c->eq_low_pct) && isfinite(c->eq_high_pct) &&
	     c->eq_high_pct > c->eq_low_pct &&
	     interval(f, x, c->eq_low_pct, c->eq_high_pct, yl, colour, 2.6, 0) <
		 0))
		return -XR_ENOMEM;
	if (!(o = chart_fig_op(f, CHART_OP_DOT, CHART_INK)))
		return -XR_ENOMEM;
	o->x = chart_axis_pos(x, c->delta_pct), o->y = yl, o->w = 1.5;
	o->fill = 1;
	if (chart_fig_text(f, o->x, yl - 3, 0, MARK, mk) < 0)
		return -XR_ENOMEM;
	f->ops[f->nops - 1].colour = colour;
	return 0;
}

/* The ±θ band's lines (0 and ±θ) from top to bottom, with the labels
 * of ±θ above; the band itself is a rectangle drawn before the rows. */
static int band_lines(struct chart_fig *f, const struct chart_axis *x,
		      double th, double top, double bottom)
{
	double lo = chart_axis_pos(x, -th), hi = chart_axis_pos(x, th);
	char s[64];
	if (chart_fig_line(f, CHART_GRID, 0.6, lo, top, lo, bottom) < 0 ||
	    chart_fig_line(f, CHART_GRID, 0.6, hi, top, hi, bottom) < 0 ||
	    chart_fig_line(f, CHART_INK, 0.5, chart_axis_pos(x, 0), top,
			   chart_axis_pos(x, 0), bottom) < 0)
		return -XR_ENOMEM;
	snprintf(s, sizeof s, "−θ = −%g%%", th);
	if (chart_fig_text(f, lo - 2, top - 3, 1, FONT, s) < 0)
		return -XR_ENOMEM;
	snprintf(s, sizeof s, "+θ = +%g%%", th);
	return chart_fig_text(f, hi + 2, top - 3, -1, FONT, s);
}

int chart_forest(const struct report *r, double width, struct arena *a,
		 struct chart_fig *f)
{
	int ja = r->about.lang == REPORT_LANG_JA, i;
	double th = 100.0 * r->met.threshold, y = TOP;
	struct chart_op *band;
	struct chart_axis x = {0};

	memset(f, 0, sizeof *f);
	f->a = a;
	f->kind = "forest";
	if (r->ncmps < 1)
		return 0;
	f->title = arena_printf(
	    a,
	    ja ? "比較: B の A に対する変化率（点）と 95%% 区間（細線）、"
		 "同等性検定の 90%% 区間（太線）、帯 = ±θ（%g%%）"
	       : "Comparisons: change of B vs A (dot) with its 95%% interval "
		 "(thin line) and the equivalence test's 90%% interval "
		 "(thick), band = ±θ (%g%%)",
	    th);
	if (!f->title)
		return -XR_ENOMEM;
	x_range(r, th, &x);
	x.p0 = PAD, x.p1 = width - PAD;
	/* The band goes first, under the rows; its height is known once
	 * they are laid out. */
	if (!(band = chart_fig_op(f, CHART_OP_RECT, CHART_BAND)))
		return -XR_ENOMEM;
	band->x = chart_axis_pos(&x, -th);
	band->w = chart_axis_pos(&x, th) - band->x;
	band->y = y, band->fill = 1, band->width = 0;
	for (i = 0; i < r->ncmps; i++)
		if (pair(f, r, &r->cmps[i], &x, width, &y, a) < 0)
			return -XR_ENOMEM;
	f->ops[0].h = y + 2 - f->ops[0].y;
	if (band_lines(f, &x, th, f->ops[0].y, y + 2) < 0)
		return -XR_ENOMEM;
	if (chart_fig_xaxis(f, &x, y + 2, FONT,
			    ja ? "変化率 %（B 対 A）" : "change %, B vs A") < 0)
		return -XR_ENOMEM;
	f->w = width;
	f->h = y + 2 + 5 + 2 * FONT + 6;
	return 0;
}
