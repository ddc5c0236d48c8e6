/*
 * Statistics for reports (see stats.h): descriptive statistics, the
 * Student t distribution, Welch's t (the least-squares fits with HC2/HC3
 * standard errors and session terms are in ols.c), TOST; then the
 * distribution-free part: Mann-Whitney U, Hodges-Lehmann, the
 * order-statistic interval of a median, the median/MAD outlier rule. Each
 * function's comment names its source; tests/unit/test_stats.c checks each
 * against numbers from scipy/statsmodels and says how they were computed.
 * Mean, sd and the t distribution itself live in runner/base/tdist.c, which
 * the runner's repetition sizing shares.
 *
 * SPDX-License-Identifier: MIT
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dsort.h"
#include "stats.h"
#include "shiftsel.h"
#include "banned.h"

void stats_sort(double *x, size_t n)
{
	dsort(x, n);
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

double stats_t_p2(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return 0;
	return tdist_betainc(df / 2, 0.5, df / (df + t * t));
}

void stats_effect_finish(struct stats_effect *e, double conf)
{
	double q;
	if (e->se > 0) {
		e->t = e->est / e->se;
		e->p = stats_t_p2(e->t, e->df);
		q = tdist_quantile(0.5 + conf / 2, e->df);
		e->lo = e->est - q * e->se;
		e->hi = e->est + q * e->se;
	} else {
		e->t = e->est == 0 ? 0 : copysign(INFINITY, e->est);
		e->p = e->est == 0 ? 1 : 0;
		e->lo = e->hi = e->est;
	}
}

int stats_welch_ss(double ma, double ssa, double dfa, size_t na, double mb,
		   double ssb, double dfb, size_t nb, double conf,
		   struct stats_effect *out)
{
	double sa, sb;
	if (!(dfa > 0) || !(dfb > 0) || na < 1 || nb < 1)
		return STATS_EDATA;
	sa = fmax(0, ssa) / dfa / (double)na;
	sb = fmax(0, ssb) / dfb / (double)nb;
	memset(out, 0, sizeof *out);
	out->est = mb - ma;
	out->se = sqrt(sa + sb);
	out->df = sa + sb > 0
		      ? (sa + sb) * (sa + sb) / (sa * sa / dfa + sb * sb / dfb)
		      : dfa + dfb;
	stats_effect_finish(out, conf);
	return 0;
}

int stats_welch(const double *a, size_t na, const double *b, size_t nb,
		double conf, struct stats_effect *out)
{
	double ma, mb, va, vb, sa, sb;
	if (na < 2 || nb < 2)
		return STATS_EDATA;
	ma = tdist_mean(a, na);
	mb = tdist_mean(b, nb);
	va = tdist_sd(a, na);
	vb = tdist_sd(b, nb);
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
	stats_effect_finish(out, conf);
	return 0;
}
/*
 * TOST: Schuirmann (1987, "A comparison of the two one-sided tests
 * procedure and the power approach for assessing the equivalence of
 * average bioavailability", J. Pharmacokinet. Biopharm. 15:657-680).
 * Equivalence at level alpha holds exactly when the (1 - 2 alpha)
 * interval lies inside (low, high), which is why an equivalence verdict
 * reads the 90% interval, not the 95% one. Same statistic as
 * statsmodels.stats.weightstats.ttost_ind.
 */
int stats_tost(const struct stats_effect *e, double low, double high,
	       double alpha, struct stats_tost *out)
{
	double q;
	if (!(e->se > 0) || !(low < high) || !(e->df > 0) ||
	    !(alpha > 0 && alpha < 0.5))
		return STATS_EDATA;
	memset(out, 0, sizeof *out);
	out->p_low = 1 - tdist_cdf((e->est - low) / e->se, e->df);
	out->p_high = tdist_cdf((e->est - high) / e->se, e->df);
	out->p = fmax(out->p_low, out->p_high);
	q = tdist_quantile(1 - alpha, e->df);
	out->lo = e->est - q * e->se;
	out->hi = e->est + q * e->se;
	out->equivalent = out->p < alpha;
	return 0;
}

