/*
 * Ordering the manual blocks of a schedule (xr_sched.c's step 2): the cost of
 * going from one block to the next is the number of manual factors that
 * change (a person's work), and the order sought is the cheapest open path
 * through all blocks.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_BLOCKORDER_H
#define XR_BLOCKORDER_H

#include <stdint.h>

/* The cost of a step: how many of the manual factors man[n] differ
 * between level tuples a and b. */
int blockorder_changes(const uint32_t *a, const uint32_t *b, const int *man,
		       int n);

/*
 * Improve order[nb] (block indices, on entry the reflected order of their
 * manual levels) in place. blv[nb * nf]: each block's level tuple; man
 * [nman]: the manual factor indices. The reflected order is kept when no
 * other is cheaper (it reads naturally). 0 or -XR_ENOMEM.
 */
int blockorder_improve(int nb, const uint32_t *blv, int nf, const int *man,
		       int nman, int *order);

#endif
