/*
 * The summary's line on latency under load: the median over a cell's runs
 * of `latency.increase_p50` (loaded p50 minus idle p50, seconds, issue 19),
 * said as "+38 ms at the median under load", with the idle and loaded
 * medians beside it when the runs stored them. Nothing is said of a cell
 * without the metric: no number is guessed.
 */
#include "rlatency.h"

#include <math.h>
#include <stdio.h>

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
