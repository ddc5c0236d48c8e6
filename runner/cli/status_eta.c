/*
 * `xrun status`'s ETA of a session with runs pending (issue 35): each
 * pending run its own engine seconds (exec_run_seconds: a level's
 * duration, param: or params:) plus what a run of this session has cost
 * beyond its engine seconds, the median so far (the gap since the run
 * before, the lead-in, start-up and commit: the median leaves out the
 * long gaps of manual changes and of a stopped xrun). Without a finished
 * run, `xrun plan`'s per-run allowance is used and said.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"
#include "exec.h"
#include "matrix.h"
#include "plan.h"
#include "run_status.h"
#include "shard.h"
#include "xr_sched.h"
#include "store.h"
#include "banned.h"

/* xrun plan's allowance per run beyond the engine (runner/dry/dry.c) */
#define ETA_DEFAULT_BEYOND 0.35

struct beyond_scan {
	int64_t session;
	const struct plan *p;
	const struct matrix *m;
	double *v;
	size_t n, cap;
};

static int beyond_row(void *ctx, const struct store_run_timing *t)
{
	struct beyond_scan *b = ctx;
	const uint32_t *lv;
	if (t->session_id != b->session || isnan(t->gap) || isnan(t->elapsed) ||
	    t->cell_index < 0 || (size_t)t->cell_index >= b->m->ncells)
		return 0;
	if (b->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 64;
		double *v = realloc(b->v, cap * sizeof *v);
		if (!v)
			return -XR_ENOMEM;
		b->v = v;
		b->cap = cap;
	}
	lv = matrix_cell(b->m, (size_t)t->cell_index);
	b->v[b->n++] = t->gap + t->elapsed - exec_run_seconds(b->p, lv);
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The pending runs' engine seconds, and how many. */
static double pending_seconds(struct store *st, int64_t session,
			      const struct plan *p, const struct matrix *m,
			      const struct sched *s, size_t *npend)
{
	int64_t *ids = calloc(s->nruns + 1, sizeof *ids);
	uint8_t *status = calloc(s->nruns + 1, 1);
	struct xr_err err = {0};
	double sum = 0;
	int64_t n;
	size_t i;
	*npend = 0;
	n = ids && status
		? store_runs_load(st, session, ids, status, s->nruns, &err)
		: -1;
	for (i = 0; n >= 0 && i < s->nruns; i++)
		if ((int64_t)i >= n || !run_status_done(status[i])) {
			sum += exec_run_seconds(
			    p, matrix_cell(m, s->runs[i].cell));
			(*npend)++;
		}
	free(ids);
	free(status);
	return sum;
}

/* s as the session ran it: shard k of n's runs only when it was run
 * with --shard (store_shard_of), the whole plan's otherwise. */
static int session_schedule(struct store *st, int64_t session,
			    const struct plan *p, const struct matrix *m,
			    struct sched *s, struct xr_err *err)
{
	struct shard_plan sp = {0};
	uint32_t k, n;
	int r = store_shard_of(st, session, &k, &n, err);
	if (r <= 0)
		return r;
	r = shard_plan_build(p, m, s, n, &sp, err);
	if (r == 0)
		r = shard_keep(s, p, &sp, k, err);
	shard_plan_release(&sp);
	return r;
}

void status_print_eta(struct store *st, const struct store_session *ss,
		      const struct plan *p)
{
	struct beyond_scan b = {0};
	struct matrix m;
	struct sched s;
	struct xr_err err = {0};
	double est, beyond = ETA_DEFAULT_BEYOND;
	size_t npend;
	long t;
	if (!p || matrix_build(p, &m, &err) < 0)
		return;
	if (sched_build(p, &m, &s, &err) < 0) {
		matrix_release(&m);
		return;
	}
	/* A shard's session holds only its shard's runs: its pending runs
	 * are those of its own schedule, not of the whole plan's. */
	if (session_schedule(st, ss->id, p, &m, &s, &err) < 0) {
		sched_release(&s);
		matrix_release(&m);
		return;
	}
	est = pending_seconds(st, ss->id, p, &m, &s, &npend);
	b.session = ss->id;
	b.p = p;
	b.m = &m;
	if (npend && store_run_timings_each(st, beyond_row, &b, &err) == 0 &&
	    b.n) {
		qsort(b.v, b.n, sizeof *b.v, cmp_double);
		beyond = b.v[b.n / 2];
	} else {
		beyond += exec_wait_before(p);
	}
	t = (long)(est + (double)npend * beyond + 0.5);
	if (npend)
		printf("ETA %02ld:%02ld:%02ld for the %zu pending run%s "
		       "(%.0f s of engine time, each run %.2f s beyond it: "
		       "%s)\n",
		       t / 3600, t / 60 % 60, t % 60, npend,
		       npend == 1 ? "" : "s", est, beyond,
		       b.n ? "the median of this session's runs so far"
			   : "xrun plan's allowance, no run finished yet");
	free(b.v);
	sched_release(&s);
	matrix_release(&m);
}
