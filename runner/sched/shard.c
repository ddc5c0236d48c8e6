/*
 * Shards (shard.h): cutting a schedule into the units inside which
 * comparisons pair, grouping the units a declared comparison on a manual
 * factor joins, assigning the groups to N shards by their nominal seconds
 * and keeping one shard's runs. Everything here is a pure function of the
 * plan, the schedule and N, so every testbed of a sharded night computes
 * the same assignment without talking to the others (the contract of
 * gtest's and Playwright's shards: the same invocation runs the same set,
 * and each test runs exactly once).
 *
 * SPDX-License-Identifier: MIT
 */
#include "shard.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "matrix.h"
#include "plan.h"
#include "xr_sched.h"
#include "units.h"
#include "buf.h"
#include "banned.h"

/* Seconds a run costs beyond its engine's duration and the settle time
 * in the balance (the dry run's default overhead; a constant, so that no
 * machine's measurement moves a unit from one shard to another). */
#define SHARD_RUN_ALLOWANCE 0.35

int shard_parse(const char *s, uint32_t *k, uint32_t *n, struct xr_err *err)
{
	const char *slash = s ? strchr(s, '/') : NULL;
	unsigned long long kk, nn;
	char *end;
	if (!slash || slash == s || !slash[1])
		return xr_err_set(err, XR_EUSAGE, NULL, 0, 0,
				  "--shard '%s': expected K/N, the 1-based "
				  "shard K of N (e.g. 1/3)",
				  s ? s : "");
	errno = 0;
	kk = strtoull(s, &end, 10);
	if (end != slash || errno || *s == '-' || *s == '+')
		return xr_err_set(err, XR_EUSAGE, NULL, 0, 0,
				  "--shard '%s': K is not a number "
				  "(expected K/N, e.g. 1/3)",
				  s);
	nn = strtoull(slash + 1, &end, 10);
	if (*end || errno || slash[1] == '-' || slash[1] == '+')
		return xr_err_set(err, XR_EUSAGE, NULL, 0, 0,
				  "--shard '%s': N is not a number "
				  "(expected K/N, e.g. 1/3)",
				  s);
	if (nn < 1 || nn > SHARD_MAX)
		return xr_err_set(err, XR_EUSAGE, NULL, 0, 0,
				  "--shard '%s': N must be 1 to %d", s,
				  SHARD_MAX);
	if (kk < 1 || kk > nn)
		return xr_err_set(
		    err, XR_EUSAGE, NULL, 0, 0,
		    "--shard '%s': K must be 1 to %llu (K counts from 1; "
		    "Kubernetes' JOB_COMPLETION_INDEX and gtest's "
		    "GTEST_SHARD_INDEX count from 0: add 1; docs/shards.md)",
		    s, nn);
	*k = (uint32_t)kk;
	*n = (uint32_t)nn;
	return 0;
}

/* The duration (or omit) a level sets through params:, else dflt. */
static double level_param_seconds(const struct plan_factor *fa, uint32_t l,
				  const char *key, double dflt)
{
	double v;
	int i;
	if (!fa->level_params)
		return dflt;
	for (i = 0; i < fa->nlevel_params[l]; i++)
		if (!strcmp(fa->level_params[l][i].key, key) &&
		    units_parse(fa->level_params[l][i].value, UNITS_DURATION,
				&v, NULL) == 0)
			return v;
	return dflt;
}

double shard_run_seconds(const struct plan *p, const uint32_t *lv)
{
	double dur = p->engine.duration, omit = p->engine.omit, v;
	int f;
	for (f = 0; f < p->nfactors; f++) {
		const struct plan_factor *fa = &p->factors[f];
		if (fa->param && !strcmp(fa->param, "duration") &&
		    units_parse(fa->levels[lv[f]], UNITS_DURATION, &v, NULL) ==
			0)
			dur = v;
		else if (fa->param && !strcmp(fa->param, "omit") &&
			 units_parse(fa->levels[lv[f]], UNITS_DURATION, &v,
				     NULL) == 0)
			omit = v;
		dur = level_param_seconds(fa, lv[f], "duration", dur);
		omit = level_param_seconds(fa, lv[f], "omit", omit);
	}
	return dur + omit + p->settle + SHARD_RUN_ALLOWANCE;
}

