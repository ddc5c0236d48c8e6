/*
 * The few pure statistics the runner needs as well as the reports: mean,
 * sample standard deviation and Student's t distribution (CDF through the
 * regularized incomplete beta function, and its quantile). The repetition
 * sizing (runner/exec/sizing.c) and reports/stats/stats.c share them.
 * The incomplete beta function uses the continued fraction evaluated with
 * the modified Lentz method (as in Numerical Recipes, 6.4), which converges
 * quickly for x < (a+1)/(a+b+2); the symmetry I_x(a,b) = 1 - I_{1-x}(b,a)
 * covers the rest. tests/unit/stats/test_stats.c checks them against scipy.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stddef.h>

#include "tdist.h"
#include "banned.h"

double tdist_mean(const double *x, size_t n)
{
	double s = 0;
	size_t i;
	if (n == 0)
		return NAN;
	for (i = 0; i < n; i++)
		s += x[i];
	return s / (double)n;
}

double tdist_sd(const double *x, size_t n)
{
	double m, s = 0;
	size_t i;
	if (n < 2)
		return NAN;
	m = tdist_mean(x, n);
	for (i = 0; i < n; i++)
		s += (x[i] - m) * (x[i] - m);
	return sqrt(s / (double)(n - 1));
}

/* Continued fraction for the incomplete beta function. */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double qab = a + b, qap = a + 1, qam = a - 1;
	double c = 1, d = 1 - qab * x / qap, h;
	int m;
	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (m = 1; m <= 300; m++) {
		double m2 = 2.0 * m, aa, del;
		aa = m * (b - m) * x / ((qam + m2) * (a + m2));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

double tdist_betainc(double a, double b, double x)
{
	double lbt;
	if (!(a > 0) || !(b > 0) || isnan(x))
		return NAN;
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	lbt =
	    lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	if (x < (a + 1) / (a + b + 2))
		return exp(lbt) * betacf(a, b, x) / a;
	return 1 - exp(lbt) * betacf(b, a, 1 - x) / b;
}

double tdist_cdf(double t, double df)
{
	double x, tail;
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1 : 0;
	x = df / (df + t * t);
	tail = 0.5 * tdist_betainc(df / 2, 0.5, x); /* P(T > |t|) */
	return t > 0 ? 1 - tail : tail;
}

double tdist_quantile(double p, double df)
{
	double lo = -1, hi = 1;
	int i;
	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p == 0.5)
		return 0;
	/* Bracket, then bisect: the CDF is monotone and cheap enough. */
	while (tdist_cdf(lo, df) > p && lo > -1e12)
		lo *= 2;
	while (tdist_cdf(hi, df) < p && hi < 1e12)
		hi *= 2;
	for (i = 0; i < 200 && hi - lo > 1e-12 * (1 + fabs(lo)); i++) {
		double mid = 0.5 * (lo + hi);
		if (tdist_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}
