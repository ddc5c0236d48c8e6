/*
 * The rate search (xr_search.h): RFC 9971's load classification and
 * conditional throughput (its Appendices A and B, restated here from the
 * text), and a controller that picks each next trial from the trials so
 * far alone, so that a replay of stored trials asks for the same next one.
 *
 * The controller (RFC 9971 leaves it to the implementation, "Controller"):
 * goals in plan order; the first goal not done picks the trial.
 *  1. A measured load that is undecided between the goal's relevant
 *     bounds is measured again at the goal's final trial duration, the
 *     smallest first (RFC 9971: "measure smaller load candidates first").
 *  2. No upper bound: max load (the first trial of every search; RFC 9971
 *     uses the forwarding rate at max load to start). Max load a lower
 *     bound: done, irregular.
 *  3. An upper bound and no lower bound: the forwarding rate of the least
 *     lossy trial at max load (at most max * (1 - width)); after that,
 *     steps down from the relevant upper bound of width, 4 widths, 16 ...
 *     (each further upper bound in a row multiplies the step by 4), not
 *     below min load. Min load an upper bound: done, irregular.
 *  4. Both bounds: done when upper - lower <= width * upper (RFC 9971
 *     "Goal Width", relative). Else: a trial that turned the search back
 *     (a lower bound after an upper one, or the other way) is followed by
 *     the midpoint (bisection); a second lower bound in a row by a step
 *     up of 4 widths, then 16 ... (an upper bound: down, width, 4 ...),
 *     never past the midpoint; the first lower bound below max load (from
 *     its forwarding rate) by a step up of one width, as the knee is
 *     likely just above it; a trial of another goal by one width up from
 *     the lower bound.
 *
 * SPDX-License-Identifier: MIT
 */
#include "xr_search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "xr_err.h"
#include "banned.h"

enum search_class search_classify(const struct search_goal *g,
				  const struct search_sums *s)
{
	/* Short trials count as high-loss only by what the short low-loss
	 * ones cannot balance at the exceed ratio (RFC 9971 Appendix A). */
	double coef = g->exceed / (1.0 - g->exceed);
	double excess = s->short_high - s->short_low * coef;
	double high = s->full_high + (excess > 0 ? excess : 0);
	double whole = s->full_low + high;
	double quantile, pess;
	if (whole < g->sum)
		whole = g->sum;
	quantile = whole * g->exceed;
	/* Pessimistic: every missing second is high-loss. */
	pess = whole - s->full_low;
	if (pess <= quantile)
		return SEARCH_LOWER;
	if (high > quantile)
		return SEARCH_UPPER;
	return SEARCH_UNDECIDED;
}

static int is_full(const struct search_goal *g, const struct search_trial *t)
{
	return t->duration >= g->trial;
}

void search_sums_at(const struct search_goal *g, const struct search_trial *t,
		    size_t n, double load, struct search_sums *out)
{
	size_t i;
	memset(out, 0, sizeof *out);
	for (i = 0; i < n; i++) {
		int high = t[i].loss > g->loss;
		if (t[i].load != load)
			continue;
		if (is_full(g, &t[i]))
			*(high ? &out->full_high : &out->full_low) +=
			    t[i].duration;
		else
			*(high ? &out->short_high : &out->short_low) +=
			    t[i].duration;
	}
}

static int by_loss(const void *a, const void *b)
{
	const struct search_trial *x = *(const struct search_trial *const *)a;
	const struct search_trial *y = *(const struct search_trial *const *)b;
	return x->loss < y->loss ? -1 : x->loss > y->loss;
}

double search_quantile_loss(const struct search_goal *g,
			    const struct search_trial *t, size_t n, double load)
{
	const struct search_trial **f = calloc(n + 1, sizeof *f);
	double full = 0, remaining, q = 1.0;
	size_t i, k = 0;
	if (!f)
		return NAN;
	for (i = 0; i < n; i++)
		if (t[i].load == load && is_full(g, &t[i])) {
			f[k++] = &t[i];
			full += t[i].duration;
		}
	/* The loss ratio the best (1 - exceed) of the duration reaches,
	 * the whole being at least the goal's duration sum (RFC 9971
	 * Appendix B); equal losses keep their order (the result does not
	 * depend on it). */
	qsort(f, k, sizeof *f, by_loss);
	remaining = (full > g->sum ? full : g->sum) * (1.0 - g->exceed);
	for (i = 0; i < k; i++) {
		if (i > 0 && !(remaining > 0))
			break;
		q = f[i]->loss;
		remaining -= f[i]->duration;
	}
	if (remaining > 0)
		q = 1.0;
	free(f);
	return q;
}

