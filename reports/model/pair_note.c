/*
 * Why a comparison the report was asked for yields none, and why a
 * report has none at all (schema/report.md, "Comparisons"): a note for
 * every declared comparison (report.compare, or --compare) that yields
 * no pair of cells over the stored cells (a pair {a, b} by
 * plan_pair_check, runner/plan/plan_pair.c, the rule `xrun validate`
 * warns with; a factor with runs at one level, without runs at its
 * baseline, or nested in another by the exclusions, as validate's
 * check_factor says), and the "No comparisons" sentence with its code:
 * the true reason (issue 35), never a stock one.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model_int.h"
#include "arena.h"
#include "buf.h"
#include "plan.h"
#include "banned.h"

#define T(id) report_text(m->r, REPORT_T_##id)

/* "nic=X550-T2, slot=3.0x4" */
static void kv_text(struct buf *b, const struct plan_kv *kv, int n)
{
	int j;
	for (j = 0; j < n; j++)
		buf_addf(b, "%s%s=%s", j ? ", " : "", kv[j].key, kv[j].value);
}

/* The stored cells as level indices in the plan's factor order
 * (UINT32_MAX where a cell's level is unknown). NULL out of memory. */
static uint32_t *stored_cells(const struct model_build *m)
{
	const struct report *r = m->r;
	const struct plan *p = m->plan;
	uint32_t *lv =
	    calloc((size_t)r->ncells * (size_t)p->nfactors + 1, sizeof *lv);
	int c, f;
	if (!lv)
		return NULL;
	for (c = 0; c < r->ncells; c++)
		for (f = 0; f < p->nfactors; f++) {
			int rf = report_factor_index(r, p->factors[f].name);
			int l = rf >= 0 ? r->cells[c].lv[rf] : -1;
			lv[(size_t)c * (size_t)p->nfactors + (size_t)f] =
			    l >= 0 ? (uint32_t)l : UINT32_MAX;
		}
	return lv;
}

/* Why pair pc yields nothing over the stored cells; NULL: it yields. */
static const char *pair_why(struct model_build *m,
			    const struct plan_compare *pc, const uint32_t *lv)
{
	struct buf a = BUF_INIT, b = BUF_INIT;
	enum plan_pair_status st =
	    plan_pair_check(m->plan, pc, lv, (size_t)m->r->ncells);
	char *s;
	if (st == PLAN_PAIR_OK)
		return NULL;
	kv_text(&a, pc->a, pc->na);
	kv_text(&b, pc->b, pc->nb);
	s = arena_printf(m->a, T(CMP_PAIR), a.s ? a.s : "", b.s ? b.s : "",
			 st == PLAN_PAIR_NO_PARTNER ? T(CMP_PAIR_NO_PARTNER)
						    : T(CMP_PAIR_NO_A));
	buf_release(&a);
	buf_release(&b);
	return s ? s : "";
}

/* Cell k's partner for factor f: a cell at another level of f, equal in
 * every other factor (compare.c's rule); -1 when none. */
static int partner(const struct report *r, int f, int k)
{
	const int *x = r->cells[k].lv;
	int j, g;
	for (j = 0; j < r->ncells; j++) {
		const int *y = r->cells[j].lv;
		if (y[f] < 0 || y[f] == x[f])
			continue;
		for (g = 0; g < r->nfactors; g++)
			if (g != f && y[g] != x[g])
				break;
		if (g == r->nfactors)
			return j;
	}
	return -1;
}

/* "nic: x520, slot: pcie3x1": cell x's levels where it differs from y,
 * f first (validate's side_text). */
static void side_text(const struct report *r, int f, const int *x, const int *y,
		      struct buf *b)
{
	int g;
	buf_addf(b, "%s: %s", r->factors[f].name, r->factors[f].levels[x[f]]);
	for (g = 0; g < r->nfactors; g++)
		if (g != f && x[g] != y[g] && x[g] >= 0)
			buf_addf(b, ", %s: %s", r->factors[g].name,
				 r->factors[g].levels[x[g]]);
}

