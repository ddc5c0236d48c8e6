/*
 * Matrix tables of the report model: from the plan's report.tables or a
 * default (rows: the factor with the most levels; columns: the others),
 * each slot the index of the cell with those levels. Split from
 * compare.c, which makes the comparisons.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "buf.h"
#include "model_int.h"
#include "plan.h"
#include "banned.h"

/* Cell k's combination of column levels as table_fill numbers them (the
 * last column factor fastest), -1 when a level is out of range. */
static int cell_comb(const struct report *r, int k, const int *cols, int ncols)
{
	int c = 0;
	for (int i = 0; i < ncols; i++) {
		int nl = r->factors[cols[i]].nlevels,
		    v = r->cells[k].lv[cols[i]];
		if (v < 0 || v >= (nl ? nl : 1))
			return -1;
		c = c * (nl ? nl : 1) + v;
	}
	return c;
}

/* Fill one table given its row factor and column factors. Each cell is
 * placed by its row level and its combination's column (every row x
 * column against every cell was quadratic: 10^5 levels took minutes,
 * issue 24). */
static int table_fill(struct model_build *m, struct report_table *t, int row,
		      const int *cols, int ncols)
{
	struct report *r = m->r;
	int ncomb = 1, i, k, c, *cell, **col_lv, *comb_col;
	const char **col_label, **row_label;
	int *colf;

	for (i = 0; i < ncols; i++)
		ncomb *= r->factors[cols[i]].nlevels > 0
			     ? r->factors[cols[i]].nlevels
			     : 1;
	t->row_factor = row;
	t->nrows = row >= 0 ? r->factors[row].nlevels : 1;
	if (t->nrows < 1)
		t->nrows = 1;
	colf = arena_alloc(m->a, ((size_t)ncols + 1) * sizeof *colf);
	col_lv = arena_alloc(m->a, ((size_t)ncomb + 1) * sizeof *col_lv);
	col_label = arena_alloc(m->a, ((size_t)ncomb + 1) * sizeof *col_label);
	row_label =
	    arena_alloc(m->a, ((size_t)t->nrows + 1) * sizeof *row_label);
	if (!colf || !col_lv || !col_label || !row_label)
		return -XR_ENOMEM;
	if (ncols)
		memcpy(colf, cols, (size_t)ncols * sizeof *colf);
	t->col_factors = colf;
	t->ncol_factors = ncols;
	for (i = 0; i < t->nrows; i++)
		row_label[i] = row >= 0 ? r->factors[row].levels[i] : "";
	t->row_label = row_label;
	/* Every combination of column levels that some cell has. */
	comb_col = arena_alloc(m->a, ((size_t)ncomb + 1) * sizeof *comb_col);
	if (!comb_col)
		return -XR_ENOMEM;
	for (c = 0; c < ncomb; c++)
		comb_col[c] = -1;
	for (k = 0; k < r->ncells; k++)
		if ((c = cell_comb(r, k, cols, ncols)) >= 0)
			comb_col[c] = 0;
	t->ncols = 0;
	for (c = 0; c < ncomb; c++) {
		int rest = c, *lv;
		struct buf b = BUF_INIT;
		if (comb_col[c] < 0)
			continue;
		lv = arena_alloc(m->a, ((size_t)ncols + 1) * sizeof *lv);
		if (!lv)
			return -XR_ENOMEM;
		for (i = ncols - 1; i >= 0; i--) {
			int nl = r->factors[cols[i]].nlevels;
			lv[i] = nl ? rest % nl : 0;
			rest = nl ? rest / nl : rest;
		}
		for (i = 0; i < ncols; i++)
			buf_addf(&b, "%s%s", i ? " / " : "",
				 r->factors[cols[i]].levels[lv[i]]);
		col_label[t->ncols] = arena_strdup(m->a, ncols ? b.s : "");
		buf_release(&b);
		comb_col[c] = t->ncols;
		col_lv[t->ncols++] = lv;
	}
	if (!t->ncols) {
		col_lv[0] = colf;
		col_label[0] = "";
		t->ncols = 1;
	}
	t->col_label = col_label;
	t->col_lv = (const int *const *)col_lv;
	cell = arena_alloc(m->a,
			   (size_t)t->nrows * (size_t)t->ncols * sizeof *cell);
	if (!cell)
		return -XR_ENOMEM;
	for (i = 0; i < t->nrows * t->ncols; i++)
		cell[i] = -1;
	for (k = 0; k < r->ncells; k++) {
		int ri = row >= 0 ? r->cells[k].lv[row] : 0,
		    cc = cell_comb(r, k, cols, ncols), *slot;
		if (ri < 0 || ri >= t->nrows || cc < 0 || comb_col[cc] < 0)
			continue;
		slot = &cell[ri * t->ncols + comb_col[cc]];
		if (*slot >= 0)
			t->ambiguous = 1;
		else
			*slot = k;
	}
	t->cell = cell;
	return 0;
}

int model_tables(struct model_build *m, struct xr_err *err)
{
	struct report *r = m->r;
	const struct plan *p = m->plan;
	int n = p && p->report.ntables ? p->report.ntables : 1, i, k;
	int cols[64];

	r->tables = arena_alloc(m->a, (size_t)n * sizeof *r->tables);
	if (!r->tables)
		goto oom;
	for (i = 0; p && i < p->report.ntables; i++) {
		const struct plan_table *pt = &p->report.tables[i];
		struct report_table *t = &r->tables[r->ntables];
		int row = report_factor_index(r, pt->rows), nc = 0, mi;
		for (k = 0; k < pt->ncolumns && nc < 64; k++) {
			int f = report_factor_index(r, pt->columns[k]);
			if (f >= 0 && f != row)
				cols[nc++] = f;
		}
		mi = report_metric_index(r, pt->metric);
		t->metric_index = mi >= 0 ? mi : r->met.primary;
		t->metric = r->met.metrics[t->metric_index];
		if (table_fill(m, t, row, cols, nc) < 0)
			goto oom;
		r->ntables++;
	}
	if (!r->ntables) {
		struct report_table *t = &r->tables[0];
		int row = -1, nc = 0;
		for (k = 0; k < r->nfactors; k++)
			if (row < 0 ||
			    r->factors[k].nlevels > r->factors[row].nlevels)
				row = k;
		for (k = 0; k < r->nfactors && nc < 64; k++)
			if (k != row)
				cols[nc++] = k;
		t->metric_index = r->met.primary;
		t->metric = r->met.metric;
		if (table_fill(m, t, row, cols, nc) < 0)
			goto oom;
		r->ntables = 1;
	}
	return 0;
oom:
	return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
}
