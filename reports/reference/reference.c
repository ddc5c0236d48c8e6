/*
 * Reading a reference (schema/reference.md): after its settings
 * (reference_settings.c), the header and one row per published value, grouped
 * into published cells (rows with the same levels are that cell's published
 * runs). Its columns are bound to a store's factors and metrics, a plan's
 * factors, or nothing (ref_bind). Every problem of the file is reported with
 * its line and column, all at once; the report is not written when there is an
 * error. Matching to cells: reference_match.c; verdicts:
 * reference_verdict.c.
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "buf.h"
#include "oom.h"
#include "reference_int.h"
#include "suggest.h"
#include "units.h"
#include "banned.h"

#define REF_MAX_BYTES (16u << 20)

static void list_names(struct buf *b, const char *const *names, int n,
		       size_t stride)
{
	int i;
	for (i = 0; i < n; i++) {
		const char *s =
		    *(const char *const *)((const char *)names + i * stride);
		buf_addf(b, "%s%s", i ? ", " : "", s);
	}
	if (!n)
		buf_adds(b, "none");
}

static int read_file(const char *path, struct buf *b, struct xr_err *err)
{
	int rc = buf_read_file(b, path, REF_MAX_BYTES);
	if (rc == -XR_ENOMEM && b->truncated)
		return xr_err_set(err, XR_EUSAGE, path, 0, 0,
				  "reference file is larger than "
				  "16 MiB");
	if (rc == -XR_ENOMEM)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	if (rc < 0)
		return xr_err_set(err, XR_EIO, path, 0, 0,
				  "cannot read reference '%s': %s", path,
				  strerror(errno));
	if (memchr(b->s ? b->s : "", 0, b->len))
		return xr_err_set(err, XR_EUSAGE, path, 0, 0,
				  "reference is not a text file (NUL byte)");
	return 0;
}

/* Copy the first error of d into err. */
static int first_error(struct xr_diag *d, const char *path, struct xr_err *err)
{
	size_t i, best = (size_t)-1;
	for (i = 0; i < d->n; i++)
		if (!d->items[i].is_warning &&
		    (best == (size_t)-1 ||
		     d->items[i].line < d->items[best].line))
			best = i;
	if (best == (size_t)-1)
		return 0;
	return xr_err_set(err, XR_EUSAGE, path, d->items[best].line,
			  d->items[best].col, "%s", d->items[best].msg);
}

/* The reference metric is in the store and the unit fits it. */
static void check_metric(struct ref_read *rr)
{
	const struct report *r = rr->r;
	int mi = report_metric_index(r, rr->metric);
	if (mi < 0) {
		struct buf b = BUF_INIT;
		list_names(&b, r->met.metrics, r->met.nmetrics, sizeof(char *));
		xr_diag_add(
		    rr->d, 0, rr->metric_line ? rr->metric_line : rr->hdr->line,
		    rr->metric_line ? rr->metric_col : 1,
		    "metric '%s'%s is not in the store "
		    "(present: %s)",
		    rr->metric, rr->metric_line ? "" : " (the default)", b.s);
		buf_release(&b);
	} else if (ref_unit_factor(r, mi, rr->unit, &rr->factor) < 0) {
		xr_diag_add(
		    rr->d, 0, rr->unit_line ? rr->unit_line : rr->hdr->line,
		    rr->unit_line ? rr->unit_col : 1,
		    "unit '%s'%s does not fit metric '%s' (stored in "
		    "%s; known units: bit/s, Mbit/s, Gbit/s, B/s, "
		    "MB/s, GB/s, s, ms, us, %%, count, ...)",
		    rr->unit, rr->unit_line ? "" : " (the default)", rr->metric,
		    r->met.metric_units[mi] && *r->met.metric_units[mi]
			? r->met.metric_units[mi]
			: "1");
	}
}

/* Is name one of the blank-separated words of list? */
static int in_word_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;
	while (p && *p) {
		size_t w;
		p += strspn(p, " \t");
		w = strcspn(p, " \t");
		if (w == n && n && !strncmp(p, name, n))
			return 1;
		p += w;
	}
	return 0;
}

