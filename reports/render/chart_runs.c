/*
 * The charts of the runs (chart.h): a cell's time series (each ok run's
 * engine.throughput overlaid, the busiest cores' CPU strip under it, drop
 * and PAUSE marks on top) and a matrix table's distribution (box, whiskers
 * and every run as a dot), laid out once as shapes in points for the SVG
 * and PDF drawers. What a series means is decided by its name alone
 * (runner/base/series.h), so series the store adds later show up here
 * without a change to the drawers.
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
#define LEFT 44.0    /* room for the y tick labels */
#define PLOT_H 130.0 /* the time series' plot */
#define STRIP_H 42.0 /* the CPU strip */
#define BOX_H 150.0  /* the distribution's plot */
#define MAX_CORES 2  /* cores in the CPU strip */

/* Text in the figures' size. */
static int text(struct chart_fig *f, double x, double y, int anchor,
		const char *s)
{
	return chart_fig_text(f, x, y, anchor, FONT, s);
}

static int is_mark(const char *name)
{
	return strstr(name, "drop") || strstr(name, "pause") ||
	       strstr(name, "xon") || strstr(name, "xoff");
}

/* cpu.N.busy: N, else -1. */
static int core_of(const char *name)
{
	const size_t pl = strlen(SERIES_CPU); /* SERIES_CPU_CORE_BUSY */
	char *end;
	long n;
	if (strncmp(name, SERIES_CPU, pl))
		return -1;
	n = strtol(name + pl, &end, 10);
	return end != name + pl && !strcmp(end, ".busy") && n >= 0 && n < 4096
		   ? (int)n
		   : -1;
}

/* A core of a host: the CPU strip draws one line per pair, keyed by both
 * (a client's core 1 and a server's are different lines). */
struct hcore {
	const char *host;
	int core;
	double mean;
};

/* Keep the MAX_CORES busiest (host, core) pairs in best[], by mean
 * descending; a pair already there keeps its highest mean. */
static void hcore_offer(struct hcore best[MAX_CORES], const char *host,
			int core, double m)
{
	int d, j;
	for (d = 0; d < MAX_CORES; d++)
		if (best[d].core == core && best[d].host &&
		    !strcmp(best[d].host, host)) {
			if (m <= best[d].mean)
				return;
			/* taken out, then offered again at its new mean */
			for (j = d; j < MAX_CORES - 1; j++)
				best[j] = best[j + 1];
			best[MAX_CORES - 1] = (struct hcore){NULL, -1, -1};
			break;
		}
	for (d = 0; d < MAX_CORES; d++)
		if (m > best[d].mean) {
			for (j = MAX_CORES - 1; j > d; j--)
				best[j] = best[j - 1];
			best[d] = (struct hcore){host, core, m};
			return;
		}
}

/* The busiest cores over the cell's ok runs (mean cpu.N.busy) with their
 * hosts, at most MAX_CORES, by mean descending. Returns how many. */
static int busiest(const struct report *r, int ci, struct hcore hc[MAX_CORES])
{
	int n = 0, i, k, d;
	for (i = 0; i < MAX_CORES; i++)
		hc[i] = (struct hcore){NULL, -1, -1};
	for (int q_ = 0; (i = report_cell_run(r, ci, q_)) >= 0; q_++) {
		const struct report_run *u = &r->runs[i];
		if (u->cell != ci || !u->ok)
			continue;
		for (k = 0; k < u->nseries; k++) {
			const struct report_series *s = &u->series[k];
			int c = core_of(s->name);
			double m = 0;
			if (c < 0 || s->n < 1)
				continue;
			for (d = 0; d < s->n; d++)
				m += s->v[d] / s->n;
			hcore_offer(hc, s->host ? s->host : "", c, m);
		}
	}
	while (n < MAX_CORES && hc[n].core >= 0)
		n++;
	return n;
}

