/* Unit tests for matrix.c: cross product, stable order, exclusions.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "matrix.h"
#include "sched_fixture.h"
#include "tap.h"

static void test_order(void)
{
	struct plan *p = fx_plan();
	struct matrix m;
	struct xr_err e;
	int rc;
	fx_factor(p, "os", "win,linux");
	fx_factor(p, "streams", "1,2,4");
	rc = matrix_build(p, &m, &e);
	is_int(rc, 0, "2x3 builds");
	is_int(m.ncells, 6, "2x3 = 6 cells");
	is_int(m.nfactors, 2, "nfactors");
	/* first factor slowest */
	is_int(matrix_cell(&m, 0)[0], 0, "cell 0 os");
	is_int(matrix_cell(&m, 0)[1], 0, "cell 0 streams");
	is_int(matrix_cell(&m, 1)[1], 1, "cell 1 streams");
	is_int(matrix_cell(&m, 3)[0], 1, "cell 3 os");
	is_int(matrix_cell(&m, 5)[1], 2, "cell 5 streams");
	matrix_release(&m);
	fx_free(p);
}

static void test_exclusions(void)
{
	struct plan *p = fx_plan();
	struct matrix m;
	struct xr_err e;
	int rc;
	struct buf b = BUF_INIT;
	size_t c;
	uint32_t lv[3] = {0, 1, 0};
	fx_factor(p, "os", "windows11,ubuntu");
	fx_factor(p, "cc", "cubic,reno,bbr");
	fx_factor(p, "streams", "1,2,4,8");
	fx_exclude(p, "os=windows11,cc=reno|bbr");
	fx_exclude(p, "streams=8,cc=cubic");
	/* 24 - 2*4 (windows x reno/bbr) - 2 (cubic x 8, both os) = 14 */
	rc = matrix_build(p, &m, &e);
	is_int(rc, 0, "builds with exclusions");
	is_int(m.ncells, 14, "24 cells minus 10 excluded");
	ok(!matrix_included(p, lv), "windows11/reno excluded");
	lv[0] = 1;
	ok(matrix_included(p, lv), "ubuntu/reno included");
	for (c = 0; c < m.ncells; c++)
		ok(matrix_included(p, matrix_cell(&m, c)), "cell %zu survives",
		   c);
	for (c = 1; c < m.ncells; c++) {
		const uint32_t *a = matrix_cell(&m, c - 1),
			       *z = matrix_cell(&m, c);
		ok(memcmp(a, z, 3 * sizeof *a) != 0 &&
		       (a[0] < z[0] ||
			(a[0] == z[0] &&
			 (a[1] < z[1] || (a[1] == z[1] && a[2] < z[2])))),
		   "cells %zu,%zu in stable order", c - 1, c);
	}
	rc = matrix_cell_json(p, matrix_cell(&m, 0), &b);
	is_int(rc, 0, "cell json");
	is_str(b.s, "{\"os\":\"windows11\",\"cc\":\"cubic\",\"streams\":\"1\"}",
	       "cell json text");
	buf_release(&b);
	matrix_release(&m);
	fx_free(p);
}

static void test_errors(void)
{
	struct plan *p = fx_plan();
	struct matrix m;
	struct xr_err e;
	int rc;
	fx_factor(p, "a", "x,y");
	fx_exclude(p, "a=x|y");
	rc = matrix_build(p, &m, &e);
	is_int(rc, -XR_EPLAN, "all excluded fails");
	ok(strstr(e.msg, "no cell") != NULL, "message says no cell: %s", e.msg);
	fx_free(p);

	p = fx_plan();
	rc = matrix_build(p, &m, &e);
	is_int(rc, 0, "no factors builds");
	is_int(m.ncells, 1, "no factors = one cell");
	matrix_release(&m);
	fx_free(p);
}

