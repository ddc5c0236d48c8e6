/*
 * The plan's factors and exclusions (part of the loader, see plan_build.h):
 * levels, engine parameters, manual steps, apply/verify/restore hooks and
 * the hosts they run on; `exclude` terms resolved to level indices; and
 * the check that the exclusions leave at least one cell, done as a bounded
 * search so that a matrix of 10^20 cells costs no more than a small one.
 *
 * SPDX-License-Identifier: MIT
 */
#include "plan_build.h"
#include "pctx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "banned.h"

static const char *const factor_keys[] = {
    "levels",  "param", "params", "manual", "apply", "verify",
    "restore", "on",	"hosts",  "wait",   NULL};
static const char *const verify_keys[] = {"probe", "run", "expect", "match",
					  NULL};

static int cmp_lv(const void *x, const void *y, void *ctx)
{
	const char **lv = ctx;
	int a = *(const int *)x, b = *(const int *)y;
	int c = strcmp(lv[a], lv[b]);
	return c ? c : (a < b ? -1 : a > b);
}

static void build_levels(struct pctx *c, struct plan_factor *f,
			 const struct ynode *k, const struct ynode *n)
{
	int i, *idx, fi = (int)(f - c->p->factors);
	size_t ch;
	if (!n) {
		pc_err(c, k,
		       "factor '%s' needs 'levels' (a list, e.g. "
		       "levels: [cubic, reno])",
		       f->name);
		return;
	}
	if (n->kind != YN_SEQ) {
		pc_err(c, n, "'levels' of factor '%s' must be a list, not %s",
		       f->name, yn_kind_name(n));
		return;
	}
	if (n->n == 0) {
		pc_err(c, n, "factor '%s' has no levels (give at least one)",
		       f->name);
		return;
	}
	f->levels = arena_alloc(c->a, (size_t)n->n * sizeof *f->levels);
	f->level_pos = arena_alloc(c->a, (size_t)n->n * sizeof *f->level_pos);
	idx = malloc((size_t)n->n * sizeof *idx);
	if (!f->levels || !f->level_pos || !idx) {
		free(idx);
		c->nomem = 1;
		return;
	}
	for (i = 0; i < n->n; i++) {
		const struct ynode *l = n->kids[i];
		if (l->kind != YN_SCALAR) {
			pc_err(c, l,
			       "level %d of factor '%s' must be a scalar, not "
			       "%s",
			       i + 1, f->name, yn_kind_name(l));
			continue;
		}
		if (yn_is_null(l) || l->len == 0) {
			pc_err(c, l, "level %d of factor '%s' is empty", i + 1,
			       f->name);
			continue;
		}
		/* a level is a table heading, a CSV field and a terminal
		 * line: a newline or an escape code in one is a mistake */
		for (ch = 0; ch < l->len; ch++)
			if ((unsigned char)l->s[ch] < 0x20 || l->s[ch] == 0x7f)
				break;
		if (ch < l->len) {
			pc_err(c, l,
			       "level %d of factor '%s' contains a control "
			       "character (0x%02x)",
			       i + 1, f->name, (unsigned char)l->s[ch]);
			continue;
		}
		f->level_pos[f->nlevels].line = l->line;
		f->level_pos[f->nlevels].col = l->col;
		f->levels[f->nlevels++] = l->s;
	}
	/* duplicates by sorting: linear-ish even for thousands of levels */
	for (i = 0; i < f->nlevels; i++)
		idx[i] = i;
	qsort_r(idx, (size_t)f->nlevels, sizeof *idx, cmp_lv, f->levels);
	for (i = 1; i < f->nlevels; i++) {
		int a = idx[i - 1], b = idx[i];
		if (strcmp(f->levels[a], f->levels[b]) == 0) {
			int j = i - 1;
			while (j > 0 &&
			       strcmp(f->levels[idx[j - 1]], f->levels[b]) == 0)
				j--;
			a = idx[j];
			if (!pc_room(c))
				continue;
			xr_diag_add(
			    c->d, 0, f->level_pos[b].line, f->level_pos[b].col,
			    "duplicate level '%s' of factor '%s' (first "
			    "at line %d, column %d)",
			    f->levels[b], f->name, f->level_pos[a].line,
			    f->level_pos[a].col);
		}
	}
	/* kept for O(log n) lookups by exclusions, expect maps, reports */
	if (fi >= 0 && fi < c->nlvidx && !c->lvidx[fi])
		c->lvidx[fi] = idx;
	else
		free(idx);
}

