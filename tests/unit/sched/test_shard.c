/*
 * Shards (runner/sched/shard.c): K/N parsed with the bases spelled out;
 * the units (pass pairs of interleaved blocks, whole blocks otherwise, the
 * blocks a declared manual comparison joins kept together) and their
 * assignment by nominal seconds, worked by hand below; every (cell,
 * repetition) of the plan in exactly one shard; each shard's warm-ups.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <string.h>

#include "matrix.h"
#include "xr_sched.h"
#include "sched_fixture.h"
#include "shard.h"
#include "buf.h"
#include "tap.h"

static void parse_cases(void)
{
	struct xr_err e;
	uint32_t k = 0, n = 0;
	is_int(shard_parse("2/3", &k, &n, &e), 0, "2/3 parses");
	is_int(k, 2, "K of 2/3");
	is_int(n, 3, "N of 2/3");
	is_int(shard_parse("0/4", &k, &n, &e), -XR_EUSAGE, "0/4 refused");
	ok(strstr(e.msg, "K counts from 1") &&
	       strstr(e.msg, "JOB_COMPLETION_INDEX"),
	   "0/4 names the 0-based schedulers: %s", e.msg);
	is_int(shard_parse("5/4", &k, &n, &e), -XR_EUSAGE, "5/4 refused");
	ok(strstr(e.msg, "K must be 1 to 4") != NULL, "5/4 says 1 to 4: %s",
	   e.msg);
	/* GitLab's CI_NODE_INDEX/CI_NODE_TOTAL unset: "--shard /" */
	is_int(shard_parse("/", &k, &n, &e), -XR_EUSAGE, "'/' refused");
	ok(strstr(e.msg, "expected K/N") != NULL, "'/' says K/N: %s", e.msg);
	is_int(shard_parse("1/", &k, &n, &e), -XR_EUSAGE, "'1/' refused");
	is_int(shard_parse("a/2", &k, &n, &e), -XR_EUSAGE, "'a/2' refused");
	is_int(shard_parse("-1/2", &k, &n, &e), -XR_EUSAGE, "'-1/2' refused");
	is_int(shard_parse("1/0", &k, &n, &e), -XR_EUSAGE, "'1/0' refused");
	is_int(shard_parse("1/2x", &k, &n, &e), -XR_EUSAGE, "'1/2x' refused");
	is_int(shard_parse("1/100001", &k, &n, &e), -XR_EUSAGE,
	       "N above 100000 refused");
	/* K = N is the last shard, not beyond it */
	is_int(shard_parse("3/3", &k, &n, &e), 0, "3/3 parses");
	is_int(k, 3, "K of 3/3");
	is_int(shard_parse("1/1", &k, &n, &e), 0, "1/1 parses");
}

/* slot (manual: 3 levels) x a (2 levels), repeat 4, one warm-up. */
static struct plan *slots_plan(enum plan_order order)
{
	struct plan *p = fx_plan();
	fx_factor(p, "slot", "x1,x4,x8")->manual = "move the card to {{slot}}";
	fx_factor(p, "a", "0,1");
	p->repeat = 4;
	p->warmup = 1;
	p->order = order;
	return p;
}

struct built {
	struct matrix m;
	struct sched s;
	struct shard_plan sp;
};

static int build(struct plan *p, uint32_t n, struct built *b)
{
	struct xr_err e;
	memset(b, 0, sizeof *b);
	if (matrix_build(p, &b->m, &e) < 0 ||
	    sched_build(p, &b->m, &b->s, &e) < 0 ||
	    shard_plan_build(p, &b->m, &b->s, n, &b->sp, &e) < 0) {
		printf("# build: %s\n", e.msg);
		return -1;
	}
	return 0;
}

static void built_release(struct built *b)
{
	shard_plan_release(&b->sp);
	sched_release(&b->s);
	matrix_release(&b->m);
}

/* Runs (cell, rep) of shard k of n; count[cell * 8 + rep] += 1. */
static size_t shard_runs(struct plan *p, uint32_t k, uint32_t n,
			 unsigned *count, size_t *warmups, int *changes)
{
	struct built b;
	struct xr_err e;
	size_t i, nr;
	if (build(p, n, &b) < 0 || shard_keep(&b.s, p, &b.sp, k, &e) < 0)
		return (size_t)-1;
	for (i = 0; i < b.s.nruns; i++) {
		const struct sched_run *r = &b.s.runs[i];
		if (r->warmup)
			(*warmups)++;
		else
			count[r->cell * 8 + r->rep]++;
	}
	*changes = b.s.manual_interventions;
	nr = b.s.nruns;
	built_release(&b);
	return nr;
}

/*
 * abba, 3 blocks of 2 cells, repeat 4: each block is two pass pairs
 * (passes 1-2 and 3-4), 6 units of 2 cells x 2 passes x (10 s + 0.35 s)
 * = 41.4 s. All equal, so LPT takes them in schedule order and gives each
 * to the lighter shard, ties to shard 1: units 0, 2, 4 (the first pair
 * of every block) to shard 1, units 1, 3, 5 to shard 2. Each shard: 3
 * warm-ups (one per block it touches) + 3 x 2 x 2 = 12 runs = 15, and the
 * two manual changes between its three blocks.
 */
