/*
 * The cells of the report model: factors and their levels (from the plan,
 * then from each stored cell's JSON), the cells found in the runs of the
 * reported sessions with a hash to find them by JSON text, the run rows
 * with their per-cell and overall tallies, the order of the cells (plan
 * order of their levels), the index of runs by id, and the factor list and
 * cell labels of the report; and the lookups every step of the loader uses
 * (a factor, a cell, a run by id, an interned string, the out-of-memory
 * error). It calls no other step, so that every step may call it; model.c
 * drives the build and loads the rest.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "arena.h"
#include "buf.h"
#include "model_loader.h"
#include "plan.h"
#include "store.h"
#include "banned.h"

int loader_oom(struct loader *l)
{
	return xr_err_set(l->err, XR_ENOMEM, NULL, 0, 0, "out of memory");
}

/* --- factors and cells ------------------------------------------------ */

int loader_factor_find(struct loader *l, const char *name)
{
	int i;
	for (i = 0; i < l->nf; i++)
		if (!strcmp(l->f[i].name, name))
			return i;
	return -1;
}

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;
	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

/* f's levels hashed into a table of 2 * f->cap slots (in the arena: it
 * doubles with the levels). 0 or -XR_ENOMEM. */
static int level_hash(struct loader *l, struct mfactor *f)
{
	size_t cap = 2 * (size_t)f->cap;
	int *h = arena_alloc(l->m.a, cap * sizeof *h);
	if (!h)
		return -XR_ENOMEM;
	for (size_t i = 0; i < cap; i++)
		h[i] = -1;
	for (int i = 0; i < f->n; i++) {
		size_t k = str_hash(f->levels[i]) & (cap - 1);
		while (h[k] >= 0)
			k = (k + 1) & (cap - 1);
		h[k] = i;
	}
	f->lh = h;
	return 0;
}

/* The index of level lv of f, added when new. Found by a hash (a search
 * of every level was levels^2: a factor of 10^5 levels took minutes,
 * issue 24). */
static int level_add(struct loader *l, struct mfactor *f, const char *lv)
{
	size_t k, mask;
	if (f->n == f->cap) {
		const char **t;
		int cap = f->cap ? 2 * f->cap : 8;
		t = arena_alloc(l->m.a, (size_t)cap * sizeof *t);
		if (!t)
			return -XR_ENOMEM;
		if (f->n)
			memcpy(t, f->levels, (size_t)f->n * sizeof *t);
		f->levels = t;
		f->cap = cap;
		if (level_hash(l, f) < 0)
			return -XR_ENOMEM;
	}
	mask = 2 * (size_t)f->cap - 1;
	for (k = str_hash(lv) & mask; f->lh[k] >= 0; k = (k + 1) & mask)
		if (!strcmp(f->levels[f->lh[k]], lv))
			return f->lh[k];
	if (!(f->levels[f->n] = arena_strdup(l->m.a, lv)))
		return -XR_ENOMEM;
	f->lh[k] = f->n;
	return f->n++;
}

void loader_factors_from_plan(struct loader *l)
{
	const struct plan *p = l->m.plan;
	int i, k;
	if (!p)
		return;
	for (i = 0; i < p->nfactors && l->nf < MAX_FACTORS; i++) {
		struct mfactor *f = &l->f[l->nf++];
		f->name = arena_strdup(l->m.a, p->factors[i].name);
		for (k = 0; k < p->factors[i].nlevels; k++)
			level_add(l, f, p->factors[i].levels[k]);
	}
}

/* (Re)build the hash of cells by JSON with cap slots (a power of 2). */
static int hash_build(struct loader *l, size_t cap)
{
	size_t i;
	int *h = malloc(cap * sizeof *h);
	if (!h)
		return -XR_ENOMEM;
	for (i = 0; i < cap; i++)
		h[i] = -1;
	for (i = 0; i < (size_t)l->m.r->ncells; i++) {
		size_t k = str_hash(l->m.r->cells[i].json) & (cap - 1);
		while (h[k] >= 0)
			k = (k + 1) & (cap - 1);
		h[k] = (int)i;
	}
	free(l->hash);
	l->hash = h;
	l->hcap = cap;
	return 0;
}

/* The cell of a stored cell JSON text, -1 when there is none. */
int loader_cell_find(struct loader *l, const char *json)
{
	size_t k;
	if (!l->hcap)
		return -1;
	k = str_hash(json) & (l->hcap - 1);
	while (l->hash[k] >= 0) {
		if (!strcmp(l->m.r->cells[l->hash[k]].json, json))
			return l->hash[k];
		k = (k + 1) & (l->hcap - 1);
	}
	return -1;
}

