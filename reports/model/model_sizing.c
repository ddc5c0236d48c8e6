/*
 * The report's view of sized repetitions: each cell's decision and outcome
 * from the store's `sizing` table (the latest of the reported sessions
 * that sized the cell), and the precision_not_reached flag, in the spirit
 * of netperf's "desired confidence was not achieved": a cell that stopped
 * at max with a wider interval than the plan asked for.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <string.h>

#include "arena.h"
#include "model_flag.h"
#include "model_loader.h"
#include "store.h"
#include "banned.h"

static int model_sizing_row(void *ctx, const struct store_sizing_row *row)
{
	struct loader *l = ctx;
	struct report *r = l->m.r;
	struct report_sizing *z;
	int ci;
	for (ci = 0; ci < r->ncells; ci++)
		if (r->cells[ci].json && row->cell &&
		    !strcmp(r->cells[ci].json, row->cell))
			break;
	if (ci == r->ncells)
		return 0;
	if (!(z = arena_alloc(l->m.a, sizeof *z)))
		return loader_oom(l);
	z->pilot_n = row->pilot_n;
	z->need = row->need;
	z->planned = row->planned;
	z->max = row->max;
	z->runs_done = row->runs_done;
	z->precision = row->precision;
	z->reached = row->reached;
	z->stopped = row->stopped ? arena_strdup(l->m.a, row->stopped) : NULL;
	r->cells[ci].sizing = z;
	return 0;
}

/* A run a sizing decision read (the verdict leaves the decision's spread
 * out of its variance: verdict.c). */
static int model_sizing_run(void *ctx, int64_t run_id, int64_t block)
{
	struct loader *l = ctx;
	int ri = loader_run_by_id(l, run_id);
	if (ri >= 0)
		l->m.runs[ri].decide = (int)block + 1;
	return 0;
}

int loader_sizing(struct loader *l, struct xr_err *err)
{
	struct report *r = l->m.r;
	int i, rc;
	for (i = 0; i < r->span.nsessions; i++)
		if ((rc = store_sizing_each(l->st, r->span.sessions[i],
					    model_sizing_row, l, err)) < 0 ||
		    (rc = store_sizing_runs_each(l->st, r->span.sessions[i],
						 model_sizing_run, l, err)) < 0)
			return rc;
	for (i = 0; i < r->ncells; i++) {
		const struct report_sizing *z = r->cells[i].sizing;
		if (z && z->stopped && !strcmp(z->stopped, "max") &&
		    z->reached > z->precision)
			model_flag(
			    &l->m, r->cells[i].flags, &r->cells[i].nflags,
			    REPORT_FLAG_PRECISION_NOT_REACHED,
			    MODEL_JA(&l->m)
				? "±%.1f%%（目標 ±%.1f%%、%d 回）"
				: "±%.1f%% (target ±%.1f%%) after %d "
				  "runs",
			    100 * z->reached, 100 * z->precision, z->runs_done);
	}
	return 0;
}
