/*
 * The counter group and scope tables (see counter_group.h) and their
 * lookups.
 *
 * SPDX-License-Identifier: MIT
 */
#include "counter_group.h"

#include <stddef.h>
#include <string.h>

#include "banned.h"

static const struct {
	const char *name, *letter, *doc;
	unsigned os;
} groups[COUNTER_GROUP_COUNT] = {
#define COUNTER_GROUP_ROW(id, name, letter, os, doc)                           \
	[COUNTER_GROUP_##id] = {name, letter, doc, os},
    COUNTER_GROUP_MAP(COUNTER_GROUP_ROW)
#undef COUNTER_GROUP_ROW
};

static const struct {
	const char *name, *series;
	int group;
} scopes[COUNTER_SCOPE_COUNT] = {
#define COUNTER_SCOPE_ROW(id, name, group, series)                             \
	[COUNTER_SCOPE_##id] = {name, series, COUNTER_GROUP_##group},
    COUNTER_SCOPE_MAP(COUNTER_SCOPE_ROW)
#undef COUNTER_SCOPE_ROW
};

/* A letter is one byte and no two groups share one: the far scripts test
 * "is the letter in the word" (case $2 in *n*). */
#define COUNTER_GROUP_LETTER_LEN(id, name, letter, os, doc)                    \
	_Static_assert(sizeof letter == 2, "one letter: " name);
COUNTER_GROUP_MAP(COUNTER_GROUP_LETTER_LEN)
#undef COUNTER_GROUP_LETTER_LEN
_Static_assert(COUNTER_GROUP_COUNT <= 8, "a plan's counters bits fit");

const char *counter_group_name(int g)
{
	return g >= 0 && g < COUNTER_GROUP_COUNT ? groups[g].name : NULL;
}

const char *counter_group_letter(int g)
{
	return g >= 0 && g < COUNTER_GROUP_COUNT ? groups[g].letter : NULL;
}

unsigned counter_group_os(int g)
{
	return g >= 0 && g < COUNTER_GROUP_COUNT ? groups[g].os : 0;
}

const char *counter_group_doc(int g)
{
	return g >= 0 && g < COUNTER_GROUP_COUNT ? groups[g].doc : NULL;
}

int counter_group_find(const char *name)
{
	for (int g = 0; name && g < COUNTER_GROUP_COUNT; g++)
		if (!strcmp(groups[g].name, name))
			return g;
	return -1;
}

const char *counter_scope_name(int sc)
{
	return sc >= 0 && sc < COUNTER_SCOPE_COUNT ? scopes[sc].name : NULL;
}

int counter_scope_group(int sc)
{
	return sc >= 0 && sc < COUNTER_SCOPE_COUNT ? scopes[sc].group : -1;
}

const char *counter_scope_series(int sc)
{
	return sc >= 0 && sc < COUNTER_SCOPE_COUNT ? scopes[sc].series : NULL;
}

int counter_scope_find(const char *name)
{
	for (int sc = 0; name && sc < COUNTER_SCOPE_COUNT; sc++)
		if (!strcmp(scopes[sc].name, name))
			return sc;
	return -1;
}
