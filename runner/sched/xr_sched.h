/*
 * The schedule: the order in which runs execute (schema/plan.md,
 * "Scheduling"). Manual factors are outermost, their combinations visited
 * in an order with the fewest manual changes; inside each manual block the
 * automatic cells run in passes ordered by `order:` (abba: Thue-Morse
 * mirrored passes; random: a seeded permutation per pass; sequential: all
 * repetitions of a cell back to back). Warm-up runs open each block.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_SCHED_H
#define XR_SCHED_H

#include <stddef.h>
#include <stdint.h>

#include "xr_err.h"

struct plan;
struct matrix;

/* 20 bytes a run: a 400 MB schedule is the most we agree to build. */
#define SCHED_MAX_RUNS ((size_t)20 * 1000 * 1000)

struct sched_run {
	uint32_t cell;	/* index into the matrix */
	uint32_t rep;	/* 1-based repetition; 0 for a warm-up run */
	uint32_t block; /* manual block index */
	uint32_t pos;	/* 0-based position within its block */
	uint8_t warmup;
};

struct sched_block {
	uint32_t *manual_lv; /* [plan nfactors]: level of each manual factor,
				UINT32_MAX for automatic factors */
	size_t first;	     /* index of its first run */
	size_t nruns;
	int changes; /* manual factors that change entering it
			(0 for the first block) */
	int sized;   /* sized repetitions: its extra passes are decided
			(sched_extend_block) */
};

struct sched {
	struct sched_run *runs;
	size_t nruns; /* warm-ups included */
	struct sched_block *blocks;
	size_t nblocks;
	int manual_interventions; /* sum of blocks[i].changes */
};

int sched_build(const struct plan *p, const struct matrix *m, struct sched *s,
		struct xr_err *err);
void sched_release(struct sched *s);

/*
 * Sized repetitions (schema/plan.md, "Sized repetitions"): appends to
 * block b, after its last run, the extra passes its cells need:
 * extra[cell] more runs of each cell (indexed like the matrix, ncells
 * long; 0 for cells outside b). Extra pass j holds the cells still needing
 * a run (extra > j) in the order's way: abba runs the block's pilot cell
 * sequence S (in its subset) reversed when the Thue-Morse bit of j is 1,
 * so passes 2j and 2j+1 mirror each other when a cell's extra count is
 * even; random a fresh seeded permutation per pass (a stream of its own,
 * so the pilot's order does not move); sequential each cell's extra runs
 * back to back in S order. Repetition numbers continue each cell's.
 * Later blocks move down. OUT: *at the index of the first new run, *added
 * how many. 0, or -XR_ENOMEM (s unchanged).
 */
int sched_extend_block(struct sched *s, const struct plan *p, size_t b,
		       const uint32_t *extra, size_t ncells, size_t *at,
		       size_t *added);

/* The block run before block b (blocks of other shards hold no run:
 * shard.h), or (size_t)-1 when b is the first with runs. */
static inline size_t sched_block_before(const struct sched *s, size_t b)
{
	while (b-- > 0)
		if (s->blocks[b].nruns)
			return b;
	return (size_t)-1;
}

/* Thue-Morse bit of k: pass k runs the block's cell order reversed iff 1. */
static inline int sched_thue_morse(uint64_t k)
{
	return __builtin_popcountll(k) & 1;
}

#endif
