/*
 * The outlier cut at the two ends of its table (reports/stats/outlier.c):
 * n = 3, the smallest cell it flags in, and past n = 64, where the cut
 * follows Sidak's bound scaled to the table's last cut. Expected values
 * from python3's statistics.NormalDist (no scipy):
 *   z(n) = inv_cdf(1 - (1 - 0.95 ** (1 / n)) / 2)
 *   cut(n) = z(n) * 3.740 / z(64): cut(65) 3.7447835107313083,
 *   cut(100) 3.8756336053668097, cut(1000) 4.5178744912752755
 * Three values 0, 0.001, -0.9: median 0, MAD 0.001, M of -0.9 =
 * 0.6745 * 0.9 / 0.001 = 607 > 21.888: flagged. 0, 0.001, -0.02: M =
 * 13.49 < 21.888: not flagged (a fixed 3.5 would flag it).
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>

#include "stats.h"
#include "tap.h"

int main(void)
{
	double far3[] = {0, 0.001, -0.9}, near3[] = {0, 0.001, -0.02};
	size_t idx[3] = {9, 9, 9};
	tap_plan(8);
	is_near(stats_outlier_cut(3), 21.888, 0, "cut(3) from the table");
	is_int(stats_outliers_mad(far3, 3, stats_outlier_cut(3), idx), 1,
	       "3 runs: one far out is flagged (M 607)");
	is_int((long)idx[0], 2, "the far one");
	is_int(stats_outliers_mad(near3, 3, stats_outlier_cut(3), idx), 0,
	       "3 runs: M 13.5 is under the cut");
	is_near(stats_outlier_cut(64), 3.740, 0, "cut(64), the table's last");
	is_near(stats_outlier_cut(65), 3.7447835107313083, 1e-6,
		"cut(65): Sidak scaled");
	is_near(stats_outlier_cut(100), 3.8756336053668097, 1e-6, "cut(100)");
	is_near(stats_outlier_cut(1000), 4.5178744912752755, 1e-6, "cut(1000)");
	return tap_done();
}
