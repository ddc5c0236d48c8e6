/*
 * Monte Carlo check of the A/B verdict's estimators (issue 9): simulate
 * many small interleaved designs with linear drift, with and without a
 * true effect, and measure how often each estimator's 95% test rejects
 * (the false-positive rate when there is no effect) and how often its
 * 95% interval covers the true effect. Everything is on the log scale, as
 * in the verdict: noise "0.5%" is a standard deviation of 0.005 in
 * log(y). Output is a Markdown table for bench/RESULTS.md.
 *
 * Usage: verdict-mc [DESIGNS_PER_SCENARIO] [SEED] [balanced]
 *   (default 20000, 9). With "balanced": the balanced designs of issue 23
 *   instead (n + n in ABBA order, n = 3..16, one or two sessions),
 *   HC3-BM against HC2-BM, HC2-BMG and the verdict itself
 *   (report_decide), size and power at +1.5%.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "verdict.h"

#define MAXN 32

/* xoshiro256** (Blackman & Vigna), seeded through splitmix64. */
static uint64_t rng_s[4];

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t rng_next(void)
{
	uint64_t r = rotl(rng_s[1] * 5, 7) * 9, t = rng_s[1] << 17;
	rng_s[2] ^= rng_s[0];
	rng_s[3] ^= rng_s[1];
	rng_s[1] ^= rng_s[2];
	rng_s[0] ^= rng_s[3];
	rng_s[2] ^= t;
	rng_s[3] = rotl(rng_s[3], 45);
	return r;
}

static void rng_seed(uint64_t seed)
{
	int i;
	for (i = 0; i < 4; i++) {
		uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		rng_s[i] = z ^ (z >> 31);
	}
}

static double rng_unif(void) /* (0, 1) */
{
	return ((double)(rng_next() >> 11) + 0.5) / 9007199254740992.0;
}

static double rng_norm(void) /* Box-Muller */
{
	return sqrt(-2 * log(rng_unif())) * cos(2 * M_PI * rng_unif());
}

/* One simulated design: the run order (which side runs at each position),
 * the noise of each side, the drift per run, a step between two sessions
 * (second half of the runs), and the true effect of B. */
struct scenario {
	const char *name;
	const char *order; /* 'A' / 'B' per run position */
	double sd_a, sd_b; /* noise, sd of log(y) */
	double drift;	   /* added to log(y) per run position */
	double step;	   /* added to log(y) in the second session */
	double effect;	   /* true log-ratio B/A */
};

/* The estimators compared. */
enum est {
	EST_CLASSIC, /* today's: position covariate, equal variances */
	EST_HC3,     /* position covariate, HC3, df n - 3 */
	EST_HC2BM,   /* position covariate, HC2, Bell-McCaffrey df */
	EST_HC3BM,   /* position covariate, HC3, Bell-McCaffrey df */
	EST_HC2BMG,  /* HC2, Bell-McCaffrey df with a variance per side */
	EST_HC3_S,   /* HC3-BM with one intercept per session */
	EST_HC2BM_S, /* HC2-BM with one intercept per session */
	EST_WELCH,   /* Welch's t, ignoring position */
	EST_N
};

static const char *const est_name[EST_N] = {
    "OLS+position, equal var (current)",
    "OLS+position, HC3, df n-k",
    "OLS+position, HC2, Bell-McCaffrey df",
    "OLS+position, HC3, Bell-McCaffrey-type df",
    "OLS+position, HC2, BM df with a variance per side",
    "... HC3-BM + session terms",
    "... HC2-BM + session terms",
    "Welch t (no position)",
};

struct tally {
	long fits, reject, cover;
	double width;
};

