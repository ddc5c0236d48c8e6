/*
 * The order of a schedule's manual blocks with the fewest manual changes
 * (blockorder.h): given the reflected order, an exact Held-Karp search for
 * small plans, else a nearest-neighbour walk and a bounded branch and
 * bound when exclusions punch holes in the reflected order.
 *
 * SPDX-License-Identifier: MIT
 */
#include "blockorder.h"

#include <stdlib.h>
#include <string.h>

#include "xr_err.h"
#include "banned.h"

/* Blocks up to this many are ordered by exact search (2^n * n states). */
#define BLOCKORDER_EXACT_MAX 16
/* Beyond this many blocks the O(n^2) nearest-neighbour pass is skipped. */
#define BLOCKORDER_GREEDY_MAX 4096
/* Up to this many blocks a bounded branch and bound looks for a better
 * order than the heuristics (and almost always proves the minimum). */
#define BLOCKORDER_BNB_MAX 256
/* Its budget in candidate checks: about 0.05 s in an optimised build. */
#define BLOCKORDER_BNB_WORK 20000000L

int blockorder_changes(const uint32_t *a, const uint32_t *b, const int *fx,
		       int n)
{
	int i, d = 0;
	for (i = 0; i < n; i++)
		d += a[fx[i]] != b[fx[i]];
	return d;
}

static long path_cost(const int *order, int nb, const int *cost)
{
	long c = 0;
	int i;
	for (i = 1; i < nb; i++)
		c += cost[order[i - 1] * nb + order[i]];
	return c;
}

/*
 * Held-Karp over open paths (any start, any end): dp[mask][last] is the
 * cheapest way to visit mask ending at last. Writes the best order and
 * returns its cost, or -XR_ENOMEM.
 */
static long exact_order(int nb, const int *cost, int *order)
{
	size_t full = (size_t)1 << nb, mask;
	int32_t *dp = malloc(full * (size_t)nb * sizeof *dp);
	int8_t *par = malloc(full * (size_t)nb * sizeof *par);
	int i, j, last = -1;
	long best = -1;

	if (!dp || !par) {
		free(dp);
		free(par);
		return -XR_ENOMEM;
	}
	for (mask = 0; mask < full * (size_t)nb; mask++)
		dp[mask] = INT32_MAX;
	for (i = 0; i < nb; i++) {
		dp[((size_t)1 << i) * nb + i] = 0;
		par[((size_t)1 << i) * nb + i] = -1;
	}
	for (mask = 1; mask < full; mask++)
		for (i = 0; i < nb; i++) {
			int32_t v = dp[mask * nb + i];
			if (v == INT32_MAX)
				continue;
			for (j = 0; j < nb; j++) {
				size_t nm = mask | ((size_t)1 << j);
				int32_t w = v + cost[i * nb + j];
				if (nm == mask || w >= dp[nm * nb + j])
					continue;
				dp[nm * nb + j] = w;
				par[nm * nb + j] = (int8_t)i;
			}
		}
	for (i = 0; i < nb; i++)
		if (best < 0 || dp[(full - 1) * nb + i] < best) {
			best = dp[(full - 1) * nb + i];
			last = i;
		}
	mask = full - 1;
	for (i = nb - 1; i >= 0; i--) {
		int prev = par[mask * nb + last];
		order[i] = last;
		mask &= ~((size_t)1 << last);
		last = prev;
	}
	free(dp);
	free(par);
	return best;
}

/* Nearest neighbour from order[0], ties to the earlier block in order. */
static long greedy_order(int nb, const uint32_t *blv, int nf, const int *man,
			 int nman, const int *start, int *order)
{
	char *used = calloc((size_t)nb, 1);
	long total = 0;
	int i, k;
	if (!used)
		return -XR_ENOMEM;
	order[0] = start[0];
	used[start[0]] = 1;
	for (i = 1; i < nb; i++) {
		int best = -1, bd = 0, cur = order[i - 1];
		for (k = 0; k < nb; k++) {
			int b = start[k], d;
			if (used[b])
				continue;
			d = blockorder_changes(blv + (size_t)cur * nf,
					       blv + (size_t)b * nf, man, nman);
			if (best < 0 || d < bd) {
				best = b;
				bd = d;
				if (d <= 1)
					break;
			}
		}
		order[i] = best;
		used[best] = 1;
		total += bd;
	}
	free(used);
	return total;
}

/*
 * Depth-first branch and bound over open paths, for more blocks than
 * Held-Karp can hold. The bound: every block still to visit must be
 * entered from some other block, which costs at least its cheapest way
 * in (minin). Children are tried cheapest first, so a path of single
 * changes, when there is one, is found almost at once; a search that runs
 * out of budget keeps the best order found.
 */
struct bnb {
	int nb, maxc;
	const int *cost, *minin;
	int *path, *best;
	char *used;
	long bestc, budget;
};

