/*
 * PDF charts: draws the shapes (chart_fig) that chart_bars.c (the bar
 * chart, laid out with this font's metrics), chart_runs.c and chart_cmp.c
 * lay out, with libharu vector paths, each as one block that never breaks
 * across pages. The geometry is shared with the SVG charts; here only the
 * libharu drawing and the font's metrics.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "chart.h"
#include "pdf_int.h"

#include "banned.h"

#define TICK_SIZE 7.0
#define LABEL_SIZE 7.0

static const struct chart_style pdf_style = {
    .tick = TICK_SIZE, .label = LABEL_SIZE, .max_bar = 30.0, .min_plot = 220.0};

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

/* pdf_wrap's lines, at most max (the last taking the rest). */
static int wrap(void *ctx, const char *s, double size, double width,
		const char **start, size_t *len, int max)
{
	struct pdf_line *lines = NULL;
	int i, n = pdf_wrap(ctx, s, size, width, &lines);
	if (n < 1 || !lines) {
		free(lines);
		start[0] = s, len[0] = strlen(s);
		return 1;
	}
	if (n > max) {
		lines[max - 1].len =
		    (size_t)(lines[n - 1].s + lines[n - 1].len -
			     lines[max - 1].s);
		n = max;
	}
	for (i = 0; i < n; i++)
		start[i] = lines[i].s, len[i] = lines[i].len;
	free(lines);
	return n;
}

int pdf_chart_bars(struct pdf *pdf, const struct chart *c, struct xr_err *err)
{
	const struct chart_text tx = {pdf, measure, nlines, wrap};
	struct chart_fig fig;
	struct arena *a = arena_new();
	int rc = pdf_ensure_page(pdf, err);

	if (!a)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	if (rc == 0 && chart_bars_fig(c, &pdf_style, &tx, pdf_text_width(pdf),
				      a, &fig) < 0)
		rc = xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	if (rc == 0)
		rc = pdf_chart_fig(pdf, &fig, err);
	arena_free(a);
	return rc;
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
		pdf_draw_text(pdf, x, top - o->y, o->size, o->text, len,
			      o->bold);
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
