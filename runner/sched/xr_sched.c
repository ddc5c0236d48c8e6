/*
 * Scheduling: decides the execution order of every run of a plan
 * (schema/plan.md, "Scheduling", has the reasoning; xr_sched.h the contract).
 *
 *  1. Cells are grouped into blocks by the levels of their manual factors
 *     (the things a person must change by hand).
 *  2. Blocks are ordered to need the fewest manual changes: an exact
 *     Held-Karp search over block orders for small plans, else a reflected
 *     (boustrophedon) order, improved when exclusions punch holes in it by
 *     a nearest-neighbour walk and a bounded branch and bound
 *     (blockorder.c).
 *  3. Inside a block the automatic cells form a sequence S in which factors
 *     with apply hooks or hosts: bindings vary slowest and neighbours
 *     differ in one factor (a snake), and the passes use S or reverse(S) by
 *     the Thue-Morse sequence (abba), a fresh seeded permutation (random),
 *     or each cell's repetitions back to back (sequential).
 *
 * Everything is sorting of 64-bit keys (a radix sort) and flat arrays, so a
 * million runs schedule in tens of milliseconds with no per-run allocation.
 *
 * SPDX-License-Identifier: MIT
 */
#include "xr_sched.h"

#include <stdlib.h>
#include <string.h>

#include "blockorder.h"
#include "matrix.h"
#include "plan.h"
#include "banned.h"

struct kv {
	uint64_t key;
	uint32_t val;
};

/* Stable LSD radix sort on key, 8 bits a pass, skipping empty high bytes. */
/* A level change that runs a hook or reopens the engine on other hosts. */
static int costly(const struct plan_factor *f)
{
	return f->apply.argv || f->nbind;
}

