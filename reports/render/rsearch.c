/*
 * The rate search section of a report (rsearch.h): its table, the
 * parameters sentence and the loss-against-load chart, built once from
 * the model's searches (report.h, struct report_search) for every writer.
 *
 * SPDX-License-Identifier: MIT
 */
#include "rsearch.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "chart_fig.h"
#include "banned.h"

#define FONT 7.5
#define LEFT 44.0
#define PLOT_H 150.0
#define NCOLS 8

static int bits(const struct report_search *s)
{
	return !strcmp(s->unit, "bit/s");
}

/* A load as the table shows it: Gbit/s to 4 decimals, or as stored. */
static const char *load_text(struct arena *a, const struct report_search *s,
			     int has, double v)
{
	if (!has || !isfinite(v))
		return "–";
	return bits(s) ? arena_printf(a, "%.4f", v / 1e9)
		       : arena_printf(a, "%.6g", v);
}

static int search_rows(const struct report *r, struct arena *a,
		       struct rtable *t, const struct report_search *s)
{
	int g;
	for (g = 0; g < s->ngoals; g++) {
		const struct report_search_goal *go = &s->goals[g];
		const char **c = &t->cell[t->nrows * NCOLS];
		c[0] = r->cells[s->cell].label ? r->cells[s->cell].label : "";
		c[1] = go->name;
		c[2] = load_text(a, s, go->has_load, go->load);
		c[3] = go->has_load && isfinite(go->pps)
			   ? arena_printf(a, "%.4f", go->pps / 1e6)
			   : "–";
		c[4] = load_text(a, s, go->has_load, go->throughput);
		c[5] = load_text(a, s, go->has_upper, go->upper);
		c[6] = arena_printf(a, "%d", go->trials);
		c[7] = go->regular
			   ? ""
			   : arena_printf(
				 a, report_text(r, REPORT_T_SEARCH_IRREGULAR),
				 go->why);
		for (int k = 0; k < NCOLS; k++)
			if (!c[k])
				return -XR_ENOMEM;
		t->nrows++;
	}
	return 0;
}

int rt_search(const struct report *r, struct arena *a, struct rtable *t)
{
	static const enum report_text_id heads[NCOLS] = {
	    REPORT_T_CELL,	    REPORT_T_SEARCH_GOAL,
	    REPORT_T_SEARCH_LOAD,   REPORT_T_SEARCH_LOAD,
	    REPORT_T_SEARCH_TPUT,   REPORT_T_SEARCH_UPPER,
	    REPORT_T_SEARCH_TRIALS, REPORT_T_SEARCH_IRREGULAR};
	int i, rows = 0, k, gbit = 1;
	memset(t, 0, sizeof *t);
	t->unit = "";
	if (!r->nsearches)
		return 0;
	for (i = 0; i < r->nsearches; i++) {
		rows += r->searches[i].ngoals;
		gbit &= bits(&r->searches[i]);
	}
	t->title = report_text(r, REPORT_T_SEARCH_TITLE);
	t->unit = gbit ? "Gbit/s" : "";
	t->ncols = NCOLS;
	t->col = arena_alloc(a, NCOLS * sizeof *t->col);
	t->cell = arena_alloc(a, (size_t)rows * NCOLS * sizeof *t->cell);
	if (!t->col || !t->cell)
		return -XR_ENOMEM;
	memset(t->col, 0, NCOLS * sizeof *t->col);
	for (k = 0; k < NCOLS; k++) {
		t->col[k].head = report_text(r, heads[k]);
		t->col[k].align = k >= 2 && k < 7 ? RT_RIGHT : RT_LEFT;
	}
	t->col[0].wrap = t->col[7].wrap = 1;
	t->col[2].head = gbit ? arena_printf(a, "%s (Gbit/s)", t->col[2].head)
			      : t->col[2].head;
	t->col[3].head = "Mpps";
	t->col[4].head = gbit ? arena_printf(a, "%s (Gbit/s)", t->col[4].head)
			      : t->col[4].head;
	t->col[5].head = gbit ? arena_printf(a, "%s (Gbit/s)", t->col[5].head)
			      : t->col[5].head;
	t->col[7].head = "";
	if (!t->col[2].head || !t->col[4].head || !t->col[5].head)
		return -XR_ENOMEM;
	for (i = 0; i < r->nsearches; i++)
		if (search_rows(r, a, t, &r->searches[i]) < 0)
			return -XR_ENOMEM;
	return 0;
}

/* "20 Mbit/s" or the number as it is. */
static void load_words(const struct report_search *s, double v, char *out,
		       size_t n)
{
	static const char *const pre[] = {"", "k", "M", "G", "T"};
	int k = 0;
	if (!bits(s)) {
		snprintf(out, n, "%g", v);
		return;
	}
	while (k < 4 && fabs(v) >= 1000) {
		v /= 1000;
		k++;
	}
	snprintf(out, n, "%g %sbit/s", v, pre[k]);
}

int rsearch_params(const struct report *r, int si, struct buf *out)
{
	const struct report_search *s = &r->searches[si];
	struct buf goals = BUF_INIT;
	char lo[32], hi[32], w[32];
	int g;
	buf_reset(out);
	for (g = 0; g < s->ngoals; g++) {
		const struct report_search_goal *go = &s->goals[g];
		buf_addf(&goals, "%s%s %g%%, %g s, %g s, %g%%", g ? "; " : "",
			 go->name, go->loss * 100, go->trial, go->sum,
			 go->exceed * 100);
	}
	load_words(s, s->min, lo, sizeof lo);
	load_words(s, s->max, hi, sizeof hi);
	snprintf(w, sizeof w, "%g%%", s->width * 100);
	buf_addf(out, report_text(r, REPORT_T_SEARCH_PARAMS), s->param, lo, hi,
		 w, goals.s ? goals.s : "");
	buf_release(&goals);
	return out->s ? 0 : -XR_ENOMEM;
}