/* Whether block b's passes may go to different shards: an interleaved
 * order with a fixed number of passes (sized repetitions decide their
 * extra passes after the pilot, so their block stays whole). */
static int splittable(const struct plan *p)
{
	return p->order != PLAN_ORDER_SEQUENTIAL && p->precision <= 0 &&
	       p->repeat >= 2;
}

/* Union-find over blocks: the groups that must share a shard. */
static uint32_t find(uint32_t *up, uint32_t x)
{
	while (up[x] != x)
		x = up[x] = up[up[x]];
	return x;
}

static void join(uint32_t *up, uint32_t a, uint32_t b)
{
	a = find(up, a);
	b = find(up, b);
	if (a != b)
		up[a > b ? a : b] = a < b ? a : b;
}

static int factor_index(const struct plan *p, const char *name)
{
	int f;
	for (f = 0; name && f < p->nfactors; f++)
		if (!strcmp(p->factors[f].name, name))
			return f;
	return -1;
}

/* The manual factors an explicit pair names on either side. */
static int pair_manual(const struct plan *p, const struct plan_compare *c,
		       char *named)
{
	int i, f, any = 0;
	for (i = 0; i < c->na + c->nb; i++) {
		const struct plan_kv *kv =
		    i < c->na ? &c->a[i] : &c->b[i - c->na];
		f = factor_index(p, kv->key);
		if (f >= 0 && p->factors[f].manual)
			named[f] = 1, any = 1;
	}
	return any;
}

/* Do blocks a and b differ only in the manual factors marked in vary? */
static int differ_only(const struct sched *s, int nf, size_t a, size_t b,
		       const char *vary)
{
	const uint32_t *x = s->blocks[a].manual_lv, *y = s->blocks[b].manual_lv;
	int f;
	for (f = 0; f < nf; f++)
		if (x[f] != y[f] && !vary[f])
			return 0;
	return 1;
}

/* Join the blocks each declared comparison on a manual factor pairs. */
static int join_compared(const struct plan *p, const struct sched *s,
			 uint32_t *up)
{
	char *vary = calloc((size_t)p->nfactors + 1, 1);
	size_t a, b;
	int i, f;
	if (!vary)
		return -XR_ENOMEM;
	for (i = 0; i < p->report.ncompare; i++) {
		const struct plan_compare *c = &p->report.compare[i];
		memset(vary, 0, (size_t)p->nfactors + 1);
		if (c->factor) {
			f = factor_index(p, c->factor);
			if (f < 0 || !p->factors[f].manual)
				continue;
			vary[f] = 1;
		} else if (!pair_manual(p, c, vary))
			continue;
		for (a = 0; a < s->nblocks; a++)
			for (b = a + 1; b < s->nblocks; b++)
				if (differ_only(s, p->nfactors, a, b, vary))
					join(up, (uint32_t)a, (uint32_t)b);
	}
	free(vary);
	return 0;
}

/* The units of block b: its pass pairs, or the block whole. */
static size_t block_units(const struct plan *p, const struct matrix *m,
			  const struct sched *s, size_t b, struct shard_unit *u)
{
	const struct sched_block *k = &s->blocks[b];
	uint32_t npairs = splittable(p) ? ((uint32_t)p->repeat + 1) / 2 : 1;
	size_t i;
	uint32_t j;
	for (j = 0; j < npairs; j++) {
		u[j].block = (uint32_t)b;
		u[j].pass0 = npairs > 1 ? 2 * j : 0;
		u[j].npass = npairs > 1
				 ? ((2 * j + 2 <= (uint32_t)p->repeat) ? 2 : 1)
				 : 0;
		u[j].seconds = 0;
	}
	for (i = k->first; i < k->first + k->nruns; i++) {
		const struct sched_run *r = &s->runs[i];
		if (r->warmup)
			continue;
		j = npairs > 1 ? (r->rep - 1) / 2 : 0;
		u[j].seconds += shard_run_seconds(p, matrix_cell(m, r->cell));
	}
	return npairs;
}

