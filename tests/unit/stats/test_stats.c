/* Unit tests of reports/stats/stats.c against reference values (R, numeric
 * integration, and scipy 1.10.1 / statsmodels 0.13.5 / numpy 1.24.2 where
 * noted: each such block quotes the Python that computed the numbers and
 * its output).
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stats.h"
#include "tap.h"

static void test_ols_robust(void);
static void test_ols_bmg(void);
static void test_tost(void);
static void test_mannwhitney(void);
static void test_hodges_lehmann(void);
static void test_median_ci(void);
static void test_geomean_outliers(void);

int main(void)
{
	tap_plan(35);
	double x[] = {4, 1, 3, 2, 5};
	double s[] = {1, 2, 3, 4, 5};
	double a[] = {1, 2, 3, 4, 5}, b[] = {2, 4, 6, 8, 10};
	double X[] = {1, 0, 1, 1, 1, 2, 1, 3, 1, 4}, y[] = {1, 3, 5, 7, 9};
	double beta[2], se[2], s2;
	struct stats_effect e;

	is_near(tdist_mean(x, 5), 3, 1e-12, "mean");
	is_near(tdist_sd(x, 5), sqrt(2.5), 1e-12, "sd");
	ok(isnan(tdist_sd(x, 1)), "sd of one value is NaN");
	ok(isnan(tdist_mean(x, 0)), "mean of nothing is NaN");
	is_near(stats_median(x, 5), 3, 1e-12, "median odd");
	is_near(stats_median(x, 4), 2.5, 1e-12, "median even");
	is_near(stats_quantile_sorted(s, 5, 0.95), 4.8, 1e-12,
		"quantile type 7 (R: quantile(1:5, .95) = 4.8)");
	is_near(stats_quantile_sorted(s, 5, 0.25), 2, 1e-12, "quartile");

	/* pt(2, 10) = 0.9633062; qt(.975, df) for 1, 3, 10, 1000. */
	is_near(tdist_cdf(2, 10), 0.9633062, 1e-6, "t cdf");
	is_near(tdist_cdf(-2, 10), 1 - 0.9633062, 1e-6, "t cdf symmetric");
	is_near(tdist_quantile(0.975, 1), 12.7062047, 1e-5, "qt df=1");
	is_near(tdist_quantile(0.975, 3), 3.1824463, 1e-6, "qt df=3");
	is_near(tdist_quantile(0.975, 10), 2.2281389, 1e-6, "qt df=10");
	is_near(tdist_quantile(0.975, 1000), 1.9623390, 1e-6, "qt df=1000");
	is_near(tdist_quantile(0.025, 5), -2.5705818, 1e-6, "qt lower");
	is_near(stats_t_p2(2.228139, 10), 0.05, 1e-5, "two-sided p");
	/* pbeta(0.4, 2, 3) = 0.5248 */
	is_near(tdist_betainc(2, 3, 0.4), 0.5248, 1e-9, "incomplete beta");
	is_near(tdist_betainc(0.5, 0.5, 0.5), 0.5, 1e-9, "beta symmetric");

	/* t.test(b, a): t = 1.8974, df = 5.8824, p = 0.1075,
	 * 95% CI -0.8877 6.8877 (checked by numeric integration). */
	ok(stats_welch(a, 5, b, 5, 0.95, &e) == 0, "welch runs");
	is_near(e.est, 3, 1e-12, "welch estimate");
	is_near(e.t, 1.8973666, 1e-6, "welch t");
	is_near(e.df, 5.8823529, 1e-6, "welch df");
	is_near(e.p, 0.1075, 5e-4, "welch p");
	is_near(e.lo, -0.88774, 5e-5, "welch ci low");
	is_near(e.hi, 6.88774, 5e-5, "welch ci high");
	ok(stats_welch(a, 1, b, 5, 0.95, &e) < 0, "welch refuses n=1");

	ok(stats_ols(X, 5, 2, y, beta, se, &s2) == 0, "ols runs");
	is_near(beta[0], 1, 1e-9, "ols intercept");
	is_near(beta[1], 2, 1e-9, "ols slope");
	is_near(s2, 0, 1e-12, "ols exact fit");
	{
		/* Singular: a column of zeros. */
		double Z[] = {1, 0, 1, 0, 1, 0};
		ok(stats_ols(Z, 3, 2, y, beta, se, NULL) < 0, "ols singular");
	}
	{
		/* lm(y ~ g + p): y = 10 + 2 g + 0.5 p exactly, plus
		 * residuals that sum to zero in each group. */
		double yy[8], pos[8];
		int g[8] = {0, 1, 1, 0, 1, 0, 0, 1}, i;
		for (i = 0; i < 8; i++) {
			pos[i] = i;
			yy[i] = 10 + 2 * g[i] + 0.5 * i + (i % 2 ? 0.1 : -0.1);
		}
		ok(stats_group_position(yy, g, pos, 8, 0.95, &e) == 0,
		   "group + position fit");
		is_near(e.est, 2, 0.1, "group effect");
		is_near(e.df, 5, 0, "df = n - 3");
		ok(e.lo < e.est && e.est < e.hi, "interval around estimate");
	}
	test_ols_robust();
	test_ols_bmg();
	test_tost();
	test_mannwhitney();
	test_hodges_lehmann();
	test_median_ci();
	test_geomean_outliers();
	return tap_done();
}

