/*
 * The findings block (rfindings.h): what a reader of the morning after
 * wants before any table. Lines only, decided here once from the model
 * (report.h) and the limits (explain.h); the writers render them at the
 * top of every format. Numbers come from the same formatters as the
 * tables (report_fmt_*), so a line and its table row never disagree.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "explain.h"
#include "rfindings.h"
#include "banned.h"

#define T(id) report_text(r, REPORT_T_##id)

/* Groups of failed runs listed, by status and reason; the rest counted
 * in the last line. */
#define RF_FAIL_GROUPS 8
/* Cells named after a count ("2 of 6 cells: ... (x=a; x=b)"). */
#define RF_CELLS_NAMED 3

static const char *const kind_names[RF_COUNT] = {
#define RF_NAME(id, name) [RF_##id] = name,
    RF_KIND_MAP(RF_NAME)
#undef RF_NAME
};

const char *rf_kind_name(enum rf_kind k)
{
	return (unsigned)k < RF_COUNT ? kind_names[k] : "";
}

struct fb {
	const struct report *r;
	struct arena *a;
	struct rf_line *v;
	int n, cap;
};

static struct rf_line *add(struct fb *b, enum rf_kind k, const char *text)
{
	struct rf_line *l;
	if (!text || b->n >= b->cap)
		return NULL;
	l = &b->v[b->n++];
	memset(l, 0, sizeof *l);
	l->kind = k;
	l->text = text;
	l->cmp = -1;
	return l;
}

static int state_line(struct fb *b)
{
	const struct report *r = b->r;
	const struct report_progress *p = &r->prog;
	long long d = (long long)p->done, all = (long long)p->all;
	const char *s;
	struct rf_line *l;
	switch (p->state) {
	case REPORT_STATE_RUNNING:
		s = p->pid > 0
			? arena_printf(b->a, T(F_RUNNING), d, all, p->pid)
			: arena_printf(b->a, T(F_RUNNING_ANY), d, all);
		break;
	case REPORT_STATE_INTERRUPTED:
		s = arena_printf(b->a, T(F_INTERRUPTED), d, all);
		break;
	case REPORT_STATE_INCOMPLETE:
		s = arena_printf(b->a, T(F_INCOMPLETE), d, all);
		break;
	default:
		return 0;
	}
	if (!(l = add(b, RF_STATE, s)))
		return -XR_ENOMEM;
	l->count = (int)p->done;
	l->of = (int)p->all;
	return 0;
}

/* "x=a → x=b (y=p): " naming comparison c's sides as its table row does. */
static const char *cmp_sides(struct fb *b, const struct report_cmp *c)
{
	const struct report *r = b->r;
	const struct report_cell *A = &r->cells[c->a], *B = &r->cells[c->b];
	char sa[512], sb[512], com[512];
	report_fmt_side(r, A, B, sa, sizeof sa);
	report_fmt_side(r, B, A, sb, sizeof sb);
	report_fmt_common(r, A, B, com, sizeof com);
	if (!strcmp(com, "–"))
		return arena_printf(b->a, "%s → %s: ", sa, sb);
	return arena_printf(b->a, "%s → %s (%s): ", sa, sb, com);
}

/* A verdict refused (not_comparable) or withheld (not_verified): no
 * estimate to show, the reason instead. */
static int withheld(const struct report_cmp *c)
{
	return c->verdict == REPORT_NOT_COMPARABLE ||
	       c->verdict == REPORT_NOT_VERIFIED;
}

/* The verdict with its effect and 95% interval whatever the verdict
 * ("≈ -0.2% [-0.6, +0.3] equivalent"), then both sides' values. */
static int rfindings_verdict_line(struct fb *b, int i)
{
	const struct report *r = b->r;
	const struct report_cmp *c = &r->cmps[i];
	static const char *const mark[] = {
	    [REPORT_BETTER] = "▲",     [REPORT_WORSE] = "▼",
	    [REPORT_EQUIVALENT] = "≈", [REPORT_NOT_SIGNIFICANT] = "~",
	    [REPORT_DIFFERENT] = "≠",  [REPORT_NOT_COMPARABLE] = "—",
	};
	static const enum report_text_id word[] = {
	    [REPORT_BETTER] = REPORT_T_BETTER,
	    [REPORT_WORSE] = REPORT_T_WORSE,
	    [REPORT_EQUIVALENT] = REPORT_T_EQUIVALENT,
	    [REPORT_NOT_SIGNIFICANT] = REPORT_T_NOT_SIGNIFICANT,
	    [REPORT_DIFFERENT] = REPORT_T_DIFFERENT,
	    [REPORT_NOT_COMPARABLE] = REPORT_T_NOT_COMPARABLE,
	};
	char va[96], vb[96], mk[96], full[2048];
	const char *sides = cmp_sides(b, c), *vals, *s;
	struct rf_line *l;

	report_fmt_cmp_marks(r, c, 1, mk, sizeof mk);
	if (withheld(c)) {
		report_fmt_verdict(r, c, full, sizeof full);
		s = arena_printf(b->a, "%s%s%s%s", sides ? sides : "", full,
				 *mk ? " " : "", mk);
		l = add(b, RF_REFUSED, sides ? s : NULL);
	} else {
		report_fmt_estimate(r, &r->cells[c->a], va, sizeof va);
		report_fmt_estimate(r, &r->cells[c->b], vb, sizeof vb);
		vals = arena_printf(b->a, T(F_VALUES), va, vb,
				    report_unit_label(r->met.display_unit));
		s = arena_printf(b->a, "%s%s %+.1f%% [%+.1f, %+.1f] %s%s%s; %s",
				 sides ? sides : "", mark[c->verdict],
				 c->delta_pct, c->ci_low_pct, c->ci_high_pct,
				 report_text(r, word[c->verdict]),
				 *mk ? " " : "", mk, vals ? vals : "");
		l = add(b, RF_VERDICT, sides && vals ? s : NULL);
	}
	if (!l)
		return -XR_ENOMEM;
	l->cmp = i;
	return 0;
}

