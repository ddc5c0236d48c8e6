/*
 * Change points between sessions (changept.h). The rule, and why:
 *
 *  - Binary segmentation (Scott & Knott 1974; Vostrikova 1981): the
 *    segment's best split is the session boundary with the largest
 *    pooled two-sample t of the runs before and after it; a split
 *    accepted divides the segment and each half is searched again.
 *  - The split is tested by permutation (Fisher; Good, "Permutation,
 *    Parametric and Bootstrap Tests of Hypotheses", ch. 3): the
 *    segment's runs are shuffled over its sessions (sizes kept) and the
 *    largest t is taken again, B times; p = (1 + #{t* >= t}) / (B + 1).
 *    The maximum over every boundary is what is calibrated, so looking
 *    at all the positions of a history costs no extra false alarms, and
 *    the p value is exact for exchangeable runs whatever their
 *    distribution (heavy tails, skew). Under the null hypothesis of no
 *    change the first test rejects with probability <= alpha and nothing
 *    further is tested, so alpha bounds the history's false alarms; the
 *    caller divides the family's level among the histories (Bonferroni).
 *    As Otava (apache/otava otava/analysis.py) and E-Divisive (Matteson &
 *    James 2014) do, with a t statistic where E-Divisive uses energy
 *    distances, and exact permutation p values where Otava uses Student's
 *    t distribution.
 *  - A magnitude floor: a change smaller than the plan's threshold is not
 *    reported, however certain (Otava's --magnitude; the Chromium
 *    dashboard's 1% relative change).
 *  - A lone interior session between two changes of opposite sign is one
 *    deviant night, not two changes: both are dropped and the session is
 *    named (the minimum segment Otava's users asked for, apache/otava
 *    PR #150; Hunter needed at least two points each side). A last
 *    session alone stays a change: it is what a CI gate asks about.
 *
 * SPDX-License-Identifier: MIT
 */
#include "changept.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "banned.h"

/* splitmix64: the permutations' generator, fully specified so that a
 * report is the same on every machine. */
static uint64_t mix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void shuffle(double *v, size_t n, uint64_t *rng)
{
	size_t i;
	for (i = n; i > 1; i--) {
		size_t j = (size_t)(mix(rng) % i);
		double t = v[i - 1];
		v[i - 1] = v[j];
		v[j] = t;
	}
}

/* Sessions a .. b-1 as offsets from the segment's first run. */
struct seg {
	const size_t *start; /* absolute run offsets */
	size_t a, b;
};

/*
 * The largest pooled t over the boundaries of the segment whose values
 * (centred) are v, and the session it falls before (*at; 0 when no
 * boundary has two runs on each side).
 */
static double max_t(const double *v, const struct seg *s, size_t *at)
{
	size_t j, n = s->start[s->b] - s->start[s->a], nl, nr, k;
	double best = -1, sl = 0, ql = 0, st = 0, qt = 0;
	for (k = 0; k < n; k++) {
		st += v[k];
		qt += v[k] * v[k];
	}
	*at = 0;
	k = 0;
	for (j = s->a + 1; j < s->b; j++) {
		double ssl, ssr, sr, qr, sp, t, d;
		for (; k < s->start[j] - s->start[s->a]; k++) {
			sl += v[k];
			ql += v[k] * v[k];
		}
		nl = k;
		nr = n - nl;
		if (nl < 2 || nr < 2)
			continue;
		sr = st - sl;
		qr = qt - ql;
		ssl = ql - sl * sl / (double)nl;
		ssr = qr - sr * sr / (double)nr;
		sp = (ssl + ssr) / (double)(n - 2);
		d = sr / (double)nr - sl / (double)nl;
		if (sp <= 1e-300)
			t = fabs(d) > 0 ? INFINITY : 0;
		else
			t = fabs(d) /
			    sqrt(sp * (1.0 / (double)nl + 1.0 / (double)nr));
		if (t > best) {
			best = t;
			*at = j;
		}
	}
	return best;
}

/* The permutation p of the segment's largest t, stopping once it cannot
 * be at most alpha. */
