/*
 * shiftsel: the k-th difference b_j - a_i by selection equals the k-th
 * element of the sorted array of all differences (the oracle, formed here),
 * for every k on small samples with many ties, and on a 200 x 300 case
 * whose numbers python3 computed:
 *   a = [(i*7919 % 1000)/8 for i in range(200)]
 *   b = [(j*104729 % 1300)/8 + 3 for j in range(300)]
 *   d = sorted(y - x for x in a for y in b); n = len(d); h = (n-1)*0.5
 *   median d[29999] + 0.5*(d[30000]-d[29999]) -> 22.0
 *   d[0] -120.375, d[n-1] 164.875, d[1234] -93.125, d[n-1235] 137.5
 * All values are multiples of 1/8, so C and python agree exactly.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>

#include "shiftsel.h"
#include "stats.h"
#include "tap.h"

static int cmp(const void *x, const void *y)
{
	double p = *(const double *)x, q = *(const double *)y;
	return (p > q) - (p < q);
}

static unsigned lcg(unsigned *s)
{
	*s = *s * 1103515245u + 12345u;
	return (*s >> 16) & 0x7fff;
}

/* every k of an na x nb case against the sorted oracle */
static int all_k_match(size_t na, size_t nb, unsigned seed, unsigned spread)
{
	double *a = malloc(na * sizeof *a), *b = malloc(nb * sizeof *b);
	double *d = malloc(na * nb * sizeof *d);
	struct shiftsel *s;
	size_t i, j, bad = 0;
	for (i = 0; i < na; i++)
		a[i] = (double)(lcg(&seed) % spread) * 0.1;
	for (j = 0; j < nb; j++)
		b[j] = (double)(lcg(&seed) % spread) * 0.1 + 0.3;
	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++)
			d[i * nb + j] = b[j] - a[i];
	qsort(d, na * nb, sizeof *d, cmp);
	s = shiftsel_new(a, na, b, nb);
	for (i = 0; s && i < na * nb; i++)
		bad += shiftsel_kth(s, i) != d[i];
	bad += !s;
	shiftsel_free(s);
	free(a);
	free(b);
	free(d);
	return bad == 0;
}

int main(void)
{
	double a[200], b[300];
	struct shiftsel *s;
	struct stats_hl h;
	size_t i, n = 200 * 300;
	tap_plan(11);
	ok(all_k_match(1, 1, 1, 10), "1 x 1");
	ok(all_k_match(7, 3, 2, 4), "7 x 3, heavy ties");
	ok(all_k_match(40, 55, 3, 6), "40 x 55, heavy ties (past the gather)");
	ok(all_k_match(90, 70, 4, 100000), "90 x 70, nearly distinct");
	for (i = 0; i < 200; i++)
		a[i] = (double)(i * 7919 % 1000) / 8;
	for (i = 0; i < 300; i++)
		b[i] = (double)(i * 104729 % 1300) / 8 + 3;
	s = shiftsel_new(a, 200, b, 300);
	is_near(shiftsel_median(s), 22.0, 0, "200 x 300 median (python3)");
	is_near(shiftsel_kth(s, 0), -120.375, 0, "smallest");
	is_near(shiftsel_kth(s, n - 1), 164.875, 0, "largest");
	is_near(shiftsel_kth(s, 1234), -93.125, 0, "d[1234]");
	is_near(shiftsel_kth(s, n - 1235), 137.5, 0, "d[n-1235]");
	shiftsel_free(s);
	ok(stats_hodges_lehmann(a, 200, b, 300, 0.95, &h) >= 0, "hl 200x300");
	is_near(h.est, 22.0, 0, "hl estimate = the selected median");
	return tap_done();
}
