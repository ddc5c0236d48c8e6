/*
 * A scheduled run as a rate search (schema/plan.md, "Rate search"): the
 * search core (runner/search) says which load to try next; each trial is
 * run by the run loop like any run (hooks, counters, samplers, the
 * engine) but stored in a row of its own (store.h, "rate searches"), with
 * the loss ratio read from its result. A resumed session replays the
 * search's stored trials into the core in their order, so that it asks
 * for the trial it would have run next; a trial that did not end is run
 * again in its own row, so nothing is lost or doubled. The search's own
 * run then holds what each goal found, as metrics (ndr, ndr_throughput
 * ...) that tables and verdicts read like any other.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "engine.h"
#include "plan.h"
#include "proc.h"
#include "runctx.h"
#include "xr_search.h"
#include "banned.h"

/* Trials in a row that may fail (an engine error, not a loss) before the
 * search gives up: a broken engine should not run max_trials times. */
#define SEARCH_FAILS_IN_A_ROW 3

static const struct engine_metric *metric(const struct engine_result *res,
					  const char *name)
{
	int k;
	for (k = 0; k < res->nmetrics; k++)
		if (!strcmp(res->metrics[k].name, name))
			return &res->metrics[k];
	return NULL;
}

/* iperf3 UDP: datagrams lost, and what the sender did not send of the
 * load (search_udp_loss). */
static double udp_loss(double load, double duration, double unsent,
		       const struct engine_result *res, char *why, size_t whysz)
{
	const struct engine_metric *pk = metric(res, "packets"),
				   *lo = metric(res, "lost_packets"),
				   *by = metric(res, "bytes");
	if (!pk || !lo || !by) {
		snprintf(why, whysz,
			 "no loss ratio: the engine reported no packets, "
			 "lost_packets and bytes (a UDP run has them)");
		return NAN;
	}
	return search_udp_loss(load, duration, unsent, pk->value, lo->value,
			       by->value);
}

double search_trial_loss(const struct runctx *rc,
			 const struct engine_result *res, char *why,
			 size_t whysz)
{
	const struct plan_search *s = &rc->p->search;
	const struct engine_metric *m;
	double v;
	if (!s->loss)
		return udp_loss(atof(rc->trial.load), rc->trial.duration,
				s->unsent, res, why, whysz);
	if (!(m = metric(res, s->loss))) {
		snprintf(why, whysz, "no loss ratio: metric '%s' is missing",
			 s->loss);
		return NAN;
	}
	v = m->value;
	if (!strcmp(m->unit, "%"))
		v /= 100;
	if (!(v >= 0 && v <= 1)) {
		snprintf(why, whysz,
			 "loss ratio %g of metric '%s' is not within 0..1", v,
			 s->loss);
		return NAN;
	}
	return v;
}

/* ---- the stored trials ------------------------------------------------ */

struct state {
	struct runctx *rc;
	struct search *s;
	struct search_goal *goals;
	struct search_cfg cfg;
	int rows;	  /* trial rows of this search */
	int fails;	  /* failed trials in a row, at the end */
	int64_t open;	  /* a trial row that did not end, 0: none */
	double open_load; /* its load */
	int open_seq;
	char why[256]; /* the last failed trial's reason */
};

static int goal_index(const struct state *st, const char *name)
{
	int g;
	for (g = 0; g < st->cfg.ngoals; g++)
		if (name && !strcmp(st->goals[g].name, name))
			return g;
	return 0;
}

static int replay_row(void *ctx, const struct store_trial_row *row)
{
	struct state *st = ctx;
	struct search_trial t;
	st->rows++;
	if (row->status == RUN_OK && !isnan(row->loss)) {
		t.load = row->load;
		t.duration = row->duration;
		t.loss = row->loss;
		t.goal = goal_index(st, row->goal);
		st->fails = 0;
		st->open = 0;
		return search_add(st->s, &t) < 0 ? -XR_ENOMEM : 0;
	}
	if (row->status >= 0 && run_status_done((uint8_t)row->status) &&
	    row->status != RUN_OK) {
		st->fails++;
		st->open = 0;
		return 0;
	}
	/* Not ended (killed, interrupted, or ended before its loss ratio
	 * was stored): it is run again, in this row. */
	st->open = row->run_id;
	st->open_load = row->load;
	st->open_seq = row->seq;
	return 0;
}