static void bnb_dfs(struct bnb *b, int depth, long c, long rest)
{
	int cur = b->path[depth - 1], d, v;
	b->budget -= (long)b->nb * (b->maxc + 1);
	if (depth == b->nb) {
		if (c < b->bestc) {
			b->bestc = c;
			memcpy(b->best, b->path,
			       (size_t)b->nb * sizeof *b->path);
		}
		return;
	}
	for (d = 0; d <= b->maxc; d++)
		for (v = 0; v < b->nb; v++) {
			int w = b->cost[cur * b->nb + v];
			if (b->used[v] || w != d)
				continue;
			if (b->budget <= 0)
				return;
			if (c + w + rest - b->minin[v] >= b->bestc)
				continue;
			b->used[v] = 1;
			b->path[depth] = v;
			bnb_dfs(b, depth + 1, c + w, rest - b->minin[v]);
			b->used[v] = 0;
		}
}

/* Improve order[] (of cost *oc) in place; 0 or -XR_ENOMEM. */
static int bnb_order(int nb, const uint32_t *blv, int nf, const int *man,
		     int nman, int *order, long *oc)
{
	struct bnb b;
	int *cost = malloc((size_t)nb * nb * sizeof *cost);
	int *minin = malloc((size_t)nb * sizeof *minin);
	int *path = malloc((size_t)nb * sizeof *path);
	char *used = calloc((size_t)nb, 1);
	long total = 0;
	int i, j, rc = -XR_ENOMEM;
	if (!cost || !minin || !path || !used)
		goto out;
	memset(&b, 0, sizeof b);
	for (j = 0; j < nb; j++)
		minin[j] = INT32_MAX;
	for (i = 0; i < nb; i++)
		for (j = 0; j < nb; j++) {
			int w =
			    blockorder_changes(blv + (size_t)i * nf,
					       blv + (size_t)j * nf, man, nman);
			cost[i * nb + j] = w;
			if (i != j && w < minin[j])
				minin[j] = w;
			if (w > b.maxc)
				b.maxc = w;
		}
	for (j = 0; j < nb; j++)
		total += minin[j];
	b.nb = nb;
	b.cost = cost;
	b.minin = minin;
	b.path = path;
	b.best = order;
	b.used = used;
	b.bestc = *oc;
	b.budget = BLOCKORDER_BNB_WORK;
	/* start from every block, the current first one first */
	for (i = 0; i < nb && b.budget > 0; i++) {
		int s0 = order[0];
		int st = i == 0 ? s0 : (i == s0 ? 0 : i);
		path[0] = st;
		used[st] = 1;
		bnb_dfs(&b, 1, 0, total - minin[st]);
		used[st] = 0;
	}
	*oc = b.bestc;
	rc = 0;
out:
	free(cost);
	free(minin);
	free(path);
	free(used);
	return rc;
}

int blockorder_improve(int nb, const uint32_t *blv, int nf, const int *man,
		       int nman, int *order)
{
	int i, rc = 0;
	int *alt = malloc((size_t)nb * sizeof *alt);
	long gcost, c;

	if (!alt)
		return -XR_ENOMEM;
	if (nb <= 2)
		goto out;
	if (nb <= BLOCKORDER_EXACT_MAX) {
		int *cost = malloc((size_t)nb * nb * sizeof *cost);
		int j;
		if (!cost) {
			rc = -XR_ENOMEM;
			goto out;
		}
		for (i = 0; i < nb; i++)
			for (j = 0; j < nb; j++)
				cost[i * nb + j] = blockorder_changes(
				    blv + (size_t)i * nf, blv + (size_t)j * nf,
				    man, nman);
		gcost = path_cost(order, nb, cost);
		c = exact_order(nb, cost, alt);
		free(cost);
		if (c < 0) {
			rc = -XR_ENOMEM;
			goto out;
		}
		/* Keep the reflected order when it is optimal: it reads
		 * naturally (the first manual factor changes least). */
		if (c < gcost)
			memcpy(order, alt, (size_t)nb * sizeof *order);
		goto out;
	}
	if (nb > BLOCKORDER_GREEDY_MAX)
		goto out;
	gcost = 0;
	for (i = 1; i < nb; i++)
		gcost +=
		    blockorder_changes(blv + (size_t)order[i - 1] * nf,
				       blv + (size_t)order[i] * nf, man, nman);
	if (gcost == nb - 1)
		goto out; /* every change is a single factor: optimal */
	c = greedy_order(nb, blv, nf, man, nman, order, alt);
	if (c < 0) {
		rc = -XR_ENOMEM;
		goto out;
	}
	if (c < gcost) {
		memcpy(order, alt, (size_t)nb * sizeof *order);
		gcost = c;
	}
	if (nb <= BLOCKORDER_BNB_MAX && gcost > nb - 1)
		rc = bnb_order(nb, blv, nf, man, nman, order, &gcost);
out:
	free(alt);
	return rc;
}
