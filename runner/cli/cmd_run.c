/*
 * `xrun run` (and `xrun PLAN`): the command line of a run. Parses the
 * options, loads the plan, checks --only against it and hands the rest to
 * exec_run (runner/exec/exec.h); writes the plan's report outputs when
 * exec asks (the renderers are this layer's) and returns its exit status
 * (docs/run.md).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "buf.h"
#include "cmd.h"
#include "catalog.h"
#include "exec.h"
#include "oom.h"
#include "plan.h"
#include "render.h"
#include "report.h"
#include "shard.h"
#include "units.h"
#include "utf8.h"
#include "store.h"
#include "banned.h"

/* ---- options --------------------------------------------------------- */

struct run_args {
	struct exec_opts o;
	struct opt_list only;	  /* FACTOR=LEVEL, checked against the plan */
	struct exec_only *parsed; /* [only.n] */
	const char *shard;	  /* --shard K/N */
};

/* --lock-wait: a duration (30, 30s, 5m), 0 or more. */
static int lock_wait_cb(void *field, const char *v)
{
	double s;
	if (units_parse(v, UNITS_DURATION, &s, NULL) < 0 || s < 0) {
		fprintf(stderr,
			"xrun: option '--lock-wait' needs a duration (e.g. "
			"600 or 10m), not '%s'\n",
			v);
		return -XR_EUSAGE;
	}
	*(double *)field = s;
	return 0;
}

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
    {"no-retry", 0, NULL,
     "leave the session's failed and timed-out runs as they are (by "
     "default each is run again in its place, the plan's retry: times)",
     OPT_FLAG, RA(o.no_retry), NULL, 0},
    {"quiet", 'q', NULL, "no progress output (errors and warnings still print)",
     OPT_FLAG, RA(o.quiet), NULL, 0},
    {"shard", 0, "K/N",
     "run only shard K (1-based) of N: whole blocks, the same on every "
     "machine (docs/shards.md); merge the shards' stores with xrun merge",
     OPT_STRING, RA(shard), NULL, 0},
    {"testbed", 0, "NAME",
     "with --shard: the testbed's name in the store and the report "
     "(default: its hosts, e.g. client=box-a, server=ssh:lab@10.0.0.2)",
     OPT_STRING, RA(o.testbed), NULL, 0},
    {"lock-wait", 0, "SECONDS",
     "with --shard: wait this long for a testbed another run holds "
     "(default 0: stop at once, naming the holder)",
     OPT_CALLBACK, RA(o.lock_wait), lock_wait_cb, 0},
    {0},
};
#undef RA