/* A new factor of the unbound report (REF_BIND_FREE): its index. */
static int add_free_factor(struct ref_read *rr, const char *name)
{
	struct report *r = rr->r;
	struct report_factor *f = &r->factors[r->nfactors];
	memset(f, 0, sizeof *f);
	f->name = name;
	return r->nfactors++;
}

/* A column that names no factor, without a store to say which metrics
 * exist: with a plan (REF_BIND_PLAN) a non-numeric one is an error (with
 * the closest factor), a numeric one is taken for an extra metric unless
 * it is close to a factor's name (a warning); without (REF_BIND_FREE)
 * every column is a factor except the metric names given. */
static enum ref_col classify_unbound(struct ref_read *rr, int j, int numeric)
{
	const struct report *r = rr->r;
	const struct ref_record *hdr = rr->hdr;
	const char *name = hdr->f[j].s, *best;
	struct suggest sg;
	int k;
	if (rr->bind == REF_BIND_FREE) {
		/* a published metric: read as numbers in its unit, never a
		 * factor (xrun's own names: latency.*, the series) */
		int metric = ref_xrun_metric(name) ||
			     in_word_list(rr->extra_metrics, name);
		for (k = 0; rr->free_metrics && rr->free_metrics[k]; k++)
			metric |= !strcmp(rr->free_metrics[k], name);
		if (metric) {
			ref_col_scale(rr, j, -1);
			return REF_COL_METRIC;
		}
		rr->col_factor[j] = add_free_factor(rr, name);
		rr->ref->nfactors++;
		return REF_COL_FACTOR;
	}
	suggest_init(&sg, name, 0);
	for (k = 0; k < r->nfactors; k++)
		suggest_add(&sg, r->factors[k].name);
	best = suggest_best(&sg);
	if (!numeric)
		xr_diag_add(
		    rr->d, 0, hdr->line, hdr->f[j].col,
		    "unknown column '%s': not a factor of the plan%s%s%s", name,
		    best ? " (did you mean '" : "", best ? best : "",
		    best ? "'?)" : "");
	else if (best)
		xr_diag_add(rr->d, 1, hdr->line, hdr->f[j].col,
			    "column '%s' is not a factor of the plan (did you "
			    "mean '%s'?): taken for a published metric",
			    name, best);
	if (numeric)
		ref_col_scale(rr, j, -1); /* its unit is known, at least */
	return REF_COL_SKIP;
}

/* Which columns hold only numbers (or nothing) in every row: rr->numeric,
 * from a reading of the rows without their problems (said when they are
 * read), the position restored after. 0 or -XR_ENOMEM. */
static int numeric_columns(struct ref_read *rr)
{
	struct ref_csv *c = &rr->csv;
	const char *p = c->p;
	struct xr_diag *d = c->d;
	struct ref_record w;
	int line = c->line, rc, j;
	rr->numeric = arena_alloc(rr->a, (size_t)rr->hdr->n + 1);
	if (!rr->numeric)
		return -XR_ENOMEM;
	memset(rr->numeric, 1, (size_t)rr->hdr->n);
	c->d = NULL;
	while ((rc = ref_csv_next(c, &w)) > 0)
		for (j = 0; j < rr->hdr->n && j < w.n; j++) {
			double v;
			if (*w.f[j].s && ref_parse_num(w.f[j].s, &v) < 0)
				rr->numeric[j] = 0;
		}
	c->p = p;
	c->line = line;
	c->d = d;
	return rc;
}

/* A header column that is neither `value` nor a factor: an extra metric
 * when the store holds it, else skipped (an error when it is not numeric,
 * a warning when it is). */
static enum ref_col classify_other(struct ref_read *rr, int j)
{
	const struct report *r = rr->r;
	const struct ref_record *hdr = rr->hdr;
	const char *name = hdr->f[j].s;
	struct buf b = BUF_INIT, m = BUF_INIT;
	enum ref_col kind = REF_COL_SKIP;
	int numeric;

