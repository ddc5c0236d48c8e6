/*
 * Monte Carlo of sized comparisons with no true effect (issue 23 item 3):
 * two cells of one block, `repeat: {min, max, precision}`, order abba,
 * normal noise on log(y). Each draw is sized and decided by xrun's own
 * code: runner/exec/sizing.c's needs and frozen count, and
 * reports/verdict/verdict.c's report_decide() with the position model.
 *   old:   the pilot's whole spread (min runs a cell) decides n, and the
 *          verdict reuses it (xrun before this change);
 *   split: the first sizing_decide_runs(min) runs of each cell decide
 *          n (df n - k in the needs) and the verdict takes their
 *          within-decision contrasts out of its variance (Cox 1975).
 * A false claim is a verdict of better, worse or different. Printed: the
 * rate overall, the share of draws that stopped at the pilot, the rate
 * among those, and the runs per comparison. Markdown rows for
 * bench/RESULTS.md ("Sized comparisons hold their size").
 *
 * With EFFECT (a true shift of log(y) on side b, 0.02 = +2%) the rates
 * are of claims in its direction: the power, and what the runs buy.
 *
 * With a fourth argument "robust", the rows are of the robust verdict
 * (Hodges-Lehmann interval, Mann-Whitney p; schema/report.md "Method",
 * 5.): its claims on the rows the headline fits (a decision's runs one
 * value, now) and on every run as it is (before), overall and among
 * the draws that stopped at the pilot.
 *
 * Usage: sizing-mc [DRAWS] [SEED] [EFFECT] [robust]
 *        (default 20000, 23, 0)
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "sizing.h"
#include "verdict.h"

#define MAXR 64

static uint64_t rng_s[4];

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t rng_next(void) /* xoshiro256** */
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