static int estimate(enum est which, const double *y, const int *g,
		    const double *pos, const int *ses, size_t n,
		    struct stats_effect *e)
{
	double a[MAXN], b[MAXN];
	size_t na = 0, nb = 0, i;
	switch (which) {
	case EST_CLASSIC:
		return stats_group_model(y, g, pos, NULL, n, STATS_SE_CLASSIC,
					 0.95, e);
	case EST_HC3:
		return stats_group_model(y, g, pos, NULL, n, STATS_SE_HC3, 0.95,
					 e);
	case EST_HC2BM:
		return stats_group_model(y, g, pos, NULL, n, STATS_SE_HC2_BM,
					 0.95, e);
	case EST_HC3BM:
		return stats_group_model(y, g, pos, NULL, n, STATS_SE_HC3_BM,
					 0.95, e);
	case EST_HC2BMG:
		return stats_group_model(y, g, pos, NULL, n, STATS_SE_HC2_BMG,
					 0.95, e);
	case EST_HC3_S:
		return stats_group_model(y, g, pos, ses, n, STATS_SE_HC3_BM,
					 0.95, e);
	case EST_HC2BM_S:
		return stats_group_model(y, g, pos, ses, n, STATS_SE_HC2_BM,
					 0.95, e);
	default:
		for (i = 0; i < n; i++) {
			if (g[i])
				b[nb++] = y[i];
			else
				a[na++] = y[i];
		}
		return stats_welch(a, na, b, nb, 0.95, e);
	}
}

static void run(const struct scenario *sc, long designs, struct tally *t)
{
	size_t n = strlen(sc->order), i;
	double y[MAXN], pos[MAXN];
	int g[MAXN], ses[MAXN];
	long d;
	int k;
	memset(t, 0, EST_N * sizeof *t);
	for (i = 0; i < n; i++) {
		g[i] = sc->order[i] == 'B';
		pos[i] = (double)i;
		ses[i] = i >= n / 2;
	}
	for (d = 0; d < designs; d++) {
		for (i = 0; i < n; i++)
			y[i] = sc->drift * (double)i + sc->step * ses[i] +
			       (g[i] ? sc->effect + sc->sd_b * rng_norm()
				     : sc->sd_a * rng_norm());
		for (k = 0; k < EST_N; k++) {
			struct stats_effect e;
			if (estimate((enum est)k, y, g, pos, ses, n, &e) < 0)
				continue;
			t[k].fits++;
			t[k].reject += e.p < 0.05;
			t[k].cover += e.lo <= sc->effect && sc->effect <= e.hi;
			t[k].width += e.hi - e.lo;
		}
	}
}

/* 6 + 6 in Thue-Morse order; 8 + 4 as AAB repeated (B's mean position is
 * 6.5, A's 5: not balanced against drift, so the covariate matters); 9 + 3
 * (the fewest runs a side may have) as AAAB repeated. */
#define TM12 "ABBABAABBAAB"
#define AAB12 "AABAABAABAAB"
#define AAAB12 "AAABAAABAAAB"

static const struct scenario scenarios[] = {
    {"6+6, equal 1%, no effect", TM12, .01, .01, .0025, 0, 0},
    {"6+6, equal 1%, +3%", TM12, .01, .01, .0025, 0, .03},
    {"6+6, A 0.5% / B 2%, no effect", TM12, .005, .02, .0025, 0, 0},
    {"6+6, A 0.5% / B 2%, +3%", TM12, .005, .02, .0025, 0, .03},
    {"8+4, equal 1%, no effect", AAB12, .01, .01, .0025, 0, 0},
    {"8+4, equal 1%, +3%", AAB12, .01, .01, .0025, 0, .03},
    {"8+4, A(8) 0.5% / B(4) 2%, no effect", AAB12, .005, .02, .0025, 0, 0},
    {"8+4, A(8) 0.5% / B(4) 2%, +3%", AAB12, .005, .02, .0025, 0, .03},
    {"8+4, A(8) 2% / B(4) 0.5%, no effect", AAB12, .02, .005, .0025, 0, 0},
    {"8+4, A(8) 2% / B(4) 0.5%, +3%", AAB12, .02, .005, .0025, 0, .03},
    {"9+3, A(9) 0.5% / B(3) 2%, no effect", AAAB12, .005, .02, .0025, 0, 0},
    {"9+3, A(9) 0.5% / B(3) 2%, +3%", AAAB12, .005, .02, .0025, 0, .03},
    {"6+6, 2 sessions, step +3%, no effect", TM12, .01, .01, .0025, .03, 0},
    {"8+4, 2 sessions, step +3%, no effect", AAB12, .01, .01, .0025, .03, 0},
};

