/*
 * `xrun validate PLAN...`: load every plan and print each problem as
 * "PLAN:LINE:COL: error: MESSAGE" on stderr (all of them, not only the
 * first). Exit 0 when every plan is valid, 2 otherwise. "-" reads stdin;
 * a .csv file is a published reference, read as one (issue 23).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "cmd.h"
#include "err.h"
#include "oom.h"
#include "matrix.h"
#include "catalog.h"
#include "plan.h"
#include "plan_yaml.h"
#include "sched.h"
#include "banned.h"

/*
 * A plan too big to expand or schedule is a bad plan: say so here rather
 * than let `xrun plan` or `xrun run` be the first to find out. Expanding is
 * only needed when the cells before exclusions could pass the limits.
 */
static int check_size(const struct plan *p, struct xr_diag *d)
{
	double cells = 1, manual = 1;
	struct matrix m;
	struct sched s;
	struct xr_err err;
	int f, rc;
	for (f = 0; f < p->nfactors; f++) {
		cells *= p->factors[f].nlevels;
		if (p->factors[f].manual)
			manual *= p->factors[f].nlevels;
	}
	/* the limits of matrix.c and sched.c, on the counts before
	 * exclusions: under them, nothing can be too big */
	if (cells <= (double)MATRIX_MAX_CELLS &&
	    cells * p->repeat + manual * p->warmup <= (double)SCHED_MAX_RUNS)
		return 0;
	memset(&err, 0, sizeof err);
	rc = matrix_build(p, &m, &err);
	if (rc == 0) {
		rc = sched_build(p, &m, &s, &err);
		if (rc == 0)
			sched_release(&s);
		matrix_release(&m);
	}
	if (rc < 0)
		xr_diag_add(d, 0, err.line, err.col, "%s", err.msg);
	return rc;
}

/*
 * A declared pair (report.compare {a, b}) that no cell pair of the
 * matrix realises gives no comparison: the sides also differ in a factor
 * the pair does not name (plans/pcie-gen.yaml before issue 23: the
 * X550 sat in the B550 PC, the MG3 in the X570). Say which; the rule is
 * plan_pair_check's, the one the report's note uses.
 */
static void check_pairs(const struct plan *p, struct xr_diag *d)
{
	struct matrix m;
	struct xr_err err;
	int i;
	memset(&err, 0, sizeof err);
	if (!p->report.ncompare || matrix_build(p, &m, &err) < 0)
		return;
	for (i = 0; i < p->report.ncompare; i++) {
		const struct plan_compare *pc = &p->report.compare[i];
		enum plan_pair_status st =
		    plan_pair_check(p, pc, m.lv, m.ncells);
		if (st != PLAN_PAIR_OK)
			xr_diag_add(d, 1, pc->pos.line, pc->pos.col,
				    "report.compare: the pair yields no "
				    "comparison: %s",
				    st == PLAN_PAIR_NO_PARTNER
					? "no cell of side b differs from a "
					  "side-a cell only in the factors b "
					  "names (name every factor the sides "
					  "differ in, in both a and b)"
					: "no cell has side a's levels");
	}
	matrix_release(&m);
}

/* A published reference (schema/reference.md) is a .csv file: read as
 * one, never as YAML. */
static int is_reference(const char *path)
{
	size_t n = strlen(path);
	return n > 4 && !strcasecmp(path + n - 4, ".csv");
}

static int validate_one(const char *path, int quiet, const char *reference)
{
	struct xr_diag d;
	struct plan *p = NULL;
	int rc;
	if (is_reference(path))
		return cmd_validate_reference(path, quiet);
	xr_diag_init(&d, path);
	if (strcmp(path, "-") == 0) {
		struct buf b;
		buf_init(&b, PLAN_YAML_MAX_BYTES + 1);
		if (buf_read_file(&b, "/dev/stdin", PLAN_YAML_MAX_BYTES + 1) ==
		    -XR_EIO) {
			xr_diag_add(&d, 0, 0, 0, "cannot read standard input");
			rc = -XR_EIO;
		} else {
			rc = plan_load_mem("<stdin>", b.s, b.len,
					   catalog_builtin(), &p, &d);
		}
		buf_release(&b);
		d.file = "<stdin>";
	} else {
		rc = plan_load(path, catalog_builtin(), &p, &d);
	}
	xr_oom_stage("checking %s", d.file);
	if (rc == 0)
		rc = check_size(p, &d);
	if (rc == 0)
		check_pairs(p, &d);
	if (d.n || d.nlost)
		xr_diag_print(&d, stderr);
	if (rc == 0 && reference && cmd_check_reference(p, reference) != 0)
		rc = -XR_EUSAGE;
	if (rc == 0 && !quiet)
		printf("%s: ok\n", d.file);
	xr_diag_release(&d);
	plan_free(p);
	return rc;
}

struct validate_args {
	int quiet;
	const char *reference;
};

static const struct opt_def validate_options[] = {
    {"quiet", 'q', NULL, "print nothing for a valid plan", OPT_FLAG,
     offsetof(struct validate_args, quiet), NULL, 0},
    {"reference", 0, "FILE",
     "also check a published reference against the plan "
     "(schema/reference.md): its factors, levels, cells and conditions",
     OPT_STRING, offsetof(struct validate_args, reference), NULL, 0},
    {0},
};

static int cmd_validate(int argc, char **argv)
{
	struct validate_args a = {0};
	int i, bad = 0, n = opt_parse(&cmd_validate_spec, argc, argv, &a);
	if (n < 0)
		return opt_exit(n);
	for (i = 1; i <= n; i++)
		if (validate_one(argv[i], a.quiet, a.reference) < 0)
			bad = 1;
	fflush(stdout);
	return bad ? 2 : 0;
}

const struct opt_cmd cmd_validate_spec = {
    .name = "validate",
    .args = "PLAN...",
    .summary = "check plans and report every problem as PLAN:LINE:COL: "
	       "error: MESSAGE",
    .about = "A PLAN of - reads standard input; a file ending in .csv is "
	     "read as a published reference (schema/reference.md). Exit 0 "
	     "when every file is valid, 2 otherwise.",
    .opts = validate_options,
    .min_args = 1,
    .max_args = -1,
    .fn = cmd_validate,
};
