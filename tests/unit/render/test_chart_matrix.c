/*
 * The bar chart of a matrix table (reports/render/chart.c, chart_matrix)
 * on a report built by hand (issue 35, "one number per cell"): each bar
 * is the cell's geometric mean and its whisker the geomean's 95%
 * interval, the numbers the tables show, not the fastest run; the
 * caption names the estimator the bars show (geomean, median, or both
 * when the cells differ); the y axis keeps 0.3 of a tick above the
 * tallest whisker for its value (chart_yrange).
 *
 * The cells (Gbit/s): x=a geomean 9.41 [9.36, 9.46], median 9.43, the
 * fastest run 9.60; x=b geomean 9.00 [8.95, 9.05], fastest 9.20. Shown
 * in Gbit/s (display scale 1e9), so the whisker of x=a ends at
 * 9.46e9 / 1e9 = 9.46, not 9.60. The axis: ticks of 2 (chart_nice_step
 * of 0..9.46: 9.46 / 5 ~ 1.9, the next nice step 2), the tallest whisker
 * at 9.46 / 2 = 4.73 ticks, plus the label's room of 0.3 = 5.03 ticks,
 * rounded up to 6: the axis ends at 12 (with a room of only 0.25 it would
 * be 4.98, rounded to 5: 10, the label over the axis's end).
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "chart.h"
#include "chart_text_fixture.h"
#include "report.h"
#include "tap.h"
#include "banned.h"

static const char *lv_x[] = {"a", "b"};
static struct report_factor factors[] = {{"x", lv_x, 2, 0, 0}};
static const int lv0[] = {0}, lv1[] = {1};

static const char *metrics[] = {"throughput"};
static const char *units[] = {"bit/s"};
static const char *row_label[] = {"all"};
static const char *col_label[] = {"a", "b"};
static const int col_f[] = {0};
static const int cl0[] = {0}, cl1[] = {1};
static const int *const col_lv[] = {cl0, cl1};
static const int cellmap[] = {0, 1};
static struct report_table tables[] = {
    {"throughput", 0, -1, col_f, 1, 1, 2, row_label, col_label, col_lv, cellmap,
     0},
};

/* median, mean, min, max, then the geomean and its interval */
static void stat(struct report_stats *s, double med, double max, double gm,
		 double lo, double hi)
{
	memset(s, 0, sizeof *s);
	s->metric = "throughput";
	s->unit = "bit/s";
	s->n = 5;
	s->median = med;
	s->mean = med;
	s->min = med * 0.99;
	s->max = max;
	s->ci_low = s->ci_high = NAN;
	s->iv_p95 = s->iv_peak = NAN;
	s->gm = gm;
	s->gm_low = lo;
	s->gm_high = hi;
	s->med_low = med * 0.995;
	s->med_high = med * 1.005;
}

static struct report_stats st[2];
static struct report_cell cells[2];

static void model(struct report *r)
{
	memset(r, 0, sizeof *r);
	memset(cells, 0, sizeof cells);
	stat(&st[0], 9.43e9, 9.60e9, 9.41e9, 9.36e9, 9.46e9);
	stat(&st[1], 9.02e9, 9.20e9, 9.00e9, 8.95e9, 9.05e9);
	cells[0] = (struct report_cell){
	    .index = 0, .lv = lv0, .json = "{}", .label = "x=a", .st = &st[0]};
	cells[1] = (struct report_cell){
	    .index = 1, .lv = lv1, .json = "{}", .label = "x=b", .st = &st[1]};
	r->about.lang = REPORT_LANG_EN;
	r->met.metric = "throughput";
	r->met.metrics = metrics;
	r->met.metric_units = units;
	r->met.nmetrics = 1;
	r->met.display_unit = "Gbit/s";
	r->met.display_scale = 1e9;
	r->factors = factors;
	r->nfactors = 1;
	r->cells = cells;
	r->ncells = 2;
	r->tables = tables;
	r->ntables = 1;
}

int main(void)
{
	struct report r;
	struct chart c;
	struct chart_frame f;
	struct arena *a = arena_new();

	model(&r);
	ok(a && chart_matrix(&r, 0, 1, "throughput by x", a, &c) == 0,
	   "the chart of the table");
	is_int(c.ngroups * c.nseries, 2, "two bars");
	ok(fabs(c.value[0] - 9.41) < 1e-9 && fabs(c.value[1] - 9.00) < 1e-9,
	   "the bars are the geomeans 9.41 and 9.00 Gbit/s (%g, %g)",
	   c.value[0], c.value[1]);
	ok(fabs(c.lo[0] - 9.36) < 1e-9 && fabs(c.hi[0] - 9.46) < 1e-9,
	   "x=a's whisker is the geomean's interval [9.36, 9.46], not up to "
	   "the fastest run 9.60 ([%g, %g])",
	   c.lo[0], c.hi[0]);
	ok(fabs(c.lo[1] - 8.95) < 1e-9 && fabs(c.hi[1] - 9.05) < 1e-9,
	   "x=b's whisker [8.95, 9.05] ([%g, %g])", c.lo[1], c.hi[1]);
	is_str(c.title,
	       "Figure 1. throughput by x (geomean, whiskers = 95% interval)",
	       "every bar a geomean: the caption says geomean alone");

	chart_layout(&c, &fx_chart_st, &fx_chart_tx, 0, 480, &f);
	ok(fabs(f.step - 2) < 1e-9, "ticks of 2 (%g)", f.step);
	ok(fabs(f.ymax - 12) < 1e-9,
	   "4.73 ticks + 0.3 of room = 5.03: the axis ends at 12 (%g)", f.ymax);

	/* x=b has a run that is not > 0: no geomean, its bar the median */
	st[1].gm = st[1].gm_low = st[1].gm_high = NAN;
	ok(chart_matrix(&r, 0, 1, "throughput by x", a, &c) == 0 &&
	       fabs(c.value[1] - 9.02) < 1e-9,
	   "without a geomean the bar is the median 9.02 (%g)", c.value[1]);
	is_str(c.title,
	       "Figure 1. throughput by x (geomean; median where a run is "
	       "not > 0, whiskers = 95% interval)",
	       "one bar of each: the caption says both");
	st[0].gm = st[0].gm_low = st[0].gm_high = NAN;
	ok(chart_matrix(&r, 0, 1, "throughput by x", a, &c) == 0, "again");
	is_str(c.title,
	       "Figure 1. throughput by x (median, whiskers = 95% interval)",
	       "every bar a median: the caption says median");
	arena_free(a);
	return tap_done();
}
