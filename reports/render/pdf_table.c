/*
 * PDF tables: column widths from the content, multi-level column headers
 * with spanning cells, wrapping of long cells when the table is wider than
 * the page, and page breaks that repeat the caption (marked as continued)
 * and every header row. Drawn in the published "booktabs" style.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "pdf_int.h"

#include "banned.h"

#define PAD_X 4.0
#define PAD_Y 1.8
#define MIN_SIZE 6.0
/* Cells narrower than this share of the page are never wrapped. */
#define SHORT_CELL 0.25

struct tcell {
	char *text;
	int span;
	/* Layout, filled by pdf_table_draw. */
	struct pdf_line *lines;
	int nlines;
};

struct trow {
	struct tcell *cells;
	int n, cap;
	double h;
};

struct rows {
	struct trow *r;
	int n, cap;
};

struct pdf_table {
	int ncols;
	struct rows head, body;
	enum pdf_align *align;
	unsigned char *wrap;
	double *w; /* column widths */
	double size;
	int plain;
	char *caption, *cont;
};

struct pdf_table *pdf_table_new(int ncols)
{
	struct pdf_table *t;

	if (ncols < 1)
		ncols = 1;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->ncols = ncols;
	t->size = 8.5;
	t->align = calloc((size_t)ncols, sizeof(*t->align));
	t->wrap = calloc((size_t)ncols, 1);
	t->w = calloc((size_t)ncols, sizeof(*t->w));
	if (!t->align || !t->wrap || !t->w) {
		pdf_table_free(t);
		return NULL;
	}
	return t;
}

static void rows_free(struct rows *rs)
{
	int i, j;

	for (i = 0; i < rs->n; i++) {
		for (j = 0; j < rs->r[i].n; j++) {
			free(rs->r[i].cells[j].text);
			free(rs->r[i].cells[j].lines);
		}
		free(rs->r[i].cells);
	}
	free(rs->r);
}

void pdf_table_free(struct pdf_table *t)
{
	if (!t)
		return;
	rows_free(&t->head);
	rows_free(&t->body);
	free(t->align);
	free(t->wrap);
	free(t->w);
	free(t->caption);
	free(t->cont);
	free(t);
}

int pdf_table_caption(struct pdf_table *t, const char *caption,
		      const char *cont)
{
	free(t->caption);
	free(t->cont);
	t->caption = caption ? strdup(caption) : NULL;
	t->cont = cont ? strdup(cont) : NULL;
	if ((caption && !t->caption) || (cont && !t->cont))
		return -XR_ENOMEM;
	return 0;
}

void pdf_table_font_size(struct pdf_table *t, double size)
{
	if (size >= MIN_SIZE)
		t->size = size;
}

void pdf_table_align(struct pdf_table *t, int col, enum pdf_align a)
{
	if (col >= 0 && col < t->ncols)
		t->align[col] = a;
}

void pdf_table_wrap(struct pdf_table *t, int col, int wrappable)
{
	if (col >= 0 && col < t->ncols)
		t->wrap[col] = (unsigned char)!!wrappable;
}

void pdf_table_plain(struct pdf_table *t, int plain)
{
	t->plain = plain;
}

int pdf_table_rows(const struct pdf_table *t)
{
	return t->body.n;
}

static int rows_add(struct rows *rs)
{
	if (rs->n == rs->cap) {
		int nc = rs->cap ? rs->cap * 2 : 8;
		struct trow *nr = realloc(rs->r, (size_t)nc * sizeof(*nr));

		if (!nr)
			return -XR_ENOMEM;
		rs->r = nr;
		rs->cap = nc;
	}
	memset(&rs->r[rs->n++], 0, sizeof(struct trow));
	return 0;
}

static int row_add(struct rows *rs, const char *text, int span)
{
	struct trow *r;
	struct tcell *c;

	if (rs->n == 0 && rows_add(rs) < 0)
		return -XR_ENOMEM;
	r = &rs->r[rs->n - 1];
	if (r->n == r->cap) {
		int nc = r->cap ? r->cap * 2 : 8;
		struct tcell *ncs =
		    realloc(r->cells, (size_t)nc * sizeof(*ncs));

		if (!ncs)
			return -XR_ENOMEM;
		r->cells = ncs;
		r->cap = nc;
	}
	c = &r->cells[r->n];
	memset(c, 0, sizeof(*c));
	c->text = strdup(text ? text : "");
	if (!c->text)
		return -XR_ENOMEM;
	c->span = span < 1 ? 1 : span;
	r->n++;
	return 0;
}

