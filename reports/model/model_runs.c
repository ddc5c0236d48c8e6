/*
 * The report's runs (report.runs): every non-warm-up run with its cell,
 * repetition, status, times, the value of each metric, and its time
 * series for the charts. Series points arrive by run id through
 * loader_series_point() from what the store holds: the stored intervals
 * (model_stats.c, as engine.throughput) and the store's series table
 * (loader_series(): the sampler's and the engine's other series).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "model_int.h"
#include "series.h"
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

static int series_row(void *ctx, const struct store_series_row *s)
{
	struct loader *l = ctx;
	size_t k;
	/* engine.throughput is the stored intervals, already read */
	if (!strcmp(s->name, "engine.throughput"))
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
	rc = store_series_each(l->st, &f, series_row, l, err);
	if (rc == -XR_ENOMEM && err && !err->msg[0])
		xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
			   "out of memory reading the runs' series");
	return rc;
}

void loader_series_release(struct loader *l)
{
	int i;
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

/* Series s of a run into the arena, in time order. */
static int copy_series(struct arena *a, const struct series *s,
		       struct report_series *o)
{
	double *tv = malloc((s->n + 1) * 2 * sizeof *tv), *t, *v;
	size_t i;
	if (!tv)
		return -XR_ENOMEM;
	for (i = 0; i < s->n; i++) {
		tv[2 * i] = s->t[i];
		tv[2 * i + 1] = s->v[i];
	}
	qsort(tv, s->n, 2 * sizeof *tv, cmp_t);
	t = arena_alloc(a, (s->n + 1) * sizeof *t);
	v = arena_alloc(a, (s->n + 1) * sizeof *v);
	o->host = arena_strdup(a, s->host);
	o->name = arena_strdup(a, s->name);
	o->unit = arena_strdup(a, s->unit);
	if (!t || !v || !o->host || !o->name || !o->unit) {
		free(tv);
		return -XR_ENOMEM;
	}
	for (i = 0; i < s->n; i++) {
		t[i] = tv[2 * i];
		v[i] = tv[2 * i + 1];
	}
	free(tv);
	o->t = t;
	o->v = v;
	o->n = (int)s->n;
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
	u->started_at = m->start;
	u->ended_at = m->end;
	u->vals = vals;
	if (l->ser && l->ser[ri].n) {
		const struct series_set *ss = &l->ser[ri];
		struct report_series *s =
		    arena_alloc(l->m.a, ss->n * sizeof *s);
		size_t k;
		if (!s)
			return -XR_ENOMEM;
		for (k = 0; k < ss->n; k++)
			if (copy_series(l->m.a, &ss->s[k], &s[k]) < 0)
				return -XR_ENOMEM;
		u->series = s;
		u->nseries = (int)ss->n;
	}
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
	return 0;
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