/* " (x=a, y=p; x=b, y=p; +2 more)": the cells of a group by label. */
static const char *cell_list(struct fb *b, const int *cells, int n)
{
	const struct report *r = b->r;
	const char *s = " (";
	int k;
	for (k = 0; s && k < n && k < RF_CELLS_NAMED; k++)
		s = arena_printf(b->a, "%s%s%s", s, k ? "; " : "",
				 r->cells[cells[k]].label);
	if (s && n > RF_CELLS_NAMED)
		s = arena_printf(
		    b->a, "%s; %s", s,
		    arena_printf(b->a, T(F_MORE), n - RF_CELLS_NAMED));
	return s ? arena_printf(b->a, "%s)", s) : NULL;
}

static int same_str(const char *x, const char *y)
{
	return x == y || (x && y && !strcmp(x, y));
}

/* What a limit is, for grouping and for its line: the kind, then what
 * sets it (the ceiling for a ceiling, the series for the evidence). */
static const char *limit_what(const struct explain_limit *l)
{
	if (l->kind == EXPLAIN_NONE)
		return NULL;
	if (l->ceiling_name && *l->ceiling_name)
		return l->ceiling_name;
	return l->series && *l->series ? l->series : NULL;
}

static int same_limit(const struct explain_limit *x,
		      const struct explain_limit *y)
{
	return x->kind == y->kind && x->kind2 == y->kind2 &&
	       same_str(limit_what(x), limit_what(y));
}

/* Has cell k a value of the report's metric (a limit to speak of)? */
static int has_values(const struct report *r, int k)
{
	return r->cells[k].st && r->cells[k].st[r->met.primary].n > 0;
}

/* One line per group of cells with the same limit, in the order their
 * first cell comes. */
static int limit_lines(struct fb *b, const struct explain *x, int *cells)
{
	const struct report *r = b->r;
	enum report_lang lang = r->about.lang;
	int i, k, n;
	for (i = 0; i < r->ncells; i++) {
		const struct explain_limit *l = &x->cells[i];
		const char *what, *s;
		struct rf_line *line;
		if (!has_values(r, i))
			continue; /* nothing measured, nothing limited */
		for (k = 0; k < i &&
			    !(has_values(r, k) && same_limit(&x->cells[k], l));
		     k++)
			;
		if (k < i)
			continue; /* listed with an earlier cell */
		for (n = 0, k = i; k < r->ncells; k++)
			if (has_values(r, k) && same_limit(&x->cells[k], l))
				cells[n++] = k;
		what = limit_what(l);
		s = explain_kind_text(l->kind, lang);
		if (l->kind2 != EXPLAIN_NONE)
			s = arena_printf(b->a, "%s / %s", s,
					 explain_kind_text(l->kind2, lang));
		if (s && what)
			s = arena_printf(b->a, "%s (%s)", s, what);
		if (s && n < r->ncells)
			s = arena_printf(b->a, "%s%s", s,
					 cell_list(b, cells, n));
		s = s ? arena_printf(b->a, T(F_CELLS), n, r->ncells, s) : NULL;
		if (!(line = add(b, RF_LIMIT, s)))
			return -XR_ENOMEM;
		line->count = n;
		line->of = r->ncells;
		line->limit = explain_kind_name(l->kind);
	}
	return 0;
}

static int run_failed(const struct report_run *u)
{
	return u->status &&
	       (!strcmp(u->status, "failed") || !strcmp(u->status, "timeout"));
}

