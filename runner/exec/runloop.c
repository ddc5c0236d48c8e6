/*
 * Executing a session's schedule: open the hosts the plan needs, record
 * their facts, open the engine (which starts the iperf3 server), then for
 * each scheduled run not yet done: enter its manual block (prompt, or
 * leave the block pending when unattended), bring the automatic factors
 * to its levels, settle, snapshot counters, run the engine, snapshot
 * again, and commit everything about the run in one transaction before
 * the next one starts. A failed run is data; only an interrupt or a broken
 * environment stops the loop. Restore hooks and engine close always run.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "counters.h"
#include "engine.h"
#include "host.h"
#include "latency_probe.h"
#include "observe.h"
#include "placeholder.h"
#include "plan.h"
#include "proc.h"
#include "runctx.h"
#include "sampler.h"
#include "series.h"
#include "series_metric.h"
#include "session.h"
#include "sizing.h"
#include "testbed.h"
#include "utf8.h"
#include "banned.h"

static int env_fail(struct runctx *rc, const struct xr_err *e)
{
	rc->env_error = 1;
	rc->env_err = *e;
	if (!rc->env_err.code)
		rc->env_err.code = XR_EENV;
	return -XR_EENV;
}

static int program_missing(struct runctx *rc, const char *prog)
{
	struct xr_err err = {0};
	if (strchr(prog, '/') ? access(prog, X_OK) == 0 : proc_which(prog))
		return 0;
	xr_err_set(&err, XR_EENV, NULL, 0, 0,
		   "engine program '%s' is not found or not executable "
		   "(install it or fix the plan's engine section)",
		   prog);
	return env_fail(rc, &err);
}

/* Are the engine's programs there (its descriptor's, and the plan's
 * run[0])? Exit 3 before any run rather than N failed runs. A run[0]
 * with placeholders is checked by each run: a program missing for one
 * level is that level's failed runs (tests/e2e/run_missing_level.sh). */
static int check_binary(struct runctx *rc)
{
	const struct plan *p = rc->p;
	const char *prog[8];
	struct host *c = rc->client_hi >= 0 ? rc->hosts[rc->client_hi] : NULL;
	int n, k;
	if (!c || !host_is_local(c))
		return 0; /* remote: the engine's open() finds out */
	n = engine_programs(rc->eng, p, prog, 8);
	for (k = 0; k < n; k++)
		if (program_missing(rc, prog[k]) < 0)
			return -XR_EENV;
	return 0;
}

/*
 * Open the engine on the current cell's client and server, reopening it
 * when a factor's hosts: binding moved either role since (for iperf3 the
 * server is then started on the new server host). 0 or -XR_EENV.
 */
static int runloop_engine_sync(struct runctx *rc)
{
	const struct plan *p = rc->p;
	struct xr_err err = {0};
	if (rc->eng_open && rc->eng_client_hi == rc->client_hi &&
	    rc->eng_server_hi == rc->server_hi)
		return 0;
	if (rc->eng_open && rc->eng->close)
		rc->eng->close(rc->eng_state);
	rc->eng_open = 0;
	rc->eng_state = NULL;
	if (rc->eng->open &&
	    rc->eng->open(p,
			  rc->client_hi >= 0 ? rc->hosts[rc->client_hi] : NULL,
			  rc->server_hi >= 0 ? rc->hosts[rc->server_hi] : NULL,
			  &rc->eng_state, &err) < 0) {
		if (!err.msg[0])
			xr_err_set(&err, XR_EENV, NULL, 0, 0,
				   "the %s engine could not start",
				   p->engine.type);
		return env_fail(rc, &err);
	}
	rc->eng_open = 1;
	rc->eng_client_hi = rc->client_hi;
	rc->eng_server_hi = rc->server_hi;
	stale_note_children(rc->st);
	return 0;
}

/* The hosts and the engine of run i's cell. 0 or -XR_EENV. */
static int cell_setup(struct runctx *rc, size_t i)
{
	const uint32_t *lv = matrix_cell(&rc->m, rc->s.runs[i].cell);
	struct xr_err err = {0};
	if (hostset_cell(rc, lv, &err) < 0)
		return env_fail(rc, &err);
	if (!rc->binary_checked) {
		rc->binary_checked = 1;
		if (check_binary(rc) < 0)
			return -XR_EENV;
	}
	return runloop_engine_sync(rc);
}

