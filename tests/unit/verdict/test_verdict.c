/*
 * The verdict logic (reports/verdict/verdict.c) on constructed samples: a known
 * difference found with a CI containing it, identical populations never
 * called better or worse, a drifting ABBA sequence estimated without bias
 * by the position covariate, n=2 refused, Welch on runs not interleaved;
 * then the rule table of schema/report.md ("Verdicts") on data whose
 * numbers were computed with scipy 1.10.1 and statsmodels (the script is
 * in each comment), the robust estimate, zero variance, the direction.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "verdict.h"
#include "stats.h"
#include "tap.h"

/* A deterministic normal generator (LCG + Box-Muller). */
static uint64_t seed = 42;
static double unif(void)
{
	seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return ((seed >> 11) + 0.5) / 9007199254740992.0;
}
static double gauss(void)
{
	return sqrt(-2 * log(unif())) * cos(2 * M_PI * unif());
}

static int decide(const double *ya, const double *pa, size_t na,
		  const double *yb, const double *pb, size_t nb, int inter,
		  int hib, struct report_cmp *c, enum report_flag_code *why)
{
	struct report_sample a = {ya, pa, na}, b = {yb, pb, nb};
	memset(c, 0, sizeof *c);
	return report_decide(&a, &b, inter, 0.01, hib, c, why);
}

/*
 * Reference numbers: Welch on log values, as percent, from
 *   import numpy as np, scipy.stats as st
 *   def welch(a, b, conf):
 *       la, lb = np.log(a), np.log(b)
 *       va, vb = la.var(ddof=1)/len(la), lb.var(ddof=1)/len(lb)
 *       se = np.sqrt(va+vb)
 *       df = (va+vb)**2/(va**2/(len(la)-1)+vb**2/(len(lb)-1))
 *       d = lb.mean()-la.mean(); q = st.t.ppf(1-(1-conf)/2, df)
 *       p = st.ttest_ind(lb, la, equal_var=False).pvalue
 *       return [100*np.expm1(x) for x in (d, d-q*se, d+q*se)], p, df
 * (scipy 1.10.1; conf .95 for the CI, .90 for the TOST interval).
 */
