/*
 * SVG charts (svg_chart.h): draws the shapes chart.c, chart_bars.c,
 * chart_runs.c and chart_cmp.c lay out (chart_fig), in SVG user units
 * that match the PDF's points, so both show the same plot. The browser or
 * viewer picks the font, so text is measured with an estimate of a
 * sans-serif font's advance widths (chart_text_estimate: generous, so
 * labels do not collide), and labels wrap with that estimate.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "chart.h"
#include "chart_fig.h"
#include "svg_chart.h"
#include "utf8.h"
#include "xr_err.h"

#include "banned.h"

#define MARGIN 6.0
#define TITLE_SIZE 10.0
#define ASCENT 0.88
#define MAX_LINES 8
#define BOLD 1.1 /* bold text is about this much wider */

#define SCALE 1.6     /* display size per unit: 9-unit labels show at 14 px */
#define MIN_SCALE 0.9 /* the least an inline chart shrinks to */

static const struct chart_style svg_style = {
    .tick = 9.0, .label = 9.0, .max_bar = 30.0, .min_plot = 220.0};

/* len bytes of s (or up to its NUL) as XML text; an ill-formed UTF-8
 * byte becomes U+FFFD, so the document stays well-formed. */
static void escape_n(FILE *f, const char *s, size_t len)
{
	size_t i = 0;
	while (s && i < len && s[i]) {
		unsigned char ch = (unsigned char)s[i];
		uint32_t cp;
		size_t n = utf8_decode(s + i, len - i, &cp);
		if (n == 0) {
			fputs("\xEF\xBF\xBD", f);
			i++;
			continue;
		}
		if (ch == '&')
			fputs("&amp;", f);
		else if (ch == '<')
			fputs("&lt;", f);
		else if (ch == '>')
			fputs("&gt;", f);
		else if (ch == '"')
			fputs("&quot;", f);
		else if (ch == '\'')
			fputs("&#39;", f);
		else if ((ch < 0x20 && ch != '\t' && ch != '\n') ||
			 ch == 0x7f || (cp >= 0x80 && cp < 0xa0) ||
			 cp == 0xfffe || cp == 0xffff)
			; /* not allowed in XML, or invisible controls */
		else
			fwrite(s + i, 1, n, f);
		i += n;
	}
}

void svg_escape(FILE *f, const char *s)
{
	escape_n(f, s, SIZE_MAX);
}

const char *svg_font_family(enum report_lang lang)
{
	if (lang == REPORT_LANG_JA)
		return "'IPAexGothic', 'IPAexゴシック', 'Noto Sans CJK JP', "
		       "'Noto Sans JP', 'Hiragino Sans', 'Hiragino Kaku "
		       "Gothic ProN', 'Yu Gothic', 'Meiryo', sans-serif";
	return "'DejaVu Sans', 'Segoe UI', 'Helvetica Neue', Arial, "
	       "'IPAexGothic', 'Noto Sans CJK JP', 'Hiragino Sans', "
	       "'Yu Gothic', 'Meiryo', sans-serif";
}

/* --- text estimates ---------------------------------------------------- */

static double measure(void *ctx, const char *s, size_t len, double size)
{
	(void)ctx;
	return chart_text_estimate(s, len, size);
}

/* Greedy wrap of s at spaces, after '/', ',', '=' and around wide
 * characters, within width. OUT: start and length of each line (at most
 * MAX_LINES; the last takes the rest). Returns the lines (>= 1). */
static int wrap(const char *s, double size, double width,
		const char *start[MAX_LINES], size_t len[MAX_LINES])
{
	const char *p = s, *ls = s, *brk = NULL;
	double w = 0, wbrk = 0;
	int n = 0;

	while (*p) {
		uint32_t cp;
		size_t cl = utf8_next(p, strlen(p), &cp);
		double cw = chart_em(cp) * size;
		if (chart_wide(cp) && p > ls)
			brk = p, wbrk = w;
		if (w + cw > width && p > ls && brk && brk > ls &&
		    n < MAX_LINES - 1) {
			start[n] = ls;
			len[n++] = (size_t)(brk - ls);
			w -= wbrk;
			ls = brk;
			while (*ls == ' ') {
				w -= chart_em(' ') * size;
				ls++;
			}
			brk = NULL;
		}
		w += cw;
		p += cl;
		if (cp == ' ' || cp == '/' || cp == ',' || cp == '=' ||
		    chart_wide(cp))
			brk = p, wbrk = w;
	}
	start[n] = ls;
	len[n++] = (size_t)(p - ls);
	while (len[n - 1] > 0 && start[n - 1][len[n - 1] - 1] == ' ')
		len[n - 1]--;
	return n;
}

static int nlines(void *ctx, const char *s, double size, double width)
{
	const char *st[MAX_LINES];
	size_t len[MAX_LINES];
	(void)ctx;
	return wrap(s, size, width, st, len);
}

static int wrap_max(void *ctx, const char *s, double size, double width,
		    const char **start, size_t *len, int max)
{
	const char *st[MAX_LINES];
	size_t ln[MAX_LINES];
	int i, n = wrap(s, size, width, st, ln);
	(void)ctx;
	if (n > max) { /* the last line takes the rest */
		ln[max - 1] = (size_t)(st[n - 1] + ln[n - 1] - st[max - 1]);
		n = max;
	}
	for (i = 0; i < n; i++)
		start[i] = st[i], len[i] = ln[i];
	return n;
}

static const struct chart_text svg_text = {NULL, measure, nlines, wrap_max};

/* --- drawing ----------------------------------------------------------- */

