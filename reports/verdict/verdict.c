/*
 * The A/B verdict (schema/report.md, "Method" and "Verdicts"): work on
 * log(y) so that an effect is a ratio of geometric means; estimate it with
 * run position and one intercept per session as covariates when the two
 * sides were interleaved (linear drift then neither biases nor widens it),
 * with HC2 (balanced sides; Bell-McCaffrey df of a variance per side) or
 * HC3 standard errors (Bell-McCaffrey-type df), robust to unequal
 * variances (bench/RESULTS.md), else with Welch's t;
 * transform estimate and interval to percent; read one of five outcomes from
 * the 95% CI, the 90% TOST interval and the noise threshold theta. Also the
 * robust estimate (Hodges-Lehmann, Mann-Whitney) and the sensitivity line.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "verdict.h"
#include "stats.h"
#include "banned.h"

/* Metrics whose direction is "lower is better", by name prefix; every
 * other name is higher-is-better unless the plan says `better: lower`.
 * The unit never decides: a success rate in % is higher-is-better. */
static const char *const lower_is_better[] = {
    "latency", "rtt",	  "jitter",   "lost", "loss", "retrans",
    "cpu",     "elapsed", "duration", "time", "drop", "error",
};

int report_higher_is_better(const char *metric, int declared)
{
	size_t i;
	if (declared)
		return declared > 0;
	if (metric)
		for (i = 0;
		     i < sizeof lower_is_better / sizeof *lower_is_better; i++)
			if (!strncmp(metric, lower_is_better[i],
				     strlen(lower_is_better[i])))
				return 0;
	return 1;
}

#define ZERO_SE 1e-9

static double pct(double x)
{
	return 100.0 * expm1(x);
}

/* The outcome of an interval [lo, hi] in percent (95%), with equiv set
 * when the 90% TOST interval lies inside +-theta. */
static enum report_verdict classify(double lo, double hi, int equiv,
				    double theta_pct, int higher_is_better)
{
	if (lo > theta_pct)
		return higher_is_better ? REPORT_BETTER : REPORT_WORSE;
	if (hi < -theta_pct)
		return higher_is_better ? REPORT_WORSE : REPORT_BETTER;
	if (equiv)
		return REPORT_EQUIVALENT;
	if (lo <= 0 && hi >= 0)
		return REPORT_NOT_SIGNIFICANT;
	return REPORT_DIFFERENT;
}

int report_delta_interval(const double *a, size_t na, const double *b,
			  size_t nb, double conf, double *delta_pct,
			  double *low_pct, double *high_pct)
{
	struct stats_effect e;
	double *y;
	size_t i;
	int rc;
	if (na < 2 || nb < 2)
		return STATS_EDATA;
	y = malloc((na + nb) * sizeof *y);
	if (!y)
		return -XR_ENOMEM;
	for (i = 0; i < na + nb; i++) {
		double v = i < na ? a[i] : b[i - na];
		if (!(v > 0)) {
			free(y);
			return STATS_EDATA;
		}
		y[i] = log(v);
	}
	rc = stats_welch(y, na, y + na, nb, conf, &e);
	free(y);
	if (rc)
		return rc;
	*delta_pct = pct(e.est);
	*low_pct = pct(e.lo);
	*high_pct = pct(e.hi);
	return 0;
}

/* Log values and design of both sides, a first; nx counts the
 * within-decision contrasts of a sized comparison. */
struct design {
	double *y, *pos;
	int *g, *session, *decide;
	size_t na, n, nx;
};

static void design_free(struct design *d)
{
	free(d->y);
	free(d->pos);
	free(d->g);
	free(d->session);
	free(d->decide);
}

/* The first value of i's decision (same side, session and mark), or i
 * itself when it was no decision run or is its decision's first. */
static size_t decision_first(const struct design *d, size_t i)
{
	size_t j, lo = d->g[i] ? d->na : 0;
	if (!d->decide[i])
		return i;
	for (j = lo; j < i; j++)
		if (d->decide[j] == d->decide[i] &&
		    d->session[j] == d->session[i])
			return j;
	return i;
}

