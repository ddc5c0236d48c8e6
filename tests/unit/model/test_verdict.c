/*
 * The verdict logic (reports/model/verdict.c) on constructed samples: a known
 * difference found with a CI containing it, identical populations never
 * called better or worse, a drifting ABBA sequence estimated without bias
 * by the position covariate, n=2 refused, Welch on runs not interleaved.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "report.h"
#include "tap.h"

/* A deterministic normal generator (LCG + Box-Muller). */
static uint64_t seed = 42;
static double unif(void)
{
	seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return ((seed >> 11) + 0.5) / 9007199254740992.0;
}
static double gauss(void)
{
	return sqrt(-2 * log(unif())) * cos(2 * M_PI * unif());
}

static int decide(const double *ya, const double *pa, size_t na,
		  const double *yb, const double *pb, size_t nb, int inter,
		  int hib, struct report_cmp *c, enum report_flag_code *why)
{
	struct report_sample a = {ya, pa, na}, b = {yb, pb, nb};
	memset(c, 0, sizeof *c);
	return report_decide(&a, &b, inter, 0.01, hib, c, why);
}

int main(void)
{
	tap_plan(29);
	struct report_cmp c, w;
	enum report_flag_code why;
	double ya[64], yb[64], pa[64], pb[64];
	int i, rc, falsepos = 0, trials = 200;

	/* 1. A known +10% with 1% noise, 5 interleaved runs per side. */
	for (i = 0; i < 5; i++) {
		pa[i] = 2 * i;
		pb[i] = 2 * i + 1;
		ya[i] = 9.4e9 * (1 + 0.01 * gauss());
		yb[i] = 9.4e9 * 1.10 * (1 + 0.01 * gauss());
	}
	rc = decide(ya, pa, 5, yb, pb, 5, 1, 1, &c, &why);
	is_int(rc, 0, "+10%: decided");
	is_int(c.verdict, REPORT_BETTER, "+10%: better");
	ok(c.ci_low_pct <= 10 && c.ci_high_pct >= 10,
	   "+10%%: CI [%.2f, %.2f] contains 10", c.ci_low_pct, c.ci_high_pct);
	is_near(c.delta_pct, 10, 2, "+10%: estimate");
	is_int(c.method, REPORT_METHOD_POSITION, "interleaved: position OLS");
	ok(c.p < 0.001, "+10%%: p = %g", c.p);

	/* The same for a lower-is-better metric is worse. */
	rc = decide(ya, pa, 5, yb, pb, 5, 1, 0, &c, &why);
	is_int(c.verdict, REPORT_WORSE, "latency +10%: worse");

	/* 2. Identical populations: the same values in another order. */
	for (i = 0; i < 6; i++) {
		ya[i] = 100 + i;
		yb[i] = 100 + (5 - i);
		pa[i] = 2 * i;
		pb[i] = 2 * i + 1;
	}
	rc = decide(ya, pa, 6, yb, pb, 6, 0, 1, &c, &why);
	ok(c.verdict == REPORT_EQUIVALENT ||
	       c.verdict == REPORT_NOT_SIGNIFICANT,
	   "identical values: ~ or ≈ (got %s)", report_verdict_name(c.verdict));
	is_near(c.delta_pct, 0, 1e-9, "identical values: delta 0");

	/* Sampled identical populations, 2% noise, n=3+3 and n=8+8: never
	 * better/worse beyond the 5% a 95% interval allows (in practice far
	 * fewer: the CI must also clear the 1% threshold). */
	for (i = 0; i < trials; i++) {
		int k, n = i % 2 ? 3 : 8;
		for (k = 0; k < n; k++) {
			ya[k] = 1e9 * (1 + 0.02 * gauss());
			yb[k] = 1e9 * (1 + 0.02 * gauss());
			pa[k] = 2 * k;
			pb[k] = 2 * k + 1;
		}
		decide(ya, pa, (size_t)n, yb, pb, (size_t)n, i % 4 < 2, 1, &c,
		       &why);
		if (c.verdict == REPORT_BETTER || c.verdict == REPORT_WORSE)
			falsepos++;
	}
	ok(falsepos <= trials / 20,
	   "identical populations: %d of %d trials "
	   "called different",
	   falsepos, trials);

	/* 3. ABBA with strong drift (+3% per run): A B B A B A A B. */
	{
		const int abba[8] = {0, 1, 1, 0, 1, 0, 0, 1};
		int na = 0, nb = 0;
		for (i = 0; i < 8; i++) {
			double v = 1e9 * exp(0.03 * i) * (abba[i] ? 1.05 : 1);
			v *= 1 + 0.001 * gauss();
			if (abba[i]) {
				yb[nb] = v;
				pb[nb++] = i;
			} else {
				ya[na] = v;
				pa[na++] = i;
			}
		}
		rc = decide(ya, pa, 4, yb, pb, 4, 1, 1, &c, &why);
		is_int(rc, 0, "abba drift: decided");
		is_near(c.delta_pct, 5, 0.3, "abba drift: +5% without bias");
		ok(c.ci_low_pct <= 5 && c.ci_high_pct >= 5,
		   "abba drift: CI [%.2f, %.2f] contains 5", c.ci_low_pct,
		   c.ci_high_pct);
		is_int(c.verdict, REPORT_BETTER, "abba drift: better");
		decide(ya, pa, 4, yb, pb, 4, 0, 1, &w, &why);
		ok(c.ci_high_pct - c.ci_low_pct <
		       (w.ci_high_pct - w.ci_low_pct) / 4,
		   "abba drift: covariate CI %.2f wide vs Welch %.2f",
		   c.ci_high_pct - c.ci_low_pct, w.ci_high_pct - w.ci_low_pct);
		ok(w.verdict != REPORT_BETTER,
		   "abba drift: Welch alone cannot tell (%s)",
		   report_verdict_name(w.verdict));
	}
	/* A drifting A A B B A A B B order (not mirrored): the covariate
	 * still removes the linear drift. */
	{
		const int order[8] = {0, 0, 1, 1, 0, 0, 1, 1};
		int na = 0, nb = 0;
		for (i = 0; i < 8; i++) {
			double v = 1e9 * exp(-0.02 * i) * (order[i] ? 1.05 : 1);
			if (order[i]) {
				yb[nb] = v;
				pb[nb++] = i;
			} else {
				ya[na] = v;
				pa[na++] = i;
			}
		}
		decide(ya, pa, 4, yb, pb, 4, 1, 1, &c, &why);
		is_near(c.delta_pct, 5, 1e-6, "aabb drift: exact +5%");
	}

	/* 4. n=2 refused. */
	rc = decide(ya, pa, 2, yb, pb, 3, 1, 1, &c, &why);
	is_int(rc, 1, "n=2: refused");
	is_int(c.verdict, REPORT_NOT_COMPARABLE, "n=2: not comparable");
	is_int(why, REPORT_FLAG_TOO_FEW_RUNS, "n=2: too few runs");
	ok(strstr(report_flag_text(why, REPORT_LANG_EN), "need >= 3 runs per "
							 "side") != NULL,
	   "n=2: says need >= 3 runs per side");
	ok(isnan(c.delta_pct), "n=2: no number");

	/* 5. Welch on runs not interleaved: +20%, 2% noise, morning vs
	 * evening. */
	for (i = 0; i < 5; i++) {
		ya[i] = 1e9 * (1 + 0.02 * gauss());
		yb[i] = 1.2e9 * (1 + 0.02 * gauss());
		pa[i] = i;
		pb[i] = 100 + i;
	}
	rc = decide(ya, pa, 5, yb, pb, 5, 0, 1, &c, &why);
	is_int(c.method, REPORT_METHOD_WELCH, "not interleaved: Welch");
	is_int(c.verdict, REPORT_BETTER, "not interleaved: +20% better");
	ok(c.ci_low_pct <= 20 && c.ci_high_pct >= 20,
	   "welch: CI [%.2f, %.2f] contains 20", c.ci_low_pct, c.ci_high_pct);

	/* Small effect with noise: neither outside nor inside the threshold. */
	for (i = 0; i < 3; i++) {
		ya[i] = 100 * (1 + 0.03 * (i - 1));
		yb[i] = 101 * (1 + 0.03 * (1 - i));
	}
	rc = decide(ya, NULL, 3, yb, NULL, 3, 0, 1, &c, &why);
	is_int(c.verdict, REPORT_NOT_SIGNIFICANT, "noisy +1%: ~");
	ok(c.p > 0.05, "noisy +1%%: p = %.2f", c.p);

	/* Zero values cannot be log-transformed: refused. */
	ya[0] = 0;
	rc = decide(ya, NULL, 3, yb, NULL, 3, 0, 1, &c, &why);
	is_int(why, REPORT_FLAG_NONPOSITIVE, "zero value refused");

	/* Equivalent: tight and equal. */
	for (i = 0; i < 6; i++) {
		ya[i] = 1e9 * (1 + 0.001 * gauss());
		yb[i] = 1e9 * (1 + 0.001 * gauss());
	}
	decide(ya, NULL, 6, yb, NULL, 6, 0, 1, &c, &why);
	is_int(c.verdict, REPORT_EQUIVALENT, "tight equal: equivalent");
	return tap_done();
}
