/*
 * The comparisons table with short verdicts (rt_cmps_short, rtable.h):
 * rt_cmps's rows with the verdict column cut to its head, and the full
 * verdict of every row that says more as a numbered note, for the HTML
 * and PDF, whose verdict column would otherwise wrap to many lines.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "rtable.h"

#include "banned.h"

#define T(id) report_text(r, REPORT_T_##id)

/* The head of a verdict, as report_fmt_verdict starts it: the mark, the
 * change with its interval and the word; a refusal is only its word (its
 * reasons go to the notes). */
void rt_verdict_head(const struct report *r, const struct report_cmp *c,
		     char *out, size_t n)
{
	switch (c->verdict) {
	case REPORT_BETTER:
	case REPORT_WORSE:
		snprintf(out, n, "%s %+.1f%% [%+.1f, %+.1f] %s",
			 c->verdict == REPORT_BETTER ? "▲" : "▼", c->delta_pct,
			 c->ci_low_pct, c->ci_high_pct,
			 c->verdict == REPORT_BETTER ? T(BETTER) : T(WORSE));
		break;
	case REPORT_EQUIVALENT:
		snprintf(out, n, "≈ %s", T(EQUIVALENT));
		break;
	case REPORT_NOT_SIGNIFICANT:
		snprintf(out, n, "~ %s", T(NOT_SIGNIFICANT));
		break;
	case REPORT_DIFFERENT:
		snprintf(out, n, "≠ %+.1f%% [%+.1f, %+.1f] %s", c->delta_pct,
			 c->ci_low_pct, c->ci_high_pct, T(DIFFERENT));
		break;
	case REPORT_NOT_VERIFIED:
		snprintf(out, n, "— %s", T(NOT_VERIFIED));
		break;
	default:
		snprintf(out, n, "— %s", T(NOT_COMPARABLE));
		break;
	}
}

int rt_cmps_short(const struct report *r, struct arena *a, struct rtable *t,
		  const char ***notes, int *nnotes)
{
	char head[256], full[2048], mk[96];
	int i, k = 0;

	*nnotes = 0;
	if (rt_cmps(r, a, t) < 0 ||
	    !(*notes = arena_alloc(a, (size_t)(r->ncmps ? r->ncmps : 1) *
					  sizeof **notes)))
		return -XR_ENOMEM;
	for (i = 0; i < r->ncmps; i++) {
		const struct report_cmp *c = &r->cmps[i];
		const char *v;
		rt_verdict_head(r, c, head, sizeof head);
		report_fmt_verdict(r, c, full, sizeof full);
		report_fmt_cmp_marks(r, c, 1, mk, sizeof mk);
		if (strcmp(head, full) != 0) {
			if (!((*notes)[k] = arena_strdup(a, full)))
				return -XR_ENOMEM;
			k++;
			v = arena_printf(
			    a, "%s (%s %d)%s%s", head,
			    r->about.lang == REPORT_LANG_JA ? "注" : "note", k,
			    *mk ? " " : "", mk);
		} else {
			v = arena_printf(a, "%s%s%s", head, *mk ? " " : "", mk);
		}
		if (!v)
			return -XR_ENOMEM;
		t->cell[i * t->ncols + 9] = v;
	}
	*nnotes = k;
	return 0;
}