/* ---- one run --------------------------------------------------------- */

struct request {
	struct runctx_tmpl t; /* the request borrows its target */
	struct cellctx_request cr;
	struct engine_request rq;
	struct buf params_json;
};

static void request_release(struct request *r)
{
	cellctx_request_release(&r->cr);
	runctx_tmpl_release(&r->t);
	buf_release(&r->params_json);
}

/* The shared cellctx builds the request, so that `xrun plan` shows
 * exactly what runs here. */
static int build_request(struct runctx *rc, size_t i, struct request *r,
			 struct xr_err *err)
{
	const uint32_t *lv = matrix_cell(&rc->m, rc->s.runs[i].cell);
	int k, ret;
	memset(r, 0, sizeof *r);
	runctx_tmpl_init(&r->t, rc, lv, i);
	if (rc->trial.row) {
		r->t.c.load_param = rc->p->search.param;
		r->t.c.load_value = rc->trial.load;
		r->t.c.trial_duration = rc->trial.duration;
	}
	ret = cellctx_request(&r->t.c, &r->cr, err);
	if (ret < 0)
		return ret;
	r->rq = r->cr.rq;
	buf_addc(&r->params_json, '{');
	for (k = 0; k < r->rq.nparams; k++) {
		if (k)
			buf_addc(&r->params_json, ',');
		buf_add_json_str(&r->params_json, r->rq.params[k].key);
		buf_addc(&r->params_json, ':');
		buf_add_json_str(&r->params_json, r->rq.params[k].value);
	}
	buf_addc(&r->params_json, '}');
	return 0;
}

static int observed_key(const struct engine_result *res, const char *key)
{
	int k;
	for (k = 0; k < res->nobserved; k++)
		if (strcmp(res->observed[k].key, key) == 0)
			return 1;
	return 0;
}

/* Factors whose param: (or a key of params:) the engine reports back
 * (iperf3: congestion). */
static size_t runloop_engine_verifications(struct runctx *rc, size_t i,
					   const struct engine_result *res,
					   const struct store_verification *ver,
					   size_t nver,
					   struct store_verification *out)
{
	const struct plan *p = rc->p;
	const uint32_t *lv = matrix_cell(&rc->m, rc->s.runs[i].cell);
	size_t n = 0;
	int f, k;
	memcpy(out, ver, nver * sizeof *ver);
	n = nver;
	if (res->status != RUN_OK)
		return n;
	for (f = 0; f < p->nfactors; f++) {
		const char *param = p->factors[f].param;
		const char *exp = p->factors[f].levels[lv[f]];
		if (!param && !p->factors[f].level_params)
			continue;
		if (!param) {
			/* params: verified by the first key of the level
			 * that the engine reports (a value with placeholders
			 * is not: what it expanded to is not at hand) */
			const struct plan_kv *kv =
			    p->factors[f].level_params[lv[f]];
			int j;
			for (j = 0;
			     kv && j < p->factors[f].nlevel_params[lv[f]]; j++)
				if (observed_key(res, kv[j].key) &&
				    !strstr(kv[j].value, "{{")) {
					param = kv[j].key;
					exp = kv[j].value;
					break;
				}
			if (!param)
				continue;
		}
		for (k = 0; k < res->nobserved; k++) {
			const char *act = res->observed[k].value;
			if (strcmp(res->observed[k].key, param) != 0)
				continue;
			out[n].factor = p->factors[f].name;
			out[n].host = rc->client_hi >= 0
					  ? p->hosts[rc->client_hi].name
					  : "local";
			out[n].method = "engine";
			out[n].expected = exp;
			out[n].actual = act;
			out[n].ok = strcasecmp(exp, act) == 0;
			if (!out[n].ok) {
				struct buf b = BUF_INIT;
				fprintf(stderr,
					"xrun: warning: run %zu: factor '%s' "
					"asked for '%s' but the engine used "
					"'%s' (run marked unverified)\n",
					i + 1, p->factors[f].name, exp,
					utf8_term(&b, act));
				buf_release(&b);
			}
			n++;
			break;
		}
	}
	return n;
}