static void test_large(void)
{
	struct plan *p = fx_plan();
	struct matrix m;
	struct xr_err e;
	int rc;
	int i;
	char lv[400];
	size_t n = 0;
	for (i = 0; i < 100; i++)
		n += (size_t)snprintf(lv + n, sizeof lv - n, "%s%d",
				      i ? "," : "", i);
	fx_factor(p, "a", lv);
	fx_factor(p, "b", lv);
	fx_factor(p, "c", lv);
	fx_exclude(p, "a=0,b=1");
	rc = matrix_build(p, &m, &e);
	is_int(rc, 0, "1,000,000-cell matrix builds");
	is_int(m.ncells, 1000000 - 100, "minus 100 excluded");
	is_int(matrix_cell(&m, m.ncells - 1)[2], 99, "last cell");
	matrix_release(&m);
	fx_free(p);
}

/* The indexed expansion (issue 40: exclusions indexed by one term, the
 * factor with the most levels) against the unindexed rule, over 30
 * random plans of 3 factors (2..9 levels) and 1..60 exclusions of 1..3
 * terms of 1..3 levels each (a seeded LCG): every cell of the cross
 * product is in the matrix exactly when matrix_included says so, and the
 * count agrees with a brute-force count. */
static void test_indexed(void)
{
	unsigned long long s = 40;
	int agree = 0;
	for (int k = 0; k < 30; k++) {
		struct plan *p = fx_plan();
		struct matrix m;
		struct xr_err e;
		int nl[3], nx, f;
		char spec[256], lv[64];
		size_t brute = 0, at = 0, ok_cells = 1;
#define RND(n) ((int)((s = s * 6364136223846793005ULL + 1) >> 33) % (n))
		for (f = 0; f < 3; f++) {
			char name[8], levels[64] = "";
			nl[f] = 2 + RND(8);
			for (int l = 0; l < nl[f]; l++)
				snprintf(levels + strlen(levels),
					 sizeof levels - strlen(levels),
					 "%sl%d", l ? "," : "", l);
			snprintf(name, sizeof name, "f%d", f);
			fx_factor(p, name, levels);
		}
		nx = 1 + RND(60);
		for (int x = 0; x < nx; x++) {
			int nt = 1 + RND(3), first = RND(3);
			spec[0] = 0;
			for (int t = 0; t < nt; t++) {
				int ff = (first + t) % 3, nv = 1 + RND(3);
				lv[0] = 0;
				for (int v = 0; v < nv; v++)
					snprintf(lv + strlen(lv),
						 sizeof lv - strlen(lv),
						 "%sl%d", v ? "|" : "",
						 RND(nl[ff]));
				snprintf(spec + strlen(spec),
					 sizeof spec - strlen(spec), "%sf%d=%s",
					 t ? "," : "", ff, lv);
			}
			fx_exclude(p, spec);
		}
#undef RND
		for (int a = 0; a < nl[0]; a++)
			for (int b = 0; b < nl[1]; b++)
				for (int c = 0; c < nl[2]; c++) {
					uint32_t cell[3] = {(uint32_t)a,
							    (uint32_t)b,
							    (uint32_t)c};
					brute += matrix_included(p, cell);
				}
		if (brute == 0) {
			agree++; /* nothing left: refused, as the rule says */
			fx_free(p);
			continue;
		}
		if (matrix_build(p, &m, &e) == 0) {
			for (int a = 0; a < nl[0]; a++)
				for (int b = 0; b < nl[1]; b++)
					for (int c = 0; c < nl[2]; c++) {
						uint32_t cell[3] = {
						    (uint32_t)a, (uint32_t)b,
						    (uint32_t)c};
						if (!matrix_included(p, cell))
							continue;
						if (at >= m.ncells ||
						    memcmp(matrix_cell(&m, at),
							   cell, sizeof cell))
							ok_cells = 0;
						at++;
					}
			agree +=
			    ok_cells && at == m.ncells && m.ncells == brute;
			matrix_release(&m);
		}
		fx_free(p);
	}
	is_int(agree, 30,
	       "30 random exclusion sets: the indexed matrix is "
	       "the unindexed rule's, cell by cell");
}

int main(void)
{
	tap_plan(49);
	test_order();
	test_exclusions();
	test_errors();
	test_large();
	test_indexed();
	return tap_done();
}
