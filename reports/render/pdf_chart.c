/*
 * PDF grouped bar charts: one group of bars per category, one bar per
 * series with min-max whiskers, a y axis with "nice" ticks, light grid
 * lines and the unit, category labels wrapped under their group, and a
 * legend. Drawn as one block that never breaks across pages.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pdf_int.h"

#include "banned.h"

#define TICK_SIZE 7.0
#define LABEL_SIZE 7.0
#define MAX_BAR 30.0
#define MIN_PLOT 220.0

/* Muted, print-friendly colours that stay distinct in greyscale order. */
static const double palette[][3] = {
    {0.27, 0.45, 0.69}, {0.87, 0.52, 0.32}, {0.33, 0.66, 0.41},
    {0.77, 0.31, 0.32}, {0.51, 0.45, 0.70}, {0.58, 0.47, 0.38},
    {0.85, 0.55, 0.76}, {0.55, 0.55, 0.55}, {0.80, 0.73, 0.45},
    {0.39, 0.71, 0.80}, {0.20, 0.30, 0.45}, {0.65, 0.80, 0.45},
    {0.55, 0.20, 0.35}, {0.95, 0.75, 0.35}, {0.30, 0.50, 0.50},
    {0.75, 0.65, 0.85},
};
#define NPALETTE (sizeof(palette) / sizeof(palette[0]))

static double at(const double *a, int i)
{
	return a ? a[i] : NAN;
}

/* A step of 1, 2, 2.5 or 5 times a power of ten giving about 5 ticks. */
static double nice_step(double span, int *decimals)
{
	double raw = span / 5, mag, norm, step;
	int d;

	if (!(raw > 0))
		raw = 0.2;
	mag = pow(10, floor(log10(raw)));
	norm = raw / mag;
	if (norm <= 1)
		step = 1;
	else if (norm <= 2)
		step = 2;
	else if (norm <= 2.5)
		step = 2.5;
	else if (norm <= 5)
		step = 5;
	else
		step = 10;
	d = (int)-floor(log10(mag * step) + 1e-9);
	if (step == 2.5)
		d++;
	*decimals = d < 0 ? 0 : d;
	return step * mag;
}

static void rect(struct pdf *pdf, double x, double y, double w, double h,
		 const double rgb[3], int stroke)
{
	HPDF_Page_SetRGBFill(pdf->page, (HPDF_REAL)rgb[0], (HPDF_REAL)rgb[1],
			     (HPDF_REAL)rgb[2]);
	/* Graphics state only outside a path: libharu enforces it. */
	HPDF_Page_SetLineWidth(pdf->page, 0.4);
	HPDF_Page_Rectangle(pdf->page, (HPDF_REAL)x, (HPDF_REAL)y, (HPDF_REAL)w,
			    (HPDF_REAL)h);
	if (stroke) {
		HPDF_Page_FillStroke(pdf->page);
	} else {
		HPDF_Page_Fill(pdf->page);
	}
	HPDF_Page_SetRGBFill(pdf->page, 0, 0, 0);
}

static void line(struct pdf *pdf, double x0, double y0, double x1, double y1,
		 double w)
{
	HPDF_Page_SetLineWidth(pdf->page, (HPDF_REAL)w);
	HPDF_Page_MoveTo(pdf->page, (HPDF_REAL)x0, (HPDF_REAL)y0);
	HPDF_Page_LineTo(pdf->page, (HPDF_REAL)x1, (HPDF_REAL)y1);
	HPDF_Page_Stroke(pdf->page);
}

static void text_c(struct pdf *pdf, double cx, double y, double size,
		   const char *s, size_t len)
{
	double w = pdf_measure_n(pdf, s, len, size);

	pdf_draw_text(pdf, cx - w / 2, y, size, s, len, 0);
}

/* Height of the legend when laid out in rows across width. */
static double legend_layout(struct pdf *pdf, const struct pdf_chart *c,
			    double x0, double width, int draw, double top)
{
	double x = x0, y = top, rowh = LABEL_SIZE * 1.6, sw = 7;
	int s;

	if (c->nseries < 2)
		return 0;
	for (s = 0; s < c->nseries; s++) {
		const char *lab = c->series[s] ? c->series[s] : "";
		double w = sw + 3 + pdf_measure(pdf, lab, LABEL_SIZE) + 12;

		if (x > x0 && x + w > x0 + width) {
			x = x0;
			y -= rowh;
		}
		if (draw) {
			rect(pdf, x, y - sw, sw, sw,
			     palette[(size_t)s % NPALETTE], 1);
			pdf_draw_text(pdf, x + sw + 3, y - sw + 0.5, LABEL_SIZE,
				      lab, strlen(lab), 0);
		}
		x += w;
	}
	return top - y + rowh;
}

