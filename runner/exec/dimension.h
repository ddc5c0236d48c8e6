/*
 * `xrun plan PLAN --dimension --db PILOT.db`: from any earlier store of
 * the plan, the variance at each level of the experiment (intervals inside
 * a run, runs) and each level's cost, the Kalibera-Jones optimal number of
 * intervals per run (so: whether longer runs or more runs buy precision
 * more cheaply), and the recommended duration, repeat per cell and total
 * time for the plan's precision (1% for a plan with a fixed repeat).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_DIMENSION_H
#define XR_DIMENSION_H

#include <stdio.h>

#include "xr_err.h"

struct plan;
struct store;

/* Kalibera & Jones (2013) for two levels, 1 = intervals in a run, 2 =
 * runs, on log values: s1 = S_1^2 (mean within-run variance), s2 = S_2^2
 * (variance of the run means), r1 = intervals per run. The unbiased
 * components are T_1^2 = S_1^2 and T_2^2 = S_2^2 - S_1^2 / r_1 (the
 * corrected formula: the paper as printed divides T_1^2, libkalibera
 * uses the revised S_1^2). */
struct dim_levels {
	double t1, t2; /* T_1^2, T_2^2 (t2 may come out negative: 0) */
};
void dimension_components(double s1, double s2, int r1, struct dim_levels *o);
/* Optimal intervals per run: sqrt(c2/c1 * T_1^2 / T_2^2), c1 the cost of
 * an interval, c2 a run's cost beyond its intervals; INFINITY when T_2^2
 * is 0 (runs add nothing: longer runs are cheaper), 1 when T_1^2 is 0. */
double dimension_optimal_r1(const struct dim_levels *l, double c1, double c2);

/* Prints the recommendation for plan p from the store st. overhead: the
 * per-run overhead (s) measured from the same store. 0, or a negative
 * XR_ code with err set. */
int dimension_print(const struct plan *p, struct store *st, double overhead,
		    FILE *out, struct xr_err *err);

#endif