static double rng_norm(void) /* Box-Muller */
{
	double u = ((double)(rng_next() >> 11) + 0.5) / 9007199254740992.0;
	double v = ((double)(rng_next() >> 11) + 0.5) / 9007199254740992.0;
	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

static double sd_of(const double *x, int n)
{
	double m = 0, s = 0;
	int i;
	for (i = 0; i < n; i++)
		m += x[i];
	m /= n;
	for (i = 0; i < n; i++)
		s += (x[i] - m) * (x[i] - m);
	return sqrt(s / (n - 1));
}

/* Pass r of an abba block of two cells: AB when the Thue-Morse bit of r
 * is 0, else BA; both cells run every pass (their needs are equal). */
static double position(int r, int side)
{
	int tm = __builtin_popcount((unsigned)r) & 1;
	return 2.0 * r + (side ^ tm);
}

struct scen {
	int min, max;
	double precision, sd, effect;
	int split;
};

struct tally {
	long draws, claims, stopped, stopped_claims, runs;
	/* the robust verdict (Hodges-Lehmann / Mann-Whitney): on the rows
	 * the headline fits, and on every run as it is (before issue 23's
	 * robust split) */
	long rob, rob_stopped, rob_all, rob_all_stopped;
};

/* Does verdict v with estimate est claim a difference (in the effect's
 * direction when there is one)? */
static int claims(const struct scen *sc, enum report_verdict v, double est)
{
	if (sc->effect > 0)
		return v == REPORT_BETTER || (v == REPORT_DIFFERENT && est > 0);
	return v == REPORT_BETTER || v == REPORT_WORSE || v == REPORT_DIFFERENT;
}

/* The robust verdict's claims, of the split rows (c) and of every run as
 * it is (the same runs decided with no decision marks). */
static void robust_tally(const struct scen *sc, struct report_sample *a,
			 struct report_sample *b, const struct report_cmp *c,
			 int stopped, struct tally *t)
{
	struct report_cmp all;
	enum report_flag_code why;
	int i = claims(sc, c->robust_verdict, c->hl_pct), j = 0;
	const int *da = a->decide, *db = b->decide;
	a->decide = b->decide = NULL;
	memset(&all, 0, sizeof all);
	if (!report_decide(a, b, 1, 0.01, 1, &all, &why))
		j = claims(sc, all.robust_verdict, all.hl_pct);
	a->decide = da;
	b->decide = db;
	t->rob += i;
	t->rob_all += j;
	t->rob_stopped += stopped && i;
	t->rob_all_stopped += stopped && j;
}

/* The runs the sizing freezes for both cells (compare_needs: the larger
 * of each cell's own need and the Δ need). */
static int sized_n(const struct scen *sc, const struct plan *p,
		   const double *la, const double *lb)
{
	int k = sc->split ? sizing_decide_runs(sc->min) : sc->min;
	int lost = sc->split ? k : 1;
	double sa = sd_of(la, k), sb = sd_of(lb, k);
	int na = sizing_need_split(sa, sc->precision, lost);
	int nb = sizing_need_split(sb, sc->precision, lost);
	int nd = sizing_need_delta_split(sa, sb, sc->precision, lost);
	int need = na > nb ? na : nb;
	return sizing_planned(p, nd > need ? nd : need);
}

static void draw(const struct scen *sc, const struct plan *p, struct tally *t)
{
	double la[MAXR], lb[MAXR], ya[MAXR], yb[MAXR], pa[MAXR], pb[MAXR];
	int da[MAXR], db[MAXR], i, n;
	struct report_sample a = {0}, b = {0};
	struct report_cmp c;
	enum report_flag_code why;
	int k = sizing_decide_runs(sc->min);
	for (i = 0; i < sc->max; i++) {
		la[i] = sc->sd * rng_norm();
		lb[i] = sc->effect + sc->sd * rng_norm();
		ya[i] = exp(la[i]);
		yb[i] = exp(lb[i]);
		pa[i] = position(i, 0);
		pb[i] = position(i, 1);
		da[i] = db[i] = sc->split && i < k;
	}
	n = sized_n(sc, p, la, lb);
	a.y = ya;
	a.pos = pa;
	a.n = (size_t)n;
	a.decide = da;
	b.y = yb;
	b.pos = pb;
	b.n = (size_t)n;
	b.decide = db;
	memset(&c, 0, sizeof c);
	t->draws++;
	t->runs += 2 * n;
	if (report_decide(&a, &b, 1, 0.01, 1, &c, &why))
		return;
	i = claims(sc, c.verdict, c.delta_pct);
	t->claims += i;
	robust_tally(sc, &a, &b, &c, n == sc->min, t);
	if (n == sc->min) {
		t->stopped++;
		t->stopped_claims += i;
	}
}

static void print_row(const struct scen *sc, const struct tally *t)
{
	printf("| %d..%d | %.1f%% | %s | %.1f%% | %.0f%% | %.1f%% (%ld) | "
	       "%.1f |\n",
	       sc->min, sc->max, 100 * sc->sd, sc->split ? "split" : "old",
	       100.0 * t->claims / t->draws, 100.0 * t->stopped / t->draws,
	       t->stopped ? 100.0 * t->stopped_claims / t->stopped : 0.0,
	       t->stopped, (double)t->runs / t->draws);
}

static void print_robust(const struct scen *sc, const struct tally *t)
{
	double st = t->stopped ? (double)t->stopped : 1;
	printf("| %d..%d | %.1f%% | %s | %.1f%% | %.1f%% | %.0f%% (%ld) | "
	       "%.1f%% | %.1f%% |\n",
	       sc->min, sc->max, 100 * sc->sd, sc->split ? "split" : "old",
	       100.0 * t->rob / t->draws, 100.0 * t->rob_all / t->draws,
	       100.0 * t->stopped / t->draws, t->stopped,
	       100.0 * t->rob_stopped / st, 100.0 * t->rob_all_stopped / st);
}

int main(int argc, char **argv)
{
	static const int mins[][2] = {{4, 16}, {8, 32}};
	static const double sds[] = {0.01, 0.015, 0.02, 0.03};
	long draws = argc > 1 ? atol(argv[1]) : 20000;
	uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 23;
	double effect = argc > 3 ? atof(argv[3]) : 0;
	int rob = argc > 4 && !strcmp(argv[4], "robust");
	size_t mi, si;
	int split;
	if (rob)
		printf("| min..max | noise sd | procedure | robust %s: "
		       "rows (now) | every run (before) | stopped at pilot | "
		       "among them: rows | every run |\n"
		       "|---|---:|---|---:|---:|---:|---:|---:|\n",
		       effect > 0 ? "claims of the effect" : "false claims");
	else
		printf("| min..max | noise sd | procedure | %s | stopped at "
		       "pilot | %s among them | runs per comparison |\n"
		       "|---|---:|---|---:|---:|---:|---:|\n",
		       effect > 0 ? "claims of the effect" : "false claims",
		       effect > 0 ? "claims" : "false claims");
	for (mi = 0; mi < sizeof mins / sizeof *mins; mi++)
		for (si = 0; si < sizeof sds / sizeof *sds; si++)
			for (split = 0; split < 2; split++) {
				struct scen sc = {mins[mi][0], mins[mi][1],
						  0.02,	       sds[si],
						  effect,      split};
				struct plan p;
				struct tally t = {0};
				long d;
				memset(&p, 0, sizeof p);
				p.repeat = sc.min;
				p.repeat_max = sc.max;
				p.precision = sc.precision;
				p.order = PLAN_ORDER_ABBA;
				rng_seed(seed);
				for (d = 0; d < draws; d++)
					draw(&sc, &p, &t);
				if (rob)
					print_robust(&sc, &t);
				else
					print_row(&sc, &t);
			}
	return 0;
}