/* Where a chart's plot goes and how its y axis is scaled. */
struct chart_frame {
	double px0, px1, py0, py1; /* the plot area */
	double ymin, ymax, step;   /* the axis, in ticks of step */
	int dec;		   /* decimals of the tick labels */
	double gw, bw;		   /* group and bar width */
	int maxl;		   /* lines of the longest group label */
};

static double ypos(const struct chart_frame *f, double v)
{
	return f->py0 + (v - f->ymin) / (f->ymax - f->ymin) * (f->py1 - f->py0);
}

/* The y range over values and whiskers, from 0, rounded to nice ticks. */
static void chart_yrange(const struct pdf_chart *c, struct chart_frame *f)
{
	int i, k;

	f->ymin = f->ymax = 0;
	for (i = 0; i < c->ngroups * c->nseries; i++) {
		double vals[4] = {at(c->value, i), at(c->lo, i), at(c->hi, i),
				  at(c->mark, i)};

		for (k = 0; k < 4; k++)
			if (isfinite(vals[k])) {
				f->ymax = fmax(f->ymax, vals[k]);
				f->ymin = fmin(f->ymin, vals[k]);
			}
	}
	if (f->ymax <= f->ymin)
		f->ymax = f->ymin + 1;
	f->step = nice_step(f->ymax - f->ymin, &f->dec);
	f->ymax = ceil(f->ymax / f->step - 1e-9) * f->step;
	f->ymin = floor(f->ymin / f->step + 1e-9) * f->step;
}

/* The plot's x extent (after the axis labels), group and bar widths, and
 * the lines the group labels need. */
static void chart_columns(struct pdf *pdf, const struct pdf_chart *c,
			  struct chart_frame *f, double x0, double width)
{
	double axis_w = 0, v;
	struct pdf_line *lines = NULL;
	char tick[64];
	int g, n, ng = c->ngroups, ns = c->nseries;

	for (v = f->ymin; v <= f->ymax + f->step / 2; v += f->step) {
		snprintf(tick, sizeof(tick), "%.*f", f->dec, v);
		axis_w = fmax(axis_w, pdf_measure(pdf, tick, TICK_SIZE));
	}
	axis_w += 6;
	if (c->ylabel)
		axis_w =
		    fmax(axis_w, pdf_measure(pdf, c->ylabel, TICK_SIZE) / 2);
	f->px0 = x0 + axis_w + 2;
	f->px1 = x0 + width;
	f->gw = (f->px1 - f->px0) / ng;
	f->bw = f->gw * 0.78 / ns;
	/* Few bars: narrower plot rather than slabs. */
	if (f->bw > MAX_BAR) {
		f->bw = MAX_BAR;
		f->gw = f->bw * ns / 0.78;
		f->px1 = fmax(f->px0 + f->gw * ng, f->px0 + MIN_PLOT);
		f->gw = (f->px1 - f->px0) / ng;
	}
	f->maxl = 1;
	for (g = 0; g < ng; g++) {
		n = pdf_wrap(pdf, c->groups[g] ? c->groups[g] : "", LABEL_SIZE,
			     f->gw - 2, &lines);
		free(lines);
		lines = NULL;
		if (n > f->maxl)
			f->maxl = n;
	}
}

/* Grid, ticks with their labels, and the axes. */
static void chart_axes(struct pdf *pdf, const struct chart_frame *f)
{
	char tick[64];
	double v;

	HPDF_Page_SetGrayStroke(pdf->page, 0.85);
	for (v = f->ymin; v <= f->ymax + f->step / 2; v += f->step)
		if (fabs(v) > f->step / 1e6)
			line(pdf, f->px0, ypos(f, v), f->px1, ypos(f, v), 0.4);
	HPDF_Page_SetGrayStroke(pdf->page, 0);
	for (v = f->ymin; v <= f->ymax + f->step / 2; v += f->step) {
		double w;

		snprintf(tick, sizeof(tick), "%.*f", f->dec,
			 fabs(v) < f->step / 1e6 ? 0.0 : v);
		w = pdf_measure(pdf, tick, TICK_SIZE);
		line(pdf, f->px0 - 3, ypos(f, v), f->px0, ypos(f, v), 0.5);
		pdf_draw_text(pdf, f->px0 - 5 - w,
			      ypos(f, v) - TICK_SIZE * 0.33, TICK_SIZE, tick,
			      strlen(tick), 0);
	}
	line(pdf, f->px0, f->py0, f->px0, f->py1, 0.6);
	line(pdf, f->px0, ypos(f, 0), f->px1, ypos(f, 0), 0.6);
}

/* Group g's bars, then whiskers on top so they stay visible, then its
 * label under the axis. */
