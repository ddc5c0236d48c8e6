/*
 * The report's runs (report.runs): every non-warm-up run with its cell,
 * repetition, status, times, the value of each metric, and its time
 * series for the charts. Series points arrive by run id through
 * loader_series_point() from the store's series table (loader_series():
 * the sampler's and the engine's other series); the stored intervals
 * (model_stats.c, as engine.throughput) a run at a time through
 * loader_interval_points(), straight into the arena: a series set a run
 * and a copy of it was a third of the loader's memory and time for
 * 100,000 runs of 5 intervals (bench/RESULTS.md).
 *
 * SPDX-License-Identifier: MIT
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "model_loader.h"
#include "series.h"
#include "series_name.h"
#include "store.h"

#include "banned.h"

int loader_series_point(struct loader *l, int64_t run_id, const char *host,
			const char *name, const char *unit, double t, double v)
{
	int ri = loader_run_by_id(l, run_id);
	if (ri < 0)
		return 0; /* a run of another session, or a warm-up */
	if (!l->ser) {
		l->ser = calloc((size_t)l->m.nruns + 1, sizeof *l->ser);
		if (!l->ser)
			return -XR_ENOMEM;
	}
	if (!isfinite(t) || !isfinite(v))
		return 0;
	return series_set_add(&l->ser[ri], host ? host : "", name,
			      unit ? unit : "", t, v) < 0
		   ? -XR_ENOMEM
		   : 0;
}

int loader_interval_points(struct loader *l, int ri, const double *t,
			   const double *v, size_t n)
{
	struct ivpts *p;
	size_t i, k = 0, had;
	double *nt, *nv;
	if (!l->ivp &&
	    !(l->ivp = calloc((size_t)l->m.nruns + 1, sizeof *l->ivp)))
		return -XR_ENOMEM;
	p = &l->ivp[ri];
	had = (size_t)p->n;
	for (i = 0; i < n; i++)
		k += isfinite(t[i]) && isfinite(v[i]);
	if (!k)
		return 0;
	if (had + k > INT_MAX)
		return -XR_ENOMEM;
	/* A run's rows come together: a second call for it is rare, and
	 * then the arrays are copied (the old ones stay in the arena). */
	nt = arena_alloc(l->m.a, (had + k + 1) * sizeof *nt);
	nv = arena_alloc(l->m.a, (had + k + 1) * sizeof *nv);
	if (!nt || !nv)
		return -XR_ENOMEM;
	if (had) {
		memcpy(nt, p->t, had * sizeof *nt);
		memcpy(nv, p->v, had * sizeof *nv);
	}
	for (i = 0, k = had; i < n; i++)
		if (isfinite(t[i]) && isfinite(v[i])) {
			nt[k] = t[i];
			nv[k++] = v[i];
		}
	p->t = nt;
	p->v = nv;
	p->n = (int)k;
	return 0;
}

static int model_runs_series_row(void *ctx, const struct store_series_row *s)
{
	struct loader *l = ctx;
	size_t k;
	/* engine.throughput is the stored intervals, read apart */
	if (!strcmp(s->name, SERIES_ENGINE_THROUGHPUT))
		return 0;
	for (k = 0; k < s->n; k++)
		if (loader_series_point(l, s->run_id, s->host, s->name, s->unit,
					s->t[k], s->v[k]) < 0)
			return -XR_ENOMEM;
	return 0;
}

int loader_series(struct loader *l, struct xr_err *err)
{
	/* The store's series (schema version 7; none in an older store),
	 * the reported sessions' runs only. */
	struct store_series_filter f = {0};
	int rc;
	f.sessions = l->m.r->span.sessions;
	f.nsessions = (size_t)l->m.r->span.nsessions;
	rc = store_series_each(l->st, &f, model_runs_series_row, l, err);
	if (rc == -XR_ENOMEM && err && !err->msg[0])
		xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
			   "out of memory reading the runs' series");
	return rc;
}

void loader_series_release(struct loader *l)
{
	int i;
	free(l->ivp); /* the points are the arena's */
	l->ivp = NULL;
	if (!l->ser)
		return;
	for (i = 0; i < l->m.nruns; i++)
		series_set_release(&l->ser[i]);
	free(l->ser);
	l->ser = NULL;
}

static int cmp_t(const void *x, const void *y)
{
	const double *a = x, *b = y;
	return (a[0] > b[0]) - (a[0] < b[0]);
}

/* Strictly increasing: already in the one order a sort by t gives. */
static int increasing(const double *t, size_t n)
{
	size_t i;
	for (i = 1; i < n; i++)
		if (!(t[i - 1] < t[i]))
			return 0;
	return 1;
}

/* Points (t, v) in time order; 0 or -XR_ENOMEM. */
static int sort_points(double *t, double *v, size_t n)
{
	double *tv;
	size_t i;
	if (increasing(t, n))
		return 0;
	if (!(tv = malloc((n + 1) * 2 * sizeof *tv)))
		return -XR_ENOMEM;
	for (i = 0; i < n; i++) {
		tv[2 * i] = t[i];
		tv[2 * i + 1] = v[i];
	}
	qsort(tv, n, 2 * sizeof *tv, cmp_t);
	for (i = 0; i < n; i++) {
		t[i] = tv[2 * i];
		v[i] = tv[2 * i + 1];
	}
	free(tv);
	return 0;
}