/* Longest group first, to the lightest shard (LPT): order of groups. */
struct gsum {
	uint32_t group;
	uint32_t first; /* its first unit, the tie-break */
	double seconds;
};

static int gsum_cmp(const void *a, const void *b)
{
	const struct gsum *x = a, *y = b;
	if (x->seconds != y->seconds)
		return x->seconds < y->seconds ? 1 : -1;
	return (x->first > y->first) - (x->first < y->first);
}

/* Assign each group (and so its units) to a shard. */
static int assign(struct shard_plan *sp, uint32_t ngroups)
{
	struct gsum *g = calloc((size_t)ngroups + 1, sizeof *g);
	uint32_t *to = calloc((size_t)ngroups + 1, sizeof *to);
	size_t i;
	uint32_t j, k, best;
	if (!g || !to) {
		free(g);
		free(to);
		return -XR_ENOMEM;
	}
	for (j = 0; j < ngroups; j++)
		g[j].group = j, g[j].first = UINT32_MAX;
	for (i = 0; i < sp->nunits; i++) {
		struct gsum *x = &g[sp->units[i].group];
		x->seconds += sp->units[i].seconds;
		if (x->first == UINT32_MAX)
			x->first = (uint32_t)i;
	}
	qsort(g, ngroups, sizeof *g, gsum_cmp);
	for (j = 0; j < ngroups; j++) {
		for (best = 0, k = 1; k < sp->nshards; k++)
			if (sp->load[k] < sp->load[best])
				best = k;
		to[g[j].group] = best;
		sp->load[best] += g[j].seconds;
	}
	for (i = 0; i < sp->nunits; i++)
		sp->units[i].shard = to[sp->units[i].group];
	free(g);
	free(to);
	return 0;
}

/*
 * Group ids, dense: the units of blocks a comparison joins share their
 * root block's group; every other unit is a group of its own. Returns the
 * number of groups, or UINT32_MAX when out of memory.
 */
static uint32_t number_groups(struct shard_plan *sp, uint32_t *up,
			      const char *joined, size_t nblocks)
{
	uint32_t *id = malloc((nblocks + 1) * sizeof *id), n = 0, root;
	size_t i;
	if (!id)
		return UINT32_MAX;
	for (i = 0; i < nblocks; i++)
		id[i] = UINT32_MAX;
	for (i = 0; i < sp->nunits; i++) {
		if (!joined[sp->units[i].block]) {
			sp->units[i].group = n++;
			continue;
		}
		root = find(up, sp->units[i].block);
		if (id[root] == UINT32_MAX)
			id[root] = n++;
		sp->units[i].group = id[root];
	}
	free(id);
	return n;
}

int shard_plan_build(const struct plan *p, const struct matrix *m,
		     const struct sched *s, uint32_t n, struct shard_plan *sp,
		     struct xr_err *err)
{
	uint32_t per = splittable(p) ? ((uint32_t)p->repeat + 1) / 2 : 1;
	uint32_t *up = NULL, ngroups;
	char *joined = NULL;
	size_t b;
	memset(sp, 0, sizeof *sp);
	sp->nshards = n ? n : 1;
	sp->units = calloc(s->nblocks * per + 1, sizeof *sp->units);
	sp->load = calloc(sp->nshards, sizeof *sp->load);
	up = malloc((s->nblocks + 1) * sizeof *up);
	joined = calloc(s->nblocks + 1, 1);
	if (!sp->units || !sp->load || !up || !joined)
		goto nomem;
	for (b = 0; b < s->nblocks; b++)
		up[b] = (uint32_t)b;
	if (join_compared(p, s, up) < 0)
		goto nomem;
	/* A block a comparison joins to another keeps its pass pairs
	 * together too: the comparison pairs its runs with the other's. */
	for (b = 0; b < s->nblocks; b++)
		if (find(up, (uint32_t)b) != b)
			joined[find(up, (uint32_t)b)] = joined[b] = 1;
	for (b = 0; b < s->nblocks; b++)
		sp->nunits += block_units(p, m, s, b, sp->units + sp->nunits);
	ngroups = number_groups(sp, up, joined, s->nblocks);
	if (ngroups == UINT32_MAX || assign(sp, ngroups) < 0)
		goto nomem;
	free(up);
	free(joined);
	return 0;
nomem:
	free(up);
	free(joined);
	shard_plan_release(sp);
	return xr_err_set(err, XR_ENOMEM, p->path, 0, 0,
			  "out of memory dividing the schedule into shards");
}

