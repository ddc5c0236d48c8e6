/*
 * A plan file edited after its runs, seen by `xrun report PLAN`
 * (plan_recut.h): does it still describe the same runs (factors, their
 * levels, manual or not, the engine), and do its report settings differ
 * from those of the text stored with the runs? The report takes an edited
 * file's report section for the stored runs only when the runs are the
 * same ones; a changed factor, level or engine needs a new session.
 *
 * SPDX-License-Identifier: MIT
 */
#include "plan.h"

#include <string.h>

#include "buf.h"
#include "banned.h"

static int same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static void levels_text(const struct plan_factor *f, struct buf *b)
{
	int i;
	buf_addc(b, '[');
	for (i = 0; i < f->nlevels; i++)
		buf_addf(b, "%s%s", i ? ", " : "", f->levels[i]);
	buf_addc(b, ']');
}

int plan_runs_differ(const struct plan *stored, const struct plan *file,
		     struct buf *why)
{
	int i, j;
	if (!same_str(stored->engine.type, file->engine.type)) {
		buf_addf(why, "engine changed: %s -> %s", stored->engine.type,
			 file->engine.type);
		return 1;
	}
	for (i = 0; i < file->nfactors; i++) {
		const struct plan_factor *f = &file->factors[i];
		const struct plan_factor *g = NULL;
		int k = plan_factor_index(stored, f->name);
		if (k == PLAN_NOT_FOUND) {
			buf_addf(why, "factor '%s' added", f->name);
			return 1;
		}
		g = &stored->factors[k];
		if (k != i) {
			buf_addf(why, "factor '%s' moved (factor order)",
				 f->name);
			return 1;
		}
		for (j = 0; j < f->nlevels && f->nlevels == g->nlevels; j++)
			if (strcmp(f->levels[j], g->levels[j]))
				break;
		if (f->nlevels != g->nlevels || j < f->nlevels) {
			buf_addf(why, "factor '%s' levels changed: ", f->name);
			levels_text(g, why);
			buf_adds(why, " -> ");
			levels_text(f, why);
			return 1;
		}
		if (!f->manual != !g->manual) {
			buf_addf(why, "factor '%s' is now %s", f->name,
				 f->manual ? "manual" : "automatic");
			return 1;
		}
	}
	for (i = 0; i < stored->nfactors; i++)
		if (plan_factor_index(file, stored->factors[i].name) ==
		    PLAN_NOT_FOUND) {
			buf_addf(why, "factor '%s' removed",
				 stored->factors[i].name);
			return 1;
		}
	return 0;
}

static int same_kv(const struct plan_kv *a, int na, const struct plan_kv *b,
		   int nb)
{
	int i;
	if (na != nb)
		return 0;
	for (i = 0; i < na; i++)
		if (!same_str(a[i].key, b[i].key) ||
		    !same_str(a[i].value, b[i].value))
			return 0;
	return 1;
}

static int same_compare(const struct plan_compare *a,
			const struct plan_compare *b)
{
	return same_str(a->factor, b->factor) &&
	       same_str(a->baseline, b->baseline) &&
	       a->accept_sequential == b->accept_sequential &&
	       same_kv(a->a, a->na, b->a, b->na) &&
	       same_kv(a->b, a->nb, b->b, b->nb);
}

static int same_table(const struct plan_table *a, const struct plan_table *b)
{
	int i;
	if (!same_str(a->rows, b->rows) || !same_str(a->metric, b->metric) ||
	    a->ncolumns != b->ncolumns)
		return 0;
	for (i = 0; i < a->ncolumns; i++)
		if (!same_str(a->columns[i], b->columns[i]))
			return 0;
	return 1;
}

int plan_report_same(const struct plan_report *a, const struct plan_report *b)
{
	int i;
	if (!same_str(a->lang, b->lang) || !same_str(a->unit, b->unit) ||
	    a->threshold != b->threshold || a->ncompare != b->ncompare ||
	    a->ntables != b->ntables)
		return 0;
	for (i = 0; i < a->ncompare; i++)
		if (!same_compare(&a->compare[i], &b->compare[i]))
			return 0;
	for (i = 0; i < a->ntables; i++)
		if (!same_table(&a->tables[i], &b->tables[i]))
			return 0;
	return 1;
}
