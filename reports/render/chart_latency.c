/*
 * The charts of latency under load (issue 19), laid out once as shapes
 * (chart.h's chart_fig) for the SVG and PDF drawers: per cell, one run's
 * round-trip time (`latency.rtt`, right axis, ms) over time beside its
 * throughput (`engine.throughput`, left axis), the idle phase before the
 * engine's start (t < 0) shaded; and for the whole report, the
 * cumulative distribution of the loaded round-trip time, one line per
 * cell, from every reply of every ok run whose probe was sent while the
 * engine ran (t >= 0; the probe stops right after the engine's end, so
 * every stored point with t >= 0 is of the load, as latprobe.c counts
 * them for `latency.loaded_p50`). Not a summary: each sample is a step.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "chart.h"
#include "chart_fig.h"
#include "format.h"
#include "series_name.h"
#include "xr_err.h"

#include "banned.h"

#define FONT 7.5
#define LEFT 44.0  /* room for the left tick labels */
#define RIGHT 30.0 /* room for the right tick labels */
#define PLOT_H 130.0
#define CDF_H 150.0
#define RTT "latency.rtt"
#define TPUT SERIES_ENGINE_THROUGHPUT

static int text(struct chart_fig *f, double x, double y, int anchor,
		const char *s)
{
	return chart_fig_text(f, x, y, anchor, FONT, s);
}

