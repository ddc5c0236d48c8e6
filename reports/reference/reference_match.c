/*
 * A read reference against the report's cells: each published cell matched
 * to the measured cell with the same levels (not measured, ambiguous or
 * matched, with ratio and range), the verdicts judged (reference_verdict.c),
 * and the texts the writers show for a row; report_load(), the model with
 * its reference.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "buf.h"
#include "format.h"
#include "reference_int.h"
#include "banned.h"

int ref_match_cells(struct report *r, struct report_ref *ref,
		    struct report_ref_row *w, int *firstp)
{
	struct arena *a = r->arena;
	int k, j, first = -1, count = 0;
	*firstp = -1;
	for (j = 0; j < ref->nfactors; j++) {
		const struct report_factor *fa =
		    &r->factors[ref->factor_index[j]];
		int l, known = 0;
		for (l = 0; l < fa->nlevels; l++)
			if (!strcmp(fa->levels[l], w->levels[j]))
				known = 1;
		if (!known) {
			w->status = REPORT_REF_NOT_MEASURED;
			w->detail = arena_printf(
			    a, "%s '%s' is not a level of the plan", fa->name,
			    w->levels[j]);
			return 0;
		}
	}
	for (k = 0; k < r->ncells; k++) {
		const struct report_cell *c = &r->cells[k];
		for (j = 0; j < ref->nfactors; j++) {
			int fi = ref->factor_index[j], l = c->lv[fi];
			if (l < 0 ||
			    strcmp(r->factors[fi].levels[l], w->levels[j]))
				break;
		}
		if (j < ref->nfactors)
			continue;
		if (first < 0)
			first = k;
		count++;
	}
	*firstp = first;
	if (count == 0) {
		w->status = REPORT_REF_NOT_MEASURED;
		w->detail = "no cell with these levels";
		return 0;
	}
	if (count > 1) {
		/* the factors the reference does not name that vary */
		struct buf b = BUF_INIT;
		int fi;
		for (fi = 0; fi < r->nfactors; fi++) {
			int l0 = -2, varies = 0;
			for (k = 0; k < r->ncells; k++) {
				const struct report_cell *c = &r->cells[k];
				for (j = 0; j < ref->nfactors; j++) {
					int g = ref->factor_index[j];
					if (c->lv[g] < 0 ||
					    strcmp(
						r->factors[g].levels[c->lv[g]],
						w->levels[j]))
						break;
				}
				if (j < ref->nfactors)
					continue;
				if (l0 == -2)
					l0 = c->lv[fi];
				else if (c->lv[fi] != l0)
					varies = 1;
			}
			if (varies)
				buf_addf(&b, "%s%s", b.len ? ", " : "",
					 r->factors[fi].name);
		}
		w->status = REPORT_REF_AMBIGUOUS;
		w->detail = arena_printf(a, "%d cells match, differing in %s",
					 count, b.s ? b.s : "?");
		buf_release(&b);
	}
	return count;
}

/* Match row w to the cells: by the levels of every factor column. */
void ref_match_row(struct report *r, struct report_ref *ref,
		   struct report_ref_row *w)
{
	struct arena *a = r->arena;
	int first, j, n = ref_match_cells(r, ref, w, &first);
	if (n > 0)
		w->cell = first;
	if (n != 1)
		return;
	{
		const struct report_cell *c = &r->cells[first];
		if (c->st[ref->value_metric[0]].n == 0) {
			w->status = REPORT_REF_NOT_MEASURED;
			w->detail = arena_printf(a, "no ok run, %d failed",
						 c->n_failed + c->n_timeout);
			return;
		}
	}
	w->status = REPORT_REF_MATCHED;
	for (j = 0; j < ref->nvalues; j++) {
		const struct report_stats *s =
		    &r->cells[first].st[ref->value_metric[j]];
		struct report_ref_value *v = &w->v[j];
		if (isnan(v->published) || s->n == 0)
			continue;
		if (v->published != 0)
			v->ratio = s->median / v->published;
		v->in_range =
		    v->published >= s->min && v->published <= s->max ? 1 : 0;
	}
}

