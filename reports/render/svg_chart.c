/*
 * SVG bar charts (svg_chart.h): draws the chart chart.c lays out, in SVG
 * user units that match the PDF's points, so both show the same plot. The
 * browser or viewer picks the font, so text is measured with an estimate
 * of a sans-serif font's advance widths (generous, so labels do not
 * collide), and group labels wrap with that estimate.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "chart_fig.h"
#include "err.h"
#include "svg_chart.h"
#include "utf8.h"

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

static const struct chart_text svg_text = {NULL, measure, nlines};

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

static void text(FILE *f, double x, double y, double size, const char *anchor,
		 const char *s)
{
	text_n(f, x, y, size, anchor, 0, s, strlen(s));
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

static void axes(FILE *f, const struct chart_frame *fr)
{
	char tick[64];
	int i;

	fputs("<g stroke=\"#d9d9d9\" stroke-width=\"0.4\">\n", f);
	for (i = 0; i < fr->nticks; i++)
		if (chart_tick(fr, i) != 0)
			fprintf(f,
				"<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" "
				"y2=\"%.2f\"/>\n",
				fr->px0, chart_ypos(fr, chart_tick(fr, i)),
				fr->px1, chart_ypos(fr, chart_tick(fr, i)));
	fputs("</g>\n<g stroke=\"#000\" stroke-width=\"0.6\">\n", f);
	for (i = 0; i < fr->nticks; i++) {
		double y = chart_ypos(fr, chart_tick(fr, i));
		fprintf(f,
			"<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" "
			"y2=\"%.2f\"/>\n",
			fr->px0 - 3, y, fr->px0, y);
	}
	fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n",
		fr->px0, fr->py0, fr->px0, fr->py1);
	fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n",
		fr->px0, chart_ypos(fr, 0), fr->px1, chart_ypos(fr, 0));
	fputs("</g>\n", f);
	for (i = 0; i < fr->nticks; i++) {
		double y = chart_ypos(fr, chart_tick(fr, i));
		text(f, fr->px0 - 5, y + svg_style.tick * 0.33, svg_style.tick,
		     "end", chart_tick_label(fr, i, tick, sizeof tick));
	}
}

/* Group g's bars, then whiskers and markers on top, then its label. */
static void group(FILE *f, const struct chart *c, const struct chart_frame *fr,
		  int g)
{
	struct chart_bar b;
	char hex[8], val[32];
	double size;
	int s;

	for (s = 0; s < c->nseries; s++) {
		chart_bar_at(c, fr, g, s, &b);
		if (b.has_bar)
			fprintf(f,
				"<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
				"height=\"%.2f\" fill=\"%s\" stroke=\"#000\" "
				"stroke-width=\"0.4\"/>\n",
				b.x, fmin(b.y0, b.y1), b.w, fabs(b.y1 - b.y0),
				chart_colour_hex(s, hex));
		if (b.has_whisker)
			fprintf(f,
				"<path d=\"M%.2f %.2fV%.2fM%.2f %.2fH%.2fM%.2f "
				"%.2fH%.2f\" stroke=\"#000\" "
				"stroke-width=\"0.7\" fill=\"none\"/>\n",
				b.cx, b.ylo, b.yhi, b.cx - b.cap, b.ylo,
				b.cx + b.cap, b.cx - b.cap, b.yhi,
				b.cx + b.cap);
		if (b.has_ref)
			fprintf(f,
				"<path d=\"M%.2f %.2fH%.2f\" stroke=\"%s\" "
				"stroke-width=\"%g\"/>\n",
				b.cx - b.refw, b.yref, b.cx + b.refw,
				CHART_MARK_HEX, CHART_MARK_WIDTH);
		if (chart_bar_label(c, &svg_style, &svg_text, fr, g, s, val,
				    sizeof val, &size))
			text(f, b.cx, b.ytop - 2, size, "middle", val);
	}
	text_wrapped(f, chart_group_x(fr, g), fr->py0 + 4, svg_style.label,
		     fr->gw - 2, "middle", 0, c->groups[g] ? c->groups[g] : "");
}

static void legend(FILE *f, const char *title, double x0,
		   const struct chart_legend_item *it, int n, double top)
{
	double rowh = svg_style.label * 1.6, sw = 7;
	char hex[8];
	int i;

	if (title && n > 0) {
		fprintf(f,
			"<text x=\"%.2f\" y=\"%.2f\" font-size=\"%g\" "
			"font-weight=\"bold\">",
			x0, top + sw - 0.5, svg_style.label);
		svg_escape(f, title);
		fputs(":</text>\n", f);
	}
	for (i = 0; i < n; i++) {
		double y = top + it[i].row * rowh;
		fprintf(f,
			"<rect x=\"%.2f\" y=\"%.2f\" width=\"%g\" "
			"height=\"%g\" fill=\"%s\" stroke=\"#000\" "
			"stroke-width=\"0.4\"/>\n",
			it[i].x, y, sw, sw,
			chart_colour_hex(it[i].series, hex));
		text(f, it[i].x + sw + 3, y + sw - 0.5, svg_style.label, NULL,
		     it[i].text);
	}
}

