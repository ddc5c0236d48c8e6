/*
 * Latency under load in the tables (issue 19): the summary's line, the
 * median over a cell's runs of `latency.increase_p50` (loaded p50 minus
 * idle p50, seconds), said as "+38 ms at the median under load", with
 * the idle and loaded medians beside it when the runs stored them; and
 * the per-cell table of idle against loaded latency (p50/p90/p99, the
 * increase, the probe's loss) beside the throughput. Nothing is said of a
 * cell without the metric: no number is guessed.
 *
 * SPDX-License-Identifier: MIT
 */
#include "rlatency.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "format.h"

#include "banned.h"

/* The median over cell c's ok runs of metric mi; NaN when none. */
static double cell_median(const struct report_cell *c, int mi)
{
	if (mi < 0 || !c->st || c->st[mi].n < 1)
		return NAN;
	return c->st[mi].median;
}

/* Milliseconds: whole above 10 ms, one decimal down to 1 ms, and below
 * that to the microsecond a probe resolves ("0.052 ms"). */
static void ms(char *out, size_t n, double s, int sign)
{
	double v = s * 1e3;
	int d = fabs(v) >= 10 ? 0 : fabs(v) >= 0.9995 ? 1 : 3;
	snprintf(out, n, sign ? "%+.*f ms" : "%.*f ms", d, v);
}

static int one(const struct report *r, const struct report_cell *c, double inc,
	       int idle_i, int load_i, struct buf *out)
{
	int ja = r->about.lang == REPORT_LANG_JA;
	double idle = cell_median(c, idle_i), load = cell_median(c, load_i);
	char a[32], b[32], d[32];
	int rc = 0;
	ms(d, sizeof d, inc, 1);
	if (r->ncells > 1)
		rc |= buf_addf(out, "%s: ", c->label ? c->label : "");
	rc |= buf_addf(
	    out, ja ? "負荷時の中央値で %s" : "%s at the median under load", d);
	if (isfinite(idle) && isfinite(load)) {
		ms(a, sizeof a, idle, 0);
		ms(b, sizeof b, load, 0);
		rc |= buf_addf(out,
			       ja ? "（アイドル %s、負荷時 %s）"
				  : " (idle %s, loaded %s)",
			       a, b);
	}
	return rc;
}

int rlatency_summary(const struct report *r, struct buf *out)
{
	int inc_i = report_metric_index(r, "latency.increase_p50");
	int idle_i = report_metric_index(r, "latency.idle_p50");
	int load_i = report_metric_index(r, "latency.loaded_p50");
	int i, said = 0, rc = 0;
	if (inc_i < 0)
		return 0;
	for (i = 0; i < r->ncells; i++) {
		double inc = cell_median(&r->cells[i], inc_i);
		if (!isfinite(inc))
			continue;
		if (said++)
			rc |= buf_adds(out, "; ");
		rc |= one(r, &r->cells[i], inc, idle_i, load_i, out);
	}
	return rc < 0 ? -XR_ENOMEM : said;
}

/* The latency probe's metrics (runner/exec/latency_probe.c) in the
 * table's order, with their headings. */
static const struct {
	const char *name;
	enum report_text_id head;
} lat_cols[] = {
    {"latency.idle_p50", REPORT_T_LAT_IDLE_P50},
    {"latency.loaded_p50", REPORT_T_LAT_LOADED_P50},
    {"latency.loaded_p90", REPORT_T_LAT_LOADED_P90},
    {"latency.loaded_p99", REPORT_T_LAT_LOADED_P99},
    {"latency.increase_p50", REPORT_T_LAT_INCREASE},
    {"latency.loss", REPORT_T_LAT_LOSS},
};
#define NLAT (sizeof lat_cols / sizeof lat_cols[0])

/* Row k of the table: the cell, its primary metric, then each column. */
static int lat_row(const struct report *r, struct arena *a, struct rtable *t,
		   int k, const int *mi, int nm)
{
	const struct report_cell *c = &r->cells[k];
	char v[96];
	int j;
	t->cell[k * t->ncols] = arena_strdup(a, c->label ? c->label : "");
	if (r->met.primary >= 0 && r->met.primary < r->met.nmetrics)
		report_fmt_value_unit(r, c->st[r->met.primary].median, v,
				      sizeof v);
	else
		snprintf(v, sizeof v, "–");
	t->cell[k * t->ncols + 1] = arena_strdup(a, v);
	for (j = 0; j < nm; j++) {
		report_fmt_metric(r, mi[j], c->st[mi[j]].median, v, sizeof v);
		if (!(t->cell[k * t->ncols + 2 + j] = arena_strdup(a, v)))
			return -XR_ENOMEM;
	}
	return t->cell[k * t->ncols] && t->cell[k * t->ncols + 1] ? 0
								  : -XR_ENOMEM;
}

int rt_latency(const struct report *r, struct arena *a, struct rtable *t)
{
	int mi[NLAT], nm = 0, k;
	size_t j;
	memset(t, 0, sizeof *t);
	t->unit = "";
	for (j = 0; j < NLAT; j++)
		if ((mi[nm] = report_metric_index(r, lat_cols[j].name)) >= 0)
			nm++;
	if (!nm || r->ncells < 1)
		return 0;
	t->title = report_text(r, REPORT_T_LAT_TABLE);
	t->ncols = nm + 2;
	t->col = arena_alloc(a, (size_t)t->ncols * sizeof *t->col);
	t->cell = arena_alloc(a, (size_t)t->ncols * (size_t)r->ncells *
				     sizeof *t->cell);
	if (!t->col || !t->cell)
		return -XR_ENOMEM;
	t->col[0].head = report_text(r, REPORT_T_CELL);
	t->col[0].wrap = 1;
	t->col[1].head = r->met.metric ? r->met.metric : "";
	t->col[1].align = RT_RIGHT;
	for (j = 0, k = 0; j < NLAT; j++) {
		if (report_metric_index(r, lat_cols[j].name) < 0)
			continue;
		t->col[2 + k].head = report_text(r, lat_cols[j].head);
		t->col[2 + k++].align = RT_RIGHT;
	}
	t->nrows = r->ncells;
	for (k = 0; k < r->ncells; k++)
		if (lat_row(r, a, t, k, mi, nm) < 0)
			return -XR_ENOMEM;
	return 0;
}