double stats_norm_sf(double z)
{
	return 0.5 * erfc(z / sqrt(2.0));
}

double stats_norm_quantile(double p)
{
	double lo = -40, hi = 40;
	int i;
	if (!(p > 0 && p < 1))
		return NAN;
	/* Bisection on the survival function: monotone, 1e-15 in 100 steps,
	 * and called a handful of times per report. */
	for (i = 0; i < 200 && hi - lo > 1e-15 * (1 + fabs(lo)); i++) {
		double mid = 0.5 * (lo + hi);
		if (1 - stats_norm_sf(mid) < p)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

/*
 * The null distribution of the Mann-Whitney U for sizes m, n without
 * ties: counts of U = 0..mn are the coefficients of the Gaussian binomial
 * prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i) (Mann & Whitney 1947; computed
 * as in Harding 1984, "An efficient, minimal-storage procedure for
 * calculating the Mann-Whitney U, generalized Kruskal-Wallis H and
 * Jonckheere distributions", Appl. Stat. 33:1-6, which is also scipy's
 * _mwu_state). Every intermediate is an integer; in doubles the absolute
 * error of a probability stays near 1e-16 times the number of steps.
 * Returns the cumulative probabilities P(U <= u), u = 0..mn (malloc'd, OUT:
 * caller frees), or NULL when mn > 10^7 or out of memory.
 */
static double *mwu_cdf(size_t m, size_t n)
{
	size_t mn = m * n, i, u;
	double *c, total = 0, run = 0;
	if (m > n)
		return mwu_cdf(n, m);
	if (mn > 10000000)
		return NULL;
	c = calloc(mn + 1, sizeof *c);
	if (!c)
		return NULL;
	c[0] = 1;
	for (i = 1; i <= m; i++) {
		for (u = mn; u >= n + i; u--) /* times (1 - q^(n+i)) */
			c[u] -= c[u - (n + i)];
		for (u = i; u <= mn; u++) /* divided by (1 - q^i) */
			c[u] += c[u - i];
	}
	for (u = 0; u <= mn; u++)
		total += c[u];
	for (u = 0; u <= mn; u++) {
		run += c[u];
		c[u] = fmin(1, run / total);
	}
	return c;
}

/* Midranks of the pooled sample: ranks of a[] then b[] into r[], and the
 * tie term sum(t^3 - t) over groups of t equal values. */
static int midranks(const double *a, size_t na, const double *b, size_t nb,
		    double *r, double *tie_term)
{
	size_t n = na + nb, i, j;
	double *v = malloc(n * sizeof *v), *s = malloc(n * sizeof *s);
	if (!v || !s) {
		free(v);
		free(s);
		return -XR_ENOMEM;
	}
	memcpy(v, a, na * sizeof *v);
	memcpy(v + na, b, nb * sizeof *v);
	memcpy(s, v, n * sizeof *s);
	stats_sort(s, n);
	*tie_term = 0;
	for (i = 0; i < n; i = j) {
		double t;
		for (j = i + 1; j < n && s[j] == s[i]; j++)
			;
		t = (double)(j - i);
		*tie_term += t * t * t - t;
	}
	/* A value's midrank is (first position + last position) / 2 + 1;
	 * both by binary search in the sorted copy. */
	for (i = 0; i < n; i++) {
		size_t lo = 0, hi = n, first, last;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (s[mid] < v[i])
				lo = mid + 1;
			else
				hi = mid;
		}
		first = lo;
		hi = n;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (s[mid] <= v[i])
				lo = mid + 1;
			else
				hi = mid;
		}
		last = lo - 1;
		r[i] = 0.5 * (double)(first + last) + 1;
	}
	free(v);
	free(s);
	return 0;
}

