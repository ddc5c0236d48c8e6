/*
 * Charts of more cells than one figure draws (issue 40: 10^5 cells made
 * charts of millions of shapes): past CHART_MAX_CELLS (2000) a bar chart
 * (reports/render/chart.c, chart_bars.c) and a distribution chart
 * (chart_runs.c) are one line saying what was left out and why; at 2000
 * they are drawn. The limit counts cells, rows times columns. The report
 * is built by hand; the counts are the tables' products, by hand:
 * 50 x 50 = 2500 (50 rows, under the limit, but 2500 cells, over it),
 * 40 x 50 = 2000 (at the limit: drawn, one box and one dot a cell),
 * 3 x 667 = 2001 (one over).
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "chart.h"
#include "chart_text_fixture.h"
#include "report.h"
#include "tap.h"
#include "banned.h"

#define MAXC 2500

static struct report_cell cells[MAXC];
static double val[MAXC];
static const double *vrow[MAXC];
static int cellidx[MAXC];
static const char *labels[MAXC];
static char names[MAXC][8];

/* r with one table of nrows x ncols cells, cell i holding one run of
 * 100 + i Mbit/s. */
static void build(struct report *r, struct report_table *tb, int nrows,
		  int ncols)
{
	static const char *metrics[1] = {"throughput"};
	static const char *units[1] = {"bit/s"};
	int n = nrows * ncols;
	memset(r, 0, sizeof *r);
	memset(tb, 0, sizeof *tb);
	memset(cells, 0, sizeof cells);
	for (int i = 0; i < n; i++) {
		val[i] = (100.0 + i) * 1e6;
		vrow[i] = &val[i];
		cells[i].label = "c";
		cells[i].vals = &vrow[i];
		cells[i].nvals = 1;
		cellidx[i] = i;
	}
	for (int i = 0; i < MAXC; i++) {
		snprintf(names[i], sizeof names[i], "%d", i);
		labels[i] = names[i];
	}
	r->cells = cells;
	r->ncells = n;
	r->met.metrics = metrics;
	r->met.metric_units = units;
	r->met.nmetrics = 1;
	r->met.display_unit = "Mbit/s";
	r->met.display_scale = 1e6;
	tb->metric = "throughput";
	tb->row_factor = 0;
	tb->nrows = nrows;
	tb->ncols = ncols;
	tb->row_label = labels;
	tb->col_label = labels;
	tb->cell = cellidx;
	r->tables = tb;
	r->ntables = 1;
}

static int count(const struct chart_fig *f, enum chart_op_kind k)
{
	int n = 0;
	for (int i = 0; i < f->nops; i++)
		n += f->ops[i].kind == k;
	return n;
}

int main(void)
{
	struct report r;
	struct report_table tb;
	struct chart c;
	struct chart_fig f;
	struct arena *a = arena_new();

	tap_plan(12);
	/* 50 rows of 50: 2500 cells, though no more than 50 groups */
	build(&r, &tb, 50, 50);
	ok(a && chart_matrix(&r, 0, 1, "t", a, &c) == 0, "the bar chart");
	is_str(c.left_out,
	       "Not drawn: 2500 cells (a chart draws at most 2000; the table "
	       "holds every value)",
	       "50 x 50 = 2500 cells: left out, counted as cells");
	ok(c.ngroups == 0, "no bar (%d groups)", c.ngroups);
	ok(chart_bars_fig(&c, &fx_chart_st, &fx_chart_tx, 480, a, &f) == 0 &&
	       f.nops == 1 && f.ops[0].kind == CHART_OP_TEXT,
	   "its figure is one line (%d shapes)", f.nops);
	is_str(f.nops ? f.ops[0].text : NULL, c.left_out, "the line says why");
	r.about.lang = REPORT_LANG_JA;
	ok(chart_matrix(&r, 0, 1, "t", a, &c) == 0, "in Japanese");
	is_str(c.left_out,
	       "図は省略: 2500 セル（一つの図は 2000 セルまで。値はすべて表に"
	       "ある）",
	       "the same line in Japanese");

	/* 40 x 50 = 2000 cells, the most a chart draws: every box */
	build(&r, &tb, 40, 50);
	ok(chart_box(&r, 0, 2, "t", 480, a, &f) == 0, "the distribution chart");
	ok(f.title && !strncmp(f.title, "Figure 2, distribution. t (box", 30),
	   "drawn: %s", f.title ? f.title : "(none)");
	ok(count(&f, CHART_OP_DOT) == 2000, "one dot a cell's run: 2000 (%d)",
	   count(&f, CHART_OP_DOT));

	/* 3 x 667 = 2001 cells: one more than a chart draws */
	build(&r, &tb, 3, 667);
	ok(chart_box(&r, 0, 3, "t", 480, a, &f) == 0 &&
	       count(&f, CHART_OP_DOT) == 0,
	   "no box of 2001 cells (%d dots)", count(&f, CHART_OP_DOT));
	ok(f.nops == 1 && f.ops[0].text &&
	       !strcmp(f.ops[0].text,
		       "Not drawn: 2001 cells (a chart draws at most 2000; the "
		       "table holds every value)"),
	   "its one line: %s", f.nops ? f.ops[0].text : "(none)");
	arena_free(a);
	return tap_done();
}