/* The rows the position model fits: every run, except that the k runs
 * of one sizing decision are one row, their mean (of y and of position)
 * with weight sqrt(k). */
struct fitrows {
	double *y, *pos, *w;
	int *g, *session;
	size_t n;
};

static void fitrows_free(struct fitrows *f)
{
	free(f->y);
	free(f->pos);
	free(f->w);
	free(f->g);
	free(f->session);
}

/*
 * A sized comparison: the sizing read only the decision runs' spread
 * (their within-decision contrasts). Fitting their mean in their place
 * (weight sqrt(k): the variance of one run) keeps every contrast out of
 * the estimate and the residuals, which under normal noise are then
 * independent of what decided n (Cox 1975, "A note on data-splitting for
 * the evaluation of significance levels", Biometrika 62:441-444): the
 * same estimate as the fit of all runs with the contrasts as nuisance
 * columns, but each decision is one observation to HC3.
 */
static int fitrows_fill(const struct design *d, struct fitrows *f)
{
	size_t i, j, *row = malloc((d->n + 1) * sizeof *row);
	f->y = calloc(d->n, sizeof *f->y);
	f->pos = calloc(d->n, sizeof *f->pos);
	f->w = calloc(d->n, sizeof *f->w);
	f->g = calloc(d->n, sizeof *f->g);
	f->session = calloc(d->n, sizeof *f->session);
	f->n = 0;
	if (!row || !f->y || !f->pos || !f->w || !f->g || !f->session) {
		free(row);
		return -XR_ENOMEM;
	}
	for (i = 0; i < d->n; i++) {
		size_t first = decision_first(d, i);
		j = first == i ? f->n++ : row[first];
		row[i] = j;
		f->y[j] += d->y[i];
		f->pos[j] += d->pos[i];
		f->w[j] += 1; /* runs in the row, for now */
		f->g[j] = d->g[i];
		f->session[j] = d->session[i];
	}
	for (j = 0; j < f->n; j++) {
		f->y[j] /= f->w[j];
		f->pos[j] /= f->w[j];
		f->w[j] = sqrt(f->w[j]);
	}
	free(row);
	return 0;
}
static int design_fill(struct design *d, const struct report_sample *a,
		       const struct report_sample *b)
{
	size_t i;
	d->na = a->n;
	d->n = a->n + b->n;
	d->y = malloc(d->n * sizeof *d->y);
	d->pos = malloc(d->n * sizeof *d->pos);
	d->g = malloc(d->n * sizeof *d->g);
	d->session = malloc(d->n * sizeof *d->session);
	d->decide = malloc(d->n * sizeof *d->decide);
	if (!d->y || !d->pos || !d->g || !d->session || !d->decide)
		return -XR_ENOMEM;
	for (i = 0; i < d->n; i++) {
		int in_b = i >= a->n;
		const struct report_sample *s = in_b ? b : a;
		size_t k = in_b ? i - a->n : i;
		d->y[i] = log(s->y[k]);
		d->pos[i] = s->pos ? s->pos[k] : (double)i;
		d->g[i] = in_b;
		d->session[i] = s->session ? s->session[k] : 0;
		d->decide[i] = s->decide ? s->decide[k] : 0;
	}
	for (i = 0; i < d->n; i++)
		d->nx += decision_first(d, i) != i;
	return 0;
}

/* Welch's t whose side variances leave out the decision runs' own
 * spread: each decision's sum of squares about its mean and its k - 1
 * df come off the side's (bench/sizing-split.py). */