/* Series s of a run into the arena, in time order. */
static int copy_series(struct arena *a, const struct series *s,
		       struct report_series *o)
{
	double *t = arena_alloc(a, (s->n + 1) * sizeof *t);
	double *v = arena_alloc(a, (s->n + 1) * sizeof *v);
	o->host = arena_strdup(a, s->host);
	o->name = arena_strdup(a, s->name);
	o->unit = arena_strdup(a, s->unit);
	if (!t || !v || !o->host || !o->name || !o->unit)
		return -XR_ENOMEM;
	if (s->n) {
		memcpy(t, s->t, s->n * sizeof *t);
		memcpy(v, s->v, s->n * sizeof *v);
	}
	if (sort_points(t, v, s->n) < 0)
		return -XR_ENOMEM;
	o->t = t;
	o->v = v;
	o->n = (int)s->n;
	return 0;
}

/* Run ri's series: engine.throughput from the intervals first (they were
 * read first), then the stored series in the order they came. */
static int run_series(struct loader *l, int ri, struct report_run *u)
{
	const struct series_set *ss = l->ser ? &l->ser[ri] : NULL;
	struct ivpts *p = l->ivp ? &l->ivp[ri] : NULL;
	size_t k, n = (ss ? ss->n : 0) + (p && p->n ? 1 : 0), i = 0;
	struct report_series *s;
	if (!n)
		return 0;
	if (!(s = arena_alloc(l->m.a, n * sizeof *s)))
		return -XR_ENOMEM;
	if (p && p->n) {
		if (sort_points(p->t, p->v, (size_t)p->n) < 0)
			return -XR_ENOMEM;
		s[0].host = "";
		s[0].name = SERIES_ENGINE_THROUGHPUT;
		s[0].unit = "bit/s";
		s[0].t = p->t;
		s[0].v = p->v;
		s[0].n = p->n;
		i = 1;
	}
	for (k = 0; ss && k < ss->n; k++)
		if (copy_series(l->m.a, &ss->s[k], &s[i++]) < 0)
			return -XR_ENOMEM;
	u->series = s;
	u->nseries = (int)n;
	return 0;
}

static int run_into(struct loader *l, int ri, struct report_run *u)
{
	struct report *r = l->m.r;
	const struct mrun *m = &l->m.runs[ri];
	double *vals =
	    arena_alloc(l->m.a, ((size_t)r->met.nmetrics + 1) * sizeof *vals);
	int mi;
	if (!vals)
		return -XR_ENOMEM;
	for (mi = 0; mi < r->met.nmetrics; mi++)
		vals[mi] = l->m.vals ? l->m.vals[mi][ri] : NAN;
	u->id = m->id;
	u->session = m->session;
	u->cell = m->cell;
	u->rep = m->rep;
	u->ok = m->status == RUN_OK;
	u->status = m->status_name;
	u->reason = m->reason;
	u->started_at = m->start;
	u->ended_at = m->end;
	u->vals = vals;
	if (loader_run_fsets(l, ri, u) < 0)
		return -XR_ENOMEM;
	return run_series(l, ri, u);
}

/* r->cell_first and r->cell_runs (report.h), by counting: two passes
 * over the runs. */
static int index_cells(struct arena *a, struct report *r)
{
	int *first = arena_alloc(a, ((size_t)r->ncells + 2) * sizeof *first);
	int *by = arena_alloc(a, ((size_t)r->nruns + 1) * sizeof *by);
	int *at = arena_alloc(a, ((size_t)r->ncells + 1) * sizeof *at);
	int i, c;
	if (!first || !by || !at)
		return -XR_ENOMEM;
	memset(first, 0, ((size_t)r->ncells + 2) * sizeof *first);
	for (i = 0; i < r->nruns; i++)
		if (r->runs[i].cell >= 0 && r->runs[i].cell < r->ncells)
			first[r->runs[i].cell + 1]++;
	for (c = 0; c < r->ncells; c++) {
		at[c] = first[c];
		first[c + 1] += first[c];
	}
	for (i = 0; i < r->nruns; i++)
		if (r->runs[i].cell >= 0 && r->runs[i].cell < r->ncells)
			by[at[r->runs[i].cell]++] = i;
	r->cell_first = first;
	r->cell_runs = by;
	return 0;
}

int loader_run_list(struct loader *l, struct xr_err *err)
{
	struct report *r = l->m.r;
	int i;
	r->runs =
	    arena_alloc(l->m.a, ((size_t)l->m.nruns + 1) * sizeof *r->runs);
	if (!r->runs)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	memset(r->runs, 0, ((size_t)l->m.nruns + 1) * sizeof *r->runs);
	for (i = 0; i < l->m.nruns; i++)
		if (run_into(l, i, &r->runs[i]) < 0)
			return xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
					  "out of memory");
	r->nruns = l->m.nruns;
	loader_series_release(l);
	if (index_cells(l->m.a, r) < 0)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	return 0;
}

const int *report_cell_runs(const struct report *r, int ci, int *n)
{
	*n = 0;
	if (!r->cell_first || ci < 0 || ci >= r->ncells)
		return NULL;
	*n = r->cell_first[ci + 1] - r->cell_first[ci];
	return r->cell_runs + r->cell_first[ci];
}

int report_cell_run(const struct report *r, int ci, int k)
{
	int n;
	const int *v = report_cell_runs(r, ci, &n);
	return k >= 0 && k < n ? v[k] : -1;
}

const struct report_series *report_run_series(const struct report_run *u,
					      const char *host,
					      const char *name)
{
	int i;
	for (i = 0; u && i < u->nseries; i++)
		if (!strcmp(u->series[i].name, name) &&
		    (!host || !strcmp(u->series[i].host, host)))
			return &u->series[i];
	return NULL;
}
