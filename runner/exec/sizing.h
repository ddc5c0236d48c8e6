/*
 * Sized repetitions (schema/plan.md, "Sized repetitions"): after the
 * pilot of a block (its first `min` repetitions), each cell's runs are
 * computed once from the pilot's spread and the plan's precision, capped
 * at `max`, recorded in the store and scheduled as whole extra passes of
 * the same block; a resume reads the decision back. The pure part (the
 * number of runs a precision needs) is exposed for the unit tests and for
 * `xrun plan --dimension`.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_SIZING_H
#define XR_SIZING_H

#include <stddef.h>

#include "xr_err.h"

struct plan;
struct runctx;

/* Largest run count the need search considers (the need is reported up
 * to it even past max). */
#define SIZING_NEED_CAP 1000000

/* Relative half-width of the 95% interval of a geometric mean from n runs
 * whose log values have sample sd `sd`: expm1(t(0.975, n-1) sd / sqrt n).
 * NaN for n < 2. */
double sizing_halfwidth(double sd, int n);
/* Fewest runs n >= 2 with sizing_halfwidth(sd, n) <= precision (at most
 * SIZING_NEED_CAP). */
int sizing_need(double sd, double precision);
/* Fewest runs n >= 2 per side for which the 95% interval of a
 * comparison's Δ (the difference of two cells' log means, Welch's t with
 * Satterthwaite's df) is within the precision, both sides with n runs and
 * log-scale sds sa, sb: expm1(t(0.975, df) sqrt((sa^2 + sb^2) / n)). */
int sizing_need_delta(double sa, double sb, double precision);
/*
 * The split decision (schema/plan.md, "Sized repetitions"): the sizing
 * reads only each cell's first sizing_decide_runs(min) successful pilot
 * runs (2), and the verdict leaves their within-decision
 * spread out of its variance, so the final test keeps n - k df per cell
 * (k decision runs) and does not reuse what decided n (Cox 1975). The
 * needs below are the ones above with df n - lost in place of n - 1
 * (lost = 1 gives sizing_need and sizing_need_delta); the fewest runs
 * considered is lost + 1.
 */
int sizing_decide_runs(int min);
int sizing_need_split(double sd, double precision, int lost);
int sizing_need_delta_split(double sa, double sb, double precision, int lost);
/* The runs frozen for a cell: need within [min, max]; under order abba
 * the extra runs past min are rounded up to an even count (mirrored pairs
 * of passes) while that stays within max. */
int sizing_planned(const struct plan *p, int need);
/* The metric the precision is about: throughput when the engine measures
 * it, else the plan's first declared metric; NULL when none. */
const char *sizing_metric(const struct plan *p);

/* Called by the run loop after run i: when i ends a block whose runs are
 * all done and whose repetitions are not decided yet, decides them and
 * inserts the extra passes after i (rc->s, rc->ids and rc->status grow).
 * 0, or a negative XR_ code with err set. */
int sizing_after_run(struct runctx *rc, size_t i, struct xr_err *err);
/* A resumed session: rebuilds the extra passes of the blocks decided
 * before (before the runs are loaded). */
int sizing_restore(struct runctx *rc, struct xr_err *err);
/* When the session stops: each decided cell's runs done, precision
 * reached and why it stopped (planned, max or interrupted). */
void sizing_finish(struct runctx *rc);

#endif
