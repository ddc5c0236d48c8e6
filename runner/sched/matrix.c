/*
 * Matrix expansion: turns the plan's factors and exclusions into the list of
 * cells (level-index tuples) that will be measured. The order is stable and
 * documented in matrix.h (first factor slowest) so that a cell index means
 * the same thing in every run of the same plan.
 *
 * The cells live in one flat array: a million cells cost one allocation,
 * which is why expansion makes two passes (count, then fill) instead of
 * growing a list.
 */
#include "matrix.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "plan.h"
#include "sched.h"
#include "banned.h"

int matrix_included(const struct plan *p, const uint32_t *lv)
{
	int e, t, i;
	for (e = 0; e < p->nexcludes; e++) {
		const struct plan_exclude *x = &p->excludes[e];
		int all = 1;
		for (t = 0; t < x->nterms && all; t++) {
			uint32_t have = lv[x->factor[t]];
			int hit = 0;
			for (i = 0; i < x->nlv[t] && !hit; i++)
				hit = (uint32_t)x->lv[t][i] == have;
			all = hit;
		}
		/* An exclusion with no terms would exclude everything: the
		 * validator refuses it, so it is ignored here. */
		if (all && x->nterms > 0)
			return 0;
	}
	return 1;
}

/* Advance the odometer (last factor fastest); 0 when it wrapped. */
static int odometer_next(const struct plan *p, uint32_t *lv)
{
	int f;
	for (f = p->nfactors - 1; f >= 0; f--) {
		if (++lv[f] < (uint32_t)p->factors[f].nlevels)
			return 1;
		lv[f] = 0;
	}
	return 0;
}

/* Walk the cross product; store included cells in out (when non-NULL). */
static size_t expand(const struct plan *p, uint32_t *lv, uint32_t *out)
{
	size_t n = 0, nf = (size_t)p->nfactors;
	memset(lv, 0, nf * sizeof *lv);
	do {
		if (matrix_included(p, lv)) {
			if (out)
				memcpy(out + n * nf, lv, nf * sizeof *lv);
			n++;
		}
	} while (nf > 0 && odometer_next(p, lv));
	return n;
}

int matrix_build(const struct plan *p, struct matrix *m, struct xr_err *err)
{
	size_t total = 1, n, nf = (size_t)p->nfactors;
	uint32_t *lv;
	int f;

	memset(m, 0, sizeof *m);
	for (f = 0; f < p->nfactors; f++) {
		size_t nl = (size_t)p->factors[f].nlevels;
		if (nl == 0)
			return xr_err_set(
			    err, XR_EPLAN, p->path, p->factors[f].pos.line,
			    p->factors[f].pos.col, "factor '%s' has no levels",
			    p->factors[f].name);
		if (total > MATRIX_MAX_CELLS / nl) /* a plan too big */
			return xr_err_set(
			    err, XR_EPLAN, p->path, p->factors[f].pos.line,
			    p->factors[f].pos.col,
			    "with factor '%s' the matrix has more than %zu "
			    "cells before exclusions (at most %zu are "
			    "supported)",
			    p->factors[f].name, MATRIX_MAX_CELLS,
			    MATRIX_MAX_CELLS);
		total *= nl;
	}
	lv = calloc(nf ? nf : 1, sizeof *lv);
	if (!lv)
		return xr_err_set(err, XR_ENOMEM, p->path, 0, 0,
				  "out of memory expanding the matrix");
	n = p->nexcludes ? expand(p, lv, NULL) : total;
	if ((double)n * (p->repeat > 0 ? p->repeat : 1) >
	    (double)SCHED_MAX_RUNS) {
		/* Counted, not expanded: a plan of 5000 x 5000 levels is
		 * refused at once, not after a gigabyte of schedule. */
		struct plan_pos at = p->repeat_pos;
		free(lv);
		if (!at.line && nf)
			at = p->factors[nf - 1].pos;
		return xr_err_set(err, XR_EPLAN, p->path, at.line, at.col,
				  "the schedule has more than %zu runs: %zu "
				  "cells%s x repeat %d (lower repeat, use "
				  "fewer levels or add exclusions)",
				  SCHED_MAX_RUNS, n,
				  p->nexcludes ? " after exclusions" : "",
				  p->repeat);
	}
	if (n == 0) {
		free(lv);
		return xr_err_set(err, XR_EPLAN, p->path, 0, 0,
				  "the exclusions leave no cell to run "
				  "(%zu cells before exclusions)",
				  total);
	}
	m->lv = malloc((n * nf > 0 ? n * nf : 1) * sizeof *m->lv);
	if (!m->lv) {
		free(lv);
		return xr_err_set(err, XR_ENOMEM, p->path, 0, 0,
				  "out of memory for %zu cells", n);
	}
	expand(p, lv, m->lv);
	free(lv);
	m->nfactors = p->nfactors;
	m->ncells = n;
	return 0;
}

int matrix_cell_json(const struct plan *p, const uint32_t *lv, struct buf *out)
{
	int f, rc = 0;
	rc |= buf_addc(out, '{');
	for (f = 0; f < p->nfactors; f++) {
		const struct plan_factor *fa = &p->factors[f];
		if (f)
			rc |= buf_addc(out, ',');
		rc |= buf_add_json_str(out, fa->name);
		rc |= buf_addc(out, ':');
		rc |= buf_add_json_str(out, fa->levels[lv[f]]);
	}
	rc |= buf_addc(out, '}');
	return rc ? -XR_ENOMEM : 0;
}

void matrix_release(struct matrix *m)
{
	free(m->lv);
	memset(m, 0, sizeof *m);
}
