/*
 * exec_run (exec.h): `xrun run` once the plan is loaded. Finds the engine,
 * builds the matrix and the schedule, opens (or creates) the store under
 * an exclusive lock, lets session.c decide which session to continue, says
 * so, runs it, prints the summary, names the plan's report.output files
 * and turns the outcome into the exit status (docs/run.md).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "buf.h"
#include "engine.h"
#include "exec.h"
#include "placeholder.h"
#include "plan.h"
#include "proc.h"
#include "runctx.h"
#include "session.h"
#include "tmpl.h"
#include "units.h"
#include "wfile.h"
#include "banned.h"

/* announce's "go on and run the session": not an exit status. */
#define EXEC_GO (-1)

/* xrun's own CPU time (user + sys), not its children's: what xrun costs
 * the machine it measures (bench/overhead.sh reads it from the summary). */
static double self_cpu(void)
{
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return 0;
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
	       ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) /
		   1e6;
}

static void summary(struct runctx *rc, double elapsed)
{
	char dur[32];
	size_t i, pending = 0;
	for (i = 0; i < rc->s.nruns; i++)
		if (!runctx_run_done(rc->status[i]))
			pending++;
	units_fmt_duration(elapsed, dur, sizeof dur);
	fprintf(stderr, "xrun: %zu run%s this time", rc->n_run,
		rc->n_run == 1 ? "" : "s");
	if (rc->n_retried)
		fprintf(stderr, " (%zu retried)", rc->n_retried);
	fprintf(stderr,
		": %zu ok, %zu failed, %zu timeout%s in %s; %zu of %zu done; "
		"xrun cpu %.3f s; db %s\n",
		rc->n_ok, rc->n_failed, rc->n_timeout,
		rc->n_interrupted ? ", 1 interrupted" : "", dur,
		rc->s.nruns - pending, rc->s.nruns, self_cpu(),
		store_path(rc->st));
	if (rc->n_retry_left)
		fprintf(stderr,
			"xrun: %zu failed or timed-out run%s not run again: "
			"%s in a manual block that needs a change first (run "
			"attended, or with --only, to retry %s)\n",
			rc->n_retry_left, rc->n_retry_left == 1 ? "" : "s",
			rc->n_retry_left == 1 ? "it is" : "they are",
			rc->n_retry_left == 1 ? "it" : "them");
	if (rc->n_blocks_left)
		fprintf(stderr,
			"xrun: %zu run%s in %zu block%s need a manual change "
			"first: left pending (see 'xrun status --db %s')\n",
			rc->n_left, rc->n_left == 1 ? "" : "s",
			rc->n_blocks_left, rc->n_blocks_left == 1 ? "" : "s",
			store_path(rc->st));
}

/* The session's worst outcome: 1 when any of its runs failed. */
static int session_failed(struct runctx *rc)
{
	size_t i;
	for (i = 0; i < rc->s.nruns; i++)
		if (run_status_failed(rc->status[i]))
			return 1;
	return 0;
}

int exec_verify_counts(struct store *st, const struct plan *p, int64_t session,
		       int64_t *wrong, int64_t *unverified, struct buf *names,
		       struct xr_err *err)
{
	struct buf js = BUF_INIT;
	int f, r;
	buf_addc(&js, '[');
	for (f = 0; f < p->nfactors; f++) {
		const struct plan_factor *pf = &p->factors[f];
		if (!pf->apply.argc && !pf->manual)
			continue;
		/* factor names are letters, digits, '_' and '-' */
		buf_addf(&js, "%s\"%s\"", js.len > 1 ? "," : "", pf->name);
		if (names && !pf->verify)
			buf_addf(names, "%s%s", names->len ? ", " : "",
				 pf->name);
	}
	buf_addc(&js, ']');
	r = js.truncated ? -XR_ENOMEM
			 : store_verify_run_counts(st, session, js.s, wrong,
						   unverified, err);
	buf_release(&js);
	return r;
}

/* The ok runs no verdict can stand on, said after the summary; the exit
 * status when some were verified wrong and none failed. */