/* ---- the chart ---------------------------------------------------------- */

static int dot(struct chart_fig *f, int colour, double x, double y, int fill)
{
	struct chart_op *o = chart_fig_op(f, CHART_OP_DOT, colour);
	if (!o)
		return -XR_ENOMEM;
	o->x = x, o->y = y, o->w = 2.2, o->fill = fill;
	return 0;
}

/* The loss axis: 0 to four times the largest goal loss, at least 2%. */
static double loss_top(const struct report_search *s)
{
	double hi = 0.02;
	int g;
	for (g = 0; g < s->ngoals; g++)
		if (4 * s->goals[g].loss > hi)
			hi = 4 * s->goals[g].loss;
	return hi * 100;
}

static int marks(const struct report *r, struct chart_fig *f,
		 const struct report_search *s, const struct chart_axis *x,
		 const struct chart_axis *y, double scale)
{
	int g;
	(void)r;
	for (g = 0; g < s->ngoals; g++) {
		const struct report_search_goal *go = &s->goals[g];
		double px;
		char lab[64];
		if (!go->has_load)
			continue;
		px = chart_axis_pos(x, go->load / scale);
		snprintf(lab, sizeof lab, "%s %.4g", go->name,
			 go->load / scale);
		if (chart_fig_line(f, g, 0.8, px, y->p0, px, y->p1) < 0 ||
		    chart_fig_text(f, px + 2, y->p1 + FONT * (1.2 + g), -1,
				   FONT, lab) < 0)
			return -XR_ENOMEM;
	}
	return 0;
}

/* Text s in lines that fit width, from f->h down (f->h grows). */
static int wrap(struct chart_fig *f, const char *s, double width)
{
	char line[512];
	size_t n = 0, i = 0;
	while (s[i]) {
		size_t j = i, k;
		while (s[j] && s[j] != ' ')
			j++;
		k = j - i + (n ? 1 : 0);
		if (n &&
		    (n + k >= sizeof line ||
		     chart_text_estimate(line, n, FONT) +
			     chart_text_estimate(s + i, j - i, FONT) + FONT >
			 width)) {
			f->h += FONT * 1.5;
			if (chart_fig_text(f, 0, f->h, -1, FONT, line) < 0)
				return -XR_ENOMEM;
			n = 0;
			k = j - i;
		}
		if (n + k < sizeof line) {
			if (n)
				line[n++] = ' ';
			memcpy(line + n, s + i, j - i);
			n += j - i;
			line[n] = 0;
		}
		i = s[j] ? j + 1 : j;
	}
	if (n) {
		f->h += FONT * 1.5;
		if (chart_fig_text(f, 0, f->h, -1, FONT, line) < 0)
			return -XR_ENOMEM;
	}
	f->h += FONT * 0.6;
	return 0;
}

int chart_search(const struct report *r, int si, double width, struct arena *a,
		 struct chart_fig *f)
{
	const struct report_search *s = &r->searches[si];
	struct chart_axis x = {0}, y = {0};
	double lo = INFINITY, hi = 0, scale = 1, top = FONT * 1.6;
	const char *unit = "";
	struct buf p = BUF_INIT;
	int k, rc = 0;
	memset(f, 0, sizeof *f);
	f->a = a;
	f->kind = "search";
	for (k = 0; k < s->ntrials; k++)
		if (s->trials[k].ok) {
			lo = fmin(lo, s->trials[k].load);
			hi = fmax(hi, s->trials[k].load);
		}
	if (!(hi > 0))
		return 0;
	if (bits(s))
		scale = chart_rate_scale(r, hi, &unit);
	f->title = arena_printf(
	    a, report_text(r, REPORT_T_SEARCH_CHART),
	    r->cells[s->cell].label ? r->cells[s->cell].label : "");
	chart_axis_fit(&x, lo / scale, hi / scale, 0);
	x.p0 = LEFT, x.p1 = width - 8;
	chart_axis_fit(&y, 0, loss_top(s), 1);
	y.p0 = top + PLOT_H, y.p1 = top;
	if (!f->title ||
	    chart_fig_text(f, 0, FONT, -1, FONT,
			   report_text(r, REPORT_T_SEARCH_LOSS_AXIS)) < 0 ||
	    chart_fig_yaxis(f, &y, x.p0, x.p1, FONT) < 0 ||
	    chart_fig_xaxis(
		f, &x, y.p0, FONT,
		arena_printf(a, report_text(r, REPORT_T_SEARCH_LOAD_AXIS),
			     *unit ? unit : s->unit)) < 0 ||
	    marks(r, f, s, &x, &y, scale) < 0)
		return -XR_ENOMEM;
	for (k = 0; k < s->ntrials; k++) {
		const struct report_search_trial *t = &s->trials[k];
		double v = t->loss * 100, py;
		if (!t->ok)
			continue;
		py = chart_axis_pos(&y, v > y.hi ? y.hi : v);
		if (dot(f, t->goal, chart_axis_pos(&x, t->load / scale), py,
			v <= y.hi) < 0)
			return -XR_ENOMEM;
	}
	f->w = width;
	f->h = y.p0 + 5 + 3 * FONT;
	if (rsearch_params(r, si, &p) < 0 || wrap(f, p.s, width) < 0)
		rc = -XR_ENOMEM;
	buf_release(&p);
	return rc;
}
