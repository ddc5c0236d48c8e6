/*
 * The parts of the plan loader that plan_load.c's load() calls in turn, one
 * file per part of the plan: hosts, vars and engine (plan_sections.c),
 * factors and exclusions (plan_factor.c), factor-bound hosts
 * (plan_bind.c), the report section
 * (plan_report.c), then the cross-references (plan_check.c). Each reads
 * through pctx.h; none calls plan_load.c.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_PLAN_BUILD_H
#define XR_PLAN_BUILD_H

#include "pctx.h"

/* plan_sections.c */
void plan_build_hosts(struct pctx *c, const struct ynode *n);
void plan_build_vars(struct pctx *c, const struct ynode *n);
void plan_build_engine(struct pctx *c, const struct ynode *n,
		       const struct ynode *root);
/* plan_search.c: `search:` (its references are checked there too) */
void plan_build_search(struct pctx *c, const struct ynode *n);
/* plan_report.c */
void plan_build_report(struct pctx *c, const struct ynode *n);

/* plan_factor.c */
void plan_build_factors(struct pctx *c, const struct ynode *n);
void plan_build_excludes(struct pctx *c, const struct ynode *n);
void plan_check_cells_left(struct pctx *c);

/* plan_bind.c: a factor's hosts: (role -> level -> host) */
void plan_build_bindings(struct pctx *c, struct plan_factor *f,
			 const struct ynode *n);
void plan_check_bindings(struct pctx *c);

/* plan_check.c: cross-references once the model is complete */
void plan_check_refs(struct pctx *c);

#endif