static void text_n(FILE *f, double x, double y, double size, const char *anchor,
		   int bold, const char *s, size_t len)
{
	fprintf(f, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"%g\"", x, y, size);
	if (anchor)
		fprintf(f, " text-anchor=\"%s\"", anchor);
	if (bold)
		fputs(" font-weight=\"bold\"", f);
	fputc('>', f);
	escape_n(f, s, len);
	fputs("</text>\n", f);
}

/* Wrapped text, its first line's top at y; returns the height used. */
static double text_wrapped(FILE *f, double x, double y, double size,
			   double width, const char *anchor, int bold,
			   const char *s)
{
	const char *st[MAX_LINES];
	size_t len[MAX_LINES];
	int i, n = wrap(s, bold ? size * BOLD : size, width, st, len);
	for (i = 0; i < n; i++)
		text_n(f, x, y + size * (ASCENT + 1.2 * i), size, anchor, bold,
		       st[i], len[i]);
	return n * size * 1.2;
}

/* The image's width: the PDF's text width, wider when bars would get
 * thinner than 8 units. */
static double chart_width(const struct chart *c)
{
	double need = 60 + c->ngroups * c->nseries * 8 / 0.78;
	return need > 480 ? ceil(need) : 480;
}

int svg_chart_write(FILE *f, const struct chart *c, int standalone,
		    enum report_lang lang)
{
	struct chart_fig fig;
	struct arena *a = arena_new();
	int rc;

	if (!a)
		return -XR_ENOMEM;
	rc = chart_bars_fig(c, &svg_style, &svg_text,
			    chart_width(c) - 2 * MARGIN, a, &fig);
	if (rc == 0)
		rc = svg_fig_write(f, &fig, standalone, lang);
	arena_free(a);
	return rc;
}

/* --- the charts of the runs (chart_runs.c's shapes) ---------------------- */

static const char *op_colour(int colour, char hex[8])
{
	if (colour == CHART_INK)
		return "#000";
	if (colour == CHART_GRID)
		return "#d9d9d9";
	if (colour == CHART_MARK)
		return CHART_MARK_HEX;
	if (colour == CHART_BAND)
		return CHART_BAND_HEX;
	return chart_colour_hex(colour, hex);
}

static void fig_op(FILE *f, const struct chart_op *o, double dy)
{
	static const char *const anchor[] = {"start", "middle", "end"};
	char hex[8];
	const char *c = op_colour(o->colour, hex);
	int i;
	switch (o->kind) {
	case CHART_OP_PATH:
		fputs("<path d=\"", f);
		for (i = 0; i < o->n; i++)
			fprintf(f, "%s%.2f %.2f", i ? "L" : "M", o->px[i],
				o->py[i] + dy);
		fprintf(f,
			"\" stroke=\"%s\" stroke-width=\"%g\" fill=\"none\" "
			"stroke-linejoin=\"round\"/>\n",
			c, o->width);
		break;
	case CHART_OP_RECT:
		fprintf(f,
			"<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
			"height=\"%.2f\" fill=\"%s\" stroke=\"%s\" "
			"stroke-width=\"%g\"/>\n",
			o->x, o->y + dy, o->w, o->h, o->fill ? c : "none",
			o->width > 0 ? c : "none", o->width);
		break;
	case CHART_OP_DOT:
		fprintf(f,
			"<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%g\" "
			"fill=\"%s\" fill-opacity=\"0.75\" stroke=\"#000\" "
			"stroke-width=\"0.3\"/>\n",
			o->x, o->y + dy, o->w, o->fill ? c : "none");
		break;
	case CHART_OP_TEXT:
		if (o->colour != CHART_INK)
			fprintf(f, "<g fill=\"%s\">", c);
		text_n(f, o->x, o->y + dy, o->size,
		       anchor[o->anchor < 0   ? 0
			      : o->anchor > 0 ? 2
					      : 1],
		       o->bold, o->text, strlen(o->text));
		if (o->colour != CHART_INK)
			fputs("</g>\n", f);
		break;
	}
}

int svg_fig_write(FILE *f, const struct chart_fig *c, int standalone,
		  enum report_lang lang)
{
	double w = ceil(c->w + 2 * MARGIN), title_h = 0, h;
	int i;
	if (c->nops < 1)
		return 0;
	if (standalone && c->title)
		title_h =
		    nlines(NULL, c->title, TITLE_SIZE * BOLD, w - 2 * MARGIN) *
			TITLE_SIZE * 1.2 +
		    4;
	h = ceil(MARGIN + title_h + c->h + MARGIN);
	if (standalone)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %g "
		"%g\" width=\"%.0f\" height=\"%.0f\" role=\"img\" "
		"data-chart=\"%s\"",
		w, h, w * SCALE, h * SCALE, c->kind);
	if (standalone) {
		fputs(" font-family=\"", f);
		svg_escape(f, svg_font_family(lang));
		fputc('"', f);
	} else {
		fprintf(f, " style=\"min-width: %.0fpx\"", w * MIN_SCALE);
	}
	fputs(">\n<title>", f);
	svg_escape(f, c->title ? c->title : "");
	fputs("</title>\n", f);
	if (standalone)
		fputs("<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n",
		      f);
	if (title_h > 0)
		text_wrapped(f, MARGIN, MARGIN, TITLE_SIZE, w - 2 * MARGIN,
			     NULL, 1, c->title);
	fprintf(f, "<g transform=\"translate(%g 0)\">\n", MARGIN);
	for (i = 0; i < c->nops; i++)
		fig_op(f, &c->ops[i], MARGIN + title_h);
	fputs("</g>\n</svg>\n", f);
	return ferror(f) ? -XR_EIO : 0;
}