static void pass_pairs(void)
{
	struct plan *p = slots_plan(PLAN_ORDER_ABBA);
	unsigned count[6 * 8] = {0};
	size_t w1 = 0, w2 = 0, n1, n2, c;
	int ch1 = 0, ch2 = 0, once = 1, rep;
	struct built b;
	if (build(p, 2, &b) == 0) {
		is_int((long long)b.sp.nunits, 6, "6 units");
		is_near(b.sp.units[0].seconds, 41.4, 1e-9,
			"a unit's seconds: 2 x 2 x 10.35");
		is_int(b.sp.units[0].shard, 0, "unit 0 to shard 1");
		is_int(b.sp.units[1].shard, 1, "unit 1 to shard 2");
		is_int(b.sp.units[2].shard, 0, "unit 2 to shard 1");
		is_int(b.sp.units[5].shard, 1, "unit 5 to shard 2");
		is_int(b.sp.units[1].pass0, 2, "unit 1 starts at pass 3");
		is_int(b.sp.units[1].npass, 2, "unit 1 holds 2 passes");
		is_near(b.sp.load[0], 124.2, 1e-9, "shard 1 load 3 x 41.4");
		is_near(b.sp.load[1], 124.2, 1e-9, "shard 2 load 3 x 41.4");
		built_release(&b);
	}
	n1 = shard_runs(p, 1, 2, count, &w1, &ch1);
	n2 = shard_runs(p, 2, 2, count, &w2, &ch2);
	is_int((long long)n1, 15, "shard 1: 3 warm-ups + 12 runs");
	is_int((long long)n2, 15, "shard 2: 3 warm-ups + 12 runs");
	is_int((long long)w1, 3, "shard 1: a warm-up per block");
	is_int(ch1, 2, "shard 1: 2 manual changes");
	is_int(ch2, 2, "shard 2: 2 manual changes");
	for (c = 0; c < 6; c++)
		for (rep = 1; rep <= 4; rep++)
			once &= count[c * 8 + (size_t)rep] == 1;
	ok(once, "every (cell, repetition) in exactly one shard");
	fx_free(p);
}

/* A declared comparison on the manual factor joins the three blocks:
 * one group, all to shard 1 (27 runs: 3 warm-ups + 24); shard 2 none. */
static void joined_blocks(void)
{
	struct plan *p = slots_plan(PLAN_ORDER_ABBA);
	unsigned count[6 * 8] = {0};
	size_t w = 0;
	int ch = 0;
	p->report.compare = arena_alloc(p->arena, sizeof *p->report.compare);
	p->report.compare[0].factor = "slot";
	p->report.ncompare = 1;
	is_int((long long)shard_runs(p, 1, 2, count, &w, &ch), 27,
	       "compare on slot: shard 1 runs all 27");
	is_int((long long)shard_runs(p, 2, 2, count, &w, &ch), 0,
	       "compare on slot: shard 2 runs nothing");
	fx_free(p);
}

/*
 * sequential: whole blocks. A duration factor makes them unequal: block
 * x1 has 2 cells x 4 reps x (10 + 0.35) = 82.8 s; with `time` (param
 * duration, 10s or 30s) the cells of each block run 10.35 and 30.35 s:
 * 4 x (10.35 + 30.35) = 162.8 s a block. Three equal blocks over 2
 * shards: blocks 1 and 3 to shard 1 (325.6 s), block 2 to shard 2.
 */
static void whole_blocks(void)
{
	struct plan *p = fx_plan();
	struct plan_factor *t;
	struct built b;
	uint32_t lv[2] = {0, 1};
	p->warmup = 0;
	fx_factor(p, "slot", "x1,x4,x8")->manual = "move the card";
	t = fx_factor(p, "time", "10s,30s");
	t->param = "duration";
	p->repeat = 4;
	p->order = PLAN_ORDER_SEQUENTIAL;
	is_near(shard_run_seconds(p, lv), 30.35, 1e-9,
		"a 30s level: 30 + 0.35 s");
	/* duration 30 + omit 2 + settle 1 + 0.35 = 33.35 (by hand) */
	p->engine.omit = 2;
	p->settle = 1;
	is_near(shard_run_seconds(p, lv), 33.35, 1e-9,
		"omit and settle counted: 30 + 2 + 1 + 0.35 s");
	p->engine.omit = 0;
	p->settle = 0;
	if (build(p, 2, &b) == 0) {
		is_int((long long)b.sp.nunits, 3, "sequential: a unit a block");
		is_near(b.sp.units[0].seconds, 162.8, 1e-9,
			"block seconds 4 x (10.35 + 30.35)");
		is_near(b.sp.load[0], 325.6, 1e-9, "shard 1: blocks 1 and 3");
		is_near(b.sp.load[1], 162.8, 1e-9, "shard 2: block 2");
		is_int(b.sp.units[1].shard, 1, "block 2 to shard 2");
		built_release(&b);
	}
	fx_free(p);
}

