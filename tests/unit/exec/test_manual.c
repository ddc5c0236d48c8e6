/* Unit tests for manual.c: which manual steps a cell needs and their
 * expanded text.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "cellctx.h"
#include "manual.h"
#include "plan.h"
#include "sched_fixture.h"
#include "tap.h"

static void collect(void *arg, const struct plan_factor *f, const char *level,
		    const char *text)
{
	buf_addf(arg, "[%s=%s: %s]", f->name, level, text);
}

int main(void)
{
	struct plan *p = fx_plan();
	uint32_t lv[3] = {1, 0, 1}, from[3] = {1, 1, 0};
	struct buf b = BUF_INIT;
	struct cellctx c;

	fx_factor(p, "os", "linux,windows")->manual = "boot {{os}} ({{cc}})";
	fx_factor(p, "cc", "cubic,reno");
	fx_factor(p, "slot", "x4,x8")->manual = "move the card to {{nosuch}}";
	cellctx_init(&c, p, lv);

	is_int(manual_steps(&c, NULL, collect, &b), 2, "every manual factor");
	is_str(b.s,
	       "[os=windows: boot windows (cubic)]"
	       "[slot=x8: move the card to {{nosuch}}]",
	       "expanded; unknown placeholder leaves the text as written");

	buf_reset(&b);
	is_int(manual_steps(&c, from, collect, &b), 1, "only what changed");
	is_str(b.s, "[slot=x8: move the card to {{nosuch}}]",
	       "os unchanged, cc is no manual factor");

	buf_reset(&b);
	from[2] = 1;
	is_int(manual_steps(&c, from, collect, &b), 0, "nothing changed");
	is_str(b.s, "", "no step");

	cellctx_release(&c);
	buf_release(&b);
	fx_free(p);
	return tap_done();
}