/* The time and value extent of the cell's ok runs' throughput. */
static int ts_extent(const struct report *r, int ci, double *t0, double *t1,
		     double *vmax)
{
	int i, k, runs = 0;
	*t0 = 0, *t1 = -INFINITY, *vmax = 0;
	for (int q_ = 0; (i = report_cell_run(r, ci, q_)) >= 0; q_++) {
		const struct report_series *s;
		if (r->runs[i].cell != ci || !r->runs[i].ok)
			continue;
		s = report_run_series(&r->runs[i], NULL,
				      SERIES_ENGINE_THROUGHPUT);
		if (!s || s->n < 1)
			continue;
		runs++;
		for (k = 0; k < s->n; k++) {
			*t0 = fmin(*t0, s->t[k]);
			*t1 = fmax(*t1, s->t[k]);
			*vmax = fmax(*vmax, s->v[k]);
		}
	}
	return runs;
}

/* The CPU strip of the busiest cores under the plot, from top: a line
 * per run and (host, core), clipped to the plot's time axis (the
 * sampler's lead-in before the engine starts, t < 0, is not drawn left
 * of the axis). */
static int cpu_strip(struct chart_fig *f, const struct report *r, int ci,
		     const struct chart_axis *x, double top,
		     const struct hcore *hc, int nc)
{
	struct chart_axis y = {0};
	char name[32];
	int i, c;
	chart_axis_fit(&y, 0, 100, 1);
	y.step = 50, y.dec = 0;
	y.p0 = top + STRIP_H, y.p1 = top;
	if (chart_fig_yaxis(f, &y, x->p0, x->p1, FONT) < 0 ||
	    chart_fig_line(f, CHART_INK, 0.6, x->p0, y.p0, x->p1, y.p0) < 0)
		return -XR_ENOMEM;
	for (c = 0; c < nc; c++) {
		snprintf(name, sizeof name, SERIES_CPU_CORE_BUSY, hc[c].core);
		for (int q_ = 0; (i = report_cell_run(r, ci, q_)) >= 0; q_++) {
			const struct report_series *s;
			if (r->runs[i].cell != ci || !r->runs[i].ok)
				continue;
			s = report_run_series(&r->runs[i], hc[c].host, name);
			if (s &&
			    chart_series_line(f, s, x, &y, 1, 10 + c, 0.7) < 0)
				return -XR_ENOMEM;
		}
	}
	return 0;
}

/* The strip's key, a swatch of each line's colour and its host and core
 * ("server: cpu 1 busy %"), in rows across the width from *y. */
static int cpu_key(struct chart_fig *f, const struct hcore *hc, int nc,
		   double x0, double x1, double *y, int ja)
{
	double x = x0;
	int c;
	for (c = 0; c < nc; c++) {
		const char *host = hc[c].host && *hc[c].host ? hc[c].host : "?";
		const char *s = arena_printf(
		    f->a, ja ? "%s: CPU %d 使用率 %%" : "%s: cpu %d busy %%",
		    host, hc[c].core);
		double w =
		    s ? 9 + chart_text_estimate(s, strlen(s), FONT) + 12 : 0;
		struct chart_op *o;
		if (!s)
			return -XR_ENOMEM;
		if (x > x0 && x + w > x1)
			x = x0, *y += FONT * 1.6;
		if (!(o = chart_fig_op(f, CHART_OP_RECT, 10 + c)))
			return -XR_ENOMEM;
		o->x = x, o->y = *y - 6, o->w = 6, o->h = 6, o->fill = 1;
		if (text(f, x + 9, *y, -1, s) < 0)
			return -XR_ENOMEM;
		x += w;
	}
	*y += FONT * 1.6;
	return 0;
}

/* A red tick at the top of the plot for every increase of a drop or
 * PAUSE series. */