/* A run the store now holds, counted for the summary. */
static void count_stored(struct runctx *rc, size_t i, enum run_status st)
{
	if (rc->trial.row) {
		/* a trial: the search's run is what the tallies count */
		rc->trial.stored = 1;
		rc->trial.status = (int)st;
		return;
	}
	rc->status[i] = (uint8_t)st;
	rc->n_run++;
	switch (st) {
	case RUN_OK:
		rc->n_ok++;
		break;
	case RUN_TIMEOUT:
		rc->n_timeout++;
		break;
	case RUN_INTERRUPTED:
		rc->n_interrupted++;
		break;
	default:
		rc->n_failed++;
	}
}

static void say_done(struct runctx *rc, size_t i,
		     const struct engine_result *res);

/* Store run i as failed before it started: its request could not be
 * built, or its host lacks the plan's interface (err says why). */
static void fail_unexpanded(struct runctx *rc, size_t i,
			    const struct xr_err *err)
{
	struct store_run_record rec = {0};
	struct engine_result res = {0};
	res.status = RUN_FAILED;
	res.exit_code = -1;
	engine_result_set_reason(&res, "%.500s", err->msg);
	rec.res = &res;
	rec.engine = rc->p->engine.type;
	store_run_start(rc->st, runctx_row(rc, i), proc_now_wall(), NULL);
	store_run_finish(rc->st, runctx_row(rc, i), &rec, NULL);
	if (rc->trial.row)
		snprintf(rc->trial.reason, sizeof rc->trial.reason, "%.250s",
			 err->msg);
	count_stored(rc, i, RUN_FAILED);
	say_done(rc, i, &res);
	engine_result_release(&res);
}

/* The status the engine's run r ends with: a signal makes an unfinished
 * run interrupted, an engine error a failure; every failure has a
 * reason. */
static void settle_status(struct engine_result *res, int r)
{
	if (proc_interrupted && res->status != RUN_OK) {
		res->status = RUN_INTERRUPTED;
		engine_result_set_reason(res, "interrupted by signal %d",
					 (int)proc_interrupt_signo);
	}
	if (r < 0 && res->status == RUN_OK)
		res->status = RUN_FAILED;
	if (res->status != RUN_OK && !res->reason[0])
		engine_result_set_reason(res, "%s",
					 r < 0 ? "engine environment error"
					       : run_status_name(res->status));
}

/* The progress line of a stored run, and why it failed. */
static void say_done(struct runctx *rc, size_t i,
		     const struct engine_result *res)
{
	progress_run_done(rc, i, run_status_name(res->status),
			  res->nmetrics ? res->metrics[0].value : 0,
			  res->nmetrics ? res->metrics[0].unit : NULL,
			  res->elapsed);
	if (res->status != RUN_OK && res->status != RUN_INTERRUPTED &&
	    !rc->o->quiet) {
		struct buf b = BUF_INIT;
		progress_clear(rc);
		/* The reason may quote the engine's stderr: its control
		 * characters are shown, not obeyed (utf8_term). */
		fprintf(stderr, "xrun: run %zu %s: %s\n", i + 1,
			run_status_name(res->status),
			utf8_term(&b, res->reason));
		buf_release(&b);
	}
}

/*
 * Start run i's samplers and latency probe and wait their lead-in, and
 * what is left of `settle` until settle_end (the monotonic time: the
 * lead-in overlaps it, execute_one). 0; 1 when the probe cannot run (run
 * i is stored as failed with why); -XR_EINTR when interrupted. On
 * non-zero nothing is left running.
 */
static int lead_in(struct runctx *rc, size_t i, const struct request *rq,
		   struct samplers *sm, struct latency_run *lat,
		   double settle_end)
{
	struct xr_err err = {0};
	double rest;
	int r;
	observe_samplers_start(rc, &rq->rq, sm);
	r = latency_lead_in(rc, rq->rq.timeout, lat, &err);
	if (r == 0 && ((rest = settle_end - proc_now_mono()) <= 0 ||
		       proc_sleep(rest) == 0))
		r = observe_samplers_lead(sm);
	else if (r == 0)
		r = -XR_EINTR;
	if (r == 0)
		return 0;
	latency_abort(lat);
	observe_samplers_stop(sm);
	series_set_release(&sm->set);
	if (r == -XR_EINTR)
		return r;
	if (!rc->o->quiet)
		fprintf(stderr, "xrun: run %zu failed: %s\n", i + 1, err.msg);
	fail_unexpanded(rc, i, &err);
	return 1;
}

