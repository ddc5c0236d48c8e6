/*
 * Matrix tables of the report model: from the plan's report.tables or a
 * default (rows: the factor with the most levels; columns: the others),
 * each slot the index of the cell with those levels. Split from
 * compare.c, which makes the comparisons.
 */
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "buf.h"
#include "model_int.h"
#include "plan.h"
#include "banned.h"

/* Fill one table given its row factor and column factors. */
static int table_fill(struct model_build *m, struct report_table *t, int row,
		      const int *cols, int ncols)
{
	struct report *r = m->r;
	int ncomb = 1, i, k, c, *cell, **col_lv;
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
	t->ncols = 0;
	for (c = 0; c < ncomb; c++) {
		int rest = c, *lv, found = 0;
		struct buf b = BUF_INIT;
		lv = arena_alloc(m->a, ((size_t)ncols + 1) * sizeof *lv);
		if (!lv)
			return -XR_ENOMEM;
		for (i = ncols - 1; i >= 0; i--) {
			int nl = r->factors[cols[i]].nlevels;
			lv[i] = nl ? rest % nl : 0;
			rest = nl ? rest / nl : rest;
		}
		for (k = 0; k < r->ncells && !found; k++) {
			found = 1;
			for (i = 0; i < ncols; i++)
				if (r->cells[k].lv[cols[i]] != lv[i])
					found = 0;
		}
		if (!found)
			continue;
		for (i = 0; i < ncols; i++)
			buf_addf(&b, "%s%s", i ? " / " : "",
				 r->factors[cols[i]].levels[lv[i]]);
		col_label[t->ncols] = arena_strdup(m->a, ncols ? b.s : "");
		buf_release(&b);
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
	for (i = 0; i < t->nrows; i++)
		for (c = 0; c < t->ncols; c++) {
			int *slot = &cell[i * t->ncols + c];
			*slot = -1;
			for (k = 0; k < r->ncells; k++) {
				int j, match = 1;
				if (row >= 0 && r->cells[k].lv[row] != i)
					continue;
				for (j = 0; j < ncols && match; j++)
					if (r->cells[k].lv[cols[j]] !=
					    col_lv[c][j])
						match = 0;
				if (!match)
					continue;
				if (*slot >= 0) {
					t->ambiguous = 1;
					break;
				}
				*slot = k;
			}
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