static int cmp_d(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

/* Cell ci's loaded round-trip times (t >= 0) of every ok run, in ms,
 * sorted, into *out (from a); how many, or -XR_ENOMEM. */
static int loaded_rtts(const struct report *r, int ci, struct arena *a,
		       double **out)
{
	size_t n = 0, k = 0;
	int i, j;
	double *v;
	*out = NULL;
	for (int q_ = 0; (i = report_cell_run(r, ci, q_)) >= 0; q_++) {
		const struct report_series *s;
		if (r->runs[i].cell != ci || !r->runs[i].ok)
			continue;
		if ((s = report_run_series(&r->runs[i], NULL, RTT)))
			n += (size_t)s->n;
	}
	if (!n)
		return 0;
	if (n > 100000000 || !(v = arena_alloc(a, n * sizeof *v)))
		return -XR_ENOMEM;
	for (int q_ = 0; (i = report_cell_run(r, ci, q_)) >= 0; q_++) {
		const struct report_series *s;
		if (r->runs[i].cell != ci || !r->runs[i].ok ||
		    !(s = report_run_series(&r->runs[i], NULL, RTT)))
			continue;
		for (j = 0; j < s->n; j++)
			if (s->t[j] >= 0 && isfinite(s->v[j]))
				v[k++] = s->v[j] * 1e3;
	}
	qsort(v, k, sizeof *v, cmp_d);
	*out = v;
	return (int)k;
}

/* The empirical CDF of n sorted values as a step path on x and y: at each
 * distinct value a riser from the share below it to the share up to it
 * (F(v-) to F(v)), flat between. */
static int cdf_path(struct chart_fig *f, const double *v, int n,
		    const struct chart_axis *x, const struct chart_axis *y,
		    int colour)
{
	double *p = arena_alloc(f->a, 4 * (size_t)n * sizeof *p);
	struct chart_op *o;
	int i = 0, m = 0;
	if (!p)
		return -XR_ENOMEM;
	while (i < n) {
		int j = i;
		while (j < n && v[j] == v[i])
			j++;
		p[m] = p[m + 1] = chart_axis_pos(x, v[i]);
		p[2 * (size_t)n + m] = chart_axis_pos(y, (double)i / n);
		p[2 * (size_t)n + m + 1] = chart_axis_pos(y, (double)j / n);
		m += 2;
		i = j;
	}
	if (!(o = chart_fig_op(f, CHART_OP_PATH, colour)))
		return -XR_ENOMEM;
	o->px = p;
	o->py = p + 2 * (size_t)n;
	o->n = m;
	o->width = 1.0;
	return 0;
}

/* A swatch of colour and s at x, baseline y. */
static int key(struct chart_fig *f, int colour, double x, double y,
	       const char *s)
{
	struct chart_op *o = chart_fig_op(f, CHART_OP_RECT, colour);
	if (!o)
		return -XR_ENOMEM;
	o->x = x, o->y = y - 6, o->w = 6, o->h = 6, o->fill = 1;
	return text(f, x + 9, y, -1, s);
}

int chart_latency_cdf(const struct report *r, double width, struct arena *a,
		      struct chart_fig *f)
{
	double **v, hi = 0, top = FONT * 1.6, y, lx;
	int *n, i, any = 0;
	struct chart_axis x = {0}, ya = {0};

	memset(f, 0, sizeof *f);
	f->a = a;
	f->kind = "cdf";
	if (r->ncells < 1 ||
	    !(v = arena_alloc(a, (size_t)r->ncells * sizeof *v)) ||
	    !(n = arena_alloc(a, (size_t)r->ncells * sizeof *n)))
		return r->ncells < 1 ? 0 : -XR_ENOMEM;
	for (i = 0; i < r->ncells; i++) {
		if ((n[i] = loaded_rtts(r, i, a, &v[i])) < 0)
			return -XR_ENOMEM;
		if (n[i] > 0)
			hi = fmax(hi, v[i][n[i] - 1]), any++;
	}
	if (!any)
		return 0;
	f->title = report_text(r, REPORT_T_LAT_CDF_TITLE);
	chart_axis_fit(&x, 0, hi, 1);
	x.p0 = LEFT, x.p1 = width - 6;
	ya.lo = 0, ya.hi = 1, ya.step = 0.25, ya.dec = 2;
	ya.p0 = top + CDF_H, ya.p1 = top;
	if (text(f, 0, FONT, -1, report_text(r, REPORT_T_LAT_SHARE)) < 0 ||
	    chart_fig_yaxis(f, &ya, x.p0, x.p1, FONT) < 0)
		return -XR_ENOMEM;
	for (i = 0; i < r->ncells; i++)
		if (n[i] > 0 && cdf_path(f, v[i], n[i], &x, &ya, i) < 0)
			return -XR_ENOMEM;
	if (chart_fig_xaxis(f, &x, ya.p0, FONT,
			    report_text(r, REPORT_T_LAT_RTT_AXIS)) < 0)
		return -XR_ENOMEM;
	y = ya.p0 + 5 + 2 * FONT + FONT * 2, lx = x.p0;
	for (i = 0; i < r->ncells; i++) {
		const char *s;
		double w;
		if (n[i] < 1)
			continue;
		s = arena_printf(a, "%s (n=%d)",
				 r->cells[i].label ? r->cells[i].label : "",
				 n[i]);
		if (!s)
			return -XR_ENOMEM;
		w = 9 + chart_text_estimate(s, strlen(s), FONT) + 10;
		if (lx > x.p0 && lx + w > x.p1)
			lx = x.p0, y += FONT * 1.6;
		if (key(f, i, lx, y, s) < 0)
			return -XR_ENOMEM;
		lx += w;
	}
	f->w = width;
	f->h = y + 4;
	return 0;
}

/* --- one run's round-trip time beside its throughput ------------------- */

/* The cell's first ok run (in execution order) with a latency.rtt series
 * of at least one point; -1 when none. */
static int chosen_run(const struct report *r, int ci)
{
	int i;
	for (int q_ = 0; (i = report_cell_run(r, ci, q_)) >= 0; q_++) {
		const struct report_series *s;
		if (r->runs[i].cell == ci && r->runs[i].ok &&
		    (s = report_run_series(&r->runs[i], NULL, RTT)) && s->n > 0)
			return i;
	}
	return -1;
}

/* The right axis: tick labels right of x1, no grid (the left axis has
 * it), and the axis line. */
static int right_axis(struct chart_fig *f, const struct chart_axis *ax,
		      double x1)
{
	double v;
	char s[32];
	for (v = ax->lo; v <= ax->hi + ax->step / 2; v += ax->step) {
		double y = chart_axis_pos(ax, v);
		snprintf(s, sizeof s, "%.*f", ax->dec,
			 fabs(v) < ax->step / 1e6 ? 0 : v);
		if (chart_fig_line(f, CHART_INK, 0.6, x1, y, x1 + 3, y) < 0 ||
		    text(f, x1 + 5, y + FONT * 0.33, -1, s) < 0)
			return -XR_ENOMEM;
	}
	return chart_fig_line(f, CHART_INK, 0.6, x1, ax->p0, x1, ax->p1);
}

/* The extent of series s (t and v), widened into t0..t1, vmax. */
static void extent(const struct report_series *s, double *t0, double *t1,
		   double *vmax)
{
	int k;
	for (k = 0; s && k < s->n; k++) {
		*t0 = fmin(*t0, s->t[k]);
		*t1 = fmax(*t1, s->t[k]);
		if (isfinite(s->v[k]))
			*vmax = fmax(*vmax, s->v[k]);
	}
}

/* The idle phase as a band behind the plot from the first probe t0 (< 0)
 * to the engine's start, labelled. */
static int idle_band(struct chart_fig *f, const struct report *r,
		     const struct chart_axis *x, const struct chart_axis *y,
		     double t0)
{
	struct chart_op *o;
	double x0 = chart_axis_pos(x, t0), x1 = chart_axis_pos(x, 0);
	if (!(t0 < 0))
		return 0;
	if (!(o = chart_fig_op(f, CHART_OP_RECT, CHART_BAND)))
		return -XR_ENOMEM;
	o->x = x0, o->y = y->p1, o->w = x1 - x0, o->h = y->p0 - y->p1;
	o->fill = 1, o->width = 0;
	return text(f, (x0 + x1) / 2, y->p1 + FONT * 1.2, 0,
		    report_text(r, REPORT_T_LAT_IDLE));
}

int chart_latency_ts(const struct report *r, int ci, double width,
		     struct arena *a, struct chart_fig *f)
{
	const struct report_run *u;
	const struct report_series *rtt, *tp;
	struct chart_axis x = {0}, yl = {0}, yr = {0};
	double t0 = 0, t1 = -INFINITY, tmax = 0, rmax = 0, scale = 1, top,
	       first;
	const char *unit = "";
	int ri = chosen_run(r, ci);

	memset(f, 0, sizeof *f);
	f->a = a;
	f->kind = "latency";
	if (ri < 0)
		return 0;
	u = &r->runs[ri];
	rtt = report_run_series(u, NULL, RTT);
	tp = report_run_series(u, NULL, TPUT);
	extent(rtt, &t0, &t1, &rmax);
	first = t0; /* the first probe: where the idle phase starts */
	extent(tp, &t0, &t1, &tmax);
	if (tp)
		scale = chart_rate_scale(r, tmax, &unit);
	f->title =
	    arena_printf(a, report_text(r, REPORT_T_LAT_TS_TITLE),
			 r->cells[ci].label ? r->cells[ci].label : "", u->rep);
	top = FONT * 1.6;
	chart_axis_fit(&x, t0, t1, 1);
	x.p0 = LEFT, x.p1 = width - RIGHT;
	chart_axis_fit(&yr, 0, rmax * 1e3, 1);
	yr.p0 = yl.p0 = top + PLOT_H, yr.p1 = yl.p1 = top;
	chart_axis_fit(&yl, 0, tmax / scale, 1);
	if (!f->title || idle_band(f, r, &x, &yl, first) < 0 ||
	    (tp && (text(f, 0, FONT, -1, unit) < 0 ||
		    chart_fig_yaxis(f, &yl, x.p0, x.p1, FONT) < 0 ||
		    chart_series_line(f, tp, &x, &yl, scale, 0, 0.9) < 0)) ||
	    text(f, width, FONT, 1, "ms") < 0 || right_axis(f, &yr, x.p1) < 0 ||
	    chart_series_line(f, rtt, &x, &yr, 1e-3, 1, 0.9) < 0 ||
	    chart_fig_xaxis(f, &x, yl.p0, FONT,
			    report_text(r, REPORT_T_LAT_SECONDS)) < 0)
		return -XR_ENOMEM;
	top = yl.p0 + 5 + 2 * FONT + FONT * 2;
	if (tp) {
		const char *k = arena_printf(
		    a, report_text(r, REPORT_T_LAT_TPUT_KEY), unit);
		if (!k || key(f, 0, x.p0, top, k) < 0)
			return -XR_ENOMEM;
	}
	if (key(f, 1, tp ? x.p0 + (x.p1 - x.p0) / 2 : x.p0, top,
		report_text(r, REPORT_T_LAT_RTT_KEY)) < 0)
		return -XR_ENOMEM;
	f->w = width;
	f->h = top + 4;
	return 0;
}