	numeric = rr->numeric ? rr->numeric[j] : 1;
	if (rr->bind != REF_BIND_STORE)
		return classify_unbound(rr, j, numeric);
	rr->col_metric[j] = report_metric_index(r, name);
	if (rr->col_metric[j] < 0)
		list_names(&b, &r->factors[0].name, r->nfactors,
			   sizeof *r->factors);
	if (!numeric && rr->col_metric[j] < 0) {
		xr_diag_add(rr->d, 0, hdr->line, hdr->f[j].col,
			    "unknown column '%s': not a factor "
			    "of the plan (factors: %s), nor a "
			    "numeric column",
			    name, b.s);
	} else if (rr->col_metric[j] < 0) {
		list_names(&m, r->met.metrics, r->met.nmetrics, sizeof(char *));
		xr_diag_add(rr->d, 1, hdr->line, hdr->f[j].col,
			    "column '%s' is neither a factor "
			    "of the plan (%s) nor a metric in "
			    "the store (%s): ignored",
			    name, b.s, m.s);
	} else if (rr->col_metric[j] == report_metric_index(r, rr->metric)) {
		xr_diag_add(rr->d, 0, hdr->line, hdr->f[j].col,
			    "column '%s' is the reference "
			    "metric: its values go in 'value'",
			    name);
	} else {
		kind = REF_COL_METRIC;
		ref_col_scale(rr, j, rr->col_metric[j]);
	}
	buf_release(&b);
	buf_release(&m);
	return kind;
}

/* What each header column holds. 0 or -XR_ENOMEM. */
static int classify_columns(struct ref_read *rr)
{
	const struct ref_record *hdr = rr->hdr;
	int j, k, other = 0;
	for (j = 0; j < hdr->n; j++)
		other |= *hdr->f[j].s && strcmp(hdr->f[j].s, "value") &&
			 report_factor_index(rr->r, hdr->f[j].s) < 0;
	/* only a column that is neither needs its rows looked at first */
	if (other && rr->bind != REF_BIND_FREE && numeric_columns(rr) < 0)
		return -XR_ENOMEM;
	for (j = 0; j < hdr->n; j++) {
		const char *name = hdr->f[j].s;
		rr->col_factor[j] = rr->col_metric[j] = -1;
		for (k = 0; k < j; k++)
			if (!strcmp(hdr->f[k].s, name))
				xr_diag_add(rr->d, 0, hdr->line, hdr->f[j].col,
					    "column '%s' appears twice", name);
		if (!*name) {
			xr_diag_add(rr->d, 0, hdr->line, hdr->f[j].col,
				    "empty column name");
			rr->kind[j] = REF_COL_SKIP;
		} else if (!strcmp(name, "value")) {
			rr->kind[j] = REF_COL_VALUE;
		} else if ((rr->col_factor[j] =
				report_factor_index(rr->r, name)) >= 0) {
			rr->kind[j] = REF_COL_FACTOR;
			rr->ref->nfactors++;
		} else {
			rr->kind[j] = classify_other(rr, j);
		}
	}
	return 0;
}

/* ref's factor and value columns from the classified header. 0 or -1
 * when out of memory. */
static int model_columns(struct ref_read *rr)
{
	struct report_ref *ref = rr->ref;
	const struct ref_record *hdr = rr->hdr;
	struct arena *a = rr->a;
	const char **fn =
	    arena_alloc(a, ((size_t)ref->nfactors + 1) * sizeof *fn);
	int *fx = arena_alloc(a, ((size_t)ref->nfactors + 1) * sizeof *fx);
	const char **vn = arena_alloc(a, ((size_t)hdr->n + 1) * sizeof *vn);
	int *vm = arena_alloc(a, ((size_t)hdr->n + 1) * sizeof *vm);
	double *sc = arena_alloc(a, ((size_t)hdr->n + 1) * sizeof *sc);
	int nf = 0, j;
	if (!fn || !fx || !vn || !vm || !sc)
		return -XR_ENOMEM;
	vn[0] = arena_strdup(a, rr->metric);
	vm[0] = report_metric_index(rr->r, rr->metric);
	sc[0] = rr->factor;
	ref->nvalues = 1;
	for (j = 0; j < hdr->n; j++) {
		if (rr->kind[j] == REF_COL_FACTOR) {
			fn[nf] = hdr->f[j].s;
			fx[nf++] = rr->col_factor[j];
		} else if (rr->kind[j] == REF_COL_METRIC) {
			vn[ref->nvalues] = hdr->f[j].s;
			sc[ref->nvalues] = rr->col_scale[j];
			vm[ref->nvalues++] = rr->col_metric[j];
		}
	}
	ref->scale = sc;
	ref->factors = fn;
	ref->factor_index = fx;
	ref->values = vn;
	ref->value_metric = vm;
	return 0;
}

