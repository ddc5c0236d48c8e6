/*
 * The notes of a report (rnote.h): one per flag that appears, its text in
 * the report's language, and the cells and comparisons it applies to,
 * decided once so that every writer lists the same places.
 *
 * SPDX-License-Identifier: MIT
 */
#include <string.h>

#include "arena.h"
#include "xr_err.h"
#include "rnote.h"
#include "banned.h"

static void note_add(struct rt_note *n, const char *where, const char *detail)
{
	if (n->nitems >= RT_NOTE_MAX_ITEMS) {
		n->more++;
		return;
	}
	n->item[n->nitems].where = where;
	n->item[n->nitems++].detail = detail ? detail : "";
}

/* The comparison's own flag of this code: a reason, or a warning unless
 * the code is also a cell flag (then the warnings are the cells' copies,
 * listed with the cells). NULL when none. */
static const struct report_flag *cmp_own_flag(const struct report_cmp *c,
					      enum report_flag_code code)
{
	int j;
	for (j = 0; j < c->nreasons; j++)
		if (c->reasons[j].code == code)
			return &c->reasons[j];
	if (report_flag_scope(code) & REPORT_SCOPE_CELL)
		return NULL;
	for (j = 0; j < c->nwarnings; j++)
		if (c->warnings[j].code == code)
			return &c->warnings[j];
	return NULL;
}

/* "common: a → b", or "a → b" when the cells share no level: the arrow
 * the findings and the comparisons chart name a pair with, in every
 * language. */
static const char *cmp_where(const struct report *r, const struct report_cmp *c,
			     struct arena *a)
{
	char cm[512], sa[512], sb[512];
	const struct report_cell *A = &r->cells[c->a], *B = &r->cells[c->b];
	report_fmt_common(r, A, B, cm, sizeof cm);
	report_fmt_side(r, A, B, sa, sizeof sa);
	report_fmt_side(r, B, A, sb, sizeof sb);
	if (strcmp(cm, "–"))
		return arena_printf(a, "%s: %s → %s", cm, sa, sb);
	return arena_printf(a, "%s → %s", sa, sb);
}

static int note_fill(const struct report *r, struct rt_note *n, struct arena *a)
{
	enum report_flag_scope scope = report_flag_scope(n->code);
	int i, j;

	n->name = report_flag_code_name(n->code);
	n->text = report_flag_text(n->code, r->about.lang);
	n->item = arena_alloc(a, RT_NOTE_MAX_ITEMS * sizeof *n->item);
	if (!n->item)
		return -XR_ENOMEM;
	for (i = 0; (scope & REPORT_SCOPE_CELL) && i < r->ncells; i++)
		for (j = 0; j < r->cells[i].nflags; j++)
			if (r->cells[i].flags[j].code == n->code) {
				note_add(n, r->cells[i].label,
					 r->cells[i].flags[j].detail);
				break;
			}
	for (i = 0; (scope & REPORT_SCOPE_CMP) && i < r->ncmps; i++) {
		const struct report_flag *f =
		    cmp_own_flag(&r->cmps[i], n->code);
		const char *where;
		if (!f)
			continue;
		if (n->nitems >= RT_NOTE_MAX_ITEMS) {
			n->more++;
			continue;
		}
		where = cmp_where(r, &r->cmps[i], a);
		if (!where)
			return -XR_ENOMEM;
		note_add(n, where, f->detail);
	}
	return 0;
}

int rt_notes(const struct report *r, struct arena *a, struct rt_note **out,
	     int *n)
{
	struct rt_note *v;
	int k;

	*out = NULL;
	*n = 0;
	v = arena_alloc(a, (size_t)(r->nnotes + 1) * sizeof *v);
	if (!v)
		return -XR_ENOMEM;
	for (k = 0; k < r->nnotes; k++) {
		v[k].code = r->notes[k];
		if (note_fill(r, &v[k], a) < 0)
			return -XR_ENOMEM;
	}
	*out = v;
	*n = r->nnotes;
	return 0;
}