/* The engine's ssh hosts of the run: client, then server (-1: none). */
static void run_ssh_hosts(const struct runctx *rc, int hi[2])
{
	hi[0] = rc->client_hi;
	hi[1] = rc->server_hi != rc->client_hi ? rc->server_hi : -1;
	for (int k = 0; k < 2; k++)
		if (hi[k] >= 0 && (!rc->hosts[hi[k]] ||
				   strcmp(host_kind(rc->hosts[hi[k]]), "ssh")))
			hi[k] = -1;
}

/* The samplers' and the probe's lead-in (with the rest of settle until
 * settle_end), the counters before, and the run 'running' in the store.
 * 0; 1 when the probe could not run (run i is stored as failed); or
 * -XR_EINTR, -XR_EENV; rq released when not 0. */
static int start_run(struct runctx *rc, size_t i, struct request *rq,
		     struct samplers *sm, struct latency_run *lat,
		     struct snaps *snaps, double settle_end)
{
	struct xr_err err = {0};
	int r, hi[2];
	/* The lead-in comes before the run is 'running' in the store: an
	 * interrupt in it leaves the run pending, as one during settle. */
	if ((r = lead_in(rc, i, rq, sm, lat, settle_end)) != 0) {
		request_release(rq);
		return r;
	}
	run_ssh_hosts(rc, hi);
	for (int k = 0; k < 2; k++)
		if (hi[k] >= 0) /* the connection the run starts on */
			host_conn_changed(rc->hosts[hi[k]]);
	observe_snap_before(rc, snaps);
	if (snaps->fail[0]) {
		/* no such interface there: every counter and series of the
		 * run would be missing without a word (issue 40) */
		for (int k = 0; k < snaps->n; k++)
			counters_snap_free(snaps->before[k]);
		latency_abort(lat);
		observe_samplers_stop(sm);
		series_set_release(&sm->set);
		request_release(rq);
		xr_err_set(&err, XR_EENV, NULL, 0, 0, "%s", snaps->fail);
		fail_unexpanded(rc, i, &err);
		return 1;
	}
	if (store_run_start(rc->st, runctx_row(rc, i), proc_now_wall(), &err) <
	    0) {
		r = env_fail(rc, &err);
		latency_abort(lat);
		observe_samplers_stop(sm);
		series_set_release(&sm->set);
		request_release(rq);
		return r;
	}
	if (!rc->trial.row)
		rc->status[i] = RUN_RUNNING;
	return 0;
}

/* A counters snapshot that failed, into the run's note after what the
 * samplers said. */
static void note_snaps(struct series_set *ss, const struct snaps *sn)
{
	size_t k = strlen(ss->note);
	if (sn->note[0] && k + 4 < sizeof ss->note)
		snprintf(ss->note + k, sizeof ss->note - k, "%s%.*s",
			 k ? "; " : "", (int)(sizeof ss->note - k - 3),
			 sn->note);
}

/* execute_one's "the run lost its host": it is pending again. */
#define RUN_LOST 1

/* Run i goes back to pending with reason (released), said on the
 * terminal as "run N <verb>: reason". */
static void back_to_pending(struct runctx *rc, size_t i, const char *verb,
			    struct buf *reason)
{
	store_run_set_status(rc->st, runctx_row(rc, i), "pending", reason->s,
			     NULL);
	if (!rc->trial.row)
		rc->status[i] = RUN_PENDING;
	if (!rc->o->quiet) {
		progress_clear(rc);
		fprintf(stderr, "xrun: run %zu %s: %s\n", i + 1, verb,
			reason->s);
	}
	buf_release(reason);
}

/*
 * A transport failure is not a measurement (issue 24): when a host of the
 * cell no longer answers, run i goes back to pending, with why in its
 * reason, instead of being stored as failed. 1 when so.
 */
