/*
 * Builds the report model from the store (schema/store.sql): opens the
 * store read-only, finds the sessions of one plan and loads the plan text
 * stored with them (factors, levels and the report configuration), loads
 * every metric of the ok runs and chooses the primary one, collects the
 * notes, and drives the rest of the build: cells and runs (model_cells.c),
 * per-cell statistics and flags (model_stats.c), comparisons and tables
 * (compare.c). When the plan text does not load, factors and levels come
 * from the cells' JSON.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

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
		if (plan_load_mem(name, text, strlen(text), NULL, &l->m.plan,
				  &d) < 0)
			l->m.plan = NULL;
		xr_diag_release(&d);
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

int report_metric_index(const struct report *r, const char *name)
{
	int i;
	for (i = 0; name && i < r->nmetrics; i++)
		if (!strcmp(r->metrics[i], name))
			return i;
	return -1;
}

int report_factor_index(const struct report *r, const char *name)
{
	int i;
	for (i = 0; name && i < r->nfactors; i++)
		if (!strcmp(r->factors[i].name, name))
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
	if (!l->m.o->metric && report_metric_index(r, want) < 0) {
		const struct plan *p = l->m.plan;
		if (p && p->engine.nmetrics &&
		    report_metric_index(r, p->engine.metrics[0].name) >= 0)
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

/* Language, threshold, title and description: the options, else the
 * stored plan's, else the defaults. 0 or -XR_EUSAGE (unknown language). */
static int apply_options(struct loader *l, struct xr_err *err)
{
	const struct report_opts *o = l->m.o;
	const struct plan *plan = l->m.plan;
	struct report *r = l->m.r;
	int lang = report_lang_parse(o->lang);

	if (lang < 0 && o->lang)
		return xr_err_set(err, XR_EUSAGE, NULL, 0, 0,
				  "unknown language '%s' (valid: en, ja)",
				  o->lang);
	if (lang < 0 && plan && plan->report.lang)
		lang = report_lang_parse(plan->report.lang);
	r->lang = lang < 0 ? REPORT_LANG_EN : (enum report_lang)lang;
	r->threshold = o->threshold > 0 ? o->threshold
		       : plan && plan->report.threshold > 0
			   ? plan->report.threshold
			   : 0.01;
	if (o->title)
		r->title = arena_strdup(l->m.a, o->title);
	else if (plan && plan->title)
		r->title = arena_strdup(l->m.a, plan->title);
	if (!r->title || !*r->title)
		r->title = r->plan_name;
	/* The plan's free-text description, without the final newline a
	 * YAML block scalar leaves. */
	if (plan && plan->description && *plan->description) {
		char *d = arena_strdup(l->m.a, plan->description);
		size_t n = d ? strlen(d) : 0;
		while (n && strchr(" \t\r\n", d[n - 1]))
			d[--n] = 0;
		r->description = n ? d : NULL;
	}
	return 0;
}

/* The cells array was grown with realloc: move it into the arena so that
 * report_free releases one arena and the struct. 0 or -XR_ENOMEM. */
static int cells_into_arena(struct report *r, struct xr_err *err)
{
	struct report_cell *c =
	    arena_alloc(r->arena, ((size_t)r->ncells + 1) * sizeof *c);
	if (!c)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	if (r->ncells)
		memcpy(c, r->cells, (size_t)r->ncells * sizeof *c);
	free(r->cells);
	r->cells = c;
	return 0;
}

int report_build(const char *db_path, const struct report_opts *o,
		 struct report **out, struct xr_err *err)
{
	static const struct report_opts defaults = {0};
	struct loader l;
	struct report *r;
	struct stat sb;
	int rc;

	*out = NULL;
	if (!o)
		o = &defaults;
	/* The same words as store_open() (runner/store/store.c) for `xrun
	 * status`: usually the plan has not been run yet, or not from here. */
	if (stat(db_path, &sb) < 0)
		return xr_err_set(err, XR_EIO, db_path, 0, 0,
				  "no store here (%s); run the plan first, or "
				  "name it with PLAN or --db FILE",
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
	if ((rc = apply_options(&l, err)) < 0)
		goto fail;
	ml_factors_from_plan(&l);
	if ((rc = ml_load_runs(&l, err)) < 0)
		goto fail;
	if (ml_sort_cells(&l) < 0 || ml_index_runs(&l) < 0) {
		rc = xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
		goto fail;
	}
	if ((rc = ml_fill_factors(&l, err)) < 0 ||
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
	if ((rc = cells_into_arena(r, err)) < 0)
		goto fail;
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
