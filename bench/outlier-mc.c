/*
 * Monte Carlo of the outlier rule (issue 23): for n = 3..64 prints the
 * 95th percentile of max |M| (the modified z score of stats_outliers_mad)
 * over clean normal samples, the table reports/stats/outlier.c holds, and
 * for n 4..16 the share of clean cells flagged with the fixed 3.5 and with
 * stats_outlier_cut(n), and the share of cells with one halved run (log
 * shift -0.693 on noise sd 1%) in which that run is flagged.
 *
 * Usage: outlier-mc [SAMPLES] [SEED]   (default 400000, 1)
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "stats.h"

static uint64_t s[4];

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t rng_next(void) /* xoshiro256** */
{
	uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return r;
}

static double rng_norm(void) /* Box-Muller */
{
	double u = ((double)(rng_next() >> 11) + 0.5) / 9007199254740992.0;
	double v = ((double)(rng_next() >> 11) + 0.5) / 9007199254740992.0;
	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double max_m(const double *x, size_t n)
{
	double d[64], med = stats_median(x, n), mad, m = 0;
	size_t i;
	for (i = 0; i < n; i++)
		d[i] = fabs(x[i] - med);
	mad = stats_median(d, n) / 0.6745;
	for (i = 0; i < n; i++)
		if (d[i] / mad > m)
			m = d[i] / mad;
	return m;
}

int main(int argc, char **argv)
{
	long samples = argc > 1 ? atol(argv[1]) : 400000, k;
	uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
	double *mx = malloc((size_t)(samples > 0 ? samples : 1) * sizeof *mx);
	double x[64];
	size_t n, i, idx[64];
	if (samples < 100 || !mx)
		return 2;
	s[0] = seed, s[1] = 2, s[2] = 3, s[3] = 4;
	printf("95th percentile of max |M|, %ld clean normal samples per n\n\n"
	       "| n | cut |\n|---:|---:|\n",
	       samples);
	for (n = 3; n <= 64; n++) {
		for (k = 0; k < samples; k++) {
			for (i = 0; i < n; i++)
				x[i] = rng_norm();
			mx[k] = max_m(x, n);
		}
		qsort(mx, (size_t)samples, sizeof *mx, cmp);
		printf("| %zu | %.3f |\n", n, mx[(long)(0.95 * samples)]);
	}
	printf("\n| n | clean flagged, 3.5 | clean flagged, cut(n) | "
	       "halved run caught, cut(n) |\n|---:|---:|---:|---:|\n");
	for (n = 4; n <= 16; n++) {
		long f35 = 0, fcut = 0, caught = 0;
		double cut = stats_outlier_cut(n);
		for (k = 0; k < samples / 4; k++) {
			long c;
			for (i = 0; i < n; i++)
				x[i] = 0.01 * rng_norm();
			f35 += stats_outliers_mad(x, n, 3.5, idx) > 0;
			fcut += stats_outliers_mad(x, n, cut, idx) > 0;
			x[0] += log(0.5);
			c = stats_outliers_mad(x, n, cut, idx);
			caught += c > 0 && idx[0] == 0;
		}
		printf("| %zu | %.1f%% | %.1f%% | %.1f%% |\n", n,
		       400.0 * (double)f35 / (double)samples,
		       400.0 * (double)fcut / (double)samples,
		       400.0 * (double)caught / (double)samples);
	}
	free(mx);
	return 0;
}