int ref_attach(struct report *r, const char *path, double tolerance,
	       struct xr_diag *d, struct xr_err *err)
{
	struct report_ref *ref;
	int k, rc = ref_parse(r, path, REF_BIND_STORE, NULL, d, err, &ref);
	if (rc < 0 || !ref)
		return rc;
	for (k = 0; k < ref->nrows; k++) {
		struct report_ref_row *w = &ref->rows[k];
		ref_match_row(r, ref, w);
		if (w->status == REPORT_REF_MATCHED)
			ref->nmatched++;
		else if (w->status == REPORT_REF_AMBIGUOUS)
			ref->nambiguous++;
		else
			ref->nnot_measured++;
	}
	if (tolerance > 0) {
		ref->tolerance = tolerance;
		ref->tolerance_source = 2;
	}
	if (ref_verdicts(r, ref) < 0)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	/* a unit the file gets wrong shows only against the runs */
	ref_check_scale(r, ref, d);
	r->ref = ref;
	return 0;
}

int report_reference_attach(struct report *r, const char *path,
			    struct xr_diag *dd, struct xr_err *err)
{
	return ref_attach(r, path, 0, dd, err);
}

int report_load(const char *db_path, const struct report_opts *o,
		struct report **out, struct xr_err *err)
{
	int rc = report_build(db_path, o, out, err);
	if (rc < 0 || !o || !o->reference)
		return rc;
	rc = ref_attach(*out, o->reference, o->tolerance, o->diag, err);
	if (rc < 0) {
		report_free(*out);
		*out = NULL;
	}
	return rc;
}

void report_ref_fmt(const struct report *r, const struct report_ref_row *w,
		    int j, char out[REPORT_REF_NCOLS][192])
{
	const struct report_ref *ref = r->ref;
	int mi = ref->value_metric[j], c;
	const struct report_ref_value *v = &w->v[j];
	const struct report_stats *s =
	    w->cell >= 0 ? &r->cells[w->cell].st[mi] : NULL;
	char x[64], y[64];
	for (c = 0; c < REPORT_REF_NCOLS; c++)
		snprintf(out[c], 192, "–");
	if (mi == r->met.primary)
		snprintf(out[REPORT_REF_COL_METRIC], 192, "%s (%s)",
			 ref->values[j], r->met.display_unit);
	else
		snprintf(out[REPORT_REF_COL_METRIC], 192, "%s", ref->values[j]);
	report_ref_fmt_published(r, mi, v->published,
				 j == 0 && w->npub > 0 ? w->pub_text[0] : NULL,
				 out[REPORT_REF_COL_PUBLISHED], 192);
	if (w->status != REPORT_REF_MATCHED) {
		const char *what =
		    report_text(r, w->status == REPORT_REF_AMBIGUOUS
				       ? REPORT_T_REF_AMBIGUOUS
				       : REPORT_T_REF_NOT_MEASURED);
		snprintf(out[REPORT_REF_COL_MEDIAN], 192, "%s%s%s%s", what,
			 *w->detail ? " (" : "", w->detail,
			 *w->detail ? ")" : "");
		return;
	}
	if (!s || s->n == 0)
		return;
	report_fmt_metric(r, mi, s->median, out[REPORT_REF_COL_MEDIAN], 192);
	if (!isnan(s->ci_low)) {
		report_fmt_metric(r, mi, s->ci_low, x, sizeof x);
		report_fmt_metric(r, mi, s->ci_high, y, sizeof y);
		snprintf(out[REPORT_REF_COL_CI], 192, "%s – %s", x, y);
	}
	report_fmt_metric(r, mi, s->min, x, sizeof x);
	report_fmt_metric(r, mi, s->max, y, sizeof y);
	snprintf(out[REPORT_REF_COL_RANGE], 192, "%s – %s", x, y);
	if (!isnan(v->ratio))
		snprintf(out[REPORT_REF_COL_RATIO], 192, "%.3f", v->ratio);
	if (v->in_range >= 0)
		snprintf(
		    out[REPORT_REF_COL_IN_RANGE], 192, "%s",
		    report_text(r, v->in_range ? REPORT_T_YES : REPORT_T_NO));
}

const char *report_ref_status_name(enum report_ref_status s)
{
	static const char *const names[] = {"matched", "not_measured",
					    "ambiguous"};
	if ((unsigned)s >= sizeof names / sizeof names[0])
		return "not_measured";
	return names[s];
}
