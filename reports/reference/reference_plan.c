/*
 * A reference before any run: checked against a plan (`xrun validate PLAN
 * --reference FILE`, `xrun plan PLAN --reference FILE`): its columns are
 * the plan's factors, its levels spelled as the plan spells them, each
 * published cell one the plan runs, and no published condition
 * contradicted by the plan's engine and parameters; and read on its own
 * (`xrun plan --from-reference FILE`), its columns taken for factors.
 * Problems carry the reference file's line and column.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arena.h"
#include "buf.h"
#include "engine_cond.h"
#include "plan.h"
#include "reference_int.h"
#include "suggest.h"
#include "banned.h"

/* The value of an engine parameter fixed by the plan (no placeholder);
 * NULL when not set or set per cell. *by_factor names a factor that sets
 * it. */
static const char *reference_plan_param(const struct plan *p, const char *key,
					const char **by_factor)
{
	int i, l, k;
	*by_factor = NULL;
	for (i = 0; i < p->nfactors; i++) {
		const struct plan_factor *f = &p->factors[i];
		if (f->param && !strcmp(f->param, key))
			*by_factor = f->name;
		for (l = 0; f->level_params && l < f->nlevels; l++)
			for (k = 0; k < f->nlevel_params[l]; k++)
				if (!strcmp(f->level_params[l][k].key, key))
					*by_factor = f->name;
	}
	if (*by_factor)
		return NULL;
	for (i = 0; i < p->engine.nparams; i++)
		if (!strcmp(p->engine.params[i].key, key))
			return strstr(p->engine.params[i].value, "{{")
				   ? NULL
				   : p->engine.params[i].value;
	return NULL;
}

static int same_number(const char *a, const char *b)
{
	char *e1, *e2;
	double x = strtod(a, &e1), y = strtod(b, &e2);
	if (e1 == a || e2 == b)
		return !strcasecmp(a, b);
	return x == y;
}

/* The direction words of a publication, as up / down / bidir. */
static const char *direction(const char *s)
{
	if (!strcasecmp(s, "down") || !strcasecmp(s, "download") ||
	    !strcasecmp(s, "receive") || !strcasecmp(s, "reverse") ||
	    !strcasecmp(s, "-R") || !strcasecmp(s, "rx"))
		return "down";
	if (!strcasecmp(s, "bidir") || !strcasecmp(s, "bidirectional"))
		return "bidir";
	return "up";
}

/* reference_plan_param as an engine_cond_params lookup, noting a factor that
 * varies what was looked up. */
struct plook {
	const struct plan *p;
	int varied;
};

static const char *plook_param(void *ctx, const char *key)
{
	struct plook *l = ctx;
	const char *by, *v = reference_plan_param(l->p, key, &by);
	if (by)
		l->varied = 1;
	return v;
}

/* One published condition against the plan. */
static void check_cond(const struct plan *p, const struct report_ref *ref,
		       const struct report_ref_cond *c, struct xr_diag *d)
{
	const char *k = c->key, *v = c->value;
	struct plook pl = {p, 0};
	struct engine_cond_params cp = {plook_param, &pl, p->engine.duration};
	char mine[96];
	int fi, j;
	for (j = 0; j < ref->nfactors; j++)
		if (!strcmp(ref->factors[j], k))
			return; /* a column: its levels are checked */
	if ((fi = plan_factor_index(p, k)) >= 0) {
		if (plan_level_index(&p->factors[fi], v) < 0)
			xr_diag_add(d, 0, c->line, c->col,
				    "published %s '%s' is not a level of the "
				    "plan's factor '%s'",
				    k, v, k);
		return;
	}
	if (!strcmp(k, "engine")) {
		if (p->engine.type && !ref_engine_is(v, p->engine.type))
			xr_diag_add(d, 0, c->line, c->col,
				    "published engine '%s', the plan runs '%s'",
				    v, p->engine.type);
		return;
	}
	if (!engine_cond(p->engine.type, k, &cp, mine, sizeof mine))
		return; /* the engine's parameters say nothing of it */
	if (!strcmp(k, "duration")) {
		if (!same_number(v, mine))
			xr_diag_add(d, 0, c->line, c->col,
				    "published duration %s s, the plan runs "
				    "%s s (engine.duration)",
				    v, mine);
	} else if (!strcmp(k, "congestion") || !strcmp(k, "cc")) {
		if (mine[0] && strcasecmp(mine, v))
			xr_diag_add(d, 0, c->line, c->col,
				    "published congestion control '%s', the "
				    "plan sets '%s'",
				    v, mine);
		else if (!mine[0] && !pl.varied)
			xr_diag_add(d, 1, c->line, c->col,
				    "published congestion control '%s'; the "
				    "plan leaves the host's default (set "
				    "engine congestion: %s to pin it)",
				    v, v);
	} else if (!strcmp(k, "streams") || !strcmp(k, "parallel")) {
		if (!pl.varied && !same_number(v, mine))
			xr_diag_add(d, 0, c->line, c->col,
				    "published %s streams, the plan runs %s", v,
				    mine);
	} else if (!strcmp(k, "protocol")) {
		if (!pl.varied && strcasecmp(v, mine))
			xr_diag_add(d, 0, c->line, c->col,
				    "published protocol %s, the plan runs %s",
				    v, mine);
	} else if (!strcmp(k, "direction")) {
		if (!pl.varied && strcmp(direction(v), mine))
			xr_diag_add(d, 0, c->line, c->col,
				    "published direction %s, the plan runs %s",
				    v, mine);
	}
}