/*
 * Mann-Whitney U, two-sided, matching scipy.stats.mannwhitneyu 1.10
 * (scipy/stats/_mannwhitneyu.py): U1 = R1 - na(na+1)/2 from midranks;
 * with U = max(U1, na nb - U1),
 *   exact:      p = 2 P(U' >= U) over the no-ties null distribution, U
 *               truncated to an integer as scipy does when there are ties;
 *   asymptotic: p = 2 P(Z > (U - na nb/2 - 1/2) / s), with the tie
 *               corrected s^2 = na nb / 12 ((N + 1) - sum(t^3 - t) /
 *               (N (N - 1))) (Lehmann 1975, "Nonparametrics", eq. 1.35);
 * p is clipped to 1. 'auto' is scipy 1.10's rule: exact when one sample
 * has at most 8 values and there are no ties. An exact distribution past
 * 10^7 cells falls back to the asymptotic p.
 */
int stats_mannwhitney(const double *a, size_t na, const double *b, size_t nb,
		      enum stats_mwu_method method, struct stats_mwu *out)
{
	size_t n = na + nb, i;
	double *r, tie, r1 = 0, u, mn = (double)na * (double)nb, *cdf = NULL;
	if (na == 0 || nb == 0)
		return STATS_EDATA;
	r = malloc(n * sizeof *r);
	if (!r || midranks(a, na, b, nb, r, &tie) < 0) {
		free(r);
		return -XR_ENOMEM;
	}
	for (i = 0; i < na; i++)
		r1 += r[i];
	free(r);
	memset(out, 0, sizeof *out);
	out->u = r1 - (double)na * (double)(na + 1) / 2;
	out->ties = tie > 0;
	u = fmax(out->u, mn - out->u);
	if (method == STATS_MWU_EXACT ||
	    (method == STATS_MWU_AUTO && (na <= 8 || nb <= 8) && !out->ties))
		cdf = mwu_cdf(na, nb);
	if (cdf) {
		size_t ui = (size_t)u; /* >= 1 whenever mn >= 1 */
		out->p = 2 * (1 - (ui > 0 ? cdf[ui - 1] : 0));
		out->exact = 1;
		free(cdf);
	} else {
		double nn = (double)n;
		double s = sqrt(mn / 12 * ((nn + 1) - tie / (nn * (nn - 1))));
		out->p = s > 0 ? 2 * stats_norm_sf((u - mn / 2 - 0.5) / s) : 1;
	}
	out->p = fmin(1, out->p);
	return 0;
}

/*
 * The rank k of the lower end of the Mann-Whitney interval: the largest k
 * with P(U <= k - 1) <= alpha/2, so that [D_(k), D_(mn+1-k)] covers the
 * shift with probability 1 - 2 P(U <= k - 1) >= conf (Lehmann 1975,
 * ch. 2.6; Hollander, Wolfe & Chicken 2014, "Nonparametric Statistical
 * Methods", 3rd ed., sec. 4.3; R's wilcox.test(conf.int = TRUE) picks the
 * same k with qwilcox). Exact under the same rule as the 'auto' p value;
 * otherwise the continuity-corrected normal approximation with the tie
 * corrected variance, k = floor(mn/2 + 1/2 - z s): the shifts that
 * stats_mannwhitney's asymptotic test would not reject. 0 when no k >= 1
 * qualifies.
 */
static size_t hl_rank(size_t na, size_t nb, double tie, int ties, double conf,
		      double *coverage, int *exact)
{
	double alpha = 1 - conf, mn = (double)na * (double)nb, *cdf = NULL;
	size_t k = 0;
	*exact = 0;
	if ((na <= 8 || nb <= 8) && !ties)
		cdf = mwu_cdf(na, nb);
	if (cdf) {
		/* P(U <= k - 1) = cdf[k - 1]; the 1e-12 lets a tail that
		 * equals alpha/2 up to rounding count as <= alpha/2. */
		while (k + 1 <= (size_t)mn / 2 && cdf[k] <= alpha / 2 + 1e-12)
			k++;
		*coverage = k ? 1 - 2 * cdf[k - 1] : NAN;
		*exact = 1;
		free(cdf);
	} else {
		double nn = (double)(na + nb);
		double s = sqrt(mn / 12 * ((nn + 1) - tie / (nn * (nn - 1))));
		double kk = floor(mn / 2 + 0.5 -
				  stats_norm_quantile(1 - alpha / 2) * s);
		k = kk >= 1 ? (size_t)kk : 0;
		*coverage = k ? conf : NAN;
	}
	return k;
}