int pdf_table_head_row(struct pdf_table *t)
{
	return rows_add(&t->head);
}

int pdf_table_head(struct pdf_table *t, const char *text, int span)
{
	return row_add(&t->head, text, span);
}

int pdf_table_row(struct pdf_table *t)
{
	return rows_add(&t->body);
}

int pdf_table_cell(struct pdf_table *t, const char *text)
{
	return row_add(&t->body, text, 1);
}

int pdf_table_cellf(struct pdf_table *t, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = buf_vaddf(&b, fmt, ap);
	va_end(ap);
	if (rc == 0)
		rc = pdf_table_cell(t, b.s);
	buf_release(&b);
	return rc;
}

/* --- layout ------------------------------------------------------------ */

/* Natural (unwrapped) width of a cell: its longest explicit line. */
static double natural_w(struct pdf *pdf, const char *text, double size)
{
	const char *p = text, *nl;
	double best = 0, w;

	for (;;) {
		nl = strchr(p, '\n');
		w = pdf_measure_n(pdf, p, nl ? (size_t)(nl - p) : strlen(p),
				  size);
		if (w > best)
			best = w;
		if (!nl)
			return best;
		p = nl + 1;
	}
}

/* Each column's natural (one-line) and minimum (widest word) width over
 * its body cells and its one-column header cells, padding included. A
 * short cell's minimum is its natural width: only the long ones (a
 * sentence of reasons) are worth wrapping; force makes every column
 * shrinkable to one character. */
static void measure_columns(struct pdf *pdf, const struct pdf_table *t,
			    double size, double avail, int force, double pad,
			    double *nat, double *min)
{
	int nc = t->ncols, i, j, col;

	for (i = 0; i < t->body.n; i++)
		for (j = 0; j < t->body.r[i].n && j < nc; j++) {
			const char *s = t->body.r[i].cells[j].text;
			double w = natural_w(pdf, s, size) + pad;
			double m = pdf_min_width(pdf, s, size) + pad;

			if (w <= avail * SHORT_CELL)
				m = w;
			nat[j] = fmax(nat[j], w);
			min[j] = fmax(min[j], force ? pad + size : m);
		}
	for (i = 0; i < t->head.n; i++)
		for (j = 0, col = 0; j < t->head.r[i].n && col < nc; j++) {
			const struct tcell *c = &t->head.r[i].cells[j];

			if (c->span == 1) {
				nat[col] =
				    fmax(nat[col],
					 natural_w(pdf, c->text, size) + pad);
				min[col] = fmax(
				    min[col],
				    force ? pad + size
					  : pdf_min_width(pdf, c->text, size) +
						pad);
			}
			col += c->span;
		}
	for (j = 0; j < nc; j++)
		nat[j] = fmax(nat[j], fmax(min[j], pad + size));
}

/* Spanning header cells: spread any shortfall over their columns. They
 * never force wrapping of the body, so only the natural widths grow. */
static void widen_for_spans(struct pdf *pdf, const struct pdf_table *t,
			    double size, double pad, double *nat)
{
	int nc = t->ncols, i, j, k, col;

	for (i = 0; i < t->head.n; i++)
		for (j = 0, col = 0; j < t->head.r[i].n && col < nc; j++) {
			const struct tcell *c = &t->head.r[i].cells[j];
			int span = c->span;
			double have = 0, need;

			if (col + span > nc)
				span = nc - col;
			if (span > 1) {
				for (k = col; k < col + span; k++)
					have += nat[k];
				need = natural_w(pdf, c->text, size) + pad;
				if (need > have)
					for (k = col; k < col + span; k++)
						nat[k] += (need - have) / span;
			}
			col += c->span;
		}
}

/* t->w from the natural widths, or, when they exceed avail, from capping
 * the shrinkable columns (the wrappable ones; all when none is, or with
 * force) at a common limit found by bisection, never below their minimum.
 * Returns the total width. */