static void chart_group(struct pdf *pdf, const struct pdf_chart *c,
			const struct chart_frame *f, int g)
{
	int ns = c->nseries, s, i, n;
	double gx = f->px0 + g * f->gw + (f->gw - f->bw * ns) / 2, bw = f->bw;
	struct pdf_line *lines = NULL;

	for (s = 0; s < ns; s++) {
		int k = g * ns + s;
		double val = at(c->value, k), bx = gx + s * bw;
		double lo = at(c->lo, k), hi = at(c->hi, k);
		double cx = bx + bw / 2;

		if (isfinite(val)) {
			double y0 = ypos(f, 0), y1 = ypos(f, val);

			rect(pdf, bx + bw * 0.06, fmin(y0, y1), bw * 0.88,
			     fabs(y1 - y0), palette[(size_t)s % NPALETTE], 1);
		}
		if (isfinite(lo) && isfinite(hi) && hi > lo) {
			double cap = fmin(bw * 0.25, 4);

			line(pdf, cx, ypos(f, lo), cx, ypos(f, hi), 0.7);
			line(pdf, cx - cap, ypos(f, lo), cx + cap, ypos(f, lo),
			     0.7);
			line(pdf, cx - cap, ypos(f, hi), cx + cap, ypos(f, hi),
			     0.7);
		}
		if (isfinite(at(c->mark, k))) {
			/* the published value: a dark bar across the bar */
			double y = ypos(f, at(c->mark, k));
			HPDF_Page_SetRGBStroke(pdf->page, 0.55, 0.05, 0.05);
			line(pdf, bx, y, bx + bw, y, 2.0);
			HPDF_Page_SetGrayStroke(pdf->page, 0);
		}
	}
	n = pdf_wrap(pdf, c->groups[g] ? c->groups[g] : "", LABEL_SIZE,
		     f->gw - 2, &lines);
	for (i = 0; i < n; i++)
		text_c(pdf, f->px0 + g * f->gw + f->gw / 2,
		       f->py0 - 4 - LABEL_SIZE * (PDF_ASCENT + 1.2 * i),
		       LABEL_SIZE, lines[i].s, lines[i].len);
	free(lines);
}

int pdf_chart_bars(struct pdf *pdf, const struct pdf_chart *c,
		   struct xr_err *err)
{
	double plot_h = c->height > 0 ? c->height : 180;
	double x0, title_h, xlab_h, leg_h, total;
	struct chart_frame f;
	int g, rc = pdf_ensure_page(pdf, err);

	if (rc < 0)
		return rc;
	if (c->ngroups < 1 || c->nseries < 1)
		return 0;
	x0 = pdf->ml;
	chart_yrange(c, &f);
	chart_columns(pdf, c, &f, x0, pdf_text_width(pdf));
	xlab_h = f.maxl * LABEL_SIZE * 1.2 + 4;
	if (c->xlabel)
		xlab_h += LABEL_SIZE * 1.5;
	title_h = c->title ? 9.5 * 1.5 : 0;
	leg_h = legend_layout(pdf, c, f.px0, f.px1 - f.px0, 0, 0);
	total = title_h + TICK_SIZE * 1.6 + plot_h + xlab_h + leg_h + 10;
	rc = pdf_need(pdf, total, err);
	if (rc < 0)
		return rc;

	if (c->title) {
		pdf_draw_text(pdf, x0, pdf->y - 9.5 * PDF_ASCENT, 9.5, c->title,
			      strlen(c->title), 1);
		pdf->y -= title_h;
	}
	/* The unit sits above the axis, read horizontally. */
	if (c->ylabel)
		pdf_draw_text(pdf, x0, pdf->y - TICK_SIZE * PDF_ASCENT,
			      TICK_SIZE, c->ylabel, strlen(c->ylabel), 0);
	pdf->y -= TICK_SIZE * 1.6;
	f.py1 = pdf->y;
	f.py0 = f.py1 - plot_h;
	chart_axes(pdf, &f);
	for (g = 0; g < c->ngroups; g++)
		chart_group(pdf, c, &f, g);
	pdf->y = f.py0 - f.maxl * LABEL_SIZE * 1.2 - 4;
	if (c->xlabel) {
		text_c(pdf, (f.px0 + f.px1) / 2, pdf->y - LABEL_SIZE,
		       LABEL_SIZE, c->xlabel, strlen(c->xlabel));
		pdf->y -= LABEL_SIZE * 1.5;
	}
	pdf->y -= 4;
	legend_layout(pdf, c, f.px0, f.px1 - f.px0, 1, pdf->y);
	pdf->y -= leg_h + 6;
	return pdf_check(pdf, err);
}