/*
 * Hodges & Lehmann (1963, "Estimates of location based on rank tests",
 * Ann. Math. Stat. 34:598-611): the shift estimate is the median of the
 * na nb differences b_j - a_i, and its interval (Moses; Lehmann 1975
 * ch. 2.6) runs from the k-th smallest to the k-th largest difference,
 * k from hl_rank. Matches R's wilcox.test(b, a, conf.int = TRUE,
 * exact = TRUE) in the exact case.
 */
int stats_hodges_lehmann(const double *a, size_t na, const double *b, size_t nb,
			 double conf, struct stats_hl *out)
{
	size_t mn = na * nb;
	double tie = 0, *r;
	struct shiftsel *sel;
	if (na == 0 || nb == 0 || mn / na != nb)
		return STATS_EDATA;
	r = malloc((na + nb) * sizeof *r);
	sel = shiftsel_new(a, na, b, nb);
	if (!sel || !r || midranks(a, na, b, nb, r, &tie) < 0) {
		shiftsel_free(sel);
		free(r);
		return -XR_ENOMEM;
	}
	free(r);
	memset(out, 0, sizeof *out);
	out->est = shiftsel_median(sel);
	out->k =
	    hl_rank(na, nb, tie, tie > 0, conf, &out->coverage, &out->exact);
	out->lo = out->k ? shiftsel_kth(sel, out->k - 1) : NAN;
	out->hi = out->k ? shiftsel_kth(sel, mn - out->k) : NAN;
	shiftsel_free(sel);
	return out->k ? 0 : 1;
}

/* The term i of P(Binomial(n, 1/2) <= j), in log space so that large n
 * neither overflows nor underflows; lgn1 is lgamma(n + 1). Summed in
 * order i = 0, 1, ... by the caller, one term per rank tried (the sum
 * of terms 0..j again for every j made the interval O(n^2) lgamma calls:
 * 13% of a 100,000-run report, bench/RESULTS.md). */
static double binom_half_term(size_t n, size_t i, double lgn1)
{
	return exp(lgn1 - lgamma((double)i + 1) - lgamma((double)(n - i) + 1) -
		   (double)n * log(2.0));
}

/*
 * Order-statistic interval for the median (Lehmann 1975, ch. 4; David &
 * Nagaraja 2003, "Order Statistics", sec. 7.1; benchstat's
 * golang.org/x/perf/benchmath does the same): [x_(k), x_(n+1-k)] covers
 * the population median with probability 1 - 2 P(B <= k - 1),
 * B ~ Binomial(n, 1/2), for any continuous distribution. k is the
 * largest rank whose coverage is still >= conf (the narrowest such
 * symmetric interval). At 95%, n = 5 gives at most 1 - 2/32 = 93.75%
 * with [min, max], so n < 6 has no interval (benchstat: "need >= 6
 * samples for confidence interval at level 0.95"); n = 6 gives
 * [min, max] with 96.875%.
 */
int stats_median_ci(const double *x, size_t n, double conf,
		    struct stats_median_ci *out)
{
	double *s, below = 0, next, lgn1 = lgamma((double)n + 1);
	size_t k;
	if (n == 0)
		return STATS_EDATA;
	s = malloc(n * sizeof *s);
	if (!s)
		return -XR_ENOMEM;
	memcpy(s, x, n * sizeof *s);
	stats_sort(s, n);
	memset(out, 0, sizeof *out);
	out->median = stats_quantile_sorted(s, n, 0.5);
	out->lo = out->hi = out->coverage = NAN;
	/* below is P(B <= k - 1), next P(B <= k). */
	for (k = 0; k + 1 <= (n + 1) / 2; k++, below = next) {
		next = below + binom_half_term(n, k, lgn1);
		if (1 - 2 * fmin(1, next) < conf - 1e-12)
			break;
	}
	/* Rank k + 1 failed (or passed the middle): k is the largest rank
	 * whose coverage reaches conf, 0 if even [min, max] does not. */
	if (k > 0) {
		out->k = k;
		out->lo = s[k - 1];
		out->hi = s[n - k];
		out->coverage = 1 - 2 * fmin(1, below);
	}
	free(s);
	return k > 0 ? 0 : 1;
}

