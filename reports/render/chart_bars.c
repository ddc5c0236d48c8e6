/*
 * The bar chart as shapes (chart.h, chart_bars_fig): chart.c's geometry
 * (the y axis in nice ticks, bars, whiskers, published markers, values on
 * the bars, wrapped group labels, the legend after its title, the note)
 * turned into the chart_fig list that svg_chart.c and pdf_chart.c draw
 * like every other figure, so no drawer has axis or bar code of its own.
 * Text is measured and wrapped by the format's chart_text: the PDF's
 * font metrics, the SVG's estimate.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "chart.h"
#include "chart_fig.h"
#include "xr_err.h"

#include "banned.h"

#define ASCENT 0.88 /* baseline below a line's top, in sizes */
#define MAX_LINES 8
#define SWATCH 7.0

/* Text wrapped into width, its first line's top at y; returns the
 * height used, or -1 when out of memory. */
static double wrapped(struct chart_fig *f, const struct chart_text *tx,
		      double x, double y, int anchor, double size, double width,
		      const char *s)
{
	const char *start[MAX_LINES];
	size_t len[MAX_LINES];
	int i, n = tx->wrap(tx->ctx, s, size, width, start, len, MAX_LINES);
	for (i = 0; i < n; i++) {
		char *line = arena_strndup(f->a, start[i], len[i]);
		if (!line || chart_fig_text(f, x, y + size * (ASCENT + 1.2 * i),
					    anchor, size, line) < 0)
			return -1;
	}
	return n * size * 1.2;
}

/* A rectangle filled with colour and outlined in ink. */
static int swatch(struct chart_fig *f, int colour, double x, double y, double w,
		  double h)
{
	struct chart_op *o = chart_fig_op(f, CHART_OP_RECT, colour);
	if (!o)
		return -XR_ENOMEM;
	o->x = x, o->y = y, o->w = w, o->h = h, o->fill = 1, o->width = 0;
	if (!(o = chart_fig_op(f, CHART_OP_RECT, CHART_INK)))
		return -XR_ENOMEM;
	o->x = x, o->y = y, o->w = w, o->h = h, o->width = 0.4;
	return 0;
}

/* Grid lines, ticks with their labels, the axis and the baseline. */
static int axes(struct chart_fig *f, const struct chart_style *st,
		const struct chart_frame *fr)
{
	char tick[64];
	int i;
	for (i = 0; i < fr->nticks; i++) {
		double v = chart_tick(fr, i), y = chart_ypos(fr, v);
		if ((v != 0 && chart_fig_line(f, CHART_GRID, 0.4, fr->px0, y,
					      fr->px1, y) < 0) ||
		    chart_fig_line(f, CHART_INK, 0.6, fr->px0 - 3, y, fr->px0,
				   y) < 0 ||
		    chart_fig_text(
			f, fr->px0 - 5, y + st->tick * 0.33, 1, st->tick,
			chart_tick_label(fr, i, tick, sizeof tick)) < 0)
			return -XR_ENOMEM;
	}
	if (chart_fig_line(f, CHART_INK, 0.6, fr->px0, fr->py0, fr->px0,
			   fr->py1) < 0 ||
	    chart_fig_line(f, CHART_INK, 0.6, fr->px0, chart_ypos(fr, 0),
			   fr->px1, chart_ypos(fr, 0)) < 0)
		return -XR_ENOMEM;
	return 0;
}

/* One bar: its rectangle, whisker, published marker and value. */
static int bar(struct chart_fig *f, const struct chart *c,
	       const struct chart_style *st, const struct chart_text *tx,
	       const struct chart_frame *fr, int g, int s)
{
	struct chart_bar b;
	char val[32];
	double size;
	chart_bar_at(c, fr, g, s, &b);
	if (b.has_bar &&
	    swatch(f, s, b.x, fmin(b.y0, b.y1), b.w, fabs(b.y1 - b.y0)) < 0)
		return -XR_ENOMEM;
	if (b.has_whisker &&
	    (chart_fig_line(f, CHART_INK, 0.7, b.cx, b.ylo, b.cx, b.yhi) < 0 ||
	     chart_fig_line(f, CHART_INK, 0.7, b.cx - b.cap, b.ylo,
			    b.cx + b.cap, b.ylo) < 0 ||
	     chart_fig_line(f, CHART_INK, 0.7, b.cx - b.cap, b.yhi,
			    b.cx + b.cap, b.yhi) < 0))
		return -XR_ENOMEM;
	if (b.has_ref &&
	    chart_fig_line(f, CHART_MARK, CHART_MARK_WIDTH, b.cx - b.refw,
			   b.yref, b.cx + b.refw, b.yref) < 0)
		return -XR_ENOMEM;
	/* a clear gap above the whisker's cap: a label resting on the cap
	 * read as part of it */
	if (chart_bar_label(c, st, tx, fr, g, s, val, sizeof val, &size) &&
	    chart_fig_text(f, b.cx, b.ytop - CHART_LABEL_GAP, 0, size, val) < 0)
		return -XR_ENOMEM;
	return 0;
}