/* A level the plan does not spell that way: error with the closest. */
static void unknown_level(const struct plan_factor *f, const char *lv, int line,
			  int col, struct xr_diag *d)
{
	struct suggest s;
	struct buf b = BUF_INIT;
	const char *best;
	int l;
	suggest_init(&s, lv, 0);
	for (l = 0; l < f->nlevels; l++) {
		suggest_add(&s, f->levels[l]);
		buf_addf(&b, "%s%s", l ? ", " : "", f->levels[l]);
	}
	best = suggest_best(&s);
	if (best)
		xr_diag_add(d, 0, line, col,
			    "'%s' is not a level of factor '%s'; did you "
			    "mean '%s'? (levels: %s)",
			    lv, f->name, best, b.s ? b.s : "");
	else
		xr_diag_add(d, 0, line, col,
			    "'%s' is not a level of factor '%s' (levels: %s)",
			    lv, f->name, b.s ? b.s : "");
	buf_release(&b);
}

/* Does exclude e remove every cell with the row's levels lv? */
static int excluded(const struct plan *p, const struct report_ref *ref,
		    const int *lv, const struct plan_exclude *e)
{
	int t, j, l, hit;
	for (t = 0; t < e->nterms; t++) {
		const char *name = p->factors[e->factor[t]].name;
		int named = -1;
		for (j = 0; j < ref->nfactors; j++)
			if (!strcmp(ref->factors[j], name))
				named = j;
		if (named < 0)
			return 0; /* some cells of other levels remain */
		for (l = 0, hit = 0; l < e->nlv[t]; l++)
			if (e->lv[t][l] == lv[named])
				hit = 1;
		if (!hit)
			return 0;
	}
	return 1;
}

/* One published cell against the plan's factors, levels and excludes. */
static int check_row(const struct plan *p, const struct report_ref *ref,
		     const struct report_ref_row *w, struct xr_diag *d)
{
	int lv[64], j, bad = 0, x;
	if (ref->nfactors > 64)
		return 1; /* past the plan's own limit: the plan says so */
	for (j = 0; j < ref->nfactors; j++) {
		const struct plan_factor *f =
		    &p->factors[plan_factor_index(p, ref->factors[j])];
		lv[j] = plan_level_index(f, w->levels[j]);
		if (lv[j] < 0) {
			unknown_level(f, w->levels[j], w->line, w->level_col[j],
				      d);
			bad = 1;
		}
	}
	if (bad)
		return 1;
	for (x = 0; x < p->nexcludes; x++)
		if (excluded(p, ref, lv, &p->excludes[x])) {
			xr_diag_add(d, 0, w->line, 1,
				    "published cell %s is excluded by the "
				    "plan (exclude on line %d)",
				    w->label, p->excludes[x].pos.line);
			return 1;
		}
	return 0;
}

/* The plan's cells (ncells rows of a level index per plan factor) as
 * the cells of r, for ref_match_cells. 0, or -XR_ENOMEM. */