/* Balanced designs (issue 23): n + n runs in ABBA order (ABBAABBA...,
 * what `order: abba` gives one factor), drift +0.25%/run, noise sd_a /
 * sd_b, effect as given; with step != 0 the second half of the runs is a
 * second session with that step, fitted with session terms. Estimators:
 * HC3-BM, HC2-BM (df with sigma^2 I), HC2-BMG (df with one working
 * variance per side), all stats_group_model, and the verdict's own p
 * (report_decide, the rule the reports use). */
struct bal {
	int n;
	double sd_a, sd_b, effect, step;
};

static const struct bal bals[] = {
    {3, .01, .01, 0, 0},      {4, .01, .01, 0, 0},
    {6, .01, .01, 0, 0},      {8, .01, .01, 0, 0},
    {10, .01, .01, 0, 0},     {16, .01, .01, 0, 0},
    {3, .01, .01, .015, 0},   {4, .01, .01, .015, 0},
    {6, .01, .01, .015, 0},   {8, .01, .01, .015, 0},
    {10, .01, .01, .015, 0},  {16, .01, .01, .015, 0},
    {3, .005, .02, 0, 0},     {4, .005, .02, 0, 0},
    {6, .005, .02, 0, 0},     {8, .005, .02, 0, 0},
    {10, .005, .02, 0, 0},    {16, .005, .02, 0, 0},
    {4, .02, .005, 0, 0},     {6, .02, .005, 0, 0},
    {10, .02, .005, 0, 0},    {16, .02, .005, 0, 0},
    {3, .005, .02, .015, 0},  {4, .005, .02, .015, 0},
    {6, .005, .02, .015, 0},  {8, .005, .02, .015, 0},
    {10, .005, .02, .015, 0}, {16, .005, .02, .015, 0},
    {4, .02, .005, .015, 0},  {10, .02, .005, .015, 0},
    {4, .01, .01, 0, .03},    {8, .01, .01, 0, .03},
    {4, .005, .02, 0, .03},   {8, .005, .02, 0, .03},
    {4, .01, .01, .015, .03}, {8, .005, .02, .015, .03},
};

static const enum stats_se bal_se[] = {STATS_SE_HC3_BM, STATS_SE_HC2_BM,
				       STATS_SE_HC2_BMG};
#define BAL_SE (sizeof bal_se / sizeof *bal_se)

/* One balanced design: y, its sides for report_decide; rej[] counts each
 * estimator's p < .05, then the verdict's p < .05 and its claims. */
static void balanced_one(const struct bal *b, size_t n, const int *g,
			 const double *pos, const int *ses, long *rej)
{
	double y[MAXN], ya[MAXN], yb[MAXN], pa[MAXN], pb[MAXN];
	int sa_s[MAXN], sb_s[MAXN];
	size_t i, na, nb, k;
	struct stats_effect e;
	struct report_sample sa = {0}, sb = {0};
	struct report_cmp c;
	enum report_flag_code why;
	const int *s = b->step != 0 ? ses : NULL;
	for (i = na = nb = 0; i < n; i++) {
		y[i] = .0025 * (double)i + b->step * ses[i] +
		       (g[i] ? b->effect + b->sd_b * rng_norm()
			     : b->sd_a * rng_norm());
		if (g[i]) {
			yb[nb] = exp(y[i]);
			sb_s[nb] = ses[i];
			pb[nb++] = pos[i];
		} else {
			ya[na] = exp(y[i]);
			sa_s[na] = ses[i];
			pa[na++] = pos[i];
		}
	}
	for (k = 0; k < BAL_SE; k++)
		if (stats_group_model(y, g, pos, s, n, bal_se[k], 0.95, &e) ==
		    0)
			rej[k] += e.p < 0.05;
	sa.y = ya;
	sa.pos = pa;
	sa.session = s ? sa_s : NULL;
	sa.n = na;
	sb.y = yb;
	sb.pos = pb;
	sb.session = s ? sb_s : NULL;
	sb.n = nb;
	memset(&c, 0, sizeof c);
	if (report_decide(&sa, &sb, 1, 0.01, 1, &c, &why) == 0) {
		rej[BAL_SE] += c.p < 0.05;
		rej[BAL_SE + 1] += c.verdict == REPORT_BETTER ||
				   c.verdict == REPORT_WORSE ||
				   c.verdict == REPORT_DIFFERENT;
	}
}