static int run_lost(struct runctx *rc, size_t i)
{
	const uint32_t *lv = matrix_cell(&rc->m, rc->s.runs[i].cell);
	struct buf why = BUF_INIT, reason = BUF_INIT;
	int hi = hostset_lost(rc, lv, &why);
	if (hi < 0) {
		buf_release(&why);
		return 0;
	}
	rc->lost_hi = hi;
	buf_addf(&reason,
		 "host '%s' lost during the run (%s): pending until it "
		 "answers again",
		 rc->p->hosts[hi].name, why.len ? why.s : "no answer");
	back_to_pending(rc, i, "not counted", &reason);
	buf_release(&why);
	return 1;
}

/*
 * An ok run whose ssh connection ended while it ran (issue 40: a
 * connection that stopped answering, ended by ssh's keepalive), or that
 * does not answer now (host_check: one round trip through it, at most
 * HOST_CHECK_TIMEOUT), carried half its far series and readings, and its
 * engine's numbers may stand on a far side nobody could watch: it goes
 * back to pending, as a run that failed on a lost host, and is done again
 * once the host answers (reconnect). 1 when so.
 */
static int conn_lost(struct runctx *rc, size_t i)
{
	struct buf why = BUF_INIT, reason = BUF_INIT;
	int hi[2], k;
	run_ssh_hosts(rc, hi);
	for (k = 0; k < 2; k++) {
		if (hi[k] < 0)
			continue;
		if (host_conn_changed(rc->hosts[hi[k]])) {
			buf_adds(&why, "its ssh connection ended during the "
				       "run");
			break;
		}
		if (host_check(rc->hosts[hi[k]], &why) < 0)
			break;
	}
	if (k == 2) {
		buf_release(&why);
		return 0;
	}
	rc->lost_hi = hi[k];
	rc->lost_since = proc_now_wall();
	buf_addf(&reason,
		 "host '%s' lost during the run (%s): pending until it "
		 "answers again",
		 rc->p->hosts[hi[k]].name, why.len ? why.s : "no answer");
	back_to_pending(rc, i, "not counted", &reason);
	buf_release(&why);
	return 1;
}

/* The cell's setup (an apply or verify hook) lost rc->lost_hi before run
 * i started: the run stays pending, as one that lost its host does, and
 * nothing of the hook is stored. RUN_LOST. */
static int setup_lost(struct runctx *rc, size_t i)
{
	struct buf reason = BUF_INIT;
	buf_addf(&reason,
		 "host '%s' lost while the cell was set up (%s): pending "
		 "until it answers again",
		 rc->p->hosts[rc->lost_hi].name, rc->setup_what);
	back_to_pending(rc, i, "not started", &reason);
	return RUN_LOST;
}

/* Wait for the host run i lost (the plan's reconnect:), then set the
 * cell up again. 0 to run it again; -XR_EENV (exit 3: the runs left stay
 * pending, a resume redoes them) or -XR_EINTR. */
static int reconnect(struct runctx *rc, size_t i, int *used)
{
	struct buf why = BUF_INIT, reason = BUF_INIT;
	struct xr_err err = {0};
	int r;
	r = hostset_reconnect(rc, rc->lost_hi, used, &why);
	if (r == -XR_EHOST) {
		buf_addf(&reason,
			 "%s; the session stopped: run the plan again to "
			 "resume",
			 why.s);
		store_run_set_status(rc->st, runctx_row(rc, i), "pending",
				     reason.s, NULL);
		xr_err_set(&err, XR_EHOST, NULL, 0, 0,
			   "%.400s; the runs left are pending: run the same "
			   "command again to resume",
			   why.s);
		r = env_fail(rc, &err);
	} else if (r == 0) {
		hooks_forget_host(rc, rc->lost_hi);
		r = cell_setup(rc, i);
	}
	buf_release(&why);
	buf_release(&reason);
	return r;
}

/* Run position i. Returns 0, RUN_LOST (pending again: reconnect), or
 * -XR_EINTR, -XR_EENV (stop). */