static int parse_only(const struct plan *p, const char *arg,
		      struct exec_only *o)
{
	const char *eq = strchr(arg, '=');
	char name[128];
	int f, l, i;
	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof name) {
		fprintf(stderr, "xrun: --only '%s' is not FACTOR=LEVEL\n", arg);
		return -XR_EUSAGE;
	}
	snprintf(name, sizeof name, "%.*s", (int)(eq - arg), arg);
	if ((f = plan_factor_index(p, name)) < 0) {
		fprintf(stderr,
			"xrun: --only: unknown factor '%s' (factors:", name);
		for (i = 0; i < p->nfactors; i++)
			fprintf(stderr, " %s", p->factors[i].name);
		fprintf(stderr, ")\n");
		return -XR_EUSAGE;
	}
	if ((l = plan_level_index(&p->factors[f], eq + 1)) < 0) {
		fprintf(stderr,
			"xrun: --only: factor '%s' has no level '%s' (levels:",
			name, eq + 1);
		for (i = 0; i < p->factors[f].nlevels; i++)
			fprintf(stderr, " %s", p->factors[f].levels[i]);
		fprintf(stderr, ")\n");
		return -XR_EUSAGE;
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

/* exec_report_fn: one report.output file of the finished session. */
static int write_report(void *ctx, const char *db, int64_t session,
			const char *path)
{
	const struct run_args *a = ctx;
	struct report_opts ro = {0};
	struct xr_err err = {0};
	int r;
	ro.session = session;
	if ((r = report_write_file(db, path, &ro, &err)) < 0)
		fprintf(stderr, "xrun: warning: cannot write report '%s': %s\n",
			path, err.msg);
	else if (!a->o.quiet)
		fprintf(stderr, "xrun: wrote %s\n", path);
	return r;
}

/* exec_gaps_fn: a line for each declared metric of the session without
 * values, the one `xrun report --metric NAME` gives (model_gaps.c). */
static void say_gaps(void *ctx, struct store *st, const struct plan *p,
		     int64_t session)
{
	struct arena *a = arena_new();
	struct report_gap *g;
	struct xr_err err = {0};
	int i, n;
	(void)ctx;
	if (!a)
		return;
	if (report_metric_gaps(st, p, &session, 1, a, &g, &n, &err) < 0)
		xr_err_print(&err, "xrun");
	else
		for (i = 0; i < n; i++) {
			/* the line may quote an engine's stderr: shown, not
			 * obeyed (utf8_term) */
			struct buf b = BUF_INIT;
			const char *s =
			    report_gap_line(REPORT_LANG_EN, &g[i], a);
			fprintf(stderr, "xrun: %s\n",
				s ? utf8_term(&b, s) : "out of memory");
			buf_release(&b);
		}
	arena_free(a);
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
	if (diag.n || diag.nlost)
		xr_diag_print(&diag, stderr);
	if (r < 0 && !diag.n)
		fprintf(stderr, "xrun: cannot load plan '%s'\n",
			plan_path ? plan_path : xr_embedded_plan_name);
	xr_diag_release(&diag);
	return r < 0 ? 2 : 0;
}

/* --only, checked against the plan. 0 or an exit status. */
static int parse_onlys(const struct plan *p, struct run_args *a)
{
	int i;
	if (a->only.n &&
	    !(a->parsed = calloc((size_t)a->only.n, sizeof *a->parsed))) {
		xr_oom_mark(NULL, 0);
		return 3;
	}
	for (i = 0; i < a->only.n; i++)
		if (parse_only(p, a->only.v[i], &a->parsed[i]) < 0)
			return 2;
	a->o.only = a->parsed;
	a->o.nonly = a->only.n;
	return 0;
}

/* From the parsed command line to the exit status. */
static int run(struct run_args *a, const char *plan_path, int argc, char **argv)
{
	struct plan *p = NULL;
	struct exec_outcome out;
	struct buf text = BUF_INIT, aj = BUF_INIT;
	int ret;

	if (a->o.testbed && !a->shard) {
		fprintf(stderr, "xrun: --testbed goes with --shard K/N\n");
		return 2;
	}
	if (a->shard) {
		struct xr_err err = {0};
		if (shard_parse(a->shard, &a->o.shard_k, &a->o.shard_n, &err) <
		    0) {
			xr_err_print(&err, "xrun");
			return 2;
		}
	}
	if ((ret = load_plan(plan_path, &p, &text)) != 0 ||
	    (ret = parse_onlys(p, a)) != 0)
		goto out;
	argv_json(argc - 1, argv + 1, &aj);
	a->o.plan_path = plan_path;
	a->o.plan_text = text.s;
	a->o.argv_json = aj.s;
	a->o.write_report = write_report;
	a->o.say_gaps = say_gaps;
	a->o.report_ctx = a;
	ret = exec_run(p, &a->o, &out);
out:
	plan_free(p);
	free(a->parsed);
	buf_release(&text);
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
	if (!(args = calloc((size_t)argc + 1, sizeof *args))) {
		xr_oom_mark(NULL, 0);
		return 3;
	}
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
		return r;
	store_default_path(p->name, out);
	plan_free(p);
	return 0;
}