/* One verify mapping into *v; `where` names it in messages. */
static void build_verify_entry(struct pctx *c, struct plan_factor *f,
			       const struct ynode *n, struct plan_verify *v,
			       const char *where)
{
	const struct ynode *x;
	if (pc_map(c, n, "verify") < 0)
		return;
	pc_keys(c, n, verify_keys, where);
	v->pos.line = n->line;
	v->pos.col = n->col;
	if ((x = yn_get(n, "probe")))
		v->probe = pc_str(c, x, "verify.probe");
	/* probe names are checked in plan_check.c, with probe_known() */
	if ((x = yn_get(n, "run")))
		pc_argv(c, x, "verify.run", &v->run);
	if (!!yn_get(n, "probe") == !!yn_get(n, "run"))
		pc_err(c, n,
		       "%s needs exactly one of 'probe' (a built-in reading) "
		       "or 'run' (a command whose output is compared)",
		       where);
	if ((x = yn_get(n, "match"))) {
		const char *s = pc_str(c, x, "verify.match");
		if (s && strcmp(s, "exact") == 0)
			v->match = PLAN_MATCH_EXACT;
		else if (s && strcmp(s, "contains") == 0)
			v->match = PLAN_MATCH_CONTAINS;
		else if (s && strcmp(s, "prefix") == 0)
			v->match = PLAN_MATCH_PREFIX;
		else if (s)
			pc_err(c, x,
			       "unknown match '%s' (valid: exact, contains, "
			       "prefix)",
			       s);
	}
	if (!(x = yn_get(n, "expect")))
		return;
	if (x->kind == YN_SCALAR) {
		v->expect = pc_str(c, x, "verify.expect");
		pc_tmpl(c, v->expect, x);
		return;
	}
	if (x->kind != YN_MAP) {
		pc_err(c, x,
		       "'expect' must be a value or a mapping level -> value, "
		       "not %s",
		       yn_kind_name(x));
		return;
	}
	v->expect_by_level =
	    arena_alloc(c->a, ((size_t)f->nlevels + 1) * sizeof(char *));
	if (!v->expect_by_level) {
		c->nomem = 1;
		return;
	}
	{
		int i;
		char hint[600];
		for (i = 0; i < x->n; i++) {
			const struct ynode *k = yn_key(x, i), *e = yn_val(x, i);
			int li = pc_level(c, (int)(f - c->p->factors), k->s);
			if (li < 0) {
				pc_hint(hint, sizeof hint, k->s, f->levels,
					f->nlevels);
				pc_err(c, k,
				       "'expect' names unknown level '%s' of "
				       "factor '%s'%s",
				       k->s, f->name, hint);
				continue;
			}
			if (e->kind != YN_SCALAR) {
				pc_err(c, e,
				       "expected value for level '%s' must be "
				       "a scalar, not %s",
				       k->s, yn_kind_name(e));
				continue;
			}
			v->expect_by_level[li] = e->s;
			pc_tmpl(c, e->s, e);
		}
		for (i = 0; i < f->nlevels; i++)
			if (!v->expect_by_level[i])
				pc_err(
				    c, x,
				    "'expect' has no value for level '%s' of "
				    "factor '%s' (give every level one)",
				    f->levels[i], f->name);
	}
}

/*
 * verify: one mapping, or a list of them (seed 000's driver swap also
 * checks that RSS is on). Entry i > 0 is named "verify[i]" in messages
 * and stored as factor "NAME#i+1" (schema/store.md).
 */