static double fit_columns(struct pdf_table *t, const double *nat,
			  const double *min, double avail, int force)
{
	int nc = t->ncols, j, k, any_wrap = 0;
	double total = 0, lo = 0, hi = 0, cap;

	for (j = 0; j < nc; j++) {
		any_wrap |= t->wrap[j];
		total += nat[j];
	}
	if (total <= avail) {
		for (j = 0; j < nc; j++)
			t->w[j] = nat[j];
		return total;
	}
	for (j = 0; j < nc; j++)
		hi = fmax(hi, nat[j]);
	for (k = 0; k < 50; k++) {
		double sum = 0;

		cap = (lo + hi) / 2;
		for (j = 0; j < nc; j++)
			sum += (!any_wrap || t->wrap[j] || force)
				   ? fmax(min[j], fmin(nat[j], cap))
				   : nat[j];
		if (sum > avail)
			hi = cap;
		else
			lo = cap;
	}
	total = 0;
	for (j = 0; j < nc; j++) {
		t->w[j] = (!any_wrap || t->wrap[j] || force)
			      ? fmax(min[j], fmin(nat[j], lo))
			      : nat[j];
		total += t->w[j];
	}
	return total;
}

/* Column widths: each column's widest cell, widened where a spanning
 * header needs more room, then narrowed (wrappable columns first) by
 * capping widths at a common limit found by bisection. Returns the total
 * width, which may exceed avail when even the minimum widths do not fit. */
static double layout_widths(struct pdf *pdf, struct pdf_table *t, double size,
			    double avail, int force)
{
	double *nat = calloc((size_t)t->ncols, sizeof(double));
	double *min = calloc((size_t)t->ncols, sizeof(double));
	double pad = t->plain ? PAD_X * 1.5 : PAD_X * 2;
	double total = 1e9;

	if (nat && min) {
		measure_columns(pdf, t, size, avail, force, pad, nat, min);
		widen_for_spans(pdf, t, size, pad, nat);
		total = fit_columns(t, nat, min, avail, force);
	}
	free(nat);
	free(min);
	return total;
}

int pdf_table_fits(struct pdf *pdf, struct pdf_table *t, enum pdf_orient orient)
{
	double pw = orient == PDF_LANDSCAPE ? 841.89 : 595.276;
	double avail = pw - pdf->ml - pdf->mr;

	return layout_widths(pdf, t, t->size, 1e9, 0) <= avail + 0.01;
}

static int wrap_rows(struct pdf *pdf, struct pdf_table *t, struct rows *rs,
		     double size, double lead)
{
	double pad = t->plain ? PAD_X * 1.5 : PAD_X * 2;
	int i, j, k, col, maxl;

	for (i = 0; i < rs->n; i++) {
		struct trow *r = &rs->r[i];

		maxl = 1;
		for (j = 0, col = 0; j < r->n && col < t->ncols; j++) {
			struct tcell *c = &r->cells[j];
			double w = 0;

			for (k = col; k < col + c->span && k < t->ncols; k++)
				w += t->w[k];
			free(c->lines);
			c->nlines = pdf_wrap(pdf, c->text, size, w - pad + 0.01,
					     &c->lines);
			if (c->nlines < 0)
				return -XR_ENOMEM;
			if (c->nlines > maxl)
				maxl = c->nlines;
			col += c->span;
		}
		r->h = maxl * lead + 2 * PAD_Y;
	}
	return 0;
}

/* --- drawing ----------------------------------------------------------- */

static void draw_row(struct pdf *pdf, struct pdf_table *t, struct trow *r,
		     double x0, double size, double lead, int is_head)
{
	double top = pdf->y, x = x0;
	double padl = t->plain ? 0 : PAD_X;
	int j, k, l, col;

	for (j = 0, col = 0; j < r->n && col < t->ncols; j++) {
		struct tcell *c = &r->cells[j];
		enum pdf_align a = c->span > 1 ? PDF_CENTER : t->align[col];
		double w = 0, y;

		for (k = col; k < col + c->span && k < t->ncols; k++)
			w += t->w[k];
		/* Header cells sit on the rule below them. */
		y = top - PAD_Y - size * PDF_ASCENT;
		if (is_head)
			y -= r->h - 2 * PAD_Y - c->nlines * lead;
		for (l = 0; l < c->nlines; l++) {
			double lw = pdf_measure_n(pdf, c->lines[l].s,
						  c->lines[l].len, size);
			double tx = x + padl;

			if (a == PDF_RIGHT)
				tx = x + w - PAD_X - lw;
			else if (a == PDF_CENTER)
				tx = x + (w - lw) / 2;
			pdf_draw_text(pdf, tx, y, size, c->lines[l].s,
				      c->lines[l].len, is_head && !t->plain);
			y -= lead;
		}
		/* A spanning header gets a short rule under it. */
		if (is_head && c->span > 1 && c->text[0] && !t->plain)
			pdf_hline(pdf, x + 3, x + w - 3, top - r->h + 0.8, 0.4);
		x += w;
		col += c->span;
	}
	pdf->y = top - r->h;
}

