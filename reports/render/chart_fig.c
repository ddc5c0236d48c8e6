/*
 * The shapes of a chart_fig (chart_fig.h): lines, texts and axes in
 * points, y growing down, as chart_runs.c and chart_cmp.c lay out their
 * figures, and the one estimate of text width used where the viewer
 * picks the font (SVG) or where a figure is laid out before any format
 * measures it.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "chart_fig.h"
#include "format.h"
#include "utf8.h"
#include "xr_err.h"

#include "banned.h"

struct chart_op *chart_fig_op(struct chart_fig *f, enum chart_op_kind k,
			      int colour)
{
	struct chart_op *o;
	if (f->nops == f->cap) {
		int cap = f->cap ? 2 * f->cap : 64;
		struct chart_op *n = arena_alloc(f->a, (size_t)cap * sizeof *n);
		if (!n)
			return NULL;
		if (f->nops)
			memcpy(n, f->ops, (size_t)f->nops * sizeof *n);
		f->ops = n;
		f->cap = cap;
	}
	o = &f->ops[f->nops++];
	memset(o, 0, sizeof *o);
	o->kind = k;
	o->colour = colour;
	o->width = 0.6;
	return o;
}

int chart_fig_line(struct chart_fig *f, int colour, double w, double x0,
		   double y0, double x1, double y1)
{
	double *p = arena_alloc(f->a, 4 * sizeof *p);
	struct chart_op *o = p ? chart_fig_op(f, CHART_OP_PATH, colour) : NULL;
	if (!o)
		return -XR_ENOMEM;
	p[0] = x0, p[1] = x1, p[2] = y0, p[3] = y1;
	o->px = p;
	o->py = p + 2;
	o->n = 2;
	o->width = w;
	return 0;
}

int chart_fig_text(struct chart_fig *f, double x, double y, int anchor,
		   double size, const char *s)
{
	struct chart_op *o = chart_fig_op(f, CHART_OP_TEXT, CHART_INK);
	if (!o || !(o->text = arena_strdup(f->a, s ? s : "")))
		return -XR_ENOMEM;
	o->x = x;
	o->y = y;
	o->size = size;
	o->anchor = anchor;
	return 0;
}

void chart_axis_fit(struct chart_axis *ax, double lo, double hi, int from0)
{
	if (from0 && lo > 0)
		lo = 0;
	if (!(hi > lo)) {
		double d = fabs(hi) > 0 ? fabs(hi) * 0.05 : 1;
		lo -= d;
		hi += d;
	}
	ax->step = chart_nice_step(hi - lo, &ax->dec);
	ax->lo = floor(lo / ax->step + 1e-9) * ax->step;
	ax->hi = ceil(hi / ax->step - 1e-9) * ax->step;
}

double chart_axis_pos(const struct chart_axis *ax, double v)
{
	return ax->p0 + (v - ax->lo) / (ax->hi - ax->lo) * (ax->p1 - ax->p0);
}

/* Tick label of v: no "-0". */
static void tick(const struct chart_axis *ax, double v, char *s, size_t n)
{
	snprintf(s, n, "%.*f", ax->dec, fabs(v) < ax->step / 1e6 ? 0 : v);
}

int chart_fig_yaxis(struct chart_fig *f, const struct chart_axis *ax, double x0,
		    double x1, double size)
{
	double v;
	char s[32];
	for (v = ax->lo; v <= ax->hi + ax->step / 2; v += ax->step) {
		double y = chart_axis_pos(ax, v);
		tick(ax, v, s, sizeof s);
		if (chart_fig_line(f, CHART_GRID, 0.4, x0, y, x1, y) < 0 ||
		    chart_fig_text(f, x0 - 4, y + size * 0.33, 1, size, s) < 0)
			return -XR_ENOMEM;
	}
	return chart_fig_line(f, CHART_INK, 0.6, x0, ax->p0, x0, ax->p1);
}

int chart_fig_xaxis(struct chart_fig *f, const struct chart_axis *x, double y,
		    double size, const char *label)
{
	double v;
	char s[32];
	if (chart_fig_line(f, CHART_INK, 0.6, x->p0, y, x->p1, y) < 0)
		return -XR_ENOMEM;
	for (v = x->lo; v <= x->hi + x->step / 2; v += x->step) {
		double px = chart_axis_pos(x, v);
		tick(x, v, s, sizeof s);
		if (chart_fig_line(f, CHART_INK, 0.6, px, y, px, y + 3) < 0 ||
		    chart_fig_text(f, px, y + 3 + size, 0, size, s) < 0)
			return -XR_ENOMEM;
	}
	return label ? chart_fig_text(f, (x->p0 + x->p1) / 2, y + 5 + 2 * size,
				      0, size, label)
		     : 0;
}

