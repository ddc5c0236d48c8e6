/*
 * Series metrics (series_metric.h): at the end of each run, the engine's
 * intervals become the series engine.throughput of the receiving host,
 * and each `metrics:` entry with a `series:` becomes one ordinary metric
 * of the run (median, p95, max, min, mean or delta of the series' points
 * during the engine's run, per second with `rate: true`), so that tables,
 * comparisons, sizing and references use it like any other.
 *
 * SPDX-License-Identifier: MIT
 */
#include "series_metric.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "plan.h"
#include "runctx.h"
#include "series.h"
#include "series_name.h"
#include "units.h"
#include "banned.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The q-quantile of sorted x[n], interpolated between the order
 * statistics (the "linear" rule of numpy and R's type 7). */
static double quantile(const double *x, size_t n, double q)
{
	double h = q * (double)(n - 1);
	size_t lo = (size_t)floor(h);
	if (lo + 1 >= n)
		return x[n - 1];
	return x[lo] + (h - (double)lo) * (x[lo + 1] - x[lo]);
}

/* The length of point k's interval in s: since the point before it, or
 * for the first point the spacing after it (its own t alone: 0 to t). */
static double interval_of(const struct series *s, size_t k)
{
	if (k > 0)
		return s->t[k] - s->t[k - 1];
	if (s->n > 1)
		return s->t[1] - s->t[0];
	return s->t[0];
}

static double stat_of(int stat, double *x, size_t n, double sum, double span)
{
	size_t i;
	double m;
	switch (stat) {
	case PLAN_STAT_DELTA:
		return span > 0 ? sum / span : sum;
	case PLAN_STAT_MEAN:
		return sum / (double)n;
	case PLAN_STAT_MAX:
	case PLAN_STAT_MIN:
		m = x[0];
		for (i = 1; i < n; i++)
			if (stat == PLAN_STAT_MAX ? x[i] > m : x[i] < m)
				m = x[i];
		return m;
	default:
		qsort(x, n, sizeof *x, cmp_double);
		return quantile(x, n, stat == PLAN_STAT_P95 ? 0.95 : 0.5);
	}
}

int series_metric_value(const struct plan_metric *m, const struct series *s,
			double *value)
{
	double *x, sum = 0, span = 0;
	size_t k, n = 0;
	if (!s || !s->n || !(x = malloc(s->n * sizeof *x)))
		return 0;
	for (k = 0; k < s->n; k++) {
		double v = s->v[k], dt = interval_of(s, k);
		if (!(s->t[k] > 0) || !isfinite(v) || (m->rate && !(dt > 0)))
			continue;
		span += dt;
		if (m->rate && m->stat != PLAN_STAT_DELTA)
			v /= dt;
		sum += v;
		x[n++] = v;
	}
	if (n)
		*value = stat_of(m->stat, x, n, sum, m->rate ? span : 0);
	free(x);
	return n > 0;
}

/* The plan host label of role or host name h in the current cell: the
 * roles client and server are the engine's hosts. */
static const char *series_metric_host_label(const struct runctx *rc,
					    const char *h)
{
	if (!h)
		return NULL;
	if (!strcmp(h, "client") && rc->client_hi >= 0)
		return rc->p->hosts[rc->client_hi].name;
	if (!strcmp(h, "server") && rc->server_hi >= 0)
		return rc->p->hosts[rc->server_hi].name;
	return h;
}

/* The host that received the engine's data: the server's, the client's
 * when the engine says it ran reversed or there is no server host. */
static const char *receiver(const struct runctx *rc,
			    const struct engine_result *res)
{
	int k, reverse = 0;
	for (k = 0; k < res->nobserved; k++)
		if (!strcmp(res->observed[k].key, "direction") &&
		    !strcmp(res->observed[k].value, "reverse"))
			reverse = 1;
	if (!reverse && rc->server_hi >= 0)
		return rc->p->hosts[rc->server_hi].name;
	return rc->client_hi >= 0 ? rc->p->hosts[rc->client_hi].name : "local";
}

static int add_intervals(const struct runctx *rc,
			 const struct engine_result *res, struct series_set *ss)
{
	/* the engine's word on whose intervals these are, else the roles */
	const char *host = res->iv_host[0] ? res->iv_host : receiver(rc, res);
	const char *unit = "bit/s";
	struct series *s;
	int i;
	if (!res->nintervals ||
	    series_set_find(ss, NULL, SERIES_ENGINE_THROUGHPUT))
		return 0;
	if (res->nmetrics)
		unit = res->metrics[0].unit;
	if (!(s = series_set_get(ss, host, SERIES_ENGINE_THROUGHPUT, unit)))
		return -XR_ENOMEM;
	for (i = 0; i < res->nintervals; i++)
		if (series_add(s, res->iv_end[i], res->iv_value[i]) < 0)
			return -XR_ENOMEM;
	return 0;
}

static int has_metric(const struct engine_result *res, const char *name)
{
	int k;
	for (k = 0; k < res->nmetrics; k++)
		if (!strcmp(res->metrics[k].name, name))
			return 1;
	return 0;
}

/* Store m's value over its series in res, in base units. */
static void add_metric(const struct runctx *rc, const struct plan_metric *m,
		       const struct series_set *ss, struct engine_result *res)
{
	const struct series *s = series_set_find(
	    ss, series_metric_host_label(rc, m->host), m->series);
	const char *unit, *base;
	char u[32];
	double v, f = 1;
	if (!series_metric_value(m, s, &v))
		return;
	if (has_metric(res, m->name)) {
		if (!rc->o->quiet)
			fprintf(stderr,
				"xrun: warning: series metric '%s' has the "
				"name of a metric of the engine: the "
				"engine's is kept\n",
				m->name);
		return;
	}
	unit = m->unit ? m->unit : (s->unit[0] ? s->unit : "1");
	if (units_metric(unit, &f, &base) == 0)
		unit = base;
	else
		f = 1;
	snprintf(u, sizeof u, "%s%s", unit, m->rate ? "/s" : "");
	engine_result_add_metric(res, m->name, v * f, u);
}

const struct series_set *series_metric_finish(struct runctx *rc,
					      struct engine_result *res,
					      struct series_set *ss)
{
	const struct plan_engine *e = &rc->p->engine;
	int i;
	/* the engine's own series (iperf3: rtt, cwnd, retransmits) */
	if (series_set_take(ss, &res->series) < 0 && !rc->o->quiet)
		fprintf(stderr, "xrun: warning: out of memory keeping the "
				"engine's series\n");
	if (add_intervals(rc, res, ss) < 0 && !rc->o->quiet)
		fprintf(stderr, "xrun: warning: out of memory keeping the "
				"engine's intervals as a series\n");
	for (i = 0; i < e->nmetrics; i++)
		if (e->metrics[i].series)
			add_metric(rc, &e->metrics[i], ss, res);
	/* a note without series (sample: off, a counters snapshot that
	 * failed after the run) is stored too: issue 40, no silent drop */
	return ss->n || ss->note[0] ? ss : NULL;
}
