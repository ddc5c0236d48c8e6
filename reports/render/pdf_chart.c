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

int pdf_chart_bars(struct pdf *pdf, const struct pdf_chart *c,
		   struct xr_err *err)
{
	double plot_h = c->height > 0 ? c->height : 180;
	double width, x0, px0, px1, py0, py1, ymin = 0, ymax = 0, step, v;
	double axis_w = 0, gw, bw, title_h, xlab_h = 0, leg_h, total;
	int ng = c->ngroups, ns = c->nseries, g, s, dec, i, n, maxl = 1;
	char tick[64];
	struct pdf_line *lines = NULL;
	int rc = pdf_ensure_page(pdf, err);

	if (rc < 0)
		return rc;
	if (ng < 1 || ns < 1)
		return 0;
	width = pdf_text_width(pdf);
	x0 = pdf->ml;
	for (i = 0; i < ng * ns; i++) {
		double vals[3] = {at(c->value, i), at(c->lo, i), at(c->hi, i)};
		int k;

		for (k = 0; k < 3; k++)
			if (isfinite(vals[k])) {
				ymax = fmax(ymax, vals[k]);
				ymin = fmin(ymin, vals[k]);
			}
	}
	if (ymax <= ymin)
		ymax = ymin + 1;
	step = nice_step(ymax - ymin, &dec);
	ymax = ceil(ymax / step - 1e-9) * step;
	ymin = floor(ymin / step + 1e-9) * step;
	for (v = ymin; v <= ymax + step / 2; v += step) {
		snprintf(tick, sizeof(tick), "%.*f", dec, v);
		axis_w = fmax(axis_w, pdf_measure(pdf, tick, TICK_SIZE));
	}
	axis_w += 6;
	if (c->ylabel)
		axis_w =
		    fmax(axis_w, pdf_measure(pdf, c->ylabel, TICK_SIZE) / 2);
	px0 = x0 + axis_w + 2;
	px1 = x0 + width;
	gw = (px1 - px0) / ng;
	bw = gw * 0.78 / ns;
	/* Few bars: narrower plot rather than slabs. */
	if (bw > MAX_BAR) {
		bw = MAX_BAR;
		gw = bw * ns / 0.78;
		px1 = fmax(px0 + gw * ng, px0 + MIN_PLOT);
		gw = (px1 - px0) / ng;
	}
	for (g = 0; g < ng; g++) {
		n = pdf_wrap(pdf, c->groups[g] ? c->groups[g] : "", LABEL_SIZE,
			     gw - 2, &lines);
		free(lines);
		lines = NULL;
		if (n > maxl)
			maxl = n;
	}
	xlab_h = maxl * LABEL_SIZE * 1.2 + 4;
	if (c->xlabel)
		xlab_h += LABEL_SIZE * 1.5;
	title_h = c->title ? 9.5 * 1.5 : 0;
	leg_h = legend_layout(pdf, c, px0, px1 - px0, 0, 0);
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
	py1 = pdf->y;
	py0 = py1 - plot_h;
#define YPOS(val) (py0 + ((val)-ymin) / (ymax - ymin) * plot_h)
	/* Grid and ticks. */
	HPDF_Page_SetGrayStroke(pdf->page, 0.85);
	for (v = ymin; v <= ymax + step / 2; v += step)
		if (fabs(v) > step / 1e6)
			line(pdf, px0, YPOS(v), px1, YPOS(v), 0.4);
	HPDF_Page_SetGrayStroke(pdf->page, 0);
	for (v = ymin; v <= ymax + step / 2; v += step) {
		double w;

		snprintf(tick, sizeof(tick), "%.*f", dec,
			 fabs(v) < step / 1e6 ? 0.0 : v);
		w = pdf_measure(pdf, tick, TICK_SIZE);
		line(pdf, px0 - 3, YPOS(v), px0, YPOS(v), 0.5);
		pdf_draw_text(pdf, px0 - 5 - w, YPOS(v) - TICK_SIZE * 0.33,
			      TICK_SIZE, tick, strlen(tick), 0);
	}
	line(pdf, px0, py0, px0, py1, 0.6);
	line(pdf, px0, YPOS(0), px1, YPOS(0), 0.6);
	/* Bars, then whiskers on top so they stay visible. */
	for (g = 0; g < ng; g++) {
		double gx = px0 + g * gw + (gw - bw * ns) / 2;

		for (s = 0; s < ns; s++) {
			int k = g * ns + s;
			double val = at(c->value, k), bx = gx + s * bw;
			double lo = at(c->lo, k), hi = at(c->hi, k);
			double cx = bx + bw / 2;

			if (isfinite(val)) {
				double y0 = YPOS(0), y1 = YPOS(val);

				rect(pdf, bx + bw * 0.06, fmin(y0, y1),
				     bw * 0.88, fabs(y1 - y0),
				     palette[(size_t)s % NPALETTE], 1);
			}
			if (isfinite(lo) && isfinite(hi) && hi > lo) {
				double cap = fmin(bw * 0.25, 4);

				line(pdf, cx, YPOS(lo), cx, YPOS(hi), 0.7);
				line(pdf, cx - cap, YPOS(lo), cx + cap,
				     YPOS(lo), 0.7);
				line(pdf, cx - cap, YPOS(hi), cx + cap,
				     YPOS(hi), 0.7);
			}
		}
		n = pdf_wrap(pdf, c->groups[g] ? c->groups[g] : "", LABEL_SIZE,
			     gw - 2, &lines);
		for (i = 0; i < n; i++)
			text_c(pdf, px0 + g * gw + gw / 2,
			       py0 - 4 - LABEL_SIZE * (PDF_ASCENT + 1.2 * i),
			       LABEL_SIZE, lines[i].s, lines[i].len);
		free(lines);
		lines = NULL;
	}
#undef YPOS
	pdf->y = py0 - maxl * LABEL_SIZE * 1.2 - 4;
	if (c->xlabel) {
		text_c(pdf, (px0 + px1) / 2, pdf->y - LABEL_SIZE, LABEL_SIZE,
		       c->xlabel, strlen(c->xlabel));
		pdf->y -= LABEL_SIZE * 1.5;
	}
	pdf->y -= 4;
	legend_layout(pdf, c, px0, px1 - px0, 1, pdf->y);
	pdf->y -= leg_h + 6;
	return pdf_check(pdf, err);
}
