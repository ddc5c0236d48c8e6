/*
 * Pure statistics for reports: descriptive statistics, Student's t
 * distribution (CDF through the regularized incomplete beta function, and
 * its quantile), Welch's t, and ordinary least squares with covariates.
 * No dependency beyond libm; no allocation except where stated.
 */
#ifndef XR_STATS_H
#define XR_STATS_H

#include <stddef.h>

/* NaN when n == 0 (mean) or n < 2 (sd: sample standard deviation). */
double stats_mean(const double *x, size_t n);
double stats_sd(const double *x, size_t n);
void stats_sort(double *x, size_t n); /* ascending, in place */
/* Quantile q in [0,1] of sorted data, linear interpolation between order
 * statistics (Hyndman & Fan type 7, R's default). NaN when n == 0. */
double stats_quantile_sorted(const double *sorted, size_t n, double q);
/* Median of unsorted data; copies it (malloc), NaN when n == 0 or OOM. */
double stats_median(const double *x, size_t n);

/* Regularized incomplete beta I_x(a, b), a, b > 0, x in [0,1]. */
double stats_betainc(double a, double b, double x);
/* Student's t with df > 0 degrees of freedom: P(T <= t). */
double stats_t_cdf(double t, double df);
/* The t with P(T <= t) = p, 0 < p < 1. */
double stats_t_quantile(double p, double df);
/* Two-sided p value of an observed t. */
double stats_t_p2(double t, double df);

/* An estimated effect with its t-based confidence interval. */
struct stats_effect {
	double est;    /* point estimate */
	double se;     /* standard error */
	double df;     /* degrees of freedom */
	double t, p;   /* t statistic, two-sided p */
	double lo, hi; /* confidence interval at the requested level */
};

/*
 * Welch's t for mean(b) - mean(a). 0, or -1 when a side has fewer than 2
 * values. conf is the confidence level (0.95). A zero standard error (both
 * samples constant) gives se 0, an interval of width 0 and p 0 when the
 * means differ, 1 when they do not.
 */
int stats_welch(const double *a, size_t na, const double *b, size_t nb,
		double conf, struct stats_effect *out);

/*
 * OLS: y = X beta + e, X row-major [n][k] (include a column of ones for
 * an intercept). Fills beta[k], se[k] (NULL allowed), *sigma2 (residual
 * variance, NULL allowed); df = n - k. 0, or -1 when n <= k or X'X is
 * singular.
 */
int stats_ols(const double *X, size_t n, size_t k, const double *y,
	      double *beta, double *se, double *sigma2);

/*
 * The effect of group (0/1) on y with position as a covariate:
 * y ~ 1 + group + position; the estimate is group's coefficient. Linear
 * drift along position then neither biases nor widens it. 0, or -1 when
 * the design is singular (e.g. position confounded with group) or
 * n < 4.
 */
int stats_group_position(const double *y, const int *group,
			 const double *position, size_t n, double conf,
			 struct stats_effect *out);

#endif