static int state_init(struct state *st, struct runctx *rc, size_t i,
		      struct xr_err *err)
{
	const struct plan_search *ps = &rc->p->search;
	int g;
	memset(st, 0, sizeof *st);
	st->rc = rc;
	st->goals = calloc((size_t)ps->ngoals + 1, sizeof *st->goals);
	if (!st->goals)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	for (g = 0; g < ps->ngoals; g++) {
		snprintf(st->goals[g].name, sizeof st->goals[g].name, "%s",
			 ps->goals[g].name);
		st->goals[g].loss = ps->goals[g].loss;
		st->goals[g].trial = ps->goals[g].trial;
		st->goals[g].sum = ps->goals[g].sum;
		st->goals[g].exceed = ps->goals[g].exceed;
	}
	st->cfg.min = ps->min;
	st->cfg.max = ps->max;
	st->cfg.width = ps->width;
	st->cfg.step = 1;
	st->cfg.max_trials = ps->max_trials;
	st->cfg.ngoals = ps->ngoals;
	st->cfg.goals = st->goals;
	if (!(st->s = search_new(&st->cfg)))
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	return store_trials_each(rc->st, rc->ids[i], NULL, 0, replay_row, st,
				 err);
}

static void state_release(struct state *st)
{
	search_free(st->s);
	free(st->goals);
}

/* ---- the search's own run ---------------------------------------------- */

/* The record of what the search found: its settings and each goal's
 * result, as JSON (the search run's stdout). */
static void summary_json(const struct state *st, const struct search_result *r,
			 struct buf *b)
{
	const struct plan_search *ps = &st->rc->p->search;
	int g;
	buf_adds(b, "{\"search\":{\"param\":");
	buf_add_json_str(b, ps->param);
	buf_addf(b,
		 ",\"min\":%.17g,\"max\":%.17g,\"width\":%.17g,\"trials\":%d",
		 ps->min, ps->max, ps->width, st->rows);
	buf_adds(b, ",\"goals\":[");
	for (g = 0; g < st->cfg.ngoals; g++) {
		const struct search_goal *go = &st->goals[g];
		buf_addf(b, "%s{\"name\":", g ? "," : "");
		buf_add_json_str(b, go->name);
		buf_addf(b,
			 ",\"loss\":%.17g,\"trial\":%.17g,\"sum\":%.17g,"
			 "\"exceed\":%.17g,\"regular\":%s",
			 go->loss, go->trial, go->sum, go->exceed,
			 r[g].regular ? "true" : "false");
		if (r[g].has_lower)
			buf_addf(b, ",\"lower\":%.17g,\"throughput\":%.17g",
				 r[g].lower, r[g].throughput);
		if (r[g].has_upper)
			buf_addf(b, ",\"upper\":%.17g", r[g].upper);
		if (!r[g].regular) {
			buf_adds(b, ",\"irregular\":");
			buf_add_json_str(b, r[g].why);
		}
		buf_addc(b, '}');
	}
	buf_adds(b, "]}}");
}

static int add_results(const struct state *st, const struct search_result *r,
		       struct engine_result *res)
{
	const char *unit = st->rc->p->engine.run.argv ? "1" : "bit/s";
	char name[64];
	int g, rc = 0;
	/* The first goal's conditional throughput is the search's
	 * throughput (RFC 9971: the generalised throughput). */
	if (r[0].has_lower)
		rc |= engine_result_add_metric(res, "throughput",
					       r[0].throughput, unit);
	for (g = 0; g < st->cfg.ngoals; g++) {
		const char *n = st->goals[g].name;
		if (r[g].has_lower) {
			rc |=
			    engine_result_add_metric(res, n, r[g].lower, unit);
			snprintf(name, sizeof name, "%s_throughput", n);
			rc |= engine_result_add_metric(res, name,
						       r[g].throughput, unit);
		}
		if (r[g].has_upper) {
			snprintf(name, sizeof name, "%s_upper", n);
			rc |= engine_result_add_metric(res, name, r[g].upper,
						       unit);
		}
		if (!r[g].regular)
			rc |= engine_result_add_observed(res, n, r[g].why);
	}
	rc |= engine_result_add_metric(res, "trials", st->rows, "1");
	return rc;
}

/* Store the search's run: ok with what each goal found, or failed. */
static int finish(struct state *st, size_t i, double t0, const char *failed,
		  struct xr_err *err)
{
	struct runctx *rc = st->rc;
	struct search_result *r = calloc((size_t)st->cfg.ngoals + 1, sizeof *r);
	struct engine_result res = {0};
	struct store_run_record rec = {0};
	struct buf out = BUF_INIT;
	int g, ret;
	if (!r)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	for (g = 0; g < st->cfg.ngoals; g++)
		search_result_of(&st->cfg, g, search_trials(st->s),
				 search_ntrials(st->s), &r[g]);
	res.status = failed ? RUN_FAILED : RUN_OK;
	res.exit_code = failed ? -1 : 0;
	res.elapsed = proc_now_mono() - t0;
	if (failed)
		engine_result_set_reason(&res, "%s", failed);
	summary_json(st, r, &out);
	res.raw = buf_detach(&out, NULL);
	if (add_results(st, r, &res) != 0 && !failed)
		engine_result_set_reason(&res, "out of memory");
	rec.res = &res;
	rec.engine = rc->p->engine.type;
	ret = store_run_finish(rc->st, rc->ids[i], &rec, err);
	if (ret == 0) {
		rc->status[i] = (uint8_t)res.status;
		rc->n_run++;
		*(failed ? &rc->n_failed : &rc->n_ok) += 1;
		progress_run_done(rc, i, run_status_name(res.status),
				  r[0].has_lower ? r[0].throughput : 0,
				  rc->p->engine.run.argv ? "1" : "bit/s",
				  res.elapsed);
	}
	engine_result_release(&res);
	buf_release(&out);
	free(r);
	return ret;
}