static int welch_split(const struct design *d, struct stats_effect *e)
{
	double m[2] = {0, 0}, ss[2] = {0, 0}, df[2];
	size_t n[2], i, j;
	n[0] = d->na;
	n[1] = d->n - d->na;
	for (i = 0; i < d->n; i++)
		m[d->g[i]] += d->y[i];
	m[0] /= (double)n[0];
	m[1] /= (double)n[1];
	df[0] = (double)n[0] - 1;
	df[1] = (double)n[1] - 1;
	for (i = 0; i < d->n; i++) {
		double dm, t = 0;
		size_t k = 0, f = decision_first(d, i);
		ss[d->g[i]] += (d->y[i] - m[d->g[i]]) * (d->y[i] - m[d->g[i]]);
		if (!d->decide[i] || f != i)
			continue;
		for (j = i; j < d->n; j++)
			if (decision_first(d, j) == i) {
				t += d->y[j];
				k++;
			}
		t /= (double)k;
		for (j = i; j < d->n; j++)
			if (decision_first(d, j) == i) {
				dm = d->y[j] - t;
				ss[d->g[i]] -= dm * dm;
			}
		df[d->g[i]] -= (double)(k - 1);
	}
	return stats_welch_ss(m[0], ss[0], df[0], n[0], m[1], ss[1], df[1],
			      n[1], 0.95, e);
}

/* Welch's t, split when the sizing decided on some of the runs. */
static int fit_welch(const struct design *d, struct stats_effect *e)
{
	if (d->nx)
		return welch_split(d, e);
	return stats_welch(d->y, d->na, d->y + d->na, d->n - d->na, 0.95, e);
}

/* The position model: session terms only when there are several. The
 * standard error is HC2 when the sides have as many runs each and no
 * sizing decision, with the Bell-McCaffrey df of one working variance per
 * side (STATS_SE_HC2_BMG, ols.c; with the sides alone it is Welch's t):
 * its size is 3.5-5.7% there from 3+3 to 16+16, with equal noise and
 * with 4x the noise on either side, where the df of one common variance
 * (STATS_SE_HC2_BM, Imbens & Kolesar 2016) reached 7.6% with 4x the
 * noise and HC3-BM's 1.9-4.0% at equal noise costs power (34.2% against
 * 23.1% at +1.5% with 4+4; bench/RESULTS.md, "Balanced designs").
 * Unbalanced, HC3-BM keeps the size where HC2-BM does not (9.0% in 8+4
 * with 4x the noise on the 4-run side). */
static enum stats_se position_se(const struct design *d)
{
	if (d->nx || 2 * d->na != d->n)
		return STATS_SE_HC3_BM;
	return STATS_SE_HC2_BMG;
}

static int fit_position(const struct design *d, struct stats_effect *e)
{
	struct fitrows f = {0};
	size_t i;
	int several = 0, rc;
	for (i = 1; i < d->n; i++)
		several |= d->session[i] != d->session[0];
	if (!d->nx)
		return stats_group_model(d->y, d->g, d->pos,
					 several ? d->session : NULL, d->n,
					 position_se(d), 0.95, e);
	rc = fitrows_fill(d, &f);
	if (rc == 0)
		rc = stats_group_model_w(f.y, f.g, f.pos,
					 several ? f.session : NULL, f.w, f.n,
					 STATS_SE_HC3_BM, 0.95, e);
	fitrows_free(&f);
	return rc;
}

/* What a verdict claims: +1 a difference upwards, -1 downwards, 0 none
 * (equivalent and not significant claim no difference). */
static int claim(enum report_verdict v, double est)
{
	if (v == REPORT_EQUIVALENT || v == REPORT_NOT_SIGNIFICANT ||
	    v >= REPORT_NOT_COMPARABLE)
		return 0;
	return est > 0 ? 1 : -1;
}

/* Hodges-Lehmann and Mann-Whitney on the log values; robust_shown when
 * they disagree with the parametric verdict in sign or outcome. A sized
 * comparison ranks the rows the headline fits (fitrows_fill): each
 * sizing decision's runs are one value, their mean, so the ranks too
 * leave out the spread that decided n (bench/RESULTS.md, "Robust line
 * of sized comparisons"). */