double search_udp_loss(double load, double duration, double unsent,
		       double packets, double lost, double bytes)
{
	double recv, dgram, sent, tol, share;
	if (lost < 0)
		lost = 0; /* reordered datagrams counted back */
	if (!(packets > 0) || !(packets - lost > 0) || !(load * duration > 0))
		return 1;
	if (lost > packets)
		lost = packets;
	recv = packets - lost;
	dgram = bytes / recv;
	sent = dgram * packets * 8;
	tol = dgram * 8 > load * unsent ? dgram * 8 : load * unsent;
	share = (sent + tol) / (load * duration);
	if (share > 1)
		share = 1;
	return 1 - share * (1 - lost / packets);
}

/* ---- one goal's view of the trials ----------------------------------- */

struct view {
	int has_l, has_u;
	double l, u;
	int has_und; /* smallest undecided load in (l, u) */
	double und;
	int nlo, nup; /* lower and upper bounds, all loads */
};

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The distinct loads of t[0..n), ascending, in *out (caller frees). */
static size_t distinct_loads(const struct search_trial *t, size_t n,
			     double **out)
{
	double *v = calloc(n + 1, sizeof *v);
	size_t i, k = 0;
	*out = v;
	if (!v)
		return 0;
	for (i = 0; i < n; i++)
		v[i] = t[i].load;
	qsort(v, n, sizeof *v, by_value);
	for (i = 0; i < n; i++)
		if (!k || v[i] != v[k - 1])
			v[k++] = v[i];
	return k;
}

static enum search_class class_at(const struct search_goal *g,
				  const struct search_trial *t, size_t n,
				  double load)
{
	struct search_sums s;
	search_sums_at(g, t, n, load, &s);
	return search_classify(g, &s);
}

static void view_of(const struct search_goal *g, const struct search_trial *t,
		    size_t n, struct view *v)
{
	double *loads;
	size_t k = distinct_loads(t, n, &loads), i;
	enum search_class *c = calloc(k + 1, sizeof *c);
	memset(v, 0, sizeof *v);
	if (!c) {
		free(loads);
		return;
	}
	for (i = 0; i < k; i++) {
		c[i] = class_at(g, t, n, loads[i]);
		v->nlo += c[i] == SEARCH_LOWER;
		v->nup += c[i] == SEARCH_UPPER;
		if (c[i] == SEARCH_UPPER && !v->has_u) {
			v->has_u = 1;
			v->u = loads[i];
		}
	}
	/* The relevant lower bound: the largest below the relevant upper. */
	for (i = 0; i < k; i++)
		if (c[i] == SEARCH_LOWER && (!v->has_u || loads[i] < v->u)) {
			v->has_l = 1;
			v->l = loads[i];
		}
	for (i = 0; i < k && !v->has_und; i++)
		if (c[i] == SEARCH_UNDECIDED &&
		    (!v->has_l || loads[i] > v->l) &&
		    (!v->has_u || loads[i] < v->u)) {
			v->has_und = 1;
			v->und = loads[i];
		}
	free(c);
	free(loads);
}

/* Trials in a row at the end, across distinct loads, that moved one way
 * and ended with class cl: how far the step may grow. */
static int streak(const struct search_goal *g, const struct search_trial *t,
		  size_t n, enum search_class cl, int up)
{
	size_t i = n;
	double prev = 0;
	int k = 0;
	while (i-- > 0) {
		if (k && t[i].load == prev)
			continue;
		if (k && (up ? t[i].load >= prev : t[i].load <= prev))
			break;
		if (class_at(g, t, n, t[i].load) != cl)
			break;
		prev = t[i].load;
		k++;
	}
	return k;
}

/* ---- results ---------------------------------------------------------- */

void search_result_of(const struct search_cfg *cfg, int goal,
		      const struct search_trial *t, size_t n,
		      struct search_result *out)
{
	const struct search_goal *g = &cfg->goals[goal];
	struct view v;
	size_t i;
	memset(out, 0, sizeof *out);
	out->why = "";
	view_of(g, t, n, &v);
	out->has_lower = v.has_l;
	out->has_upper = v.has_u;
	out->lower = v.l;
	out->upper = v.u;
	if (v.has_l)
		out->throughput =
		    v.l * (1.0 - search_quantile_loss(g, t, n, v.l));
	for (i = 0; i < n; i++)
		out->trials += t[i].goal == goal;
	out->regular = v.has_l && v.has_u && v.u - v.l <= cfg->width * v.u;
	if (out->regular)
		return;
	if (!v.has_u && v.has_l && v.l >= cfg->max)
		out->why = "max load is a lower bound";
	else if (v.has_u && !v.has_l && v.u <= cfg->min)
		out->why = "min load is an upper bound";
	else if (cfg->max_trials > 0 && n >= (size_t)cfg->max_trials)
		out->why = "the trial cap was reached";
	else
		out->why = "the search did not finish";
}

