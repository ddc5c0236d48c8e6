/*
 * Lookups in a loaded plan (see plan.h): a factor, a level, a host or a
 * var by name (the built-in placeholders are placeholder.h's table).
 *
 * SPDX-License-Identifier: MIT
 */
#include <string.h>

#include "plan.h"

#include "banned.h"

int plan_factor_index(const struct plan *p, const char *name)
{
	int i;
	for (i = 0; name && i < p->nfactors; i++)
		if (strcmp(p->factors[i].name, name) == 0)
			return i;
	return PLAN_NOT_FOUND;
}

int plan_level_index(const struct plan_factor *f, const char *level)
{
	int i;
	for (i = 0; level && i < f->nlevels; i++)
		if (strcmp(f->levels[i], level) == 0)
			return i;
	return PLAN_NOT_FOUND;
}

const struct plan_host *plan_host_find(const struct plan *p, const char *name)
{
	int i;
	for (i = 0; name && i < p->nhosts; i++)
		if (strcmp(p->hosts[i].name, name) == 0)
			return &p->hosts[i];
	return NULL;
}

const char *plan_var(const struct plan *p, const char *name)
{
	int i;
	for (i = 0; name && i < p->nvars; i++)
		if (strcmp(p->vars[i].key, name) == 0)
			return p->vars[i].value;
	return NULL;
}
