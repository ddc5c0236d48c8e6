/*
 * The neutral chart geometry (reports/render/chart.c) and the SVG drawer
 * (svg_chart.c): nice y ticks over values, whiskers and published
 * markers; bars inside their group; few bars narrow the plot; the legend
 * wraps into rows, after its title; each bar's value fits it or is
 * left out; SVG text escaped (markup,
 * quotes, control characters, broken UTF-8) so the image stays XML.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "chart.h"
#include "svg_chart.h"
#include "tap.h"
#include "banned.h"

/* Every character is 0.5 em wide; a label wraps every 10 characters. */
static double measure(void *ctx, const char *s, size_t len, double size)
{
	(void)ctx;
	(void)s;
	return 0.5 * size * (double)len;
}

static int lines(void *ctx, const char *s, double size, double width)
{
	(void)ctx;
	(void)size;
	(void)width;
	return (int)(strlen(s) + 9) / 10 ? (int)(strlen(s) + 9) / 10 : 1;
}

/* Every text on one line. */
static int wrap(void *ctx, const char *s, double size, double width,
		const char **start, size_t *len, int max)
{
	(void)ctx;
	(void)size;
	(void)width;
	if (max < 1)
		return 0;
	start[0] = s;
	len[0] = strlen(s);
	return 1;
}

static const struct chart_text tx = {NULL, measure, lines, wrap};
static const struct chart_style st = {7, 7, 30, 220};

static const char *groups[] = {"1", "a very long group label"};
static const char *series[] = {"a", "b", "c"};
static const double value[] = {2.0, 2.2, NAN, 7.96, 8.71, 9.0};
static const double lo[] = {1.9, 2.1, NAN, 6.0, 8.6, 9.0};
static const double hi[] = {2.1, 2.3, NAN, 8.1, 8.9, 9.0};
static const double ref[] = {2.1, NAN, NAN, NAN, NAN, 11.2};

static void chart(struct chart *c)
{
	memset(c, 0, sizeof *c);
	c->title = "Figure 1. <t> & \"q\"";
	c->ylabel = "Gbit/s";
	c->xlabel = "streams";
	c->ngroups = 2;
	c->nseries = 3;
	c->groups = groups;
	c->series = series;
	c->value = value;
	c->lo = lo;
	c->hi = hi;
}

static void test_axis(void)
{
	struct chart c;
	struct chart_frame f;
	char t[64];

	chart(&c);
	chart_layout(&c, &st, &tx, 0, 480, &f);
	is_int((int)f.ymin, 0, "axis from 0");
	is_int((int)f.ymax, 10, "up to the next nice tick over 9.0");
	ok(fabs(f.step - 2) < 1e-9, "step 2");
	is_int(f.nticks, 6, "ticks 0..10");
	is_str(chart_tick_label(&f, 5, t, sizeof t), "10", "last tick label");
	is_int(f.maxl, 3, "the long group label takes 3 lines");
	c.ref = ref;
	chart_layout(&c, &st, &tx, 0, 480, &f);
	is_int((int)f.ymax, 12,
	       "a published marker above the bars widens "
	       "the axis");
	ok(chart_has_ref(&c), "the chart has markers");
}

