/*
 * Change points in a history of sessions (changept.c; schema/report.md,
 * "History"): the runs of one cell, session after session, split where
 * their level changed. The unit is the run; a change can only fall
 * between two sessions. Binary segmentation with a permutation test of the
 * largest two-sample t over the segment's session boundaries (exact under
 * exchangeable runs whatever their distribution: heavy tails need no
 * model), a magnitude floor (the plan's threshold, as Otava's --magnitude
 * and the Chromium dashboard's 1% floor), and a lone interior session that
 * two opposite changes would fence in read as one deviant session, not two
 * changes (the minimum segment Otava's users asked for, kept for the last
 * session, which a CI gate must be able to call). Deterministic: the
 * permutations come from a seeded generator, so a report is the same every
 * time it is written.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_CHANGEPT_H
#define XR_CHANGEPT_H

#include <stddef.h>
#include <stdint.h>

#include "xr_err.h"

/* Permutations per test: p values down to 1/1000, enough for a family
 * level of 0.05 over up to ~40 cells (the p of a test is exact for B). */
#define CHANGEPT_PERMUTATIONS 999

struct changept_change {
	size_t at;     /* index of the first session after the change */
	double delta;  /* mean(after) - mean(before) of the values (logs:
			  the relative change is exp(delta) - 1) */
	double lo, hi; /* its Welch interval at the test's confidence */
	double p;      /* permutation p of the split, over its segment */
};

struct changept_opts {
	double alpha;	  /* the test's level for this history (the family
			     level divided among the histories tested) */
	double min_delta; /* |delta| a change must reach (log(1 + theta)) */
	uint64_t seed;	  /* of the permutations */
};

/*
 * The changes in n values y (in time order) that form nsess sessions,
 * session k holding y[start[k] .. start[k+1]-1] (start[nsess] = n).
 * OUT: out[*nout] in time order (room for nsess - 1), *spikes[nspikes]
 * the lone interior sessions left out of the segmentation (room for
 * nsess; NULL: not reported). 0, -XR_ENOMEM, or STATS_EDATA (stats.h)
 * when a session has no value.
 */
int changept_find(const double *y, const size_t *start, size_t nsess,
		  const struct changept_opts *o, struct changept_change *out,
		  size_t *nout, size_t *spikes, size_t *nspikes);

#endif
