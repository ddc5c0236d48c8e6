/*
 * Statistics for reports (see stats.h): descriptive statistics, the
 * Student t distribution, Welch's t and small least-squares fits. The
 * incomplete beta function uses the continued fraction evaluated with the
 * modified Lentz method (as in Numerical Recipes, 6.4), which converges
 * quickly for x < (a+1)/(a+b+2); the symmetry I_x(a,b) = 1 - I_{1-x}(b,a)
 * covers the rest.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "banned.h"

double stats_mean(const double *x, size_t n)
{
	double s = 0;
	size_t i;
	if (n == 0)
		return NAN;
	for (i = 0; i < n; i++)
		s += x[i];
	return s / (double)n;
}

double stats_sd(const double *x, size_t n)
{
	double m, s = 0;
	size_t i;
	if (n < 2)
		return NAN;
	m = stats_mean(x, n);
	for (i = 0; i < n; i++)
		s += (x[i] - m) * (x[i] - m);
	return sqrt(s / (double)(n - 1));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

void stats_sort(double *x, size_t n)
{
	if (n > 1)
		qsort(x, n, sizeof *x, cmp_double);
}

double stats_quantile_sorted(const double *s, size_t n, double q)
{
	double h, f;
	size_t lo;
	if (n == 0)
		return NAN;
	if (q <= 0)
		return s[0];
	if (q >= 1)
		return s[n - 1];
	h = (double)(n - 1) * q;
	lo = (size_t)floor(h);
	f = h - (double)lo;
	if (lo + 1 >= n)
		return s[n - 1];
	return s[lo] + f * (s[lo + 1] - s[lo]);
}

double stats_median(const double *x, size_t n)
{
	double *c, m;
	if (n == 0)
		return NAN;
	c = malloc(n * sizeof *c);
	if (!c)
		return NAN;
	memcpy(c, x, n * sizeof *c);
	stats_sort(c, n);
	m = stats_quantile_sorted(c, n, 0.5);
	free(c);
	return m;
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

double stats_betainc(double a, double b, double x)
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

double stats_t_cdf(double t, double df)
{
	double x, tail;
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1 : 0;
	x = df / (df + t * t);
	tail = 0.5 * stats_betainc(df / 2, 0.5, x); /* P(T > |t|) */
	return t > 0 ? 1 - tail : tail;
}

double stats_t_p2(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return 0;
	return stats_betainc(df / 2, 0.5, df / (df + t * t));
}