static int draw_head(struct pdf *pdf, struct pdf_table *t, double x0,
		     double width, double size, double lead, int cont)
{
	int i;

	if (t->caption) {
		struct buf b = BUF_INIT;
		struct pdf_line *lines = NULL;
		double cs = size + 0.5;
		int n;

		buf_adds(&b, t->caption);
		if (cont && t->cont)
			buf_adds(&b, t->cont);
		n = pdf_wrap(pdf, b.s, cs, pdf_text_width(pdf), &lines);
		for (i = 0; i < n; i++) {
			pdf_draw_text(pdf, x0, pdf->y - cs * PDF_ASCENT, cs,
				      lines[i].s, lines[i].len, 1);
			pdf->y -= cs * 1.35;
		}
		free(lines);
		buf_release(&b);
		pdf->y -= 2;
		if (n < 0)
			return -XR_ENOMEM;
	}
	if (!t->plain)
		pdf_hline(pdf, x0, x0 + width, pdf->y, 0.9);
	pdf->y -= 1;
	for (i = 0; i < t->head.n; i++)
		draw_row(pdf, t, &t->head.r[i], x0, size, lead, 1);
	if (t->head.n && !t->plain)
		pdf_hline(pdf, x0, x0 + width, pdf->y - 0.5, 0.5);
	pdf->y -= 1.5;
	return 0;
}

static double head_height(struct pdf_table *t, double size)
{
	double h = 2.5;
	int i;

	if (t->caption)
		h += (size + 0.5) * 1.35 * 2 + 2;
	for (i = 0; i < t->head.n; i++)
		h += t->head.r[i].h;
	return h;
}

int pdf_table_draw(struct pdf *pdf, struct pdf_table *t, struct xr_err *err)
{
	double size = t->size, lead, avail, width = 0, x0, hh;
	int rc, i, force = 0;

	rc = pdf_ensure_page(pdf, err);
	if (rc < 0)
		return rc;
	avail = pdf_text_width(pdf);
	/* Shrink the type before giving up on whole words. */
	for (;;) {
		width = layout_widths(pdf, t, size, avail, force);
		if (width <= avail + 0.01)
			break;
		if (size - 0.5 >= MIN_SIZE)
			size -= 0.5;
		else if (!force)
			force = 1;
		else
			break;
	}
	lead = size * 1.25;
	if (wrap_rows(pdf, t, &t->head, size, lead) < 0 ||
	    wrap_rows(pdf, t, &t->body, size, lead) < 0)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	x0 = pdf->ml;
	hh = head_height(t, size);
	/* The caption and header never end a page alone. */
	rc = pdf_need(pdf, hh + (t->body.n ? t->body.r[0].h : 0) + 2, err);
	if (rc < 0)
		return rc;
	draw_head(pdf, t, x0, width, size, lead, 0);
	for (i = 0; i < t->body.n; i++) {
		struct trow *r = &t->body.r[i];

		if (pdf->y - r->h < pdf->mb) {
			if (!t->plain)
				pdf_hline(pdf, x0, x0 + width, pdf->y - 1, 0.9);
			rc = pdf_page_new(pdf, pdf->orient, err);
			if (rc < 0)
				return rc;
			draw_head(pdf, t, x0, width, size, lead, 1);
		}
		draw_row(pdf, t, r, x0, size, lead, 0);
	}
	if (!t->plain)
		pdf_hline(pdf, x0, x0 + width, pdf->y - 1, 0.9);
	pdf->y -= 8;
	return pdf_check(pdf, err);
}