static void test_rules(void)
{
	static const double a1[] = {100, 102, 99, 101, 98};
	static const double b1[] = {103, 104, 101, 105, 102};
	static const double a2[] = {1000, 1003, 998, 1001, 999, 1002};
	static const double b2[] = {1010, 1012, 1008, 1011, 1009, 1013};
	static const double a3[] = {1000, 1001, 999, 1000.5, 999.5, 1000.2};
	static const double b3[] = {1000.4, 1001.1, 999.6,
				    1000.2, 1000.9, 999.8};
	struct report_sample A, B;
	struct report_cmp c;
	enum report_flag_code why;
	double d, lo, hi;

	/* A: delta 3.000591459 ci [0.6854887345, 5.36892629] p
	 * 0.01710340237 df 7.993016838: p < .05 and the CI crosses +1%:
	 * different, not "~" (issue 9, item 2). */
	A = (struct report_sample){a1, NULL, 5, NULL};
	B = (struct report_sample){b1, NULL, 5, NULL};
	memset(&c, 0, sizeof c);
	is_int(report_decide(&A, &B, 0, 0.01, 1, &c, &why), 0, "A: decided");
	is_near(c.delta_pct, 3.000591459, 1e-6, "A: delta as scipy");
	is_near(c.ci_low_pct, 0.6854887345, 1e-6, "A: CI low as scipy");
	is_near(c.ci_high_pct, 5.36892629, 1e-6, "A: CI high as scipy");
	is_near(c.p, 0.01710340237, 1e-8, "A: p as scipy");
	is_near(c.df, 7.993016838, 1e-6, "A: df as scipy");
	is_near(c.eq_low_pct, 1.12967958, 1e-6, "A: 90% low as scipy");
	is_near(c.eq_high_pct, 4.906115445, 1e-6, "A: 90% high as scipy");
	is_int(c.verdict, REPORT_DIFFERENT,
	       "A: p .017, CI crosses +1%: different");
	is_str(report_verdict_name(c.verdict), "different", "A: JSON name");
	/* the same data, lower-is-better: still different (no direction) */
	report_decide(&A, &B, 0, 0.01, 0, &c, &why);
	is_int(c.verdict, REPORT_DIFFERENT, "A lower-is-better: different");
	/* reusable interval (for sizing repetitions) */
	is_int(report_delta_interval(a1, 5, b1, 5, 0.95, &d, &lo, &hi), 0,
	       "delta interval");
	is_near(lo, 0.6854887345, 1e-6, "delta interval low as scipy");
	is_near(hi, 5.36892629, 1e-6, "delta interval high as scipy");

	/* B: delta 0.9995031478 ci [0.7580371902, 1.241547777] eq90
	 * [0.8030414785, 1.196347714]: theta 1% -> different; 0.5% ->
	 * better (worse when lower is better); 2% -> equivalent (TOST). */
	A = (struct report_sample){a2, NULL, 6, NULL};
	B = (struct report_sample){b2, NULL, 6, NULL};
	report_decide(&A, &B, 0, 0.01, 1, &c, &why);
	is_near(c.ci_low_pct, 0.7580371902, 1e-6, "B: CI low as scipy");
	is_int(c.verdict, REPORT_DIFFERENT, "B, theta 1%: different");
	report_decide(&A, &B, 0, 0.005, 1, &c, &why);
	is_int(c.verdict, REPORT_BETTER, "B, theta 0.5%: better");
	report_decide(&A, &B, 0, 0.005, 0, &c, &why);
	is_int(c.verdict, REPORT_WORSE,
	       "B, theta 0.5%, lower is better: worse");
	report_decide(&B, &A, 0, 0.005, 1, &c, &why);
	is_int(c.verdict, REPORT_WORSE, "B swapped (a drop): worse");
	ok(c.ci_high_pct < -0.5, "B swapped: CI wholly below -0.5%% (%.3f)",
	   c.ci_high_pct);
	report_decide(&A, &B, 0, 0.02, 1, &c, &why);
	is_int(c.verdict, REPORT_EQUIVALENT, "B, theta 2%: equivalent");
	is_near(c.eq_high_pct, 1.196347714, 1e-6, "B: 90% high as scipy");

	/* C: delta 0.03000551215 ci [-0.05457863527, 0.1146612434] p
	 * 0.446352593 eq90 [-0.03872609974, 0.09878438269]: theta 1% ->
	 * equivalent; theta 0.05% -> not significant (the CI contains 0). */
	A = (struct report_sample){a3, NULL, 6, NULL};
	B = (struct report_sample){b3, NULL, 6, NULL};
	report_decide(&A, &B, 0, 0.01, 1, &c, &why);
	is_near(c.p, 0.446352593, 1e-8, "C: p as scipy");
	is_int(c.verdict, REPORT_EQUIVALENT, "C, theta 1%: equivalent");
	report_decide(&A, &B, 0, 0.0005, 1, &c, &why);
	is_int(c.verdict, REPORT_NOT_SIGNIFICANT,
	       "C, theta 0.05%: not significant");
	ok(c.ci_low_pct <= 0 && c.ci_high_pct >= 0,
	   "not significant only when the CI contains 0");
}

/*
 * The position model's standard error (bench/RESULTS.md, "Balanced
 * designs"): HC2 when the sides have as many runs each, with the
 * Bell-McCaffrey df of one working variance per side, else HC3 with
 * Bell-McCaffrey-type df. The 16 runs below:
 *   y = np.log(vals); X = [1, group, position]
 *   sm.OLS(y, X).fit(cov_type='HC3') -> params[1] 0.04784414748,
 *   bse[1] 0.004845103223 (statsmodels 0.13.5).
 * statsmodels is not installed here; the HC2 error and the df were
 * computed in plain Python (tests/unit/verdict/hc_bm.py: n x n hat
 * matrix, df = tr(W M W)^2 / tr((W M W)^2), Imbens & Kolesar 2016),
 * which reproduces statsmodels' HC3 figures above and in test_sessions
 * to 1e-12:
 *   8 + 8: HC2 se 0.0044006807329 (BM df 12.9509341514 with sigma^2 I);
 *   the df with one variance per side, 11.6758305369, is
 *   tests/unit/stats/hc_bmg.py's (numpy, eigenvalues of W M Omega M W);
 *   the last run (an A) left out, 7 + 8: HC3 se 0.00504031823216,
 *   estimate 0.0467463680001, HC3-BM-type df 11.0668298054.
 */
