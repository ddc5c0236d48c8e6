/*
 * Hand-built plans for the matrix/sched/cellctx unit tests: the tests must
 * not depend on the YAML loader, so they assemble struct plan directly
 * (plan.h is the contract). Everything lives in the plan's arena.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_SCHED_FIXTURE_H
#define XR_SCHED_FIXTURE_H

#include <string.h>

#include "arena.h"
#include "plan.h"

#define FX_MAX 128

static inline struct plan *fx_plan(void)
{
	struct arena *a = arena_new();
	struct plan *p = arena_alloc(a, sizeof *p);
	p->arena = a;
	p->path = "test.yaml";
	p->name = "test";
	p->version = 1;
	p->repeat = 1;
	p->seed = 1;
	p->factors = arena_alloc(a, FX_MAX * sizeof *p->factors);
	p->excludes = arena_alloc(a, FX_MAX * sizeof *p->excludes);
	p->hosts = arena_alloc(a, FX_MAX * sizeof *p->hosts);
	p->vars = arena_alloc(a, FX_MAX * sizeof *p->vars);
	p->hosts[0].name = "local";
	p->nhosts = 1;
	p->engine.type = "iperf3";
	p->engine.client = "local";
	p->engine.duration = 10;
	return p;
}

/* Levels given as "a,b,c". */
static inline struct plan_factor *fx_factor(struct plan *p, const char *name,
					    const char *levels)
{
	struct plan_factor *f = &p->factors[p->nfactors++];
	const char *s = levels;
	f->name = arena_strdup(p->arena, name);
	f->levels = arena_alloc(p->arena, FX_MAX * sizeof *f->levels);
	f->level_pos = arena_alloc(p->arena, FX_MAX * sizeof *f->level_pos);
	while (*s) {
		const char *e = strchr(s, ',');
		size_t n = e ? (size_t)(e - s) : strlen(s);
		f->levels[f->nlevels++] = arena_strndup(p->arena, s, n);
		s += n + (e != NULL);
	}
	return f;
}

/* Exclusion as "f=l1|l2,g=l3" (names must exist). */
static inline void fx_exclude(struct plan *p, const char *spec)
{
	struct plan_exclude *x = &p->excludes[p->nexcludes++];
	char *dup = arena_strdup(p->arena, spec), *s = dup;
	x->factor = arena_alloc(p->arena, FX_MAX * sizeof *x->factor);
	x->nlv = arena_alloc(p->arena, FX_MAX * sizeof *x->nlv);
	x->lv = arena_alloc(p->arena, FX_MAX * sizeof *x->lv);
	while (s && *s) {
		char *comma = strchr(s, ','), *eq = strchr(s, '='), *l;
		int t = x->nterms++, fi;
		if (comma)
			*comma = 0;
		*eq = 0;
		for (fi = 0; strcmp(p->factors[fi].name, s); fi++)
			;
		x->factor[t] = fi;
		x->lv[t] = arena_alloc(p->arena, FX_MAX * sizeof(int));
		l = eq + 1;
		while (l && *l) {
			char *bar = strchr(l, '|');
			int li;
			if (bar)
				*bar = 0;
			for (li = 0; strcmp(p->factors[fi].levels[li], l); li++)
				;
			x->lv[t][x->nlv[t]++] = li;
			l = bar ? bar + 1 : NULL;
		}
		s = comma ? comma + 1 : NULL;
	}
}

static inline void fx_free(struct plan *p)
{
	arena_free(p->arena);
}

#endif