static void test_bars(void)
{
	struct chart c;
	struct chart_frame f;
	struct chart_bar b;
	int g, s;

	chart(&c);
	c.ref = ref;
	chart_layout(&c, &st, &tx, 10, 480, &f);
	f.py0 = 200; /* y down, as in SVG */
	f.py1 = 20;
	for (g = 0; g < 2; g++)
		for (s = 0; s < 3; s++) {
			chart_bar_at(&c, &f, g, s, &b);
			ok(b.x >= f.px0 + g * f.gw &&
			       b.x + b.w <= f.px0 + (g + 1) * f.gw,
			   "bar %d/%d inside its group", g, s);
		}
	chart_bar_at(&c, &f, 0, 0, &b);
	ok(b.has_bar && b.has_whisker && b.has_ref, "bar, whisker, marker");
	ok(fabs(b.y0 - 200) < 1e-9 && b.y1 < b.y0, "bar from the axis up");
	ok(b.yhi < b.y1 && b.y1 < b.ylo, "whisker around the median");
	chart_bar_at(&c, &f, 0, 2, &b);
	ok(!b.has_bar && !b.has_whisker && !b.has_ref, "NAN: nothing drawn");
	chart_bar_at(&c, &f, 1, 2, &b);
	ok(b.has_bar && !b.has_whisker, "min == max: no whisker");
	ok(f.bw <= st.max_bar + 1e-9, "bars no wider than max_bar");
	ok(f.px1 < 10 + 480, "few bars: a narrower plot");
}

static void test_legend(void)
{
	struct chart c;
	struct chart_legend_item it[3];
	int n, rows;

	chart(&c);
	rows = chart_legend(&c, &st, &tx, 0, 1000, 7, it, &n);
	is_int(n, 3, "one entry per series");
	is_int(rows, 1, "one row when wide");
	rows = chart_legend(&c, &st, &tx, 0, 40, 7, it, &n);
	ok(rows == 3 && it[2].row == 2 && it[2].x == 0, "narrow: a row each");
	c.nseries = 1;
	rows = chart_legend(&c, &st, &tx, 0, 1000, 7, it, &n);
	is_int(rows, 0, "one series: no legend");
}

/* Values on the bars (issue 21): the tables' decimals, smaller in a
 * narrow bar, none when even 4.5 does not fit; room above the tallest
 * bar; the legend's title pushes the swatches right. */
static void test_labels(void)
{
	struct chart c;
	struct chart_frame f;
	struct chart_bar b;
	struct chart_legend_item it[3];
	static const double tall[] = {9.6, 1.0, 1.0, 1.0, 1.0, 1.0};
	char v[32];
	double size;
	int n;

	chart(&c);
	chart_layout(&c, &st, &tx, 0, 480, &f);
	f.py0 = 200, f.py1 = 20;
	ok(chart_bar_label(&c, &st, &tx, &f, 1, 0, v, sizeof v, &size),
	   "a label on a wide bar");
	is_str(v, "7.96", "as the tables print it (report_fmt_decimals)");
	ok(fabs(size - 6) < 1e-9, "at the label size less 1");
	chart_bar_at(&c, &f, 1, 0, &b);
	ok(fabs(b.ytop - chart_ypos(&f, 8.1)) < 1e-9,
	   "above the whisker's end");
	ok(!chart_bar_label(&c, &st, &tx, &f, 0, 2, v, sizeof v, &size),
	   "no bar: no label");
	f.bw = 0.5 * 5.5 * 4 / 1.1; /* "7.96" fits at 5.5 */
	ok(chart_bar_label(&c, &st, &tx, &f, 1, 0, v, sizeof v, &size) &&
	       fabs(size - 5.5) < 1e-9,
	   "a narrower bar: smaller text (%g)", size);
	f.bw = 4;
	ok(!chart_bar_label(&c, &st, &tx, &f, 1, 0, v, sizeof v, &size),
	   "too narrow even at 4.5: none");
	c.value = tall;
	chart_layout(&c, &st, &tx, 0, 480, &f);
	is_int((int)f.ymax, 12, "9.6 is too close to 10 for its label: 12");
	chart(&c);
	chart_legend(&c, &st, &tx, 0, 1000, 7, it, &n);
	ok(it[0].x == 0, "no title: the first swatch at the start");
	c.legend_title = "nic";
	chart_legend(&c, &st, &tx, 0, 1000, 7, it, &n);
	ok(fabs(it[0].x - (0.5 * 7 * 5 + 4)) < 1e-9, "after 'nic: ' (%g)",
	   it[0].x);
}

