/*
 * The outlier cut calibrated by n (reports/stats/outlier.c). The cuts are
 * the table's, from bench/outlier-mc.c (400,000 normal samples per n);
 * the clean and halved samples below were checked by hand with python3:
 *   clean8 = [0.004, -0.011, 0.007, 0.000, -0.003, 0.012, -0.006, 0.002]
 *   median 0.001, |d| median 0.0055 (MAD), max |M| = 0.6745 * 0.012 /
 *   0.0055 = 1.4716 < cut(8) 4.928: no flag
 *   halved: clean8 with x0 += log(0.5) = -0.689147: M = 0.6745 *
 *   0.6916 / 0.0060 = 77.7 > 4.928: flagged, index 0
 * Besides, a seeded Monte Carlo of 20,000 clean cells of 4, 8 and 16
 * values: at most 6% flagged (5% expected, 3 standard errors 0.5%).
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdint.h>

#include "stats.h"
#include "tap.h"

static uint64_t st = 88172645463325252ULL;

static double unif(void) /* xorshift64, (0, 1) */
{
	st ^= st << 13;
	st ^= st >> 7;
	st ^= st << 17;
	return ((double)(st >> 11) + 0.5) / 9007199254740992.0;
}

static double norm(void)
{
	return sqrt(-2 * log(unif())) * cos(2 * M_PI * unif());
}

static void clean_rate(size_t n)
{
	double x[16];
	size_t idx[16], i;
	long k, flagged = 0;
	for (k = 0; k < 20000; k++) {
		for (i = 0; i < n; i++)
			x[i] = 0.01 * norm();
		flagged +=
		    stats_outliers_mad(x, n, stats_outlier_cut(n), idx) > 0;
	}
	ok(flagged <= 1200, "n %zu: %.2f%% of clean cells flagged", n,
	   flagged / 200.0);
}

int main(void)
{
	double clean8[] = {0.004,  -0.011, 0.007,  0.000,
			   -0.003, 0.012,  -0.006, 0.002};
	size_t idx[8];
	is_near(stats_outlier_cut(4), 6.885, 1e-9, "cut(4) from the table");
	is_near(stats_outlier_cut(16), 4.122, 1e-9, "cut(16) from the table");
	ok(isinf(stats_outlier_cut(2)), "n < 3: no cut");
	ok(stats_outlier_cut(65) > 3.7 && stats_outlier_cut(65) < 3.8,
	   "past the table: near the table's last cut");
	ok(stats_outlier_cut(1000) > stats_outlier_cut(65),
	   "past the table: the cut grows with n (Sidak)");
	is_int(stats_outliers_mad(clean8, 8, stats_outlier_cut(8), idx), 0,
	       "clean 8: no flag (max M 1.47)");
	is_int(stats_outliers_mad(clean8, 8, 3.5, idx), 0,
	       "clean 8: none at 3.5 either");
	clean8[0] += log(0.5);
	is_int(stats_outliers_mad(clean8, 8, stats_outlier_cut(8), idx), 1,
	       "one halved run is flagged (M 77.7)");
	is_int((long)idx[0], 0, "the halved run is the one flagged");
	clean_rate(4);
	clean_rate(8);
	clean_rate(16);
	return tap_done();
}
