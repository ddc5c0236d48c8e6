/*
 * The report's note for a declared pair (report.compare {a, b}) that
 * yields no comparison over the stored cells (schema/report.md,
 * "Comparisons"): the rule is plan_pair_check's (runner/plan/plan_pair.c),
 * the one `xrun validate` warns with, so the two say the same thing.
 */
#include <stdint.h>
#include <stdlib.h>

#include "model_int.h"
#include "arena.h"
#include "buf.h"
#include "plan.h"
#include "banned.h"

/* "nic=X550-T2, slot=3.0x4" */
static void side_text(struct buf *b, const struct plan_kv *kv, int n)
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

/* The note's sentence for pair pc and why it yields nothing. */
static char *note_text(struct model_build *m, const struct plan_compare *pc,
		       enum plan_pair_status st)
{
	struct buf a = BUF_INIT, b = BUF_INIT;
	char *s;
	side_text(&a, pc->a, pc->na);
	side_text(&b, pc->b, pc->nb);
	if (MODEL_JA(m))
		s = arena_printf(
		    m->a,
		    "report.compare（計画 %d:%d）の指定ペア %s と %s から比較が"
		    "得られない: %s",
		    pc->pos.line, pc->pos.col, a.s ? a.s : "", b.s ? b.s : "",
		    st == PLAN_PAIR_NO_PARTNER
			? "b 側のセルが a 側のセルと b の因子以外でも異なる（"
			  "両側で異なる因子をすべて a と b に書く）"
			: "a 側の水準をもつセルがない");
	else
		s = arena_printf(
		    m->a,
		    "report.compare (plan %d:%d): the pair %s against %s "
		    "yields "
		    "no comparison: %s",
		    pc->pos.line, pc->pos.col, a.s ? a.s : "", b.s ? b.s : "",
		    st == PLAN_PAIR_NO_PARTNER
			? "no cell of side b differs from a side-a cell only "
			  "in "
			  "the factors b names (name every factor the sides "
			  "differ in, in both a and b)"
			: "no cell has side a's levels");
	buf_release(&a);
	buf_release(&b);
	return s;
}

int model_pair_notes(struct model_build *m)
{
	struct report *r = m->r;
	const struct plan *p = m->plan;
	uint32_t *lv;
	const char **v;
	int i, n = 0;
	/* --compare replaces the plan's comparisons, pairs too */
	if (!p || !p->report.ncompare || m->o->ncompare)
		return 0;
	lv = stored_cells(m);
	v = arena_alloc(m->a, (size_t)p->report.ncompare * sizeof *v);
	if (!lv || !v) {
		free(lv);
		return -1;
	}
	for (i = 0; i < p->report.ncompare; i++) {
		const struct plan_compare *pc = &p->report.compare[i];
		enum plan_pair_status st =
		    plan_pair_check(p, pc, lv, (size_t)r->ncells);
		if (st == PLAN_PAIR_OK)
			continue;
		if (!(v[n] = note_text(m, pc, st))) {
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