/* The cell for a stored cell JSON text, created on first sight. */
static int cell_get(struct loader *l, const char *json)
{
	struct report *r = l->m.r;
	struct report_cell *c;
	json_t *o;
	const char *key;
	json_t *v;
	size_t k;
	int *lv, i;

	i = loader_cell_find(l, json);
	if (i >= 0)
		return i;
	if ((size_t)(r->ncells + 1) * 2 > l->hcap &&
	    hash_build(l, l->hcap ? 2 * l->hcap : 64) < 0)
		return -XR_ENOMEM;
	if (r->ncells == l->cap_cells) {
		int cap = l->cap_cells ? 2 * l->cap_cells : 16;
		struct report_cell *t =
		    realloc(r->cells, (size_t)cap * sizeof *t);
		if (!t)
			return -XR_ENOMEM;
		r->cells = t;
		l->cap_cells = cap;
	}
	c = &r->cells[r->ncells];
	memset(c, 0, sizeof *c);
	c->json = arena_strdup(l->m.a, json);
	c->index = r->ncells;
	c->first_start = c->last_end = NAN;
	lv = arena_alloc(l->m.a, MAX_FACTORS * sizeof *lv);
	if (!lv || !c->json)
		return -XR_ENOMEM;
	for (i = 0; i < MAX_FACTORS; i++)
		lv[i] = -1;
	o = json_loads(json, 0, NULL);
	if (json_is_object(o)) {
		json_object_foreach(o, key, v)
		{
			int f = loader_factor_find(l, key);
			char num[64];
			const char *s = json_string_value(v);
			if (!s && json_is_number(v)) {
				snprintf(num, sizeof num, "%g",
					 json_number_value(v));
				s = num;
			}
			if (!s)
				continue;
			if (f < 0 && l->nf < MAX_FACTORS) {
				f = l->nf++;
				l->f[f].name = arena_strdup(l->m.a, key);
			}
			if (f >= 0)
				lv[f] = level_add(l, &l->f[f], s);
		}
	}
	json_decref(o);
	c->lv = lv;
	k = str_hash(json) & (l->hcap - 1);
	while (l->hash[k] >= 0)
		k = (k + 1) & (l->hcap - 1);
	l->hash[k] = r->ncells;
	return r->ncells++;
}

/* --- runs ------------------------------------------------------------- */

const char *loader_intern(struct loader *l, const char *s)
{
	const int n = (int)(sizeof l->interned / sizeof l->interned[0]);
	char *t;
	int i;
	if (!s)
		return NULL;
	for (i = 0; i < l->ninterned; i++)
		if (!strcmp(l->interned[i], s))
			return l->interned[i];
	if (!(t = arena_strdup(l->m.a, s)))
		return NULL;
	if (l->ninterned < n)
		l->ninterned++;
	memmove(l->interned + 1, l->interned,
		(size_t)(l->ninterned - 1) * sizeof *l->interned);
	l->interned[0] = t;
	return t;
}

/* Where a run's times widen the report's and its cell's spans. */
static void run_span(struct report *r, struct report_cell *c,
		     const struct mrun *u)
{
	if (!isnan(u->start) &&
	    (isnan(r->span.first_run) || u->start < r->span.first_run))
		r->span.first_run = u->start;
	if (!isnan(u->end) &&
	    (isnan(r->span.last_run) || u->end > r->span.last_run))
		r->span.last_run = u->end;
	if (u->status != RUN_OK)
		return;
	if (!isnan(u->start) &&
	    (isnan(c->first_start) || u->start < c->first_start))
		c->first_start = u->start;
	if (!isnan(u->end) && (isnan(c->last_end) || u->end > c->last_end))
		c->last_end = u->end;
}

/* Count a run in its cell and the report by status. */
static void run_tally(struct loader *l, struct report_cell *c, struct mrun *u,
		      const struct store_run_row *row)
{
	struct report *r = l->m.r;
	u->status = row->status;
	switch (row->status) {
	case RUN_OK:
		c->n_ok++;
		r->counts.ok++;
		if (!c->engine && !c->target && !c->params) {
			c->engine = arena_strdup(l->m.a, row->engine);
			c->target = arena_strdup(l->m.a, row->target);
			c->params = arena_strdup(l->m.a, row->params);
		}
		break;
	case RUN_FAILED:
		c->n_failed++;
		r->counts.failed++;
		break;
	case RUN_TIMEOUT:
		c->n_timeout++;
		r->counts.timeout++;
		break;
	default:
		c->n_other++;
		r->counts.other++;
	}
}

