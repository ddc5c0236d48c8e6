/*
 * The rate searches of a report (report.h, struct report_search): every
 * stored trial of the reported sessions, by cell, and each goal's result
 * computed again from those trials by the search core (runner/search),
 * not read from what the runner stored: the report says what the trials
 * show (RFC 9971's classification and conditional throughput over them).
 * A cell with several searches (repeat) reports the median of their
 * relevant lower bounds.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "counter_group.h"
#include "dsort.h"
#include "model_loader.h"
#include "plan.h"
#include "xr_search.h"
#include "store.h"
#include "banned.h"

struct gather {
	struct loader *l;
	const struct plan_search *ps;
	struct report_search_trial *t; /* all trials, store order */
	int *cell;		       /* [n] report cell of each */
	int64_t *search_id;	       /* [n] */
	int n, cap;
};

static int goal_of(const struct plan_search *ps, const char *name)
{
	int g;
	for (g = 0; g < ps->ngoals; g++)
		if (name && !strcmp(ps->goals[g].name, name))
			return g;
	return 0;
}

static int gather_row(void *ctx, const struct store_trial_row *row)
{
	struct gather *g = ctx;
	int ri = loader_run_by_id(g->l, row->search_id);
	struct report_search_trial *t;
	if (ri < 0)
		return 0; /* its search is not a reported run (a warm-up) */
	if (g->n == g->cap) {
		int cap = g->cap ? 2 * g->cap : 64;
		void *a = realloc(g->t, (size_t)cap * sizeof *g->t);
		void *b =
		    a ? realloc(g->cell, (size_t)cap * sizeof *g->cell) : NULL;
		void *c = b ? realloc(g->search_id,
				      (size_t)cap * sizeof *g->search_id)
			    : NULL;
		if (a)
			g->t = a;
		if (b)
			g->cell = b;
		if (c)
			g->search_id = c;
		if (!c)
			return loader_oom(g->l);
		g->cap = cap;
	}
	t = &g->t[g->n];
	memset(t, 0, sizeof *t);
	t->run_id = row->run_id;
	t->seq = row->seq;
	t->goal = goal_of(g->ps, row->goal);
	t->load = row->load;
	t->loss = row->loss;
	t->duration = row->duration;
	t->ok = row->status == RUN_OK && !isnan(row->loss);
	t->packets = row->packets;
	t->lost = row->lost;
	t->pps = row->packets > 0 && row->duration > 0
		     ? row->packets / row->duration
		     : NAN;
	g->cell[g->n] = g->l->m.runs[ri].cell;
	g->search_id[g->n] = row->search_id;
	g->n++;
	return 0;
}

static void goals_cfg(const struct plan_search *ps, struct search_goal *go,
		      struct search_cfg *cfg)
{
	int k;
	for (k = 0; k < ps->ngoals; k++) {
		memset(&go[k], 0, sizeof go[k]);
		strncpy(go[k].name, ps->goals[k].name ? ps->goals[k].name : "",
			sizeof go[k].name - 1);
		go[k].loss = ps->goals[k].loss;
		go[k].trial = ps->goals[k].trial;
		go[k].sum = ps->goals[k].sum;
		go[k].exceed = ps->goals[k].exceed;
	}
	memset(cfg, 0, sizeof *cfg);
	cfg->min = ps->min;
	cfg->max = ps->max;
	cfg->width = ps->width;
	cfg->step = 1;
	cfg->max_trials = ps->max_trials;
	cfg->ngoals = ps->ngoals;
	cfg->goals = go;
}

/* The pps of the trials at load (the last ok one), NaN when none. */
static double pps_at(const struct report_search *s, double load)
{
	double v = NAN;
	int k;
	for (k = 0; k < s->ntrials; k++)
		if (s->trials[k].ok && s->trials[k].load == load)
			v = s->trials[k].pps;
	return v;
}