int chart_wide(uint32_t cp)
{
	return (cp >= 0x1100 && cp <= 0x115F) ||
	       (cp >= 0x2E80 && cp <= 0xA4CF) ||
	       (cp >= 0xAC00 && cp <= 0xD7A3) ||
	       (cp >= 0xF900 && cp <= 0xFAFF) ||
	       (cp >= 0xFE30 && cp <= 0xFE4F) ||
	       (cp >= 0xFF00 && cp <= 0xFF60) ||
	       (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x20000);
}

double chart_em(uint32_t cp)
{
	if (chart_wide(cp))
		return 1.0;
	if (cp == ' ')
		return 0.32;
	if (cp < 128 && strchr("iIl.,:;'|!()[]{}/\\-", (int)cp))
		return 0.36;
	if (cp == 'm' || cp == 'w' || cp == 'M' || cp == 'W')
		return 0.9;
	if (cp >= 'A' && cp <= 'Z')
		return 0.7;
	return 0.6;
}

double chart_text_estimate(const char *s, size_t len, double size)
{
	double w = 0;
	size_t i = 0;
	while (s && i < len && s[i]) {
		uint32_t cp;
		i += utf8_next(s + i, len - i, &cp);
		w += chart_em(cp);
	}
	return w * size;
}

double chart_rate_scale(const struct report *r, double vmax, const char **unit)
{
	static const struct {
		double f;
		const char *u;
	} si[] = {{1e9, "Gbit/s"}, {1e6, "Mbit/s"}, {1e3, "kbit/s"}};
	size_t i;
	if (r->met.display_unit && r->met.display_scale > 0 &&
	    r->met.metric_units &&
	    !strcmp(r->met.metric_units[r->met.primary], "bit/s")) {
		*unit = report_unit_label(r->met.display_unit);
		return r->met.display_scale;
	}
	for (i = 0; i < sizeof si / sizeof *si; i++)
		if (vmax >= si[i].f) {
			*unit = si[i].u;
			return si[i].f;
		}
	*unit = "bit/s";
	return 1;
}

/* Where the segment from (t0, v0) to (t1, v1) crosses time t. */
static double cross(double t0, double v0, double t1, double v1, double t)
{
	return t1 == t0 ? v1 : v0 + (v1 - v0) * (t - t0) / (t1 - t0);
}

int chart_series_line(struct chart_fig *f, const struct report_series *s,
		      const struct chart_axis *x, const struct chart_axis *y,
		      double scale, int colour, double width)
{
	/* room for every point and the two where the line meets the axis
	 * range's ends */
	double *p = arena_alloc(f->a, 2 * ((size_t)s->n + 3) * sizeof *p);
	double *py = p ? p + s->n + 2 : NULL, lo = fmin(x->lo, x->hi);
	double hi = fmax(x->lo, x->hi), ylo = fmin(y->lo, y->hi);
	double yhi = fmax(y->lo, y->hi);
	struct chart_op *o;
	int i, n = 0;
	if (!p)
		return -XR_ENOMEM;
	/* Nothing outside the plot: points before or after the time axis
	 * (a sampler's lead-in at t < 0) are cut where the line crosses
	 * its ends; values are held inside the value axis. */
	for (i = 0; i < s->n; i++) {
		double t = s->t[i], v = s->v[i] / scale;
		if (i > 0 && s->t[i - 1] < lo && t > lo) {
			p[n] = lo;
			py[n++] =
			    cross(s->t[i - 1], s->v[i - 1] / scale, t, v, lo);
		}
		if (t >= lo && t <= hi) {
			p[n] = t;
			py[n++] = v;
		}
		if (i > 0 && s->t[i - 1] < hi && t > hi) {
			p[n] = hi;
			py[n++] =
			    cross(s->t[i - 1], s->v[i - 1] / scale, t, v, hi);
		}
	}
	if (!n)
		return 0;
	for (i = 0; i < n; i++) {
		p[i] = chart_axis_pos(x, p[i]);
		py[i] = chart_axis_pos(y, fmin(fmax(py[i], ylo), yhi));
	}
	if (n == 1) { /* one interval: a dot */
		o = chart_fig_op(f, CHART_OP_DOT, colour);
		if (!o)
			return -XR_ENOMEM;
		o->x = p[0], o->y = py[0], o->w = 1.6, o->fill = 1;
		return 0;
	}
	if (!(o = chart_fig_op(f, CHART_OP_PATH, colour)))
		return -XR_ENOMEM;
	o->px = p;
	o->py = py;
	o->n = n;
	o->width = width;
	return 0;
}
