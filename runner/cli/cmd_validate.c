/*
 * `xrun validate PLAN...`: load every plan and print each problem as
 * "PLAN:LINE:COL: error: MESSAGE" on stderr (all of them, not only the
 * first). Exit 0 when every plan is valid, 2 otherwise. "-" reads stdin;
 * a .csv file is a published reference, read as one (issue 23).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "cmd.h"
#include "xr_err.h"
#include "oom.h"
#include "matrix.h"
#include "catalog.h"
#include "plan.h"
#include "plan_yaml.h"
#include "xr_sched.h"
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
	/* the limits of matrix.c and xr_sched.c, on the counts before
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

/* The side of a pair that sets factor f, to a level other than the other
 * side's (NULL: the pair does not compare f). */
static int pair_sets(const struct plan *p, const struct plan_compare *pc, int f)
{
	int i, j;
	for (i = 0; i < pc->na; i++)
		for (j = 0; j < pc->nb; j++)
			if (plan_factor_index(p, pc->a[i].key) == f &&
			    !strcmp(pc->a[i].key, pc->b[j].key) &&
			    strcmp(pc->a[i].value, pc->b[j].value))
				return 1;
	return 0;
}

/*
 * A comparison of a manual factor (changed by hand once per block), or of
 * any factor under `order: sequential`, has sides that are never
 * interleaved: without `accept: sequential` the report will give it no
 * verdict ("not comparable: not interleaved"). Say so at its line.
 */
static void check_accept(const struct plan *p, const struct plan_compare *pc,
			 struct xr_diag *d)
{
	int f, fi = pc->factor ? plan_factor_index(p, pc->factor) : -1;
	if (pc->accept_sequential)
		return;
	for (f = 0; f < p->nfactors; f++) {
		if (!(pc->factor ? f == fi : pair_sets(p, pc, f)) ||
		    (!p->factors[f].manual &&
		     p->order != PLAN_ORDER_SEQUENTIAL))
			continue;
		xr_diag_add(d, 1, pc->pos.line, pc->pos.col,
			    "report.compare: %s '%s' %s: its sides are never "
			    "interleaved, so the report will give no verdict "
			    "(not comparable: not interleaved); add 'accept: "
			    "sequential' to this comparison to accept a "
			    "sequential design (the verdict then says so)",
			    "factor", p->factors[f].name,
			    p->factors[f].manual
				? "is manual (changed by hand, once per block)"
				: "is compared under order: sequential");
		return;
	}
}

/* "nic: x520, slot: pcie3x1": cell x's levels where it differs from y,
 * f first. */
static void side_text(const struct plan *p, int f, const uint32_t *x,
		      const uint32_t *y, struct buf *b)
{
	int g;
	buf_addf(b, "%s: %s", p->factors[f].name, p->factors[f].levels[x[f]]);
	for (g = 0; g < p->nfactors; g++)
		if (g != f && x[g] != y[g])
			buf_addf(b, ", %s: %s", p->factors[g].name,
				 p->factors[g].levels[x[g]]);
}

/* How many levels of factor f the matrix's cells hold (0, 1 or 2: more
 * than one). */
static int levels_left(const struct matrix *m, int f)
{
	size_t c;
	for (c = 1; c < m->ncells; c++)
		if (m->lv[c * (size_t)m->nfactors + (size_t)f] !=
		    m->lv[(size_t)f])
			return 2;
	return m->ncells ? 1 : 0;
}

/*
 * A factor comparison needs two cells that differ in the factor only: a
 * factor left with one level, or nested in another by the exclusions
 * (seed 001's NIC and slot), gives none. Say which pair of setups exists
 * and how to declare it.
 */
static void check_factor(const struct plan *p, const struct plan_compare *pc,
			 const struct matrix *m, struct xr_diag *d)
{
	const uint32_t *a, *b;
	struct buf sa = BUF_INIT, sb = BUF_INIT;
	int f = plan_factor_index(p, pc->factor);
	if (f < 0 || plan_factor_pairs(p, pc, m->lv, m->ncells, &a, &b))
		return;
	if (!a && pc->baseline && levels_left(m, f) > 1) {
		xr_diag_add(d, 1, pc->pos.line, pc->pos.col,
			    "report.compare: factor '%s' has no cell at its "
			    "baseline '%s' in the matrix (the exclusions leave "
			    "none): there is nothing to compare against",
			    p->factors[f].name, pc->baseline);
		return;
	}
	if (!a) {
		xr_diag_add(d, 1, pc->pos.line, pc->pos.col,
			    "report.compare: factor '%s' has one level in the "
			    "matrix%s: there is nothing to compare it with",
			    p->factors[f].name,
			    p->factors[f].nlevels > 1 ? " (the exclusions "
							"leave no other)"
						      : "");
		return;
	}
	side_text(p, f, a, b, &sa);
	side_text(p, f, b, a, &sb);
	xr_diag_add(d, 1, pc->pos.line, pc->pos.col,
		    "report.compare: factor '%s' yields no comparison: no two "
		    "cells differ in it only (the exclusions nest it: {%s} "
		    "against {%s}); to compare those setups, declare the pair "
		    "{a: {%s}, b: {%s}}",
		    p->factors[f].name, sa.s, sb.s, sa.s, sb.s);
	buf_release(&sa);
	buf_release(&sb);
}

/*
 * What the report will refuse, said before a night is spent (issue 35):
 * a comparison whose sides are never interleaved without `accept:
 * sequential`, a factor comparison without two cells that differ in it
 * only, a declared pair (report.compare {a, b}) that no cell pair of the
 * matrix realises (the sides also differ in a factor the pair does not
 * name: plans/pcie-gen.yaml before issue 23). The pair rules are
 * plan_pair.c's, the ones the report uses.
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
		check_accept(p, pc, d);
		if (pc->factor)
			check_factor(p, pc, &m, d);
		else if (st != PLAN_PAIR_OK)
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
