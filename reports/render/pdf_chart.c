/*
 * PDF grouped bar charts: draws the chart that chart.c lays out (groups of
 * bars with min-max whiskers and published markers, a y axis with its
 * ticks, light grid lines and the unit, category labels wrapped under
 * their group, and a legend) as one block that never breaks across pages.
 * The geometry is chart.c's, shared with the SVG charts; here only the
 * libharu drawing and the font's metrics.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "pdf_int.h"

#include "banned.h"

#define TICK_SIZE 7.0
#define LABEL_SIZE 7.0

static const struct chart_style pdf_style = {
    .tick = TICK_SIZE, .label = LABEL_SIZE, .max_bar = 30.0, .min_plot = 220.0};

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

static double measure(void *ctx, const char *s, size_t len, double size)
{
	return pdf_measure_n(ctx, s, len, size);
}

static int nlines(void *ctx, const char *s, double size, double width)
{
	struct pdf_line *lines = NULL;
	int n = pdf_wrap(ctx, s, size, width, &lines);
	free(lines);
	return n > 0 ? n : 1;
}

/* The legend's rows under the plot, from top down. */
static void legend(struct pdf *pdf, const char *title, double x0,
		   const struct chart_legend_item *it, int n, double top)
{
	double rowh = LABEL_SIZE * 1.6, sw = 7, rgb[3];
	char t[256];
	int i;

	if (title && n > 0) {
		snprintf(t, sizeof t, "%s:", title);
		pdf_draw_text(pdf, x0, top - sw + 0.5, LABEL_SIZE, t, strlen(t),
			      1);
	}
	for (i = 0; i < n; i++) {
		double y = top - it[i].row * rowh;
		chart_colour_rgb(it[i].series, rgb);
		rect(pdf, it[i].x, y - sw, sw, sw, rgb, 1);
		pdf_draw_text(pdf, it[i].x + sw + 3, y - sw + 0.5, LABEL_SIZE,
			      it[i].text, strlen(it[i].text), 0);
	}
}

/* The chart's note under its legend, wrapped to the plot's width. */
static void note(struct pdf *pdf, const char *s, double x0, double width)
{
	struct pdf_line *lines = NULL;
	int i, n = pdf_wrap(pdf, s, TICK_SIZE, width, &lines);
	for (i = 0; i < n; i++) {
		pdf_draw_text(pdf, x0, pdf->y - TICK_SIZE * PDF_ASCENT,
			      TICK_SIZE, lines[i].s, lines[i].len, 0);
		pdf->y -= TICK_SIZE * 1.25;
	}
	free(lines);
}

/* Grid, ticks with their labels, and the axes. */
static void chart_axes(struct pdf *pdf, const struct chart_frame *f)
{
	char tick[64];
	int i;

	HPDF_Page_SetGrayStroke(pdf->page, 0.85);
	for (i = 0; i < f->nticks; i++)
		if (chart_tick(f, i) != 0)
			line(pdf, f->px0, chart_ypos(f, chart_tick(f, i)),
			     f->px1, chart_ypos(f, chart_tick(f, i)), 0.4);
	HPDF_Page_SetGrayStroke(pdf->page, 0);
	for (i = 0; i < f->nticks; i++) {
		double y = chart_ypos(f, chart_tick(f, i)), w;

		chart_tick_label(f, i, tick, sizeof tick);
		w = pdf_measure(pdf, tick, TICK_SIZE);
		line(pdf, f->px0 - 3, y, f->px0, y, 0.5);
		pdf_draw_text(pdf, f->px0 - 5 - w, y - TICK_SIZE * 0.33,
			      TICK_SIZE, tick, strlen(tick), 0);
	}
	line(pdf, f->px0, f->py0, f->px0, f->py1, 0.6);
	line(pdf, f->px0, chart_ypos(f, 0), f->px1, chart_ypos(f, 0), 0.6);
}

/* Group g's bars, then whiskers and markers on top so they stay visible,
 * then its label under the axis. */
