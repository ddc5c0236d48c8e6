/*
 * `xrun plan PLAN [--json]`: the dry run. Loads the plan, expands the
 * matrix, builds the schedule and prints what would happen: how many runs,
 * how many times someone must get up to change something by hand, how long
 * it takes, and then every run in order with the argv it would execute and
 * the hooks that run when a level changes (the dry run's model and its two
 * forms, runner/dry). Nothing is executed. Also the entry points of
 * --levels, --dimension (dimension.h) and --from-reference
 * (cmd_plan_ref.c).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "catalog.h"
#include "cmd.h"
#include "dimension.h"
#include "dry.h"
#include "fastout.h"
#include "oom.h"
#include "plan.h"
#include "store.h"
#include "banned.h"

/* ---- entry ------------------------------------------------------------ */

/* --levels: FACTOR=LEVEL per line, what run --only accepts. */
static void print_levels(const struct plan *p)
{
	int f, l;
	for (f = 0; f < p->nfactors; f++)
		for (l = 0; l < p->factors[f].nlevels; l++)
			printf("%s=%s\n", p->factors[f].name,
			       p->factors[f].levels[l]);
}

struct plan_args {
	int json;
	const char *reference, *from_reference, *out;
	int levels;
	int dimension;
	const char *db;
	const char *shard;
};

static const struct opt_def plan_options[] = {
    {"json", 0, NULL, "one JSON object (schema/plan.md, Scheduling)", OPT_FLAG,
     offsetof(struct plan_args, json), NULL, 0},
    {"reference", 0, "FILE",
     "check a published reference against the plan first "
     "(schema/reference.md)",
     OPT_STRING, offsetof(struct plan_args, reference), NULL, 0},
    {"from-reference", 0, "FILE",
     "write a plan that measures a published reference's matrix instead "
     "(no PLAN)",
     OPT_STRING, offsetof(struct plan_args, from_reference), NULL, 0},
    {"output", 'o', "FILE",
     "with --from-reference: the plan to write (default: stdout)", OPT_STRING,
     offsetof(struct plan_args, out), NULL, 0},
    {"levels", 0, NULL,
     "only list the plan's FACTOR=LEVEL pairs, one a line, as --only takes "
     "them (for shell completion)",
     OPT_FLAG, offsetof(struct plan_args, levels), NULL, 0},
    {"dimension", 0, NULL,
     "from an earlier store of the plan (--db), the variance of each level "
     "(intervals in a run, runs) and its cost: whether longer or more runs "
     "buy the precision more cheaply, and the duration, repeat per cell "
     "and total time to plan (Kalibera-Jones)",
     OPT_FLAG, offsetof(struct plan_args, dimension), NULL, 0},
    {"db", 0, "FILE",
     "the store to measure the overhead and, with --dimension, the "
     "variances from (default: ./<plan name>.db)",
     OPT_STRING, offsetof(struct plan_args, db), NULL, 0},
    {"shard", 0, "K/N",
     "only what `xrun run --shard K/N` would run (docs/shards.md)", OPT_STRING,
     offsetof(struct plan_args, shard), NULL, 0},
    {0},
};

/* --dimension: the recommendation from an earlier store (dimension.h). */
static int run_dimension(struct plan *p, const struct plan_args *a)
{
	struct dry d;
	struct store *st = NULL;
	struct buf path = BUF_INIT;
	struct xr_err err = {0};
	int rc;
	memset(&d, 0, sizeof d);
	d.db = a->db;
	if (a->db)
		buf_adds(&path, a->db);
	else
		store_default_path(p->name, &path);
	if ((rc = dry_build(&d, p, &err)) == 0 &&
	    (rc = store_open(path.s, STORE_READONLY, &st, &err)) == 0)
		rc = dimension_print(p, st, d.overhead, stdout, &err);
	store_close(st);
	dry_release(&d);
	buf_release(&path);
	if (rc < 0) {
		xr_err_print(&err, "xrun plan");
		return xr_code_exit(-rc);
	}
	return fflush(stdout) ? 3 : 0;
}

static int cmd_plan(int argc, char **argv)
{
	struct plan_args a = {0};
	const char *path;
	int json, rc, status = 0;
	struct xr_diag diag;
	struct xr_err err;
	struct plan *p = NULL;
	struct dry d;
	struct fastout o = {stdout, NULL, 0, 1 << 20, 0};

	if ((rc = opt_parse(&cmd_plan_spec, argc, argv, &a)) < 0)
		return opt_exit(rc);
	if (a.from_reference) {
		if (rc != 0) {
			fprintf(stderr, "xrun: --from-reference takes no "
					"PLAN\n");
			opt_usage(&cmd_plan_spec, stderr);
			return 2;
		}
		return cmd_plan_from_reference(a.from_reference, a.out);
	}
	if (rc != 1 || a.out) {
		fprintf(stderr, rc != 1 ? "xrun: plan needs a PLAN\n"
					: "xrun: -o goes with "
					  "--from-reference\n");
		opt_usage(&cmd_plan_spec, stderr);
		return 2;
	}
	path = argv[1];
	json = a.json;
	xr_diag_init(&diag, path);
	rc = plan_load(path, catalog_builtin(), &p, &diag);
	if (diag.n || diag.nlost)
		xr_diag_print(&diag, stderr);
	xr_diag_release(&diag);
	if (rc < 0 || (a.reference && cmd_check_reference(p, a.reference))) {
		plan_free(p);
		return 2;
	}
	if (a.levels) {
		print_levels(p);
		plan_free(p);
		return fflush(stdout) ? 3 : 0;
	}
	if (a.dimension) {
		status = run_dimension(p, &a);
		plan_free(p);
		return status;
	}
	xr_err_clear(&err);
	memset(&d, 0, sizeof d);
	d.db = a.db;
	if (a.shard && shard_parse(a.shard, &d.shard_k, &d.shard_n, &err) < 0) {
		xr_err_print(&err, "xrun plan");
		plan_free(p);
		return 2;
	}
	xr_oom_stage("building the schedule of %s", path);
	rc = dry_build(&d, p, &err);
	if (rc == 0) {
		o.b = malloc(o.cap);
		if (!o.b)
			rc = xr_err_set(&err, XR_ENOMEM, NULL, 0, 0,
					"out of memory");
	}
	if (rc == 0) {
		xr_oom_stage("printing the schedule of %s", path);
		if (json)
			dry_write_json(&o, &d);
		else
			rc = dry_write_human(&o, &d, &err);
		fastout_flush(&o);
		if (fflush(stdout) != 0 || o.failed) {
			fprintf(stderr, "xrun plan: cannot write the output\n");
			status = 3;
		}
	}
	if (rc < 0) {
		xr_err_print(&err, "xrun plan");
		status = xr_code_exit(-rc);
	}
	free(o.b);
	dry_release(&d);
	plan_free(p);
	return status;
}

const struct opt_cmd cmd_plan_spec = {
    .name = "plan",
    .args = "[PLAN]",
    .summary = "the dry run: print the schedule without running anything",
    .about = "Cells, runs, manual interventions, estimated duration, and "
	     "every run in order with its engine argv and hooks. With "
	     "--from-reference FILE (and no PLAN): write a plan that measures "
	     "a published reference instead.",
    .opts = plan_options,
    .min_args = 0,
    .max_args = 1,
    .fn = cmd_plan,
};