/*
 * import numpy as np, statsmodels.api as sm
 * from scipy import stats
 * y = np.array([4.61, 4.63, 4.70, 4.60, 4.64, 4.58, 4.66, 4.62, 4.75, 4.63,
 *               4.65, 4.69])
 * g = np.array([0,0,1,0,0,1,0,0,1,0,0,1]); pos = np.arange(12.0)
 * ses = np.array([0]*6 + [1]*6)
 * def design(sessions):
 *     cols = [np.ones(12), g, pos - pos.mean()]
 *     if sessions: cols.append((ses == 1).astype(float))
 *     return np.column_stack(cols)
 * for sessions in (False, True):
 *     X = design(sessions)
 *     for cov in ("nonrobust", "HC3", "HC2"):
 *         r = sm.OLS(y, X).fit(cov_type=cov, use_t=True)
 *         lo, hi = r.conf_int(0.05)[1]
 *         print(sessions, cov, r.params[1], r.bse[1], r.df_resid,
 *               r.pvalues[1], lo, hi)
 *     # Bell-McCaffrey df, straight from Imbens & Kolesar's definition:
 *     # eigenvalues of G'G, column i of G = (I-H)_i (A x_i)_1 / sqrt(1-h_ii)
 *     A = np.linalg.inv(X.T @ X); H = X @ A @ X.T; M = np.eye(12) - H
 *     a = (A @ X.T)[1] / np.sqrt(1 - np.diag(H))
 *     lam = np.linalg.eigvalsh((M * a[None, :]).T @ (M * a[None, :]))
 *     df = lam.sum()**2 / (lam**2).sum()
 *     r = sm.OLS(y, X).fit(cov_type="HC2"); q = stats.t.ppf(0.975, df)
 *     print(sessions, "HC2-BM", df,
 *           2*stats.t.sf(abs(r.params[1]/r.bse[1]), df),
 *           r.params[1]-q*r.bse[1], r.params[1]+q*r.bse[1])
 * Output (b se df p ci):
 * False nonrobust b=0.0448540146 se=0.0268592435 df=9 p=0.1292653412
 *   ci=[-0.0159058155, 0.1056138447]
 * False HC3 b=0.0448540146 se=0.0444493266 df=9 p=0.3392831453
 *   ci=[-0.0556973480, 0.1454053772]
 * False HC2 b=0.0448540146 se=0.0375902874 df=9 p=0.2632828912
 * False HC2-BM df=5.4063989301 p=0.2824972289
 *   ci=[-0.0496305088, 0.1393385380]
 * True nonrobust b=0.0629310345 se=0.0252221477 df=8 p=0.0372269050
 *   ci=[0.0047686577, 0.1210934113]
 * True HC3 b=0.0629310345 se=0.0370020192 df=8 p=0.1274089347
 *   ci=[-0.0223957749, 0.1482578439]
 * True HC2 b=0.0629310345 se=0.0288146940 df=8 p=0.0604849710
 * True HC2-BM df=4.6112718234 p=0.0852944058
 *   ci=[-0.0130575714, 0.1389196403]
 * The same construction for HC3 (STATS_SE_HC3_BM), a_i / (1 - h_ii):
 *     a = (A @ X.T)[1] / (1 - np.diag(H))   (then as above, with
 *     r = sm.OLS(y, X).fit(cov_type="HC3"))
 * False HC3-BM df=4.9613661216 p=0.3595759928
 *   ci=[-0.0696747502, 0.1593827794]
 * True HC3-BM df=4.3519996803 p=0.1583974754
 *   ci=[-0.0366075221, 0.1624695910]
 */
