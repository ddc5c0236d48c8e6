/*
 * shiftsel: order statistics of the na * nb differences b_j - a_i of two
 * samples without forming them, for the Hodges-Lehmann shift and its
 * interval (stats_hodges_lehmann). Time O((na + nb) log(na nb)) expected,
 * memory O(na + nb).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_SHIFTSEL_H
#define XR_SHIFTSEL_H

#include <stddef.h>

struct shiftsel;

/* A selector over copies of a and b (sorted inside); NULL when out of
 * memory. OUT: caller frees with shiftsel_free. */
struct shiftsel *shiftsel_new(const double *a, size_t na, const double *b,
			      size_t nb);
void shiftsel_free(struct shiftsel *s);

/* The k-th smallest (0-based, k < na * nb) of the differences b_j - a_i,
 * each computed as the double b_j - a_i: the same value the sorted array
 * of all differences holds at index k. */
double shiftsel_kth(struct shiftsel *s, size_t k);

/* The median of the differences as stats_quantile_sorted(d, na nb, 0.5)
 * gives it on their sorted array d. */
double shiftsel_median(struct shiftsel *s);

#endif