static char *capture_svg(const struct chart *c, int standalone)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	if (svg_chart_write(f, c, standalone, REPORT_LANG_JA) < 0)
		ok(0, "svg written");
	fclose(f);
	return text;
}

static void test_svg(void)
{
	static const char decl[] =
	    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg ";
	struct chart c;
	char *s, *e = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&e, &len);

	if (f) {
		svg_escape(f, "<a href='x'>&\"\x01\x7f\xff</a>\t日本");
		fclose(f);
	}
	is_str(e,
	       "&lt;a href=&#39;x&#39;&gt;&amp;&quot;\xEF\xBF\xBD&lt;/a&gt;"
	       "\t日本",
	       "escaped; controls dropped; a broken byte is U+FFFD");
	free(e);
	chart(&c);
	c.ref = ref;
	s = capture_svg(&c, 1);
	ok(s && !strncmp(s, decl, strlen(decl)),
	   "standalone: an XML declaration");
	ok(s && strstr(s, "<title>Figure 1. &lt;t&gt; &amp; &quot;q&quot;"
			  "</title>"),
	   "the title escaped");
	ok(s && strstr(s, "font-family=\"&#39;IPAexGothic&#39;"),
	   "standalone: the Japanese font stack");
	ok(s && strstr(s, "stroke=\"" CHART_MARK_HEX "\""), "markers drawn");
	ok(s && strstr(s, ">a</text>") && strstr(s, ">Gbit/s</text>") &&
	       strstr(s, ">streams</text>"),
	   "legend, unit and axis label");
	ok(s && !strstr(s, "href") && !strstr(s, "<script"), "nothing loaded");
	free(s);
	s = capture_svg(&c, 0);
	ok(s && !strncmp(s, "<svg ", 5) && !strstr(s, "font-family"),
	   "inline: no declaration, the page's fonts");
	free(s);
}

/* A bar's value is never on its whisker's cap (issue 35): each value
 * text's baseline lies CHART_LABEL_GAP (4.5) above the highest of its
 * bar's ink, a whisker cap included; its digits have no descent, so that
 * is the white space seen between them. */
static void test_label_gap(void)
{
	struct chart c;
	struct chart_fig fig;
	struct arena *a = arena_new();
	int i, k, labels = 0, off = 0;

	chart(&c);
	ok(a && chart_bars_fig(&c, &st, &tx, 480, a, &fig) == 0,
	   "the bars as shapes");
	for (i = 0; a && i < fig.nops; i++) {
		const struct chart_op *t = &fig.ops[i];
		double cap = INFINITY; /* the highest ink at the text's x */
		if (t->kind != CHART_OP_TEXT || !t->text ||
		    !strchr("0123456789", t->text[0]) || t->anchor != 0 ||
		    !strchr(t->text, '.')) /* a value, not group "1" */
			continue;
		for (k = 0; k < fig.nops; k++) {
			const struct chart_op *o = &fig.ops[k];
			if (o->kind == CHART_OP_PATH && o->n == 2 &&
			    o->py[0] == o->py[1] && o->px[0] < t->x &&
			    o->px[1] > t->x && o->px[1] - o->px[0] < 20)
				cap = fmin(cap, o->py[0]); /* a cap */
			if (o->kind == CHART_OP_RECT && o->fill &&
			    o->x < t->x && o->x + o->w > t->x)
				cap = fmin(cap, o->y); /* the bar's top */
		}
		labels++;
		if (!(fabs(cap - t->y - 4.5) < 1e-9)) {
			off++;
			printf("# %s at %g, ink at %g\n", t->text, t->y, cap);
		}
	}
	ok(labels >= 4, "values on the bars (%d)", labels);
	is_int(off, 0, "each value 4.5 above its cap or bar top");
	arena_free(a);
}

int main(void)
{
	test_axis();
	test_label_gap();
	test_bars();
	test_legend();
	test_labels();
	test_svg();
	return tap_done();
}