static int execute_one(struct runctx *rc, size_t i)
{
	const struct plan *p = rc->p;
	const struct store_verification *ver = NULL;
	struct store_verification *allver = NULL;
	struct store_counters sc[2];
	struct counter_row *rows[2] = {NULL, NULL};
	struct store_run_record rec = {0};
	struct engine_result res = {0};
	struct series_set ss = {0};
	struct request rq;
	struct snaps snaps;
	struct samplers sm;
	struct latency_run lat = {0};
	struct xr_err err = {0};
	size_t nver = 0, nsc;
	double t0 = proc_now_mono(), settle_end, pre;
	int r, ret = 0;

	r = hooks_prepare(rc, i, &ver, &nver);
	if (r == HOOKS_LOST)
		return setup_lost(rc, i);
	if (r < 0)
		return -XR_EINTR;
	runfacts_settle(rc, matrix_cell(&rc->m, rc->s.runs[i].cell), ver, nver);
	/* settle and the lead-in overlap: the samplers start (and the probe
	 * goes idle) the lead-in's length before the settle ends, and
	 * lead_in waits what is left of it (exec_wait_before) */
	settle_end = proc_now_mono() + p->settle;
	pre = p->settle - exec_lead_in(p);
	if (pre > 0 && proc_sleep(pre) < 0)
		return -XR_EINTR;
	if (build_request(rc, i, &rq, &err) < 0) {
		/* A template that cannot expand fails this run only. */
		fail_unexpanded(rc, i, &err);
		request_release(&rq);
		return 0;
	}
	if ((r = start_run(rc, i, &rq, &sm, &lat, &snaps, settle_end)) != 0)
		return r < 0 ? r : 0;
	progress_run_start(rc, i);
	r = observe_run_engine(rc, i, &rq.rq, &sm, &lat, &res);
	settle_status(&res, r);
	nsc = observe_snap_after(rc, &snaps, sc, rows);
	allver = calloc(nver + (size_t)p->nfactors + 1, sizeof *allver);
	if (allver)
		nver = runloop_engine_verifications(rc, i, &res, ver, nver,
						    allver);
	rec.res = &res;
	rec.engine = p->engine.type;
	rec.target = rq.rq.target;
	rec.params_json = rq.params_json.s;
	rec.ver = allver;
	rec.nver = allver ? nver : 0;
	rec.counters = sc;
	rec.ncounters = nsc;
	rec.nfacts = runfacts_of_run(
	    rc, matrix_cell(&rc->m, rc->s.runs[i].cell), &rec.facts);
	/* One set for the store: the samplers' series, then the engine's. */
	if (series_set_take(&ss, &sm.set) < 0)
		snprintf(ss.note, sizeof ss.note, "%s",
			 "out of memory keeping the sampled series");
	note_snaps(&ss, &snaps);
	rec.series = series_metric_finish(rc, &res, &ss);
	if (res.status != RUN_OK && res.status != RUN_INTERRUPTED &&
	    run_lost(rc, i)) {
		ret = RUN_LOST;
		goto done;
	}
	if (res.status == RUN_OK && conn_lost(rc, i)) {
		ret = RUN_LOST;
		goto done;
	}
	if (rc->trial.row && res.status == RUN_OK) {
		rc->trial.loss = search_trial_loss(rc, &res, rc->trial.reason,
						   sizeof rc->trial.reason);
	} else if (rc->trial.row)
		snprintf(rc->trial.reason, sizeof rc->trial.reason, "%.250s",
			 res.reason);
	if (store_run_finish(rc->st, runctx_row(rc, i), &rec, &err) < 0) {
		/* Not stored (a full disk): not counted either, so that the
		 * summary says what the store holds; the run stays
		 * 'running' there and a resume redoes it. */
		env_fail(rc, &err);
		ret = -XR_EENV;
		goto done;
	}
	count_stored(rc, i, res.status);
	rc->t_runs += proc_now_mono() - t0;
	rc->est_done +=
	    exec_run_seconds(p, matrix_cell(&rc->m, rc->s.runs[i].cell));
	say_done(rc, i, &res);
	/* An engine that cannot run at all stops the plan (exit 3) only
	 * when nothing has run yet; later, e.g. one level's program missing
	 * or a server that could not be restarted, it is a failed run,
	 * stored with its reason, and the night goes on. */
	if (r < 0 && ret == 0 && rc->n_ok + rc->n_timeout + rc->n_failed <= 1) {
		xr_err_set(&err, XR_EENV, NULL, 0, 0, "%.500s", res.reason);
		env_fail(rc, &err);
		ret = -XR_EENV;
	}
done:
	series_set_release(&sm.set);
	free(allver);
	free(rows[0]);
	free(rows[1]);
	series_set_release(&ss);
	engine_result_release(&res);
	request_release(&rq);
	if (ret == 0 && proc_interrupted)
		ret = -XR_EINTR;
	return ret;
}

