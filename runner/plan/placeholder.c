/*
 * The built-in placeholder table (see placeholder.h): the rows of
 * PLACEHOLDER_MAP as a const array, and lookups on it.
 *
 * SPDX-License-Identifier: MIT
 */
#include "placeholder.h"

#include <stddef.h>
#include <string.h>

#include "plan.h"

#include "banned.h"

const struct placeholder placeholders[PH_COUNT] = {
#define PH_ROW(id, name, set, sites, off, unset, meaning)                      \
	[PH_##id] = {name, set, sites, off, unset, meaning},
    PLACEHOLDER_MAP(PH_ROW)
#undef PH_ROW
};

int placeholder_find(const char *name)
{
	int i;
	for (i = 0; i < PH_COUNT; i++)
		if (strcmp(placeholders[i].name, name) == 0)
			return i;
	return PLAN_NOT_FOUND;
}

int placeholder_per_run(const char *name)
{
	int i = placeholder_find(name);
	return i >= 0 && placeholders[i].set == PH_PER_RUN;
}
