/*
 * Builds the report model from the store (schema/store.sql): the sessions
 * of one plan, their runs grouped into cells, per-cell statistics of every
 * metric, interval statistics, counter-based and verification flags, host
 * facts and verification summaries. Comparisons and tables are built by
 * compare.c from what this module loads. The plan text stored with the
 * session gives factors, levels and the report configuration; when it
 * does not load, factors and levels come from the cells' JSON.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <jansson.h>
#include <sqlite3.h>

#include "arena.h"
#include "buf.h"
#include "model_int.h"
#include "plan.h"
#include "stats.h"
#include "units.h"
#include "banned.h"

#define MAX_FACTORS 64
#define MAX_METRICS 64
#define MAX_VERIFS 500

/* Growable factor while cells are discovered. */
struct mfactor {
	const char *name;
	const char **levels;
	int n, cap;
};

struct loader {
	struct mb m;
	sqlite3 *db;
	struct buf in; /* "(1,2,3)": the sessions reported */
	struct mfactor f[MAX_FACTORS];
	int nf;
	/* cells by JSON text: open addressing over cell indices */
	int *hash;
	size_t hcap;
	int cap_cells;
	/* runs by id for joins: indices sorted by id */
	int *byid;
	/* per cell interval values */
	double **iv;
	int *niv, *capiv;
	/* per cell counter sums */
	struct csum {
		int cell, code;
		const char *host, *name;
		double sum;
	} * cs;
	int ncs, capcs;
};

void mb_flag(struct mb *m, struct report_flag *list, int *n,
	     enum report_flag_code code, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;
	int i;
	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	for (i = 0; i < *n; i++)
		if (list[i].code == code) {
			if (!b.s)
				;
			else if (b.len && list[i].detail && *list[i].detail)
				list[i].detail = arena_printf(
				    m->a, "%s; %s", list[i].detail, b.s);
			else if (b.len)
				list[i].detail = arena_strdup(m->a, b.s);
			buf_release(&b);
			return;
		}
	if (*n < REPORT_FLAG_COUNT) {
		list[*n].code = code;
		list[*n].detail = arena_strdup(m->a, b.s ? b.s : "");
		(*n)++;
	}
	buf_release(&b);
}

static int sql_err(struct loader *l, struct xr_err *err, const char *what)
{
	return xr_err_set(err, XR_ESTORE, l->m.r->db_path, 0, 0,
			  "cannot read %s from the store: %s", what,
			  sqlite3_errmsg(l->db));
}

static int prep(struct loader *l, const char *fmt, sqlite3_stmt **st,
		struct xr_err *err, const char *what)
{
	struct buf q = BUF_INIT;
	int rc;
	/* The only substitution is the sessions list built from integers. */
	buf_addf(&q, fmt, l->in.s, l->in.s);
	rc = sqlite3_prepare_v2(l->db, q.s, -1, st, NULL);
	buf_release(&q);
	if (rc != SQLITE_OK)
		return sql_err(l, err, what);
	return 0;
}

static const char *col_text(struct loader *l, sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	return t ? arena_strdup(l->m.a, (const char *)t) : NULL;
}

static double col_real(sqlite3_stmt *st, int i)
{
	if (sqlite3_column_type(st, i) == SQLITE_NULL)
		return NAN;
	return sqlite3_column_double(st, i);
}

/* --- sessions and plan ------------------------------------------------ */

static int load_sessions(struct loader *l, struct xr_err *err)
{
	struct report *r = l->m.r;
	sqlite3_stmt *st;
	const char *name = NULL, *text = NULL;
	int64_t *ids = NULL;
	int n = 0, cap = 0, rc;

	rc = sqlite3_prepare_v2(
	    l->db,
	    "SELECT s.id, p.name, p.title, p.hash, p.text FROM sessions s "
	    "JOIN plans p ON p.id = s.plan_id ORDER BY s.id DESC",
	    -1, &st, NULL);
	if (rc != SQLITE_OK)
		return xr_err_set(err, XR_ESTORE, r->db_path, 0, 0,
				  "'%s' is not an xrun store (%s)", r->db_path,
				  sqlite3_errmsg(l->db));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		const char *nm = (const char *)sqlite3_column_text(st, 1);
		if (l->m.o->session > 0 && id != l->m.o->session)
			continue;
		if (!name) {
			name = arena_strdup(l->m.a, nm ? nm : "");
			r->title = col_text(l, st, 2);
			r->plan_hash = col_text(l, st, 3);
			text = col_text(l, st, 4);
		} else if (!nm || strcmp(nm, name)) {
			continue; /* another plan's sessions */
		}
		if (n == cap) {
			int64_t *t;
			cap = cap ? 2 * cap : 8;
			t = realloc(ids, (size_t)cap * sizeof *ids);
			if (!t) {
				free(ids);
				sqlite3_finalize(st);
				return xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
						  "out of memory");
			}
			ids = t;
		}
		ids[n++] = id;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(ids);
		return sql_err(l, err, "sessions");
	}
	if (!n) {
		free(ids);
		if (l->m.o->session > 0)
			return xr_err_set(err, XR_EREPORT, r->db_path, 0, 0,
					  "no session %lld in '%s'",
					  (long long)l->m.o->session,
					  r->db_path);
		return xr_err_set(err, XR_EREPORT, r->db_path, 0, 0,
				  "no runs to report in '%s' (run the plan "
				  "first: xrun run PLAN)",
				  r->db_path);
	}
	/* Oldest first. */
	{
		int64_t *s = arena_alloc(l->m.a, (size_t)n * sizeof *s);
		int i;
		if (!s) {
			free(ids);
			return xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
					  "out of memory");
		}
		buf_adds(&l->in, "(");
		for (i = 0; i < n; i++) {
			s[i] = ids[n - 1 - i];
			buf_addf(&l->in, "%s%lld", i ? "," : "",
				 (long long)s[i]);
		}
		buf_adds(&l->in, ")");
		r->sessions = s;
		r->nsessions = n;
	}
	free(ids);
	r->plan_name = name;
	if (text) {
		struct xr_diag d;
		xr_diag_init(&d, name);
		if (plan_load_mem(name, text, strlen(text), &l->m.plan, &d) < 0)
			l->m.plan = NULL;
		xr_diag_release(&d);
	}
	return 0;
}