/* Record c into w. Returns 1 when it is good, 0 when it has an error
 * (reported). */
static int read_row(struct ref_read *rr, const struct ref_record *c,
		    struct ref_row_scratch *w)
{
	const struct ref_record *hdr = rr->hdr;
	struct report_ref *ref = rr->ref;
	int fj = 0, vj = 1, bad = 0, j;

	w->pub = NAN;
	w->pub_text = "";
	for (j = 0; j < ref->nvalues; j++) {
		w->v[j].published = NAN;
		w->v[j].ratio = NAN;
		w->v[j].in_range = -1;
		w->v[j].col = 0;
	}
	for (j = 0; j < hdr->n; j++) {
		const struct ref_field *f = &c->f[j];
		int slot;
		double v;
		if (rr->kind[j] == REF_COL_FACTOR) {
			if (!*f->s) {
				xr_diag_add(rr->d, 0, c->line, f->col,
					    "empty level for factor '%s'",
					    hdr->f[j].s);
				bad = 1;
			}
			w->level_col[fj] = f->col;
			w->levels[fj++] = f->s;
			continue;
		}
		if (rr->kind[j] == REF_COL_SKIP)
			continue;
		slot = rr->kind[j] == REF_COL_VALUE ? 0 : vj++;
		if (!*f->s && rr->kind[j] == REF_COL_METRIC)
			continue;
		if (ref_parse_num(f->s, &v) < 0) {
			xr_diag_add(rr->d, 0, c->line, f->col,
				    "%s '%.40s%s' is not a number", hdr->f[j].s,
				    *f->s ? f->s : "(empty)",
				    strlen(f->s) > 40 ? "..." : "");
			bad = 1;
			continue;
		}
		w->v[slot].published =
		    v * (slot == 0 ? rr->factor : rr->col_scale[j]);
		w->v[slot].col = f->col;
		if (slot == 0) {
			w->pub = w->v[0].published;
			w->pub_text = f->s;
		}
	}
	return !bad;
}

/* One record after the header: a published run of its cell, or its
 * problems reported. 0 or -XR_ENOMEM. */
static int read_run(struct ref_read *rr, struct ref_cells *cs,
		    const struct ref_record *c, struct ref_row_scratch *w)
{
	int rc;
	ref_scopes_see(rr, c);
	if (c->n != rr->hdr->n) {
		xr_diag_add(rr->d, 0, c->line, 1,
			    "%d fields, but the header (line %d) has %d", c->n,
			    rr->hdr->line, rr->hdr->n);
		return 0;
	}
	if (!read_row(rr, c, w))
		return 0;
	if ((rc = ref_cells_add(rr, cs, w, c->line)) < 0)
		xr_oom_mark(rr->ref->path, c->line);
	return rc;
}

/* The published rows after the header, record by record, into their
 * cells (ref->rows). 0 or -XR_ENOMEM. */
static int read_rows(struct ref_read *rr)
{
	struct report_ref *ref = rr->ref;
	struct ref_cells cs;
	struct ref_row_scratch w;
	struct ref_record c;
	size_t nf = (size_t)ref->nfactors + 1;
	int rc;
	memset(&cs, 0, sizeof cs);
	buf_init(&cs.texts, 0);
	w.levels = arena_alloc(rr->a, nf * sizeof *w.levels);
	w.level_col = arena_alloc(rr->a, nf * sizeof *w.level_col);
	w.v = arena_alloc(rr->a, (size_t)ref->nvalues * sizeof *w.v);
	if (!w.levels || !w.level_col || !w.v)
		return -XR_ENOMEM;
	while ((rc = ref_csv_next(&rr->csv, &c)) > 0)
		if ((rc = read_run(rr, &cs, &c, &w)) < 0)
			break;
	if (rc < 0) {
		ref_cells_release(&cs);
		return rc;
	}
	ref_scopes_warn(rr);
	return ref_cells_finish(rr, &cs);
}