/* The legend from top: its title in bold, then a swatch and name per
 * series; returns its height, or -1. */
static double legend(struct chart_fig *f, const struct chart *c,
		     const struct chart_style *st, const struct chart_text *tx,
		     const struct chart_frame *fr, double top)
{
	struct chart_legend_item *it =
	    arena_alloc(f->a, (size_t)c->nseries * sizeof *it);
	double rowh = st->label * 1.6;
	int i, n, rows;
	if (!it)
		return -1;
	rows =
	    chart_legend(c, st, tx, fr->px0, fr->px1 - fr->px0, SWATCH, it, &n);
	if (rows && c->legend_title) {
		const char *t = arena_printf(f->a, "%s:", c->legend_title);
		if (!t || chart_fig_text(f, fr->px0, top + SWATCH - 0.5, -1,
					 st->label, t) < 0)
			return -1;
		f->ops[f->nops - 1].bold = 1;
	}
	for (i = 0; i < n; i++) {
		double y = top + it[i].row * rowh;
		if (swatch(f, it[i].series, it[i].x, y, SWATCH, SWATCH) < 0 ||
		    chart_fig_text(f, it[i].x + SWATCH + 3, y + SWATCH - 0.5,
				   -1, st->label, it[i].text) < 0)
			return -1;
	}
	return rows * rowh;
}

int chart_bars_fig(const struct chart *c, const struct chart_style *st,
		   const struct chart_text *tx, double width, struct arena *a,
		   struct chart_fig *f)
{
	struct chart_frame fr;
	double y, h;
	int g, s;

	memset(f, 0, sizeof *f);
	f->a = a;
	f->kind = "bar";
	f->title = c->title;
	if (c->left_out) { /* one line says why */
		f->w = width;
		f->h = st->tick * 2;
		return chart_fig_text(f, 0, st->tick * 1.4, -1, st->tick,
				      c->left_out);
	}
	if (c->ngroups < 1 || c->nseries < 1)
		return 0;
	chart_layout(c, st, tx, 0, width, &fr);
	fr.py1 = st->tick * 1.6 + st->tick / 2;
	fr.py0 = fr.py1 + (c->height > 0 ? c->height : 180);
	/* the unit sits above the axis, read horizontally */
	if ((c->ylabel && chart_fig_text(f, 0, st->tick * ASCENT, -1, st->tick,
					 c->ylabel) < 0) ||
	    axes(f, st, &fr) < 0)
		return -XR_ENOMEM;
	for (g = 0; g < c->ngroups; g++) {
		for (s = 0; s < c->nseries; s++)
			if (bar(f, c, st, tx, &fr, g, s) < 0)
				return -XR_ENOMEM;
		if (wrapped(f, tx, chart_group_x(&fr, g), fr.py0 + 4, 0,
			    st->label, fr.gw - 2,
			    c->groups[g] ? c->groups[g] : "") < 0)
			return -XR_ENOMEM;
	}
	y = fr.py0 + fr.maxl * st->label * 1.2 + 4;
	if (c->xlabel) {
		if (chart_fig_text(f, (fr.px0 + fr.px1) / 2, y + st->label, 0,
				   st->label, c->xlabel) < 0)
			return -XR_ENOMEM;
		y += st->label * 1.5;
	}
	if ((h = legend(f, c, st, tx, &fr, y + 4)) < 0)
		return -XR_ENOMEM;
	y += 4 + h;
	if (c->note && (h = wrapped(f, tx, fr.px0, y + 2, -1, st->tick,
				    fr.px1 - fr.px0, c->note)) < 0)
		return -XR_ENOMEM;
	f->w = fr.px1;
	f->h = y + (c->note ? h + 2 : 0) + 2;
	return 0;
}
