/*
 * The facts each run held under (schema/store.md "fact_sets"), read into
 * the model: the sets of the reported sessions (report.fsets, by id) and,
 * for each run, the set it named on each host (report_run.fsets), so that
 * reports/explain explains a cell from its own runs' facts and the System
 * table shows a fact per level where it differs.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "model_loader.h"
#include "store.h"

#include "banned.h"

struct fsread {
	struct loader *l;
	struct report_fset *sets;
	int n, cap;
	struct report_fkv *kv; /* every set's values, in set order */
	int nkv, capkv;
	int *kv_first; /* [capf]: where set k's values start */
	int capf;
	int oom;
};

static int grow(void **a, int *cap, int need, size_t size)
{
	void *t;
	int c;
	if (need <= *cap)
		return 0;
	c = *cap ? *cap * 2 : 64;
	while (c < need)
		c *= 2;
	if (!(t = realloc(*a, (size_t)c * size)))
		return -1;
	*a = t;
	*cap = c;
	return 0;
}

static int set_row(void *ctx, const struct store_fact_set_row *row)
{
	struct fsread *f = ctx;
	struct arena *a = f->l->m.a;
	if (!f->n || f->sets[f->n - 1].id != row->set_id) {
		struct report_fset *s;
		if (grow((void **)&f->sets, &f->cap, f->n + 1,
			 sizeof *f->sets) < 0 ||
		    grow((void **)&f->kv_first, &f->capf, f->n + 1,
			 sizeof *f->kv_first) < 0)
			return f->oom = 1;
		s = &f->sets[f->n];
		memset(s, 0, sizeof *s);
		s->id = row->set_id;
		s->session = row->session_id;
		s->host = arena_strdup(a, row->host ? row->host : "");
		s->cause = arena_strdup(a, row->cause ? row->cause : "");
		s->factor = row->factor ? arena_strdup(a, row->factor) : NULL;
		s->level = row->level ? arena_strdup(a, row->level) : NULL;
		if (!s->host || !s->cause)
			return f->oom = 1;
		f->kv_first[f->n++] = f->nkv;
	}
	if (!row->key || !row->value)
		return 0;
	if (grow((void **)&f->kv, &f->capkv, f->nkv + 1, sizeof *f->kv) < 0)
		return f->oom = 1;
	f->kv[f->nkv].key = arena_strdup(a, row->key);
	f->kv[f->nkv].value = arena_strdup(a, row->value);
	if (!f->kv[f->nkv].key || !f->kv[f->nkv].value)
		return f->oom = 1;
	f->nkv++;
	return 0;
}

/* The sets into the arena: report.fsets, each pointing at its values. */
static int sets_into_arena(struct fsread *f)
{
	struct report *r = f->l->m.r;
	struct arena *a = f->l->m.a;
	struct report_fkv *kv = NULL;
	r->fsets = arena_alloc(a, ((size_t)f->n + 1) * sizeof *r->fsets);
	if (f->nkv)
		kv = arena_alloc(a, (size_t)f->nkv * sizeof *kv);
	if (!r->fsets || (f->nkv && !kv))
		return -1;
	if (f->nkv)
		memcpy(kv, f->kv, (size_t)f->nkv * sizeof *kv);
	for (int k = 0; k < f->n; k++) {
		int end = k + 1 < f->n ? f->kv_first[k + 1] : f->nkv;
		r->fsets[k] = f->sets[k];
		r->fsets[k].kv = kv ? kv + f->kv_first[k] : NULL;
		r->fsets[k].nkv = end - f->kv_first[k];
	}
	r->nfsets = f->n;
	return 0;
}

/* report.fsets index of set id (sorted by id), or -1. */
static int set_index(const struct report *r, int64_t id)
{
	int lo = 0, hi = r->nfsets - 1;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		if (r->fsets[mid].id == id)
			return mid;
		if (r->fsets[mid].id < id)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

struct links {
	struct loader *l;
	int *run, *set; /* pairs, in the store's run id order */
	int n, cap, capr;
	int oom;
};

static int link_row(void *ctx, const struct store_run_fact_row *row)
{
	struct links *k = ctx;
	int ri = loader_run_by_id(k->l, row->run_id);
	int si = set_index(k->l->m.r, row->set_id);
	if (ri < 0 || si < 0)
		return 0;
	if (grow((void **)&k->run, &k->capr, k->n + 1, sizeof *k->run) < 0 ||
	    grow((void **)&k->set, &k->cap, k->n + 1, sizeof *k->set) < 0)
		return k->oom = 1;
	k->run[k->n] = ri;
	k->set[k->n++] = si;
	return 0;
}

/* CSR by run index: rf_first[ri] .. rf_first[ri + 1] in rf_set. */
static int index_links(struct loader *l, const struct links *k)
{
	int nr = l->m.nruns, *at;
	l->rf_first = calloc((size_t)nr + 2, sizeof *l->rf_first);
	l->rf_set = malloc(((size_t)k->n + 1) * sizeof *l->rf_set);
	at = calloc((size_t)nr + 1, sizeof *at);
	if (!l->rf_first || !l->rf_set || !at) {
		free(at);
		return -1;
	}
	for (int i = 0; i < k->n; i++)
		l->rf_first[k->run[i] + 1]++;
	for (int i = 0; i < nr; i++) {
		at[i] = l->rf_first[i];
		l->rf_first[i + 1] += l->rf_first[i];
	}
	for (int i = 0; i < k->n; i++)
		l->rf_set[at[k->run[i]]++] = k->set[i];
	free(at);
	return 0;
}

int loader_fact_sets(struct loader *l, struct xr_err *err)
{
	struct report *r = l->m.r;
	struct fsread f = {0};
	struct links k = {0};
	int rc;
	f.l = l;
	k.l = l;
	rc = store_fact_sets_each(l->st, r->span.sessions,
				  (size_t)r->span.nsessions, set_row, &f, err);
	if (rc == 0 && !f.oom && sets_into_arena(&f) < 0)
		f.oom = 1;
	if (rc == 0 && !f.oom)
		rc = store_run_facts_each(l->st, r->span.sessions,
					  (size_t)r->span.nsessions, link_row,
					  &k, err);
	if (rc == 0 && !f.oom && !k.oom && index_links(l, &k) < 0)
		k.oom = 1;
	free(f.sets);
	free(f.kv);
	free(f.kv_first);
	free(k.run);
	free(k.set);
	if (rc < 0)
		return rc;
	if (f.oom || k.oom)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	return 0;
}

int loader_run_fsets(struct loader *l, int ri, struct report_run *u)
{
	struct report *r = l->m.r;
	const struct report_fset **p;
	int a, b;
	u->fsets = NULL;
	u->nfsets = 0;
	if (!l->rf_first || (a = l->rf_first[ri]) == (b = l->rf_first[ri + 1]))
		return 0;
	if (!(p = arena_alloc(l->m.a, (size_t)(b - a) * sizeof *p)))
		return -XR_ENOMEM;
	for (int i = a; i < b; i++)
		p[i - a] = &r->fsets[l->rf_set[i]];
	u->fsets = p;
	u->nfsets = b - a;
	return 0;
}

const char *report_run_fact(const struct report_run *u, const char *host,
			    const char *key, int *known)
{
	*known = 0;
	for (int i = 0; u && i < u->nfsets; i++) {
		const struct report_fset *s = u->fsets[i];
		if (strcmp(s->host, host))
			continue;
		*known = 1;
		for (int k = 0; k < s->nkv; k++)
			if (!strcmp(s->kv[k].key, key))
				return s->kv[k].value;
		return NULL;
	}
	return NULL;
}
