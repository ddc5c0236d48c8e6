/*
 * How long one run of a cell is expected to take on its engine (exec.h,
 * exec_run_seconds): the plan's duration and omit, or what a factor's
 * level sets them to, by `param: duration` / `param: omit` or by a
 * `params:` mapping of the level (13 s runs set by params: were estimated
 * at the engine's default before, issue 35). `xrun plan`'s estimate and
 * the progress line's ETA both count runs with it.
 *
 * SPDX-License-Identifier: MIT
 */
#include <string.h>

#include "exec.h"
#include "plan.h"
#include "units.h"
#include "banned.h"

/* A duration a level sets for key ("duration", "omit"): 1 with *v, else
 * 0 (not set, or a value with a placeholder, known only at the run). */
static int level_sets(const struct plan_factor *f, uint32_t l, const char *key,
		      double *v)
{
	int k;
	if (f->param && !strcmp(f->param, key))
		return units_parse(f->levels[l], UNITS_DURATION, v, NULL) == 0;
	for (k = 0; f->level_params && k < f->nlevel_params[l]; k++) {
		const struct plan_kv *kv = &f->level_params[l][k];
		if (!strcmp(kv->key, key) && !strstr(kv->value, "{{"))
			return units_parse(kv->value, UNITS_DURATION, v,
					   NULL) == 0;
	}
	return 0;
}

double exec_run_seconds(const struct plan *p, const uint32_t *lv)
{
	double dur = p->engine.duration, omit = p->engine.omit, v;
	int f;
	for (f = 0; lv && f < p->nfactors; f++) {
		if (level_sets(&p->factors[f], lv[f], "duration", &v))
			dur = v;
		if (level_sets(&p->factors[f], lv[f], "omit", &v))
			omit = v;
	}
	return dur + omit;
}
