/*
 * The A/B verdict (schema/report.md, "Method"): work on log(y) so that an
 * effect is a ratio; estimate it with run position as a covariate when the
 * two sides were interleaved (linear drift then neither biases nor widens
 * it), else with Welch's t; transform estimate and 95% interval to percent;
 * compare the interval with the noise threshold theta.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "stats.h"
#include "banned.h"

/* Metrics whose direction is not "higher is better". Matched as a prefix
 * of the metric name. */
static const char *const lower_is_better[] = {
    "latency", "rtt",	  "jitter",   "lost", "loss", "retrans",
    "cpu",     "elapsed", "duration", "time", "drop", "error",
};

int report_higher_is_better(const char *metric, const char *unit)
{
	size_t i;
	if (metric)
		for (i = 0;
		     i < sizeof lower_is_better / sizeof *lower_is_better; i++)
			if (!strncmp(metric, lower_is_better[i],
				     strlen(lower_is_better[i])))
				return 0;
	if (unit && (!strcmp(unit, "s") || !strcmp(unit, "%")))
		return 0;
	return 1;
}

static double pct(double x)
{
	return 100.0 * expm1(x);
}

int report_decide(const struct report_sample *a, const struct report_sample *b,
		  int interleaved, double threshold, int higher_is_better,
		  struct report_cmp *out, enum report_flag_code *why)
{
	struct stats_effect e;
	double *y, *pos;
	int *g;
	size_t n = a->n + b->n, i;
	int rc = -1;

	out->n_a = (int)a->n;
	out->n_b = (int)b->n;
	out->delta_pct = out->ci_low_pct = out->ci_high_pct = NAN;
	out->p = out->df = NAN;
	out->method = REPORT_METHOD_NONE;
	out->verdict = REPORT_NOT_COMPARABLE;
	out->higher_is_better = higher_is_better;
	if (a->n < 3 || b->n < 3) {
		*why = REPORT_FLAG_TOO_FEW_RUNS;
		return 1;
	}
	for (i = 0; i < a->n; i++)
		if (!(a->y[i] > 0)) {
			*why = REPORT_FLAG_NONPOSITIVE;
			return 1;
		}
	for (i = 0; i < b->n; i++)
		if (!(b->y[i] > 0)) {
			*why = REPORT_FLAG_NONPOSITIVE;
			return 1;
		}
	y = malloc(n * sizeof *y);
	pos = malloc(n * sizeof *pos);
	g = malloc(n * sizeof *g);
	if (!y || !pos || !g) {
		free(y);
		free(pos);
		free(g);
		*why = REPORT_FLAG_TOO_FEW_RUNS;
		return 1;
	}
	for (i = 0; i < n; i++) {
		int in_b = i >= a->n;
		const struct report_sample *s = in_b ? b : a;
		size_t k = in_b ? i - a->n : i;
		y[i] = log(s->y[k]);
		pos[i] = s->pos ? s->pos[k] : (double)i;
		g[i] = in_b;
	}
	if (interleaved && a->pos && b->pos) {
		rc = stats_group_position(y, g, pos, n, 0.95, &e);
		if (rc == 0)
			out->method = REPORT_METHOD_POSITION;
	}
	if (rc != 0) {
		rc = stats_welch(y, a->n, y + a->n, b->n, 0.95, &e);
		out->method = REPORT_METHOD_WELCH;
	}
	free(y);
	free(pos);
	free(g);
	if (rc != 0) {
		out->method = REPORT_METHOD_NONE;
		*why = REPORT_FLAG_TOO_FEW_RUNS;
		return 1;
	}
	out->delta_pct = pct(e.est);
	out->ci_low_pct = pct(e.lo);
	out->ci_high_pct = pct(e.hi);
	out->p = e.p;
	out->df = e.df;
	{
		double th = 100.0 * threshold;
		if (out->ci_low_pct > th)
			out->verdict =
			    higher_is_better ? REPORT_BETTER : REPORT_WORSE;
		else if (out->ci_high_pct < -th)
			out->verdict =
			    higher_is_better ? REPORT_WORSE : REPORT_BETTER;
		else if (out->ci_low_pct >= -th && out->ci_high_pct <= th)
			out->verdict = REPORT_EQUIVALENT;
		else
			out->verdict = REPORT_NOT_SIGNIFICANT;
	}
	return 0;
}