static void check_effect(const struct stats_effect *e, const double want[6],
			 const char *what)
{
	char name[96];
	const char *part[] = {"estimate", "se", "df", "p", "ci low", "ci high"};
	double got[6];
	int i;
	got[0] = e->est;
	got[1] = e->se;
	got[2] = e->df;
	got[3] = e->p;
	got[4] = e->lo;
	got[5] = e->hi;
	for (i = 0; i < 6; i++) {
		snprintf(name, sizeof name, "%s: %s", what, part[i]);
		is_near(got[i], want[i], 1e-8, name);
	}
}

static void test_ols_robust(void)
{
	const double y[12] = {4.61, 4.63, 4.70, 4.60, 4.64, 4.58,
			      4.66, 4.62, 4.75, 4.63, 4.65, 4.69};
	const int g[12] = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
	const int ses[12] = {7, 7, 7, 7, 7, 7, 3, 3, 3, 3, 3, 3};
	const double classic[6] = {0.0448540146, 0.0268592435,	9,
				   0.1292653412, -0.0159058155, 0.1056138447},
		     hc3[6] = {0.0448540146, 0.0444493266,  9,
			       0.3392831453, -0.0556973480, 0.1454053772},
		     bm[6] = {0.0448540146, 0.0375902874,  5.4063989301,
			      0.2824972289, -0.0496305088, 0.1393385380},
		     s_classic[6] = {0.0629310345, 0.0252221477, 8,
				     0.0372269050, 0.0047686577, 0.1210934113},
		     s_hc3[6] = {0.0629310345, 0.0370020192,  8,
				 0.1274089347, -0.0223957749, 0.1482578439},
		     s_bm[6] = {0.0629310345, 0.0288146940,  4.6112718234,
				0.0852944058, -0.0130575714, 0.1389196403},
		     hc3bm[6] = {0.0448540146, 0.0444493266,  4.9613661216,
				 0.3595759928, -0.0696747502, 0.1593827794},
		     s_hc3bm[6] = {0.0629310345, 0.0370020192,	4.3519996803,
				   0.1583974754, -0.0366075221, 0.1624695910};
	double pos[12];
	struct stats_effect e;
	int i;
	for (i = 0; i < 12; i++)
		pos[i] = i;
	ok(stats_group_model(y, g, pos, NULL, 12, STATS_SE_CLASSIC, 0.95, &e) ==
	       0,
	   "group model, classic");
	check_effect(&e, classic, "classic");
	ok(stats_group_position(y, g, pos, 12, 0.95, &e) == 0,
	   "group_position is the classic model");
	check_effect(&e, classic, "group_position");
	ok(stats_group_model(y, g, pos, NULL, 12, STATS_SE_HC3, 0.95, &e) == 0,
	   "group model, HC3");
	check_effect(&e, hc3, "HC3");
	ok(stats_group_model(y, g, pos, NULL, 12, STATS_SE_HC2_BM, 0.95, &e) ==
	       0,
	   "group model, HC2 + Bell-McCaffrey df");
	check_effect(&e, bm, "HC2-BM");
	ok(stats_group_model(y, g, pos, NULL, 12, STATS_SE_HC3_BM, 0.95, &e) ==
	       0,
	   "group model, HC3 + its Bell-McCaffrey-type df");
	check_effect(&e, hc3bm, "HC3-BM");
	/* Session labels are arbitrary ints; 7 first, so 3 gets the dummy
	 * (the same fit as a dummy for 7: only the intercept moves). */
	ok(stats_group_model(y, g, pos, ses, 12, STATS_SE_CLASSIC, 0.95, &e) ==
	       0,
	   "sessions, classic");
	check_effect(&e, s_classic, "sessions classic");
	ok(stats_group_model(y, g, pos, ses, 12, STATS_SE_HC3, 0.95, &e) == 0,
	   "sessions, HC3");
	check_effect(&e, s_hc3, "sessions HC3");
	ok(stats_group_model(y, g, pos, ses, 12, STATS_SE_HC2_BM, 0.95, &e) ==
	       0,
	   "sessions, HC2-BM");
	check_effect(&e, s_bm, "sessions HC2-BM");
	ok(stats_group_model(y, g, pos, ses, 12, STATS_SE_HC3_BM, 0.95, &e) ==
	       0,
	   "sessions, HC3-BM");
	check_effect(&e, s_hc3bm, "sessions HC3-BM");
	{
		/* One session per group: session and group are the same
		 * column, no fit. */
		int gs[12] = {0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1};
		int ss[12] = {0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1};
		ok(stats_group_model(y, gs, pos, ss, 12, STATS_SE_HC3, 0.95,
				     &e) < 0,
		   "session confounded with group is refused");
	}
	{
		/* A session with a single run has leverage 1: HC2/HC3 have
		 * no residual to go on and refuse; the classic fit works. */
		int ss[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
		ok(stats_group_model(y, g, pos, ss, 12, STATS_SE_HC3, 0.95,
				     &e) < 0,
		   "leverage 1 refused by HC3");
		ok(stats_group_model(y, g, pos, ss, 12, STATS_SE_CLASSIC, 0.95,
				     &e) == 0,
		   "leverage 1 fine for the classic fit");
	}
}

/*
 * HC2 with the Bell-McCaffrey df of one working variance per side
 * (STATS_SE_HC2_BMG): tests/unit/stats/hc_bmg.py (numpy, scipy; eigen-
 * values of W (I-H) Omega (I-H) W with the full hat matrix) on the data
 * of test_ols_robust:
 *   no sessions b=0.0448540146 se=0.0375902874 df=2.7517014294
 *     p=0.3254411748 ci=[-0.0811198620, 0.1708278912]
 *   sessions b=0.0629310345 se=0.0288146940 df=2.8674433116
 *     p=0.1210488366 ci=[-0.0312156528, 0.1570777218]
 * With the two sides alone (X = [1, side]) it is Welch's t:
 *   b=0.05 se=0.0365148372 df=3.2362147845 (Welch-Satterthwaite, the
 *   script's own formula) p=0.2582008340 ci=[-0.0615523408, 0.1615523408]
 */
static void test_ols_bmg(void)
{
	const double y[12] = {4.61, 4.63, 4.70, 4.60, 4.64, 4.58,
			      4.66, 4.62, 4.75, 4.63, 4.65, 4.69};
	const int g[12] = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
	const int ses[12] = {7, 7, 7, 7, 7, 7, 3, 3, 3, 3, 3, 3};
	const double bmg[6] = {0.0448540146, 0.0375902874,  2.7517014294,
			       0.3254411748, -0.0811198620, 0.1708278912},
		     s_bmg[6] = {0.0629310345, 0.0288146940,  2.8674433116,
				 0.1210488366, -0.0312156528, 0.1570777218},
		     two[6] = {0.05,	     0.0365148372,  3.2362147845,
			       0.2582008340, -0.0615523408, 0.1615523408};
	double pos[12], X[24];
	struct stats_effect e, w;
	int i;
	for (i = 0; i < 12; i++) {
		pos[i] = i;
		X[2 * i] = 1;
		X[2 * i + 1] = g[i];
	}
	ok(stats_group_model(y, g, pos, NULL, 12, STATS_SE_HC2_BMG, 0.95, &e) ==
	       0,
	   "group model, HC2 + per-side Bell-McCaffrey df");
	check_effect(&e, bmg, "HC2-BMG");
	ok(stats_group_model(y, g, pos, ses, 12, STATS_SE_HC2_BMG, 0.95, &e) ==
	       0,
	   "sessions, HC2-BMG");
	check_effect(&e, s_bmg, "sessions HC2-BMG");
	ok(stats_ols_effect(X, 12, 2, y, 1, STATS_SE_HC2_BMG, 0.95, &e) == 0,
	   "two sides alone, HC2-BMG");
	check_effect(&e, two, "two sides HC2-BMG");
	{
		/* and so the same as stats_welch on the sides' values */
		double a[12], b[12];
		size_t na = 0, nb = 0;
		for (i = 0; i < 12; i++) {
			if (g[i])
				b[nb++] = y[i];
			else
				a[na++] = y[i];
		}
		ok(stats_welch(a, na, b, nb, 0.95, &w) == 0, "welch, sides");
		is_near(e.se, w.se, 1e-12, "two sides HC2 = Welch: se");
		is_near(e.df, w.df, 1e-9, "two sides BMG df = Welch's df");
	}
}

/*
 * from statsmodels.stats.weightstats import ttost_ind
 * a = np.log([100.0, 101.2, 99.5, 100.4, 100.9, 99.8])
 * b = np.log([100.6, 101.0, 100.2, 101.5, 100.1, 100.8])
 * p, lower, upper = ttost_ind(b, a, -0.02, 0.02, usevar="unequal")
 * -> p=0.000485200139 p_low=0.000023137346 (t=7.0390667970
 *    df=9.4929358162) p_high=0.000485200139 (t=-4.6991591802)
 * d = b.mean() - a.mean(); se = sqrt(b.var(ddof=1)/6 + a.var(ddof=1)/6)
 * q = stats.t.ppf(0.95, df) -> 90% ci=[-0.002223099176, 0.010196732062]
 * ttost_ind(b, a, -0.005, 0.005, usevar="unequal")[0] -> 0.386311457936
 */
static void test_tost(void)
{
	double a[6] = {100.0, 101.2, 99.5, 100.4, 100.9, 99.8};
	double b[6] = {100.6, 101.0, 100.2, 101.5, 100.1, 100.8};
	struct stats_effect e;
	struct stats_tost t;
	int i;
	for (i = 0; i < 6; i++) {
		a[i] = log(a[i]);
		b[i] = log(b[i]);
	}
	ok(stats_welch(a, 6, b, 6, 0.95, &e) == 0, "welch for tost");
	is_near(e.df, 9.4929358162, 1e-8, "tost: welch df as statsmodels");
	ok(stats_tost(&e, -0.02, 0.02, 0.05, &t) == 0, "tost runs");
	is_near(t.p, 0.000485200139, 1e-10, "tost p");
	is_near(t.p_low, 0.000023137346, 1e-11, "tost p_low");
	is_near(t.p_high, 0.000485200139, 1e-10, "tost p_high");
	is_near(t.lo, -0.002223099176, 1e-10, "tost 90% ci low");
	is_near(t.hi, 0.010196732062, 1e-10, "tost 90% ci high");
	ok(t.equivalent, "equivalent within +-0.02");
	ok(stats_tost(&e, -0.005, 0.005, 0.05, &t) == 0, "tost narrow");
	is_near(t.p, 0.386311457936, 1e-9, "tost narrow p");
	ok(!t.equivalent, "not equivalent within +-0.005");
	e.se = 0;
	ok(stats_tost(&e, -0.02, 0.02, 0.05, &t) < 0,
	   "zero standard error proves no equivalence");
}

/*
 * from scipy import stats
 * a = [9.41, 9.55, 9.62, 9.38, 9.70]; b = [9.88, 9.51, 9.93, 10.02, 9.79,
 * 9.66]; at = [1, 2, 2, 3, 4, 5]; bt = [2, 4, 6, 6, 7, 8, 9]
 * rng = np.random.default_rng(9)
 * al = list(np.round(rng.normal(10, 1, 10), 3))
 * bl = list(np.round(rng.normal(11, 1, 12), 3))   (values below)
 * for m in ("auto", "exact", "asymptotic"): stats.mannwhitneyu(x, y, method=m)
 * small auto U=4.0 p=0.051948051948      ties auto U=5.5 p=0.030715473099
 * small exact U=4.0 p=0.051948051948     ties exact U=5.5 p=0.034965034965
 * small asymptotic U=4.0 p=0.055234253718
 * ties asymptotic U=5.5 p=0.030715473099
 * large auto U=17.0 p=0.005072912660    large exact U=17.0 p=0.003436192291
 * large asymptotic U=17.0 p=0.005072912660
 * stats.mannwhitneyu(b, a) -> swapped U=26.0 p=0.051948051948
 * x = [0.5, 1.7, 2.9]; y = list(np.arange(40) * 0.1 + 0.05)
 * stats.mannwhitneyu(x, y, method=m):
 * 3+40 auto U=51.0 p=0.701725954137 (exact: min(n) <= 8, no ties)
 * 3+40 asymptotic U=51.0 p=0.685314628759
 */
static const double mw_a[5] = {9.41, 9.55, 9.62, 9.38, 9.70};
static const double mw_b[6] = {9.88, 9.51, 9.93, 10.02, 9.79, 9.66};
static const double mw_at[6] = {1, 2, 2, 3, 4, 5};
static const double mw_bt[7] = {2, 4, 6, 6, 7, 8, 9};
static const double mw_al[10] = {9.197, 10.243, 8.344,	10.656, 11.143,
				 9.547, 10.43,	10.251, 9.606,	9.138};
static const double mw_bl[12] = {8.967,	 12.41,	 10.952, 13.522,
				 11.826, 11.278, 10.343, 12.392,
				 10.494, 12.57,	 10.602, 11.186};

static void test_mannwhitney(void)
{
	static double mw_x3[3] = {0.5, 1.7, 2.9}, mw_y40[40];
	static const struct {
		const double *a, *b;
		size_t na, nb;
		enum stats_mwu_method m;
		double u, p;
		int exact;
		const char *name;
	} c[] = {
	    {mw_a, mw_b, 5, 6, STATS_MWU_AUTO, 4, 0.051948051948, 1,
	     "small auto (exact)"},
	    {mw_a, mw_b, 5, 6, STATS_MWU_EXACT, 4, 0.051948051948, 1,
	     "small exact"},
	    {mw_a, mw_b, 5, 6, STATS_MWU_ASYMPTOTIC, 4, 0.055234253718, 0,
	     "small asymptotic"},
	    {mw_at, mw_bt, 6, 7, STATS_MWU_AUTO, 5.5, 0.030715473099, 0,
	     "ties auto (asymptotic)"},
	    {mw_at, mw_bt, 6, 7, STATS_MWU_EXACT, 5.5, 0.034965034965, 1,
	     "ties exact"},
	    {mw_al, mw_bl, 10, 12, STATS_MWU_AUTO, 17, 0.005072912660, 0,
	     "large auto (asymptotic)"},
	    {mw_al, mw_bl, 10, 12, STATS_MWU_EXACT, 17, 0.003436192291, 1,
	     "large exact"},
	    {mw_b, mw_a, 6, 5, STATS_MWU_AUTO, 26, 0.051948051948, 1,
	     "swapped"},
	    {mw_x3, mw_y40, 3, 40, STATS_MWU_AUTO, 51, 0.701725954137, 1,
	     "3+40 auto (exact)"},
	    {mw_x3, mw_y40, 3, 40, STATS_MWU_ASYMPTOTIC, 51, 0.685314628759, 0,
	     "3+40 asymptotic"},
	};
	struct stats_mwu r;
	char name[96];
	size_t i;
	for (i = 0; i < 40; i++)
		mw_y40[i] = (double)i * 0.1 + 0.05;
	for (i = 0; i < sizeof c / sizeof *c; i++) {
		ok(stats_mannwhitney(c[i].a, c[i].na, c[i].b, c[i].nb, c[i].m,
				     &r) == 0,
		   "mann-whitney %s runs", c[i].name);
		snprintf(name, sizeof name, "mann-whitney %s U", c[i].name);
		is_near(r.u, c[i].u, 1e-12, name);
		snprintf(name, sizeof name, "mann-whitney %s p", c[i].name);
		is_near(r.p, c[i].p, 1e-11, name);
		is_int(r.exact, c[i].exact, "exact or not as scipy");
	}
	ok(stats_mannwhitney(mw_a, 5, mw_a, 5, STATS_MWU_AUTO, &r) == 0 &&
	       r.p == 1,
	   "identical samples: p clipped to 1");
	ok(stats_mannwhitney(mw_a, 0, mw_b, 6, STATS_MWU_AUTO, &r) < 0,
	   "empty side refused");
}

/*
 * Hodges-Lehmann and its interval, computed independently: the exact
 * null distribution of U by enumerating all rank sets.
 * def hl(x, y, conf=0.95, exact=True):
 *     m, n = len(x), len(y)
 *     d = sorted(bj - ai for ai in x for bj in y); est = np.median(d)
 *     if exact:
 *         counts = {}
 *         for c in itertools.combinations(range(m + n), m):
 *             u = sum(c) - m*(m-1)//2; counts[u] = counts.get(u, 0) + 1
 *         cdf = np.cumsum([counts.get(u, 0) for u in range(m*n+1)])
 *         cdf = cdf / sum(counts.values()); k = 0
 *         while k + 1 <= m*n//2 and cdf[k] <= (1-conf)/2: k += 1
 *         cov = 1 - 2*cdf[k-1] if k else nan
 *     else:
 *         N = m + n; _, t = np.unique(x + y, return_counts=True)
 *         s = np.sqrt(m*n/12*((N+1) - (t**3-t).sum()/(N*(N-1))))
 *         k = int(np.floor(m*n/2 + 0.5
 *                          - stats.norm.ppf(1-(1-conf)/2)*s)); cov = conf
 *     return est, k, d[k-1], d[m*n-k], cov
 * hl small est=0.27 k=4 lo=-0.04 hi=0.52 cov=0.969696969697
 * hl ties est=3.5 k=7 lo=0.0 hi=6.0 cov=0.95
 * hl large est=1.5195 k=30 lo=0.53 hi=2.608 cov=0.95
 * hl([1,2,3], [4,5,6.5])      -> (3.0, 0, nan, nan, nan)
 * hl([1,2,3,3.5], [4,5,6.5,7]) -> (3.25, 1, 0.5, 6.0, 0.9714285714285714)
 */
static void test_hodges_lehmann(void)
{
	struct stats_hl h;
	double a3[3] = {1, 2, 3}, b3[3] = {4, 5, 6.5};
	double a4[4] = {1, 2, 3, 3.5}, b4[4] = {4, 5, 6.5, 7};

	ok(stats_hodges_lehmann(mw_a, 5, mw_b, 6, 0.95, &h) == 0, "hl small");
	is_near(h.est, 0.27, 1e-12, "hl small estimate");
	is_int((long long)h.k, 4, "hl small k");
	is_near(h.lo, -0.04, 1e-12, "hl small lo");
	is_near(h.hi, 0.52, 1e-12, "hl small hi");
	is_near(h.coverage, 0.969696969697, 1e-11, "hl small coverage");
	ok(h.exact, "hl small is exact");

	ok(stats_hodges_lehmann(mw_b, 6, mw_a, 5, 0.95, &h) == 0,
	   "hl swapped sides");
	is_near(h.est, -0.27, 1e-12, "hl swapped: estimate mirrored");
	is_near(h.lo, -0.52, 1e-12, "hl swapped: lo = -hi");
	is_near(h.hi, 0.04, 1e-12, "hl swapped: hi = -lo");
	ok(stats_hodges_lehmann(mw_at, 6, mw_bt, 7, 0.95, &h) == 0, "hl ties");
	is_near(h.est, 3.5, 1e-12, "hl ties estimate");
	is_int((long long)h.k, 7, "hl ties k (normal approximation)");
	is_near(h.lo, 0, 1e-12, "hl ties lo");
	is_near(h.hi, 6, 1e-12, "hl ties hi");
	ok(!h.exact, "hl ties is asymptotic");

	ok(stats_hodges_lehmann(mw_al, 10, mw_bl, 12, 0.95, &h) == 0,
	   "hl large");
	is_near(h.est, 1.5195, 1e-12, "hl large estimate");
	is_int((long long)h.k, 30, "hl large k");
	is_near(h.lo, 0.53, 1e-12, "hl large lo");
	is_near(h.hi, 2.608, 1e-12, "hl large hi");

	ok(stats_hodges_lehmann(a3, 3, b3, 3, 0.95, &h) == 1,
	   "hl 3+3: no 95%% interval exists");
	is_near(h.est, 3, 1e-12, "hl 3+3 estimate still given");
	ok(isnan(h.lo) && isnan(h.hi), "hl 3+3 interval is NaN");
	ok(stats_hodges_lehmann(a4, 4, b4, 4, 0.95, &h) == 0, "hl 4+4");
	is_near(h.est, 3.25, 1e-12, "hl 4+4 estimate");
	is_near(h.lo, 0.5, 1e-12, "hl 4+4 lo = smallest difference");
	is_near(h.hi, 6, 1e-12, "hl 4+4 hi = largest difference");
	is_near(h.coverage, 0.9714285714285714, 1e-12, "hl 4+4 coverage");
}

/*
 * def median_ci(x, conf=0.95):
 *     x = sorted(x); n = len(x); k = 0
 *     while k + 1 <= (n+1)//2 and \
 *           1 - 2*stats.binom.cdf(k, n, 0.5) >= conf: k += 1
 *     return (np.median(x), k, x[k-1], x[n-k],
 *             1 - 2*stats.binom.cdf(k-1, n, 0.5))
 * x6  -> (3.05, 1, 2.8, 3.4, 0.96875)
 * x20 -> (10.125, 6, 9.9, 10.35, 0.9586105346679688)
 * x5  -> (3.0, 0, None, None, None)
 * range(100) -> k=40, lo=39, hi=60, coverage 0.9647997997822951
 */
static void test_median_ci(void)
{
	double x6[6] = {3.1, 2.9, 3.4, 3.0, 3.2, 2.8};
	double x20[20] = {10.3, 9.8,  10.1,  10.7,  9.5,   10.0,  10.2,
			  9.9,	10.4, 10.6,  9.7,   10.05, 10.15, 9.6,
			  10.8, 9.85, 10.25, 10.35, 9.95,  10.45};
	double x5[5] = {1, 2, 3, 4, 5}, x100[100];
	struct stats_median_ci m;
	int i;
	for (i = 0; i < 100; i++)
		x100[i] = 99 - i;
	ok(stats_median_ci(x6, 6, 0.95, &m) == 0, "median ci n=6");
	is_near(m.median, 3.05, 1e-12, "median n=6");
	is_near(m.lo, 2.8, 1e-12, "median ci n=6 is [min,");
	is_near(m.hi, 3.4, 1e-12, "median ci n=6 is max]");
	is_near(m.coverage, 0.96875, 1e-12, "median ci n=6 coverage");
	ok(stats_median_ci(x20, 20, 0.95, &m) == 0, "median ci n=20");
	is_near(m.median, 10.125, 1e-12, "median n=20");
	is_int((long long)m.k, 6, "median ci n=20 k");
	is_near(m.lo, 9.9, 1e-12, "median ci n=20 lo");
	is_near(m.hi, 10.35, 1e-12, "median ci n=20 hi");
	is_near(m.coverage, 0.9586105346679688, 1e-12, "n=20 coverage");
	ok(stats_median_ci(x100, 100, 0.95, &m) == 0, "median ci n=100");
	is_int((long long)m.k, 40, "median ci n=100 k");
	is_near(m.lo, 39, 0, "median ci n=100 lo");
	is_near(m.hi, 60, 0, "median ci n=100 hi");
	is_near(m.coverage, 0.9647997997822951, 1e-12, "n=100 coverage");
	ok(stats_median_ci(x5, 5, 0.95, &m) == 1,
	   "n=5: no 95%% interval (benchstat: need >= 6)");
	is_near(m.median, 3, 0, "n=5 median still given");
	ok(isnan(m.lo) && isnan(m.hi) && m.k == 0, "n=5 interval NaN");
	ok(stats_median_ci(x5, 5, 0.90, &m) == 0, "n=5 has a 90%% one");
	ok(stats_median_ci(x5, 0, 0.95, &m) < 0, "n=0 refused");
}

/*
 * g = np.array([0.96, 1.00, 1.04, 0.98, 1.05])
 * lm, s = np.log(g).mean(), np.log(g).std(ddof=1)
 * f = np.exp(stats.t.ppf(0.975, 4) * s / np.sqrt(5))
 * -> gm=1.005411826409 factor=1.048620083644 lo=0.958795127131
 *    hi=1.054295033506
 * o = np.array([1.02, 0.99, 1.01, 1.00, 0.50, 1.03, 0.98, 1.00])
 * med = np.median(o); mad = np.median(np.abs(o - med))
 * M = 0.6745*(o - med)/mad
 * -> med=1.0000 mad=0.0150 M=[0.899 -0.45 0.45 0. -22.483 1.349 -0.899 0.]
 *    idx=[4]
 * o2 = [1.0, 1.0, 1.0, 1.0, 1.0, 1.2, 1.0]: mad=0 meanad=0.028571,
 *    (o2 - med)/(1.253314*meanad) = [0 0 0 0 0 5.585 0]
 */
static void test_geomean_outliers(void)
{
	double gv[5] = {0.96, 1.00, 1.04, 0.98, 1.05};
	double o[8] = {1.02, 0.99, 1.01, 1.00, 0.50, 1.03, 0.98, 1.00};
	double o2[7] = {1.0, 1.0, 1.0, 1.0, 1.0, 1.2, 1.0};
	double flat[4] = {2, 2, 2, 2}, neg[3] = {1, -1, 2};
	struct stats_geomean gm;
	size_t idx[8];

	ok(stats_geomean_ci(gv, 5, 0.95, &gm) == 0, "geomean runs");
	is_near(gm.gm, 1.005411826409, 1e-11, "geomean");
	is_near(gm.factor, 1.048620083644, 1e-11, "geomean factor");
	is_near(gm.lo, 0.958795127131, 1e-11, "geomean lo = gm / factor");
	is_near(gm.hi, 1.054295033506, 1e-11, "geomean hi = gm * factor");
	ok(stats_geomean_ci(neg, 3, 0.95, &gm) < 0, "geomean of -1 refused");
	ok(stats_geomean_ci(flat, 4, 0.95, &gm) == 0 && gm.factor == 1,
	   "geomean of constant data: factor 1");
	{
		/* exp(mean(log 215.5)) is 215.50000000000009 in doubles
		 * (python3: math.exp(math.log(215.5)) ); the geomean of
		 * three 215.5 is 215.5, the value a report prints */
		double same[3] = {215.5, 215.5, 215.5};
		ok(stats_geomean_ci(same, 3, 0.95, &gm) == 0 && gm.gm == 215.5,
		   "geomean of one value: that value (%.17g)", gm.gm);
	}

	is_int(stats_outliers_mad(o, 8, 3.5, idx), 1, "one outlier (M=-22.5)");
	is_int((long long)idx[0], 4, "the halved run");
	is_int(stats_outliers_mad(o, 8, 30, idx), 0, "none above M=30");
	is_int(stats_outliers_mad(o2, 7, 3.5, idx), 1,
	       "MAD 0: mean-AD fallback (M=5.585)");
	is_int((long long)idx[0], 5, "fallback finds 1.2");
	is_int(stats_outliers_mad(o2, 7, 6, idx), 0, "M=5.585 < 6");
	is_int(stats_outliers_mad(flat, 4, 3.5, idx), 0, "constant: none");
	is_int(stats_outliers_mad(o, 2, 3.5, idx), 0, "n < 3: none");
}
