/*
 * The plan's report section (part of the loader, see plan_build.h): matrix
 * tables, A/B comparisons, outputs written after a run, language, noise
 * threshold and display unit. Factors and levels named here must exist.
 *
 * SPDX-License-Identifier: MIT
 */
#include "plan_build.h"
#include "pctx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "output_format.h"
#include "placeholder.h"
#include "tmpl.h"
#include "units.h"
#include "lang.h"
#include "banned.h"

/* ---- report ------------------------------------------------------------ */

static const char *const report_keys[] = {
    "tables", "compare", "output", "lang", "threshold", "unit", NULL};
static const char *const table_keys[] = {"rows", "columns", "metric", NULL};
static const char *const compare_keys[] = {"factor", "baseline", "a",
					   "b",	     "accept",	 NULL};

static const char *factor_ref(struct pctx *c, const struct ynode *n,
			      const char *what)
{
	const char *s = pc_str(c, n, what);
	struct plan *p = c->p;
	if (s && plan_factor_index(p, s) < 0) {
		char hint[600];
		pc_factor_hint(hint, sizeof hint, s, p);
		pc_err(c, n, "unknown factor '%s' in '%s'%s", s, what, hint);
		return NULL;
	}
	return s;
}

static void level_ref(struct pctx *c, const struct plan_factor *f,
		      const struct ynode *n)
{
	char hint[600];
	if (!f || n->kind != YN_SCALAR ||
	    pc_level(c, (int)(f - c->p->factors), n->s) >= 0)
		return;
	pc_hint(hint, sizeof hint, n->s, f->levels, f->nlevels);
	pc_err(c, n, "unknown level '%s' of factor '%s'%s", n->s, f->name,
	       hint);
}

static struct plan_kv *build_pair(struct pctx *c, const struct ynode *n,
				  const char *what, int *cnt)
{
	struct plan_kv *kv;
	int i;
	*cnt = 0;
	if (pc_map(c, n, what) < 0)
		return NULL;
	kv = arena_alloc(c->a, (size_t)(n->n + 1) * sizeof *kv);
	if (!kv) {
		c->nomem = 1;
		return NULL;
	}
	for (i = 0; i < n->n; i++) {
		const struct ynode *k = yn_key(n, i), *v = yn_val(n, i);
		const char *f = factor_ref(c, k, what), *l = pc_str(c, v, what);
		if (!f || !l)
			continue;
		level_ref(c, &c->p->factors[plan_factor_index(c->p, f)], v);
		kv[*cnt].key = f;
		kv[*cnt].value = l;
		kv[*cnt].pos = pc_pos(k);
		(*cnt)++;
	}
	return kv;
}

static void build_table(struct pctx *c, struct plan_table *t,
			const struct ynode *n)
{
	const struct ynode *x;
	t->pos = pc_pos(n);
	if (pc_map(c, n, "report.tables[]") < 0)
		return;
	pc_keys(c, n, table_keys, "a report table");
	if ((x = yn_get(n, "rows")))
		t->rows = factor_ref(c, x, "rows");
	else
		pc_err(c, n, "a report table needs 'rows' (a factor)");
	if ((x = yn_get(n, "columns"))) {
		int i, cnt = x->kind == YN_SEQ ? x->n : 1;
		t->columns =
		    arena_alloc(c->a, (size_t)(cnt + 1) * sizeof *t->columns);
		if (!t->columns) {
			c->nomem = 1;
			return;
		}
		for (i = 0; i < cnt; i++) {
			const char *s = factor_ref(
			    c, x->kind == YN_SEQ ? x->kids[i] : x, "columns");
			if (s)
				t->columns[t->ncolumns++] = s;
		}
	}
	if ((x = yn_get(n, "metric")))
		t->metric = pc_str(c, x, "metric");
}

static void build_compare(struct pctx *c, struct plan_compare *cp,
			  const struct ynode *n)
{
	const struct ynode *x, *fx;
	cp->pos = pc_pos(n);
	if (pc_map(c, n, "report.compare[]") < 0)
		return;
	pc_keys(c, n, compare_keys, "a report comparison");
	if ((x = yn_get(n, "accept"))) {
		const char *s = pc_str(c, x, "accept");
		if (s && !strcmp(s, "sequential"))
			cp->accept_sequential = 1;
		else if (s)
			pc_err(c, x,
			       "bad value '%s' for 'accept' (known: "
			       "sequential)",
			       s);
	}
	fx = yn_get(n, "factor");
	if (fx && (yn_get(n, "a") || yn_get(n, "b"))) {
		pc_err(c, n,
		       "a comparison is either {factor, baseline} or {a, b}, "
		       "not both");
		return;
	}
	if (fx) {
		cp->factor = factor_ref(c, fx, "factor");
		if ((x = yn_get(n, "baseline"))) {
			cp->baseline = pc_str(c, x, "baseline");
			if (cp->factor && cp->baseline)
				level_ref(c,
					  &c->p->factors[plan_factor_index(
					      c->p, cp->factor)],
					  x);
		}
		return;
	}
	if (!yn_get(n, "a") || !yn_get(n, "b")) {
		pc_err(c, n,
		       "a comparison needs 'factor' (and 'baseline') or both "
		       "'a' and 'b'");
		return;
	}
	cp->a = build_pair(c, yn_get(n, "a"), "a", &cp->na);
	cp->b = build_pair(c, yn_get(n, "b"), "b", &cp->nb);
}