static void verify_summary(struct runctx *rc, struct exec_outcome *out)
{
	struct buf names = BUF_INIT;
	struct xr_err err = {0};
	if (exec_verify_counts(rc->st, rc->p, rc->session_id,
			       &out->n_verify_wrong, &out->n_unverified, &names,
			       &err) < 0) {
		xr_err_print(&err, "xrun");
		buf_release(&names);
		return;
	}
	if (out->n_verify_wrong)
		fprintf(stderr,
			"xrun: %lld ok run%s of the session had a setting "
			"verified wrong: %s not measure what the plan says, "
			"and the report gives %s no verdict (exit %d; "
			"'xrun status' counts %s)\n",
			(long long)out->n_verify_wrong,
			out->n_verify_wrong == 1 ? "" : "s",
			out->n_verify_wrong == 1 ? "it did" : "they did",
			out->n_verify_wrong == 1 ? "it" : "them",
			EXEC_EXIT_VERIFY_WRONG,
			out->n_verify_wrong == 1 ? "it" : "them");
	if (out->n_unverified)
		fprintf(stderr,
			"xrun: %lld ok run%s of the session had a setting "
			"applied but never verified (%s%s): the report "
			"calls comparisons and published cells of it "
			"not_verified\n",
			(long long)out->n_unverified,
			out->n_unverified == 1 ? "" : "s",
			names.len ? "no verify declared: "
				  : "its verify did "
				    "not run",
			names.len ? names.s : "");
	buf_release(&names);
}

/* Names a report.output file name may hold: what has a value once the
 * session is over (vars, {{plan}}, {{session}}, the hosts' addresses and
 * {{iface}}), not a factor or a per-run number (placeholder.h). */
static const char *output_lookup(void *ctx, const char *name)
{
	struct runctx_tmpl *t = ctx;
	int i = placeholder_find(name);
	if (!plan_var(t->c.plan, name) && i >= 0 &&
	    placeholders[i].set != PH_BY_PLAN && i != PH_SESSION)
		return NULL;
	return runctx_lookup(t, name);
}

/* The plan's report.output files, written by o->write_report; returns how
 * many could not be written (a warning each). */
static int write_reports(struct runctx *rc)
{
	const struct plan *p = rc->p;
	struct runctx_tmpl t;
	struct buf path = BUF_INIT;
	char bad[64];
	int i, nbad = 0;
	if (!rc->o->write_report)
		return 0;
	runctx_tmpl_init(&t, rc, NULL, 0);
	for (i = 0; i < p->report.noutputs; i++) {
		const char *raw = p->report.outputs[i];
		buf_reset(&path);
		if (tmpl_expand(raw, output_lookup, &t, &path, bad,
				sizeof bad) < 0 ||
		    path.truncated) {
			fprintf(stderr,
				"xrun: warning: cannot write report '%s': "
				"placeholder '{{%s}}' has no value in a report "
				"file name (use {{plan}}, {{session}} or a "
				"var)\n",
				raw, bad);
			nbad++;
			continue;
		}
		if (rc->o->write_report(rc->o->report_ctx, store_path(rc->st),
					rc->session_id, path.s) < 0)
			nbad++;
	}
	buf_release(&path);
	runctx_tmpl_release(&t);
	return nbad;
}

/* The engine, the matrix and the schedule. 0 or an exit status. */
static int prepare(struct runctx *rc)
{
	const struct plan *p = rc->p;
	struct xr_err err = {0};
	if (!(rc->eng = engine_find(p->engine.type))) {
		fprintf(stderr, "xrun: unknown engine '%s' (known: %s)\n",
			p->engine.type, engine_names());
		return 2;
	}
	if (matrix_build(p, &rc->m, &err) < 0 ||
	    sched_build(p, &rc->m, &rc->s, &err) < 0 ||
	    (rc->o->shard_n &&
	     (shard_plan_build(p, &rc->m, &rc->s, rc->o->shard_n, &rc->shard,
			       &err) < 0 ||
	      shard_keep(&rc->s, p, &rc->shard, rc->o->shard_k, &err) < 0))) {
		xr_err_print(&err, "xrun");
		return xr_code_exit(err.code);
	}
	return 0;
}

/* What session_start decided, said; an exit status when there is nothing
 * to run (complete: 0, refused: 2), else EXEC_GO. */
/* Before the first run: a report.output the writer would refuse (the
 * store itself, its -wal, any SQLite database, a FIFO, a device, a link)
 * stops the run with exit 2 instead of failing after a night of runs. */
