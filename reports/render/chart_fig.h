/*
 * Building a chart_fig (chart.h's list of shapes) out of lines, texts and
 * axes: the pieces the charts of the runs (chart_runs.c) and of the
 * comparisons (chart_cmp.c) share, and the one estimate of a text's width
 * that the SVG drawer and the figures use where the viewer picks the font.
 * Everything is allocated from the figure's arena.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_CHART_FIG_H
#define XR_CHART_FIG_H

#include <stddef.h>
#include <stdint.h>

#include "chart.h"

/* A new shape of kind k in colour (palette index or CHART_*), stroke 0.6;
 * NULL when out of memory. */
struct chart_op *chart_fig_op(struct chart_fig *f, enum chart_op_kind k,
			      int colour);
/* A straight line; 0 or -XR_ENOMEM. */
int chart_fig_line(struct chart_fig *f, int colour, double width, double x0,
		   double y0, double x1, double y1);
/* Text s (copied) with its baseline at (x, y); anchor -1 start, 0 middle,
 * 1 end. 0 or -XR_ENOMEM. */
int chart_fig_text(struct chart_fig *f, double x, double y, int anchor,
		   double size, const char *s);

/* An axis from lo to hi in nice ticks (chart_nice_step), drawn from p0
 * (lo) to p1 (hi). */
struct chart_axis {
	double lo, hi, step;
	int dec;
	double p0, p1;
};
/* Fit lo..hi (from 0 when from0 and lo > 0; a flat range widened). */
void chart_axis_fit(struct chart_axis *ax, double lo, double hi, int from0);
/* Position of v. */
double chart_axis_pos(const struct chart_axis *ax, double v);
/* Grid lines across [x0, x1], tick labels of size left of x0, and the
 * axis line. 0 or -XR_ENOMEM. */
int chart_fig_yaxis(struct chart_fig *f, const struct chart_axis *ax, double x0,
		    double x1, double size);
/* A horizontal axis at y with its ticks, their labels under it and label
 * (may be NULL) under them. 0 or -XR_ENOMEM. */
int chart_fig_xaxis(struct chart_fig *f, const struct chart_axis *x, double y,
		    double size, const char *label);

struct report;
/* The scale and label of a bit/s series: the report's display unit when
 * its metric is in bit/s, else the SI prefix that fits vmax. */
double chart_rate_scale(const struct report *r, double vmax, const char **unit);
/* Series s as a polyline on axes x and y (values divided by scale), a
 * dot when it has one point; width in points. Only what lies inside the
 * axes is drawn: the line is cut where it crosses the time axis's ends
 * and its values held inside the value axis. 0 or -XR_ENOMEM. */
struct report_series;
int chart_series_line(struct chart_fig *f, const struct report_series *s,
		      const struct chart_axis *x, const struct chart_axis *y,
		      double scale, int colour, double width);

/* Is cp a wide (CJK, full-width) character? */
int chart_wide(uint32_t cp);
/* Advance of cp in ems, a little above DejaVu Sans's (generous, so that
 * labels placed by it do not collide in any sans-serif font). */
double chart_em(uint32_t cp);
/* Width of len bytes of UTF-8 s (up to its NUL) at size, by chart_em. */
double chart_text_estimate(const char *s, size_t len, double size);

#endif