/* The runs of group (status, reason) and their distinct cells. */
static int fail_group(const struct report *r, const struct report_run *g,
		      int *cells, int *ncells)
{
	int i, k, n = 0;
	*ncells = 0;
	for (i = 0; i < r->nruns; i++) {
		const struct report_run *u = &r->runs[i];
		if (!run_failed(u) || strcmp(u->status, g->status) ||
		    !same_str(u->reason, g->reason))
			continue;
		n++;
		for (k = 0; k < *ncells && cells[k] != u->cell; k++)
			;
		if (k == *ncells)
			cells[(*ncells)++] = u->cell;
	}
	return n;
}

/* One line per status and stored reason, in the order of each group's
 * first run (as a log reads). */
static int failed_lines(struct fb *b, int *cells)
{
	const struct report *r = b->r;
	int i, k, n, nc, groups = 0, rest = 0;
	for (i = 0; i < r->nruns; i++) {
		const struct report_run *u = &r->runs[i];
		const char *s;
		struct rf_line *l;
		if (!run_failed(u))
			continue;
		for (k = 0; k < i; k++)
			if (run_failed(&r->runs[k]) &&
			    !strcmp(r->runs[k].status, u->status) &&
			    same_str(r->runs[k].reason, u->reason))
				break;
		if (k < i)
			continue;
		n = fail_group(r, u, cells, &nc);
		if (groups == RF_FAIL_GROUPS) {
			rest += n;
			continue;
		}
		groups++;
		s = arena_printf(b->a, "%s%s",
				 u->reason && *u->reason ? u->reason
							 : T(F_NO_REASON),
				 nc < r->ncells ? cell_list(b, cells, nc) : "");
		s = s ? arena_printf(b->a,
				     strcmp(u->status, "timeout")
					 ? T(F_FAILED)
					 : T(F_TIMEOUT),
				     n, r->counts.total, s)
		      : NULL;
		if (!(l = add(b, RF_FAILED, s)))
			return -XR_ENOMEM;
		l->count = n;
		l->of = r->counts.total;
		l->status = u->status;
		l->reason = u->reason;
	}
	if (rest) {
		struct rf_line *l =
		    add(b, RF_FAILED,
			arena_printf(b->a, T(F_FAILED), rest, r->counts.total,
				     arena_printf(b->a, T(F_MORE), rest)));
		if (!l)
			return -XR_ENOMEM;
		l->count = rest;
		l->of = r->counts.total;
		l->status = "failed";
	}
	return 0;
}

/* Each declared metric without values: "pause: declared, no values
 * (why)", as the header's rows say it. */
static int gap_lines(struct fb *b)
{
	const struct report *r = b->r;
	int i;
	for (i = 0; i < r->ngaps; i++) {
		const struct report_gap *g = &r->gaps[i];
		struct rf_line *l =
		    add(b, RF_NO_VALUES,
			arena_printf(b->a, T(GAP_ROW), g->metric, g->text));
		if (!l || !l->text)
			return -XR_ENOMEM;
		l->code = report_gap_code(g->why);
		l->metric = g->metric;
	}
	return 0;
}

static int cmp_lines(struct fb *b, int refused)
{
	const struct report *r = b->r;
	int i, rc;
	for (i = 0; i < r->ncmps; i++)
		if (withheld(&r->cmps[i]) == refused &&
		    (rc = rfindings_verdict_line(b, i)) < 0)
			return rc;
	return 0;
}

int rt_findings(const struct report *r, struct arena *a, struct rf_line **out,
		int *n)
{
	struct fb b = {r, a, NULL, 0, 0};
	struct explain *x = NULL;
	int *cells, i, rc;

	*out = NULL;
	*n = 0;
	b.cap = 4 + r->ncmps + r->ncells + r->npair_notes + r->ngaps +
		RF_FAIL_GROUPS;
	b.v = arena_alloc(a, (size_t)b.cap * sizeof *b.v);
	cells = arena_alloc(a, ((size_t)r->ncells + 1) * sizeof *cells);
	if (!b.v || !cells || explain_build(r, &x) < 0)
		return -XR_ENOMEM;
	if ((rc = state_line(&b)) < 0 || (rc = cmp_lines(&b, 0)) < 0)
		return rc;
	if (x && r->ncells && (rc = limit_lines(&b, x, cells)) < 0)
		return rc;
	if ((rc = cmp_lines(&b, 1)) < 0)
		return rc;
	for (i = 0; i < r->npair_notes; i++)
		if (!add(&b, RF_DECLARED, r->pair_notes[i]))
			return -XR_ENOMEM;
	if (!r->ncmps) {
		struct rf_line *l = add(&b, RF_NONE, report_nocmp_text(r));
		if (!l)
			return -XR_ENOMEM;
		l->code = report_nocmp_code(r->nocmp.code);
	}
	if ((rc = gap_lines(&b)) < 0)
		return rc;
	if ((rc = failed_lines(&b, cells)) < 0)
		return rc;
	*out = b.v;
	*n = b.n;
	return 0;
}