static void position_case(int n, double est, double want_se, double want_df,
			  const char *what)
{
	static const int order[16] = {0, 1, 1, 0, 1, 0, 0, 1,
				      1, 0, 0, 1, 0, 1, 1, 0};
	static const double vals[16] = {
	    100.0, 105.2, 104.1, 100.9, 106.3, 99.5,  101.2, 103.8,
	    106.0, 100.4, 99.8,	 104.9, 101.5, 107.1, 105.5, 100.2};
	double ya[16], yb[16], pa[16], pb[16], se;
	struct report_sample A, B;
	struct report_cmp c;
	enum report_flag_code why;
	int i, na = 0, nb = 0;

	for (i = 0; i < n; i++) {
		if (order[i]) {
			yb[nb] = vals[i];
			pb[nb++] = i;
		} else {
			ya[na] = vals[i];
			pa[na++] = i;
		}
	}
	A = (struct report_sample){ya, pa, (size_t)na, NULL};
	B = (struct report_sample){yb, pb, (size_t)nb, NULL};
	memset(&c, 0, sizeof c);
	is_int(report_decide(&A, &B, 1, 0.01, 1, &c, &why), 0, what);
	is_int(c.method, REPORT_METHOD_POSITION, what);
	is_near(log1p(c.delta_pct / 100), est, 1e-9, what);
	se = (log1p(c.ci_high_pct / 100) - log1p(c.ci_low_pct / 100)) / 2 /
	     tdist_quantile(0.975, c.df);
	is_near(se, want_se, 1e-9, what);
	is_near(c.df, want_df, 1e-8, what);
}

static void test_hc3(void)
{
	position_case(16, 0.04784414748, 0.0044006807329, 11.6758305369,
		      "8 + 8: HC2, Bell-McCaffrey df of a variance per side");
	position_case(15, 0.0467463680001, 0.00504031823216, 11.0668298054,
		      "7 + 8: HC3 with Bell-McCaffrey-type df (plain Python)");
}

