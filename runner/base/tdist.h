/*
 * Pure statistics shared by the runner (repetition sizing) and the reports
 * (reports/stats/stats.h includes this): mean, sample standard deviation,
 * the regularized incomplete beta function and Student's t distribution.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_TDIST_H
#define XR_TDIST_H

#include <stddef.h>

/* NaN when n == 0 (mean) or n < 2 (sd: sample standard deviation). */
double tdist_mean(const double *x, size_t n);
double tdist_sd(const double *x, size_t n);
/* Regularized incomplete beta I_x(a, b), a, b > 0, x in [0,1]. */
double tdist_betainc(double a, double b, double x);
/* Student's t with df > 0 degrees of freedom: P(T <= t). */
double tdist_cdf(double t, double df);
/* The t with P(T <= t) = p, 0 < p < 1. */
double tdist_quantile(double p, double df);

#endif
