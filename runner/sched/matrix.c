/*
 * Matrix expansion: turns the plan's factors and exclusions into the list of
 * cells (level-index tuples) that will be measured. The order is stable and
 * documented in matrix.h (first factor slowest) so that a cell index means
 * the same thing in every run of the same plan.
 *
 * The cells live in one flat array: a million cells cost one allocation,
 * which is why expansion makes two passes (count, then fill) instead of
 * growing a list.
 *
 * SPDX-License-Identifier: MIT
 */
#include "matrix.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "plan.h"
#include "xr_sched.h"
#include "banned.h"

/* Does exclusion x take the cell lv? An exclusion with no terms would
 * exclude everything: the validator refuses it, so it takes none. */
static int excludes(const struct plan_exclude *x, const uint32_t *lv)
{
	int t, i, all = x->nterms > 0;
	for (t = 0; t < x->nterms && all; t++) {
		uint32_t have = lv[x->factor[t]];
		int hit = 0;
		for (i = 0; i < x->nlv[t] && !hit; i++)
			hit = (uint32_t)x->lv[t][i] == have;
		all = hit;
	}
	return all;
}

int matrix_included(const struct plan *p, const uint32_t *lv)
{
	for (int e = 0; e < p->nexcludes; e++)
		if (excludes(&p->excludes[e], lv))
			return 0;
	return 1;
}

/*
 * The exclusions indexed by one term each (issue 40: 10^4 exclusions
 * cost 4.4 s at every start, every cell against every exclusion): the
 * term of the factor with the most levels, the most selective; a cell
 * is then checked against the exclusions listed under its own level of
 * each factor only. ex[start[base[f] + l] .. start[base[f] + l + 1]):
 * the exclusions keyed on level l of factor f.
 */
struct xindex {
	size_t *base, *start;
	int *ex;
};

static int key_term(const struct plan *p, const struct plan_exclude *x)
{
	int k = 0;
	for (int t = 1; t < x->nterms; t++)
		if (p->factors[x->factor[t]].nlevels >
		    p->factors[x->factor[k]].nlevels)
			k = t;
	return k;
}

static int xindex_build(const struct plan *p, struct xindex *xi)
{
	size_t tot = 0, n = 0, *at;
	int f, e, i;
	memset(xi, 0, sizeof *xi);
	if (!(xi->base = calloc((size_t)p->nfactors + 1, sizeof *xi->base)))
		return -XR_ENOMEM;
	for (f = 0; f < p->nfactors; f++) {
		xi->base[f] = tot;
		tot += (size_t)p->factors[f].nlevels;
	}
	for (e = 0; e < p->nexcludes; e++)
		if (p->excludes[e].nterms > 0)
			n += (size_t)p->excludes[e]
				 .nlv[key_term(p, &p->excludes[e])];
	xi->start = calloc(tot + 2, sizeof *xi->start);
	xi->ex = malloc((n ? n : 1) * sizeof *xi->ex);
	at = calloc(tot + 1, sizeof *at);
	if (!xi->start || !xi->ex || !at) {
		free(at);
		return -XR_ENOMEM;
	}
	for (int pass = 0; pass < 2; pass++) {
		for (e = 0; e < p->nexcludes; e++) {
			const struct plan_exclude *x = &p->excludes[e];
			int k = x->nterms > 0 ? key_term(p, x) : -1;
			for (i = 0; k >= 0 && i < x->nlv[k]; i++) {
				size_t slot = xi->base[x->factor[k]] +
					      (size_t)x->lv[k][i];
				/* a level no cell has takes no cell */
				if (x->lv[k][i] < 0 ||
				    x->lv[k][i] >=
					p->factors[x->factor[k]].nlevels)
					continue;
				if (pass == 0)
					xi->start[slot + 1]++;
				else
					xi->ex[at[slot]++] = e;
			}
		}
		for (size_t j = 0; pass == 0 && j < tot; j++) {
			xi->start[j + 1] += xi->start[j];
			at[j] = xi->start[j];
		}
	}
	free(at);
	return 0;
}

static void xindex_free(struct xindex *xi)
{
	free(xi->base);
	free(xi->start);
	free(xi->ex);
}

/* matrix_included through the index. */
static int included(const struct plan *p, const struct xindex *xi,
		    const uint32_t *lv)
{
	for (int f = 0; f < p->nfactors; f++) {
		size_t slot = xi->base[f] + lv[f];
		for (size_t j = xi->start[slot]; j < xi->start[slot + 1]; j++)
			if (excludes(&p->excludes[xi->ex[j]], lv))
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
static size_t expand(const struct plan *p, const struct xindex *xi,
		     uint32_t *lv, uint32_t *out)
{
	size_t n = 0, nf = (size_t)p->nfactors;
	memset(lv, 0, nf * sizeof *lv);
	do {
		if (included(p, xi, lv)) {
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
	struct xindex xi = {0};
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
	if (!lv || xindex_build(p, &xi) < 0) {
		free(lv);
		xindex_free(&xi);
		return xr_err_set(err, XR_ENOMEM, p->path, 0, 0,
				  "out of memory expanding the matrix");
	}
	n = p->nexcludes ? expand(p, &xi, lv, NULL) : total;
	if ((double)n * (p->repeat > 0 ? p->repeat : 1) >
	    (double)SCHED_MAX_RUNS) {
		/* Counted, not expanded: a plan of 5000 x 5000 levels is
		 * refused at once, not after a gigabyte of schedule. */
		struct plan_pos at = p->repeat_pos;
		free(lv);
		xindex_free(&xi);
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
		xindex_free(&xi);
		return xr_err_set(err, XR_EPLAN, p->path, 0, 0,
				  "the exclusions leave no cell to run "
				  "(%zu cells before exclusions)",
				  total);
	}
	m->lv = malloc((n * nf > 0 ? n * nf : 1) * sizeof *m->lv);
	if (!m->lv) {
		free(lv);
		xindex_free(&xi);
		return xr_err_set(err, XR_ENOMEM, p->path, 0, 0,
				  "out of memory for %zu cells", n);
	}
	expand(p, &xi, lv, m->lv);
	free(lv);
	xindex_free(&xi);
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