int64_t runctx_row(const struct runctx *rc, size_t i)
{
	return rc->trial.row ? rc->trial.row : rc->ids[i];
}

int runloop_one(struct runctx *rc, size_t i)
{
	int r, lost_tries = 0;
	while ((r = execute_one(rc, i)) == RUN_LOST &&
	       (r = reconnect(rc, i, &lost_tries)) == 0)
		;
	return r;
}

int runctx_only_match(const struct runctx *rc, const uint32_t *lv)
{
	int k;
	for (k = 0; k < rc->o->nonly; k++)
		if (lv[rc->o->only[k].factor] != rc->o->only[k].level)
			return 0;
	return 1;
}

int runctx_run_done(uint8_t st)
{
	return run_status_done(st);
}

int runctx_run_todo(const struct runctx *rc, size_t i)
{
	return !run_status_done(rc->status[i]) || (rc->retry && rc->retry[i]);
}

/*
 * Run position i: once, or (a run that had failed or timed out, retry:)
 * again while it fails and attempts are left; every attempt is stored
 * (run_attempts). 0, or -XR_EINTR, -XR_EENV (stop).
 */
static int execute_run(struct runctx *rc, size_t i)
{
	int r;
	do {
		if (rc->retry && rc->retry[i]) {
			rc->retry[i]--;
			rc->n_retried++;
		}
		r = rc->p->search.param ? search_execute(rc, i)
					: runloop_one(rc, i);
	} while (r == 0 && rc->retry && rc->retry[i] &&
		 run_status_failed(rc->status[i]));
	return r;
}

static int manual_differs(const struct runctx *rc, const uint32_t *lv)
{
	int f;
	for (f = 0; f < rc->p->nfactors; f++)
		if (rc->p->factors[f].manual && rc->manual_state[f] != lv[f])
			return 1;
	return 0;
}

static void run_on_finish(struct runctx *rc)
{
	const struct plan *p = rc->p;
	struct runctx_tmpl t;
	struct proc_opts po = {0};
	struct proc_result res = {0};
	struct xr_err err = {0};
	char **argv, why[256];
	if (!p->on_finish.argv)
		return;
	runctx_tmpl_init(&t, rc, NULL, 0);
	argv = runctx_expand_argv(p->on_finish.argv, &t, &err);
	runctx_tmpl_release(&t);
	if (!argv) {
		fprintf(stderr, "xrun: warning: on_finish: %s\n", err.msg);
		return;
	}
	po.argv = (const char *const *)argv;
	po.timeout = 60;
	if (proc_run(&po, &res, &err) < 0)
		fprintf(stderr, "xrun: warning: on_finish: %s\n", err.msg);
	else if (res.status != PROC_EXITED || res.exit_code != 0)
		fprintf(stderr, "xrun: warning: on_finish '%s' %s\n", argv[0],
			proc_describe(&res, why, sizeof why));
	proc_result_release(&res);
	runctx_argv_free(argv);
}

/* Runs of a block left pending: counted, not executed. */
static void leave_pending(struct runctx *rc, const struct sched_run *run,
			  size_t *last_block)
{
	rc->n_left++;
	if (run->block != *last_block) {
		rc->n_blocks_left++;
		*last_block = run->block;
	}
}

/* The cell of the first run that has not ended (not one to retry), in
 * --only, or NULL. */
static const uint32_t *first_pending(const struct runctx *rc)
{
	size_t i;
	for (i = 0; i < rc->s.nruns; i++) {
		const uint32_t *lv = matrix_cell(&rc->m, rc->s.runs[i].cell);
		if (!runctx_run_done(rc->status[i]) &&
		    runctx_only_match(rc, lv))
			return lv;
	}
	return NULL;
}

