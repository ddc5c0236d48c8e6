/*
 * Shards: one plan's schedule spread over N testbeds (schema/plan.md,
 * "Shards"; docs/shards.md). The schedule is cut into units, the pieces
 * inside which comparisons pair: a whole manual block, or, inside a block
 * of an interleaved order (abba, random) with fixed repetitions, a pair of
 * mirrored passes (passes 2j and 2j + 1: every cell of the block twice,
 * once in each direction). Blocks that a declared comparison on a manual
 * factor joins stay together, so that its two sides never land on two
 * testbeds. Units go to shards by their nominal seconds, longest first,
 * each to the lightest shard so far (ties: the lower unit, the lower
 * shard): a pure function of the plan and N, the same on every machine.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_SHARD_H
#define XR_SHARD_H

#include <stddef.h>
#include <stdint.h>

#include "xr_err.h"

struct plan;
struct matrix;
struct sched;

/* The most shards a plan may be spread over (Kubernetes' Indexed Jobs
 * allow 10^5 completions; GitHub's matrices 256 jobs). */
#define SHARD_MAX 100000

struct shard_unit {
	uint32_t block; /* the block it belongs to */
	uint32_t pass0; /* its first pass (0-based repetition - 1) */
	uint32_t npass; /* its passes; 0: the whole block */
	uint32_t group; /* units of one group go to one shard */
	uint32_t shard; /* 0-based shard it is assigned to */
	double seconds; /* nominal seconds of its runs (warm-ups not counted) */
};

struct shard_plan {
	struct shard_unit *units; /* [nunits] in schedule order */
	size_t nunits;
	uint32_t nshards;
	double *load; /* [nshards] nominal seconds of each shard */
};

/*
 * Parses "K/N" (1-based K, 1 <= K <= N <= SHARD_MAX). OUT: *k (1-based),
 * *n. 0, or -XR_EUSAGE with a message that names the bases the common
 * schedulers use when K is 0 or above N.
 */
int shard_parse(const char *s, uint32_t *k, uint32_t *n, struct xr_err *err);

/*
 * The units of schedule s (as sched_build made it for p and m) and their
 * assignment to n shards. OUT: sp (shard_plan_release). 0 or -XR_ENOMEM.
 */
int shard_plan_build(const struct plan *p, const struct matrix *m,
		     const struct sched *s, uint32_t n, struct shard_plan *sp,
		     struct xr_err *err);
void shard_plan_release(struct shard_plan *sp);

/*
 * Keeps in s only the runs of the units assigned to shard k (1-based), in
 * schedule order, each block's warm-ups before the shard's first unit of
 * that block. Every block stays at its index (blocks of other shards hold
 * no run) so that run->block and the store's block numbers mean the same
 * in every shard; changes and manual_interventions count the shard's own
 * block changes. 0 or -XR_ENOMEM (s unchanged).
 */
int shard_keep(struct sched *s, const struct plan *p,
	       const struct shard_plan *sp, uint32_t k, struct xr_err *err);

/* What shard k (1-based) runs, for a reader: "block 0 passes 1-2, block
 * 3" (passes 1-based; a block alone: all of it); "nothing" when empty. */
struct buf;
void shard_describe(const struct shard_plan *sp, uint32_t k, struct buf *out);

/* The nominal seconds of one run of cell lv: the engine's duration and
 * omit (or a factor's level setting them), the settle time and a fixed
 * per-run allowance; no machine's measurement enters it. */
double shard_run_seconds(const struct plan *p, const uint32_t *lv);

#endif
