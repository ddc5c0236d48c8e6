/*
 * Builds the report model from the store's typed readers (store.h): opens
 * the store read-only, finds the sessions of one plan and loads the plan text
 * stored with them (factors, levels and the report configuration), loads
 * every metric of the ok runs and chooses the primary one, collects the
 * notes, and drives the rest of the build: cells and runs (model_cells.c),
 * per-cell statistics and flags (model_stats.c), comparisons and tables
 * (compare.c). When the plan text does not load, factors and levels come
 * from the cells' JSON. The model keeps each cell's run values for the
 * reference comparison, which sits above it (reports/reference). No step
 * calls back into this file: what they share sits in leaves below them
 * (model_flag.c, report_lookup.c, the loader's lookups in model_cells.c).
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arena.h"
#include "buf.h"
#include "model_loader.h"
#include "plan.h"
#include "store.h"
#include "banned.h"

/* --- sessions and plan ------------------------------------------------ */

/* The sessions of the newest session's plan (or the one asked for). */
struct session_scan {
	struct loader *l;
	const char *name, *text;
	int64_t *ids; /* newest first */
	int n, cap;
};

static int model_session_row(void *ctx, const struct store_session_row *s)
{
	struct session_scan *c = ctx;
	struct loader *l = c->l;
	struct report *r = l->m.r;
	if (l->m.o->session > 0 && s->id != l->m.o->session)
		return 0;
	if (!c->name) {
		c->name =
		    arena_strdup(l->m.a, s->plan_name ? s->plan_name : "");
		r->about.title = arena_strdup(l->m.a, s->plan_title);
		r->about.plan_hash = arena_strdup(l->m.a, s->plan_hash);
		c->text = arena_strdup(l->m.a, s->plan_text);
	} else if (!s->plan_name || strcmp(s->plan_name, c->name)) {
		return 0; /* another plan's sessions */
	}
	if (c->n == c->cap) {
		int cap = c->cap ? 2 * c->cap : 8;
		int64_t *t = realloc(c->ids, (size_t)cap * sizeof *t);
		if (!t)
			return loader_oom(l);
		c->ids = t;
		c->cap = cap;
	}
	c->ids[c->n++] = s->id;
	return 0;
}

static int load_sessions(struct loader *l, struct xr_err *err)
{
	struct report *r = l->m.r;
	struct session_scan c = {l, NULL, NULL, NULL, 0, 0};
	int n, rc;

	if ((rc = store_sessions_each(l->st, model_session_row, &c, err)) < 0) {
		free(c.ids);
		return rc;
	}
	n = c.n;
	if (!n) {
		free(c.ids);
		if (l->m.o->session > 0)
			return xr_err_set(err, XR_EREPORT, r->about.db_path, 0,
					  0, "no session %lld in '%s'",
					  (long long)l->m.o->session,
					  r->about.db_path);
		return xr_err_set(err, XR_EREPORT, r->about.db_path, 0, 0,
				  "no runs to report in '%s' (run the plan "
				  "first: xrun run PLAN)",
				  r->about.db_path);
	}
	/* Oldest first. */
	{
		int64_t *s = arena_alloc(l->m.a, (size_t)n * sizeof *s);
		int i;
		if (!s) {
			free(c.ids);
			return xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
					  "out of memory");
		}
		for (i = 0; i < n; i++)
			s[i] = c.ids[n - 1 - i];
		r->span.sessions = s;
		r->span.nsessions = n;
	}
	free(c.ids);
	r->about.plan_name = c.name;
	if (c.text) {
		struct xr_diag d;
		xr_diag_init(&d, c.name);
		if (plan_load_mem(c.name, c.text, strlen(c.text), NULL,
				  &l->m.plan, &d) < 0)
			l->m.plan = NULL;
		xr_diag_release(&d);
	}
	return 0;
}

/* --- metrics ---------------------------------------------------------- */

/* The index of metric name, added on first sight; -XR_EREPORT past
 * MAX_METRICS, -XR_ENOMEM. */