static double median(double *v, int n)
{
	if (n <= 0)
		return NAN;
	dsort(v, (size_t)n);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One goal's result over the cell's searches. */
static int goal_result(struct arena *a, const struct search_cfg *cfg, int g,
		       struct report_search *s, struct search_trial *buf)
{
	struct report_search_goal *rg = &s->goals[g];
	double *loads = arena_alloc(a, (size_t)s->nsearches * sizeof *loads);
	double lo[3][64];
	int k, q, nk[3] = {0, 0, 0};
	if (!loads)
		return -XR_ENOMEM;
	rg->regular = 1;
	rg->why = "";
	for (q = 0; q < s->nsearches; q++) {
		struct search_result res;
		int n = 0;
		for (k = 0; k < s->ntrials; k++) {
			const struct report_search_trial *t = &s->trials[k];
			if (t->search != q || !t->ok)
				continue;
			buf[n].load = t->load;
			buf[n].duration = t->duration;
			buf[n].loss = t->loss;
			buf[n].goal = t->goal;
			n++;
		}
		for (k = 0; k < s->ntrials; k++)
			rg->trials +=
			    s->trials[k].search == q && s->trials[k].goal == g;
		search_result_of(cfg, g, buf, (size_t)n, &res);
		loads[q] = res.has_lower ? res.lower : NAN;
		if (res.has_lower && nk[0] < 64) {
			lo[0][nk[0]++] = res.lower;
			lo[2][nk[2]++] = res.throughput;
		}
		if (res.has_upper && nk[1] < 64)
			lo[1][nk[1]++] = res.upper;
		if (!res.regular && rg->regular) {
			rg->regular = 0;
			rg->why = res.why;
		}
	}
	rg->loads = loads;
	rg->has_load = nk[0] > 0;
	rg->has_upper = nk[1] > 0;
	rg->load = median(lo[0], nk[0]);
	rg->throughput = median(lo[2], nk[2]);
	rg->upper = median(lo[1], nk[1]);
	rg->pps = rg->has_load ? pps_at(s, rg->load) : NAN;
	return 0;
}

/* The search of cell c from the gathered trials. */
static int cell_search(struct loader *l, const struct gather *g, int c,
		       struct report_search *s, struct search_trial *buf)
{
	const struct plan_search *ps = g->ps;
	struct arena *a = l->m.a;
	struct search_goal go[32];
	struct search_cfg cfg;
	int64_t last = 0;
	int k, n = 0;
	goals_cfg(ps, go, &cfg);
	memset(s, 0, sizeof *s);
	s->cell = c;
	/* the plan goes with the loader: copies in the report's arena */
	s->param = arena_strdup(a, ps->param);
	s->unit = l->m.plan->engine.run.argv ? "1" : "bit/s";
	s->min = ps->min;
	s->max = ps->max;
	s->width = ps->width;
	s->ngoals = ps->ngoals;
	for (k = 0; k < g->n; k++)
		n += g->cell[k] == c;
	s->trials = arena_alloc(a, (size_t)(n ? n : 1) * sizeof *s->trials);
	s->goals = arena_alloc(a, (size_t)s->ngoals * sizeof *s->goals);
	if (!s->trials || !s->goals || !s->param)
		return -XR_ENOMEM;
	memset(s->goals, 0, (size_t)s->ngoals * sizeof *s->goals);
	for (k = 0; k < g->n; k++) {
		if (g->cell[k] != c)
			continue;
		if (g->search_id[k] != last) {
			last = g->search_id[k];
			s->nsearches++;
		}
		s->trials[s->ntrials] = g->t[k];
		s->trials[s->ntrials++].search = s->nsearches - 1;
	}
	for (k = 0; k < s->ngoals; k++) {
		s->goals[k].name = arena_strdup(a, ps->goals[k].name);
		s->goals[k].loss = ps->goals[k].loss;
		s->goals[k].trial = ps->goals[k].trial;
		s->goals[k].sum = ps->goals[k].sum;
		s->goals[k].exceed = ps->goals[k].exceed;
		if (!s->goals[k].name || goal_result(a, &cfg, k, s, buf) < 0)
			return -XR_ENOMEM;
	}
	return 0;
}

/* The place a counter stands for; -1 when none (schema/report.md, "Rate
 * search": where drops began). */
static int drop_place(const char *scope, const char *name)
{
	int sc = counter_scope_find(scope);
	if (sc == COUNTER_SCOPE_QDISC)
		return !strcmp(name, "drops") ? REPORT_DROP_QDISC : -1;
	if (sc == COUNTER_SCOPE_UDP)
		/* SndbufErrors are mostly a qdisc's drops said to the
		 * sender again (ENOBUFS): the qdisc counts those */
		return !strcmp(name, "RcvbufErrors") ? REPORT_DROP_SOCKBUF : -1;
	return strstr(name, "drop") || strstr(name, "miss") ||
		       strstr(name, "fifo")
		   ? REPORT_DROP_NIC
		   : -1;
}

static int trial_counter(void *ctx, int64_t run_id, const char *host,
			 const char *scope, const char *name, double v)
{
	struct gather *g = ctx;
	int k, p = scope && name ? drop_place(scope, name) : -1;
	if (p < 0)
		return 0;
	for (k = 0; k < g->n; k++)
		if (g->t[k].run_id == run_id)
			break;
	if (k == g->n)
		return 0;
	if (v > g->t[k].drop[p] || !g->t[k].drop_host[p]) {
		g->t[k].drop_host[p] = loader_intern(g->l, host);
		g->t[k].drop_name[p] = loader_intern(g->l, name);
	}
	g->t[k].drop[p] += v;
	return 0;
}

int loader_search(struct loader *l, struct xr_err *err)
{
	struct report *r = l->m.r;
	struct gather g;
	struct search_trial *buf = NULL;
	int c, k, rc;
	if (!l->m.plan || !l->m.plan->search.param ||
	    l->m.plan->search.ngoals > 32)
		return 0;
	memset(&g, 0, sizeof g);
	g.l = l;
	g.ps = &l->m.plan->search;
	rc = store_trials_each(l->st, 0, r->span.sessions, r->span.nsessions,
			       gather_row, &g, err);
	if (rc == 0 && g.n)
		rc = store_trial_counters_each(l->st, r->span.sessions,
					       r->span.nsessions, trial_counter,
					       &g, err);
	if (rc == 0 && g.n) {
		r->searches = arena_alloc(l->m.a, (size_t)r->ncells *
						      sizeof *r->searches);
		buf = calloc((size_t)g.n, sizeof *buf);
		if (!r->searches || !buf)
			rc = -XR_ENOMEM;
	}
	for (c = 0; rc == 0 && g.n && c < r->ncells; c++) {
		for (k = 0; k < g.n && g.cell[k] != c; k++)
			;
		if (k < g.n)
			rc = cell_search(l, &g, c, &r->searches[r->nsearches++],
					 buf);
	}
	if (rc == -XR_ENOMEM)
		rc = xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	free(buf);
	free(g.t);
	free(g.cell);
	free(g.search_id);
	return rc;
}
