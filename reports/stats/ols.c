/*
 * Least squares for the verdict's position model (stats.h): OLS, the
 * coefficient of one column with classic, HC2 or HC3 standard errors and
 * Bell-McCaffrey-type df (of a common or of a per-side working variance),
 * and the group model built on it (1, group, centred position, session
 * dummies, optional row weights). Split from
 * stats.c at the regression/test seam; stats.c keeps the rank tests, the
 * intervals and Welch.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "banned.h"

/* Invert the k x k matrix A in place by Gauss-Jordan elimination with
 * partial pivoting. -1 when it is singular (a pivot below 1e-12 of the
 * largest entry). */
static int invert(double *A, size_t k)
{
	double inv[STATS_OLS_MAX_K * STATS_OLS_MAX_K], scale = 0;
	size_t i, j, c;
	if (k > STATS_OLS_MAX_K)
		return STATS_EDATA;
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
			return STATS_EDATA;
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

/* The least-squares fit shared by stats_ols and stats_ols_effect: fills
 * A = (X'X)^-1 [k*k], beta[k] and, when resid is not NULL, resid[n];
 * returns the residual sum of squares, or -1 when singular. */
/* What ols_fit returns instead of a residual sum of squares. */
#define OLS_FAIL (-1.0)

static double ols_fit(const double *X, size_t n, size_t k, const double *y,
		      double *A, double *beta, double *resid)
{
	double xty[STATS_OLS_MAX_K], rss = 0;
	size_t i, j, r;
	if (k == 0 || k > STATS_OLS_MAX_K || n <= k)
		return OLS_FAIL;
	memset(A, 0, k * k * sizeof *A);
	memset(xty, 0, sizeof xty);
	for (r = 0; r < n; r++) {
		const double *row = X + r * k;
		for (i = 0; i < k; i++) {
			xty[i] += row[i] * y[r];
			for (j = 0; j < k; j++)
				A[i * k + j] += row[i] * row[j];
		}
	}
	if (invert(A, k) < 0)
		return OLS_FAIL;
	for (i = 0; i < k; i++) {
		beta[i] = 0;
		for (j = 0; j < k; j++)
			beta[i] += A[i * k + j] * xty[j];
	}
	for (r = 0; r < n; r++) {
		double fit = 0, e;
		for (i = 0; i < k; i++)
			fit += X[r * k + i] * beta[i];
		e = y[r] - fit;
		if (resid)
			resid[r] = e;
		rss += e * e;
	}
	return rss;
}

int stats_ols(const double *X, size_t n, size_t k, const double *y,
	      double *beta, double *se, double *sigma2)
{
	double A[STATS_OLS_MAX_K * STATS_OLS_MAX_K], rss, s2;
	size_t i;
	rss = ols_fit(X, n, k, y, A, beta, NULL);
	if (rss < 0)
		return STATS_EDATA;
	s2 = rss / (double)(n - k);
	if (sigma2)
		*sigma2 = s2;
	if (se)
		for (i = 0; i < k; i++)
			se[i] = sqrt(fmax(0, s2 * A[i * k + i]));
	return 0;
}

/*
 * Heteroskedasticity-consistent variance of coefficient j.
 *
 * With A = (X'X)^-1, h_i = x_i' A x_i (leverage), e_i the residual and
 * a_i = (A x_i)_j, the sandwich estimator is
 *   Var(b_j) = sum_i a_i^2 e_i^2 / (1 - h_i)^d,
 * d = 2 for HC3 and d = 1 for HC2 (MacKinnon & White 1985, "Some
 * heteroskedasticity-consistent covariance matrix estimators with improved
 * finite sample properties", J. Econometrics 29:305-325). HC3 is the
 * jackknife-like version Long & Ervin (2000, "Using heteroscedasticity
 * consistent standard errors in the linear regression model", Am. Stat.
 * 54:217-224) recommend for n < 250; statsmodels' cov_type='HC3' with
 * use_t=True pairs it with the residual df n - k (STATS_SE_HC3).
 *
 * n - k is the df of the equal-variance fit. When most of the variance
 * comes from the few runs of the noisier side, the robust variance rests
 * on those few residuals and its df is far smaller: Imbens & Kolesar
 * (2016, "Robust standard errors in small samples: some practical
 * advice", Rev. Econ. Stat. 98:701-712) recommend HC2 with the Bell &
 * McCaffrey (2002) df. Writing the variance as e'GG'e, G = (I-H)W,
 * W = diag(w_i), w_i = a_i / (1 - h_i)^(d/2), it is a sum of chi-square(1)
 * terms weighted by the eigenvalues of M = W (I-H) W under homoskedastic
 * normal errors, and the Satterthwaite df is tr(M)^2 / tr(M^2). Without
 * forming the n x n matrix H:
 *   tr(M)   = sum_i w_i^2 (1 - h_i),
 *   tr(M^2) = sum_i w_i^4 (1 - 2 h_i) + tr(A S A S),
 *   S = sum_i w_i^2 x_i x_i'.
 * STATS_SE_HC3_BM applies the same construction to the HC3 form (d = 2).
 * bench/verdict-mc.c compares them on the verdict's designs; the result
 * (bench/RESULTS.md) is why the verdict should use HC3 with this df: in
 * the 8 + 4 design with 4x the noise on the 4-run side, HC2-BM rejects a
 * true null 9.0% of the time, HC3 with n - k 7.2%, HC3-BM 5.2%; HC3-BM
 * alone keeps every simulated design at <= 5.2% false positives and
 * >= 94.8% coverage.
 */
/*
 * The working variance of each side for hc_group_df: under Omega = one
 * variance s_g per side g, E[e_i^2] = sum_l M_il^2 s_g(l), M = I - H, so
 * E[sum_{i in g} e_i^2] = sum_g' s_g' m_gg', m_gg' = sum_{i in g, l in g'}
 * M_il^2; s solves that 2 x 2 system with the observed sums (each side's
 * s unbiased under the working model; a negative solution is 0). With the
 * sides alone (X = [1, side]) m is diag(n_g - 1) and s_g the sample
 * variance. bench/RESULTS.md ("Balanced designs"): the simpler
 * sum_{i in g} e_i^2 / sum_{i in g} (1 - h_i), unbiased only when the
 * sides' variances are equal, shrinks their ratio and gave 6.1% false
 * positives at 4+4 with 4x the noise on one side, this 5.7%.
 */
static void side_variances(const double *X, size_t n, size_t k, const double *u,
			   const double *e, size_t j, double s[2])
{
	double m[2][2] = {{0, 0}, {0, 0}}, ss[2] = {0, 0}, det;
	size_t r, l, i;
	for (r = 0; r < n; r++) {
		int g = X[r * k + j] != 0;
		ss[g] += e[r] * e[r];
		for (l = 0; l < n; l++) {
			double hrl = 0, mm;
			for (i = 0; i < k; i++)
				hrl += X[r * k + i] * u[l * k + i];
			mm = (r == l) - hrl;
			m[g][X[l * k + j] != 0] += mm * mm;
		}
	}
	det = m[0][0] * m[1][1] - m[0][1] * m[1][0];
	if (!(det > 0)) { /* one side empty: one variance for all */
		s[0] = s[1] =
		    (ss[0] + ss[1]) / (m[0][0] + m[0][1] + m[1][0] + m[1][1]);
		return;
	}
	s[0] = fmax(0, (ss[0] * m[1][1] - m[0][1] * ss[1]) / det);
	s[1] = fmax(0, (m[0][0] * ss[1] - m[1][0] * ss[0]) / det);
}

/*
 * The df of STATS_SE_HC2_BMG: the Satterthwaite df tr(B)^2 / tr(B^2) of
 * the HC2 variance as above, but with the errors' covariance Omega taken
 * as one variance per level of column j (the two sides) instead of
 * sigma^2 I: B = W (I-H) Omega (I-H) W. Bell & McCaffrey (2002, "Bias
 * reduction in standard errors for linear regression with multi-stage
 * samples", Survey Methodology 28:169-181) derive the df for any working
 * Omega; Imbens & Kolesar (2016, sec. III) show that with the two sides
 * alone (X = [1, side]) HC2 is Welch's variance, and then this df, with
 * each side's sample variance as its working variance, is the
 * Welch-Satterthwaite df (Welch 1947; Satterthwaite 1946), where
 * sigma^2 I gives the pooled n - 2 that made the balanced test liberal
 * with unequal noise (bench/RESULTS.md, "Balanced designs"). The working
 * variances s_i: side_variances. With P = (I-H) Omega (I-H),
 *   P_il = [i = l] s_i - H_il (s_i + s_l) + x_i' A T A x_l,
 *   T = sum_m s_m x_m x_m', H_il = x_i' A x_l,
 * tr(B) = sum_i w_i^2 P_ii and tr(B^2) = sum_il w_i^2 w_l^2 P_il^2:
 * O(n^2 k) time, 2nk + 2n doubles, no n x n matrix.
 */
static int hc_group_df(const double *X, size_t n, size_t k, const double *A,
		       const double *e, size_t j, double *df)
{
	double T[STATS_OLS_MAX_K * STATS_OLS_MAX_K], AT[STATS_OLS_MAX_K];
	double sg[2], trb = 0, trb2 = 0;
	double *u = malloc(n * (2 * k + 2) * sizeof *u), *v, *w2, *s;
	size_t r, l, i, c;
	if (!u)
		return -XR_ENOMEM;
	v = u + n * k;
	w2 = v + n * k;
	s = w2 + n;
	for (r = 0; r < n; r++) {
		const double *x = X + r * k;
		double h = 0;
		for (i = 0; i < k; i++) {
			for (u[r * k + i] = 0, c = 0; c < k; c++)
				u[r * k + i] += A[i * k + c] * x[c];
			h += x[i] * u[r * k + i];
		}
		w2[r] = u[r * k + j] * u[r * k + j] / (1 - h);
	}
	side_variances(X, n, k, u, e, j, sg);
	memset(T, 0, k * k * sizeof *T);
	for (r = 0; r < n; r++) {
		const double *x = X + r * k;
		s[r] = sg[x[j] != 0];
		for (i = 0; i < k; i++)
			for (c = 0; c < k; c++)
				T[i * k + c] += s[r] * x[i] * x[c];
	}
	for (r = 0; r < n; r++) { /* v_r = A T u_r */
		for (i = 0; i < k; i++)
			for (AT[i] = 0, c = 0; c < k; c++)
				AT[i] += T[i * k + c] * u[r * k + c];
		for (i = 0; i < k; i++)
			for (v[r * k + i] = 0, c = 0; c < k; c++)
				v[r * k + i] += A[i * k + c] * AT[c];
	}
	for (r = 0; r < n; r++)
		for (l = 0; l < n; l++) {
			const double *xr = X + r * k;
			double hrl = 0, q = 0, p;
			for (i = 0; i < k; i++) {
				hrl += xr[i] * u[l * k + i];
				q += xr[i] * v[l * k + i];
			}
			p = (r == l ? s[r] : 0) - hrl * (s[r] + s[l]) + q;
			if (r == l)
				trb += w2[r] * p;
			trb2 += w2[r] * w2[l] * p * p;
		}
	free(u);
	*df = trb2 > 0 ? trb * trb / trb2 : (double)(n - k);
	return 0;
}

static int hc_variance(const double *X, size_t n, size_t k, const double *A,
		       const double *e, size_t j, enum stats_se kind,
		       double *var, double *df)
{
	double S[STATS_OLS_MAX_K * STATS_OLS_MAX_K],
	    AS[STATS_OLS_MAX_K * STATS_OLS_MAX_K];
	double v = 0, trm = 0, trm2 = 0;
	size_t r, i, c;
	memset(S, 0, k * k * sizeof *S);
	for (r = 0; r < n; r++) {
		const double *x = X + r * k;
		double h = 0, a = 0, w2;
		int hc2;
		for (i = 0; i < k; i++) {
			double ax = 0;
			for (c = 0; c < k; c++)
				ax += A[i * k + c] * x[c];
			h += x[i] * ax;
			if (i == j)
				a = ax;
		}
		if (!(1 - h > 1e-10))
			return STATS_EDATA;
		hc2 = kind == STATS_SE_HC2_BM || kind == STATS_SE_HC2_BMG;
		w2 = a * a / (hc2 ? 1 - h : (1 - h) * (1 - h));
		v += w2 * e[r] * e[r];
		trm += w2 * (1 - h);
		trm2 += w2 * w2 * (1 - 2 * h);
		for (i = 0; i < k; i++)
			for (c = 0; c < k; c++)
				S[i * k + c] += w2 * x[i] * x[c];
	}
	/* tr(ASAS) = sum_ic (AS)_ic (AS)_ci */
	for (i = 0; i < k; i++)
		for (c = 0; c < k; c++) {
			double s = 0;
			size_t m;
			for (m = 0; m < k; m++)
				s += A[i * k + m] * S[m * k + c];
			AS[i * k + c] = s;
		}
	for (i = 0; i < k; i++)
		for (c = 0; c < k; c++)
			trm2 += AS[i * k + c] * AS[c * k + i];
	*var = v;
	if (kind == STATS_SE_HC2_BMG)
		return hc_group_df(X, n, k, A, e, j, df);
	if (kind != STATS_SE_HC3 && trm2 > 0)
		*df = trm * trm / trm2;
	else
		*df = (double)(n - k);
	return 0;
}

int stats_ols_effect(const double *X, size_t n, size_t k, const double *y,
		     size_t j, enum stats_se kind, double conf,
		     struct stats_effect *out)
{
	double A[STATS_OLS_MAX_K * STATS_OLS_MAX_K], beta[STATS_OLS_MAX_K];
	double *e, rss, var, df;
	int rc;
	if (j >= k || n <= k)
		return STATS_EDATA;
	e = malloc(n * sizeof *e);
	if (!e)
		return -XR_ENOMEM;
	rss = ols_fit(X, n, k, y, A, beta, e);
	if (rss < 0) {
		free(e);
		return STATS_EDATA;
	}
	if (kind == STATS_SE_CLASSIC) {
		var = rss / (double)(n - k) * A[j * k + j];
		df = (double)(n - k);
	} else if ((rc = hc_variance(X, n, k, A, e, j, kind, &var, &df)) < 0) {
		free(e);
		return rc == -XR_ENOMEM ? rc : STATS_EDATA;
	}
	free(e);
	memset(out, 0, sizeof *out);
	out->est = beta[j];
	out->se = sqrt(fmax(0, var));
	out->df = df;
	stats_effect_finish(out, conf);
	return 0;
}

/* Build the design of stats_group_model_w: 1, group, centred position
 * (the same fit, better conditioned), then one dummy per session value
 * not seen first; row i scaled by w[i] when w is not NULL. Returns k, or
 * 0 when there are too many sessions. */
static size_t group_design(const int *group, const double *position,
			   const int *session, const double *w, size_t n,
			   double *X)
{
	int seen[STATS_OLS_MAX_K];
	size_t i, nseen = 0, k = 3, s, c;
	double pm = 0;
	for (i = 0; i < n; i++)
		pm += position[i];
	pm /= (double)n;
	for (i = 0; session && i < n; i++) {
		for (s = 0; s < nseen && seen[s] != session[i]; s++)
			;
		if (s == nseen) {
			if (nseen == STATS_OLS_MAX_K - 2)
				return 0;
			seen[nseen++] = session[i];
		}
	}
	if (nseen > 1)
		k += nseen - 1;
	for (i = 0; i < n; i++) {
		double *row = X + i * k;
		memset(row, 0, k * sizeof *row);
		row[0] = 1;
		row[1] = group[i] ? 1 : 0;
		row[2] = position[i] - pm;
		for (s = 1; s < nseen; s++)
			row[2 + s] = session[i] == seen[s];
		for (c = 0; w && c < k; c++)
			row[c] *= w[i];
	}
	return k;
}

int stats_group_model_w(const double *y, const int *group,
			const double *position, const int *session,
			const double *w, size_t n, enum stats_se kind,
			double conf, struct stats_effect *out)
{
	double *X, *yw = NULL;
	size_t k, i;
	int rc;
	if (n < 4)
		return STATS_EDATA;
	X = malloc(n * STATS_OLS_MAX_K * sizeof *X);
	if (w)
		yw = malloc(n * sizeof *yw);
	if (!X || (w && !yw)) {
		free(X);
		free(yw);
		return -XR_ENOMEM;
	}
	for (i = 0; w && i < n; i++)
		yw[i] = w[i] * y[i];
	k = group_design(group, position, session, w, n, X);
	rc = k ? stats_ols_effect(X, n, k, w ? yw : y, 1, kind, conf, out)
	       : STATS_EDATA;
	free(X);
	free(yw);
	return rc;
}

int stats_group_model(const double *y, const int *group, const double *position,
		      const int *session, size_t n, enum stats_se kind,
		      double conf, struct stats_effect *out)
{
	return stats_group_model_w(y, group, position, session, NULL, n, kind,
				   conf, out);
}

int stats_group_position(const double *y, const int *group,
			 const double *position, size_t n, double conf,
			 struct stats_effect *out)
{
	return stats_group_model(y, group, position, NULL, n, STATS_SE_CLASSIC,
				 conf, out);
}