static void robust(const struct design *d, double theta_pct,
		   int higher_is_better, struct report_cmp *out)
{
	struct stats_hl hl;
	struct stats_mwu mw;
	struct fitrows f = {0};
	const double *y = d->y;
	size_t na = d->na, n = d->n, i;
	int rc;
	if (d->nx) {
		if (fitrows_fill(d, &f) < 0) {
			fitrows_free(&f);
			return;
		}
		y = f.y;
		n = f.n;
		for (na = 0, i = 0; i < f.n; i++)
			na += f.g[i] == 0;
	}
	rc = stats_hodges_lehmann(y, na, y + na, n - na, 0.95, &hl);
	if (rc < 0 ||
	    stats_mannwhitney(y, na, y + na, n - na, STATS_MWU_AUTO, &mw) < 0) {
		fitrows_free(&f);
		return;
	}
	fitrows_free(&f);
	out->hl_pct = pct(hl.est);
	out->mw_p = mw.p;
	if (rc == 0) {
		out->hl_low_pct = pct(hl.lo);
		out->hl_high_pct = pct(hl.hi);
		out->robust_verdict =
		    classify(out->hl_low_pct, out->hl_high_pct, 0, theta_pct,
			     higher_is_better);
		/* no TOST on ranks: inside +-theta at 95% is equivalence */
		if (out->robust_verdict != REPORT_BETTER &&
		    out->robust_verdict != REPORT_WORSE &&
		    out->hl_low_pct >= -theta_pct &&
		    out->hl_high_pct <= theta_pct)
			out->robust_verdict = REPORT_EQUIVALENT;
	} else {
		out->robust_verdict =
		    mw.p < 0.05 ? REPORT_DIFFERENT : REPORT_NOT_SIGNIFICANT;
	}
	/* Opposite signs matter when either estimate reaches the threshold
	 * (two estimates inside the noise may straddle 0). */
	if (((out->hl_pct > 0 && out->delta_pct < 0) ||
	     (out->hl_pct < 0 && out->delta_pct > 0)) &&
	    (fabs(out->hl_pct) > theta_pct || fabs(out->delta_pct) > theta_pct))
		out->robust_shown = 1;
	/* Verdicts are compared only where the ranks give an interval
	 * (with 3 + 3 runs no Mann-Whitney test can reach p < 0.05), by
	 * what they claim: a difference up, one down, or none. */
	if (rc == 0)
		out->robust_shown |= claim(out->robust_verdict, out->hl_pct) !=
				     claim(out->verdict, out->delta_pct);
}

static void out_reset(struct report_cmp *out, const struct report_sample *a,
		      const struct report_sample *b, int higher_is_better)
{
	out->n_a = (int)a->n;
	out->n_b = (int)b->n;
	out->delta_pct = out->ci_low_pct = out->ci_high_pct = NAN;
	out->eq_low_pct = out->eq_high_pct = NAN;
	out->sens_pct = out->sens_low_pct = out->sens_high_pct = NAN;
	out->hl_pct = out->hl_low_pct = out->hl_high_pct = out->mw_p = NAN;
	out->robust_verdict = REPORT_NOT_COMPARABLE;
	out->robust_shown = 0;
	out->p = out->df = out->p_adj = NAN;
	out->method = REPORT_METHOD_NONE;
	out->verdict = REPORT_NOT_COMPARABLE;
	out->higher_is_better = higher_is_better;
	out->decide_df = 0;
}

static int positive(const struct report_sample *s)
{
	size_t i;
	for (i = 0; i < s->n; i++)
		if (!(s->y[i] > 0))
			return 0;
	return 1;
}

int report_decide(const struct report_sample *a, const struct report_sample *b,
		  int interleaved, double threshold, int higher_is_better,
		  struct report_cmp *out, enum report_flag_code *why)
{
	struct stats_effect e, s;
	struct stats_tost tost;
	struct design d = {0};
	double th = 100.0 * threshold;
	int rc = -1;

