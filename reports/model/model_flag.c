/*
 * A flag on a list of the report model (a cell's, a comparison's, the
 * report's): every step of the build that raises one (model_stats.c,
 * conditions.c, model_sizing.c, compare.c, multiplicity.c) appends it here,
 * a code already on the list getting the new detail after its own. A leaf
 * under the steps: it calls none of them, so that no step calls back up
 * into model.c, which drives them.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdarg.h>

#include "arena.h"
#include "buf.h"
#include "model_flag.h"
#include "model_int.h"
#include "banned.h"

void model_flag(struct model_build *m, struct report_flag *list, int *n,
		enum report_flag_code code, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;
	int i;
	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	for (i = 0; i < *n; i++)
		if (list[i].code == code) {
			if (!b.s)
				;
			else if (b.len && list[i].detail && *list[i].detail)
				list[i].detail = arena_printf(
				    m->a, "%s; %s", list[i].detail, b.s);
			else if (b.len)
				list[i].detail = arena_strdup(m->a, b.s);
			buf_release(&b);
			return;
		}
	if (*n < REPORT_FLAG_COUNT) {
		list[*n].code = code;
		list[*n].detail = arena_strdup(m->a, b.s ? b.s : "");
		(*n)++;
	}
	buf_release(&b);
}