/* One stored run of the reported sessions; warm-up runs only counted. */
static int run_row(void *ctx, const struct store_run_row *row)
{
	struct loader *l = ctx;
	struct report *r = l->m.r;
	struct mrun *u;
	struct report_cell *c;
	int ci;
	if (row->warmup) {
		r->counts.warmup++;
		return 0;
	}
	if (l->m.nruns == l->cap_runs) {
		int cap = l->cap_runs ? 2 * l->cap_runs : 1024;
		struct mrun *t = realloc(l->m.runs, (size_t)cap * sizeof *t);
		if (!t)
			return loader_oom(l);
		l->m.runs = t;
		l->cap_runs = cap;
	}
	ci = cell_get(l, row->cell ? row->cell : "{}");
	if (ci < 0)
		return loader_oom(l);
	u = &l->m.runs[l->m.nruns];
	memset(u, 0, sizeof *u);
	u->id = row->id;
	u->session = row->session_id;
	u->gpos = l->m.nruns;
	u->start = row->started_at;
	u->end = row->ended_at;
	u->cell = ci;
	u->rep = row->rep;
	u->status_name =
	    loader_intern(l, row->status_name ? row->status_name : "");
	u->engine = loader_intern(l, row->engine);
	/* a night of "Connection refused" shares one copy */
	u->reason = loader_intern(l, row->reason);
	if (!u->status_name || (row->engine && !u->engine) ||
	    (row->reason && !u->reason))
		return loader_oom(l);
	c = &r->cells[ci];
	c->n_runs++;
	r->counts.total++;
	run_tally(l, c, u, row);
	run_span(r, c, u);
	l->m.nruns++;
	return 0;
}

int loader_runs(struct loader *l, struct xr_err *err)
{
	struct report *r = l->m.r;
	struct store_run_filter f = {0};
	int rc;

	f.sessions = r->span.sessions;
	f.nsessions = (size_t)r->span.nsessions;
	f.block = -1;
	r->span.first_run = r->span.last_run = NAN;
	if ((rc = store_runs_each(l->st, &f, run_row, l, err)) < 0)
		return rc;
	/* Scheduled counts the warm-up runs too: they are runs the session
	 * holds, and `xrun status` counts them. */
	if (r->counts.ok + r->counts.failed + r->counts.timeout == 0)
		return xr_err_set(err, XR_EREPORT, r->about.db_path, 0, 0,
				  "no finished runs to report in '%s' "
				  "(%d scheduled, none finished yet; run or "
				  "resume the plan: xrun run PLAN)",
				  r->about.db_path,
				  r->counts.total + r->counts.warmup);
	return 0;
}

static struct loader *sort_ctx;

static int cmp_cells(const void *x, const void *y)
{
	const struct report_cell *a = x, *b = y;
	int f;
	for (f = 0; f < sort_ctx->nf; f++) {
		/* Unknown levels (-1) sort last. */
		unsigned la = (unsigned)a->lv[f], lb = (unsigned)b->lv[f];
		if (la != lb)
			return la < lb ? -1 : 1;
	}
	return strcmp(a->json, b->json);
}

/* Order cells by their levels (plan order) and renumber the runs. */
int loader_sort_cells(struct loader *l)
{
	struct report *r = l->m.r;
	int *map, i;
	map = malloc(((size_t)r->ncells + 1) * sizeof *map);
	if (!map)
		return -XR_ENOMEM;
	sort_ctx = l;
	qsort(r->cells, (size_t)r->ncells, sizeof *r->cells, cmp_cells);
	sort_ctx = NULL;
	for (i = 0; i < r->ncells; i++) {
		map[r->cells[i].index] = i;
		r->cells[i].index = i;
	}
	for (i = 0; i < l->m.nruns; i++)
		l->m.runs[i].cell = map[l->m.runs[i].cell];
	free(map);
	return hash_build(l, l->hcap ? l->hcap : 64);
}

static struct loader *id_ctx;

static int cmp_byid(const void *x, const void *y)
{
	int64_t a = id_ctx->m.runs[*(const int *)x].id;
	int64_t b = id_ctx->m.runs[*(const int *)y].id;
	return a < b ? -1 : a > b;
}