static int manual_other(const struct plan *p, const uint32_t *a,
			const uint32_t *b)
{
	int f;
	for (f = 0; f < p->nfactors; f++)
		if (p->factors[f].manual && a[f] != b[f])
			return 1;
	return 0;
}

/*
 * Unattended, a run to retry (it had failed or timed out) in a manual
 * block that needs a person's change is left as it is rather than block
 * the runs still pending: the first block entered is that of the first
 * pending run (pend) when there is one, and a later block that needs a
 * change is not entered for a retry. 1 when run i is left so (counted).
 */
static int retry_waits(struct runctx *rc, size_t i, const uint32_t *lv,
		       int first, const uint32_t *pend)
{
	if (rc->interactive || !runctx_run_done(rc->status[i]))
		return 0;
	if (first ? !(pend && manual_other(rc->p, lv, pend))
		  : !manual_differs(rc, lv) || hooks_manual_unattended(rc, i))
		return 0;
	rc->retry[i] = 0;
	rc->n_retry_left++;
	return 1;
}

int runloop_execute(struct runctx *rc)
{
	const struct plan *p = rc->p;
	struct xr_err err = {0};
	size_t i, last_block = (size_t)-1, skip_block = (size_t)-1;
	const uint32_t *pend = NULL;
	int r = 0, first = 1, has_manual = 0, f;

	for (f = 0; f < p->nfactors; f++)
		if (p->factors[f].manual)
			has_manual = 1;
	if (has_manual)
		pend = first_pending(rc);
	rc->t_start = proc_now_mono();
	rc->client_hi = rc->server_hi = -1;
	rc->eng_client_hi = rc->eng_server_hi = -1;
	if ((r = hostset_init(rc, &err)) < 0 ||
	    (r = testbed_lock(rc, &err)) < 0) {
		r = env_fail(rc, &err);
		goto out;
	}
	if ((r = hooks_init(rc)) < 0 || (r = runfacts_init(rc)) < 0)
		goto out;
	for (i = 0;; i++) {
		const struct sched_run *run;
		const uint32_t *lv;
		if (proc_interrupted) {
			r = -XR_EINTR;
			break;
		}
		/* The end of a block's pilot: size its repetitions. */
		if (i > 0 && (r = sizing_after_run(rc, i - 1, &err)) < 0) {
			r = env_fail(rc, &err);
			break;
		}
		if (i >= rc->s.nruns)
			break;
		run = &rc->s.runs[i];
		lv = matrix_cell(&rc->m, run->cell);
		if ((r = session_rows_upto(rc, i, &err)) < 0) {
			r = env_fail(rc, &err);
			break;
		}
		if (!runctx_run_todo(rc, i) || !runctx_only_match(rc, lv) ||
		    (has_manual && retry_waits(rc, i, lv, first, pend)))
			continue;
		if (run->block == skip_block) {
			leave_pending(rc, run, &last_block);
			continue;
		}
		if (has_manual && (first || manual_differs(rc, lv))) {
			if (!first && !rc->interactive &&
			    !hooks_manual_unattended(rc, i)) {
				/* Needs a person: leave it pending. */
				leave_pending(rc, run, &last_block);
				continue;
			}
			if ((r = hooks_manual_enter(rc, i, first)) < 0)
				break;
			if (r == 1) {
				/* A host did not come back: next block. */
				r = 0;
				skip_block = run->block;
				leave_pending(rc, run, &last_block);
				continue;
			}
		}
		first = 0;
		if ((r = cell_setup(rc, i)) < 0)
			break;
		if ((r = execute_run(rc, i)) < 0)
			break;
		/* The engine may have restarted its server. */
		stale_note_children(rc->st);
	}
out:
	progress_clear(rc);
	if (proc_interrupted) {
		rc->interrupted = 1;
		/* Let restore hooks and the engine's own cleanup run. */
		proc_interrupt_shield();
	}
	if (rc->hf)
		hooks_restore(rc);
	if (rc->eng_open && rc->eng->close)
		rc->eng->close(rc->eng_state);
	rc->eng_open = 0;
	run_on_finish(rc);
	hooks_release(rc);
	runfacts_release(rc);
	testbed_unlock(rc);
	hostset_release(rc);
	if (rc->interrupted)
		return -XR_EINTR;
	return r;
}
