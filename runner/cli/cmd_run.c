/*
 * `xrun run` (and `xrun PLAN`): the command line of a run. Parses the
 * options, loads and schedules the plan, opens (or creates) its store under
 * an exclusive lock, lets exec/session.c decide which session to continue
 * and runs it; then prints the summary, writes the plan's report outputs
 * and turns the outcome into the exit status (docs/run.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "buf.h"
#include "cmd.h"
#include "engine.h"
#include "catalog.h"
#include "plan.h"
#include "proc.h"
#include "render.h"
#include "runctx.h"
#include "session.h"
#include "tmpl.h"
#include "placeholder.h"
#include "units.h"
#include "wfile.h"
#include "banned.h"

/* ---- options --------------------------------------------------------- */

struct run_args {
	struct run_opts o;
	struct opt_list only; /* FACTOR=LEVEL, checked against the plan */
};

#define RA(field) offsetof(struct run_args, field)
static const struct opt_def run_options[] = {
    {"db", 0, "FILE", "the store (default: ./<plan name>.db)", OPT_STRING,
     RA(o.db_path), NULL, 0},
    {"only", 0, "FACTOR=LEVEL",
     "run only the cells with that level (repeatable; all must match); the "
     "others stay pending",
     OPT_LIST, RA(only), NULL, 0},
    {"unattended", 0, NULL,
     "never prompt (also implied when stdin is not a terminal)", OPT_FLAG,
     RA(o.unattended), NULL, 0},
    {"yes", 'y', NULL,
     "do not ask to confirm the setup of the first manual block", OPT_FLAG,
     RA(o.yes), NULL, 0},
    {"new-session", 0, NULL,
     "start a new session even when the latest one could be resumed or is "
     "complete",
     OPT_FLAG, RA(o.new_session), NULL, 0},
    {"quiet", 'q', NULL, "no progress output (errors and warnings still print)",
     OPT_FLAG, RA(o.quiet), NULL, 0},
    {0},
};
#undef RA

static int parse_only(const struct plan *p, const char *arg, struct run_only *o)
{
	const char *eq = strchr(arg, '=');
	char name[128];
	int f, l, i;
	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof name) {
		fprintf(stderr, "xrun: --only '%s' is not FACTOR=LEVEL\n", arg);
		return -1;
	}
	snprintf(name, sizeof name, "%.*s", (int)(eq - arg), arg);
	if ((f = plan_factor_index(p, name)) < 0) {
		fprintf(stderr,
			"xrun: --only: unknown factor '%s' (factors:", name);
		for (i = 0; i < p->nfactors; i++)
			fprintf(stderr, " %s", p->factors[i].name);
		fprintf(stderr, ")\n");
		return -1;
	}
	if ((l = plan_level_index(&p->factors[f], eq + 1)) < 0) {
		fprintf(stderr,
			"xrun: --only: factor '%s' has no level '%s' (levels:",
			name, eq + 1);
		for (i = 0; i < p->factors[f].nlevels; i++)
			fprintf(stderr, " %s", p->factors[f].levels[i]);
		fprintf(stderr, ")\n");
		return -1;
	}
	o->factor = f;
	o->level = (uint32_t)l;
	return 0;
}

static void argv_json(int argc, char **argv, struct buf *b)
{
	int i;
	buf_adds(b, "[\"xrun\"");
	for (i = 0; i < argc; i++) {
		buf_addc(b, ',');
		buf_add_json_str(b, argv[i]);
	}
	buf_addc(b, ']');
}

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
	fprintf(stderr,
		"xrun: %zu run%s this time: %zu ok, %zu failed, %zu timeout%s "
		"in %s; %zu of %zu done; xrun cpu %.3f s; db %s\n",
		rc->n_run, rc->n_run == 1 ? "" : "s", rc->n_ok, rc->n_failed,
		rc->n_timeout, rc->n_interrupted ? ", 1 interrupted" : "", dur,
		rc->s.nruns - pending, rc->s.nruns, self_cpu(),
		store_path(rc->st));
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

/* The plan's report.output files; returns how many could not be
 * written (a warning each). */