/* The image's width: the PDF's text width, wider when bars would get
 * thinner than 8 units. */
static double chart_width(const struct chart *c)
{
	double need = 60 + c->ngroups * c->nseries * 8 / 0.78;
	return need > 480 ? ceil(need) : 480;
}

static void body(FILE *f, const struct chart *c, const struct chart_frame *fr,
		 const struct chart_legend_item *items, int nitems)
{
	double y;
	int g;
	axes(f, fr);
	for (g = 0; g < c->ngroups; g++)
		group(f, c, fr, g);
	y = fr->py0 + fr->maxl * svg_style.label * 1.2 + 4;
	if (c->xlabel) {
		text(f, (fr->px0 + fr->px1) / 2, y + svg_style.label,
		     svg_style.label, "middle", c->xlabel);
		y += svg_style.label * 1.5;
	}
	legend(f, c->legend_title, fr->px0, items, nitems, y + 4);
	y += 4 +
	     (nitems ? items[nitems - 1].row + 1 : 0) * svg_style.label * 1.6;
	if (c->note)
		text_wrapped(f, fr->px0, y + 2, svg_style.tick,
			     fr->px1 - fr->px0, NULL, 0, c->note);
}

int svg_chart_write(FILE *f, const struct chart *c, int standalone,
		    enum report_lang lang)
{
	struct chart_legend_item *items;
	struct chart_frame fr;
	double w = chart_width(c), y = MARGIN, title_h = 0, h;
	int nitems = 0, rows = 0;

	if (c->ngroups < 1 || c->nseries < 1)
		return 0;
	items = calloc((size_t)c->nseries, sizeof *items);
	if (!items)
		return -XR_ENOMEM;
	chart_layout(c, &svg_style, &svg_text, MARGIN, w - 2 * MARGIN, &fr);
	/* few bars make a narrower plot: the image ends with it */
	w = ceil(fr.px1 + MARGIN);
	rows = chart_legend(c, &svg_style, &svg_text, fr.px0, fr.px1 - fr.px0,
			    7, items, &nitems);
	if (standalone && c->title)
		title_h =
		    nlines(NULL, c->title, TITLE_SIZE * BOLD, w - 2 * MARGIN) *
			TITLE_SIZE * 1.2 +
		    4;
	fr.py1 = y + title_h + svg_style.tick * 1.6 + svg_style.tick / 2;
	fr.py0 = fr.py1 + (c->height > 0 ? c->height : 180);
	h = fr.py0 + fr.maxl * svg_style.label * 1.2 + 8 +
	    (c->xlabel ? svg_style.label * 1.5 : 0) +
	    rows * svg_style.label * 1.6 + MARGIN;
	if (c->note)
		h += nlines(NULL, c->note, svg_style.tick, fr.px1 - fr.px0) *
			 svg_style.tick * 1.2 +
		     4;
	if (standalone)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %g "
		"%.0f\" width=\"%.0f\" height=\"%.0f\" role=\"img\" "
		"data-chart=\"bar\"",
		w, ceil(h), w * SCALE, ceil(h) * SCALE);
	if (standalone) {
		fputs(" font-family=\"", f);
		svg_escape(f, svg_font_family(lang));
		fputc('"', f);
	} else {
		/* a page may shrink the image to its width, but not below
		 * 9-unit labels at 8 px: on a phone a wide chart scrolls
		 * sideways like a wide table */
		fprintf(f, " style=\"min-width: %.0fpx\"", w * MIN_SCALE);
	}
	fputs(">\n<title>", f);
	svg_escape(f, c->title ? c->title : "");
	fputs("</title>\n", f);
	if (standalone)
		fputs("<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n",
		      f);
	if (title_h > 0)
		text_wrapped(f, MARGIN, y, TITLE_SIZE, w - 2 * MARGIN, NULL, 1,
			     c->title);
	/* The unit sits above the axis, read horizontally. */
	if (c->ylabel)
		text(f, MARGIN, y + title_h + svg_style.tick * ASCENT,
		     svg_style.tick, NULL, c->ylabel);
	body(f, c, &fr, items, nitems);
	fputs("</svg>\n", f);
	free(items);
	return ferror(f) ? -XR_EIO : 0;
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
		text(f, o->x, o->y + dy, o->size,
		     anchor[o->anchor < 0   ? 0
			    : o->anchor > 0 ? 2
					    : 1],
		     o->text);
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