static double perm_p(const double *y, const struct seg *s, double t_obs,
		     double alpha, uint64_t *rng, double *work)
{
	size_t n = s->start[s->b] - s->start[s->a], at, b, ge = 0;
	size_t stop = (size_t)ceil(alpha * (CHANGEPT_PERMUTATIONS + 1));
	memcpy(work, y, n * sizeof *work);
	for (b = 0; b < CHANGEPT_PERMUTATIONS; b++) {
		shuffle(work, n, rng);
		if (max_t(work, s, &at) >= t_obs * (1 - 1e-12))
			ge++;
		if (ge >= stop)
			return 1.0; /* above alpha: no need to know how far */
	}
	return (double)(1 + ge) / (CHANGEPT_PERMUTATIONS + 1);
}

/* Test the segment; on a change, *c filled and 1. */
static int test_segment(const double *y, const struct seg *s,
			const struct changept_opts *o, uint64_t *rng,
			double *centred, double *work,
			struct changept_change *c)
{
	size_t n = s->start[s->b] - s->start[s->a], k, at, o0 = s->start[s->a];
	double mean = 0, t;
	struct stats_effect e;
	if (s->b - s->a < 2 || n < 4)
		return 0;
	for (k = 0; k < n; k++)
		mean += y[o0 + k];
	mean /= (double)n;
	/* centred: the sums of squares lose nothing to a large level */
	for (k = 0; k < n; k++)
		centred[k] = y[o0 + k] - mean;
	t = max_t(centred, s, &at);
	if (!at || t <= 0)
		return 0;
	c->p = perm_p(centred, s, t, o->alpha, rng, work);
	if (c->p > o->alpha)
		return 0;
	if (stats_welch(y + o0, s->start[at] - o0, y + s->start[at],
			s->start[s->b] - s->start[at], 1 - o->alpha, &e) < 0)
		return 0;
	c->at = at;
	c->delta = e.est;
	c->lo = e.lo;
	c->hi = e.hi;
	return fabs(e.est) >= o->min_delta;
}

static int by_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return (x > y) - (x < y);
}

static int by_at(const void *a, const void *b)
{
	const struct changept_change *x = a, *y = b;
	return (x->at > y->at) - (x->at < y->at);
}

/* Drop the pairs of opposite changes around a lone interior session. */
static size_t drop_spikes(struct changept_change *c, size_t n, size_t nsess,
			  size_t *spikes, size_t *nspikes)
{
	size_t i, w = 0;
	for (i = 0; i < n; i++) {
		if (i + 1 < n && c[i + 1].at == c[i].at + 1 &&
		    c[i + 1].at < nsess &&
		    (c[i].delta > 0) != (c[i + 1].delta > 0)) {
			if (spikes)
				spikes[(*nspikes)++] = c[i].at;
			i++; /* both go */
			continue;
		}
		c[w++] = c[i];
	}
	return w;
}

/*
 * Each change's delta and interval between its two neighbouring final
 * segments (the level a reader compares: the segment just before and
 * the one just after), once the segmentation is done.
 */
static void settle(const double *y, const size_t *start, size_t nsess,
		   const struct changept_opts *o, struct changept_change *c,
		   size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		size_t a = i ? c[i - 1].at : 0,
		       b = i + 1 < n ? c[i + 1].at : nsess;
		struct stats_effect e;
		if (stats_welch(y + start[a], start[c[i].at] - start[a],
				y + start[c[i].at], start[b] - start[c[i].at],
				1 - o->alpha, &e) < 0)
			continue;
		c[i].delta = e.est;
		c[i].lo = e.lo;
		c[i].hi = e.hi;
	}
}

/*
 * A lone session that differs from the rest of its segment (one bad
 * night the segmentation, which looks for steps, does not split off):
 * the largest t of one session against the others of the segment,
 * calibrated by the same permutations; named when it passes the level
 * and the floor. The segment's last session is not scanned when it is
 * the history's last: a change there is a step, not a deviant night.
 */