static int write_reports(struct runctx *rc)
{
	const struct plan *p = rc->p;
	struct runctx_tmpl t;
	struct buf path = BUF_INIT;
	char bad[64];
	int i, nbad = 0;
	runctx_tmpl_init(&t, rc, NULL, 0);
	for (i = 0; i < p->report.noutputs; i++) {
		struct report_opts ro = {0};
		struct xr_err err = {0};
		const char *raw = p->report.outputs[i];
		ro.session = rc->session_id;
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
		if (report_write_file(store_path(rc->st), path.s, &ro, &err) <
		    0) {
			fprintf(stderr,
				"xrun: warning: cannot write report '%s': "
				"%s\n",
				path.s, err.msg);
			nbad++;
		} else if (!rc->o->quiet)
			fprintf(stderr, "xrun: wrote %s\n", path.s);
	}
	buf_release(&path);
	runctx_tmpl_release(&t);
	return nbad;
}

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

/* ---- the run ---------------------------------------------------------- */

/* The plan (plan_path NULL: the embedded one) and its text. 0 or 2. */
static int load_plan(const char *plan_path, struct plan **p, struct buf *text)
{
	struct xr_diag diag;
	int r;
	xr_diag_init(&diag, plan_path ? plan_path : xr_embedded_plan_name);
	if (plan_path) {
		r = plan_load(plan_path, catalog_builtin(), p, &diag);
		if (r == 0 && buf_read_file(text, plan_path, 0) < 0)
			r = -XR_EIO;
	} else {
		r = plan_load_mem(xr_embedded_plan_name, xr_embedded_plan,
				  strlen(xr_embedded_plan), catalog_builtin(),
				  p, &diag);
		buf_adds(text, xr_embedded_plan);
	}
	if (diag.n) /* qsort(NULL, 0) trips UBSan in err.c */
		xr_diag_print(&diag, stderr);
	if (r < 0 && !diag.n)
		fprintf(stderr, "xrun: cannot load plan '%s'\n",
			plan_path ? plan_path : xr_embedded_plan_name);
	xr_diag_release(&diag);
	return r < 0 ? 2 : 0;
}

/* --only, the engine, the matrix and the schedule. 0 or an exit status. */
static int prepare(struct runctx *rc, struct run_args *a)
{
	const struct plan *p = rc->p;
	struct xr_err err = {0};
	int i;
	if (a->only.n &&
	    !(a->o.only = calloc((size_t)a->only.n, sizeof *a->o.only)))
		return 3;
	for (i = 0; i < a->only.n; i++)
		if (parse_only(p, a->only.v[i], &a->o.only[i]) < 0)
			return 2;
	a->o.nonly = a->only.n;
	if (!(rc->eng = engine_find(p->engine.type))) {
		fprintf(stderr, "xrun: unknown engine '%s' (known: %s)\n",
			p->engine.type, engine_names());
		return 2;
	}
	if (matrix_build(p, &rc->m, &err) < 0 ||
	    sched_build(p, &rc->m, &rc->s, &err) < 0) {
		xr_err_print(&err, "xrun");
		return xr_code_exit(err.code);
	}
	return 0;
}

/* What session_start decided, said; an exit status when there is nothing
 * to run (complete: 0, refused: 2), else -1. */
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
		return 0;
	}
	for (i = 0; i < rc->s.nruns; i++) {
		done += runctx_run_done(rc->status[i]);
		redo += rc->status[i] == RUN_RUNNING ||
			rc->status[i] == RUN_INTERRUPTED;
	}
	if (rc->o->quiet)
		return -1;
	if (d->kind == SESSION_RESUMED)
		fprintf(stderr,
			"xrun: resuming session %lld of '%s': %zu of %zu runs "
			"done, %zu to redo; db %s\n",
			(long long)rc->session_id, p->name, done, rc->s.nruns,
			redo, db);
	else
		fprintf(stderr,
			"xrun: plan '%s': %zu run%s, %d manual change%s; "
			"session %lld; db %s\n",
			p->name, rc->s.nruns, rc->s.nruns == 1 ? "" : "s",
			rc->s.manual_interventions,
			rc->s.manual_interventions == 1 ? "" : "s",
			(long long)rc->session_id, db);
	return -1;
}

