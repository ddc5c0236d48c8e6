/*
 * dsort (reports/stats/dsort.c), the statistics' sort of doubles, against
 * the C library's qsort with the comparison it replaces (x < y ? -1 :
 * x > y), bit for bit: random values, many ties, runs already sorted and
 * reversed, n from 0 to 300 and 5,000. Equal values keep their order:
 * the signs of -0.0 and 0.0 (equal) come out in the order they went in.
 * With signed zeros and NaNs the order is the algorithm's own: compared
 * with qsort only on glibc before 2.37, whose qsort is the same merge sort
 * (2.37 moved to introsort).
 *
 * SPDX-License-Identifier: MIT
 */
#include <gnu/libc-version.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsort.h"
#include "tap.h"

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static unsigned long long rng = 88172645463325252ULL;

static double next(int kind)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	switch (kind) {
	case 0: /* spread */
		return (double)(rng % 1000003) * 1e-3 - 500;
	case 1: /* ties */
		return (double)(rng % 5);
	case 2: /* signed zeros and ties */
		return rng % 3 == 0 ? -0.0 : rng % 3 == 1 ? 0.0 : 1.0;
	default: /* NaNs among ties */
		return rng % 7 == 0 ? NAN : (double)(rng % 4);
	}
}

/* dsort and qsort of the same n values of kind: 1 when bit for bit. */
static int same(size_t n, int kind, int order)
{
	double *a = malloc((n + 1) * sizeof *a),
	       *b = malloc((n + 1) * sizeof *b);
	int r;
	for (size_t i = 0; i < n; i++)
		a[i] = next(kind);
	if (order)
		qsort(a, n, sizeof *a, cmp);
	if (order < 0)
		for (size_t i = 0; i < n / 2; i++) {
			double t = a[i];
			a[i] = a[n - 1 - i];
			a[n - 1 - i] = t;
		}
	memcpy(b, a, n * sizeof *a);
	dsort(a, n);
	qsort(b, n, sizeof *b, cmp);
	r = !memcmp(a, b, n * sizeof *a);
	free(a);
	free(b);
	return r;
}

/* The zeros' signs in the order they went in: stable. */
static int stable(size_t n)
{
	double *a = malloc((n + 1) * sizeof *a);
	char *in = malloc(n + 1), *out = malloc(n + 1);
	size_t k = 0, m = 0;
	int r;
	for (size_t i = 0; i < n; i++) {
		a[i] = next(2);
		if (a[i] == 0)
			in[k++] = signbit(a[i]) ? '-' : '+';
	}
	dsort(a, n);
	for (size_t i = 0; i < n; i++)
		if (a[i] == 0)
			out[m++] = signbit(a[i]) ? '-' : '+';
	r = k == m && !memcmp(in, out, k) && a[n - 1] == 1.0;
	free(a);
	free(in);
	free(out);
	return r;
}

int main(void)
{
	int ok_all = 1, ties = 1, sorted = 1, nan_same = 1, old_glibc;
	unsigned maj = 0, min = 0;
	sscanf(gnu_get_libc_version(), "%u.%u", &maj, &min);
	old_glibc = maj == 2 && min < 37;
	tap_plan(5);
	for (size_t n = 0; n <= 300; n++) {
		ok_all &= same(n, 0, 0);
		ties &= same(n, 1, 0);
		sorted &= same(n, 0, 1) && same(n, 0, -1);
		if (old_glibc)
			nan_same &= same(n, 2, 0) && same(n, 3, 0);
	}
	ok_all &= same(5000, 0, 0);
	ties &= same(5000, 1, 0);
	ok(ok_all, "random values: qsort's order, n = 0..300 and 5000");
	ok(ties, "ties: qsort's bits");
	ok(sorted, "sorted and reversed input");
	ok(stable(1000) && stable(7), "equal values keep their order");
	if (old_glibc)
		ok(nan_same, "signed zeros, NaNs: glibc %s qsort's order",
		   gnu_get_libc_version());
	else
		ok(1, "# SKIP NaN order: glibc %s qsort is not merge sort",
		   gnu_get_libc_version());
	return tap_done();
}
