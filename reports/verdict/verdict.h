/*
 * The verdict of one comparison (verdict.c, schema/report.md's "Method"
 * and "Verdicts"): from two samples to an effect, its intervals, p value,
 * robust estimate and verdict. Pure: no model, no store; the model layer
 * picks the samples (compare.c), bench/verdict-mc.c checks the rule.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_VERDICT_H
#define XR_VERDICT_H

#include <stddef.h>

#include "flags.h"

/* The rule table is schema/report.md's "Verdicts". */
enum report_verdict {
	REPORT_BETTER = 0,	/* 95% CI wholly beyond +theta (direction) */
	REPORT_WORSE,		/* ... wholly beyond -theta */
	REPORT_EQUIVALENT,	/* 90% CI (TOST) wholly inside +-theta */
	REPORT_NOT_SIGNIFICANT, /* 95% CI contains 0 */
	REPORT_DIFFERENT,	/* 95% CI excludes 0 but crosses +-theta: a
				   real difference of uncertain size */
	REPORT_NOT_COMPARABLE,	/* refused: reasons say why */
	REPORT_NOT_VERIFIED,	/* withheld: a compared setting was applied
				   but not verified in some run (reasons:
				   not_verified only) */
};

enum report_method {
	REPORT_METHOD_NONE = 0, /* refused */
	REPORT_METHOD_POSITION, /* OLS log(y) ~ group + position */
	REPORT_METHOD_WELCH,	/* Welch's t on log(y) */
};

struct report_cmp {
	int factor;   /* factor index; -1 for an explicit pair */
	int a, b;     /* cell indices; a is the baseline, delta = b vs a */
	int n_a, n_b; /* ok runs per side */
	const char *metric;
	double delta_pct; /* 100*(exp(effect)-1); NaN if refused */
	double ci_low_pct, ci_high_pct; /* 95% CI, same transform */
	double p;			/* two-sided; NaN if refused */
	double df;
	enum report_method method;
	enum report_verdict verdict;
	int higher_is_better;	     /* metric direction used for the verdict */
	struct report_flag *reasons; /* why refused (verdict not_comparable) */
	int nreasons;
	struct report_flag *warnings; /* footnotes that did not refuse */
	int nwarnings;
	/* Below: zero in tables built field by field (tests). */
	double eq_low_pct, eq_high_pct; /* the 90% interval of TOST */
	/* Every factor whose level differs ("nic, slot"); a configuration
	 * comparison (an explicit pair differing in several declared
	 * factors) has configuration set: its effect belongs to the
	 * combination. */
	const char *factors;
	int configuration;
	/* Sized repetitions: the degrees of freedom the sizing decision
	 * took (its within-decision contrasts, left out of the variance);
	 * 0 for a fixed plan. */
	int decide_df;
	/* p adjusted over the report's comparisons (--adjust); NaN when
	 * no adjustment was made. */
	double p_adj;
	/* Sensitivity: the position model's estimate when the verdict's
	 * method is Welch (sides not interleaved) and it can be fitted;
	 * NaN otherwise. */
	double sens_pct, sens_low_pct, sens_high_pct;
	/* Robust estimate on log(y): Hodges-Lehmann shift with its 95%
	 * interval (NaN when no interval reaches 95%) and Mann-Whitney's
	 * two-sided p; robust_shown when it disagrees with the parametric
	 * estimate in sign (beyond theta) or in what its verdict claims
	 * (up, down, none); writers then show it beside it. */
	double hl_pct, hl_low_pct, hl_high_pct, mw_p;
	enum report_verdict robust_verdict;
	int robust_shown;
};

/*
 * Holm's step-down adjustment of n p values (Holm 1979, "A simple
 * sequentially rejective multiple test procedure", Scand. J. Statist.
 * 6:65-70), as statsmodels' multipletests(method='holm'): in ascending
 * order p(1) <= ... <= p(n) (ties in input order), adj(j) = max over
 * i <= j of min(1, (n - i + 1) p(i)); adj[k] belongs to p[k]. 0, or
 * -XR_ENOMEM.
 */
int report_holm(const double *p, size_t n, double *adj);

/* Verdict names for JSON ("better", ..., "not_comparable"). */
const char *report_verdict_name(enum report_verdict v);
const char *report_method_name(enum report_method m); /* "position-ols" */

/* Does a higher value of this metric mean better? declared: the plan's
 * `better:` (1 higher, -1 lower, 0 unset); unset, a small table by name
 * (latency, loss, retransmits, times: lower). Never from the unit. */
int report_higher_is_better(const char *metric, int declared);

/* One side of a comparison: values (base units) and run positions. */
struct report_sample {
	const double *y;
	const double *pos; /* global run order; may be NULL if !interleaved */
	size_t n;
	const int *session; /* session of each value (a term each in the
			       position model); NULL = one session */
	/* Sized repetitions: a value > 0 marks a run the sizing decision
	 * read, the values of one side with the same mark and session
	 * being one decision (schema/report.md, "Sized comparisons");
	 * 0 for the other runs; NULL: none (a fixed plan). */
	const int *decide;
};

/*
 * The interval of a comparison from two samples alone (for sizing
 * repetitions): Welch's t on log(y), as percent of a. 0, STATS_EDATA
 * when a side has fewer than 2 values or a value is not > 0, or
 * -XR_ENOMEM.
 */
int report_delta_interval(const double *a, size_t na, const double *b,
			  size_t nb, double conf, double *delta_pct,
			  double *low_pct, double *high_pct);

/*
 * The statistical core of a comparison (schema/report.md, "Method"): on
 * log(y), the coefficient of the group indicator in log y ~ group +
 * position when interleaved, else Welch's t; delta% = 100(exp(b)-1).
 * The position model has one intercept per session and HC2 standard
 * errors with Bell-McCaffrey df when the sides have as many runs each
 * and no sizing decision, else HC3 with Bell-McCaffrey-type df
 * (bench/RESULTS.md); when it cannot
 * be fitted (a run with leverage 1) Welch's t stands in. Runs marked
 * as decision runs (report_sample.decide) add their within-decision
 * contrasts to the model as nuisance columns (to Welch's t: their sum of
 * squares and df leave each side's variance), so the variance the test
 * uses is independent of the one the sizing decided on (Cox 1975).
 * Fills out's n_a, n_b, delta_pct, ci_*_pct, eq_*_pct, p, df, method,
 * verdict (schema/report.md's rule table; direction from
 * higher_is_better, threshold theta as a fraction), the sensitivity and
 * the robust estimate. Returns 0, or 1 when the comparison must be
 * refused: verdict not_comparable, *why set (too_few_runs: fewer than 3
 * per side; nonpositive: log impossible; zero_variance: a zero-width
 * interval, whose estimate is kept in delta_pct).
 */
int report_decide(const struct report_sample *a, const struct report_sample *b,
		  int interleaved, double threshold, int higher_is_better,
		  struct report_cmp *out, enum report_flag_code *why);

#endif
