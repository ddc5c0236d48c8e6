/*
 * shiftsel (reports/stats/shiftsel.c) when most differences tie: the
 * pivot's ties must be counted (le > lt), or a range made only of values
 * equal to the pivot never shrinks and the selection loops for ever. Two
 * cells of runs printing the same number (a command engine, a capped
 * link) are such a case. Expected values: all 20 x 20 differences of
 * a = 1.5, b = 2.0 are 0.5; a in {1, 2}, b in {1, 2} (30 x 25, the
 * pattern below) against the sorted matrix, every k. A SIGALRM after 20 s
 * fails the test instead of hanging ctest.
 *
 * SPDX-License-Identifier: MIT
 */
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "shiftsel.h"
#include "stats.h"
#include "tap.h"

static void hung(int sig)
{
	static const char m[] = "not ok - shiftsel did not return in 20 s\n";
	(void)sig;
	if (write(1, m, sizeof m - 1) < 0)
		_exit(2);
	_exit(1);
}

static int cmp(const void *x, const void *y)
{
	double p = *(const double *)x, q = *(const double *)y;
	return (p > q) - (p < q);
}

int main(void)
{
	double a[30], b[30], d[30 * 25];
	struct shiftsel *s;
	struct stats_hl h;
	size_t i, j, bad = 0;

	signal(SIGALRM, hung);
	alarm(20);
	tap_plan(5);
	for (i = 0; i < 20; i++) {
		a[i] = 1.5;
		b[i] = 2.0;
	}
	s = shiftsel_new(a, 20, b, 20);
	is_near(s ? shiftsel_median(s) : -1, 0.5, 0, "20 x 20 equal: 0.5");
	for (i = 0; s && i < 400; i++)
		bad += shiftsel_kth(s, i) != 0.5;
	is_int((long)bad, 0, "every k of 400 ties is 0.5");
	shiftsel_free(s);
	ok(stats_hodges_lehmann(a, 20, b, 20, 0.95, &h) >= 0 && h.est == 0.5,
	   "Hodges-Lehmann of two constant cells: 0.5");

	for (i = 0; i < 30; i++)
		a[i] = 1 + (double)(i % 3 == 0);
	for (j = 0; j < 25; j++)
		b[j] = 1 + (double)(j % 2);
	for (i = 0; i < 30; i++)
		for (j = 0; j < 25; j++)
			d[i * 25 + j] = b[j] - a[i];
	qsort(d, 750, sizeof *d, cmp);
	s = shiftsel_new(a, 30, b, 25);
	for (i = 0, bad = 0; s && i < 750; i++)
		bad += shiftsel_kth(s, i) != d[i];
	is_int((long)bad, 0, "30 x 25 of -1, 0, 1: every k as sorted");
	is_near(s ? shiftsel_median(s) : -1, 0.5 * (d[374] + d[375]), 0,
		"its median");
	shiftsel_free(s);
	return tap_done();
}