static int marks(struct chart_fig *f, const struct report *r, int ci,
		 const struct chart_axis *x, double top)
{
	int i, k, d;
	for (int q_ = 0; (i = report_cell_run(r, ci, q_)) >= 0; q_++) {
		const struct report_run *u = &r->runs[i];
		if (u->cell != ci || !u->ok)
			continue;
		for (k = 0; k < u->nseries; k++)
			for (d = 0;
			     is_mark(u->series[k].name) && d < u->series[k].n;
			     d++)
				if (u->series[k].v[d] > 0 &&
				    u->series[k].t[d] >= x->lo &&
				    u->series[k].t[d] <= x->hi &&
				    chart_fig_line(
					f, CHART_MARK, CHART_MARK_WIDTH,
					chart_axis_pos(x, u->series[k].t[d]),
					top,
					chart_axis_pos(x, u->series[k].t[d]),
					top + 6) < 0)
					return -XR_ENOMEM;
	}
	return 0;
}

/* A swatch and "rep N" for each ok run, in rows across the width. */
static int run_legend(struct chart_fig *f, const struct report *r, int ci,
		      double x0, double x1, double *y)
{
	double x = x0;
	int i, k = 0;
	char s[32];
	for (int q_ = 0; (i = report_cell_run(r, ci, q_)) >= 0; q_++) {
		const struct report_run *u = &r->runs[i];
		struct chart_op *o;
		if (u->cell != ci || !u->ok ||
		    !report_run_series(u, NULL, SERIES_ENGINE_THROUGHPUT))
			continue;
		snprintf(s, sizeof s, "#%d", u->rep);
		if (x + 34 > x1)
			x = x0, *y += FONT * 1.6;
		if (!(o = chart_fig_op(f, CHART_OP_RECT, k)))
			return -XR_ENOMEM;
		o->x = x, o->y = *y - 6, o->w = 6, o->h = 6, o->fill = 1;
		if (text(f, x + 9, *y, -1, s) < 0)
			return -XR_ENOMEM;
		x += 34;
		k++;
	}
	return 0;
}

int chart_timeseries(const struct report *r, int ci, double width,
		     struct arena *a, struct chart_fig *f)
{
	const struct report_cell *c = &r->cells[ci];
	int ja = r->about.lang == REPORT_LANG_JA, i, k = 0, nc;
	struct chart_axis x = {0}, y = {0};
	double t0, t1, vmax, scale, top = FONT * 1.6, yb;
	const char *unit;
	struct hcore hc[MAX_CORES];

	memset(f, 0, sizeof *f);
	f->a = a;
	f->kind = "timeseries";
	if (!ts_extent(r, ci, &t0, &t1, &vmax))
		return 0;
	scale = chart_rate_scale(r, vmax, &unit);
	f->title =
	    arena_printf(a,
			 ja ? "%s: 時間ごとのスループット（各回を重ねて表示）"
			    : "%s: throughput over time, every run overlaid",
			 c->label ? c->label : "");
	chart_axis_fit(&x, t0, t1, 1);
	chart_axis_fit(&y, 0, vmax / scale, 1);
	x.p0 = LEFT, x.p1 = width - 6;
	y.p0 = top + PLOT_H, y.p1 = top;
	if (!f->title || text(f, 0, FONT, -1, unit) < 0 ||
	    chart_fig_yaxis(f, &y, x.p0, x.p1, FONT) < 0)
		return -XR_ENOMEM;
	for (int q_ = 0; (i = report_cell_run(r, ci, q_)) >= 0; q_++) {
		const struct report_series *s;
		if (r->runs[i].cell != ci || !r->runs[i].ok)
			continue;
		s = report_run_series(&r->runs[i], NULL,
				      SERIES_ENGINE_THROUGHPUT);
		if (s && chart_series_line(f, s, &x, &y, scale, k++, 1.0) < 0)
			return -XR_ENOMEM;
	}
	if (marks(f, r, ci, &x, top) < 0)
		return -XR_ENOMEM;
	nc = busiest(r, ci, hc);
	yb = y.p0;
	if (nc) {
		if (cpu_strip(f, r, ci, &x, yb + 8, hc, nc) < 0)
			return -XR_ENOMEM;
		yb += 8 + STRIP_H;
	}
	if (chart_fig_xaxis(f, &x, yb, FONT,
			    ja ? "エンジン開始からの秒数"
			       : "seconds from the engine's "
				 "start") < 0)
		return -XR_ENOMEM;
	yb += 5 + 2 * FONT + FONT * 2;
	if (nc && cpu_key(f, hc, nc, x.p0, x.p1, &yb, ja) < 0)
		return -XR_ENOMEM;
	if (run_legend(f, r, ci, x.p0, x.p1, &yb) < 0)
		return -XR_ENOMEM;
	f->w = width;
	f->h = yb + 4;
	return 0;
}