/*
 * Geometric mean and its multiplicative interval: the t interval of
 * mean(log x), mean +- t_{(1+conf)/2, n-1} sd / sqrt(n), mapped back by
 * exp; exp(half-width) is the factor, so the interval is gm x/ factor
 * (Limpert, Stahel & Abbt 2001, "Log-normal distributions across the
 * sciences", BioScience 51:341-352, for the x/ notation). It is the
 * interval of the estimator the log-scale verdict compares, unlike
 * "median +- half-width of the mean's interval".
 */
int stats_geomean_ci(const double *x, size_t n, double conf,
		     struct stats_geomean *out)
{
	double m = 0, ss = 0, hw, lo = INFINITY, hi = -INFINITY;
	size_t i;
	if (n < 2)
		return STATS_EDATA;
	for (i = 0; i < n; i++) {
		if (!(x[i] > 0))
			return STATS_EDATA;
		m += log(x[i]);
		lo = fmin(lo, x[i]);
		hi = fmax(hi, x[i]);
	}
	m /= (double)n;
	for (i = 0; i < n; i++)
		ss += (log(x[i]) - m) * (log(x[i]) - m);
	hw = tdist_quantile(0.5 + conf / 2, (double)(n - 1)) *
	     sqrt(ss / (double)(n - 1) / (double)n);
	/* min <= gm <= max, and runs of one value have that value as their
	 * mean: exp(log(x)) is not x to the last bit, and a cell of three
	 * equal runs showed "215" as its geomean beside "216" as its median
	 * (issue 35: one number per cell) */
	out->gm = fmin(fmax(exp(m), lo), hi);
	out->factor = exp(hw);
	out->lo = out->gm / out->factor;
	out->hi = out->gm * out->factor;
	return 0;
}

/*
 * Iglewicz & Hoaglin (1993, "How to Detect and Handle Outliers", ASQC
 * Basic References in Quality Control 16, p. 11-12): the modified z score
 * M_i = 0.6745 (x_i - median) / MAD, MAD = median |x_i - median|
 * (0.6745 = Phi^-1(0.75) makes MAD/0.6745 estimate sigma for normal
 * data); |M_i| > 3.5 marks a potential outlier. Median and MAD ignore up
 * to half the sample, so one halved run cannot hide itself by inflating
 * the spread as it does with mean/sd. When MAD is 0 the mean absolute
 * deviation around the median stands in, M_i = (x_i - median) /
 * (1.253314 MeanAD) (1.253314 = sqrt(pi/2) makes MeanAD estimate sigma;
 * the convention of IBM SPSS Modeler's anomaly rules); when that is 0 as
 * well, all values are equal and none is an outlier.
 */
long stats_outliers_mad(const double *x, size_t n, double cut, size_t *idx)
{
	double *d, med, mad, scale, meanad = 0;
	size_t i;
	long cnt = 0;
	if (n < 3)
		return 0;
	d = malloc(n * sizeof *d);
	if (!d)
		return -XR_ENOMEM;
	med = stats_median(x, n);
	for (i = 0; i < n; i++) {
		d[i] = fabs(x[i] - med);
		meanad += d[i];
	}
	meanad /= (double)n;
	mad = stats_median(d, n);
	free(d);
	if (isnan(med) || isnan(mad))
		return -XR_ENOMEM;
	if (mad > 0)
		scale = mad / 0.6745;
	else
		scale = 1.253314 * meanad;
	if (!(scale > 0))
		return 0;
	for (i = 0; i < n; i++)
		if (fabs(x[i] - med) / scale > cut)
			idx[cnt++] = i;
	return cnt;
}