static void build_verify(struct pctx *c, struct plan_factor *f,
			 const struct ynode *n)
{
	const struct ynode *const *items = &n;
	int count = 1, i;
	char where[160];
	if (n->kind == YN_SEQ) {
		if (n->n == 0) {
			pc_err(c, n,
			       "'verify' of factor '%s' is an empty list "
			       "(give at least one probe or run)",
			       f->name);
			return;
		}
		items = (const struct ynode *const *)n->kids;
		count = n->n;
	}
	f->verify = arena_alloc(c->a, (size_t)count * sizeof *f->verify);
	if (!f->verify) {
		c->nomem = 1;
		return;
	}
	memset(f->verify, 0, (size_t)count * sizeof *f->verify);
	f->nverify = count;
	for (i = 0; i < count; i++) {
		if (n->kind == YN_SEQ)
			snprintf(where, sizeof where,
				 "'verify[%d]' of factor '%s'", i, f->name);
		else
			snprintf(where, sizeof where, "'verify' of factor '%s'",
				 f->name);
		build_verify_entry(c, f, items[i], &f->verify[i], where);
	}
}

/* One level's entry of params: a mapping engine parameter -> scalar. */
static void build_level_params(struct pctx *c, struct plan_factor *f, int li,
			       const struct ynode *k, const struct ynode *m)
{
	struct plan_kv *kv;
	int i;
	if (m->kind != YN_MAP) {
		pc_err(c, m,
		       "'params' of level '%s' of factor '%s' must be a "
		       "mapping of engine parameters (e.g. { parallel: 4 }, "
		       "{} for none), not %s",
		       k->s, f->name,
		       yn_is_null(m) ? "empty" : yn_kind_name(m));
		return;
	}
	kv = arena_alloc(c->a, ((size_t)m->n + 1) * sizeof *kv);
	if (!kv) {
		c->nomem = 1;
		return;
	}
	f->level_params[li] = kv;
	for (i = 0; i < m->n; i++) {
		const struct ynode *pk = yn_key(m, i), *pv = yn_val(m, i);
		if (pv->kind != YN_SCALAR || yn_is_null(pv)) {
			pc_err(c, pv,
			       "engine parameter '%s' of level '%s' of factor "
			       "'%s' must be a scalar, not %s",
			       pk->s, k->s, f->name,
			       yn_is_null(pv) ? "empty" : yn_kind_name(pv));
			continue;
		}
		/* an engine with a check() says it, with its own hints */
		if (c->ops && !c->ops->check && c->ops->has_param &&
		    !c->ops->has_param(pk->s))
			pc_err(c, pk, "engine '%s' has no parameter '%s'",
			       c->p->engine.type, pk->s);
		kv[f->nlevel_params[li]].key = pk->s;
		kv[f->nlevel_params[li]].value = pv->s;
		kv[f->nlevel_params[li]].pos = pc_pos(pk);
		f->nlevel_params[li]++;
		pc_tmpl(c, pv->s, pv);
	}
}

/*
 * params: level -> { engine parameter: value }. Every level needs an
 * entry, as with a verify expect map: a forgotten level would otherwise
 * run silently with the engine section's values.
 */
static void build_params(struct pctx *c, struct plan_factor *f,
			 const struct ynode *x)
{
	int i, fi = (int)(f - c->p->factors);
	char hint[600];
	if (x->kind != YN_MAP) {
		pc_err(c, x,
		       "'params' of factor '%s' must be a mapping level -> "
		       "engine parameters (e.g. a: { parallel: 4 }), not %s",
		       f->name, yn_kind_name(x));
		return;
	}
	f->level_params =
	    arena_alloc(c->a, ((size_t)f->nlevels + 1) * sizeof(void *));
	f->nlevel_params =
	    arena_alloc(c->a, ((size_t)f->nlevels + 1) * sizeof(int));
	if (!f->level_params || !f->nlevel_params) {
		c->nomem = 1;
		return;
	}
	for (i = 0; i < x->n; i++) {
		const struct ynode *k = yn_key(x, i), *m = yn_val(x, i);
		int li = pc_level(c, fi, k->s);
		if (li < 0) {
			pc_hint(hint, sizeof hint, k->s, f->levels, f->nlevels);
			pc_err(c, k,
			       "'params' names unknown level '%s' of factor "
			       "'%s'%s",
			       k->s, f->name, hint);
			continue;
		}
		build_level_params(c, f, li, k, m);
	}
	for (i = 0; i < f->nlevels; i++)
		if (!f->level_params[i] && !yn_get(x, f->levels[i]))
			pc_err(c, x,
			       "'params' has no entry for level '%s' of "
			       "factor '%s' (give every level one; {} sets "
			       "nothing)",
			       f->levels[i], f->name);
}

