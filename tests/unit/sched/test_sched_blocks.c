/*
 * Random order across manual blocks (schema/plan.md, "Scheduling"): each
 * block draws its own seeded permutations, so that two blocks do not
 * repeat the same positional order (a drift shared by the blocks would
 * then land on the same cells). Pinned orders: a change of PRNG or of
 * its streams must be deliberate.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <string.h>

#include "matrix.h"
#include "sched_fixture.h"
#include "tap.h"
#include "xr_sched.h"

#define NB 3 /* manual blocks */
#define NC 6 /* automatic cells a block */
#define NR 2 /* passes */

/* cells[b][k]: the cell of block b's k-th run; pos[b][k]: its rank among
 * the block's cells (the same cells in index order), so that blocks can be
 * compared by the permutation they drew. */
static int positions(uint32_t (*pos)[NC * NR], uint32_t (*cells)[NC * NR])
{
	struct plan *p = fx_plan();
	struct matrix m;
	struct sched s;
	struct xr_err e;
	size_t b, k, j;
	int rc;
	fx_factor(p, "slot", "x1,x4,x8")->manual = "move to {{slot}}";
	fx_factor(p, "a", "0,1,2");
	fx_factor(p, "b", "0,1");
	p->repeat = NR;
	p->order = PLAN_ORDER_RANDOM;
	p->seed = 42;
	rc = matrix_build(p, &m, &e);
	if (rc == 0)
		rc = sched_build(p, &m, &s, &e);
	if (rc) {
		printf("# build failed: %s\n", e.msg);
		fx_free(p);
		return -1;
	}
	rc = s.nblocks == NB && s.nruns == NB * NC * NR ? 0 : -1;
	for (b = 0; rc == 0 && b < NB; b++) {
		const struct sched_run *r = &s.runs[s.blocks[b].first];
		uint32_t sorted[NC];
		/* the block's cells in index order name the positions */
		for (k = 0; k < NC; k++)
			sorted[k] = r[k].cell;
		for (k = 0; k < NC; k++)
			for (j = k + 1; j < NC; j++)
				if (sorted[j] < sorted[k]) {
					uint32_t t = sorted[k];
					sorted[k] = sorted[j];
					sorted[j] = t;
				}
		for (k = 0; k < NC * NR; k++) {
			cells[b][k] = r[k].cell;
			for (j = 0; j < NC && sorted[j] != r[k].cell; j++)
				;
			pos[b][k] = (uint32_t)j;
		}
	}
	sched_release(&s);
	matrix_release(&m);
	fx_free(p);
	return rc;
}

static void print(const char *what, size_t b, const uint32_t *v)
{
	size_t k;
	printf("# block %zu %s:", b, what);
	for (k = 0; k < NC * NR; k++)
		printf(" %u", v[k]);
	printf("\n");
}

int main(void)
{
	uint32_t pos[NB][NC * NR], cells[NB][NC * NR];
	static const uint32_t pinned[NB][NC * NR] = {
	    {2, 5, 4, 1, 3, 0, 0, 4, 5, 1, 3, 2},
	    {9, 7, 8, 10, 11, 6, 6, 7, 9, 10, 8, 11},
	    {13, 15, 16, 12, 17, 14, 12, 14, 15, 13, 17, 16},
	};
	size_t b;
	tap_plan(1 + 3 * NB);
	ok(positions(pos, cells) == 0, "3 manual blocks of 6 cells, 2 passes");
	for (b = 0; b < NB; b++) {
		print("cells", b, cells[b]);
		print("positions", b, pos[b]);
		ok(memcmp(cells[b], pinned[b], sizeof pinned[b]) == 0,
		   "block %zu: the pinned order", b);
		ok(memcmp(pos[b], pos[(b + 1) % NB], NC * sizeof pos[b][0]) !=
		       0,
		   "block %zu's first pass differs from block %zu's", b,
		   (b + 1) % NB);
		ok(memcmp(pos[b], pos[b] + NC, NC * sizeof pos[b][0]) != 0,
		   "block %zu's second pass is a fresh permutation", b);
	}
	return tap_done();
}