/* Longest first: units of 4 blocks (one cell each, durations 40, 10, 30,
 * 20 s; repeat 1, so whole blocks) over 2 shards: 40.35 -> 1, 30.35 -> 2,
 * 20.35 -> 2 (30.35 < 40.35), 10.35 -> 1 (40.35 < 50.7): loads 50.7 and
 * 50.7. */
static void longest_first(void)
{
	struct plan *p = fx_plan();
	struct plan_factor *t;
	struct built b;
	p->warmup = 0;
	t = fx_factor(p, "time", "40s,10s,30s,20s");
	t->param = "duration";
	t->manual = "set the timer to {{time}}";
	if (build(p, 2, &b) == 0) {
		size_t i;
		double l1 = 0, l2 = 0;
		for (i = 0; i < b.sp.nunits; i++) {
			const struct shard_unit *u = &b.sp.units[i];
			double sec = u->seconds;
			if (u->shard == 0)
				l1 += sec;
			else
				l2 += sec;
		}
		is_near(l1, 50.7, 1e-9, "shard 1: 40.35 + 10.35");
		is_near(l2, 50.7, 1e-9, "shard 2: 30.35 + 20.35");
		built_release(&b);
	}
	fx_free(p);
}

/* shard_describe of the pass-pair plan above: shard 1 holds the first
 * pair of each of the 3 blocks, shard 2 the second (passes 3-4). With
 * repeat 3 a block's units are passes 1-2 (2 cells x 2 x 10.35 = 41.4 s,
 * units 0, 2, 4) and pass 3 alone (20.7 s, units 1, 3, 5); LPT by hand:
 * u0 -> 1 (tie), u2 -> 2, u4 -> 1 (tie at 41.4), u1 -> 2 (41.4 < 82.8),
 * u3 -> 2 (62.1 < 82.8), u5 -> 1 (tie at 82.8): shard 2 holds u1, u2,
 * u3. */
static void describe(void)
{
	struct plan *p = slots_plan(PLAN_ORDER_ABBA);
	struct built b;
	struct buf t = BUF_INIT;
	if (build(p, 2, &b) == 0) {
		shard_describe(&b.sp, 1, &t);
		is_str(t.s,
		       "block 0 passes 1-2, block 1 passes 1-2, "
		       "block 2 passes 1-2",
		       "shard 1/2 described");
		buf_reset(&t);
		shard_describe(&b.sp, 2, &t);
		is_str(t.s,
		       "block 0 passes 3-4, block 1 passes 3-4, "
		       "block 2 passes 3-4",
		       "shard 2/2 described");
		built_release(&b);
	}
	p->repeat = 3;
	if (build(p, 2, &b) == 0) {
		buf_reset(&t);
		shard_describe(&b.sp, 2, &t);
		is_str(t.s,
		       "block 0 pass 3, block 1 passes 1-2, block 1 pass 3",
		       "repeat 3: shard 2/2 described");
		built_release(&b);
	}
	buf_release(&t);
	fx_free(p);
}

/*
 * A shard's manual changes count against the last block it runs, not the
 * plan's previous block (another shard's). Two manual factors f (p, q)
 * and g (u, v), one cell a block, repeat 1, sequential: the reflected
 * order of the manual levels (xr_sched.c) gives blocks (p,u), (p,v), (q,v),
 * (q,u); 4 equal whole blocks of 10.35 s, LPT alternates them: blocks 0
 * and 2 to shard 1. Shard 1 steps from (p,u) to (q,v): 2 changes (from
 * the plan's block 1, (p,v), it would be 1).
 */
static void shard_changes(void)
{
	struct plan *p = fx_plan();
	struct built b;
	struct xr_err e;
	p->warmup = 0;
	p->order = PLAN_ORDER_SEQUENTIAL;
	fx_factor(p, "f", "p,q")->manual = "set f to {{f}}";
	fx_factor(p, "g", "u,v")->manual = "set g to {{g}}";
	if (build(p, 2, &b) == 0) {
		const struct sched_block *k = b.s.blocks;
		is_int((long long)b.s.nblocks, 4, "4 blocks");
		ok(k[0].manual_lv[0] == 0 && k[0].manual_lv[1] == 0 &&
		       k[1].manual_lv[0] == 0 && k[1].manual_lv[1] == 1 &&
		       k[2].manual_lv[0] == 1 && k[2].manual_lv[1] == 1,
		   "blocks (p,u), (p,v), (q,v), ...");
		is_int(b.sp.units[2].shard, 0, "block 2 to shard 1");
		if (shard_keep(&b.s, p, &b.sp, 1, &e) == 0) {
			is_int(b.s.blocks[2].changes, 2,
			       "block 2's changes counted from block 0: f, g");
			is_int(b.s.manual_interventions, 2,
			       "shard 1's manual interventions");
		}
		built_release(&b);
	}
	fx_free(p);
}

int main(void)
{
	tap_plan(53);
	parse_cases();
	pass_pairs();
	joined_blocks();
	whole_blocks();
	longest_first();
	describe();
	shard_changes();
	return tap_done();
}