static void chart_group(struct pdf *pdf, const struct chart *c,
			const struct chart_text *tx,
			const struct chart_frame *f, int g)
{
	struct pdf_line *lines = NULL;
	struct chart_bar b;
	double rgb[3], size;
	char val[32];
	int s, i, n;

	for (s = 0; s < c->nseries; s++) {
		chart_bar_at(c, f, g, s, &b);
		chart_colour_rgb(s, rgb);
		if (b.has_bar)
			rect(pdf, b.x, fmin(b.y0, b.y1), b.w, fabs(b.y1 - b.y0),
			     rgb, 1);
		if (b.has_whisker) {
			line(pdf, b.cx, b.ylo, b.cx, b.yhi, 0.7);
			line(pdf, b.cx - b.cap, b.ylo, b.cx + b.cap, b.ylo,
			     0.7);
			line(pdf, b.cx - b.cap, b.yhi, b.cx + b.cap, b.yhi,
			     0.7);
		}
		if (b.has_ref) {
			/* the published value: a dark red line across */
			HPDF_Page_SetRGBStroke(pdf->page, CHART_MARK_RGB);
			line(pdf, b.cx - b.refw, b.yref, b.cx + b.refw, b.yref,
			     CHART_MARK_WIDTH);
			HPDF_Page_SetGrayStroke(pdf->page, 0);
		}
		if (chart_bar_label(c, &pdf_style, tx, f, g, s, val, sizeof val,
				    &size))
			text_c(pdf, b.cx, b.ytop + 2, size, val, strlen(val));
	}
	n = pdf_wrap(pdf, c->groups[g] ? c->groups[g] : "", LABEL_SIZE,
		     f->gw - 2, &lines);
	for (i = 0; i < n; i++)
		text_c(pdf, chart_group_x(f, g),
		       f->py0 - 4 - LABEL_SIZE * (PDF_ASCENT + 1.2 * i),
		       LABEL_SIZE, lines[i].s, lines[i].len);
	free(lines);
}

int pdf_chart_bars(struct pdf *pdf, const struct chart *c, struct xr_err *err)
{
	double plot_h = c->height > 0 ? c->height : 180;
	double x0, title_h, xlab_h, leg_h, note_h, total;
	const struct chart_text tx = {pdf, measure, nlines};
	struct chart_legend_item *items;
	struct chart_frame f;
	int g, nitems, rows, rc = pdf_ensure_page(pdf, err);

	if (rc < 0)
		return rc;
	if (c->ngroups < 1 || c->nseries < 1)
		return 0;
	items = calloc((size_t)c->nseries + 1, sizeof *items);
	if (!items)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	x0 = pdf->ml;
	chart_layout(c, &pdf_style, &tx, x0, pdf_text_width(pdf), &f);
	xlab_h = f.maxl * LABEL_SIZE * 1.2 + 4;
	if (c->xlabel)
		xlab_h += LABEL_SIZE * 1.5;
	title_h = c->title ? 9.5 * 1.5 : 0;
	rows = chart_legend(c, &pdf_style, &tx, f.px0, f.px1 - f.px0, 7, items,
			    &nitems);
	leg_h = rows * LABEL_SIZE * 1.6;
	note_h = c->note ? nlines(pdf, c->note, TICK_SIZE, f.px1 - f.px0) *
				   TICK_SIZE * 1.25 +
			       2
			 : 0;
	total =
	    title_h + TICK_SIZE * 1.6 + plot_h + xlab_h + leg_h + note_h + 10;
	rc = pdf_need(pdf, total, err);
	if (rc < 0) {
		free(items);
		return rc;
	}

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
		chart_group(pdf, c, &tx, &f, g);
	pdf->y = f.py0 - f.maxl * LABEL_SIZE * 1.2 - 4;
	if (c->xlabel) {
		text_c(pdf, (f.px0 + f.px1) / 2, pdf->y - LABEL_SIZE,
		       LABEL_SIZE, c->xlabel, strlen(c->xlabel));
		pdf->y -= LABEL_SIZE * 1.5;
	}
	pdf->y -= 4;
	legend(pdf, c->legend_title, f.px0, items, nitems, pdf->y);
	pdf->y -= leg_h + 2;
	if (c->note)
		note(pdf, c->note, f.px0, f.px1 - f.px0);
	pdf->y -= 4;
	free(items);
	return pdf_check(pdf, err);
}