/*
 * A sized comparison (the data of test_hc3; the sizing read the first two
 * runs of each side): the decision runs enter the position model as one
 * row, their mean with weight sqrt(2), and Welch's t loses their own sum
 * of squares and df. Computed with full matrices (H, M = W(I-H)W) by
 * this script, /usr/bin/python3 with numpy and scipy 1.10.1:
 *
 *   import numpy as np, scipy.stats as st
 *   order=[0,1,1,0,1,0,0,1,1,0,0,1,0,1,1,0]
 *   vals=[100.0,105.2,104.1,100.9,106.3,99.5,101.2,103.8,106.0,100.4,99.8,104.9,101.5,107.1,105.5,100.2]
 *   A=[(vals[i],i) for i in range(16) if order[i]==0]
 *   B=[(vals[i],i) for i in range(16) if order[i]==1]
 *   k=2
 *   # rows: decision runs (first k of each side) collapsed to their mean,
 * weight sqrt(k) rows=[] for g,S in ((0,A),(1,B)): y=np.log([v for v,_ in
 * S[:k]]); p=[q for _,q in S[:k]]
 *       rows.append((y.mean(),np.mean(p),g,np.sqrt(k)))
 *       for v,q in S[k:]: rows.append((np.log(v),q,g,1.0))
 *   y=np.array([r[0] for r in rows]); pos=np.array([r[1] for r in rows]);
 * g=np.array([r[2] for r in rows]); w=np.array([r[3] for r in rows])
 *   X=np.column_stack([np.ones(len(y)),g,pos-pos.mean()])*w[:,None]; yw=y*w
 *   Ainv=np.linalg.inv(X.T@X); beta=Ainv@X.T@yw; e=yw-X@beta
 *   H=X@Ainv@X.T; h=np.diag(H); a=(Ainv@X.T)[1]
 *   var=np.sum(a**2*e**2/(1-h)**2)
 *   W=np.diag(a/(1-h)); M=W@(np.eye(len(y))-H)@W;
 * df=np.trace(M)**2/np.trace(M@M) print("position est %.12g se %.12g df
 * %.12g"%(beta[1],np.sqrt(var),df)) # the same estimate from all runs with the
 * contrast as a nuisance column yall=np.log([v for v,_ in A]+[v for v,_ in B]);
 * pall=np.array([q for _,q in A]+[q for _,q in B],float)
 *   gall=np.array([0]*8+[1]*8); ca=np.zeros(16); ca[0]=1; ca[1]=-1;
 * cb=np.zeros(16); cb[8]=1; cb[9]=-1
 *   Xa=np.column_stack([np.ones(16),gall,pall-pall.mean(),ca,cb]);
 * print("nuisance-column est %.12g"%np.linalg.lstsq(Xa,yall,rcond=None)[0][1])
 *   # Welch split
 *   def side(S):
 *       l=np.log([v for v,_ in S]);
 * ss=((l-l.mean())**2).sum()-((l[:k]-l[:k].mean())**2).sum(); d=len(l)-1-(k-1)
 *       return l.mean(), ss/d/len(l), d
 *   ma,va,da=side(A); mb,vb,db=side(B)
 *   se=np.sqrt(va+vb); dfw=(va+vb)**2/(va**2/da+vb**2/db); t=(mb-ma)/se
 *   print("welch est %.12g se %.12g df %.12g p
 * %.12g"%(mb-ma,se,dfw,2*st.t.sf(abs(t),dfw)))
 *
 * -> position est 0.0478441474769 se 0.00503523562663 df 7.89189436275
 *    (the fit of all runs with the two contrasts as nuisance columns
 *    gives the same estimate), welch est 0.0478441474769 se
 *    0.00461271552709 df 10.2859514896 p 9.00676648703e-07.
 */
static void test_sized(void)
{
	static const int order[16] = {0, 1, 1, 0, 1, 0, 0, 1,
				      1, 0, 0, 1, 0, 1, 1, 0};
	static const double vals[16] = {
	    100.0, 105.2, 104.1, 100.9, 106.3, 99.5,  101.2, 103.8,
	    106.0, 100.4, 99.8,	 104.9, 101.5, 107.1, 105.5, 100.2};
	double ya[16], yb[16], pa[16], pb[16], se;
	int da[16], db[16], i, na = 0, nb = 0;
	struct report_sample A = {0}, B = {0};
	struct report_cmp c;
	enum report_flag_code why;

	for (i = 0; i < 16; i++) {
		if (order[i]) {
			db[nb] = nb < 2;
			yb[nb] = vals[i];
			pb[nb++] = i;
		} else {
			da[na] = na < 2;
			ya[na] = vals[i];
			pa[na++] = i;
		}
	}
	A.y = ya, A.pos = pa, A.n = (size_t)na, A.decide = da;
	B.y = yb, B.pos = pb, B.n = (size_t)nb, B.decide = db;
	memset(&c, 0, sizeof c);
	is_int(report_decide(&A, &B, 1, 0.01, 1, &c, &why), 0,
	       "sized: decided");
	is_int(c.method, REPORT_METHOD_POSITION, "sized: position model");
	is_int(c.decide_df, 2, "sized: two decision contrasts left out");
	is_near(log1p(c.delta_pct / 100), 0.0478441474769, 1e-9,
		"sized: estimate");
	se = (log1p(c.ci_high_pct / 100) - log1p(c.ci_low_pct / 100)) / 2 /
	     tdist_quantile(0.975, c.df);
	is_near(se, 0.00503523562663, 1e-9, "sized: HC3 on the decision row");
	is_near(c.df, 7.89189436275, 1e-8, "sized: Bell-McCaffrey df");
	/* the robust line ranks the same rows: each side's two decision
	 * runs one value, their mean of log y (robust_split.py, stdlib;
	 * every run as it is would give HL +4.945000328%) */
	is_near(c.hl_pct, 5.039525692, 1e-6, "sized: HL on the decision row");
	is_near(c.mw_p, 0.0005827505828, 1e-12,
		"sized: exact Mann-Whitney p, 7 + 7 rows");
	memset(&c, 0, sizeof c);
	report_decide(&A, &B, 0, 0.01, 1, &c, &why);
	is_int(c.method, REPORT_METHOD_WELCH, "sized, not interleaved: Welch");
	is_near(c.df, 10.2859514896, 1e-8, "sized Welch: df n - 2 a side");
	is_near(c.p, 9.00676648703e-07, 1e-12, "sized Welch: p");
	se = (log1p(c.ci_high_pct / 100) - log1p(c.ci_low_pct / 100)) / 2 /
	     tdist_quantile(0.975, c.df);
	is_near(se, 0.00461271552709, 1e-9, "sized Welch: standard error");
}