/* --- factors and cells ------------------------------------------------ */

static int factor_find(struct loader *l, const char *name)
{
	int i;
	for (i = 0; i < l->nf; i++)
		if (!strcmp(l->f[i].name, name))
			return i;
	return -1;
}

static int level_add(struct loader *l, struct mfactor *f, const char *lv)
{
	int i;
	for (i = 0; i < f->n; i++)
		if (!strcmp(f->levels[i], lv))
			return i;
	if (f->n == f->cap) {
		const char **t;
		int cap = f->cap ? 2 * f->cap : 8;
		t = arena_alloc(l->m.a, (size_t)cap * sizeof *t);
		if (!t)
			return -1;
		if (f->n)
			memcpy(t, f->levels, (size_t)f->n * sizeof *t);
		f->levels = t;
		f->cap = cap;
	}
	f->levels[f->n] = arena_strdup(l->m.a, lv);
	return f->n++;
}

static void factors_from_plan(struct loader *l)
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

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;
	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

/* (Re)build the hash of cells by JSON with cap slots (a power of 2). */
static int hash_build(struct loader *l, size_t cap)
{
	size_t i;
	int *h = malloc(cap * sizeof *h);
	if (!h)
		return -1;
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
static int cell_find(struct loader *l, const char *json)
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

	i = cell_find(l, json);
	if (i >= 0)
		return i;
	if ((size_t)(r->ncells + 1) * 2 > l->hcap &&
	    hash_build(l, l->hcap ? 2 * l->hcap : 64) < 0)
		return -1;
	if (r->ncells == l->cap_cells) {
		int cap = l->cap_cells ? 2 * l->cap_cells : 16;
		struct report_cell *t =
		    realloc(r->cells, (size_t)cap * sizeof *t);
		if (!t)
			return -1;
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
		return -1;
	for (i = 0; i < MAX_FACTORS; i++)
		lv[i] = -1;
	o = json_loads(json, 0, NULL);
	if (json_is_object(o)) {
		json_object_foreach(o, key, v)
		{
			int f = factor_find(l, key);
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

static int load_runs(struct loader *l, struct xr_err *err)
{
	struct report *r = l->m.r;
	sqlite3_stmt *st;
	int rc, cap = 0, prep_rc;

	prep_rc = prep(l,
		       "SELECT id, session_id, warmup, cell, status, "
		       "started_at, ended_at, engine, target, params "
		       "FROM runs WHERE session_id IN %s "
		       "ORDER BY session_id, position",
		       &st, err, "runs");
	if (prep_rc)
		return prep_rc;
	r->first_run = r->last_run = NAN;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *status = (const char *)sqlite3_column_text(st, 4);
		const char *cell = (const char *)sqlite3_column_text(st, 3);
		struct mrun *u;
		struct report_cell *c;
		int ci;
		if (sqlite3_column_int(st, 2)) {
			r->runs_warmup++;
			continue;
		}
		if (l->m.nruns == cap) {
			struct mrun *t;
			cap = cap ? 2 * cap : 1024;
			t = realloc(l->m.runs, (size_t)cap * sizeof *t);
			if (!t)
				goto oom;
			l->m.runs = t;
		}
		ci = cell_get(l, cell ? cell : "{}");
		if (ci < 0)
			goto oom;
		u = &l->m.runs[l->m.nruns];
		u->id = sqlite3_column_int64(st, 0);
		u->session = sqlite3_column_int64(st, 1);
		u->gpos = l->m.nruns;
		u->start = col_real(st, 5);
		u->end = col_real(st, 6);
		u->cell = ci;
		c = &r->cells[ci];
		c->n_runs++;
		r->runs_total++;
		status = status ? status : "";
		if (!strcmp(status, "ok")) {
			u->status = MRUN_OK;
			c->n_ok++;
			r->runs_ok++;
			if (!c->engine && !c->target && !c->params) {
				c->engine = col_text(l, st, 7);
				c->target = col_text(l, st, 8);
				c->params = col_text(l, st, 9);
			}
		} else if (!strcmp(status, "failed")) {
			u->status = MRUN_FAILED;
			c->n_failed++;
			r->runs_failed++;
		} else if (!strcmp(status, "timeout")) {
			u->status = MRUN_TIMEOUT;
			c->n_timeout++;
			r->runs_timeout++;
		} else {
			u->status = MRUN_OTHER;
			c->n_other++;
			r->runs_other++;
		}
		if (!isnan(u->start) &&
		    (isnan(r->first_run) || u->start < r->first_run))
			r->first_run = u->start;
		if (!isnan(u->end) &&
		    (isnan(r->last_run) || u->end > r->last_run))
			r->last_run = u->end;
		if (u->status == MRUN_OK) {
			if (!isnan(u->start) && (isnan(c->first_start) ||
						 u->start < c->first_start))
				c->first_start = u->start;
			if (!isnan(u->end) &&
			    (isnan(c->last_end) || u->end > c->last_end))
				c->last_end = u->end;
		}
		l->m.nruns++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return sql_err(l, err, "runs");
	if (r->runs_ok + r->runs_failed + r->runs_timeout == 0)
		return xr_err_set(err, XR_EREPORT, r->db_path, 0, 0,
				  "no finished runs to report in '%s' "
				  "(%d scheduled, none ok or failed yet)",
				  r->db_path, r->runs_total);
	return 0;
oom:
	sqlite3_finalize(st);
	return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
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
static int sort_cells(struct loader *l)
{
	struct report *r = l->m.r;
	int *map, i;
	map = malloc(((size_t)r->ncells + 1) * sizeof *map);
	if (!map)
		return -1;
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

static int run_by_id(struct loader *l, int64_t id)
{
	int lo = 0, hi = l->m.nruns - 1;
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		int64_t v = l->m.runs[l->byid[mid]].id;
		if (v == id)
			return l->byid[mid];
		if (v < id)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

static int index_runs(struct loader *l)
{
	struct report *r = l->m.r;
	int i;
	l->byid = malloc(((size_t)l->m.nruns + 1) * sizeof *l->byid);
	l->m.mc = calloc((size_t)r->ncells + 1, sizeof *l->m.mc);
	if (!l->byid || !l->m.mc)
		return -1;
	for (i = 0; i < l->m.nruns; i++)
		l->byid[i] = i;
	id_ctx = l;
	qsort(l->byid, (size_t)l->m.nruns, sizeof *l->byid, cmp_byid);
	id_ctx = NULL;
	for (i = 0; i < l->m.nruns; i++) {
		struct mrun *u = &l->m.runs[i];
		struct mcell *c = &l->m.mc[u->cell];
		if (u->status != MRUN_OK)
			continue;
		if (c->nok == c->capok) {
			int cap = c->capok ? 2 * c->capok : 8;
			int *t = realloc(c->ok, (size_t)cap * sizeof *t);
			if (!t)
				return -1;
			c->ok = t;
			c->capok = cap;
		}
		if (!c->nok)
			c->session = u->session;
		c->ok[c->nok++] = i;
	}
	return 0;
}

/* --- metrics ---------------------------------------------------------- */

static int metric_index(struct loader *l, const char *name, const char *unit)
{
	struct report *r = l->m.r;
	int i;
	for (i = 0; i < r->nmetrics; i++)
		if (!strcmp(r->metrics[i], name))
			return i;
	if (r->nmetrics >= MAX_METRICS)
		return -1;
	i = r->nmetrics;
	r->metrics[i] = arena_strdup(l->m.a, name);
	r->metric_units[i] = arena_strdup(l->m.a, unit ? unit : "");
	l->m.vals[i] = malloc(((size_t)l->m.nruns + 1) * sizeof(double));
	if (!l->m.vals[i])
		return -1;
	{
		int k;
		for (k = 0; k < l->m.nruns; k++)
			l->m.vals[i][k] = NAN;
	}
	r->nmetrics++;
	return i;
}

static int load_metrics(struct loader *l, struct xr_err *err)
{
	struct report *r = l->m.r;
	sqlite3_stmt *st;
	int rc, i;
	r->metrics = arena_alloc(l->m.a, MAX_METRICS * sizeof *r->metrics);
	r->metric_units =
	    arena_alloc(l->m.a, MAX_METRICS * sizeof *r->metric_units);
	l->m.vals = calloc(MAX_METRICS, sizeof *l->m.vals);
	if (!r->metrics || !r->metric_units || !l->m.vals)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	for (i = 0; i < r->ncells; i++) {
		l->m.mc[i].unit =
		    arena_alloc(l->m.a, MAX_METRICS * sizeof(char *));
		l->m.mc[i].unit_mixed =
		    arena_alloc(l->m.a, MAX_METRICS * sizeof(int));
		if (!l->m.mc[i].unit || !l->m.mc[i].unit_mixed)
			return xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
					  "out of memory");
	}
	/* A plain scan joined in memory (run_by_id finds only the reported
	 * runs): a third of the time of an SQL join on 100,000 runs. */
	rc = prep(l, "SELECT run_id, name, value, unit FROM metrics", &st, err,
		  "metrics");
	if (rc)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int ri = run_by_id(l, sqlite3_column_int64(st, 0));
		const char *name = (const char *)sqlite3_column_text(st, 1);
		const char *unit = (const char *)sqlite3_column_text(st, 3);
		struct mcell *c;
		int mi;
		if (ri < 0 || !name || l->m.runs[ri].status != MRUN_OK)
			continue;
		mi = metric_index(l, name, unit);
		if (mi < 0)
			continue;
		l->m.vals[mi][ri] = sqlite3_column_double(st, 2);
		c = &l->m.mc[l->m.runs[ri].cell];
		if (!c->unit[mi])
			c->unit[mi] = r->metric_units[mi];
		if (strcmp(c->unit[mi], unit ? unit : ""))
			c->unit_mixed[mi] = 1;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return sql_err(l, err, "metrics");
	return 0;
}

static int choose_metric(struct loader *l, struct xr_err *err)
{
	struct report *r = l->m.r;
	const char *want = l->m.o->metric ? l->m.o->metric : "throughput";
	struct buf b = BUF_INIT;
	int i, rc;
	for (i = 0; i < r->nmetrics; i++)
		if (!strcmp(r->metrics[i], want))
			break;
	if (i < r->nmetrics) {
		r->primary = i;
		r->metric = r->metrics[i];
		return 0;
	}
	if (r->nmetrics && (l->m.o->metric || r->runs_ok)) {
		for (i = 0; i < r->nmetrics; i++)
			buf_addf(&b, "%s%s", i ? ", " : "", r->metrics[i]);
		/* An explicit --metric is a usage error; a store without the
		 * default metric is a report error. */
		rc = xr_err_set(err, l->m.o->metric ? XR_EUSAGE : XR_EREPORT,
				r->db_path, 0, 0,
				"unknown metric '%s' (present: %s)", want, b.s);
		buf_release(&b);
		return rc;
	}
	/* No metric at all (every run failed): report the runs anyway. */
	i = metric_index(l, want, want[0] == 't' ? "bit/s" : "");
	if (i < 0)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	r->primary = i;
	r->metric = r->metrics[i];
	return 0;
}

/* --- statistics ------------------------------------------------------- */

static void cell_stats(struct loader *l, int ci, int mi, double *tmp)
{
	struct report_stats *s = &l->m.r->cells[ci].st[mi];
	struct mcell *c = &l->m.mc[ci];
	int k, n = 0;
	s->metric = l->m.r->metrics[mi];
	s->unit = l->m.r->metric_units[mi];
	s->median = s->mean = s->sd = s->cv_pct = s->min = s->max = NAN;
	s->ci_low = s->ci_high = s->iv_p95 = s->iv_peak = NAN;
	for (k = 0; k < c->nok; k++) {
		double v = l->m.vals[mi][c->ok[k]];
		if (!isnan(v))
			tmp[n++] = v;
	}
	s->n = n;
	if (!n)
		return;
	s->mean = stats_mean(tmp, (size_t)n);
	s->sd = stats_sd(tmp, (size_t)n);
	stats_sort(tmp, (size_t)n);
	s->median = stats_quantile_sorted(tmp, (size_t)n, 0.5);
	s->min = tmp[0];
	s->max = tmp[n - 1];
	if (n >= 2) {
		double q = stats_t_quantile(0.975, n - 1);
		double h = q * s->sd / sqrt((double)n);
		s->ci_low = s->mean - h;
		s->ci_high = s->mean + h;
		if (s->mean != 0)
			s->cv_pct = 100 * s->sd / fabs(s->mean);
	}
}

/* Drift: log(y) against run order inside the cell; flagged when the
 * slope is significant and the fitted change from the first to the last
 * run exceeds the noise threshold. */
static void cell_drift(struct loader *l, int ci)
{
	struct mcell *c = &l->m.mc[ci];
	struct report *r = l->m.r;
	double X[2 * 256], y[256], beta[2], se[2], first = 0, last = 0;
	int k, n = 0;
	for (k = 0; k < c->nok && n < 256; k++) {
		double v = l->m.vals[r->primary][c->ok[k]];
		if (!(v > 0))
			continue;
		X[2 * n] = 1;
		X[2 * n + 1] = l->m.runs[c->ok[k]].gpos;
		if (!n)
			first = X[1];
		last = X[2 * n + 1];
		y[n++] = log(v);
	}
	if (n < 4 || stats_ols(X, (size_t)n, 2, y, beta, se, NULL) < 0)
		return;
	if (se[1] > 0 && stats_t_p2(beta[1] / se[1], n - 2) < 0.05) {
		double change = 100 * expm1(beta[1] * (last - first));
		if (fabs(change) > 100 * r->threshold)
			mb_flag(&l->m, r->cells[ci].flags, &r->cells[ci].nflags,
				REPORT_FLAG_DRIFT, "%+.1f%% first to last run",
				change);
	}
}

static int compute_stats(struct loader *l, struct xr_err *err)
{
	struct report *r = l->m.r;
	double *tmp = malloc(((size_t)l->m.nruns + 1) * sizeof *tmp);
	int ci, mi;
	if (!tmp)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	for (ci = 0; ci < r->ncells; ci++) {
		struct report_cell *c = &r->cells[ci];
		struct report_stats *s;
		c->st = arena_alloc(l->m.a,
				    (size_t)(r->nmetrics + 1) * sizeof *c->st);
		c->flags =
		    arena_alloc(l->m.a, REPORT_FLAG_COUNT * sizeof *c->flags);
		if (!c->st || !c->flags) {
			free(tmp);
			return xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
					  "out of memory");
		}
		for (mi = 0; mi < r->nmetrics; mi++)
			cell_stats(l, ci, mi, tmp);
		s = &c->st[r->primary];
		if (l->niv && l->niv[ci]) {
			stats_sort(l->iv[ci], (size_t)l->niv[ci]);
			s->n_intervals = l->niv[ci];
			s->iv_p95 = stats_quantile_sorted(
			    l->iv[ci], (size_t)l->niv[ci], 0.95);
			s->iv_peak = l->iv[ci][l->niv[ci] - 1];
		}
		if (c->n_failed || c->n_timeout)
			mb_flag(&l->m, c->flags, &c->nflags,
				REPORT_FLAG_FAILED_RUNS,
				"%d failed, %d timed out of %d", c->n_failed,
				c->n_timeout, c->n_runs);
		if (s->n < 3)
			mb_flag(&l->m, c->flags, &c->nflags,
				REPORT_FLAG_TOO_FEW_RUNS, "n=%d", s->n);
		if (!isnan(s->cv_pct) && s->cv_pct >= 10)
			mb_flag(&l->m, c->flags, &c->nflags,
				REPORT_FLAG_UNSTABLE, "CV %.1f%%", s->cv_pct);
		cell_drift(l, ci);
	}
	free(tmp);
	return 0;
}

/* --- intervals and counters ------------------------------------------- */

static int load_intervals(struct loader *l, struct xr_err *err)
{
	struct report *r = l->m.r;
	sqlite3_stmt *st;
	int rc;
	if (strcmp(r->metric, "throughput"))
		return 0; /* the series is the engine's primary metric */
	l->iv = calloc((size_t)r->ncells + 1, sizeof *l->iv);
	l->niv = calloc((size_t)r->ncells + 1, sizeof *l->niv);
	l->capiv = calloc((size_t)r->ncells + 1, sizeof *l->capiv);
	if (!l->iv || !l->niv || !l->capiv)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	rc = prep(l, "SELECT run_id, value FROM intervals", &st, err,
		  "intervals");
	if (rc)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int ri = run_by_id(l, sqlite3_column_int64(st, 0));
		int ci;
		if (ri < 0 || l->m.runs[ri].status != MRUN_OK)
			continue;
		ci = l->m.runs[ri].cell;
		if (l->niv[ci] == l->capiv[ci]) {
			int cap = l->capiv[ci] ? 2 * l->capiv[ci] : 64;
			double *t = realloc(l->iv[ci], (size_t)cap * sizeof *t);
			if (!t) {
				sqlite3_finalize(st);
				return xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
						  "out of memory");
			}
			l->iv[ci] = t;
			l->capiv[ci] = cap;
		}
		l->iv[ci][l->niv[ci]++] = sqlite3_column_double(st, 1);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sql_err(l, err, "intervals");
}

static int contains(const char *s, const char *sub)
{
	return strstr(s, sub) != NULL;
}

/* Which flag a counter raises (0 = none; else code + 1). */
static int counter_code(const char *scope, const char *name)
{
	if (!strcmp(scope, "capture"))
		return REPORT_FLAG_CAPTURE + 1;
	if (!strcmp(scope, "tcp"))
		return !strcmp(name, "RetransSegs")
			   ? REPORT_FLAG_RETRANSMITS + 1
			   : 0;
	if (strcmp(scope, "nic") && strcmp(scope, "ethtool"))
		return 0;
	if (contains(name, "pause") || contains(name, "flow_control") ||
	    contains(name, "xon") || contains(name, "xoff"))
		return REPORT_FLAG_PAUSE_FRAMES + 1;
	if (contains(name, "drop") || contains(name, "missed"))
		return REPORT_FLAG_RX_DROPS + 1;
	if (contains(name, "err"))
		return REPORT_FLAG_NIC_ERRORS + 1;
	return 0;
}

static int csum_add(struct loader *l, int cell, int code, const char *host,
		    const char *name, double v)
{
	int i;
	for (i = l->ncs - 1; i >= 0 && i >= l->ncs - 64; i--) {
		struct csum *c = &l->cs[i];
		if (c->cell == cell && c->code == code &&
		    !strcmp(c->host, host) && !strcmp(c->name, name)) {
			c->sum += v;
			return 0;
		}
	}
	for (i = 0; i < l->ncs; i++) {
		struct csum *c = &l->cs[i];
		if (c->cell == cell && c->code == code &&
		    !strcmp(c->host, host) && !strcmp(c->name, name)) {
			c->sum += v;
			return 0;
		}
	}
	if (l->ncs == l->capcs) {
		int cap = l->capcs ? 2 * l->capcs : 64;
		struct csum *t = realloc(l->cs, (size_t)cap * sizeof *t);
		if (!t)
			return -1;
		l->cs = t;
		l->capcs = cap;
	}
	l->cs[l->ncs].cell = cell;
	l->cs[l->ncs].code = code;
	l->cs[l->ncs].host = arena_strdup(l->m.a, host);
	l->cs[l->ncs].name = arena_strdup(l->m.a, name);
	l->cs[l->ncs].sum = v;
	l->ncs++;
	return 0;
}

static int load_counters(struct loader *l, struct xr_err *err)
{
	struct report *r = l->m.r;
	sqlite3_stmt *st;
	int rc, i, mi;
	/* Summed per cell, host and counter in SQL: few rows come back. */
	rc = prep(l,
		  "SELECT r.cell, c.host, c.scope, c.name, SUM(c.value) "
		  "FROM counters c JOIN runs r ON r.id = c.run_id "
		  "WHERE r.session_id IN %s AND r.status = 'ok' "
		  "AND r.warmup = 0 AND c.value > 0 "
		  "AND c.scope IN ('nic', 'ethtool', 'tcp', 'capture') "
		  "GROUP BY r.cell, c.host, c.scope, c.name",
		  &st, err, "counters");
	if (rc)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *cell = (const char *)sqlite3_column_text(st, 0);
		const char *host = (const char *)sqlite3_column_text(st, 1);
		const char *scope = (const char *)sqlite3_column_text(st, 2);
		const char *name = (const char *)sqlite3_column_text(st, 3);
		int code, ci;
		if (!cell || !host || !scope || !name)
			continue;
		code = counter_code(scope, name);
		if (!code)
			continue;
		ci = cell_find(l, cell);
		if (ci < 0)
			continue;
		if (csum_add(l, ci, code - 1, host, name,
			     sqlite3_column_double(st, 4)) < 0) {
			sqlite3_finalize(st);
			return xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
					  "out of memory");
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return sql_err(l, err, "counters");
	for (i = 0; i < l->ncs; i++) {
		struct csum *c = &l->cs[i];
		struct report_cell *cell = &r->cells[c->cell];
		if (c->code == REPORT_FLAG_CAPTURE)
			mb_flag(&l->m, cell->flags, &cell->nflags, c->code,
				"%s on %s", c->name, c->host);
		else
			mb_flag(&l->m, cell->flags, &cell->nflags, c->code,
				"%s=%.0f on %s", c->name, c->sum, c->host);
	}
	/* iperf3's own retransmit count, when it is a metric. */
	for (mi = 0; mi < r->nmetrics; mi++)
		if (!strcmp(r->metrics[mi], "retransmits"))
			break;
	if (mi < r->nmetrics)
		for (i = 0; i < r->ncells; i++) {
			struct report_cell *c = &r->cells[i];
			struct mcell *m = &l->m.mc[i];
			double sum = 0;
			int k;
			for (k = 0; k < m->nok; k++) {
				double v = l->m.vals[mi][m->ok[k]];
				if (v > 0)
					sum += v;
			}
			if (sum > 0)
				mb_flag(&l->m, c->flags, &c->nflags,
					REPORT_FLAG_RETRANSMITS,
					"%.0f retransmits in %d runs", sum,
					m->nok);
		}
	return 0;
}

/* --- verifications and facts ------------------------------------------ */

static int load_verifications(struct loader *l, struct xr_err *err)
{
	struct report *r = l->m.r;
	sqlite3_stmt *st;
	int rc, ci, f, cap = 0;
	l->m.ver = calloc((size_t)r->ncells * (size_t)(r->nfactors + 1) + 1,
			  sizeof *l->m.ver);
	if (!l->m.ver)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	rc = prep(l,
		  "SELECT r.cell, v.factor, v.ok, COUNT(*), "
		  "MIN(CASE WHEN v.ok = 0 THEN v.expected END), "
		  "MIN(CASE WHEN v.ok = 0 THEN v.actual END) "
		  "FROM verifications v JOIN runs r ON r.id = v.run_id "
		  "WHERE r.session_id IN %s AND r.status = 'ok' "
		  "AND r.warmup = 0 GROUP BY r.cell, v.factor, v.ok",
		  &st, err, "verifications");
	if (rc)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *cell = (const char *)sqlite3_column_text(st, 0);
		const char *fac = (const char *)sqlite3_column_text(st, 1);
		struct mverify *v;
		if (!cell || !fac)
			continue;
		ci = cell_find(l, cell);
		f = factor_find(l, fac);
		if (ci < 0 || f < 0 || f >= r->nfactors)
			continue;
		v = &l->m.ver[ci * r->nfactors + f];
		v->n += sqlite3_column_int(st, 3);
		if (!sqlite3_column_int(st, 2)) {
			v->bad += sqlite3_column_int(st, 3);
			v->expected = col_text(l, st, 4);
			v->actual = col_text(l, st, 5);
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return sql_err(l, err, "verifications");
	for (ci = 0; ci < r->ncells; ci++)
		for (f = 0; f < r->nfactors; f++) {
			struct mverify *v = &l->m.ver[ci * r->nfactors + f];
			struct report_cell *c = &r->cells[ci];
			if (v->bad)
				mb_flag(&l->m, c->flags, &c->nflags,
					REPORT_FLAG_VERIFY_FAILED,
					"%s: %d of %d runs, expected '%s', "
					"got '%s'",
					r->factors[f].name, v->bad, v->n,
					v->expected ? v->expected : "",
					v->actual ? v->actual : "");
		}
	/* The summary for the appendix. */
	rc = prep(l,
		  "SELECT v.factor, v.host, v.method, v.expected, v.actual, "
		  "v.ok, COUNT(*) FROM verifications v JOIN runs r "
		  "ON r.id = v.run_id WHERE r.session_id IN %s "
		  "AND r.warmup = 0 GROUP BY 1, 2, 3, 4, 5, 6 "
		  "ORDER BY 1, 2, 6, 4, 5",
		  &st, err, "verifications");
	if (rc)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW &&
	       r->nverifs < MAX_VERIFS) {
		struct report_verif *v;
		if (r->nverifs == cap) {
			struct report_verif *t;
			cap = cap ? 2 * cap : 16;
			t = arena_alloc(l->m.a, (size_t)cap * sizeof *t);
			if (!t) {
				sqlite3_finalize(st);
				return xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
						  "out of memory");
			}
			if (r->nverifs)
				memcpy(t, r->verifs,
				       (size_t)r->nverifs * sizeof *t);
			r->verifs = t;
		}
		v = &r->verifs[r->nverifs++];
		v->factor = col_text(l, st, 0);
		v->host = col_text(l, st, 1);
		v->method = col_text(l, st, 2);
		v->expected = col_text(l, st, 3);
		v->actual = col_text(l, st, 4);
		v->ok = sqlite3_column_int(st, 5);
		v->count = sqlite3_column_int(st, 6);
	}
	sqlite3_finalize(st);
	return 0;
}

static int load_facts(struct loader *l, struct xr_err *err)
{
	struct report *r = l->m.r;
	sqlite3_stmt *st;
	int rc, cap = 0, hcap = 0, i;
	rc = prep(l,
		  "SELECT session_id, host, key, value FROM host_facts "
		  "WHERE session_id IN %s ORDER BY host, key, session_id",
		  &st, err, "host facts");
	if (rc)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct report_fact *f;
		if (r->nfacts == cap) {
			struct report_fact *t;
			cap = cap ? 2 * cap : 32;
			t = arena_alloc(l->m.a, (size_t)cap * sizeof *t);
			if (!t)
				break;
			if (r->nfacts)
				memcpy(t, r->facts,
				       (size_t)r->nfacts * sizeof *t);
			r->facts = t;
		}
		f = &r->facts[r->nfacts++];
		f->session = sqlite3_column_int64(st, 0);
		f->host = col_text(l, st, 1);
		f->key = col_text(l, st, 2);
		f->value = col_text(l, st, 3);
		if (!f->host)
			f->host = "";
		for (i = 0; i < r->nhosts; i++)
			if (!strcmp(r->hosts[i], f->host))
				break;
		if (i == r->nhosts) {
			if (r->nhosts == hcap) {
				const char **t;
				hcap = hcap ? 2 * hcap : 8;
				t = arena_alloc(l->m.a,
						(size_t)hcap * sizeof *t);
				if (!t)
					break;
				if (r->nhosts)
					memcpy(t, r->hosts,
					       (size_t)r->nhosts * sizeof *t);
				r->hosts = t;
			}
			r->hosts[r->nhosts++] = f->host;
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return sql_err(l, err, "host facts");
	/* A capture seen when the session started counts for its cells. */
	for (i = 0; i < r->nfacts; i++) {
		const struct report_fact *f = &r->facts[i];
		int ci;
		if (strcmp(f->key, "capture_running") || !f->value ||
		    !*f->value || !strcmp(f->value, "no") ||
		    !strcmp(f->value, "0") || !strcmp(f->value, "false"))
			continue;
		for (ci = 0; ci < r->ncells; ci++)
			if (l->m.mc[ci].session == f->session)
				mb_flag(&l->m, r->cells[ci].flags,
					&r->cells[ci].nflags,
					REPORT_FLAG_CAPTURE, "%s on %s",
					f->value, f->host);
	}
	return 0;
}

/* --- display unit ----------------------------------------------------- */

static int display_unit(struct loader *l, struct xr_err *err)
{
	struct report *r = l->m.r;
	const char *base = r->metric_units[r->primary];
	const char *want = l->m.o->unit;
	double top = 0, factor;
	const char *ub;
	int i;
	if (!want && l->m.plan && l->m.plan->report.unit)
		want = l->m.plan->report.unit;
	if (want) {
		double conv = 1;
		if (units_metric(want, &factor, &ub) < 0)
			return xr_err_set(err, XR_EUSAGE, NULL, 0, 0,
					  "unknown unit '%s' (valid: Gbit/s, "
					  "Mbit/s, MB/s, GB/s, ms, ...)",
					  want);
		if (!strcmp(ub, "B/s") && !strcmp(base, "bit/s"))
			conv = 8;
		else if (!strcmp(ub, "bit/s") && !strcmp(base, "B/s"))
			conv = 1.0 / 8;
		else if (strcmp(ub, base) && *base)
			return xr_err_set(err, XR_EUSAGE, NULL, 0, 0,
					  "unit '%s' does not fit metric '%s' "
					  "measured in %s",
					  want, r->metric, base);
		r->display_unit = arena_strdup(l->m.a, want);
		r->display_scale = factor * conv;
		return 0;
	}
	for (i = 0; i < r->ncells; i++) {
		double m = r->cells[i].st[r->primary].median;
		if (!isnan(m) && fabs(m) > top)
			top = fabs(m);
	}
	r->display_scale = 1;
	r->display_unit = *base ? base : "";
	if (!strcmp(base, "bit/s") || !strcmp(base, "B/s")) {
		static const char *const bits[] = {"bit/s", "kbit/s", "Mbit/s",
						   "Gbit/s", "Tbit/s"};
		static const char *const bytes[] = {"B/s", "kB/s", "MB/s",
						    "GB/s", "TB/s"};
		int k = 0;
		int is_bits = base[1] == 'i';
		/* Gbit/s for network rates from 1 Gbit/s, Mbit/s below;
		 * MB/s for byte rates up to 10 GB/s (file copies). */
		while (k < 4 && top >= 1000 * r->display_scale *
					   (is_bits || k < 2 ? 1 : 10))
			r->display_scale *= 1000, k++;
		r->display_unit = is_bits ? bits[k] : bytes[k];
	} else if (!strcmp(base, "s") && top > 0 && top < 1) {
		r->display_unit = "ms";
		r->display_scale = 1e-3;
	}
	return 0;
}

/* --- the whole build -------------------------------------------------- */

static int fill_factors(struct loader *l, struct xr_err *err)
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

static void collect_notes(struct report *r, struct arena *a)
{
	int seen[REPORT_FLAG_COUNT] = {0};
	enum report_flag_code *notes;
	int i, k;
	for (i = 0; i < r->ncells; i++)
		for (k = 0; k < r->cells[i].nflags; k++)
			seen[r->cells[i].flags[k].code] = 1;
	for (i = 0; i < r->ncmps; i++) {
		for (k = 0; k < r->cmps[i].nreasons; k++)
			seen[r->cmps[i].reasons[k].code] = 1;
		for (k = 0; k < r->cmps[i].nwarnings; k++)
			seen[r->cmps[i].warnings[k].code] = 1;
	}
	notes = arena_alloc(a, REPORT_FLAG_COUNT * sizeof *notes);
	if (!notes)
		return;
	for (i = 0; i < REPORT_FLAG_COUNT; i++)
		if (seen[i])
			notes[r->nnotes++] = (enum report_flag_code)i;
	r->notes = notes;
}

static void loader_release(struct loader *l)
{
	int i;
	if (l->m.mc)
		for (i = 0; i < l->m.r->ncells; i++)
			free(l->m.mc[i].ok);
	free(l->m.mc);
	if (l->m.vals)
		for (i = 0; i < MAX_METRICS; i++)
			free(l->m.vals[i]);
	free(l->m.vals);
	free(l->m.runs);
	free(l->m.ver);
	free(l->hash);
	free(l->byid);
	if (l->iv)
		for (i = 0; i < l->m.r->ncells; i++)
			free(l->iv[i]);
	free(l->iv);
	free(l->niv);
	free(l->capiv);
	free(l->cs);
	buf_release(&l->in);
	if (l->m.plan)
		plan_free(l->m.plan);
	if (l->db)
		sqlite3_close(l->db);
}

int report_build(const char *db_path, const struct report_opts *o,
		 struct report **out, struct xr_err *err)
{
	static const struct report_opts defaults = {0};
	struct loader l;
	struct report *r;
	struct stat sb;
	int rc, lang;

	*out = NULL;
	if (!o)
		o = &defaults;
	if (stat(db_path, &sb) < 0)
		return xr_err_set(err, XR_EIO, db_path, 0, 0,
				  "cannot open store '%s': %s", db_path,
				  strerror(errno));
	memset(&l, 0, sizeof l);
	r = calloc(1, sizeof *r);
	if (!r || !(l.m.a = arena_new())) {
		free(r);
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	}
	r->arena = l.m.a;
	l.m.r = r;
	l.m.o = o;
	r->db_path = arena_strdup(l.m.a, db_path);
	r->generated_at = (double)time(NULL);
	if (sqlite3_open_v2(db_path, &l.db, SQLITE_OPEN_READONLY, NULL) !=
	    SQLITE_OK) {
		rc = xr_err_set(err, XR_ESTORE, db_path, 0, 0,
				"cannot open store '%s': %s", db_path,
				l.db ? sqlite3_errmsg(l.db) : "out of memory");
		goto fail;
	}
	sqlite3_busy_timeout(l.db, 5000);
	/* Reading a large store: map it instead of copying pages. */
	sqlite3_exec(l.db, "PRAGMA mmap_size = 1073741824", NULL, NULL, NULL);
	if ((rc = load_sessions(&l, err)) < 0)
		goto fail;
	lang = report_lang_parse(o->lang);
	if (lang < 0 && o->lang) {
		rc = xr_err_set(err, XR_EUSAGE, NULL, 0, 0,
				"unknown language '%s' (valid: en, ja)",
				o->lang);
		goto fail;
	}
	if (lang < 0 && l.m.plan && l.m.plan->report.lang)
		lang = report_lang_parse(l.m.plan->report.lang);
	r->lang = lang < 0 ? REPORT_LANG_EN : (enum report_lang)lang;
	r->threshold = o->threshold > 0 ? o->threshold
		       : l.m.plan && l.m.plan->report.threshold > 0
			   ? l.m.plan->report.threshold
			   : 0.01;
	if (o->title)
		r->title = arena_strdup(l.m.a, o->title);
	else if (l.m.plan && l.m.plan->title)
		r->title = arena_strdup(l.m.a, l.m.plan->title);
	if (!r->title || !*r->title)
		r->title = r->plan_name;
	factors_from_plan(&l);
	if ((rc = load_runs(&l, err)) < 0)
		goto fail;
	if (sort_cells(&l) < 0 || index_runs(&l) < 0) {
		rc = xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
		goto fail;
	}
	if ((rc = fill_factors(&l, err)) < 0 ||
	    (rc = load_metrics(&l, err)) < 0 ||
	    (rc = choose_metric(&l, err)) < 0 ||
	    (rc = load_intervals(&l, err)) < 0 ||
	    (rc = compute_stats(&l, err)) < 0 ||
	    (rc = load_counters(&l, err)) < 0 ||
	    (rc = load_verifications(&l, err)) < 0 ||
	    (rc = load_facts(&l, err)) < 0 || (rc = display_unit(&l, err)) < 0)
		goto fail;
	if ((rc = mb_tables(&l.m, err)) < 0 || (rc = mb_compare(&l.m, err)) < 0)
		goto fail;
	collect_notes(r, l.m.a);
	/* The cells array was grown with realloc: move it into the arena so
	 * that report_free releases one arena and the struct. */
	{
		struct report_cell *c =
		    arena_alloc(l.m.a, ((size_t)r->ncells + 1) * sizeof *c);
		if (!c) {
			rc = xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
					"out of memory");
			goto fail;
		}
		if (r->ncells)
			memcpy(c, r->cells, (size_t)r->ncells * sizeof *c);
		free(r->cells);
		r->cells = c;
	}
	loader_release(&l);
	*out = r;
	return 0;
fail:
	loader_release(&l);
	free(r->cells);
	arena_free(r->arena);
	free(r);
	return rc < 0 ? rc : -XR_EINTERNAL;
}

void report_free(struct report *r)
{
	if (!r)
		return;
	arena_free(r->arena);
	free(r);
}
