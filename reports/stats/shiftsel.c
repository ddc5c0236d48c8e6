/*
 * shiftsel: selection of the k-th smallest difference b_j - a_i in the
 * na x nb matrix of differences without forming it (Johnson & Mizoguchi
 * 1978, "Selecting the Kth element in X + Y and X1 + X2 + ... + Xm", SIAM
 * J. Comput. 7:147-153; Monahan 1984, "Fast computation of the
 * Hodges-Lehmann location estimator", ACM TOMS 10:265-270, whose random
 * pivot this follows). With a and b sorted ascending, row i (fixed a_i)
 * rises with j and falls with i, also for the rounded doubles, since
 * rounding is monotone. Each row keeps the column range [lo, hi) that may
 * still hold the answer; a random candidate is the pivot, one staircase
 * walk counts the differences below and at it (O(na + nb)), and the ranges
 * shrink to the side that holds rank k. The expected number of rounds is
 * O(log(na nb)); when few candidates are left they are gathered and
 * selected directly.
 *
 * SPDX-License-Identifier: MIT
 */
#include "shiftsel.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dsort.h"
#include "banned.h"

struct shiftsel {
	double *a, *b; /* sorted copies */
	size_t na, nb;
	size_t *lo, *hi; /* per row: candidate columns [lo, hi) */
	size_t *clt, *cle;
	double *gather;
	uint64_t rng;
};

struct shiftsel *shiftsel_new(const double *a, size_t na, const double *b,
			      size_t nb)
{
	struct shiftsel *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->na = na;
	s->nb = nb;
	s->a = malloc((na ? na : 1) * sizeof *s->a);
	s->b = malloc((nb ? nb : 1) * sizeof *s->b);
	s->lo = malloc((na ? na : 1) * sizeof *s->lo);
	s->hi = malloc((na ? na : 1) * sizeof *s->hi);
	s->clt = malloc((na ? na : 1) * sizeof *s->clt);
	s->cle = malloc((na ? na : 1) * sizeof *s->cle);
	/* the gather step runs once at most 4 (na + nb) candidates remain */
	s->gather = malloc(4 * (na + nb + 1) * sizeof *s->gather);
	if (!s->a || !s->b || !s->lo || !s->hi || !s->clt || !s->cle ||
	    !s->gather) {
		shiftsel_free(s);
		return NULL;
	}
	memcpy(s->a, a, na * sizeof *a);
	memcpy(s->b, b, nb * sizeof *b);
	dsort(s->a, na);
	dsort(s->b, nb);
	s->rng = 0x9e3779b97f4a7c15u;
	return s;
}

void shiftsel_free(struct shiftsel *s)
{
	if (!s)
		return;
	free(s->a);
	free(s->b);
	free(s->lo);
	free(s->hi);
	free(s->clt);
	free(s->cle);
	free(s->gather);
	free(s);
}

/* xorshift64*: a fixed seed keeps every run of a report identical. */
static size_t rnd_below(struct shiftsel *s, size_t n)
{
	s->rng ^= s->rng >> 12;
	s->rng ^= s->rng << 25;
	s->rng ^= s->rng >> 27;
	return (size_t)((s->rng * 2685821657736338717u) % n);
}

/* The candidate with index r (0-based) in row-major order of the ranges. */
static double candidate(const struct shiftsel *s, size_t r)
{
	size_t i;
	for (i = 0; i < s->na; i++) {
		size_t w = s->hi[i] - s->lo[i];
		if (r < w)
			return s->b[s->lo[i] + r] - s->a[i];
		r -= w;
	}
	return 0; /* not reached: r < the candidate count */
}

/* Per row, the columns with difference < p (clt) and <= p (cle); returns
 * their totals. Both thresholds only move right as a_i grows. */
static void count_at(struct shiftsel *s, double p, size_t *lt, size_t *le)
{
	size_t i, jl = 0, je = 0;
	*lt = *le = 0;
	for (i = 0; i < s->na; i++) {
		while (jl < s->nb && s->b[jl] - s->a[i] < p)
			jl++;
		if (je < jl)
			je = jl;
		while (je < s->nb && s->b[je] - s->a[i] <= p)
			je++;
		s->clt[i] = jl;
		s->cle[i] = je;
		*lt += jl;
		*le += je;
	}
}

/* The k-th smallest (0-based) of v[0..n) by Hoare's FIND (1961) with
 * three-way partitions around a random element: expected O(n) where a
 * sort of the gathered candidates was O(n log n) and half the time of
 * the Hodges-Lehmann step (bench/RESULTS.md, "Report of 100,000 runs").
 * The value is the one a sort would put at k: equal values compare
 * equal, so whichever of them lands at k is the same double. */
static double select_kth(struct shiftsel *s, double *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n; /* the answer is in v[lo..hi) */
	while (hi - lo > 1) {
		double p = v[lo + rnd_below(s, hi - lo)], t;
		size_t lt = lo, i = lo, gt = hi; /* < p | == p | ? | > p */
		while (i < gt) {
			if (v[i] < p) {
				t = v[i], v[i] = v[lt], v[lt] = t;
				lt++, i++;
			} else if (v[i] > p) {
				gt--;
				t = v[i], v[i] = v[gt], v[gt] = t;
			} else {
				i++;
			}
		}
		if (k < lt)
			hi = lt;
		else if (k >= gt)
			lo = gt;
		else
			return p;
	}
	return v[lo];
}

static double gather_select(struct shiftsel *s, size_t k, size_t below)
{
	size_t i, j, n = 0;
	for (i = 0; i < s->na; i++)
		for (j = s->lo[i]; j < s->hi[i]; j++)
			s->gather[n++] = s->b[j] - s->a[i];
	return select_kth(s, s->gather, n, k - below);
}

double shiftsel_kth(struct shiftsel *s, size_t k)
{
	size_t i, cand = s->na * s->nb, below = 0, lt, le, limit;
	limit = 4 * (s->na + s->nb + 1);
	for (i = 0; i < s->na; i++) {
		s->lo[i] = 0;
		s->hi[i] = s->nb;
	}
	/* Invariant: every difference left of lo is below the answer, every
	 * one from hi on above it; below counts the former. */
	while (cand > limit) {
		double p = candidate(s, rnd_below(s, cand));
		count_at(s, p, &lt, &le);
		if (k >= lt && k < le)
			return p;
		cand = below = 0;
		for (i = 0; i < s->na; i++) {
			if (k < lt && s->hi[i] > s->clt[i])
				s->hi[i] = s->clt[i];
			if (k >= le && s->lo[i] < s->cle[i])
				s->lo[i] = s->cle[i];
			if (s->hi[i] < s->lo[i])
				s->hi[i] = s->lo[i];
			cand += s->hi[i] - s->lo[i];
			below += s->lo[i];
		}
	}
	for (i = 0, below = 0; i < s->na; i++)
		below += s->lo[i];
	return gather_select(s, k, below);
}

double shiftsel_median(struct shiftsel *s)
{
	size_t n = s->na * s->nb, lo;
	double h = (double)(n - 1) * 0.5, v;
	lo = (size_t)floor(h);
	v = shiftsel_kth(s, lo);
	if (lo + 1 >= n)
		return v;
	return v + (h - (double)lo) * (shiftsel_kth(s, lo + 1) - v);
}
