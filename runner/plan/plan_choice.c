/*
 * The words of a plan's `order:` and `counters:` (plan.h: PLAN_ORDER_MAP,
 * and the counter groups' own table in runner/desc/counter_group.h): the
 * loader parses with them, its "unknown ..." message offers them, and
 * `xrun plan` and the session's description print them.
 *
 * SPDX-License-Identifier: MIT
 */
#include <string.h>

#include "plan.h"

#include "banned.h"

const char *const plan_order_names[] = {
#define PLAN_ORDER_NAME(id, name) name,
    PLAN_ORDER_MAP(PLAN_ORDER_NAME)
#undef PLAN_ORDER_NAME
	NULL};

const char *plan_order_name(enum plan_order o)
{
	return plan_order_names[(unsigned)o < PLAN_ORDER_COUNT ? o : 0];
}

int plan_order_find(const char *name)
{
	for (int i = 0; name && i < PLAN_ORDER_COUNT; i++)
		if (!strcmp(plan_order_names[i], name))
			return i;
	return -1;
}

const char *const plan_counters_choices[] = {
#define PLAN_COUNTERS_CHOICE(id, name, letter, os, doc) name,
    COUNTER_GROUP_MAP(PLAN_COUNTERS_CHOICE)
#undef PLAN_COUNTERS_CHOICE
	PLAN_COUNTERS_ALL,
    PLAN_COUNTERS_NONE, NULL};

int plan_counters_word(const char *word, unsigned *bits)
{
	int g = counter_group_find(word);
	if (g >= 0)
		*bits = 1u << g;
	else if (word && !strcmp(word, PLAN_COUNTERS_ALL))
		*bits = COUNTER_GROUP_ALL;
	else if (word && !strcmp(word, PLAN_COUNTERS_NONE))
		*bits = 0;
	else
		return -1;
	return 0;
}
