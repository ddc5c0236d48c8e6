/* Unit tests for sizing.c (the runs a precision needs, the frozen count)
 * and sched_extend_block (the extra passes keep the order's drift
 * balance). Reference numbers from scipy 1.10.1 (python3):
 *
 *   from scipy import stats; import math
 *   def hw(sd, n): return math.expm1(stats.t.ppf(0.975, n-1)*sd/math.sqrt(n))
 *   def need(sd, p):
 *       n = 2
 *       while hw(sd, n) > p: n += 1
 *       return n
 *
 *   hw(0.0637, 4) = 0.10667598546230607
 *   hw(0.05, 10)  = 0.036415209894959506
 *   hw(0.01, 3)   = 0.025152494983908598
 *   need(0.0637, 0.02) = 43    need(0.0433, 0.02) = 21
 *   need(0.0012, 0.02) = 2     need(0.05, 0.01)   = 100
 *   need(0.2, 0.05)    = 67    need(0.01, 0.01)   = 7
 *
 * A comparison's Δ (Welch, Satterthwaite's df), n runs a side:
 *   def dneed(sa, sb, p):
 *       n = 2
 *       while True:
 *           v = sa*sa + sb*sb; df = (n-1)*v*v/(sa**4 + sb**4)
 *           if math.expm1(stats.t.ppf(0.975, df)*math.sqrt(v/n)) <= p:
 *               return n
 *           n += 1
 *   dneed(0.02, 0.03, 0.02) = 15   dneed(0.05, 0.01, 0.01) = 104
 *   dneed(0.002, 0.002, 0.02) = 2
 *
 * The split decision (df n - lost in place of n - 1, from lost + 1 runs):
 *   def need(sd, p, lost):
 *       n = lost + 1
 *       while math.expm1(stats.t.ppf(0.975, n-lost)*sd/math.sqrt(n)) > p:
 *           n += 1
 *       return n
 *   (dneed likewise with df = (n-lost)*v*v/(sa**4 + sb**4))
 *   need(0.0433, 0.02, 2) = 21   need(0.01, 0.01, 4) = 8
 *   need(0.0012, 0.02, 2) = 3    dneed(0.02, 0.03, 0.02, 2) = 15
 *   dneed(0.002, 0.002, 0.02, 2) = 3   dneed(0.05, 0.01, 0.01, 4) = 104
 *
 * Kalibera-Jones levels, computed as libkalibera does (pykalibera/data.py
 * Si2, the corrected Ti2, optimalreps), python3:
 *
 *   y = [[1.0, 1.2, 0.9, 1.1], [1.5, 1.4, 1.6, 1.3], [0.8, 0.7, 0.9, 1.0]]
 *   r2, r1 = 3, 4; m = run means; g = mean of m
 *   S1 = sum((v - m[j])**2) / (r2 * (r1 - 1))  = 0.01666666666666667
 *   S2 = sum((mj - g)**2) / (r2 - 1)           = 0.09333333333333332
 *   T1 = S1; T2 = S2 - S1 / r1                 = 0.08916666666666666
 *   sqrt(c2/c1 * T1/T2), c1 = 1, c2 = 5        = 0.9667364890456637
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix.h"
#include "plan.h"
#include "xr_sched.h"
#include "dimension.h"
#include "sched_fixture.h"
#include "sizing.h"
#include "tap.h"

static void check_numbers(void)
{
	is_near(sizing_halfwidth(0.0637, 4), 0.10667598546230607, 1e-9,
		"half-width sd 0.0637 n 4");
	is_near(sizing_halfwidth(0.05, 10), 0.036415209894959506, 1e-9,
		"half-width sd 0.05 n 10");
	is_near(sizing_halfwidth(0.01, 3), 0.025152494983908598, 1e-9,
		"half-width sd 0.01 n 3");
	ok(isnan(sizing_halfwidth(0.01, 1)), "no half-width from one run");
	is_int(sizing_need(0.0637, 0.02), 43, "need sd 0.0637 at 2%");
	is_int(sizing_need(0.0433, 0.02), 21, "need sd 0.0433 at 2%");
	is_int(sizing_need(0.0012, 0.02), 2, "need sd 0.0012 at 2%");
	is_int(sizing_need(0.05, 0.01), 100, "need sd 0.05 at 1%");
	is_int(sizing_need(0.2, 0.05), 67, "need sd 0.2 at 5%");
	is_int(sizing_need(0.01, 0.01), 7, "need sd 0.01 at 1%");
	is_int(sizing_need(0, 0.01), 2, "no spread: two runs");
	is_int(sizing_need_delta(0.02, 0.03, 0.02), 15, "Δ need 0.02/0.03");
	is_int(sizing_need_delta(0.05, 0.01, 0.01), 104, "Δ need 0.05/0.01");
	is_int(sizing_need_delta(0.002, 0.002, 0.02), 2, "Δ need quiet");
	is_int(sizing_need_split(0.0433, 0.02, 2), 21, "split need 0.0433");
	is_int(sizing_need_split(0.01, 0.01, 4), 8, "split need, 4 lost");
	is_int(sizing_need_split(0.0012, 0.02, 2), 3, "split need: k + 1");
	is_int(sizing_need_delta_split(0.02, 0.03, 0.02, 2), 15,
	       "split Δ need 0.02/0.03");
	is_int(sizing_need_delta_split(0.002, 0.002, 0.02, 2), 3,
	       "split Δ need quiet: k + 1");
	is_int(sizing_need_delta_split(0.05, 0.01, 0.01, 4), 104,
	       "split Δ need 0.05/0.01, 4 lost");
	is_int(sizing_decide_runs(3), 2, "decision runs of min 3: 2");
	is_int(sizing_decide_runs(4), 2, "decision runs of min 4: 2");
	is_int(sizing_decide_runs(9), 2, "decision runs of min 9: 2");
}

static void check_planned(struct plan *p)
{
	p->repeat = 4;
	p->repeat_max = 12;
	p->precision = 0.02;
	p->order = PLAN_ORDER_ABBA;
	is_int(sizing_planned(p, 2), 4, "below min: min");
	is_int(sizing_planned(p, 7), 8, "abba: extra runs rounded to even");
	is_int(sizing_planned(p, 43), 12, "capped at max");
	p->repeat_max = 11;
	is_int(sizing_planned(p, 11), 11, "the cap wins over rounding");
	p->order = PLAN_ORDER_RANDOM;
	is_int(sizing_planned(p, 7), 7, "random: no rounding");
	p->repeat_max = 12;
}

/* Cells of the runs with repetition rep, in order, as "0 1 2 ". */
static void reps(const struct sched *s, uint32_t rep, char *out)
{
	size_t i;
	*out = 0;
	for (i = 0; i < s->nruns; i++)
		if (s->runs[i].rep == rep)
			snprintf(out + strlen(out), 8, "%u ", s->runs[i].cell);
}