	out_reset(out, a, b, higher_is_better);
	if (a->n < 3 || b->n < 3) {
		*why = REPORT_FLAG_TOO_FEW_RUNS;
		return 1;
	}
	if (!positive(a) || !positive(b)) {
		*why = REPORT_FLAG_NONPOSITIVE;
		return 1;
	}
	if (design_fill(&d, a, b) < 0) {
		design_free(&d);
		*why = REPORT_FLAG_TOO_FEW_RUNS;
		return 1;
	}
	if (interleaved && a->pos && b->pos) {
		rc = fit_position(&d, &e);
		if (rc == 0)
			out->method = REPORT_METHOD_POSITION;
	}
	if (rc != 0) {
		rc = fit_welch(&d, &e);
		out->method = REPORT_METHOD_WELCH;
		/* the sensitivity line: what the position model says */
		if (rc == 0 && a->pos && b->pos && fit_position(&d, &s) == 0 &&
		    s.se > 0) {
			out->sens_pct = pct(s.est);
			out->sens_low_pct = pct(s.lo);
			out->sens_high_pct = pct(s.hi);
		}
	}
	if (rc != 0) {
		design_free(&d);
		out->method = REPORT_METHOD_NONE;
		*why = REPORT_FLAG_TOO_FEW_RUNS;
		return 1;
	}
	out->delta_pct = pct(e.est);
	out->p = e.p;
	out->df = e.df;
	out->decide_df = (int)d.nx;
	/* A zero-width interval (identical runs, an exact fit) says nothing
	 * about the noise: no verdict, the estimate is kept. Below
	 * ZERO_SE (a relative precision of 1e-9, far under any measured
	 * noise) the error is floating-point rounding of identical values. */
	if (!(e.se > ZERO_SE) || !(e.hi > e.lo) ||
	    stats_tost(&e, log1p(-threshold), log1p(threshold), 0.05, &tost)) {
		design_free(&d);
		out->p = NAN;
		*why = REPORT_FLAG_ZERO_VARIANCE;
		return 1;
	}
	out->ci_low_pct = pct(e.lo);
	out->ci_high_pct = pct(e.hi);
	out->eq_low_pct = pct(tost.lo);
	out->eq_high_pct = pct(tost.hi);
	out->verdict = classify(out->ci_low_pct, out->ci_high_pct,
				tost.equivalent, th, higher_is_better);
	robust(&d, th, higher_is_better, out);
	design_free(&d);
	return 0;
}

struct pidx {
	double p;
	size_t i;
};

static int cmp_pidx(const void *x, const void *y)
{
	const struct pidx *a = x, *b = y;
	if (a->p != b->p)
		return a->p < b->p ? -1 : 1;
	return (a->i > b->i) - (a->i < b->i); /* stable, as a mergesort */
}

int report_holm(const double *p, size_t n, double *adj)
{
	struct pidx *s = malloc((n + 1) * sizeof *s);
	double run = 0;
	size_t i;
	if (!s)
		return -XR_ENOMEM;
	for (i = 0; i < n; i++) {
		s[i].p = p[i];
		s[i].i = i;
	}
	qsort(s, n, sizeof *s, cmp_pidx);
	for (i = 0; i < n; i++) {
		run = fmax(run, fmin(1, (double)(n - i) * s[i].p));
		adj[s[i].i] = run;
	}
	free(s);
	return 0;
}

const char *report_verdict_name(enum report_verdict v)
{
	static const char *const names[] = {
	    "better",	 "worse",	   "equivalent",  "not_significant",
	    "different", "not_comparable", "not_verified"};
	if ((unsigned)v >= sizeof names / sizeof names[0])
		return "not_comparable";
	return names[v];
}

const char *report_method_name(enum report_method m)
{
	switch (m) {
	case REPORT_METHOD_POSITION:
		return "position-ols";
	case REPORT_METHOD_WELCH:
		return "welch";
	default:
		return "none";
	}
}
