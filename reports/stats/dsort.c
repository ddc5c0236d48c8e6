/*
 * dsort (dsort.h): the top-down merge sort of glibc 2.36's qsort
 * (stdlib/msort.c, msort_with_tmp: the first half n / 2, a merge that
 * takes from the left run unless it compares greater), with the
 * comparison x < y ? -1 : x > y written inline. The same split and the
 * same merge rule give the same order as qsort did on that library for
 * any input, NaN and -0.0 included; a stable sort in any case.
 *
 * SPDX-License-Identifier: MIT
 */
#include "dsort.h"

#include <stdlib.h>
#include <string.h>

#include "banned.h"

static void msort(double *b, size_t n, double *tmp)
{
	size_t n1, n2;
	double *b1, *b2, *t = tmp;
	if (n <= 1)
		return;
	n1 = n / 2;
	n2 = n - n1;
	b1 = b;
	b2 = b + n1;
	msort(b1, n1, tmp);
	msort(b2, n2, tmp);
	while (n1 > 0 && n2 > 0) {
		if (!(*b1 > *b2)) {
			*t++ = *b1++;
			n1--;
		} else {
			*t++ = *b2++;
			n2--;
		}
	}
	if (n1 > 0)
		memcpy(t, b1, n1 * sizeof *t);
	memcpy(b, tmp, (n - n2) * sizeof *b);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

void dsort(double *x, size_t n)
{
	double small[128], *tmp = small;
	if (n <= 1)
		return;
	if (n > sizeof small / sizeof small[0] &&
	    !(tmp = malloc(n * sizeof *tmp))) {
		qsort(x, n, sizeof *x, cmp_double); /* sorts in place */
		return;
	}
	msort(x, n, tmp);
	if (tmp != small)
		free(tmp);
}
