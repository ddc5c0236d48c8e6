/*
 * `xrun validate PLAN...`: load every plan and print each problem as
 * "PLAN:LINE:COL: error: MESSAGE" on stderr (all of them, not only the
 * first). Exit 0 when every plan is valid, 2 otherwise. "-" reads stdin.
 */
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "cmd.h"
#include "err.h"
#include "matrix.h"
#include "catalog.h"
#include "plan.h"
#include "plan_yaml.h"
#include "sched.h"
#include "banned.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: xrun validate [-q] PLAN...\n"
		   "  check plans and report every problem as "
		   "PLAN:LINE:COL: error: MESSAGE\n"
		   "  -q, --quiet  print nothing for a valid plan\n"
		   "  exit 0 when every plan is valid, 2 otherwise\n");
}

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

static int validate_one(const char *path, int quiet)
{
	struct xr_diag d;
	struct plan *p = NULL;
	int rc;
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
	if (rc == 0)
		rc = check_size(p, &d);
	if (d.n) /* xr_diag_print qsorts items, NULL when there are none */
		xr_diag_print(&d, stderr);
	if (rc == 0 && !quiet)
		printf("%s: ok\n", d.file);
	xr_diag_release(&d);
	plan_free(p);
	return rc;
}

int cmd_validate(int argc, char **argv)
{
	int i, quiet = 0, bad = 0, nplans = 0, opts = 1;
	for (i = 1; i < argc; i++) {
		if (opts && argv[i][0] == '-' && argv[i][1]) {
			if (strcmp(argv[i], "--") == 0)
				opts = 0;
			else if (strcmp(argv[i], "-q") == 0 ||
				 strcmp(argv[i], "--quiet") == 0)
				quiet = 1;
			else if (strcmp(argv[i], "-h") == 0 ||
				 strcmp(argv[i], "--help") == 0) {
				usage(stdout);
				return 0;
			} else {
				fprintf(stderr,
					"xrun validate: unknown option '%s' "
					"(valid: -q, --quiet, -h, --help)\n",
					argv[i]);
				return 2;
			}
			continue;
		}
		nplans++;
	}
	if (!nplans) {
		usage(stderr);
		return 2;
	}
	opts = 1;
	for (i = 1; i < argc; i++) {
		if (opts && argv[i][0] == '-' && argv[i][1]) {
			if (strcmp(argv[i], "--") == 0)
				opts = 0;
			continue;
		}
		if (validate_one(argv[i], quiet) < 0)
			bad = 1;
	}
	fflush(stdout);
	return bad ? 2 : 0;
}
