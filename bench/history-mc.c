/*
 * Monte Carlo of the history change rule (reports/stats/changept.c, the
 * rule `xrun report --history` applies; schema/report.md "History";
 * bench/history.sh runs the same designs through the binary).
 *
 * Null: histories of 8 sessions x 6 cells x 3 runs with no change, each
 * cell with a CV drawn from 1-5% and its runs drawn from one of: normal;
 * Student's t with 3 df (heavy tails); lognormal with sigma 3x the CV
 * (skew); normal with a slow drift within each session (the session's
 * runs rise linearly by 2 sd from first to last). Reported: the share of
 * histories with any change in any cell (the family's false alarms).
 * Power: the same histories with a 5% drop in one cell after session 4
 * at CV 1% (normal): the share of histories where that change is found,
 * and found at session 5.
 * The level is the report's: alpha 0.05 over the 6 cells (Bonferroni),
 * the floor theta 1% (the plan's default threshold).
 *
 * Usage: history-mc [HISTORIES] [SEED]   (default 2000, 1)
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "changept.h"

#define NSESS 8
#define NCELL 6
#define NRUN 3

static uint64_t st;

static double unif(void)
{
	uint64_t z = (st += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return ((double)(z >> 11) + 0.5) / 9007199254740992.0;
}

static double norm(void)
{
	return sqrt(-2 * log(unif())) * cos(2 * M_PI * unif());
}

/* Student's t with 3 df, scaled to unit variance (var = 3). */
static double t3(void)
{
	double z = norm(), c = 0;
	int i;
	for (i = 0; i < 3; i++) {
		double g = norm();
		c += g * g;
	}
	return z / sqrt(c / 3) / sqrt(3.0);
}

enum kind { NORMAL, HEAVY, SKEW, DRIFT, NKIND };
static const char *const kind_name[] = {"normal", "t3", "lognormal", "drift"};

/* One cell's log values; step: the log change after session 4. */
static void cell(double *y, size_t *start, enum kind k, double cv, double step)
{
	size_t s, r, i = 0;
	for (s = 0; s < NSESS; s++) {
		start[s] = i;
		for (r = 0; r < NRUN; r++, i++) {
			double e;
			switch (k) {
			case HEAVY:
				e = cv * t3();
				break;
			case SKEW: {
				/* a right-skewed multiplicative error with
				 * sd cv: log of (1 + cv * centred lognormal) */
				double sg = 0.9, x = exp(sg * norm());
				double m = exp(sg * sg / 2);
				double sd = m * sqrt(exp(sg * sg) - 1);
				e = log(1 + cv * (x - m) / sd);
				break;
			}
			case DRIFT:
				e = cv * (norm() +
					  2.0 * ((double)r / (NRUN - 1) - 0.5));
				break;
			default:
				e = cv * norm();
			}
			y[i] = log(1e9) + e + (s >= 4 ? step : 0);
		}
	}
	start[NSESS] = i;
}

int main(int argc, char **argv)
{
	long nh = argc > 1 ? atol(argv[1]) : 2000, h;
	double y[NSESS * NRUN];
	size_t start[NSESS + 1], nout, k;
	struct changept_change ch[NSESS];
	struct changept_opts o = {0.05 / NCELL, log(1.01), 1};
	long alarms[NKIND] = {0}, any = 0, found = 0, right = 0, dev = 0;
	size_t spk[NSESS], nspk;
	st = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
	for (h = 0; h < nh; h++) {
		int c, hit = 0;
		size_t j;
		for (c = 0; c < NCELL; c++) {
			enum kind kd = (enum kind)((h * NCELL + c) % NKIND);
			cell(y, start, kd, 0.01 + 0.04 * unif(), 0);
			o.seed = (uint64_t)(h * NCELL + c + 1);
			changept_find(y, start, NSESS, &o, ch, &nout, spk,
				      &nspk);
			if (nout) {
				alarms[kd]++;
				hit = 1;
			}
			if (nspk)
				hit |= 2;
		}
		any += hit & 1;
		dev += (hit & 2) != 0;
		/* power: the same family, one cell stepping -5% at CV 1% */
		cell(y, start, NORMAL, 0.01, log(0.95));
		o.seed = (uint64_t)h + 7777;
		changept_find(y, start, NSESS, &o, ch, &nout, NULL, NULL);
		found += nout > 0;
		for (j = 0; j < nout; j++)
			if (ch[j].at == 4 && nout == 1) {
				right++;
				break;
			}
	}
	printf("histories %ld (%d sessions x %d cells x %d runs), alpha "
	       "0.05/%d a cell, floor 1%%\n",
	       nh, NSESS, NCELL, NRUN, NCELL);
	printf("null: histories with any change %.2f%% (%ld)\n",
	       100.0 * (double)any / (double)nh, any);
	printf("null: histories with a deviant session named %.2f%%\n",
	       100.0 * (double)dev / (double)nh);
	for (k = 0; k < NKIND; k++)
		printf("  cells with a change, %s: %.3f%%\n", kind_name[k],
		       100.0 * (double)alarms[k] /
			   ((double)nh * NCELL / NKIND));
	printf("power, -5%% after session 4 at CV 1%%: found %.1f%%, "
	       "exactly at session 5 %.1f%%\n",
	       100.0 * (double)found / (double)nh,
	       100.0 * (double)right / (double)nh);
	return 0;
}