static int reference_plan_cells(struct report *r, const struct plan *p,
				const uint32_t *cells, size_t ncells)
{
	size_t c;
	int f;
	struct report_cell *rc =
	    arena_alloc(r->arena, (ncells + 1) * sizeof *rc);
	if (!rc)
		return -XR_ENOMEM;
	for (c = 0; c < ncells; c++) {
		int *lv = arena_alloc(r->arena,
				      ((size_t)p->nfactors + 1) * sizeof *lv);
		if (!lv)
			return -XR_ENOMEM;
		for (f = 0; f < p->nfactors; f++)
			lv[f] = (int)cells[c * (size_t)p->nfactors + (size_t)f];
		memset(&rc[c], 0, sizeof rc[c]);
		rc[c].lv = lv;
	}
	r->cells = rc;
	r->ncells = (int)ncells;
	return 0;
}

int report_reference_check_plan(const struct plan *p, const char *path,
				const uint32_t *cells, size_t ncells,
				struct xr_diag *d)
{
	struct report r;
	struct report_ref *ref = NULL;
	struct xr_err err;
	struct report_factor *fa;
	int i, rc;
	size_t before = d->nerr;

	memset(&r, 0, sizeof r);
	if (!(r.arena = arena_new()))
		return -XR_ENOMEM;
	fa = arena_alloc(r.arena, ((size_t)p->nfactors + 1) * sizeof *fa);
	if (!fa) {
		arena_free(r.arena);
		return -XR_ENOMEM;
	}
	for (i = 0; i < p->nfactors; i++) {
		memset(&fa[i], 0, sizeof fa[i]);
		fa[i].name = p->factors[i].name;
		fa[i].levels = p->factors[i].levels;
		fa[i].nlevels = p->factors[i].nlevels;
	}
	r.factors = fa;
	r.nfactors = p->nfactors;
	if (reference_plan_cells(&r, p, cells, ncells) < 0) {
		arena_free(r.arena);
		return -XR_ENOMEM;
	}
	xr_err_clear(&err);
	rc = ref_parse(&r, path, REF_BIND_PLAN, NULL, d, &err, &ref);
	if (rc == -XR_ENOMEM) {
		arena_free(r.arena);
		return rc;
	}
	if (ref) {
		/* a row several of the plan's cells match, by the report's
		 * own matching rule (ref_match_cells): the report could not
		 * say which cell is meant */
		for (i = 0; i < ref->nrows; i++) {
			struct report_ref_row *w = &ref->rows[i];
			int first;
			if (check_row(p, ref, w, d) == 0 &&
			    ref_match_cells(&r, ref, w, &first) > 1)
				xr_diag_add(d, 1, w->line, 1,
					    "published cell %s is ambiguous: "
					    "%s (add a column for each)",
					    w->label, w->detail);
		}
		for (i = 0; i < ref->nconds; i++)
			check_cond(p, ref, &ref->conds[i], d);
	}
	arena_free(r.arena);
	return (int)(d->nerr - before);
}

int report_reference_read(const char *path, const char *const *metrics,
			  struct arena *a, struct report_ref_doc *doc,
			  struct xr_diag *d)
{
	struct report *r = arena_alloc(a, sizeof *r);
	struct report_ref *ref = NULL;
	struct xr_err err;
	int rc, f, k, l;

	memset(doc, 0, sizeof *doc);
	if (!r)
		return -XR_ENOMEM;
	memset(r, 0, sizeof *r);
	r->arena = a;
	xr_err_clear(&err);
	rc = ref_parse(r, path, REF_BIND_FREE, metrics, d, &err, &ref);
	if (rc < 0 || !ref)
		return rc < 0 ? rc : -XR_EUSAGE;
	doc->ref = ref;
	doc->nfactors = ref->nfactors;
	doc->factors = ref->factors;
	doc->ncells = ref->nrows;
	doc->levels =
	    arena_alloc(a, ((size_t)ref->nfactors + 1) * sizeof *doc->levels);
	doc->nlevels =
	    arena_alloc(a, ((size_t)ref->nfactors + 1) * sizeof *doc->nlevels);
	if (!doc->levels || !doc->nlevels)
		return -XR_ENOMEM;
	for (f = 0; f < ref->nfactors; f++) {
		doc->levels[f] = arena_alloc(a, ((size_t)ref->nrows + 1) *
						    sizeof **doc->levels);
		if (!doc->levels[f])
			return -XR_ENOMEM;
		doc->nlevels[f] = 0;
		for (k = 0; k < ref->nrows; k++) {
			const char *lv = ref->rows[k].levels[f];
			for (l = 0; l < doc->nlevels[f]; l++)
				if (!strcmp(doc->levels[f][l], lv))
					break;
			if (l == doc->nlevels[f])
				doc->levels[f][doc->nlevels[f]++] = lv;
		}
	}
	return 0;
}