static void check_extend(struct plan *p)
{
	struct matrix m;
	struct sched s;
	struct xr_err err = {0};
	uint32_t extra[4] = {0, 4, 0, 2};
	size_t at = 0, added = 0, i;
	char a[64], b[64];
	p->order = PLAN_ORDER_ABBA;
	if (matrix_build(p, &m, &err) < 0 || sched_build(p, &m, &s, &err) < 0)
		return (void)ok(0, "fixture: %s", err.msg);
	is_int((long long)s.nruns, 16, "pilot: 4 cells x 4");
	ok(sched_extend_block(&s, p, 0, extra, m.ncells, &at, &added) == 0,
	   "extended");
	is_int((long long)at, 16, "extra runs after the pilot");
	is_int((long long)added, 6, "4 + 2 extra runs");
	is_int((long long)s.nruns, 22, "schedule grew");
	ok(s.blocks[0].sized && s.blocks[0].nruns == 22, "block sized, grew");
	reps(&s, 5, a);
	reps(&s, 6, b);
	is_str(a, "1 3 ", "extra pass 0: the cells needing runs, S order");
	is_str(b, "3 1 ", "extra pass 1 mirrors pass 0");
	reps(&s, 7, a);
	reps(&s, 8, b);
	is_str(a, "1 ", "passes 2 and 3: the cell needing 4");
	is_str(b, "1 ", "pass 3");
	for (i = 0; i < s.nruns; i++)
		if (s.runs[i].pos != i)
			break;
	is_int((long long)i, 22, "block positions continue");
	sched_release(&s);
	matrix_release(&m);
}

static void check_levels(void)
{
	struct dim_levels l;
	dimension_components(0.01666666666666667, 0.09333333333333332, 4, &l);
	is_near(l.t1, 0.01666666666666667, 1e-15, "T1^2 = S1^2");
	is_near(l.t2, 0.08916666666666666, 1e-15,
		"T2^2 = S2^2 - S1^2/r1 (corrected)");
	is_near(dimension_optimal_r1(&l, 1, 5), 0.9667364890456637, 1e-12,
		"optimal intervals per run");
	dimension_components(0.5, 0.01, 4, &l);
	is_near(l.t2, 0, 0, "a negative T2^2 reads as 0");
	ok(isinf(dimension_optimal_r1(&l, 1, 5)),
	   "no run-level variance: longer runs");
}

int main(void)
{
	struct plan *p = fx_plan();
	fx_factor(p, "x", "a,b,c,d");
	check_numbers();
	check_planned(p);
	check_extend(p);
	check_levels();
	fx_free(p);
	return tap_done();
}