/* ---- the loop ---------------------------------------------------------- */

/* Run one trial at nx in row (0: a new row). 1 when it gave a loss ratio,
 * 0 when it failed, or -XR_EINTR / -XR_EENV. */
static int one_trial(struct state *st, size_t i, const struct search_next *nx,
		     int64_t row, struct xr_err *err)
{
	struct runctx *rc = st->rc;
	struct search_trial t;
	int r;
	if (!row) {
		if ((r = store_begin(rc->st, err)) < 0)
			return r;
		r = store_trial_add(rc->st, rc->ids[i], st->rows + 1,
				    st->goals[nx->goal].name, nx->load,
				    nx->duration, &row, err);
		if (r < 0) {
			store_rollback(rc->st);
			return r;
		}
		if ((r = store_commit(rc->st, err)) < 0)
			return r;
		st->rows++;
	}
	memset(&rc->trial, 0, sizeof rc->trial);
	rc->trial.row = row;
	snprintf(rc->trial.load, sizeof rc->trial.load, "%.0f", nx->load);
	rc->trial.duration = nx->duration;
	rc->trial.loss = NAN;
	r = runloop_one(rc, i);
	if (r < 0 || !rc->trial.stored) {
		memset(&rc->trial, 0, sizeof rc->trial);
		return r < 0 ? r : -XR_EINTR;
	}
	t.load = nx->load;
	t.duration = nx->duration;
	t.loss = rc->trial.loss;
	t.goal = nx->goal;
	snprintf(st->why, sizeof st->why, "%s", rc->trial.reason);
	r = rc->trial.status == RUN_OK && !isnan(t.loss);
	memset(&rc->trial, 0, sizeof rc->trial);
	if (!r)
		return 0;
	if ((r = store_trial_set_loss(rc->st, row, t.loss, err)) < 0 ||
	    (r = search_add(st->s, &t)) < 0)
		return r;
	return 1;
}

int search_execute(struct runctx *rc, size_t i)
{
	struct state st;
	struct search_next nx;
	struct xr_err err = {0};
	struct buf why = BUF_INIT;
	double t0 = proc_now_mono();
	int r;
	if ((r = state_init(&st, rc, i, &err)) < 0 ||
	    (r = store_run_start(rc->st, rc->ids[i], proc_now_wall(), &err)) <
		0)
		goto env;
	rc->status[i] = RUN_RUNNING;
	while (st.fails < SEARCH_FAILS_IN_A_ROW && search_next(st.s, &nx) &&
	       (st.open || st.rows < st.cfg.max_trials)) {
		int64_t row = st.open && st.open_load == nx.load ? st.open : 0;
		if (st.open && !row)
			/* the plan's search changed since: a new row */
			store_run_set_status(rc->st, st.open, "skipped",
					     "not the trial the search asks "
					     "for now",
					     NULL);
		st.open = 0;
		r = one_trial(&st, i, &nx, row, &err);
		if (r < 0)
			break;
		st.fails = r ? 0 : st.fails + 1;
	}
	if (r == -XR_EINTR || (r >= 0 && proc_interrupted)) {
		/* resumed later from its trials */
		store_run_set_status(rc->st, rc->ids[i], "interrupted",
				     "interrupted during the search", NULL);
		rc->status[i] = RUN_INTERRUPTED;
		rc->n_interrupted++;
		state_release(&st);
		return -XR_EINTR;
	}
	if (r < 0)
		goto env;
	if (st.fails >= SEARCH_FAILS_IN_A_ROW)
		buf_addf(&why, "%d trials in a row failed (the last: %s)",
			 st.fails, st.why);
	r = finish(&st, i, t0, why.len ? why.s : NULL, &err);
	buf_release(&why);
	state_release(&st);
	if (r < 0)
		goto env_released;
	return proc_interrupted ? -XR_EINTR : 0;
env:
	state_release(&st);
env_released:
	if (rc->env_error)
		return -XR_EENV;
	rc->env_error = 1;
	rc->env_err = err;
	if (!rc->env_err.code)
		rc->env_err.code = XR_EENV;
	return -XR_EENV;
}