static int check_reports(struct runctx *rc)
{
	const struct plan *p = rc->p;
	struct runctx_tmpl t;
	struct buf path = BUF_INIT;
	char bad[64];
	int i, ret = 0;
	if (!rc->o->write_report)
		return 0;
	if (wfile_protect(store_path(rc->st), "the store", 1) < 0)
		return 3;
	runctx_tmpl_init(&t, rc, NULL, 0);
	for (i = 0; i < p->report.noutputs && !ret; i++) {
		struct xr_err err = {0};
		buf_reset(&path);
		/* A name that cannot be expanded is said after the run. */
		if (tmpl_expand(p->report.outputs[i], output_lookup, &t, &path,
				bad, sizeof bad) < 0 ||
		    path.truncated)
			continue;
		if (wfile_check(path.s, &err) < 0) {
			fprintf(stderr, "xrun: error: report.output '%s': %s\n",
				p->report.outputs[i], err.msg);
			ret = 2;
		}
	}
	buf_release(&path);
	runctx_tmpl_release(&t);
	return ret;
}

/* Which part of the plan a --shard run holds. */
static void announce_shard(const struct runctx *rc)
{
	const struct shard_plan *sp = &rc->shard;
	uint32_t k = rc->o->shard_k - 1;
	size_t i, mine = 0;
	double all = 0;
	for (i = 0; i < sp->nunits; i++) {
		mine += sp->units[i].shard == k;
		all += sp->units[i].seconds;
	}
	if (!mine)
		fprintf(stderr,
			"xrun: shard %u/%u has no runs: the plan's %zu "
			"unit%s went to the other shards (a comparison on a "
			"manual factor keeps its blocks on one testbed; "
			"docs/shards.md)\n",
			rc->o->shard_k, rc->o->shard_n, sp->nunits,
			sp->nunits == 1 ? "" : "s");
	else
		fprintf(stderr,
			"xrun: shard %u/%u: %zu of the plan's %zu units, "
			"%.0f of its %.0f nominal seconds\n",
			rc->o->shard_k, rc->o->shard_n, mine, sp->nunits,
			sp->load[k], all);
}

static int announce(struct runctx *rc, const struct session_decision *d,
		    const char *db)
{
	const struct plan *p = rc->p;
	size_t i, done = 0, redo = 0;
	if (d->kind == SESSION_CHANGED) {
		fprintf(stderr,
			"xrun: the plan changed since session %lld in '%s' "
			"(not finished) in a way that changes its runs:\n%s"
			"xrun: refusing to mix them; run with --new-session "
			"to start over (the old runs are kept) or use another "
			"--db\n",
			(long long)d->last.id, db, d->changes.s);
		return 2;
	}
	if (d->kind == SESSION_COMPLETE) {
		fprintf(stderr,
			"xrun: session %lld of plan '%s' is complete (%lld "
			"runs) in '%s'; nothing to do (use --new-session to "
			"run it again)\n",
			(long long)d->last.id, p->name,
			(long long)d->last.nruns, db);
		if (d->nkept)
			fprintf(stderr,
				"xrun: %zu failed or timed-out run%s kept as "
				"%s (%s)\n",
				d->nkept, d->nkept == 1 ? "" : "s",
				d->nkept == 1 ? "it is" : "they are",
				rc->o->no_retry ? "--no-retry" : "retry: 0");
		return 0;
	}
	for (i = 0; i < rc->s.nruns; i++) {
		done += runctx_run_done(rc->status[i]) && !rc->retry[i];
		redo += rc->status[i] == RUN_RUNNING ||
			rc->status[i] == RUN_INTERRUPTED;
	}
	if (rc->o->quiet)
		return EXEC_GO;
	if (rc->o->shard_n)
		announce_shard(rc);
	if (d->kind == SESSION_RESUMED) {
		fprintf(stderr,
			"xrun: resuming session %lld of '%s': %zu of %zu runs "
			"done, %zu to redo",
			(long long)rc->session_id, p->name, done, rc->s.nruns,
			redo);
		if (d->nretry)
			fprintf(stderr,
				", %zu failed or timed out to run again in "
				"place (retry: %d)",
				d->nretry, rc->p->retry);
		if (d->nkept)
			fprintf(stderr,
				", %zu failed or timed out kept as they are "
				"(%s)",
				d->nkept,
				rc->o->no_retry ? "--no-retry" : "retry: 0");
		fprintf(stderr, "; db %s\n", db);
	} else
		fprintf(stderr,
			"xrun: plan '%s': %zu run%s, %d manual change%s; "
			"session %lld; db %s\n",
			p->name, rc->s.nruns, rc->s.nruns == 1 ? "" : "s",
			rc->s.manual_interventions,
			rc->s.manual_interventions == 1 ? "" : "s",
			(long long)rc->session_id, db);
	return EXEC_GO;
}