/* --- the distribution of a table's runs --------------------------------- */

static int cmp_d(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

/* Quantile q of n sorted values, linearly interpolated (R's type 7). */
static double quantile(const double *v, int n, double q)
{
	double h = (n - 1) * q;
	int lo = (int)floor(h);
	if (lo >= n - 1)
		return v[n - 1];
	return v[lo] + (h - lo) * (v[lo + 1] - v[lo]);
}

/* Cell ci's ok values of metric mi, sorted, divided by scale. */
static int cell_values(const struct report *r, int ci, int mi, double scale,
		       double *out)
{
	const struct report_cell *c = &r->cells[ci];
	int k, n = 0;
	for (k = 0; c->vals && k < c->nvals; k++)
		if (isfinite(c->vals[mi][k]))
			out[n++] = c->vals[mi][k] / scale;
	qsort(out, (size_t)n, sizeof *out, cmp_d);
	return n;
}

/* One box at centre cx, half width hw: quartiles, median, whiskers, and
 * every value as a dot spread across the box. */
static int box(struct chart_fig *f, const struct chart_axis *y, double cx,
	       double hw, const double *v, int n, int colour)
{
	double q1 = quantile(v, n, 0.25), q3 = quantile(v, n, 0.75);
	double med = quantile(v, n, 0.5);
	struct chart_op *o = chart_fig_op(f, CHART_OP_RECT, colour);
	int k;
	if (!o)
		return -XR_ENOMEM;
	o->x = cx - hw, o->y = chart_axis_pos(y, q3), o->w = 2 * hw;
	o->h = chart_axis_pos(y, q1) - chart_axis_pos(y, q3);
	o->fill = 0, o->width = 1.0;
	if (chart_fig_line(f, CHART_INK, 0.7, cx, chart_axis_pos(y, v[0]), cx,
			   chart_axis_pos(y, q1)) < 0 ||
	    chart_fig_line(f, CHART_INK, 0.7, cx, chart_axis_pos(y, q3), cx,
			   chart_axis_pos(y, v[n - 1])) < 0 ||
	    chart_fig_line(f, CHART_INK, 0.7, cx - hw / 2,
			   chart_axis_pos(y, v[0]), cx + hw / 2,
			   chart_axis_pos(y, v[0])) < 0 ||
	    chart_fig_line(f, CHART_INK, 0.7, cx - hw / 2,
			   chart_axis_pos(y, v[n - 1]), cx + hw / 2,
			   chart_axis_pos(y, v[n - 1])) < 0 ||
	    chart_fig_line(f, CHART_INK, 1.6, cx - hw, chart_axis_pos(y, med),
			   cx + hw, chart_axis_pos(y, med)) < 0)
		return -XR_ENOMEM;
	for (k = 0; k < n; k++) {
		/* spread over the box so that equal values stay apart */
		double dx = n > 1 ? (k % 5 - 2) * hw * 0.35 : 0;
		if (!(o = chart_fig_op(f, CHART_OP_DOT, colour)))
			return -XR_ENOMEM;
		o->x = cx + dx, o->y = chart_axis_pos(y, v[k]), o->w = 2.0,
		o->fill = 1;
	}
	return 0;
}

int chart_box(const struct report *r, int ti, int no, const char *caption,
	      double width, struct arena *a, struct chart_fig *f)
{
	const struct report_table *tb = &r->tables[ti];
	int mi = tb->metric_index, ncell = tb->nrows * tb->ncols, i, g = 0, n;
	int ja = r->about.lang == REPORT_LANG_JA, maxv = 1;
	double lo = INFINITY, hi = -INFINITY, scale = 1, gw, top = FONT * 1.6;
	double *v;
	struct chart_axis y = {0};
	const char *unit = "";

	memset(f, 0, sizeof *f);
	f->a = a;
	f->kind = "box";
	for (i = 0; i < r->ncells; i++)
		maxv = r->cells[i].nvals > maxv ? r->cells[i].nvals : maxv;
	if (!(v = arena_alloc(a, (size_t)maxv * sizeof *v)))
		return -XR_ENOMEM;
	if (r->met.metric_units) {
		scale = report_metric_scale(r, mi, &unit);
		unit = report_unit_label(unit);
	}
	for (i = 0; i < ncell; i++)
		if (tb->cell[i] >= 0 &&
		    (n = cell_values(r, tb->cell[i], mi, scale, v)) > 0) {
			lo = fmin(lo, v[0]);
			hi = fmax(hi, v[n - 1]);
			g++;
		}
	if (!g)
		return 0;
	if (g > CHART_MAX_CELLS) {
		f->title = arena_printf(
		    a, ja ? "図 %d の分布. %s" : "Figure %d, distribution. %s",
		    no, caption ? caption : "");
		f->w = width;
		f->h = FONT * 2;
		return f->title ? text(f, 0, FONT * 1.4, -1,
				       chart_left_out(a, (size_t)g, ja))
				: -XR_ENOMEM;
	}
	f->title = arena_printf(
	    a,
	    ja ? "図 %d の分布. %s（箱 = 四分位、太線 = 中央値、ひげ = "
		 "最小–最大、点 = 各回）"
	       : "Figure %d, distribution. %s (box = quartiles, bold line = "
		 "median, whiskers = min–max, dots = runs)",
	    no, caption ? caption : "");
	if (width < LEFT + 10 + g * 26)
		width = LEFT + 10 + g * 26;
	chart_axis_fit(&y, lo - (hi - lo) * 0.05, hi + (hi - lo) * 0.05, 0);
	y.p0 = top + BOX_H, y.p1 = top;
	gw = (width - LEFT - 6) / g;
	if (!f->title || text(f, 0, FONT, -1, unit && *unit ? unit : "") < 0 ||
	    chart_fig_yaxis(f, &y, LEFT, width - 6, FONT) < 0 ||
	    chart_fig_line(f, CHART_INK, 0.6, LEFT, y.p0, width - 6, y.p0) < 0)
		return -XR_ENOMEM;
	for (i = 0, g = 0; i < ncell; i++) {
		double cx = LEFT + gw * (g + 0.5);
		const char *rl = tb->row_label[i / tb->ncols];
		const char *cl = tb->col_label[i % tb->ncols];
		if (tb->cell[i] < 0 ||
		    (n = cell_values(r, tb->cell[i], mi, scale, v)) < 1)
			continue;
		if (box(f, &y, cx, fmin(gw * 0.3, 14), v, n, i % tb->ncols) <
			0 ||
		    text(f, cx, y.p0 + 4 + FONT, 0, tb->nrows > 1 ? rl : cl) <
			0 ||
		    (tb->nrows > 1 && tb->ncols > 1 &&
		     text(f, cx, y.p0 + 4 + 2.2 * FONT, 0, cl) < 0))
			return -XR_ENOMEM;
		g++;
	}
	f->w = width;
	f->h = y.p0 + 8 + 2.2 * FONT + 4;
	return 0;
}