static int metric_index(struct loader *l, const char *name, const char *unit)
{
	struct report *r = l->m.r;
	int i;
	for (i = 0; i < r->met.nmetrics; i++)
		if (!strcmp(r->met.metrics[i], name))
			return i;
	if (r->met.nmetrics >= MAX_METRICS)
		return -XR_EREPORT;
	i = r->met.nmetrics;
	r->met.metrics[i] = arena_strdup(l->m.a, name);
	r->met.metric_units[i] = arena_strdup(l->m.a, unit ? unit : "");
	l->m.vals[i] = malloc(((size_t)l->m.nruns + 1) * sizeof(double));
	if (!l->m.vals[i])
		return -XR_ENOMEM;
	{
		int k;
		for (k = 0; k < l->m.nruns; k++)
			l->m.vals[i][k] = NAN;
	}
	r->met.nmetrics++;
	return i;
}

/* c's unit arrays grown to hold metric mi (zeroed past the old). */
static int unit_grow(struct loader *l, struct mcell *c, int mi)
{
	int cap = c->ucap ? 2 * c->ucap : 2, k;
	const char **u;
	int *mx;
	while (cap <= mi)
		cap *= 2;
	u = arena_alloc(l->m.a, (size_t)cap * sizeof *u);
	mx = arena_alloc(l->m.a, (size_t)cap * sizeof *mx);
	if (!u || !mx)
		return -XR_ENOMEM;
	for (k = 0; k < c->ucap; k++) {
		u[k] = c->unit[k];
		mx[k] = c->unit_mixed[k];
	}
	c->unit = u;
	c->unit_mixed = mx;
	c->ucap = cap;
	return 0;
}

static int metric_row(void *ctx, const struct store_metric_row *m)
{
	struct loader *l = ctx;
	int ri = loader_run_by_id(l, m->run_id);
	const char *unit = m->unit ? m->unit : "";
	struct mcell *c;
	int mi;
	if (ri < 0 || !m->name || l->m.runs[ri].status != RUN_OK)
		return 0;
	mi = metric_index(l, m->name, unit);
	if (mi < 0)
		return 0;
	l->m.vals[mi][ri] = m->value;
	c = &l->m.mc[l->m.runs[ri].cell];
	if (mi >= c->ucap && unit_grow(l, c, mi) < 0)
		return loader_oom(l);
	/* the cell's own first unit: unit_differs compares the cells' */
	if (!c->unit[mi])
		c->unit[mi] = arena_strdup(l->m.a, unit);
	if (!c->unit[mi])
		return loader_oom(l);
	if (strcmp(c->unit[mi], unit))
		c->unit_mixed[mi] = 1;
	return 0;
}

static int load_metrics(struct loader *l, struct xr_err *err)
{
	struct report *r = l->m.r;
	r->met.metrics =
	    arena_alloc(l->m.a, MAX_METRICS * sizeof *r->met.metrics);
	r->met.metric_units =
	    arena_alloc(l->m.a, MAX_METRICS * sizeof *r->met.metric_units);
	l->m.vals = calloc(MAX_METRICS, sizeof *l->m.vals);
	if (!r->met.metrics || !r->met.metric_units || !l->m.vals)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	/* Every metric, joined in memory: run_by_id finds only the reported
	 * runs. */
	return store_metrics_each(l->st, metric_row, l, err);
}

/* The declared metrics without values (model_gaps.c), each with its why
 * in the report's language. */
static int loader_gaps(struct loader *l, struct xr_err *err)
{
	struct report *r = l->m.r;
	struct report_gap *g;
	int i, n, rc;
	rc = report_metric_gaps(l->st, l->m.plan, r->span.sessions,
				(size_t)r->span.nsessions, l->m.a, &g, &n, err);
	if (rc < 0)
		return rc;
	for (i = 0; i < n; i++)
		if (!(g[i].text = report_gap_why(r->about.lang, &g[i], l->m.a)))
			return xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
					  "out of memory");
	r->gaps = g;
	r->ngaps = n;
	return 0;
}

/* --metric NAME on a declared metric without values: why, not "unknown
 * metric" (issue 35); the same line as the end of `xrun run`. NULL when
 * want is no such metric. */
static const char *gap_named(struct loader *l, const char *want)
{
	const struct report *r = l->m.r;
	int i;
	for (i = 0; i < r->ngaps; i++)
		if (!strcmp(r->gaps[i].metric, want))
			return report_gap_line(REPORT_LANG_EN, &r->gaps[i],
					       l->m.a);
	return NULL;
}