/* Settings, header and rows of the split file into rr->ref; every problem
 * goes to rr->d. 0, or -XR_ENOMEM. */
static int read_reference(struct ref_read *rr, const char *path)
{
	const struct ref_record *hdr;
	int rc = ref_read_head(rr);
	if (rc < 0)
		return rc == -XR_ENOMEM ? rc : 0;
	hdr = rr->hdr;
	rr->ref = arena_alloc(rr->a, sizeof *rr->ref);
	rr->kind = arena_alloc(rr->a, (size_t)hdr->n * sizeof *rr->kind);
	rr->col_factor =
	    arena_alloc(rr->a, (size_t)hdr->n * sizeof *rr->col_factor);
	rr->col_metric =
	    arena_alloc(rr->a, (size_t)hdr->n * sizeof *rr->col_metric);
	if (!rr->ref || !rr->kind || !rr->col_factor || !rr->col_metric)
		return -XR_ENOMEM;
	memset(rr->ref, 0, sizeof *rr->ref);
	rr->ref->path = arena_strdup(rr->a, path);
	rr->ref->unit = arena_strdup(rr->a, rr->unit);
	if (rr->bind == REF_BIND_STORE)
		check_metric(rr);
	else if (units_metric(rr->unit, &rr->factor, &rr->base_unit) < 0)
		xr_diag_add(rr->d, 0,
			    rr->unit_line ? rr->unit_line : rr->hdr->line,
			    rr->unit_line ? rr->unit_col : 1,
			    "unknown unit '%s' (known units: bit/s, Mbit/s, "
			    "Gbit/s, B/s, MB/s, GB/s, s, ms, us, %%, count, "
			    "...)",
			    rr->unit);
	if (rr->bind == REF_BIND_FREE) {
		rr->r->factors = arena_alloc(rr->a, ((size_t)hdr->n + 1) *
							sizeof *rr->r->factors);
		if (!rr->r->factors)
			return -XR_ENOMEM;
		rr->r->nfactors = 0;
	}
	if (classify_columns(rr) < 0 || ref_check_scopes(rr) < 0 ||
	    model_columns(rr) < 0 || read_rows(rr) < 0)
		return -XR_ENOMEM;
	ref_settings_into(rr);
	return 0;
}

int ref_parse(struct report *r, const char *path, enum ref_bind bind,
	      const char *const *free_metrics, struct xr_diag *dd,
	      struct xr_err *err, struct report_ref **out)
{
	struct buf text = BUF_INIT;
	struct ref_read rr;
	struct xr_diag local;
	int rc;

	*out = NULL;
	memset(&rr, 0, sizeof rr);
	rr.r = r;
	rr.a = r->arena;
	rr.d = dd;
	rr.factor = 1;
	rr.bind = bind;
	rr.free_metrics = free_metrics;
	rr.statistic = -1;
	if (!rr.d) {
		xr_diag_init(&local, path);
		rr.d = &local;
	}
	if ((rc = read_file(path, &text, err)) < 0) {
		/* a reference that cannot be read is a usage error (2) */
		buf_release(&text);
		if (rr.d == &local)
			xr_diag_release(&local);
		else
			xr_diag_add(rr.d, 0, 0, 0, "%s", err->msg);
		err->code = XR_EUSAGE;
		return -XR_EUSAGE;
	}
	/* the text is read record by record, and kept until its last */
	ref_csv_init(&rr.csv, text.s ? text.s : "", text.len, rr.d);
	rc = read_reference(&rr, path);
	ref_csv_release(&rr.csv);
	buf_release(&text);
	if (rc < 0) {
		if (rr.d == &local)
			xr_diag_release(&local);
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	}
	/* against a plan, every problem is wanted: the rows that read well
	 * are checked even when others did not */
	if (rr.ref && (!rr.d->nerr || bind == REF_BIND_PLAN))
		*out = rr.ref;
	rc = rr.d->nerr ? first_error(rr.d, path, err) : 0;
	if (rr.d == &local)
		xr_diag_release(&local);
	return rc;
}
