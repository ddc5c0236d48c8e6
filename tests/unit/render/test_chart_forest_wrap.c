/*
 * The comparisons chart at a phone's width (reports/render/chart_cmp.c,
 * issue 35: "the verdict visible at 390 px"): a pair's verdict follows
 * its name on the same line when both fit between the chart's paddings
 * (8 units each side), else it starts a line of its own at the left
 * padding; it never runs past the chart's right edge.
 *
 * The widths are chart_text_estimate's em table at the chart's font of
 * 7.5, added up by hand with python3 (0.6 em a letter, digit, '=', '+',
 * '%', '▲' and '→'; 0.32 a space; 0.36 '.', ',', '[' and ']'):
 *   "▲ +9.9% [+9.0, +10.8] better"     106.8
 *   "x=a → x=c"                         36.3
 *   "x=a → x=b...b" (52 b's)           265.8  (36.3 + 51 x 4.5)
 * At width 390 the room is 390 - 2 x 8 = 374. The short pair needs
 * 36.3 + 12 + 106.8 = 155.1: the verdict on the name's line at
 * x = 8 + 36.3 + 12 = 56.3. The long one needs 265.8 + 12 + 106.8 =
 * 384.6 > 374: the verdict on the next line (10 lower) at x = 8; on the
 * name's line it would end at 8 + 384.6 = 392.6, past the edge at 390.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "chart.h"
#include "chart_fig.h"
#include "report.h"
#include "tap.h"
#include "banned.h"

#define HEAD "▲ +9.9% [+9.0, +10.8] better"
#define LONG_B "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"

static const char *lv_x[] = {"a", "c", LONG_B};
static struct report_factor factors[] = {{"x", lv_x, 3, 0, 0}};
static const int lv0[] = {0}, lv1[] = {1}, lv2[] = {2};
static struct report_cell cells[] = {
    {.index = 0, .lv = lv0, .json = "{}", .label = "x=a"},
    {.index = 1, .lv = lv1, .json = "{}", .label = "x=c"},
    {.index = 2, .lv = lv2, .json = "{}", .label = "x=" LONG_B},
};

static const struct chart_op *text_op(const struct chart_fig *f, const char *s,
				      int nth)
{
	int i;
	for (i = 0; i < f->nops; i++)
		if (f->ops[i].kind == CHART_OP_TEXT && f->ops[i].text &&
		    !strcmp(f->ops[i].text, s) && nth-- == 0)
			return &f->ops[i];
	return NULL;
}

int main(void)
{
	struct report_cmp cmps[2];
	struct report r;
	struct chart_fig f;
	struct arena *a = arena_new();
	const struct chart_op *name, *head;
	int i;

	memset(&r, 0, sizeof r);
	memset(cmps, 0, sizeof cmps);
	for (i = 0; i < 2; i++) {
		cmps[i].factor = 0;
		cmps[i].a = 0;
		cmps[i].b = i ? 2 : 1;
		cmps[i].n_a = cmps[i].n_b = 5;
		cmps[i].metric = "throughput";
		cmps[i].delta_pct = 9.9;
		cmps[i].ci_low_pct = 9.0;
		cmps[i].ci_high_pct = 10.8;
		cmps[i].p = 0.001;
		cmps[i].verdict = REPORT_BETTER;
		cmps[i].higher_is_better = 1;
		cmps[i].eq_low_pct = cmps[i].eq_high_pct = NAN;
	}
	r.about.lang = REPORT_LANG_EN;
	r.met.threshold = 0.01;
	r.factors = factors;
	r.nfactors = 1;
	r.cells = cells;
	r.ncells = 3;
	r.cmps = cmps;
	r.ncmps = 2;

	ok(a && chart_forest(&r, 390, a, &f) == 0, "the chart at 390");
	name = text_op(&f, "x=a → x=c", 0);
	head = text_op(&f, HEAD, 0);
	ok(name && head && fabs(head->y - name->y) < 1e-9 &&
	       fabs(head->x - 56.3) < 1e-6,
	   "a short pair: the verdict on its name's line at x = 56.3 "
	   "(x %g, %g below)",
	   head ? head->x : -1, head && name ? head->y - name->y : -1);
	name = text_op(&f, "x=a → x=" LONG_B, 0);
	head = text_op(&f, HEAD, 1);
	ok(name && head && fabs(head->y - name->y - 10) < 1e-9 &&
	       fabs(head->x - 8) < 1e-9,
	   "a long pair: the verdict on the next line at x = 8 "
	   "(x %g, %g below)",
	   head ? head->x : -1, head && name ? head->y - name->y : -1);
	ok(head && head->x + chart_text_estimate(HEAD, strlen(HEAD), 7.5) <=
		       390 - 8 + 1e-9,
	   "it ends inside the chart");
	arena_free(a);
	return tap_done();
}
