/* Unit tests of reports/model/stats.c against reference values (R, and numeric
 * integration where noted). */
#include <math.h>
#include <string.h>

#include "stats.h"
#include "tap.h"

int main(void)
{
	tap_plan(35);
	double x[] = {4, 1, 3, 2, 5};
	double s[] = {1, 2, 3, 4, 5};
	double a[] = {1, 2, 3, 4, 5}, b[] = {2, 4, 6, 8, 10};
	double X[] = {1, 0, 1, 1, 1, 2, 1, 3, 1, 4}, y[] = {1, 3, 5, 7, 9};
	double beta[2], se[2], s2;
	struct stats_effect e;

	is_near(stats_mean(x, 5), 3, 1e-12, "mean");
	is_near(stats_sd(x, 5), sqrt(2.5), 1e-12, "sd");
	ok(isnan(stats_sd(x, 1)), "sd of one value is NaN");
	ok(isnan(stats_mean(x, 0)), "mean of nothing is NaN");
	is_near(stats_median(x, 5), 3, 1e-12, "median odd");
	is_near(stats_median(x, 4), 2.5, 1e-12, "median even");
	is_near(stats_quantile_sorted(s, 5, 0.95), 4.8, 1e-12,
		"quantile type 7 (R: quantile(1:5, .95) = 4.8)");
	is_near(stats_quantile_sorted(s, 5, 0.25), 2, 1e-12, "quartile");

	/* pt(2, 10) = 0.9633062; qt(.975, df) for 1, 3, 10, 1000. */
	is_near(stats_t_cdf(2, 10), 0.9633062, 1e-6, "t cdf");
	is_near(stats_t_cdf(-2, 10), 1 - 0.9633062, 1e-6, "t cdf symmetric");
	is_near(stats_t_quantile(0.975, 1), 12.7062047, 1e-5, "qt df=1");
	is_near(stats_t_quantile(0.975, 3), 3.1824463, 1e-6, "qt df=3");
	is_near(stats_t_quantile(0.975, 10), 2.2281389, 1e-6, "qt df=10");
	is_near(stats_t_quantile(0.975, 1000), 1.9623390, 1e-6, "qt df=1000");
	is_near(stats_t_quantile(0.025, 5), -2.5705818, 1e-6, "qt lower");
	is_near(stats_t_p2(2.228139, 10), 0.05, 1e-5, "two-sided p");
	/* pbeta(0.4, 2, 3) = 0.5248 */
	is_near(stats_betainc(2, 3, 0.4), 0.5248, 1e-9, "incomplete beta");
	is_near(stats_betainc(0.5, 0.5, 0.5), 0.5, 1e-9, "beta symmetric");

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
	return tap_done();
}
