/*
 * The cut of the median/MAD outlier rule (stats_outliers_mad) calibrated
 * by sample size: a fixed |M| > 3.5 (Iglewicz & Hoaglin 1993) flags 10-29%
 * of clean normal samples of 3-16 values, because the MAD of a small
 * sample is itself noisy. The table holds, for each n, the 95th
 * percentile of max_i |M_i| over 400,000 samples of n standard normals
 * (bench/outlier-mc.c prints the table and checks it): a cell of clean
 * normal values is then flagged with probability 5% whatever n, the
 * Hampel identifier's calibration by simulation (Davies & Gather 1993,
 * "The identification of multiple outliers", JASA 88(423), alpha_n with
 * alpha = 0.05 for the whole sample).
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>

#include "stats.h"

/* Index n - 3, n = 3 .. 64 (bench/outlier-mc.c, seed 1). */
static const double cut_by_n[] = {
    21.888, 6.885, 7.812, 5.506, 5.812, 4.928, 5.070, 4.590, 4.675,
    4.365,  4.433, 4.221, 4.274, 4.122, 4.159, 4.051, 4.088, 3.992,
    4.025,  3.953, 3.981, 3.918, 3.941, 3.884, 3.902, 3.861, 3.882,
    3.845,  3.852, 3.822, 3.841, 3.808, 3.829, 3.802, 3.808, 3.788,
    3.807,  3.786, 3.795, 3.774, 3.785, 3.770, 3.775, 3.766, 3.775,
    3.757,  3.764, 3.758, 3.764, 3.756, 3.760, 3.749, 3.759, 3.750,
    3.752,  3.744, 3.757, 3.744, 3.753, 3.744, 3.746, 3.740,
};

#define CUT_FIRST 3
#define CUT_LAST (CUT_FIRST + sizeof cut_by_n / sizeof *cut_by_n - 1)

double stats_outlier_cut(size_t n)
{
	double z, zlast;
	if (n < CUT_FIRST)
		return INFINITY;
	if (n <= CUT_LAST)
		return cut_by_n[n - CUT_FIRST];
	/* Past the table the MAD is nearly sigma and the maximum of n
	 * normals grows as Sidak's bound; keep the table's last ratio to
	 * it (1.11 at n = 64), which errs towards fewer flags. */
	z = stats_norm_quantile(1 - (1 - pow(0.95, 1.0 / (double)n)) / 2);
	zlast = stats_norm_quantile(
	    1 - (1 - pow(0.95, 1.0 / (double)CUT_LAST)) / 2);
	return z * cut_by_n[CUT_LAST - CUT_FIRST] / zlast;
}