/* Factor f against baseline, nested: which setups exist and the pair to
 * declare. */
static const char *nested_text(struct model_build *m, int f, int a, int b)
{
	const struct report *r = m->r;
	struct buf sa = BUF_INIT, sb = BUF_INIT;
	char *s;
	side_text(r, f, r->cells[a].lv, r->cells[b].lv, &sa);
	side_text(r, f, r->cells[b].lv, r->cells[a].lv, &sb);
	s = arena_printf(m->a, T(CMP_NESTED), r->factors[f].name, sa.s, sb.s,
			 sa.s, sb.s);
	buf_release(&sa);
	buf_release(&sb);
	return s ? s : "";
}

/* Why factor f compared against baseline (NULL: its first level) yields
 * nothing, with its code; NULL (code NONE): it yields. */
static const char *factor_why(struct model_build *m, int f,
			      const char *baseline, enum report_nocmp *code)
{
	const struct report *r = m->r;
	const struct report_factor *fa = &r->factors[f];
	int base = 0, k, seen = -1, two = 0, a = -1, b = -1;
	*code = REPORT_NOCMP_ONE_LEVEL;
	if (fa->nlevels < 2)
		return arena_printf(m->a, T(CMP_ONE_LEVEL), fa->name);
	for (k = 0; baseline && k < fa->nlevels; k++)
		if (!strcmp(fa->levels[k], baseline))
			base = k;
	for (k = 0; k < r->ncells; k++) {
		int l = r->cells[k].lv[f];
		if (l < 0)
			continue;
		if (seen < 0)
			seen = l;
		two |= l != seen;
		if (l == base && a < 0)
			a = k;
		if (l != base && b < 0)
			b = k;
		if (l == base && partner(r, f, k) >= 0) {
			*code = REPORT_NOCMP_NONE;
			return NULL;
		}
	}
	if (seen < 0) {
		*code = REPORT_NOCMP_NO_RUNS;
		return arena_printf(m->a, T(CMP_NO_CELL), fa->name);
	}
	if (!two)
		return arena_printf(m->a, T(CMP_LEFT_ONE), fa->name,
				    fa->levels[seen]);
	if (a < 0) {
		*code = REPORT_NOCMP_NO_BASELINE;
		return arena_printf(m->a, T(CMP_NO_BASELINE), fa->name,
				    fa->levels[base]);
	}
	*code = REPORT_NOCMP_NESTED;
	return nested_text(m, f, a, b);
}

/* The comparisons the report was asked for: --compare's, else the
 * plan's report.compare; NULL: none (the default ones). */
static const struct plan_compare *declared(const struct model_build *m, int *n)
{
	*n = 0;
	if (m->o->ncompare && m->compare) {
		*n = m->ncompare;
		return m->compare;
	}
	if (m->plan && m->plan->report.ncompare) {
		*n = m->plan->report.ncompare;
		return m->compare ? m->compare : m->plan->report.compare;
	}
	return NULL;
}

/* The note of declared comparison pc, whose why is w. */
static const char *note_of(struct model_build *m, const struct plan_compare *pc,
			   const char *w)
{
	if (m->o->ncompare)
		return arena_printf(
		    m->a, T(CMP_NOTE_OPTION),
		    pc->baseline
			? arena_printf(m->a, "%s=%s", pc->factor, pc->baseline)
			: pc->factor,
		    w);
	return arena_printf(m->a, T(CMP_NOTE_PLAN), pc->pos.line, pc->pos.col,
			    w);
}

int model_pair_notes(struct model_build *m)
{
	struct report *r = m->r;
	const struct plan_compare *list;
	uint32_t *lv = NULL;
	const char **v;
	int i, n = 0, nl;
	if (!(list = declared(m, &nl)))
		return 0;
	v = arena_alloc(m->a, (size_t)nl * sizeof *v);
	if (!v)
		return -1;
	for (i = 0; i < nl; i++) {
		const struct plan_compare *pc = &list[i];
		const char *w = NULL;
		enum report_nocmp code;
		int f;
		if (pc->factor) {
			if ((f = report_factor_index(r, pc->factor)) >= 0)
				w = factor_why(m, f, pc->baseline, &code);
		} else if (m->plan) {
			if (!lv && !(lv = stored_cells(m)))
				return -1;
			w = pair_why(m, pc, lv);
		}
		if (!w)
			continue;
		if (!(v[n] = note_of(m, pc, w))) {
			free(lv);
			return -1;
		}
		n++;
	}
	free(lv);
	r->pair_notes = v;
	r->npair_notes = n;
	return 0;
}

