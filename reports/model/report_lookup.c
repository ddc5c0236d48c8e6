/*
 * Lookups on a built report (declared in report.h): a metric's or a
 * factor's index by name, a heading in the report's language, how many
 * of a cell's ok runs never verified a setting, a flag's note number.
 * The steps of the build (tables.c, compare.c, recut.c, pair_note.c,
 * model_stats.c) and the number text (format.c) use them as the writers
 * do; a leaf, so that none of them calls back up into model.c nor into
 * another step.
 *
 * SPDX-License-Identifier: MIT
 */
#include <string.h>

#include "report.h"
#include "banned.h"

int report_metric_index(const struct report *r, const char *name)
{
	int i;
	for (i = 0; name && i < r->met.nmetrics; i++)
		if (!strcmp(r->met.metrics[i], name))
			return i;
	return -1;
}

int report_factor_index(const struct report *r, const char *name)
{
	int i;
	for (i = 0; name && i < r->nfactors; i++)
		if (!strcmp(r->factors[i].name, name))
			return i;
	return -1;
}

const char *report_text(const struct report *r, enum report_text_id id)
{
	return report_text_lang(r ? r->about.lang : REPORT_LANG_EN, id);
}

int report_cell_unverified(const struct report *r, int ci, int f)
{
	const struct report_cell *c;
	if (ci < 0 || ci >= r->ncells || f < 0 || f >= r->nfactors ||
	    !r->factors[f].setting)
		return 0;
	c = &r->cells[ci];
	if (!c->ver)
		return 0;
	return c->n_ok > c->ver[f].checked ? c->n_ok - c->ver[f].checked : 0;
}

int report_flag_mark(const struct report *r, enum report_flag_code c)
{
	int i;
	for (i = 0; i < r->nnotes; i++)
		if (r->notes[i] == c)
			return i + 1;
	return 0;
}
