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
#include "store.h"
#include "banned.h"

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

int ml_sql_err(struct loader *l, struct xr_err *err, const char *what)
{
	return xr_err_set(err, XR_ESTORE, l->m.r->db_path, 0, 0,
			  "cannot read %s from the store: %s", what,
			  sqlite3_errmsg(l->db));
}

int ml_prep(struct loader *l, const char *fmt, sqlite3_stmt **st,
	    struct xr_err *err, const char *what)
{
	struct buf q = BUF_INIT;
	int rc;
	/* The only substitution is the sessions list built from integers. */
	buf_addf(&q, fmt, l->in.s, l->in.s);
	rc = sqlite3_prepare_v2(l->db, q.s, -1, st, NULL);
	buf_release(&q);
	if (rc != SQLITE_OK)
		return ml_sql_err(l, err, what);
	return 0;
}

const char *ml_col_text(struct loader *l, sqlite3_stmt *st, int i)
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
			r->title = ml_col_text(l, st, 2);
			r->plan_hash = ml_col_text(l, st, 3);
			text = ml_col_text(l, st, 4);
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
		return ml_sql_err(l, err, "sessions");
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

int ml_factor_find(struct loader *l, const char *name)
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
int ml_cell_find(struct loader *l, const char *json)
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

	i = ml_cell_find(l, json);
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
			int f = ml_factor_find(l, key);
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

	prep_rc = ml_prep(l,
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
				c->engine = ml_col_text(l, st, 7);
				c->target = ml_col_text(l, st, 8);
				c->params = ml_col_text(l, st, 9);
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
		return ml_sql_err(l, err, "runs");
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

int ml_run_by_id(struct loader *l, int64_t id)
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
	rc = ml_prep(l, "SELECT run_id, name, value, unit FROM metrics", &st,
		     err, "metrics");
	if (rc)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int ri = ml_run_by_id(l, sqlite3_column_int64(st, 0));
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
		return ml_sql_err(l, err, "metrics");
	return 0;
}

static int metric_find(const struct report *r, const char *name)
{
	int i;
	for (i = 0; name && i < r->nmetrics; i++)
		if (!strcmp(r->metrics[i], name))
			return i;
	return -1;
}

static int choose_metric(struct loader *l, struct xr_err *err)
{
	struct report *r = l->m.r;
	const char *want = l->m.o->metric ? l->m.o->metric : "throughput";
	struct buf b = BUF_INIT;
	int i, rc;
	/* Without --metric and without a throughput, the plan's first
	 * declared metric (a command engine measuring something else). */
	if (!l->m.o->metric && metric_find(r, want) < 0) {
		const struct plan *p = l->m.plan;
		if (p && p->engine.nmetrics &&
		    metric_find(r, p->engine.metrics[0].name) >= 0)
			want = p->engine.metrics[0].name;
		else if (r->nmetrics)
			want = r->metrics[0];
	}
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
	{
		sqlite3_stmt *uv = NULL;
		int v = -1;
		if (sqlite3_prepare_v2(l.db, "PRAGMA user_version", -1, &uv,
				       NULL) == SQLITE_OK &&
		    sqlite3_step(uv) == SQLITE_ROW)
			v = sqlite3_column_int(uv, 0);
		sqlite3_finalize(uv);
		if (v > STORE_SCHEMA_VERSION) {
			rc = xr_err_set(err, XR_ESTORE, db_path, 0, 0,
					"store '%s' has schema version %d, "
					"newer than this xrun reads (%d); "
					"use a newer xrun",
					db_path, v, STORE_SCHEMA_VERSION);
			goto fail;
		}
	}
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
	    (rc = ml_intervals(&l, err)) < 0 || (rc = ml_stats(&l, err)) < 0 ||
	    (rc = ml_counters(&l, err)) < 0 ||
	    (rc = ml_verifications(&l, err)) < 0 ||
	    (rc = ml_facts(&l, err)) < 0 || (rc = ml_display_unit(&l, err)) < 0)
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
	if (o->reference &&
	    (rc = report_reference_attach(r, o->reference, o->diag, err)) < 0)
		goto fail_cells_in_arena;
	loader_release(&l);
	*out = r;
	return 0;
fail:
	free(r->cells);
fail_cells_in_arena:
	loader_release(&l);
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
