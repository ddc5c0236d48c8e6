/*
 * Does a declared pair (report.compare {a, b}) yield a comparison over a
 * set of cells (plan.h, plan_pair_check)? The one rule `xrun validate`
 * warns with (over the matrix) and the report notes (over the stored
 * cells), so the two never disagree (issue 23).
 *
 * SPDX-License-Identifier: MIT
 */
#include <string.h>

#include "plan.h"

#include "banned.h"

/* Does the cell x (level per plan factor) have every level of side kv? */
static int side_matches(const struct plan *p, const uint32_t *x,
			const struct plan_kv *kv, int n)
{
	int j;
	for (j = 0; j < n; j++) {
		int f = plan_factor_index(p, kv[j].key), l;
		if (f < 0)
			return 0;
		l = plan_level_index(&p->factors[f], kv[j].value);
		if (l < 0 || x[f] != (uint32_t)l)
			return 0;
	}
	return 1;
}

/* Does side kv name factor f? */
static int names(const struct plan *p, const struct plan_kv *kv, int n, int f)
{
	int j;
	for (j = 0; j < n; j++)
		if (plan_factor_index(p, kv[j].key) == f)
			return 1;
	return 0;
}

/* Is there a cell with side b's levels, equal to a in every factor b does
 * not name, and not a itself? */
static int has_partner(const struct plan *p, const struct plan_compare *pc,
		       const uint32_t *a, const uint32_t *cells, size_t ncells)
{
	size_t c;
	int f, nf = p->nfactors;
	for (c = 0; c < ncells; c++) {
		const uint32_t *x = cells + c * (size_t)nf;
		if (x == a || !side_matches(p, x, pc->b, pc->nb))
			continue;
		for (f = 0; f < nf; f++)
			if (!names(p, pc->b, pc->nb, f) && x[f] != a[f])
				break;
		if (f == nf)
			return 1;
	}
	return 0;
}

/* Do cells x and y differ in factor f only? */
static int only_in(const struct plan *p, const uint32_t *x, const uint32_t *y,
		   int f)
{
	int g;
	for (g = 0; g < p->nfactors; g++)
		if ((g == f) != (x[g] != y[g]))
			return 0;
	return 1;
}

int plan_factor_pairs(const struct plan *p, const struct plan_compare *pc,
		      const uint32_t *cells, size_t ncells,
		      const uint32_t **a_out, const uint32_t **b_out)
{
	int f = plan_factor_index(p, pc->factor), base = 0;
	size_t c, k;
	*a_out = *b_out = NULL;
	if (f < 0)
		return 0;
	if (pc->baseline &&
	    (base = plan_level_index(&p->factors[f], pc->baseline)) < 0)
		return 0;
	for (c = 0; c < ncells; c++) {
		const uint32_t *a = cells + c * (size_t)p->nfactors;
		if (a[f] != (uint32_t)base)
			continue;
		for (k = 0; k < ncells; k++) {
			const uint32_t *b = cells + k * (size_t)p->nfactors;
			if (b[f] == (uint32_t)base)
				continue;
			if (only_in(p, a, b, f))
				return 1;
			if (!*a_out) {
				*a_out = a;
				*b_out = b;
			}
		}
	}
	return 0;
}

enum plan_pair_status plan_pair_check(const struct plan *p,
				      const struct plan_compare *pc,
				      const uint32_t *cells, size_t ncells)
{
	size_t c;
	int na = 0;
	if (pc->factor)
		return PLAN_PAIR_OK;
	for (c = 0; c < ncells; c++) {
		const uint32_t *a = cells + c * (size_t)p->nfactors;
		if (!side_matches(p, a, pc->a, pc->na))
			continue;
		na++;
		if (has_partner(p, pc, a, cells, ncells))
			return PLAN_PAIR_OK;
	}
	return na ? PLAN_PAIR_NO_PARTNER : PLAN_PAIR_NO_A;
}