/*
 * Holm's adjustment against statsmodels 0.13.5 (/usr/bin/python3):
 *   from statsmodels.stats.multitest import multipletests
 *   multipletests([0.01, 0.04, 0.03, 0.005, 0.04, 0.5, 0.0001],
 *                 alpha=0.05, method='holm')
 *   -> reject [T, F, F, T, F, F, T],
 *      pvals_corrected [0.05, 0.12, 0.12, 0.03, 0.12, 0.5, 0.0007]
 * (a tie, 0.04 and 0.04, and the step-down maximum: 0.03 x 4 = 0.12,
 * then 0.04 x 3 = 0.12 and 0.04 x 2 = 0.08 lifted to 0.12).
 */
static void test_holm(void)
{
	static const double p[7] = {0.01, 0.04, 0.03, 0.005, 0.04, 0.5, 1e-4};
	static const double want[7] = {0.05, 0.12, 0.12,  0.03,
				       0.12, 0.5,  0.0007};
	double adj[7];
	char what[40];
	int i;
	is_int(report_holm(p, 7, adj), 0, "holm: computed");
	for (i = 0; i < 7; i++) {
		snprintf(what, sizeof what, "holm: p[%d] as statsmodels", i);
		is_near(adj[i], want[i], 1e-12, what);
	}
	is_int(report_holm(p, 0, adj), 0, "holm: no p values");
}

/*
 * Sessions: A B B A B A in session 1, the same order in session 2 at +3%
 * (a step, no effect). With one intercept per session:
 *   X = [1, group, position, session2]; sm.OLS(np.log(vals), X)
 *   .fit(cov_type='HC3') -> params[1] 0.0004632376992, bse[1]
 *   0.002123593425 (without the session term: 0.001801940771,
 *   0.006189877871: the step inflates the error). The sides have 6 runs
 *   each, so the verdict takes HC2: se 0.00170158947389 (plain Python,
 *   hc_bm.py) with the Bell-McCaffrey df of a variance per side,
 *   7.64204345761 (tests/unit/stats/hc_bmg.py; 7.6088572128 with
 *   sigma^2 I).
 */
static void test_sessions(void)
{
	static const int order[12] = {0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 1, 0};
	static const double vals[12] = {100.3,	  99.8,	   100.1,    99.6,
					100.25,	  99.95,   103.3605, 102.691,
					103.1545, 102.897, 103.206,  102.7425};
	double ya[12], yb[12], pa[12], pb[12], se;
	int sa[12], sb[12], i, na = 0, nb = 0;
	struct report_sample A, B;
	struct report_cmp c;
	enum report_flag_code why;

	for (i = 0; i < 12; i++) {
		if (order[i]) {
			yb[nb] = vals[i];
			sb[nb] = i >= 6;
			pb[nb++] = i;
		} else {
			ya[na] = vals[i];
			sa[na] = i >= 6;
			pa[na++] = i;
		}
	}
	A = (struct report_sample){ya, pa, (size_t)na, sa};
	B = (struct report_sample){yb, pb, (size_t)nb, sb};
	memset(&c, 0, sizeof c);
	is_int(report_decide(&A, &B, 1, 0.01, 1, &c, &why), 0,
	       "sessions: decided");
	is_near(log1p(c.delta_pct / 100), 0.0004632376992, 1e-9,
		"sessions: estimate as statsmodels with a session term");
	se = (log1p(c.ci_high_pct / 100) - log1p(c.ci_low_pct / 100)) / 2 /
	     tdist_quantile(0.975, c.df);
	is_near(se, 0.00170158947389, 1e-9,
		"sessions: HC2 error with a session term (plain Python)");
	is_near(c.df, 7.64204345761, 1e-8,
		"sessions: Bell-McCaffrey df (a variance per side), session "
		"term");
}

