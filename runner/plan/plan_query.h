/*
 * Lookups over a loaded plan: factors, levels, hosts, variables, roles,
 * declared pairs and an edited file beside its stored text (plan_query.c,
 * plan_bind.c, plan_pair.c, plan_recut.c).
 * Part of the plan's interface: include "plan.h", which includes this
 * file (the header is split only to keep each part short).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_PLAN_QUERY_H
#define XR_PLAN_QUERY_H

#include <stddef.h>
#include <stdint.h>

#include "plan.h"

/* What an index lookup returns when nothing has that name: not an error
 * code, a legitimate answer. */
#define PLAN_NOT_FOUND (-1)

/* Lookups; PLAN_NOT_FOUND / NULL when absent. */
int plan_factor_index(const struct plan *p, const char *name);
int plan_level_index(const struct plan_factor *f, const char *level);
const struct plan_host *plan_host_find(const struct plan *p, const char *name);
const char *plan_var(const struct plan *p, const char *name);

/*
 * The host name that plays role in cell lv: the level's host of the factor
 * that binds role (`hosts:`), else for "client" the engine's client, for
 * "server" the engine's server host, else role itself when it is a host.
 * lv NULL: the plan's defaults, bindings ignored. NULL when none.
 */
const char *plan_role_host(const struct plan *p, const char *role,
			   const uint32_t *lv);
/* Set mark[i] (i a host index; mark has p->nhosts entries) for every
 * host role can be in some cell: each host its binding names, in every
 * combination, else the one plan_role_host(p, role, NULL) gives. */
void plan_role_hosts(const struct plan *p, const char *role, char *mark);
/* Index of the factor whose `hosts:` binds role, or PLAN_NOT_FOUND. */
int plan_role_factor(const struct plan *p, const char *role);
/* Does any factor bind a host? */
int plan_has_bindings(const struct plan *p);

/*
 * Does a declared pair yield a comparison over ncells cells, cell c being
 * cells[c * p->nfactors ...] (a level index per plan factor)? A pair is
 * realised by a cell with side a's levels and another with side b's
 * levels that equals it in every factor b does not name (plan_pair.c).
 * `xrun validate` asks over the matrix, the report over the stored cells.
 * A factor comparison (pc->factor) is always PLAN_PAIR_OK.
 */
enum plan_pair_status {
	PLAN_PAIR_OK = 0,
	PLAN_PAIR_NO_A,	      /* no cell has side a's levels */
	PLAN_PAIR_NO_PARTNER, /* side-a cells have no side-b partner */
};
enum plan_pair_status plan_pair_check(const struct plan *p,
				      const struct plan_compare *pc,
				      const uint32_t *cells, size_t ncells);
/*
 * A factor comparison ({factor: F, baseline: L}) over the same cells: 1
 * when a cell at F = L (default F's first level) has a partner that
 * differs from it in F only (the report compares those); else 0, with
 * *a_out and *b_out the first baseline cell and the first cell of another
 * level of F (differing in more than F: factors nested by exclusions), or
 * both NULL when F has no other level among the cells.
 */
int plan_factor_pairs(const struct plan *p, const struct plan_compare *pc,
		      const uint32_t *cells, size_t ncells,
		      const uint32_t **a_out, const uint32_t **b_out);

struct buf;
/*
 * A plan file edited after its runs (plan_recut.c, `xrun report PLAN`):
 * plan_runs_differ: 1 when file no longer describes stored's runs (the
 * engine type, a factor added, removed or moved, its levels or whether it
 * is manual), with the first difference in why ("factor 'cc' levels
 * changed: [cubic, reno] -> [cubic, bbr]"); else 0. plan_report_same: 1
 * when two report sections say the same (lang, unit, threshold, tables,
 * compare with baseline and accept; output is not a report setting).
 */
int plan_runs_differ(const struct plan *stored, const struct plan *file,
		     struct buf *why);
int plan_report_same(const struct plan_report *a, const struct plan_report *b);

#endif