static int choose_metric(struct loader *l, struct xr_err *err)
{
	struct report *r = l->m.r;
	const char *want = l->m.o->metric ? l->m.o->metric : "throughput";
	const char *gap;
	struct buf b = BUF_INIT;
	int i, rc;
	/* Without --metric and without a throughput, the plan's first
	 * declared metric (a command engine measuring something else). */
	if (!l->m.o->metric && report_metric_index(r, want) < 0) {
		const struct plan *p = l->m.plan;
		if (p && p->engine.nmetrics &&
		    report_metric_index(r, p->engine.metrics[0].name) >= 0)
			want = p->engine.metrics[0].name;
		else if (r->met.nmetrics)
			want = r->met.metrics[0];
	}
	for (i = 0; i < r->met.nmetrics; i++)
		if (!strcmp(r->met.metrics[i], want))
			break;
	if (i < r->met.nmetrics) {
		r->met.primary = i;
		r->met.metric = r->met.metrics[i];
		return 0;
	}
	if (l->m.o->metric && (gap = gap_named(l, want))) {
		for (i = 0; i < r->met.nmetrics; i++)
			buf_addf(&b, "%s%s", i ? ", " : "", r->met.metrics[i]);
		rc = xr_err_set(err, XR_EUSAGE, r->about.db_path, 0, 0,
				"%s%s%s%s", gap, b.len ? " (present: " : "",
				b.len ? b.s : "", b.len ? ")" : "");
		buf_release(&b);
		return rc;
	}
	if (r->met.nmetrics && (l->m.o->metric || r->counts.ok)) {
		for (i = 0; i < r->met.nmetrics; i++)
			buf_addf(&b, "%s%s", i ? ", " : "", r->met.metrics[i]);
		/* An explicit --metric is a usage error; a store without the
		 * default metric is a report error. */
		rc = xr_err_set(err, l->m.o->metric ? XR_EUSAGE : XR_EREPORT,
				r->about.db_path, 0, 0,
				"unknown metric '%s' (present: %s)", want, b.s);
		buf_release(&b);
		return rc;
	}
	/* No metric at all (every run failed): report the runs anyway. */
	i = metric_index(l, want, want[0] == 't' ? "bit/s" : "");
	if (i < 0)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	r->met.primary = i;
	r->met.metric = r->met.metrics[i];
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
	free(l->hash);
	free(l->byid);
	free(l->rf_first);
	free(l->rf_set);
	if (l->iv)
		for (i = 0; i < l->m.r->ncells; i++)
			free(l->iv[i]);
	free(l->iv);
	free(l->niv);
	free(l->capiv);
	free(l->cs);
	loader_series_release(l);
	if (l->m.plan)
		plan_free(l->m.plan);
	store_close(l->st);
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
	r->about.lang = lang < 0 ? REPORT_LANG_EN : (enum report_lang)lang;
	r->met.threshold = o->threshold > 0 ? o->threshold
			   : plan && plan->report.threshold > 0
			       ? plan->report.threshold
			       : 0.01;
	r->met.adjust = REPORT_ADJUST_NONE;
	if (o->adjust) {
		size_t i;
		for (i = 0; report_adjust_name(i); i++)
			if (!strcmp(report_adjust_name(i), o->adjust))
				r->met.adjust = (enum report_adjust)i;
	}
	if (o->title)
		r->about.title = arena_strdup(l->m.a, o->title);
	else if (plan && plan->title)
		r->about.title = arena_strdup(l->m.a, plan->title);
	if (!r->about.title || !*r->about.title)
		r->about.title = r->about.plan_name;
	/* The plan's free-text description, without the final newline a
	 * YAML block scalar leaves. */
	if (plan && plan->description && *plan->description) {
		char *d = arena_strdup(l->m.a, plan->description);
		size_t n = d ? strlen(d) : 0;
		while (n && strchr(" \t\r\n", d[n - 1]))
			d[--n] = 0;
		r->about.description = n ? d : NULL;
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

/* Each cell's ok-run values of every metric, in run order (NaN when a run
 * has none), and the plan's engine duration: kept in the model for the
 * layers that judge it against other numbers (reports/reference). */
static int keep_values(struct model_build *m, struct xr_err *err)
{
	struct report *r = m->r;
	int ci, mi, i;
	r->met.engine_duration = m->plan ? m->plan->engine.duration : 0;
	if (!m->mc || !m->vals)
		return 0;
	for (ci = 0; ci < r->ncells; ci++) {
		const struct mcell *mc = &m->mc[ci];
		struct report_cell *c = &r->cells[ci];
		double **v = arena_alloc(
		    r->arena, ((size_t)r->met.nmetrics + 1) * sizeof *v);
		if (!v)
			return xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
					  "out of memory");
		for (mi = 0; mi < r->met.nmetrics; mi++) {
			v[mi] = arena_alloc(r->arena,
					    ((size_t)mc->nok + 1) * sizeof **v);
			if (!v[mi])
				return xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
						  "out of memory");
			for (i = 0; i < mc->nok; i++)
				v[mi][i] = m->vals[mi][mc->ok[i]];
		}
		c->vals = (const double *const *)v;
		c->nvals = mc->nok;
	}
	return 0;
}