/*
 * One outlier: a = [100, 101, 99, 102, 100.5, 98.5, 101.5, 99.5],
 * b = [105, 106, 104, 50, 105.5, 103.5, 106.5, 104.5], on log values:
 *   st.mannwhitneyu(la, lb, method='auto') -> U 8, p 0.01041181041
 *   np.median(np.subtract.outer(lb, la)) -> HL 4.466528154%
 *   Welch: delta -4.536218734%, p 0.632528576
 * The parametric verdict is "~"; the robust one disagrees in sign and is
 * shown.
 */
static void test_robust(void)
{
	static const double a[] = {100, 101, 99, 102, 100.5, 98.5, 101.5, 99.5};
	static const double b[] = {105,	  106,	 104,	50,
				   105.5, 103.5, 106.5, 104.5};
	struct report_sample A = {a, NULL, 8, NULL}, B = {b, NULL, 8, NULL};
	struct report_cmp c;
	enum report_flag_code why;
	memset(&c, 0, sizeof c);
	report_decide(&A, &B, 0, 0.01, 1, &c, &why);
	is_near(c.delta_pct, -4.536218734, 1e-6, "outlier: Welch as scipy");
	is_near(c.p, 0.632528576, 1e-8, "outlier: Welch p as scipy");
	is_int(c.verdict, REPORT_NOT_SIGNIFICANT, "outlier: parametric ~");
	is_near(c.hl_pct, 4.466528154, 1e-6, "outlier: HL as numpy");
	is_near(c.mw_p, 0.01041181041, 1e-9,
		"outlier: Mann-Whitney p as scipy");
	ok(c.robust_shown, "outlier: the robust estimate is shown");
}

/* Zero variance and the direction of metrics. */
static void test_degenerate(void)
{
	static const double a[] = {1e9, 1e9, 1e9}, b[] = {1.1e9, 1.1e9, 1.1e9};
	static const double pa[] = {0, 3, 4}, pb[] = {1, 2, 5};
	struct report_sample A = {a, pa, 3, NULL}, B = {b, pb, 3, NULL};
	struct report_cmp c;
	enum report_flag_code why = REPORT_FLAG_COUNT;
	memset(&c, 0, sizeof c);
	is_int(report_decide(&A, &B, 1, 0.01, 1, &c, &why), 1,
	       "identical values: refused");
	is_int(why, REPORT_FLAG_ZERO_VARIANCE,
	       "identical values: zero_variance");
	is_int(c.verdict, REPORT_NOT_COMPARABLE,
	       "identical values: no verdict");
	is_near(c.delta_pct, 10, 1e-9, "identical values: the estimate kept");
	ok(report_flag_refuses(REPORT_FLAG_ZERO_VARIANCE),
	   "zero_variance refuses");
	A.pos = B.pos = NULL;
	is_int(report_decide(&A, &B, 0, 0.01, 1, &c, &why), 1,
	       "identical values, Welch: refused");

	is_int(report_higher_is_better("throughput", 0), 1,
	       "throughput: higher");
	is_int(report_higher_is_better("latency", 0), 0, "latency: lower");
	is_int(report_higher_is_better("lost_percent", 0), 0, "loss: lower");
	is_int(report_higher_is_better("retransmits", 0), 0,
	       "retransmits: lower");
	is_int(report_higher_is_better("success_rate", 0), 1,
	       "a rate in %: higher (never from the unit)");
	is_int(report_higher_is_better("success_rate", -1), 0,
	       "better: lower declared");
	is_int(report_higher_is_better("latency", 1), 1,
	       "better: higher declared wins over the name");
}

