/*
 * Manual steps: the instructions of the factors a person changes by hand
 * (`manual:` in the plan), expanded for one cell. The runner prints them
 * before a manual block, `xrun status` for a pending block, `xrun plan`
 * for every block; this is the one place that expands them.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_MANUAL_H
#define XR_MANUAL_H

#include <stdint.h>

struct cellctx;
struct plan_factor;

/* One step: the factor, the level it is to be set to, and the instruction
 * (valid only during the call). */
typedef void (*manual_step_fn)(void *arg, const struct plan_factor *f,
			       const char *level, const char *text);

/*
 * Call fn, in plan order, for each factor with a manual step whose level
 * in c->lv differs from from[f] (every one when from is NULL). The text is
 * the step expanded in c; when a placeholder has no value there, the
 * step as written. Returns the number of steps.
 */
int manual_steps(struct cellctx *c, const uint32_t *from, manual_step_fn fn,
		 void *arg);

#endif