/* Runs the session and turns its outcome into the exit status. */
static int execute(struct runctx *rc, struct exec_outcome *out)
{
	double t0 = proc_now_mono();
	int r = session_run(rc);
	summary(rc, proc_now_mono() - t0);
	if (rc->env_error) {
		xr_err_print(&rc->env_err, "xrun");
		return rc->interrupted ? 130 : 3;
	}
	if (rc->interrupted || r == -XR_EINTR) {
		fprintf(stderr,
			"xrun: interrupted; finished runs are stored; %s\n",
			rc->o->new_session
			    ? "run the plan again without --new-session to "
			      "resume this session"
			    : "run the same command again to resume");
		return 130;
	}
	if (r < 0) {
		fprintf(stderr, "xrun: stopped: %s\n", xr_code_name(r));
		return xr_code_exit(r);
	}
	/* The runs are stored either way; a report that cannot be written
	 * (no usable font for a PDF, an unwritable path) is the environment's
	 * fault: exit 3 unless runs failed (docs: README, Exit codes). */
	verify_summary(rc, out);
	if (rc->o->say_gaps)
		rc->o->say_gaps(rc->o->report_ctx, rc->st, rc->p,
				rc->session_id);
	out->nbad_reports = write_reports(rc);
	if (out->nbad_reports > 0 && !session_failed(rc))
		return 3;
	if (session_failed(rc))
		return 1;
	return out->n_verify_wrong ? EXEC_EXIT_VERIFY_WRONG : 0;
}

static void outcome_fill(struct runctx *rc, struct exec_outcome *out)
{
	size_t i;
	out->session_id = rc->session_id;
	out->nruns = rc->s.nruns;
	for (i = 0; rc->status && i < rc->s.nruns; i++)
		out->ndone += runctx_run_done(rc->status[i]);
	out->n_run = rc->n_run;
	out->n_ok = rc->n_ok;
	out->n_failed = rc->n_failed;
	out->n_timeout = rc->n_timeout;
	out->n_interrupted = rc->n_interrupted;
	out->n_left = rc->n_left;
	out->failed = rc->status ? session_failed(rc) : 0;
	out->interrupted = rc->interrupted;
}

/* The store, the session decision and the session. An exit status. */
static int run_session(struct runctx *rc, struct exec_outcome *out)
{
	const struct exec_opts *o = rc->o;
	struct xr_err err = {0};
	struct session_decision d = {0};
	struct buf dbp = BUF_INIT;
	size_t i;
	int ret = 3;
	if (o->db_path)
		buf_adds(&dbp, o->db_path);
	else
		store_default_path(rc->p->name, &dbp);
	if (store_open(dbp.s, STORE_CREATE | STORE_LOCK, &rc->st, &err) < 0) {
		xr_err_print(&err, "xrun");
		goto out;
	}
	stale_reap(store_lock_previous(rc->st), o->quiet);
	if (session_start(rc, o->plan_path, o->plan_text, o->argv_json, &d,
			  &err) < 0) {
		xr_err_print(&err, "xrun");
		goto out;
	}
	if (d.kind == SESSION_NEW || d.kind == SESSION_RESUMED) {
		rc->interactive = !o->unattended && isatty(0);
		rc->n_todo = session_count_todo(rc);
		for (i = 0; i < rc->s.nruns; i++)
			rc->n_done0 += !runctx_run_todo(rc, i);
	}
	if ((ret = check_reports(rc)) != 0)
		goto out;
	if ((ret = announce(rc, &d, dbp.s)) == EXEC_GO)
		ret = execute(rc, out);
out:
	session_decision_release(&d);
	buf_release(&dbp);
	return ret;
}

int exec_run(const struct plan *p, const struct exec_opts *o,
	     struct exec_outcome *out)
{
	struct runctx rc;
	memset(out, 0, sizeof *out);
	memset(&rc, 0, sizeof rc);
	rc.client_hi = rc.server_hi = rc.lock_hi = -1;
	rc.o = o;
	rc.p = p;
	if ((out->exit = prepare(&rc)) == 0)
		out->exit = run_session(&rc, out);
	outcome_fill(&rc, out);
	if (rc.st)
		store_close(rc.st);
	free(rc.ids);
	free(rc.status);
	free(rc.retry);
	sched_release(&rc.s);
	shard_plan_release(&rc.shard);
	buf_release(&rc.lock_dir);
	matrix_release(&rc.m);
	return out->exit;
}