/* --- the charts of the runs (chart_runs.c's shapes) ---------------------- */

static void op_rgb(int colour, double rgb[3])
{
	static const double mark[3] = {CHART_MARK_RGB};
	static const double band[3] = {CHART_BAND_RGB};
	if (colour == CHART_INK) {
		rgb[0] = rgb[1] = rgb[2] = 0;
	} else if (colour == CHART_GRID) {
		rgb[0] = rgb[1] = rgb[2] = 0.85;
	} else if (colour == CHART_MARK) {
		memcpy(rgb, mark, sizeof mark);
	} else if (colour == CHART_BAND) {
		memcpy(rgb, band, sizeof band);
	} else {
		chart_colour_rgb(colour, rgb);
	}
}

/* One shape, its y measured down from top. */
static void fig_op(struct pdf *pdf, const struct chart_op *o, double x0,
		   double top)
{
	HPDF_Page p = pdf->page;
	double rgb[3];
	int i;
	op_rgb(o->colour, rgb);
	HPDF_Page_SetRGBStroke(p, (HPDF_REAL)rgb[0], (HPDF_REAL)rgb[1],
			       (HPDF_REAL)rgb[2]);
	HPDF_Page_SetRGBFill(p, (HPDF_REAL)rgb[0], (HPDF_REAL)rgb[1],
			     (HPDF_REAL)rgb[2]);
	HPDF_Page_SetLineWidth(p, (HPDF_REAL)o->width);
	switch (o->kind) {
	case CHART_OP_PATH:
		HPDF_Page_MoveTo(p, (HPDF_REAL)(x0 + o->px[0]),
				 (HPDF_REAL)(top - o->py[0]));
		for (i = 1; i < o->n; i++)
			HPDF_Page_LineTo(p, (HPDF_REAL)(x0 + o->px[i]),
					 (HPDF_REAL)(top - o->py[i]));
		HPDF_Page_Stroke(p);
		break;
	case CHART_OP_RECT:
		HPDF_Page_Rectangle(p, (HPDF_REAL)(x0 + o->x),
				    (HPDF_REAL)(top - o->y - o->h),
				    (HPDF_REAL)o->w, (HPDF_REAL)o->h);
		if (o->fill && o->width > 0)
			HPDF_Page_FillStroke(p);
		else if (o->fill)
			HPDF_Page_Fill(p);
		else
			HPDF_Page_Stroke(p);
		break;
	case CHART_OP_DOT:
		HPDF_Page_Circle(p, (HPDF_REAL)(x0 + o->x),
				 (HPDF_REAL)(top - o->y), (HPDF_REAL)o->w);
		if (o->fill)
			HPDF_Page_Fill(p);
		else
			HPDF_Page_Stroke(p);
		break;
	case CHART_OP_TEXT: {
		size_t len = strlen(o->text);
		double w = pdf_measure_n(pdf, o->text, len, o->size);
		double x = x0 + o->x -
			   (o->anchor < 0   ? 0
			    : o->anchor > 0 ? w
					    : w / 2);
		pdf_draw_text(pdf, x, top - o->y, o->size, o->text, len, 0);
		break;
	}
	}
	HPDF_Page_SetRGBStroke(p, 0, 0, 0);
	HPDF_Page_SetRGBFill(p, 0, 0, 0);
}

int pdf_chart_fig(struct pdf *pdf, const struct chart_fig *c,
		  struct xr_err *err)
{
	double title_h, top;
	int i, rc = pdf_ensure_page(pdf, err);
	if (rc < 0 || c->nops < 1)
		return rc;
	title_h = c->title ? 2 * 8.5 * 1.3 : 0;
	if ((rc = pdf_need(pdf, title_h + c->h + 10, err)) < 0)
		return rc;
	if (c->title && (rc = pdf_paragraph(pdf, 8.5, 0, c->title, err)) < 0)
		return rc;
	top = pdf->y;
	for (i = 0; i < c->nops; i++)
		fig_op(pdf, &c->ops[i], pdf->ml, top);
	pdf->y = top - c->h - 10;
	return pdf_check(pdf, err);
}