/* A report file is written once the session is over: a factor's level
 * or a per-run number ({{rep}}, {{index}}, {{block}}) has no value then
 * (the run would skip that report). {{session}} and vars do. */
struct output_ctx {
	struct pctx *c;
	const struct ynode *n;
	const char *s;
};

static int output_name(void *ctx, const char *name, size_t off)
{
	struct output_ctx *x = ctx;
	(void)off;
	if (pc_has_var(x->c, name) || placeholder_find(name) == PH_SESSION)
		return 0;
	if (plan_factor_index(x->c->p, name) >= 0 || placeholder_per_run(name))
		pc_err(x->c, x->n,
		       "report output '%s': '{{%s}}' has no value in a report "
		       "file name (written once per session: use {{plan}}, "
		       "{{session}} or a var)",
		       x->s, name);
	return 0;
}

static void output_names(struct pctx *c, const char *s, const struct ynode *n)
{
	struct output_ctx x = {c, n, s};
	tmpl_each(s, output_name, &x);
}

/* report.output: one file name or a list, each with a known extension. */
static void build_outputs(struct pctx *c, const struct ynode *x)
{
	struct plan_report *r = &c->p->report;
	int i;
	int cnt = x->kind == YN_SEQ ? x->n : 1;
	r->outputs = arena_alloc(c->a, (size_t)(cnt + 1) * sizeof *r->outputs);
	if (!r->outputs) {
		c->nomem = 1;
		return;
	}
	for (i = 0; i < cnt; i++) {
		const struct ynode *o = x->kind == YN_SEQ ? x->kids[i] : x;
		const char *s = pc_str(c, o, "report.output");
		char valid[128];
		if (!s)
			continue;
		if (output_format_of_path(s) < 0)
			pc_err(c, o,
			       "report output '%s' needs a known "
			       "extension (valid: %s)",
			       s, output_format_list(valid, sizeof valid, 1));
		r->outputs[r->noutputs++] = s;
		pc_tmpl(c, s, o);
		output_names(c, s, o);
	}
}

/* report.threshold: a fraction or a percentage, strictly in (0, 1). */
static void build_threshold(struct pctx *c, const struct ynode *x)
{
	const char *s = pc_str(c, x, "report.threshold");
	char *end;
	double t = 0;
	if (s) {
		t = strtod(s, &end);
		if (end != s && strcmp(end, "%") == 0)
			t /= 100;
		else if (end == s || *end)
			t = -1;
		if (!(s[0] >= '0' && s[0] <= '9') && s[0] != '.')
			t = -1;
		if (!(t > 0 && t < 1))
			pc_err(c, x,
			       "bad threshold '%s' (a fraction or a "
			       "percentage between 0 and 100%%, e.g. "
			       "1%% or 0.01)",
			       s);
		else
			c->p->report.threshold = t;
	}
}

void plan_build_report(struct pctx *c, const struct ynode *n)
{
	struct plan_report *r = &c->p->report;
	const struct ynode *x;
	int i;
	r->threshold = 0.01;
	if (!n || pc_map(c, n, "report") < 0)
		return;
	pc_keys(c, n, report_keys, "'report'");
	if ((x = yn_get(n, "tables"))) {
		if (x->kind != YN_SEQ) {
			pc_err(c, x, "'report.tables' must be a list, not %s",
			       yn_kind_name(x));
		} else {
			r->tables = arena_alloc(c->a, (size_t)(x->n + 1) *
							  sizeof *r->tables);
			if (!r->tables) {
				c->nomem = 1;
				return;
			}
			for (i = 0; i < x->n; i++)
				build_table(c, &r->tables[r->ntables++],
					    x->kids[i]);
		}
	}
	if ((x = yn_get(n, "compare"))) {
		if (x->kind != YN_SEQ) {
			pc_err(c, x, "'report.compare' must be a list, not %s",
			       yn_kind_name(x));
		} else {
			r->compare = arena_alloc(c->a, (size_t)(x->n + 1) *
							   sizeof *r->compare);
			if (!r->compare) {
				c->nomem = 1;
				return;
			}
			for (i = 0; i < x->n; i++)
				build_compare(c, &r->compare[r->ncompare++],
					      x->kids[i]);
		}
	}
	if ((x = yn_get(n, "output")))
		build_outputs(c, x);
	if ((x = yn_get(n, "lang"))) {
		r->lang = pc_str(c, x, "report.lang");
		if (r->lang && lang_find(r->lang) == LANG_NOT_FOUND) {
			char valid[64];
			pc_err(c, x, "unknown language '%s' (valid: %s)",
			       r->lang, lang_list(valid, sizeof valid));
			r->lang = NULL;
		}
	}
	if ((x = yn_get(n, "threshold")))
		build_threshold(c, x);
	if ((x = yn_get(n, "unit"))) {
		r->unit = pc_str(c, x, "report.unit");
		if (r->unit && units_metric(r->unit, NULL, NULL) < 0) {
			pc_err(c, x,
			       "unknown display unit '%s' (e.g. Gbit/s, "
			       "Mbit/s, MB/s, ms)",
			       r->unit);
			r->unit = NULL;
		}
	}
}