static int deviant(const double *y, const size_t *start, size_t a, size_t b,
		   size_t last, const struct changept_opts *o, uint64_t *rng,
		   double *work, size_t *out)
{
	size_t k, n = start[b] - start[a], best = 0, j, ge = 0, bb;
	size_t stop = (size_t)ceil(o->alpha * (CHANGEPT_PERMUTATIONS + 1));
	double t_obs = -1, d_best = 0;
	if (b - a < 3 || n < 5)
		return 0;
	for (bb = 0; bb <= CHANGEPT_PERMUTATIONS; bb++) {
		double tmax = -1;
		if (bb)
			shuffle(work, n, rng);
		else
			memcpy(work, y + start[a], n * sizeof *work);
		for (k = a; k < b; k++) {
			size_t i0 = start[k] - start[a],
			       m = start[k + 1] - start[k];
			double s1 = 0, s2 = 0, r1 = 0, r2 = 0, sp, t, d;
			if (k == last || m < 1 || n - m < 2)
				continue;
			for (j = 0; j < n; j++) {
				double v = work[j];
				if (j >= i0 && j < i0 + m) {
					s1 += v;
					s2 += v * v;
				} else {
					r1 += v;
					r2 += v * v;
				}
			}
			d = s1 / (double)m - r1 / (double)(n - m);
			sp = ((s2 - s1 * s1 / (double)m) +
			      (r2 - r1 * r1 / (double)(n - m))) /
			     (double)(n - 2);
			t = sp <= 1e-300
				? (fabs(d) > 0 ? INFINITY : 0)
				: fabs(d) / sqrt(sp * (1.0 / (double)m +
						       1.0 / (double)(n - m)));
			if (t > tmax) {
				tmax = t;
				if (!bb) {
					best = k;
					d_best = d;
				}
			}
		}
		if (!bb) {
			t_obs = tmax;
			if (t_obs <= 0 || fabs(d_best) < o->min_delta)
				return 0;
		} else if (tmax >= t_obs * (1 - 1e-12) && ++ge >= stop)
			return 0;
	}
	*out = best;
	return 1;
}

int changept_find(const double *y, const size_t *start, size_t nsess,
		  const struct changept_opts *o, struct changept_change *out,
		  size_t *nout, size_t *spikes, size_t *nspikes)
{
	size_t n = nsess ? start[nsess] : 0, k, top = 0, i;
	size_t *stack = malloc(2 * (nsess + 1) * sizeof *stack);
	double *centred = malloc((n + 1) * sizeof *centred);
	double *work = malloc((n + 1) * sizeof *work);
	uint64_t rng = o->seed;
	int rc = 0;
	*nout = 0;
	if (nspikes)
		*nspikes = 0;
	if (!stack || !centred || !work) {
		rc = -XR_ENOMEM;
		goto out;
	}
	for (k = 0; k < nsess; k++)
		if (start[k + 1] <= start[k]) {
			rc = STATS_EDATA;
			goto out;
		}
	stack[top++] = 0;
	stack[top++] = nsess;
	while (top) {
		struct seg s = {start, 0, 0};
		struct changept_change c;
		s.b = stack[--top];
		s.a = stack[--top];
		if (!test_segment(y, &s, o, &rng, centred, work, &c))
			continue;
		out[(*nout)++] = c;
		stack[top++] = s.a;
		stack[top++] = c.at;
		stack[top++] = c.at;
		stack[top++] = s.b;
	}
	qsort(out, *nout, sizeof *out, by_at);
	*nout = drop_spikes(out, *nout, nsess, spikes, nspikes);
	settle(y, start, nsess, o, out, *nout);
	/* a deviant night inside each final segment */
	for (i = 0; spikes && i <= *nout; i++) {
		size_t a = i ? out[i - 1].at : 0,
		       b = i < *nout ? out[i].at : nsess;
		size_t d;
		if (deviant(y, start, a, b, nsess - 1, o, &rng, work, &d))
			spikes[(*nspikes)++] = d;
	}
	if (spikes && *nspikes > 1)
		qsort(spikes, *nspikes, sizeof *spikes, by_size);
out:
	free(stack);
	free(centred);
	free(work);
	return rc;
}