double stats_t_quantile(double p, double df)
{
	double lo = -1, hi = 1;
	int i;
	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p == 0.5)
		return 0;
	/* Bracket, then bisect: the CDF is monotone and cheap enough. */
	while (stats_t_cdf(lo, df) > p && lo > -1e12)
		lo *= 2;
	while (stats_t_cdf(hi, df) < p && hi < 1e12)
		hi *= 2;
	for (i = 0; i < 200 && hi - lo > 1e-12 * (1 + fabs(lo)); i++) {
		double mid = 0.5 * (lo + hi);
		if (stats_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

static void finish_effect(struct stats_effect *e, double conf)
{
	double q;
	if (e->se > 0) {
		e->t = e->est / e->se;
		e->p = stats_t_p2(e->t, e->df);
		q = stats_t_quantile(0.5 + conf / 2, e->df);
		e->lo = e->est - q * e->se;
		e->hi = e->est + q * e->se;
	} else {
		e->t = e->est == 0 ? 0 : copysign(INFINITY, e->est);
		e->p = e->est == 0 ? 1 : 0;
		e->lo = e->hi = e->est;
	}
}

int stats_welch(const double *a, size_t na, const double *b, size_t nb,
		double conf, struct stats_effect *out)
{
	double ma, mb, va, vb, sa, sb;
	if (na < 2 || nb < 2)
		return -1;
	ma = stats_mean(a, na);
	mb = stats_mean(b, nb);
	va = stats_sd(a, na);
	vb = stats_sd(b, nb);
	sa = va * va / (double)na;
	sb = vb * vb / (double)nb;
	memset(out, 0, sizeof *out);
	out->est = mb - ma;
	out->se = sqrt(sa + sb);
	/* Welch–Satterthwaite degrees of freedom. */
	if (sa + sb > 0)
		out->df =
		    (sa + sb) * (sa + sb) /
		    (sa * sa / (double)(na - 1) + sb * sb / (double)(nb - 1));
	else
		out->df = (double)(na + nb - 2);
	finish_effect(out, conf);
	return 0;
}

/* Solve the k x k system A x = b in place by Gauss-Jordan elimination with
 * partial pivoting; A is overwritten with its inverse. */
static int invert(double *A, size_t k)
{
	double inv[64], scale = 0;
	size_t i, j, c;
	if (k > 8)
		return -1;
	for (i = 0; i < k * k; i++)
		scale = fmax(scale, fabs(A[i]));
	memset(inv, 0, sizeof inv);
	for (i = 0; i < k; i++)
		inv[i * k + i] = 1;
	for (c = 0; c < k; c++) {
		size_t piv = c;
		double pv;
		for (i = c + 1; i < k; i++)
			if (fabs(A[i * k + c]) > fabs(A[piv * k + c]))
				piv = i;
		if (fabs(A[piv * k + c]) <= 1e-12 * scale)
			return -1;
		if (piv != c)
			for (j = 0; j < k; j++) {
				double t = A[c * k + j];
				A[c * k + j] = A[piv * k + j];
				A[piv * k + j] = t;
				t = inv[c * k + j];
				inv[c * k + j] = inv[piv * k + j];
				inv[piv * k + j] = t;
			}
		pv = A[c * k + c];
		for (j = 0; j < k; j++) {
			A[c * k + j] /= pv;
			inv[c * k + j] /= pv;
		}
		for (i = 0; i < k; i++) {
			double f;
			if (i == c)
				continue;
			f = A[i * k + c];
			for (j = 0; j < k; j++) {
				A[i * k + j] -= f * A[c * k + j];
				inv[i * k + j] -= f * inv[c * k + j];
			}
		}
	}
	memcpy(A, inv, k * k * sizeof *A);
	return 0;
}

int stats_ols(const double *X, size_t n, size_t k, const double *y,
	      double *beta, double *se, double *sigma2)
{
	double xtx[64], xty[8], rss = 0, s2;
	size_t i, j, r;
	if (k == 0 || k > 8 || n <= k)
		return -1;
	memset(xtx, 0, sizeof xtx);
	memset(xty, 0, sizeof xty);
	for (r = 0; r < n; r++) {
		const double *row = X + r * k;
		for (i = 0; i < k; i++) {
			xty[i] += row[i] * y[r];
			for (j = 0; j < k; j++)
				xtx[i * k + j] += row[i] * row[j];
		}
	}
	if (invert(xtx, k) < 0)
		return -1;
	for (i = 0; i < k; i++) {
		beta[i] = 0;
		for (j = 0; j < k; j++)
			beta[i] += xtx[i * k + j] * xty[j];
	}
	for (r = 0; r < n; r++) {
		double fit = 0, e;
		for (i = 0; i < k; i++)
			fit += X[r * k + i] * beta[i];
		e = y[r] - fit;
		rss += e * e;
	}
	s2 = rss / (double)(n - k);
	if (sigma2)
		*sigma2 = s2;
	if (se)
		for (i = 0; i < k; i++)
			se[i] = sqrt(fmax(0, s2 * xtx[i * k + i]));
	return 0;
}

int stats_group_position(const double *y, const int *group,
			 const double *position, size_t n, double conf,
			 struct stats_effect *out)
{
	double *X, beta[3], se[3], pm = 0;
	size_t i;
	int rc;
	if (n < 4)
		return -1;
	X = malloc(n * 3 * sizeof *X);
	if (!X)
		return -1;
	/* Centre the position: the same fit, better conditioned. */
	for (i = 0; i < n; i++)
		pm += position[i];
	pm /= (double)n;
	for (i = 0; i < n; i++) {
		X[i * 3] = 1;
		X[i * 3 + 1] = group[i] ? 1 : 0;
		X[i * 3 + 2] = position[i] - pm;
	}
	rc = stats_ols(X, n, 3, y, beta, se, NULL);
	free(X);
	if (rc < 0)
		return -1;
	memset(out, 0, sizeof *out);
	out->est = beta[1];
	out->se = se[1];
	out->df = (double)(n - 3);
	finish_effect(out, conf);
	return 0;
}
