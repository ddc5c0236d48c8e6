/*
 * Manual steps (see manual.h): one expansion of a factor's `manual:`
 * instruction for the runner's prompt, `xrun status` and `xrun plan`, so
 * that all three say the same thing.
 *
 * SPDX-License-Identifier: MIT
 */
#include "manual.h"

#include "buf.h"
#include "cellctx.h"
#include "plan.h"

#include "banned.h"

int manual_steps(struct cellctx *c, const uint32_t *from, manual_step_fn fn,
		 void *arg)
{
	const struct plan *p = c->plan;
	struct buf b = BUF_INIT;
	int f, n = 0;

	for (f = 0; f < p->nfactors; f++) {
		const struct plan_factor *fac = &p->factors[f];
		if (!fac->manual || (from && from[f] == c->lv[f]))
			continue;
		buf_reset(&b);
		if (cellctx_expand(c, fac->manual, &b, NULL) < 0) {
			buf_reset(&b);
			buf_adds(&b, fac->manual);
		}
		fn(arg, fac, fac->levels[c->lv[f]], b.s);
		n++;
	}
	buf_release(&b);
	return n;
}