int loader_run_by_id(struct loader *l, int64_t id)
{
	int lo = 0, hi = l->m.nruns - 1, h = l->byid_hint;
	/* The store's rows come by run id: the run after the last one found,
	 * or the same, before a binary search (3.7% of the report of
	 * 100,000 runs with 700,000 lookups, bench/RESULTS.md). */
	if (h + 1 <= hi && l->m.runs[l->byid[h + 1]].id == id)
		return l->byid[l->byid_hint = h + 1];
	if (h <= hi && l->m.runs[l->byid[h]].id == id)
		return l->byid[h];
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		int64_t v = l->m.runs[l->byid[mid]].id;
		if (v == id) {
			l->byid_hint = mid;
			return l->byid[mid];
		}
		if (v < id)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

int loader_index_runs(struct loader *l)
{
	struct report *r = l->m.r;
	int i;
	l->byid = malloc(((size_t)l->m.nruns + 1) * sizeof *l->byid);
	l->m.mc = calloc((size_t)r->ncells + 1, sizeof *l->m.mc);
	if (!l->byid || !l->m.mc)
		return -XR_ENOMEM;
	for (i = 0; i < l->m.nruns; i++)
		l->byid[i] = i;
	id_ctx = l;
	qsort(l->byid, (size_t)l->m.nruns, sizeof *l->byid, cmp_byid);
	id_ctx = NULL;
	for (i = 0; i < l->m.nruns; i++) {
		struct mrun *u = &l->m.runs[i];
		struct mcell *c = &l->m.mc[u->cell];
		if (u->status != RUN_OK)
			continue;
		if (c->nok == c->capok) {
			int cap = c->capok ? 2 * c->capok : 8;
			int *t = realloc(c->ok, (size_t)cap * sizeof *t);
			if (!t)
				return -XR_ENOMEM;
			c->ok = t;
			c->capok = cap;
		}
		if (!c->nok)
			c->session = u->session;
		c->ok[c->nok++] = i;
	}
	return 0;
}

int loader_fill_factors(struct loader *l, struct xr_err *err)
{
	struct report *r = l->m.r;
	int i, k;
	r->nfactors = l->nf;
	r->factors =
	    arena_alloc(l->m.a, ((size_t)l->nf + 1) * sizeof *r->factors);
	if (!r->factors)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	for (i = 0; i < l->nf; i++) {
		struct report_factor *f = &r->factors[i];
		f->name = l->f[i].name;
		f->levels = l->f[i].levels;
		f->nlevels = l->f[i].n;
		if (l->m.plan && i < l->m.plan->nfactors) {
			f->manual = l->m.plan->factors[i].manual != NULL;
			f->verify = l->m.plan->factors[i].verify != NULL;
			f->setting =
			    l->m.plan->factors[i].apply.argc > 0 || f->manual;
		}
	}
	/* Labels. */
	for (i = 0; i < r->ncells; i++) {
		struct buf b = BUF_INIT;
		for (k = 0; k < l->nf; k++)
			if (r->cells[i].lv[k] >= 0)
				buf_addf(&b, "%s%s=%s", b.len ? ", " : "",
					 l->f[k].name,
					 l->f[k].levels[r->cells[i].lv[k]]);
		r->cells[i].label = arena_strdup(l->m.a, b.len ? b.s : "-");
		buf_release(&b);
	}
	return 0;
}

/* --- observed conditions ---------------------------------------------- */

struct obs_acc {
	struct loader *l;
	int cap;
};

static int observed_row(void *ctx, const struct store_observed_row *o)
{
	struct obs_acc *acc = ctx;
	struct loader *l = acc->l;
	struct report *r = l->m.r;
	struct report_observed *x;
	int ri = loader_run_by_id(l, o->run_id), i, cell;
	if (ri < 0 || !o->key || !o->value)
		return 0;
	cell = l->m.runs[ri].cell;
	for (i = r->nobserved - 1; i >= 0; i--) {
		x = &r->observed[i];
		if (x->cell == cell && !strcmp(x->key, o->key) &&
		    !strcmp(x->value, o->value)) {
			x->count++;
			return 0;
		}
	}
	if (r->nobserved == acc->cap) {
		int cap = acc->cap ? acc->cap * 2 : 64;
		x = arena_alloc(l->m.a, (size_t)cap * sizeof *x);
		if (!x)
			return loader_oom(l);
		if (r->nobserved)
			memcpy(x, r->observed,
			       (size_t)r->nobserved * sizeof *x);
		r->observed = x;
		acc->cap = cap;
	}
	x = &r->observed[r->nobserved++];
	x->cell = cell;
	x->key = arena_strdup(l->m.a, o->key);
	x->value = arena_strdup(l->m.a, o->value);
	x->count = 1;
	if (!x->key || !x->value)
		return loader_oom(l);
	return 0;
}

int loader_observed(struct loader *l, struct xr_err *err)
{
	struct report *r = l->m.r;
	struct obs_acc acc = {l, 0};
	int rc = store_observed_each(l->st, r->span.sessions,
				     (size_t)r->span.nsessions, observed_row,
				     &acc, err);
	return rc < 0 ? rc : 0;
}