static void build_on(struct pctx *c, struct plan_factor *f,
		     const struct ynode *n)
{
	int i, cnt = n->kind == YN_SEQ ? n->n : 1;
	if (n->kind == YN_MAP || (n->kind == YN_SEQ && n->n == 0)) {
		pc_err(c, n,
		       "'on' must be a host or a list of hosts (e.g. on: "
		       "[client, server]), not %s",
		       n->kind == YN_MAP ? "a mapping" : "an empty list");
		return;
	}
	f->on = arena_alloc(c->a, (size_t)(cnt + 1) * sizeof *f->on);
	if (!f->on) {
		c->nomem = 1;
		return;
	}
	for (i = 0; i < cnt; i++) {
		const struct ynode *h = n->kind == YN_SEQ ? n->kids[i] : n;
		const char *s = pc_str(c, h, "on");
		if (!s)
			continue;
		f->on[f->non++] = s;
		pc_host_ref(c, s, h, 1);
	}
}

static void build_factor(struct pctx *c, struct plan_factor *f,
			 const struct ynode *k, const struct ynode *n)
{
	const struct ynode *x;
	char where[160];
	f->name = k->s;
	f->pos.line = k->line;
	f->pos.col = k->col;
	snprintf(where, sizeof where, "factor '%s'", f->name);
	if (!pc_name_ok(k->s, 0))
		pc_err(c, k,
		       "bad factor name '%s' (use letters, digits, '_' and "
		       "'-')",
		       k->s);
	else if (placeholder_find(k->s) >= 0)
		pc_err(c, k,
		       "factor name '%s' is reserved for a built-in "
		       "placeholder",
		       k->s);
	else if (pc_has_var(c, k->s))
		pc_err(c, k, "factor '%s' has the name of a var", k->s);
	if (n->kind == YN_SEQ) {
		/* shorthand: "streams: [1, 2, 4]" is just levels */
		build_levels(c, f, k, n);
		goto defaults;
	}
	if (n->kind != YN_MAP) {
		pc_err(c, n,
		       "factor '%s' must be a list of levels or a mapping "
		       "(e.g. %s: [a, b] or %s: { levels: [a, b] }), not %s",
		       f->name, f->name, f->name, yn_kind_name(n));
		goto defaults;
	}
	pc_keys(c, n, factor_keys, where);
	build_levels(c, f, k, yn_get(n, "levels"));
	if ((x = yn_get(n, "param"))) {
		f->param = pc_str(c, x, "param");
		/* an engine with a check() says it, with its own hints */
		if (f->param && c->ops && !c->ops->check && c->ops->has_param &&
		    !c->ops->has_param(f->param))
			pc_err(c, x, "engine '%s' has no parameter '%s'",
			       c->p->engine.type, f->param);
	}
	if ((x = yn_get(n, "params"))) {
		if (yn_get(n, "param"))
			pc_err(c, x,
			       "factor '%s' has both 'param' and 'params' "
			       "(use 'params' alone to set several engine "
			       "parameters per level)",
			       f->name);
		else
			build_params(c, f, x);
	}
	if ((x = yn_get(n, "manual"))) {
		f->manual = pc_str(c, x, "manual");
		c->tref_where = PH_SITE_MANUAL;
		pc_tmpl(c, f->manual, x);
		c->tref_where = PH_SITE_OTHER;
	}
	if ((x = yn_get(n, "apply")))
		pc_argv(c, x, "apply", &f->apply);
	if ((x = yn_get(n, "verify")))
		build_verify(c, f, x);
	if ((x = yn_get(n, "restore"))) {
		c->tref_where = PH_SITE_RESTORE;
		if (x->kind == YN_SEQ)
			pc_argv(c, x, "restore", &f->restore);
		else
			pc_bool(c, x, "restore", &f->restore_original);
		c->tref_where = PH_SITE_OTHER;
		if (f->restore_original && !f->apply.argv)
			pc_err(c, x,
			       "'restore: true' puts back what 'apply' "
			       "changed, but factor '%s' has no 'apply'",
			       f->name);
	}
	if ((x = yn_get(n, "on")))
		build_on(c, f, x);
	if ((x = yn_get(n, "hosts")))
		plan_build_bindings(c, f, x);
	if ((x = yn_get(n, "wait")) &&
	    pc_duration(c, x, "wait", &f->wait) == 0 && !f->manual)
		pc_err(c, x,
		       "factor '%s' has 'wait' but no 'manual' step (wait is "
		       "for a host that a person reboots)",
		       f->name);
defaults:
	if (!f->on) {
		static const char *const client[] = {"client", NULL};
		f->on = (const char **)client;
		f->non = 1;
	}
}