int main(void)
{
	tap_plan(100);
	struct report_cmp c, w;
	enum report_flag_code why;
	double ya[64], yb[64], pa[64], pb[64];
	int i, rc, falsepos = 0, trials = 200;

	/* 1. A known +10% with 1% noise, 5 interleaved runs per side. */
	for (i = 0; i < 5; i++) {
		pa[i] = 2 * i;
		pb[i] = 2 * i + 1;
		ya[i] = 9.4e9 * (1 + 0.01 * gauss());
		yb[i] = 9.4e9 * 1.10 * (1 + 0.01 * gauss());
	}
	rc = decide(ya, pa, 5, yb, pb, 5, 1, 1, &c, &why);
	is_int(rc, 0, "+10%: decided");
	is_int(c.verdict, REPORT_BETTER, "+10%: better");
	ok(c.ci_low_pct <= 10 && c.ci_high_pct >= 10,
	   "+10%%: CI [%.2f, %.2f] contains 10", c.ci_low_pct, c.ci_high_pct);
	is_near(c.delta_pct, 10, 2, "+10%: estimate");
	is_int(c.method, REPORT_METHOD_POSITION, "interleaved: position OLS");
	ok(c.p < 0.001, "+10%%: p = %g", c.p);

	/* The same for a lower-is-better metric is worse. */
	rc = decide(ya, pa, 5, yb, pb, 5, 1, 0, &c, &why);
	is_int(c.verdict, REPORT_WORSE, "latency +10%: worse");

	/* 2. Identical populations: the same values in another order. */
	for (i = 0; i < 6; i++) {
		ya[i] = 100 + i;
		yb[i] = 100 + (5 - i);
		pa[i] = 2 * i;
		pb[i] = 2 * i + 1;
	}
	rc = decide(ya, pa, 6, yb, pb, 6, 0, 1, &c, &why);
	ok(c.verdict == REPORT_EQUIVALENT ||
	       c.verdict == REPORT_NOT_SIGNIFICANT,
	   "identical values: ~ or ≈ (got %s)", report_verdict_name(c.verdict));
	is_near(c.delta_pct, 0, 1e-9, "identical values: delta 0");

	/* Sampled identical populations, 2% noise, n=3+3 and n=8+8: never
	 * better/worse beyond the 5% a 95% interval allows (in practice far
	 * fewer: the CI must also clear the 1% threshold). */
	for (i = 0; i < trials; i++) {
		int k, n = i % 2 ? 3 : 8;
		for (k = 0; k < n; k++) {
			ya[k] = 1e9 * (1 + 0.02 * gauss());
			yb[k] = 1e9 * (1 + 0.02 * gauss());
			pa[k] = 2 * k;
			pb[k] = 2 * k + 1;
		}
		decide(ya, pa, (size_t)n, yb, pb, (size_t)n, i % 4 < 2, 1, &c,
		       &why);
		if (c.verdict == REPORT_BETTER || c.verdict == REPORT_WORSE)
			falsepos++;
	}
	ok(falsepos <= trials / 20,
	   "identical populations: %d of %d trials "
	   "called different",
	   falsepos, trials);

	/* 3. ABBA with strong drift (+3% per run): A B B A B A A B. */
	{
		const int abba[8] = {0, 1, 1, 0, 1, 0, 0, 1};
		int na = 0, nb = 0;
		for (i = 0; i < 8; i++) {
			double v = 1e9 * exp(0.03 * i) * (abba[i] ? 1.05 : 1);
			v *= 1 + 0.001 * gauss();
			if (abba[i]) {
				yb[nb] = v;
				pb[nb++] = i;
			} else {
				ya[na] = v;
				pa[na++] = i;
			}
		}
		rc = decide(ya, pa, 4, yb, pb, 4, 1, 1, &c, &why);
		is_int(rc, 0, "abba drift: decided");
		is_near(c.delta_pct, 5, 0.3, "abba drift: +5% without bias");
		ok(c.ci_low_pct <= 5 && c.ci_high_pct >= 5,
		   "abba drift: CI [%.2f, %.2f] contains 5", c.ci_low_pct,
		   c.ci_high_pct);
		is_int(c.verdict, REPORT_BETTER, "abba drift: better");
		decide(ya, pa, 4, yb, pb, 4, 0, 1, &w, &why);
		ok(c.ci_high_pct - c.ci_low_pct <
		       (w.ci_high_pct - w.ci_low_pct) / 4,
		   "abba drift: covariate CI %.2f wide vs Welch %.2f",
		   c.ci_high_pct - c.ci_low_pct, w.ci_high_pct - w.ci_low_pct);
		ok(w.verdict != REPORT_BETTER,
		   "abba drift: Welch alone cannot tell (%s)",
		   report_verdict_name(w.verdict));
	}
	/* A drifting A A B B A A B B order (not mirrored): the covariate
	 * still removes the linear drift. */
	{
		const int order[8] = {0, 0, 1, 1, 0, 0, 1, 1};
		int na = 0, nb = 0;
		for (i = 0; i < 8; i++) {
			double v = 1e9 * exp(-0.02 * i) * (order[i] ? 1.05 : 1);
			if (order[i]) {
				yb[nb] = v;
				pb[nb++] = i;
			} else {
				ya[na] = v;
				pa[na++] = i;
			}
		}
		decide(ya, pa, 4, yb, pb, 4, 1, 1, &c, &why);
		is_near(c.delta_pct, 5, 1e-6, "aabb drift: exact +5%");
	}

	/* 4. n=2 refused. */
	rc = decide(ya, pa, 2, yb, pb, 3, 1, 1, &c, &why);
	is_int(rc, 1, "n=2: refused");
	is_int(c.verdict, REPORT_NOT_COMPARABLE, "n=2: not comparable");
	is_int(why, REPORT_FLAG_TOO_FEW_RUNS, "n=2: too few runs");
	ok(strstr(report_flag_text(why, REPORT_LANG_EN), "need >= 3 runs per "
							 "side") != NULL,
	   "n=2: says need >= 3 runs per side");
	ok(isnan(c.delta_pct), "n=2: no number");

	/* 5. Welch on runs not interleaved: +20%, 2% noise, morning vs
	 * evening. */
	for (i = 0; i < 5; i++) {
		ya[i] = 1e9 * (1 + 0.02 * gauss());
		yb[i] = 1.2e9 * (1 + 0.02 * gauss());
		pa[i] = i;
		pb[i] = 100 + i;
	}
	rc = decide(ya, pa, 5, yb, pb, 5, 0, 1, &c, &why);
	is_int(c.method, REPORT_METHOD_WELCH, "not interleaved: Welch");
	is_int(c.verdict, REPORT_BETTER, "not interleaved: +20% better");
	ok(c.ci_low_pct <= 20 && c.ci_high_pct >= 20,
	   "welch: CI [%.2f, %.2f] contains 20", c.ci_low_pct, c.ci_high_pct);

	/* Small effect with noise: neither outside nor inside the threshold. */
	for (i = 0; i < 3; i++) {
		ya[i] = 100 * (1 + 0.03 * (i - 1));
		yb[i] = 101 * (1 + 0.03 * (1 - i));
	}
	rc = decide(ya, NULL, 3, yb, NULL, 3, 0, 1, &c, &why);
	is_int(c.verdict, REPORT_NOT_SIGNIFICANT, "noisy +1%: ~");
	ok(c.p > 0.05, "noisy +1%%: p = %.2f", c.p);

	/* Zero values cannot be log-transformed: refused. */
	ya[0] = 0;
	rc = decide(ya, NULL, 3, yb, NULL, 3, 0, 1, &c, &why);
	is_int(why, REPORT_FLAG_NONPOSITIVE, "zero value refused");

	/* Equivalent: tight and equal. */
	for (i = 0; i < 6; i++) {
		ya[i] = 1e9 * (1 + 0.001 * gauss());
		yb[i] = 1e9 * (1 + 0.001 * gauss());
	}
	decide(ya, NULL, 6, yb, NULL, 6, 0, 1, &c, &why);
	is_int(c.verdict, REPORT_EQUIVALENT, "tight equal: equivalent");

	test_rules();
	test_hc3();
	test_sized();
	test_holm();
	test_sessions();
	test_robust();
	test_degenerate();
	return tap_done();
}
