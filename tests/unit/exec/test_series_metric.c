/* Unit tests for the statistics of series metrics (series_metric.c)
 * against values worked out by hand and checked with Python's statistics
 * module (quantiles(method='inclusive'), the interpolation numpy and R's
 * type 7 use):
 *   points t > 0 of t = [-1, 0, 0.5, 2, 3, 4, 5], v = [100, 7, 10, 30, 20,
 *   NaN, 40] are 10, 30, 20, 40: median 25, p95 38.5, max 40, min 10,
 *   mean 25, delta 100;
 *   per second of their intervals (0.5, 1.5, 1, 1: the NaN point and its
 *   interval are left out) 20, 20, 20, 40: median 20, p95 37, mean 25,
 *   delta 100 / 4 s = 25.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <string.h>

#include "plan.h"
#include "series.h"
#include "series_metric.h"
#include "tap.h"

static double value_of(const struct series *s, int stat, int rate)
{
	struct plan_metric m;
	double v = NAN;
	memset(&m, 0, sizeof m);
	m.name = "x";
	m.series = s->name;
	m.stat = stat;
	m.rate = rate;
	if (!series_metric_value(&m, s, &v))
		return -1;
	return v;
}

int main(void)
{
	static const double t[] = {-1, 0, 0.5, 2, 3, 4, 5};
	static const double v[] = {100, 7, 10, 30, 20, NAN, 40};
	static const struct {
		int stat, rate;
		double want;
		const char *name;
	} cases[] = {
	    {PLAN_STAT_MEDIAN, 0, 25, "median"},
	    {PLAN_STAT_P95, 0, 38.5, "p95"},
	    {PLAN_STAT_MAX, 0, 40, "max"},
	    {PLAN_STAT_MIN, 0, 10, "min"},
	    {PLAN_STAT_MEAN, 0, 25, "mean"},
	    {PLAN_STAT_DELTA, 0, 100, "delta"},
	    {PLAN_STAT_MEDIAN, 1, 20, "median rate"},
	    {PLAN_STAT_P95, 1, 37, "p95 rate"},
	    {PLAN_STAT_MAX, 1, 40, "max rate"},
	    {PLAN_STAT_MIN, 1, 20, "min rate"},
	    {PLAN_STAT_MEAN, 1, 25, "mean rate"},
	    {PLAN_STAT_DELTA, 1, 25, "delta rate: the increase per second"},
	};
	struct series_set ss = {0};
	struct series *s;
	size_t k;
	tap_plan(18);
	for (k = 0; k < sizeof t / sizeof t[0]; k++)
		series_set_add(&ss, "server", "nic.ethtool.rx_pause", "1", t[k],
			       v[k]);
	s = &ss.s[0];
	for (k = 0; k < sizeof cases / sizeof cases[0]; k++)
		is_near(value_of(s, cases[k].stat, cases[k].rate),
			cases[k].want, 1e-12, cases[k].name);

	/* The first point's interval is the spacing after it; a single
	 * point's runs from the engine's start. */
	series_set_release(&ss);
	series_set_add(&ss, "h", "a", "1", 2, 10);
	series_set_add(&ss, "h", "a", "1", 3, 20);
	series_set_add(&ss, "h", "b", "1", 2, 10);
	is_near(value_of(&ss.s[0], PLAN_STAT_MIN, 1), 10, 1e-12,
		"first point: the next spacing");
	is_near(value_of(&ss.s[1], PLAN_STAT_MAX, 1), 5, 1e-12,
		"a single point: from 0 to its t");
	is_near(value_of(&ss.s[0], PLAN_STAT_P95, 0), 19.5, 1e-12,
		"p95 of two points");
	/* Nothing during the engine's run: no value. */
	series_set_release(&ss);
	series_set_add(&ss, "h", "c", "1", -0.5, 3);
	series_set_add(&ss, "h", "c", "1", 0, 4);
	series_set_add(&ss, "h", "d", "1", 1, NAN);
	is_near(value_of(&ss.s[0], PLAN_STAT_MAX, 0), -1, 0,
		"only the lead-in: no value");
	is_near(value_of(&ss.s[1], PLAN_STAT_MAX, 0), -1, 0,
		"only NaN: no value");
	is_near(value_of(&ss.s[0], PLAN_STAT_MEAN, 1), -1, 0,
		"rate over the lead-in only: no value");
	series_set_release(&ss);
	return tap_done();
}