/* ---- the controller ---------------------------------------------------- */

struct search {
	const struct search_cfg *cfg;
	struct search_trial *t;
	size_t n, cap;
};

struct search *search_new(const struct search_cfg *cfg)
{
	struct search *s = calloc(1, sizeof *s);
	if (s)
		s->cfg = cfg;
	return s;
}

void search_free(struct search *s)
{
	if (!s)
		return;
	free(s->t);
	free(s);
}

int search_add(struct search *s, const struct search_trial *t)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		struct search_trial *nt = realloc(s->t, cap * sizeof *nt);
		if (!nt)
			return -XR_ENOMEM;
		s->t = nt;
		s->cap = cap;
	}
	s->t[s->n++] = *t;
	return 0;
}

size_t search_ntrials(const struct search *s)
{
	return s->n;
}

const struct search_trial *search_trials(const struct search *s)
{
	return s->t;
}

/* Down to a whole step, inside [min, max]. */
static double on_grid(const struct search_cfg *c, double x)
{
	double step = c->step > 0 ? c->step : 1;
	x = floor(x / step + 1e-9) * step;
	if (x < c->min)
		x = c->min;
	if (x > c->max)
		x = c->max;
	return x;
}

/* The forwarding rate of the least lossy trial at load. */
static double forwarding(const struct search_trial *t, size_t n, double load)
{
	double best = 0;
	size_t i;
	for (i = 0; i < n; i++)
		if (t[i].load == load && load * (1 - t[i].loss) > best)
			best = load * (1 - t[i].loss);
	return best;
}

/* Step g's search from view v: 1 with a load in *load, 0 when done. */
static int goal_step(const struct search_cfg *c, const struct search_goal *g,
		     const struct search_trial *t, size_t n,
		     const struct view *v, double *load)
{
	double w = c->width, last = n ? t[n - 1].load : 0, x, mid;
	int k;
	if (v->has_und) {
		*load = v->und;
		return 1;
	}
	if (!v->has_u) {
		if (v->has_l && v->l >= c->max)
			return 0;
		*load = c->max;
		return 1;
	}
	if (!v->has_l) {
		if (v->u <= c->min)
			return 0;
		if (v->u >= c->max) {
			x = forwarding(t, n, v->u);
			if (x > v->u * (1 - w))
				x = v->u * (1 - w);
		} else {
			k = streak(g, t, n, SEARCH_UPPER, 0) - 2;
			x = v->u * (1 - w * pow(4, k < 0 ? 0 : k));
		}
		x = on_grid(c, x);
		if (x >= v->u)
			return 0; /* no load on the grid below it */
		*load = x;
		return 1;
	}
	if (v->u - v->l <= w * v->u)
		return 0;
	mid = (v->l + v->u) / 2;
	/* A step that turned back bisects what it crossed; one more the
	 * same way grows the step. The lower bound found from max load's
	 * forwarding rate is the exception: the knee is likely just above
	 * it, so the search steps up from it by one width. */
	if (last == v->l &&
	    ((k = streak(g, t, n, SEARCH_LOWER, 1)) > 1 || v->u >= c->max)) {
		x = v->l * (1 + w * pow(4, k - 1));
		x = x < mid ? x : mid;
	} else if (last == v->u && (k = streak(g, t, n, SEARCH_UPPER, 0)) > 1) {
		x = v->u * (1 - w * pow(4, k - 2));
		x = x > mid ? x : mid;
	} else if (last == v->l || last == v->u) {
		x = mid;
	} else {
		x = v->l * (1 + w);
		x = x < mid ? x : mid;
	}
	x = on_grid(c, x);
	if (x <= v->l)
		x = on_grid(c, v->l + (c->step > 0 ? c->step : 1));
	if (x <= v->l || x >= v->u)
		return 0; /* the bounds are neighbours on the grid */
	*load = x;
	return 1;
}

int search_next(const struct search *s, struct search_next *out)
{
	const struct search_cfg *c = s->cfg;
	int g;
	if (c->max_trials > 0 && s->n >= (size_t)c->max_trials)
		return 0;
	for (g = 0; g < c->ngoals; g++) {
		struct view v;
		double load;
		view_of(&c->goals[g], s->t, s->n, &v);
		if (!goal_step(c, &c->goals[g], s->t, s->n, &v, &load))
			continue;
		out->load = load;
		out->duration = c->goals[g].trial;
		out->goal = g;
		return 1;
	}
	return 0;
}
