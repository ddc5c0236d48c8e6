/*
 * The kinds of limit (explain_kind.h): their names and texts from
 * EXPLAIN_KIND_MAP.
 *
 * SPDX-License-Identifier: MIT
 */
#include "explain_kind.h"

#include "banned.h"

static const struct {
	const char *name, *text[REPORT_LANG_COUNT];
} kinds[] = {
#define EXPLAIN_ROW(e, n, en, ja) {n, {en, ja}},
    EXPLAIN_KIND_MAP(EXPLAIN_ROW)
#undef EXPLAIN_ROW
};

const char *explain_kind_name(enum explain_kind k)
{
	return kinds[k].name;
}

const char *explain_kind_text(enum explain_kind k, enum report_lang lang)
{
	return kinds[k].text[lang];
}

void explain_push(enum explain_kind *k, int *n, enum explain_kind v)
{
	if (*n < 2)
		k[(*n)++] = v;
}
