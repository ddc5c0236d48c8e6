/*
 * The history change rule (reports/stats/changept.c) on histories worked
 * by hand: a step found at its session with the difference of the two
 * segments' means as its delta; no change in a flat history; a step under
 * the magnitude floor not reported; a lone deviant session between two
 * opposite changes named, not reported as two changes; a last session
 * alone kept as a change; two steps both found, also one session apart
 * in the same direction; a permutation p that is the smallest B allows
 * when no shuffle matches.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "changept.h"
#include "tap.h"

/* nsess sessions of 3 runs: level[k] + noise x (-1, 0, +1) (logs). */
static double noise = 0.01;
static void build(double *y, size_t *start, const double *level, size_t ns)
{
	size_t k, r, i = 0;
	for (k = 0; k < ns; k++) {
		start[k] = i;
		for (r = 0; r < 3; r++)
			y[i++] = level[k] + noise * ((double)r - 1);
	}
	start[ns] = i;
}

static size_t find(const double *level, size_t ns, double floor,
		   struct changept_change *c, size_t *spk, size_t *nspk)
{
	double y[64];
	size_t start[24], n = 0;
	struct changept_opts o = {0.05, floor, 42};
	build(y, start, level, ns);
	if (changept_find(y, start, ns, &o, c, &n, spk, nspk) < 0)
		return (size_t)-1;
	return n;
}

int main(void)
{
	struct changept_change c[16];
	size_t spk[16], nspk = 0, n;
	tap_plan(27);
	{ /* a step of -0.10 after session 4 of 8 */
		double lv[8] = {5, 5, 5, 5, 4.9, 4.9, 4.9, 4.9};
		n = find(lv, 8, log(1.01), c, spk, &nspk);
		is_int((long long)n, 1, "one change");
		is_int((long long)c[0].at, 4, "before session 5");
		/* the runs' means differ by exactly the step: each session's
		 * three runs average to its level */
		is_near(c[0].delta, -0.10, 1e-12, "delta = 4.9 - 5");
		ok(c[0].lo < -0.10 && c[0].hi > -0.10 && c[0].hi < 0,
		   "its interval holds it and excludes 0: [%g, %g]", c[0].lo,
		   c[0].hi);
		/* no shuffle of the 24 runs reaches the observed t: the
		 * smallest p of 999 permutations, 1/1000 */
		is_near(c[0].p, 0.001, 1e-12, "p = 1 / (999 + 1)");
	}
	{ /* flat: nothing */
		double lv[8] = {5, 5, 5, 5, 5, 5, 5, 5};
		is_int((long long)find(lv, 8, log(1.01), c, spk, &nspk), 0,
		       "flat history: no change");
	}
	{ /* a 0.5% step, certain at a run's sd of 0.001 (t = 0.005 /
	     (0.001 sqrt(2/12)) = 12.2), under a 1% floor */
		double lv[8] = {5, 5, 5, 5, 4.995, 4.995, 4.995, 4.995};
		noise = 0.001;
		is_int((long long)find(lv, 8, log(1.01), c, spk, &nspk), 0,
		       "0.5% step under the 1% floor: none");
		n = find(lv, 8, log(1.001), c, spk, &nspk);
		is_int((long long)n, 1, "the same step over a 0.1% floor: one");
		is_int((long long)(n ? c[0].at : 0), 4, "at session 5");
		noise = 0.01;
	}
	{ /* one bad night (session 4 of 8 drops 10%, then back) */
		double lv[8] = {5, 5, 5, 4.9, 5, 5, 5, 5};
		n = find(lv, 8, log(1.01), c, spk, &nspk);
		is_int((long long)n, 0, "a lone deviant session: no change");
		is_int((long long)nspk, 1, "named as deviant");
		is_int((long long)(nspk ? spk[0] : 99), 3, "session 4");
	}
	{ /* the last session alone stays a change (the CI gate's case) */
		double lv[6] = {5, 5, 5, 5, 5, 4.9};
		n = find(lv, 6, log(1.01), c, spk, &nspk);
		is_int((long long)n, 1, "a last session alone: a change");
		is_int((long long)(n ? c[0].at : 0), 5, "at session 6");
		is_near(n ? c[0].delta : 0, -0.10, 1e-12, "delta -0.10");
		is_int((long long)nspk, 0, "not a deviant session");
	}
	{ /* two steps: -0.10 after session 3, +0.20 after session 6 */
		double lv[9] = {5, 5, 5, 4.9, 4.9, 4.9, 5.1, 5.1, 5.1};
		n = find(lv, 9, log(1.01), c, spk, &nspk);
		is_int((long long)n, 2, "two changes");
		is_int((long long)(n > 1 ? c[0].at : 0), 3,
		       "first at session 4");
		is_int((long long)(n > 1 ? c[1].at : 0), 6,
		       "second at session 7");
		is_near(n > 1 ? c[0].delta : 0, -0.10, 1e-12, "first -0.10");
		is_near(n > 1 ? c[1].delta : 0, 0.20, 1e-12, "second +0.20");
	}
	{ /* two steps of -0.10 one session apart (after sessions 4 and
	     5): two changes, not a deviant session; only opposite changes
	     fence in a deviant one. Each delta is the step: the segments
	     [0, 4), [4, 5) and [5, 8) average to 5, 4.9 and 4.8. */
		double lv[8] = {5, 5, 5, 5, 4.9, 4.8, 4.8, 4.8};
		n = find(lv, 8, log(1.01), c, spk, &nspk);
		is_int((long long)n, 2, "two same-sign steps: two changes");
		is_int((long long)(n > 1 ? c[0].at : 0), 4,
		       "first at session 5");
		is_int((long long)(n > 1 ? c[1].at : 0), 5,
		       "second at session 6");
		is_near(n > 1 ? c[1].delta : 0, -0.10, 1e-12, "second -0.10");
		is_int((long long)nspk, 0, "no deviant session");
	}
	{ /* a session without a value is refused */
		double y[3] = {1, 2, 3};
		size_t start[3] = {0, 3, 3};
		struct changept_opts o = {0.05, 0, 1};
		is_int(changept_find(y, start, 2, &o, c, &n, NULL, NULL),
		       -XR_EREPORT, "an empty session: STATS_EDATA");
	}
	return tap_done();
}