int report_build(const char *db_path, const struct report_opts *o,
		 struct report **out, struct xr_err *err)
{
	static const struct report_opts defaults = {0};
	struct loader l;
	struct report *r;
	int rc;

	*out = NULL;
	if (!o)
		o = &defaults;
	memset(&l, 0, sizeof l);
	/* Read-only: no lock (it works while xrun runs) and no write (it
	 * works on a read-only file system). */
	if ((rc = store_open(db_path, STORE_READONLY, &l.st, err)) < 0)
		return rc;
	r = calloc(1, sizeof *r);
	if (!r || !(l.m.a = arena_new())) {
		free(r);
		store_close(l.st);
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	}
	r->arena = l.m.a;
	l.m.r = r;
	l.m.o = o;
	l.err = err;
	r->about.db_path = arena_strdup(l.m.a, db_path);
	r->about.generated_at = (double)time(NULL);
	if ((rc = load_sessions(&l, err)) < 0 ||
	    (rc = model_recut_plan(&l.m, err)) < 0)
		goto fail;
	if ((rc = apply_options(&l, err)) < 0)
		goto fail;
	if (model_recut_note(&l.m) < 0) {
		rc = xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
		goto fail;
	}
	loader_factors_from_plan(&l);
	if ((rc = loader_runs(&l, err)) < 0)
		goto fail;
	if (loader_sort_cells(&l) < 0 || loader_index_runs(&l) < 0) {
		rc = xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
		goto fail;
	}
	if ((rc = loader_fill_factors(&l, err)) < 0 ||
	    (rc = load_metrics(&l, err)) < 0 ||
	    (rc = loader_gaps(&l, err)) < 0 ||
	    (rc = choose_metric(&l, err)) < 0 ||
	    (rc = loader_intervals(&l, err)) < 0 ||
	    (rc = loader_series(&l, err)) < 0 ||
	    (rc = loader_stats(&l, err)) < 0 ||
	    (rc = loader_sizing(&l, err)) < 0 ||
	    (rc = loader_counters(&l, err)) < 0 ||
	    (rc = loader_verifications(&l, err)) < 0 ||
	    (rc = loader_facts(&l, err)) < 0 ||
	    (rc = loader_fact_sets(&l, err)) < 0 ||
	    (rc = loader_observed(&l, err)) < 0 ||
	    (rc = loader_conditions(&l, err)) < 0 ||
	    (rc = loader_session_info(&l, err)) < 0 ||
	    (rc = loader_progress(&l, err)) < 0 ||
	    (rc = loader_display_unit(&l, err)) < 0 ||
	    (rc = loader_search(&l, err)) < 0)
		goto fail;
	if ((rc = model_tables(&l.m, err)) < 0 ||
	    (rc = model_compare(&l.m, err)) < 0)
		goto fail;
	collect_notes(r, l.m.a);
	if ((rc = cells_into_arena(r, err)) < 0)
		goto fail;
	if ((rc = keep_values(&l.m, err)) < 0 ||
	    (rc = loader_run_list(&l, err)) < 0)
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
