/*
 * dsort: an ascending sort of doubles in place, the order qsort gave the
 * statistics (glibc's merge sort) without a call through a comparison
 * function for each pair: the sorts were an eighth of the report of
 * 100,000 runs (bench/RESULTS.md).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_DSORT_H
#define XR_DSORT_H

#include <stddef.h>

/* x[0..n) ascending; equal values (and a NaN, which compares equal to
 * everything, as with the comparison it replaces) keep their order. */
void dsort(double *x, size_t n);

#endif