void plan_build_factors(struct pctx *c, const struct ynode *n)
{
	struct plan *p = c->p;
	int i;
	if (!n)
		return; /* a plan of one cell: the engine's defaults */
	if (pc_map(c, n, "factors") < 0)
		return;
	if (n->n > PLAN_MAX_FACTORS) {
		pc_err(c, n, "too many factors: %d (the limit is %d)", n->n,
		       PLAN_MAX_FACTORS);
		c->skip_excludes = 1;
		return;
	}
	c->lvidx = calloc((size_t)n->n + 1, sizeof *c->lvidx);
	if (!c->lvidx) {
		c->nomem = 1;
		return;
	}
	c->nlvidx = n->n;
	p->factors = arena_alloc(c->a, (size_t)(n->n + 1) * sizeof *p->factors);
	if (!p->factors) {
		c->nomem = 1;
		return;
	}
	for (i = 0; i < n->n; i++)
		build_factor(c, &p->factors[p->nfactors++], yn_key(n, i),
			     yn_val(n, i));
}

static void build_exclude(struct pctx *c, struct plan_exclude *e,
			  const struct ynode *n)
{
	struct plan *p = c->p;
	int i;
	e->pos.line = n->line;
	e->pos.col = n->col;
	if (n->kind != YN_MAP || n->n == 0) {
		pc_err(c, n,
		       "an exclusion must be a non-empty mapping factor -> "
		       "level (e.g. { os: windows11, cc: reno }), not %s",
		       n->kind == YN_MAP ? "an empty mapping"
					 : yn_kind_name(n));
		return;
	}
	e->factor = arena_alloc(c->a, (size_t)n->n * sizeof *e->factor);
	e->nlv = arena_alloc(c->a, (size_t)n->n * sizeof *e->nlv);
	e->lv = arena_alloc(c->a, (size_t)n->n * sizeof *e->lv);
	if (!e->factor || !e->nlv || !e->lv) {
		c->nomem = 1;
		return;
	}
	for (i = 0; i < n->n; i++) {
		const struct ynode *k = yn_key(n, i), *v = yn_val(n, i);
		int fi = plan_factor_index(p, k->s), j, cnt, t;
		const struct plan_factor *f;
		char hint[600];
		if (fi < 0) {
			pc_factor_hint(hint, sizeof hint, k->s, p);
			pc_err(c, k, "exclude names unknown factor '%s'%s",
			       k->s, hint);
			continue;
		}
		f = &p->factors[fi];
		if (v->kind == YN_MAP || (v->kind == YN_SEQ && v->n == 0)) {
			pc_err(c, v,
			       "exclude wants a level or a list of levels of "
			       "factor '%s', not %s",
			       f->name,
			       v->kind == YN_MAP ? "a mapping"
						 : "an empty list");
			continue;
		}
		cnt = v->kind == YN_SEQ ? v->n : 1;
		t = e->nterms;
		e->lv[t] = arena_alloc(c->a, (size_t)cnt * sizeof(int));
		if (!e->lv[t]) {
			c->nomem = 1;
			return;
		}
		e->factor[t] = fi;
		for (j = 0; j < cnt; j++) {
			const struct ynode *l =
			    v->kind == YN_SEQ ? v->kids[j] : v;
			int li;
			if (l->kind != YN_SCALAR) {
				pc_err(c, l, "a level must be a scalar, not %s",
				       yn_kind_name(l));
				continue;
			}
			li = pc_level(c, fi, l->s);
			if (li < 0) {
				pc_hint(hint, sizeof hint, l->s, f->levels,
					f->nlevels);
				pc_err(c, l,
				       "exclude names unknown level '%s' of "
				       "factor '%s'%s",
				       l->s, f->name, hint);
				continue;
			}
			e->lv[t][e->nlv[t]++] = li;
		}
		if (e->nlv[t] > 0)
			e->nterms++;
	}
}