void shard_plan_release(struct shard_plan *sp)
{
	free(sp->units);
	free(sp->load);
	memset(sp, 0, sizeof *sp);
}

/* The manual factors whose levels differ between blocks a and b. */
static int block_changes(const struct plan *p, const struct sched_block *a,
			 const struct sched_block *b)
{
	int f, n = 0;
	for (f = 0; f < p->nfactors; f++)
		n += p->factors[f].manual && a->manual_lv[f] != b->manual_lv[f];
	return n;
}

/* Whether run r of a block whose units start at units[u0] is shard k's. */
static int run_owned(const struct shard_plan *sp, size_t u0,
		     const struct sched_run *r, uint32_t k)
{
	const struct shard_unit *u = &sp->units[u0];
	if (u->npass)
		u += (r->rep - 1) / 2;
	return u->shard == k;
}

int shard_keep(struct sched *s, const struct plan *p,
	       const struct shard_plan *sp, uint32_t k, struct xr_err *err)
{
	struct sched_run *runs = malloc((s->nruns + 1) * sizeof *runs), *w;
	size_t b, i, u = 0, u0, last = (size_t)-1;
	int mine;
	if (!runs)
		return xr_err_set(err, XR_ENOMEM, p->path, 0, 0,
				  "out of memory keeping a shard's runs");
	k--; /* 0-based from here */
	w = runs;
	s->manual_interventions = 0;
	for (b = 0; b < s->nblocks; b++) {
		struct sched_block *blk = &s->blocks[b];
		size_t first = blk->first, end = blk->first + blk->nruns;
		u0 = u;
		for (mine = 0; u < sp->nunits && sp->units[u].block == b; u++)
			mine |= sp->units[u].shard == k;
		blk->first = (size_t)(w - runs);
		for (i = first; mine && i < end; i++)
			if (s->runs[i].warmup ||
			    run_owned(sp, u0, &s->runs[i], k))
				*w++ = s->runs[i];
		blk->nruns = (size_t)(w - runs) - blk->first;
		blk->changes = 0;
		if (!blk->nruns)
			continue;
		if (last != (size_t)-1)
			blk->changes = block_changes(p, &s->blocks[last], blk);
		s->manual_interventions += blk->changes;
		last = b;
	}
	free(s->runs);
	s->runs = runs;
	s->nruns = (size_t)(w - runs);
	return 0;
}

/* One unit as a reader reads it; the store's merge check words the units
 * of its manifests the same way (store_shard.c). */
static void unit_text(const struct shard_unit *u, struct buf *out)
{
	buf_addf(out, "block %u", u->block);
	if (u->npass == 1)
		buf_addf(out, " pass %u", u->pass0 + 1);
	else if (u->npass > 1)
		buf_addf(out, " passes %u-%u", u->pass0 + 1,
			 u->pass0 + u->npass);
}

void shard_describe(const struct shard_plan *sp, uint32_t k, struct buf *out)
{
	size_t i, n = 0;
	for (i = 0; i < sp->nunits; i++) {
		if (sp->units[i].shard != k - 1)
			continue;
		if (n++)
			buf_adds(out, ", ");
		unit_text(&sp->units[i], out);
	}
	if (!n)
		buf_adds(out, "nothing");
}