static void run_balanced(const struct bal *b, long designs, long *rej)
{
	size_t n = 2 * (size_t)b->n, i;
	double pos[MAXN];
	int g[MAXN], ses[MAXN];
	long d;
	for (i = 0; i < n; i++) {
		g[i] = (i % 4 == 1 || i % 4 == 2);
		pos[i] = (double)i;
		ses[i] = i >= n / 2;
	}
	memset(rej, 0, (BAL_SE + 2) * sizeof *rej);
	for (d = 0; d < designs; d++)
		balanced_one(b, n, g, pos, ses, rej);
}

static int main_balanced(long designs, unsigned long long seed)
{
	size_t s, k;
	rng_seed(seed);
	printf("%ld designs per row, seed %llu, ABBA order, drift "
	       "+0.25%%/run, alpha 5%%.\n\n",
	       designs, seed);
	printf("| design | noise A / B | true effect | HC3-BM rejects | "
	       "HC2-BM rejects | HC2-BMG rejects | verdict p < .05 | verdict "
	       "claims a difference |\n"
	       "|---|---|---:|---:|---:|---:|---:|---:|\n");
	for (s = 0; s < sizeof bals / sizeof *bals; s++) {
		long r[BAL_SE + 2];
		double f = 100.0 / (double)designs;
		run_balanced(&bals[s], designs, r);
		printf("| %d+%d%s | %.1f%% / %.1f%% | %+.1f%% |", bals[s].n,
		       bals[s].n, bals[s].step != 0 ? ", 2 sessions" : "",
		       100 * bals[s].sd_a, 100 * bals[s].sd_b,
		       100 * bals[s].effect);
		for (k = 0; k < BAL_SE + 2; k++)
			printf(" %.1f%% |", f * (double)r[k]);
		printf("\n");
	}
	return 0;
}

int main(int argc, char **argv)
{
	long designs = argc > 1 ? atol(argv[1]) : 20000;
	unsigned long long seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 9;
	size_t s;
	int k;
	if (designs < 1) {
		fprintf(stderr, "usage: verdict-mc [DESIGNS] [SEED]\n");
		return 2;
	}
	if (argc > 3 && !strcmp(argv[3], "balanced"))
		return main_balanced(designs, seed);
	rng_seed(seed);
	printf("%ld designs per scenario, seed %llu, drift +0.25%%/run, "
	       "alpha 5%%, 95%% intervals.\n\n",
	       designs, seed);
	printf("| scenario | estimator | rejects (p < .05) | 95%% CI covers "
	       "| mean CI width (log) |\n|---|---|---:|---:|---:|\n");
	for (s = 0; s < sizeof scenarios / sizeof *scenarios; s++) {
		struct tally t[EST_N];
		run(&scenarios[s], designs, t);
		for (k = 0; k < EST_N; k++) {
			double f = t[k].fits ? (double)t[k].fits : 1;
			if ((k == EST_HC3_S || k == EST_HC2BM_S) &&
			    scenarios[s].step == 0)
				continue;
			printf("| %s | %s | %.1f%% | %.1f%% | %.4f |\n",
			       k ? "" : scenarios[s].name, est_name[k],
			       100 * (double)t[k].reject / f,
			       100 * (double)t[k].cover / f, t[k].width / f);
			if (t[k].fits < designs)
				printf("| | (%ld of %ld designs not fitted) "
				       "| | | |\n",
				       designs - t[k].fits, designs);
		}
	}
	return 0;
}
