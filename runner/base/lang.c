/*
 * The report language table (see lang.h) and its lookups.
 *
 * SPDX-License-Identifier: MIT
 */
#include "lang.h"

#include <stdio.h>
#include <string.h>

#include "banned.h"

static const char *const lang_names[LANG_COUNT] = {
#define LANG_ROW(id, name, english) [LANG_##id] = name,
    LANG_MAP(LANG_ROW)
#undef LANG_ROW
};

const char *lang_name(size_t i)
{
	return i < LANG_COUNT ? lang_names[i] : NULL;
}

int lang_find(const char *name)
{
	int i;
	for (i = 0; name && i < LANG_COUNT; i++)
		if (!strcmp(lang_names[i], name))
			return i;
	return LANG_NOT_FOUND;
}

const char *lang_list(char *out, size_t outsz)
{
	size_t i, len = 0;
	if (!outsz)
		return out;
	out[0] = 0;
	for (i = 0; i < LANG_COUNT && len < outsz; i++) {
		int n = snprintf(out + len, outsz - len, "%s%s", i ? ", " : "",
				 lang_names[i]);
		if (n < 0)
			break;
		len += (size_t)n;
	}
	return out;
}