/* Runs the session and turns its outcome into the exit status. */
static int execute(struct runctx *rc)
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
	if (write_reports(rc) > 0 && !session_failed(rc))
		return 3;
	return session_failed(rc) ? 1 : 0;
}

/* From the parsed command line to the exit status. */
static int run(struct run_args *a, const char *plan_path, int argc, char **argv)
{
	struct runctx rc;
	struct plan *p = NULL;
	struct xr_err err = {0};
	struct session_decision d = {0};
	struct buf text = BUF_INIT, dbp = BUF_INIT, aj = BUF_INIT;
	size_t i;
	int ret;

	memset(&rc, 0, sizeof rc);
	rc.client_hi = rc.server_hi = -1;
	rc.o = &a->o;
	if ((ret = load_plan(plan_path, &p, &text)) != 0)
		goto out;
	rc.p = p;
	if ((ret = prepare(&rc, a)) != 0)
		goto out;
	if (a->o.db_path)
		buf_adds(&dbp, a->o.db_path);
	else
		store_default_path(p->name, &dbp);
	ret = 3;
	if (store_open(dbp.s, STORE_CREATE | STORE_LOCK, &rc.st, &err) < 0) {
		xr_err_print(&err, "xrun");
		goto out;
	}
	stale_reap(store_lock_previous(rc.st), a->o.quiet);
	argv_json(argc - 1, argv + 1, &aj);
	if (session_start(&rc, plan_path, text.s, aj.s, &d, &err) < 0) {
		xr_err_print(&err, "xrun");
		goto out;
	}
	if (d.kind == SESSION_NEW || d.kind == SESSION_RESUMED) {
		rc.interactive = !a->o.unattended && isatty(0);
		rc.n_todo = session_count_todo(&rc);
		for (i = 0; i < rc.s.nruns; i++)
			rc.n_done0 += runctx_run_done(rc.status[i]);
	}
	if ((ret = check_reports(&rc)) != 0)
		goto out;
	if ((ret = announce(&rc, &d, dbp.s)) < 0)
		ret = execute(&rc);
out:
	session_decision_release(&d);
	if (rc.st)
		store_close(rc.st);
	free(rc.ids);
	free(rc.status);
	sched_release(&rc.s);
	matrix_release(&rc.m);
	plan_free(p);
	free(a->o.only);
	buf_release(&text);
	buf_release(&dbp);
	buf_release(&aj);
	return ret;
}

static int cmd_run(int argc, char **argv)
{
	struct run_args a;
	char **args;
	int n, ret;
	memset(&a, 0, sizeof a);
	/* opt_parse moves the plan to args[1]; the session keeps argv as
	 * given (the command line it was started with) */
	if (!(args = calloc((size_t)argc + 1, sizeof *args)))
		return 3;
	memcpy(args, argv, (size_t)argc * sizeof *args);
	n = opt_parse(&cmd_run_spec, argc, args, &a);
	ret = n < 0 ? opt_exit(n) : run(&a, n ? args[1] : NULL, argc, argv);
	opt_release(&cmd_run_spec, &a);
	free(args);
	return ret;
}

const struct opt_cmd cmd_run_spec = {
    .name = "run",
    .args = "[PLAN]",
    .summary = "execute a plan (no PLAN: the plan compiled into the binary, "
	       "plans/loopback.yaml); xrun PLAN is the same",
    .about = "Resumes the latest unfinished session of the plan when its "
	     "cells are unchanged; see docs/run.md.",
    .opts = run_options,
    .max_args = 1,
    .fn = cmd_run,
};

int cmd_embedded_db(struct buf *out)
{
	struct plan *p = NULL;
	struct xr_diag d;
	int r;
	xr_diag_init(&d, xr_embedded_plan_name);
	r = plan_load_mem(xr_embedded_plan_name, xr_embedded_plan,
			  strlen(xr_embedded_plan), catalog_builtin(), &p, &d);
	xr_diag_release(&d);
	if (r < 0)
		return -1;
	store_default_path(p->name, out);
	plan_free(p);
	return 0;
}
