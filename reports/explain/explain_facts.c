/*
 * A cell's facts are its own runs' (issue 34): each run names the fact set
 * it held under on each host (schema/store.md "fact_sets"), so a fact a
 * hook or a manual step changed between cells, or between the runs of one
 * cell, is read for the runs it held for. When the runs of one cell held
 * different values of a fact a ceiling needs, no ceiling is named; when
 * the median is above EXPLAIN_ABOVE_CEILING of a ceiling, the facts and
 * the measurement disagree and no kind is named either (schema/report.md,
 * "Limits"). Also the lookup the rules share: a host's latest value of a
 * fact over the sessions (explain_fact).
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "explain_int.h"

#include "banned.h"

/* Up to this many distinct values are named per fact. */
#define NVAL 4

const char *explain_cell_fact(struct explain_ctx *x, const char *host,
			      const char *key)
{
	const struct report *r = x->r;
	const char *val[NVAL];
	int cnt[NVAL], nv = 0, any_ok = 0, ja = x->lang == REPORT_LANG_JA;
	char one[160];
	for (int i = x->first[x->ci]; i < x->first[x->ci + 1]; i++)
		any_ok |= r->runs[x->by_cell[i]].ok;
	for (int i = x->first[x->ci]; i < x->first[x->ci + 1]; i++) {
		const struct report_run *u = &r->runs[x->by_cell[i]];
		const char *v;
		int known, k;
		/* the median is the ok runs': their facts explain it */
		if (any_ok && !u->ok)
			continue;
		v = report_run_fact(u, host, key, &known);
		if (!known)
			v = explain_fact(r, host, key);
		for (k = 0;
		     k < nv && !(v ? val[k] && !strcmp(val[k], v) : !val[k]);
		     k++)
			;
		if (k == nv && nv < NVAL) {
			val[nv] = v;
			cnt[nv++] = 0;
		}
		if (k < NVAL)
			cnt[k]++;
	}
	if (nv == 0) /* a cell without runs: the sessions' facts */
		return explain_fact(r, host, key);
	if (nv == 1)
		return val[0];
	one[0] = '\0';
	explain_fact_text(one, sizeof one, ja, host, key, "");
	if (strstr(x->differ, one))
		return NULL; /* said once */
	for (int k = 0; k < nv; k++) {
		size_t l = strlen(one);
		if (ja)
			snprintf(one + l, sizeof one - l, "%s%s（%d 回）",
				 k ? "、" : "", val[k] ? val[k] : "なし",
				 cnt[k]);
		else
			snprintf(one + l, sizeof one - l, "%s%s in %d run%s",
				 k ? ", " : "", val[k] ? val[k] : "none",
				 cnt[k], cnt[k] == 1 ? "" : "s");
	}
	explain_cat(x->differ, sizeof x->differ, "; ", one);
	return NULL;
}

/* The line of a cell settled by its facts: "EVIDENCE: WHAT (FACTS): no
 * limit named". */
static void settle(struct explain_ctx *x, struct explain_limit *l,
		   const char *what, const char *facts)
{
	const struct report *r = x->r;
	int ja = x->lang == REPORT_LANG_JA;
	l->kind = l->kind2 = EXPLAIN_NONE;
	l->evidence = arena_strdup(r->arena, x->evidence);
	l->series = arena_strdup(r->arena, "");
	l->missing = x->missing[0] ? arena_strdup(r->arena, x->missing) : NULL;
	l->line = arena_printf(
	    r->arena, "%s%s%s%s%s%s%s", x->evidence, x->evidence[0] ? ": " : "",
	    what, ja ? "（" : " (", facts, ja ? "）" : ")",
	    ja ? ": 限界要因は示さない" : ": no limit named");
}

int explain_facts_settle(struct explain_ctx *x, double med,
			 const struct explain_ceil *best,
			 const struct explain_ceil *bus, int nbus,
			 struct explain_limit *l)
{
	const struct report *r = x->r;
	const struct explain_ceil *over = NULL;
	int ja = x->lang == REPORT_LANG_JA;
	l->differ = l->disagree = NULL;
	if (x->differ[0]) {
		/* No share of a ceiling the runs did not all have. */
		x->evidence[0] = '\0';
		l->ceiling = l->fraction = NAN;
		l->ceiling_name = NULL;
		l->differ = arena_strdup(r->arena, x->differ);
		settle(x, l,
		       ja ? "セル内の試行で事実が異なり、上限は一つに定まらない"
			  : "the cell's runs held different facts, so no "
			    "ceiling is named",
		       x->differ);
		return 1;
	}
	if (!(med > 0))
		return 0;
	if (isfinite(best->bps) && med > EXPLAIN_ABOVE_CEILING * best->bps)
		over = best;
	for (int b = 0; b < nbus; b++)
		if (isfinite(bus[b].bps) &&
		    med > EXPLAIN_ABOVE_CEILING * bus[b].bps &&
		    (!over || bus[b].bps < over->bps))
			over = &bus[b];
	if (!over)
		return 0;
	if (over != best) {
		/* the evidence shows the ceiling the facts contradict */
		x->evidence[0] = '\0';
		explain_share(r, ja, med, over->bps, over->name, 1, x->evidence,
			      sizeof x->evidence);
	}
	l->ceiling = over->bps;
	l->fraction = med / over->bps;
	l->ceiling_name = arena_strdup(r->arena, over->name);
	l->disagree = arena_strdup(r->arena, over->facts);
	settle(x, l,
	       ja ? "測定値が事実の示す上限を超えており、両者が食い違う"
		  : "the measurement is above the ceiling these facts set, "
		    "so the facts and the measurement disagree",
	       over->facts);
	return 1;
}

const char *explain_fact(const struct report *r, const char *host,
			 const char *key)
{
	const char *v = NULL;
	int64_t s = -1;
	for (int i = 0; i < r->nfacts; i++) {
		const struct report_fact *f = &r->facts[i];
		if (!strcmp(f->host, host) && !strcmp(f->key, key) &&
		    f->session >= s) {
			v = f->value;
			s = f->session;
		}
	}
	return v;
}
