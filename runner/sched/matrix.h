/*
 * Matrix expansion: the cross product of every factor's levels minus the
 * plan's exclusions, in a stable order (factors in file order, the first
 * factor varying slowest, levels in file order).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_MATRIX_H
#define XR_MATRIX_H

#include <stddef.h>
#include <stdint.h>

#include "xr_err.h"

struct plan;

/* Far beyond any real plan; keeps lv[] within a few hundred MB. */
#define MATRIX_MAX_CELLS ((size_t)50 * 1000 * 1000)

struct matrix {
	int nfactors;
	size_t ncells;
	uint32_t *lv; /* [ncells * nfactors]: level index of factor f in cell c
			 is lv[c * nfactors + f] */
};

/* 0, or -XR_EPLAN when no cell is left / -XR_ENOMEM when too many. */
int matrix_build(const struct plan *p, struct matrix *m, struct xr_err *err);
/* Does the cell given as level indices [nfactors] survive the exclusions? */
int matrix_included(const struct plan *p, const uint32_t *lv);
static inline const uint32_t *matrix_cell(const struct matrix *m, size_t c)
{
	return m->lv + c * (size_t)m->nfactors;
}
/* Cell as a JSON object text {"factor":"level",...} in factor order. */
struct buf;
int matrix_cell_json(const struct plan *p, const uint32_t *lv, struct buf *out);
void matrix_release(struct matrix *m);

#endif