static int radix_sort(struct kv *a, size_t n)
{
	uint64_t all = 0;
	struct kv *tmp, *src = a, *dst;
	unsigned shift;
	size_t i;

	for (i = 0; i < n; i++)
		all |= a[i].key;
	if (n < 2 || all == 0)
		return 0;
	tmp = malloc(n * sizeof *tmp);
	if (!tmp)
		return -XR_ENOMEM;
	dst = tmp;
	for (shift = 0; shift < 64 && (all >> shift); shift += 8) {
		size_t cnt[256] = {0}, sum = 0;
		struct kv *t;
		if (((all >> shift) & 0xff) == 0)
			continue;
		for (i = 0; i < n; i++)
			cnt[(src[i].key >> shift) & 0xff]++;
		for (i = 0; i < 256; i++) {
			size_t c = cnt[i];
			cnt[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			dst[cnt[(src[i].key >> shift) & 0xff]++] = src[i];
		t = src;
		src = dst;
		dst = t;
	}
	if (src != a)
		memcpy(a, src, n * sizeof *a);
	free(tmp);
	return 0;
}

/*
 * Rank of a digit tuple in the reflected mixed-radix Gray order: digit i
 * runs forwards while the rank of the digits before it is even, backwards
 * while it is odd, so consecutive ranks differ in exactly one digit.
 */
static uint64_t snake_rank(const uint32_t *lv, const int *fx, int n,
			   const struct plan *p)
{
	uint64_t r = 0;
	int i;
	for (i = 0; i < n; i++) {
		uint32_t nl = (uint32_t)p->factors[fx[i]].nlevels;
		uint32_t d = lv[fx[i]];
		uint32_t e = (r & 1) ? nl - 1 - d : d;
		r = r * nl + e;
	}
	return r;
}

/*
 * Order the blocks (given by their level tuples blv[nb][nf], in natural
 * order) for the fewest manual changes: the reflected order of their
 * manual levels, improved by blockorder.c. OUT: order[nb] of block
 * indices. 0 or -XR_ENOMEM.
 */
static int order_blocks(const struct plan *p, int nb, const uint32_t *blv,
			const int *man, int nman, int *order)
{
	int nf = p->nfactors, i, rc;
	struct kv *g = malloc((size_t)nb * sizeof *g);

	if (!g)
		return -XR_ENOMEM;
	for (i = 0; i < nb; i++) {
		g[i].key = snake_rank(blv + (size_t)i * nf, man, nman, p);
		g[i].val = (uint32_t)i;
	}
	rc = radix_sort(g, (size_t)nb);
	if (rc == 0) {
		for (i = 0; i < nb; i++)
			order[i] = (int)g[i].val;
		rc = blockorder_improve(nb, blv, nf, man, nman, order);
	}
	free(g);
	return rc;
}

/* splitmix64 seeds xoshiro256**: both fully specified, so a seed gives the
 * same permutations on every platform and libc. */
static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

struct rng {
	uint64_t s[4];
};

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s, res = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return res;
}

static void rng_seed(struct rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed ^ (stream * 0xd1342543de82ef95ULL);
	int i;
	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

/* Uniform in [0, n) without modulo bias. */
static uint32_t rng_below(struct rng *r, uint32_t n)
{
	uint64_t lim = UINT64_MAX - UINT64_MAX % n, v;
	do
		v = rng_next(r);
	while (v >= lim);
	return (uint32_t)(v % n);
}

static void shuffle(struct rng *r, uint32_t *a, size_t n)
{
	size_t i;
	for (i = n; i > 1; i--) {
		uint32_t j = rng_below(r, (uint32_t)i), t = a[i - 1];
		a[i - 1] = a[j];
		a[j] = t;
	}
}

static void emit(struct sched_run **w, uint32_t cell, uint32_t rep,
		 uint32_t block, uint32_t *pos)
{
	struct sched_run *r = (*w)++;
	r->cell = cell;
	r->rep = rep;
	r->block = block;
	r->pos = (*pos)++;
	r->warmup = rep == 0;
}

/* The runs of one block whose cell sequence is S[n]. */
static void emit_block(const struct plan *p, uint32_t b, const uint32_t *S,
		       uint32_t n, uint32_t *scratch, struct sched_run **w)
{
	uint32_t pos = 0, i, k, rep = (uint32_t)p->repeat;
	struct rng r;

	for (k = 0; k < (uint32_t)p->warmup; k++)
		emit(w, S[0], 0, b, &pos);
	switch (p->order) {
	case PLAN_ORDER_SEQUENTIAL:
		for (i = 0; i < n; i++)
			for (k = 1; k <= rep; k++)
				emit(w, S[i], k, b, &pos);
		break;
	case PLAN_ORDER_RANDOM:
		rng_seed(&r, p->seed, b);
		memcpy(scratch, S, n * sizeof *S);
		for (k = 0; k < rep; k++) {
			shuffle(&r, scratch, n);
			for (i = 0; i < n; i++)
				emit(w, scratch[i], k + 1, b, &pos);
		}
		break;
	case PLAN_ORDER_ABBA:
	default:
		for (k = 0; k < rep; k++) {
			int rev = sched_thue_morse(k);
			for (i = 0; i < n; i++)
				emit(w, S[rev ? n - 1 - i : i], k + 1, b, &pos);
		}
		break;
	}
}

static int fail_nomem(struct xr_err *err, const struct plan *p)
{
	return xr_err_set(err, XR_ENOMEM, p->path, 0, 0,
			  "out of memory building the schedule");
}

/* What sched_build works on between its steps. */
struct build {
	const struct plan *p;
	const struct matrix *m;
	int nf, nman, nauto;
	int *man, *aut;	  /* manual factors; automatic ones, costly first */
	uint64_t pauto;	  /* product of the automatic factors' levels */
	struct kv *kv;	  /* [ncells] sort key -> cell */
	size_t nb;	  /* blocks: distinct manual tuples */
	uint32_t *blv;	  /* [nb * nf] levels of each block's first cell */
	uint32_t *bstart; /* [nb + 1] each block's first index in kv */
	int *order;	  /* [nb] blocks in the order they run */
	uint32_t *cells;  /* [ncells] cells in the order they run */
};

static void build_release(struct build *b)
{
	free(b->man);
	free(b->aut);
	free(b->kv);
	free(b->blv);
	free(b->bstart);
	free(b->order);
	free(b->cells);
}

/* Manual factors, and automatic ones with costly factors (apply hooks)
 * first, so they vary slowest. */
static int split_factors(struct build *b)
{
	const struct plan *p = b->p;
	int f;
	b->man = malloc((size_t)(b->nf + 1) * sizeof *b->man);
	b->aut = malloc((size_t)(b->nf + 1) * sizeof *b->aut);
	if (!b->man || !b->aut)
		return -XR_ENOMEM;
	for (f = 0; f < b->nf; f++)
		if (p->factors[f].manual)
			b->man[b->nman++] = f;
	/* Costly factors (apply hooks, hosts that move the engine to
	 * another machine) first, so they vary slowest. */
	for (f = 0; f < b->nf; f++)
		if (!p->factors[f].manual && costly(&p->factors[f]))
			b->aut[b->nauto++] = f;
	for (f = 0; f < b->nf; f++)
		if (!p->factors[f].manual && !costly(&p->factors[f]))
			b->aut[b->nauto++] = f;
	b->pauto = 1;
	for (f = 0; f < b->nauto; f++)
		b->pauto *= (uint64_t)p->factors[b->aut[f]].nlevels;
	return 0;
}

/* Blocks: the cells sorted by their manual tuple, in natural order; each
 * distinct tuple starts a block. */
static int group_blocks(struct build *b)
{
	const struct plan *p = b->p;
	size_t nc = b->m->ncells, c, i;
	int f;
	if (!(b->kv = malloc(nc * sizeof *b->kv)))
		return -XR_ENOMEM;
	for (c = 0; c < nc; c++) {
		const uint32_t *lv = matrix_cell(b->m, c);
		uint64_t k = 0;
		for (f = 0; f < b->nman; f++)
			k = k * (uint64_t)p->factors[b->man[f]].nlevels +
			    lv[b->man[f]];
		b->kv[c].key = k;
		b->kv[c].val = (uint32_t)c;
	}
	if (radix_sort(b->kv, nc) < 0)
		return -XR_ENOMEM;
	for (c = 0; c < nc; c++)
		b->nb += c == 0 || b->kv[c].key != b->kv[c - 1].key;
	b->blv = malloc(b->nb * (size_t)(b->nf ? b->nf : 1) * sizeof *b->blv);
	b->bstart = malloc((b->nb + 1) * sizeof *b->bstart);
	if (!b->blv || !b->bstart)
		return -XR_ENOMEM;
	for (c = 0, i = 0; c < nc; c++)
		if (c == 0 || b->kv[c].key != b->kv[c - 1].key) {
			memcpy(b->blv + i * b->nf,
			       matrix_cell(b->m, b->kv[c].val),
			       (size_t)b->nf * sizeof *b->blv);
			b->bstart[i++] = (uint32_t)c;
		}
	b->bstart[b->nb] = (uint32_t)nc;
	return 0;
}

/* Order the blocks, then one sort puts every cell at its place: (block
 * rank, snake rank). The product of all levels is bounded by matrix.c, so
 * it fits. */
static int order_cells(struct build *b)
{
	size_t nc = b->m->ncells, c, i;
	int *rank = malloc(b->nb * sizeof *rank);
	int rc = -XR_ENOMEM;
	b->order = malloc(b->nb * sizeof *b->order);
	if (!rank || !b->order ||
	    order_blocks(b->p, (int)b->nb, b->blv, b->man, b->nman, b->order) <
		0)
		goto out;
	for (i = 0; i < b->nb; i++)
		rank[b->order[i]] = (int)i;
	for (i = 0; i < b->nb; i++)
		for (c = b->bstart[i]; c < b->bstart[i + 1]; c++)
			b->kv[c].key =
			    (uint64_t)rank[i] * b->pauto +
			    snake_rank(matrix_cell(b->m, b->kv[c].val), b->aut,
				       b->nauto, b->p);
	if (radix_sort(b->kv, nc) < 0 ||
	    !(b->cells = malloc(nc * sizeof *b->cells)))
		goto out;
	for (c = 0; c < nc; c++)
		b->cells[c] = b->kv[c].val;
	rc = 0;
out:
	free(rank);
	return rc;
}

static uint32_t block_cells(const struct build *b, size_t block)
{
	return b->bstart[block + 1] - b->bstart[block];
}

/* Runs in the schedule and cells in the largest block; an error past
 * SCHED_MAX_RUNS. */
static int count_runs(const struct build *b, size_t *nruns, size_t *maxblock,
		      struct xr_err *err)
{
	size_t i;
	*nruns = *maxblock = 0;
	for (i = 0; i < b->nb; i++) {
		size_t n = block_cells(b, (size_t)b->order[i]);
		if (n > *maxblock)
			*maxblock = n;
		*nruns += (size_t)b->p->warmup + n * (size_t)b->p->repeat;
		if (*nruns > SCHED_MAX_RUNS)
			return xr_err_set(err, XR_EPLAN, b->p->path, 0, 0,
					  "the schedule has more than %zu runs "
					  "(lower repeat or add exclusions)",
					  SCHED_MAX_RUNS);
	}
	return 0;
}

/* Fill s: each block's manual levels and changes, then its runs. */
static int emit_schedule(const struct build *b, size_t nruns, size_t maxblock,
			 struct sched *s)
{
	const struct plan *p = b->p;
	int nf = b->nf, f;
	uint32_t *mlv, *scratch;
	struct sched_run *w;
	size_t i, c = 0;

	s->runs = malloc(nruns * sizeof *s->runs);
	s->blocks = calloc(b->nb, sizeof *s->blocks);
	mlv = malloc(b->nb * (size_t)(nf ? nf : 1) * sizeof *mlv);
	scratch = malloc(maxblock * sizeof *scratch);
	if (!s->runs || !s->blocks || !mlv || !scratch) {
		free(mlv);
		free(scratch);
		return -XR_ENOMEM;
	}
	s->nblocks = b->nb;
	s->nruns = nruns;
	w = s->runs;
	/* Cells are sorted by block rank, so block i's cells follow
	 * block i-1's. */
	for (i = 0; i < b->nb; i++) {
		struct sched_block *k = &s->blocks[i];
		const uint32_t *bl = b->blv + (size_t)b->order[i] * nf;
		uint32_t n = block_cells(b, (size_t)b->order[i]);
		k->manual_lv = mlv + i * nf;
		for (f = 0; f < nf; f++)
			k->manual_lv[f] =
			    p->factors[f].manual ? bl[f] : UINT32_MAX;
		if (i > 0)
			k->changes = blockorder_changes(
			    bl, b->blv + (size_t)b->order[i - 1] * nf, b->man,
			    b->nman);
		s->manual_interventions += k->changes;
		k->first = (size_t)(w - s->runs);
		emit_block(p, (uint32_t)i, b->cells + c, n, scratch, &w);
		k->nruns = (size_t)(w - s->runs) - k->first;
		c += n;
	}
	free(scratch);
	return 0;
}

int sched_build(const struct plan *p, const struct matrix *m, struct sched *s,
		struct xr_err *err)
{
	struct build b;
	size_t nruns, maxblock;
	int rc;

	memset(s, 0, sizeof *s);
	if (m->ncells == 0 || m->ncells > UINT32_MAX || p->repeat < 1 ||
	    p->warmup < 0)
		return xr_err_set(err, XR_EPLAN, p->path, 0, 0,
				  "cannot schedule %zu cells with repeat %d "
				  "and warmup %d",
				  m->ncells, p->repeat, p->warmup);
	memset(&b, 0, sizeof b);
	b.p = p;
	b.m = m;
	b.nf = p->nfactors;
	if (split_factors(&b) < 0 || group_blocks(&b) < 0 ||
	    order_cells(&b) < 0)
		rc = fail_nomem(err, p);
	else if ((rc = count_runs(&b, &nruns, &maxblock, err)) == 0 &&
		 emit_schedule(&b, nruns, maxblock, s) < 0)
		rc = fail_nomem(err, p);
	build_release(&b);
	if (rc < 0)
		sched_release(s);
	return rc;
}

/* The block's cell sequence S: its cells in the order of their first
 * repetition (pass 0 runs S as is for abba and sequential). OUT: S, n. */
static uint32_t block_sequence(const struct sched *s, size_t b, uint32_t *S,
			       uint32_t *maxrep, size_t ncells)
{
	const struct sched_block *k = &s->blocks[b];
	uint32_t n = 0;
	size_t i;
	for (i = k->first; i < k->first + k->nruns; i++) {
		const struct sched_run *r = &s->runs[i];
		if (r->cell >= ncells)
			continue;
		if (r->rep == 1)
			S[n++] = r->cell;
		if (r->rep > maxrep[r->cell])
			maxrep[r->cell] = r->rep;
	}
	return n;
}

/* The extra passes of one block into w (runs of block b from pos on). */
static void emit_extra(const struct plan *p, uint32_t b, const uint32_t *S,
		       uint32_t n, const uint32_t *extra, uint32_t *maxrep,
		       uint32_t *scratch, uint32_t pos, struct sched_run **w)
{
	uint32_t i, j, k, m, most = 0;
	struct rng r;
	for (i = 0; i < n; i++)
		if (extra[S[i]] > most)
			most = extra[S[i]];
	if (p->order == PLAN_ORDER_SEQUENTIAL) {
		for (i = 0; i < n; i++)
			for (k = 0; k < extra[S[i]]; k++)
				emit(w, S[i], ++maxrep[S[i]], b, &pos);
		return;
	}
	rng_seed(&r, p->seed ^ 0x5a17e5ULL, ((uint64_t)b << 1) | 1);
	for (j = 0; j < most; j++) {
		for (i = 0, m = 0; i < n; i++)
			if (extra[S[i]] > j)
				scratch[m++] = S[i];
		if (p->order == PLAN_ORDER_RANDOM)
			shuffle(&r, scratch, m);
		for (i = 0; i < m; i++) {
			uint32_t c = scratch[p->order == PLAN_ORDER_ABBA &&
						     sched_thue_morse(j)
						 ? m - 1 - i
						 : i];
			emit(w, c, ++maxrep[c], b, &pos);
		}
	}
}

int sched_extend_block(struct sched *s, const struct plan *p, size_t b,
		       const uint32_t *extra, size_t ncells, size_t *at,
		       size_t *added)
{
	struct sched_block *k = &s->blocks[b];
	uint32_t *S = malloc((ncells + 1) * sizeof *S);
	uint32_t *scratch = malloc((ncells + 1) * sizeof *scratch);
	uint32_t *maxrep = calloc(ncells + 1, sizeof *maxrep), n;
	struct sched_run *runs = NULL, *w;
	size_t i, add = 0, end = k->first + k->nruns;
	int rc = -XR_ENOMEM;
	if (!S || !scratch || !maxrep)
		goto out;
	n = block_sequence(s, b, S, maxrep, ncells);
	for (i = 0; i < n; i++)
		add += extra[S[i]];
	*at = end;
	*added = add;
	k->sized = 1;
	if (!add) {
		rc = 0;
		goto out;
	}
	if (!(runs = malloc((s->nruns + add) * sizeof *runs)))
		goto out;
	memcpy(runs, s->runs, end * sizeof *runs);
	w = runs + end;
	emit_extra(p, (uint32_t)b, S, n, extra, maxrep, scratch,
		   end > k->first ? s->runs[end - 1].pos + 1 : 0, &w);
	memcpy(runs + end + add, s->runs + end,
	       (s->nruns - end) * sizeof *runs);
	free(s->runs);
	s->runs = runs;
	s->nruns += add;
	k->nruns += add;
	for (i = b + 1; i < s->nblocks; i++)
		s->blocks[i].first += add;
	rc = 0;
out:
	free(S);
	free(scratch);
	free(maxrep);
	return rc;
}

void sched_release(struct sched *s)
{
	/* Every block's manual_lv points into one array owned by block 0. */
	if (s->blocks && s->nblocks)
		free(s->blocks[0].manual_lv);
	free(s->runs);
	free(s->blocks);
	memset(s, 0, sizeof *s);
}