void plan_build_excludes(struct pctx *c, const struct ynode *n)
{
	struct plan *p = c->p;
	int i;
	c->exclude_node = n;
	if (n->kind != YN_SEQ) {
		pc_err(c, n,
		       "'exclude' must be a list of mappings (e.g. - { os: "
		       "windows11, cc: reno }), not %s",
		       yn_kind_name(n));
		return;
	}
	p->excludes =
	    arena_alloc(c->a, (size_t)(n->n + 1) * sizeof *p->excludes);
	if (!p->excludes) {
		c->nomem = 1;
		return;
	}
	for (i = 0; i < n->n; i++) {
		struct plan_exclude *e = &p->excludes[p->nexcludes];
		build_exclude(c, e, n->kids[i]);
		if (e->nterms > 0)
			p->nexcludes++;
	}
}

/*
 * Is there a cell no exclusion matches? Depth-first over the factors that
 * exclusions mention, pruning as soon as an exclusion is fully matched.
 * state[e] counts the terms of exclusion e still unmatched, or -1 once a
 * term failed (it can no longer match). Bounded by a step budget: past it
 * the answer is "yes" and matrix_build will have the last word.
 */
struct search {
	const struct plan *p;
	int *fidx, nf; /* factors in play */
	int *state;
	long budget;
};

static int term_has(const struct plan_exclude *e, int t, int li)
{
	int k;
	for (k = 0; k < e->nlv[t]; k++)
		if (e->lv[t][k] == li)
			return 1;
	return 0;
}

static int search(struct search *s, int depth)
{
	const struct plan *p = s->p;
	int fi, li, e, t, found = 0;
	int *saved;
	if (depth == s->nf)
		return 1;
	if (--s->budget < 0)
		return 1;
	fi = s->fidx[depth];
	saved = malloc((size_t)p->nexcludes * sizeof *saved);
	if (!saved)
		return 1;
	memcpy(saved, s->state, (size_t)p->nexcludes * sizeof *saved);
	for (li = 0; li < p->factors[fi].nlevels && !found; li++) {
		int dead = 0;
		/* the budget counts work, not nodes: levels x exclusions */
		s->budget -= p->nexcludes + 1;
		if (s->budget < 0) {
			found = 1;
			break;
		}
		for (e = 0; e < p->nexcludes; e++) {
			const struct plan_exclude *x = &p->excludes[e];
			if (s->state[e] < 0)
				continue;
			for (t = 0; t < x->nterms; t++)
				if (x->factor[t] == fi) {
					if (term_has(x, t, li))
						s->state[e]--;
					else
						s->state[e] = -1;
					break;
				}
			if (s->state[e] == 0)
				dead = 1;
		}
		if (!dead)
			found = search(s, depth + 1);
		memcpy(s->state, saved, (size_t)p->nexcludes * sizeof *saved);
	}
	free(saved);
	return found;
}

void plan_check_cells_left(struct pctx *c)
{
	const struct plan *p = c->p;
	struct search s;
	int i, e, t;
	char *used;
	if (!p->nexcludes || !p->nfactors)
		return;
	for (i = 0; i < p->nfactors; i++)
		if (p->factors[i].nlevels == 0)
			return; /* already reported */
	memset(&s, 0, sizeof s);
	s.p = p;
	s.budget = 20000000;
	used = calloc((size_t)p->nfactors, 1);
	s.fidx = malloc((size_t)p->nfactors * sizeof *s.fidx);
	s.state = malloc((size_t)p->nexcludes * sizeof *s.state);
	if (!used || !s.fidx || !s.state)
		goto out;
	for (e = 0; e < p->nexcludes; e++) {
		s.state[e] = p->excludes[e].nterms;
		for (t = 0; t < p->excludes[e].nterms; t++)
			used[p->excludes[e].factor[t]] = 1;
	}
	for (i = 0; i < p->nfactors; i++)
		if (used[i])
			s.fidx[s.nf++] = i;
	if (!search(&s, 0))
		pc_err(c, c->exclude_node,
		       "the exclusions leave no cell to run (every "
		       "combination of levels is excluded)");
out:
	free(used);
	free(s.fidx);
	free(s.state);
}