/* "proto: 3 levels, one: 1 level" */
static const char *levels_text(struct model_build *m)
{
	const struct report *r = m->r;
	struct buf b = BUF_INIT;
	char *s;
	int i;
	for (i = 0; i < r->nfactors; i++) {
		if (i)
			buf_adds(&b, ", ");
		buf_addf(&b,
			 r->factors[i].nlevels == 1 ? T(NOCMP_LEVEL1)
						    : T(NOCMP_LEVELS),
			 r->factors[i].name, r->factors[i].nlevels);
	}
	s = b.truncated ? NULL : arena_strdup(m->a, b.s ? b.s : "");
	buf_release(&b);
	return s;
}

/* The default comparisons (each factor with two levels) yield nothing:
 * why for each, "; " between. */
static const char *defaults_why(struct model_build *m, enum report_nocmp *code)
{
	const struct report *r = m->r;
	struct buf b = BUF_INIT;
	char *s;
	int i;
	*code = REPORT_NOCMP_NO_TWO_LEVELS;
	for (i = 0; i < r->nfactors; i++) {
		enum report_nocmp c;
		const char *w;
		if (r->factors[i].nlevels != 2 ||
		    !(w = factor_why(m, i, NULL, &c)))
			continue;
		if (!b.len)
			*code = c;
		buf_addf(&b, "%s%s", b.len ? "; " : "", w);
	}
	s = b.truncated ? NULL : arena_strdup(m->a, b.s ? b.s : "");
	buf_release(&b);
	if (*code == REPORT_NOCMP_NO_TWO_LEVELS) {
		const char *lv = levels_text(m);
		return lv ? arena_printf(m->a, T(NOCMP_NO_TWO), lv) : NULL;
	}
	return s;
}

int model_nocmp(struct model_build *m)
{
	struct report *r = m->r;
	const char *w;
	int n;
	r->nocmp.code = REPORT_NOCMP_NONE;
	r->nocmp.text = NULL;
	if (r->ncmps)
		return 0;
	if (!r->ncells) {
		r->nocmp.code = REPORT_NOCMP_NO_RUNS;
		w = T(NOCMP_NO_RUNS);
	} else if (declared(m, &n)) {
		r->nocmp.code = REPORT_NOCMP_DECLARED;
		w = n == 1 ? (m->o->ncompare ? T(NOCMP_OPTION1)
					     : T(NOCMP_DECLARED1))
			   : arena_printf(m->a,
					  m->o->ncompare ? T(NOCMP_OPTION)
							 : T(NOCMP_DECLARED),
					  n);
	} else if (!r->nfactors) {
		r->nocmp.code = REPORT_NOCMP_NO_FACTORS;
		w = T(NOCMP_NO_FACTORS);
	} else {
		w = defaults_why(m, &r->nocmp.code);
	}
	if (!w || !(r->nocmp.text = arena_printf(m->a, T(NOCMP), w)))
		return -1;
	return 0;
}

static const char *const nocmp_codes[] = {
#define REPORT_NOCMP_NAME(id, name) name,
    REPORT_NOCMP_MAP(REPORT_NOCMP_NAME)
#undef REPORT_NOCMP_NAME
};

const char *report_nocmp_code(enum report_nocmp c)
{
	return (unsigned)c < sizeof nocmp_codes / sizeof *nocmp_codes
		   ? nocmp_codes[c]
		   : "unknown";
}

const char *report_nocmp_text(const struct report *r)
{
	return r->nocmp.text ? r->nocmp.text
			     : report_text(r, REPORT_T_NO_COMPARISONS);
}
