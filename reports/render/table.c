/*
 * The neutral tables of a report (rtable.h): which columns each table has,
 * their headers and alignment, the text of every cell with its footnote
 * marks (the notes under them are rnote.c's). Decided here once, so that
 * the Markdown, HTML and PDF writers render the same report; the texts
 * themselves come from the model's formatters (report_fmt_*) and the language
 * tables (report_text).
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "buf.h"
#include "xr_err.h"
#include "rtable.h"
#include "rlatency.h"
#include "banned.h"

#define T(id) report_text(r, REPORT_T_##id)

/* A table of ncols columns with room for nrows body rows. */
static int rt_init(struct rtable *t, struct arena *a, int ncols, int nrows)
{
	memset(t, 0, sizeof *t);
	t->unit = "";
	t->ncols = ncols;
	t->col = arena_alloc(a, (size_t)(ncols ? ncols : 1) * sizeof *t->col);
	t->cell =
	    arena_alloc(a, (size_t)(ncols ? ncols : 1) *
			       (size_t)(nrows ? nrows : 1) * sizeof *t->cell);
	return t->col && t->cell ? 0 : -XR_ENOMEM;
}

static void rt_head(struct rtable *t, int c, const char *head,
		    enum rt_align align, int wrap)
{
	t->col[c].head = head;
	t->col[c].align = align;
	t->col[c].wrap = wrap;
}

/* Set cell (row, c) to a copy of s; grows nrows to cover row. */
static int rt_set(struct rtable *t, struct arena *a, int row, int c,
		  const char *s)
{
	const char *v = arena_strdup(a, s ? s : "");
	if (!v)
		return -XR_ENOMEM;
	t->cell[row * t->ncols + c] = v;
	if (row >= t->nrows)
		t->nrows = row + 1;
	return 0;
}

/* Cells never set (short rows) read as "". */
static void rt_fill_empty(struct rtable *t)
{
	int k;
	for (k = 0; k < t->nrows * t->ncols; k++)
		if (!t->cell[k])
			t->cell[k] = "";
}

/* "text [1,3]": a text followed by footnote marks, when any. */
static char *with_marks(struct arena *a, const char *text, const char *marks)
{
	return arena_printf(a, "%s%s%s", text, *marks ? " " : "", marks);
}

/* --- header block ------------------------------------------------------ */

int rt_header(const struct report *r, struct arena *a, struct rtable *t)
{
	char v[256];
	struct buf s = BUF_INIT;
	int row = 0, i, rc;
	const char *unit = report_unit_label(r->met.display_unit);

	if (rt_init(t, a, 2, 11 + r->ngaps) < 0)
		return -XR_ENOMEM;
	t->plain = 1;
	rt_head(t, 0, "", RT_LEFT, 0);
	rt_head(t, 1, "", RT_LEFT, 1);
#define KV(id, text)                                                           \
	do {                                                                   \
		rc = rt_set(t, a, row, 0, T(id));                              \
		if (rc == 0)                                                   \
			rc = rt_set(t, a, row++, 1, (text));                   \
		if (rc < 0)                                                    \
			goto out;                                              \
	} while (0)
	buf_adds(&s, r->about.plan_name ? r->about.plan_name : "");
	if (r->about.plan_hash && *r->about.plan_hash)
		buf_addf(&s, " (%.12s)", r->about.plan_hash);
	KV(PLAN, s.s);
	buf_reset(&s);
	for (i = 0; i < r->span.nsessions; i++)
		buf_addf(&s, "%s%lld", i ? ", " : "",
			 (long long)r->span.sessions[i]);
	KV(SESSIONS, s.s ? s.s : "");
	KV(FIRST_RUN, report_fmt_time(r->span.first_run, v, sizeof v));
	KV(LAST_RUN, report_fmt_time(r->span.last_run, v, sizeof v));
	buf_reset(&s);
	for (i = 0; i < r->span.nhosts; i++)
		buf_addf(&s, "%s%s", i ? ", " : "", r->span.hosts[i]);
	/* Runs done and failed first: a reader looks there before trusting
	 * any number below. */
	KV(HOSTS, r->span.nhosts ? s.s : T(NONE));
	KV(RUNS, report_fmt_runs(r, v, sizeof v));
	buf_reset(&s);
	buf_adds(&s, r->met.metric ? r->met.metric : "");
	if (*unit)
		buf_addf(&s, " (%s)", unit);
	KV(METRIC, s.s ? s.s : "");
	/* each declared metric without values, and why (model_gaps.c) */
	for (i = 0; i < r->ngaps; i++)
		KV(GAP_ROW_LABEL, arena_printf(a, T(GAP_ROW), r->gaps[i].metric,
					       r->gaps[i].text));
	snprintf(v, sizeof v, "±%g%%", 100 * r->met.threshold);
	KV(THRESHOLD, v);
	buf_reset(&s);
	rc = rlatency_summary(r, &s);
	if (rc < 0)
		goto out;
	if (rc > 0)
		KV(LATENCY_LOAD, s.s);
	KV(GENERATED, report_fmt_time(r->about.generated_at, v, sizeof v));
	/* With a reference, its verdicts in one line on page one. */
	if (r->ref && r->ref->summary)
		KV(REFERENCE, r->ref->summary);
#undef KV
	rc = 0;
out:
	buf_release(&s);
	return rc < 0 ? -XR_ENOMEM : 0;
}

/* --- matrix tables ----------------------------------------------------- */

static const char *metric_name(const struct report *r, int mi)
{
	if (mi >= 0 && mi < r->met.nmetrics && r->met.metrics &&
	    r->met.metrics[mi])
		return r->met.metrics[mi];
	return r->met.metric ? r->met.metric : "";
}

/* Do columns c0 and c1 share the levels of column factors 0..k? */
static int same_prefix(const struct report_table *tb, int c0, int c1, int k)
{
	int j;
	for (j = 0; j <= k; j++)
		if (tb->col_lv[c0][j] != tb->col_lv[c1][j])
			return 0;
	return 1;
}

/* One grouped header row per column factor: equal level prefixes span.
 * The stub names the factor of its row; the last also names the row
 * factor, as in "streams \ os". */
static int table_matrix_groups(const struct report *r,
			       const struct report_table *tb, struct arena *a,
			       struct rtable *t)
{
	int k, c;
	t->ngroup_rows = tb->ncol_factors;
	t->group =
	    arena_alloc(a, (size_t)(tb->ncol_factors + 1) * sizeof *t->group);
	t->ngroup_len = arena_alloc(a, (size_t)(tb->ncol_factors + 1) *
					   sizeof *t->ngroup_len);
	if (!t->group || !t->ngroup_len)
		return -XR_ENOMEM;
	for (k = 0; k < tb->ncol_factors; k++) {
		const struct report_factor *f = &r->factors[tb->col_factors[k]];
		struct rt_span *sp =
		    arena_alloc(a, (size_t)(tb->ncols + 1) * sizeof *sp);
		int n = 0;
		if (!sp)
			return -XR_ENOMEM;
		if (k == tb->ncol_factors - 1 && tb->row_factor >= 0)
			sp[n].text = arena_printf(
			    a, "%s \\ %s", r->factors[tb->row_factor].name,
			    f->name);
		else
			sp[n].text = f->name;
		sp[n++].span = 1;
		for (c = 0; c < tb->ncols;) {
			int span = 1, lv = tb->col_lv[c][k];
			while (c + span < tb->ncols &&
			       same_prefix(tb, c, c + span, k))
				span++;
			sp[n].text =
			    lv >= 0 && lv < f->nlevels ? f->levels[lv] : "?";
			sp[n++].span = span;
			c += span;
		}
		t->group[k] = sp;
		t->ngroup_len[k] = n;
	}
	return 0;
}

/* The one-line header: "row \ col1 / col2", then each column's levels
 * ("windows11 / pcie4x1"), or the metric when there is no column factor. */
static int table_matrix_heads(const struct report *r,
			      const struct report_table *tb, struct arena *a,
			      struct rtable *t)
{
	struct buf h = BUF_INIT;
	int i, c;
	if (tb->row_factor >= 0)
		buf_adds(&h, r->factors[tb->row_factor].name);
	if (tb->ncol_factors) {
		buf_adds(&h, " \\ ");
		for (i = 0; i < tb->ncol_factors; i++)
			buf_addf(&h, "%s%s", i ? " / " : "",
				 r->factors[tb->col_factors[i]].name);
	}
	rt_head(t, 0, arena_strdup(a, h.s ? h.s : ""), RT_LEFT, 1);
	buf_release(&h);
	for (c = 0; c < tb->ncols; c++)
		rt_head(t, c + 1,
			tb->col_label[c] && *tb->col_label[c]
			    ? tb->col_label[c]
			    : metric_name(r, tb->metric_index),
			RT_RIGHT, 0);
	return t->col[0].head ? 0 : -XR_ENOMEM;
}

/* "median ±spread [marks]" of a cell in metric mi; "–" when no cell. */
static const char *table_matrix_cell(const struct report *r, int mi, int ci,
				     struct arena *a)
{
	char v[96], mk[96];
	if (ci < 0 || ci >= r->ncells)
		return "–";
	if (mi == r->met.primary)
		report_fmt_cell(r, &r->cells[ci], v, sizeof v);
	else
		report_fmt_metric(r, mi, r->cells[ci].st[mi].median, v,
				  sizeof v);
	report_fmt_marks(r, &r->cells[ci], mk, sizeof mk);
	return with_marks(a, v, mk);
}

int rt_matrix(const struct report *r, int ti, struct arena *a, struct rtable *t)
{
	const struct report_table *tb = &r->tables[ti];
	struct buf by = BUF_INIT, cap = BUF_INIT;
	int i, c, mi = tb->metric_index;

	if (rt_init(t, a, tb->ncols + 1, tb->nrows) < 0)
		return -XR_ENOMEM;
	if (tb->row_factor >= 0)
		buf_adds(&by, r->factors[tb->row_factor].name);
	for (i = 0; i < tb->ncol_factors; i++)
		buf_addf(&by, "%s%s", by.len ? " × " : "",
			 r->factors[tb->col_factors[i]].name);
	buf_addf(&cap, T(TABLE_CAPTION), metric_name(r, mi),
		 by.len ? by.s : "-");
	t->title = arena_strdup(a, cap.s ? cap.s : "");
	buf_release(&cap);
	buf_release(&by);
	/* A dimensionless metric (unit "1") gets no unit. */
	{
		const char *u;
		report_metric_scale(r, mi, &u);
		t->unit = report_unit_label(u);
	}
	if (!t->title || table_matrix_heads(r, tb, a, t) < 0 ||
	    table_matrix_groups(r, tb, a, t) < 0)
		return -XR_ENOMEM;
	for (i = 0; i < tb->nrows; i++) {
		if (rt_set(t, a, i, 0, tb->row_label[i]) < 0)
			return -XR_ENOMEM;
		for (c = 0; c < tb->ncols; c++)
			if (rt_set(t, a, i, c + 1,
				   table_matrix_cell(
				       r, mi, tb->cell[i * tb->ncols + c], a)) <
			    0)
				return -XR_ENOMEM;
	}
	rt_fill_empty(t);
	return 0;
}

/* --- cells and metrics ------------------------------------------------- */

static int cells_row(const struct report *r, const struct report_cell *c,
		     int row, struct arena *a, struct rtable *t)
{
	const struct report_stats *s = &c->st[r->met.primary];
	char x[96], y[96], mk[96];
	int col = 0, rc = 0;
#define PUT(text)                                                              \
	do {                                                                   \
		if (rc == 0)                                                   \
			rc = rt_set(t, a, row, col++, (text));                 \
	} while (0)
	report_fmt_marks(r, c, mk, sizeof mk);
	PUT(with_marks(a, c->label, mk));
	/* ok runs with a value, "of scheduled" when some are missing */
	if (s->n != c->n_runs)
		snprintf(x, sizeof x, "%d/%d", s->n, c->n_runs);
	else
		snprintf(x, sizeof x, "%d", s->n);
	PUT(x);
	/* first the number the matrix tables and the chart show */
	PUT(report_fmt_cell(r, c, x, sizeof x));
	PUT(report_fmt_value(r, s->median, x, sizeof x));
	PUT(report_fmt_value(r, s->mean, x, sizeof x));
	PUT(report_fmt_value(r, s->sd, x, sizeof x));
	if (isnan(s->cv_pct))
		snprintf(x, sizeof x, "–");
	else
		snprintf(x, sizeof x, "%.1f", s->cv_pct);
	PUT(x);
	PUT(report_fmt_value(r, s->min, x, sizeof x));
	PUT(report_fmt_value(r, s->max, x, sizeof x));
	if (isnan(s->ci_low)) {
		PUT("–");
	} else {
		report_fmt_value(r, s->ci_low, x, sizeof x);
		report_fmt_value(r, s->ci_high, y, sizeof y);
		PUT(arena_printf(a, "%s – %s", x, y));
	}
	PUT(report_fmt_value(r, s->iv_p95, x, sizeof x));
	PUT(report_fmt_value(r, s->iv_peak, x, sizeof x));
#undef PUT
	return rc;
}

int rt_cells(const struct report *r, struct arena *a, struct rtable *t)
{
	static const enum report_text_id cols[] = {
	    REPORT_T_CELL,
	    REPORT_T_N,
	    REPORT_T_CELL_ESTIMATE,
	    REPORT_T_MEDIAN,
	    REPORT_T_MEAN,
	    REPORT_T_STDEV,
	    REPORT_T_CV,
	    REPORT_T_MIN,
	    REPORT_T_MAX,
	    REPORT_T_MEAN_CI,
	    REPORT_T_INTERVAL_P95,
	    REPORT_T_INTERVAL_PEAK,
	};
	int nc = (int)(sizeof cols / sizeof *cols), i;

	if (rt_init(t, a, nc, r->ncells) < 0)
		return -XR_ENOMEM;
	t->title = r->met.metric ? r->met.metric : "";
	t->unit = report_unit_label(r->met.display_unit);
	for (i = 0; i < nc; i++)
		rt_head(t, i, report_text(r, cols[i]), i ? RT_RIGHT : RT_LEFT,
			i == 0);
	for (i = 0; i < r->ncells; i++)
		if (cells_row(r, &r->cells[i], i, a, t) < 0)
			return -XR_ENOMEM;
	rt_fill_empty(t);
	return 0;
}

int rt_metrics(const struct report *r, struct arena *a, struct rtable *t)
{
	char v[96];
	int k, m;

	if (rt_init(t, a, r->met.nmetrics + 1, r->ncells) < 0)
		return -XR_ENOMEM;
	rt_head(t, 0, T(CELL), RT_LEFT, 1);
	for (m = 0; m < r->met.nmetrics; m++)
		rt_head(t, m + 1, r->met.metrics[m], RT_RIGHT, 0);
	for (k = 0; k < r->ncells; k++) {
		if (rt_set(t, a, k, 0, r->cells[k].label) < 0)
			return -XR_ENOMEM;
		for (m = 0; m < r->met.nmetrics; m++) {
			double med = r->cells[k].st[m].median;
			if (m == r->met.primary)
				report_fmt_value_unit(r, med, v, sizeof v);
			else
				report_fmt_metric(r, m, med, v, sizeof v);
			if (rt_set(t, a, k, m + 1, v) < 0)
				return -XR_ENOMEM;
		}
	}
	rt_fill_empty(t);
	return 0;
}

/* --- comparisons ------------------------------------------------------- */

static int cmps_row(const struct report *r, const struct report_cmp *c, int row,
		    struct arena *a, struct rtable *t)
{
	const struct report_cell *A = &r->cells[c->a], *B = &r->cells[c->b];
	char x[2048], mk[96];
	int col = 0, rc = 0;
#define PUT(text)                                                              \
	do {                                                                   \
		if (rc == 0)                                                   \
			rc = rt_set(t, a, row, col++, (text));                 \
	} while (0)
	PUT(c->factor >= 0     ? r->factors[c->factor].name
	    : c->configuration ? T(CONFIG_PAIR)
			       : T(EXPLICIT_PAIR));
	/* the shared levels once, then only what differs: full labels on
	 * both sides made rows five lines tall */
	PUT(report_fmt_common(r, A, B, x, sizeof x));
	PUT(report_fmt_side(r, A, B, x, sizeof x));
	PUT(report_fmt_side(r, B, A, x, sizeof x));
	/* the estimator the delta is computed on */
	PUT(report_fmt_estimate(r, A, x, sizeof x));
	PUT(report_fmt_estimate(r, B, x, sizeof x));
	PUT(report_fmt_delta(c, x, sizeof x));
	PUT(report_fmt_p(c, x, sizeof x));
	snprintf(x, sizeof x, "%d+%d", c->n_a, c->n_b);
	PUT(x);
	report_fmt_verdict(r, c, x, sizeof x);
	report_fmt_cmp_marks(r, c, 1, mk, sizeof mk);
	PUT(with_marks(a, x, mk));
#undef PUT
	return rc;
}

int rt_cmps(const struct report *r, struct arena *a, struct rtable *t)
{
	int i;

	if (rt_init(t, a, 10, r->ncmps) < 0)
		return -XR_ENOMEM;
	rt_head(t, 0, T(FACTOR), RT_LEFT, 0);
	rt_head(t, 1, T(CELL), RT_LEFT, 1);
	rt_head(t, 2, T(A), RT_LEFT, 1);
	rt_head(t, 3, T(B), RT_LEFT, 1);
	rt_head(t, 4, arena_printf(a, "A %s", T(GEOMEAN)), RT_RIGHT, 0);
	rt_head(t, 5, arena_printf(a, "B %s", T(GEOMEAN)), RT_RIGHT, 0);
	rt_head(t, 6, T(DELTA), RT_RIGHT, 1);
	rt_head(t, 7, T(P), RT_RIGHT, 0);
	rt_head(t, 8, T(N), RT_RIGHT, 0);
	rt_head(t, 9, T(VERDICT), RT_LEFT, 1);
	if (!t->col[4].head || !t->col[5].head)
		return -XR_ENOMEM;
	for (i = 0; i < r->ncmps; i++)
		if (cmps_row(r, &r->cmps[i], i, a, t) < 0)
			return -XR_ENOMEM;
	rt_fill_empty(t);
	return 0;
}

/* --- reference --------------------------------------------------------- */

/* Does any published cell give its runs (several rows)? */
static int ref_has_runs(const struct report_ref *ref)
{
	int k;
	for (k = 0; k < ref->nrows; k++)
		if (ref->rows[k].npub > 1)
			return 1;
	return 0;
}

int rt_reference(const struct report *r, struct arena *a, struct rtable *t)
{
	static const enum report_text_id head[] = {
	    REPORT_T_REF_PUBLISHED, REPORT_T_REF_MEASURED,
	    REPORT_T_CI95,	    REPORT_T_REF_RANGE,
	    REPORT_T_REF_RATIO,	    REPORT_T_REF_IN_RANGE,
	};
	const struct report_ref *ref = r->ref;
	/* like the published table: one column per factor it names, the
	 * metric only when it publishes several; the published runs only
	 * when some cell gives them; the verdict last */
	int multi = ref->nvalues > 1, nf = ref->nfactors;
	int runs = ref_has_runs(ref);
	int nh = (int)(sizeof head / sizeof *head);
	int ncols = nf + multi + nh + runs + 1;
	int k, j, c, x, row = 0;

	if (rt_init(t, a, ncols, ref->nrows * ref->nvalues) < 0)
		return -XR_ENOMEM;
	t->title = ref->values[0];
	t->unit = r->met.display_unit ? r->met.display_unit : "";
	for (j = 0; j < nf; j++)
		rt_head(t, j, ref->factors[j], RT_LEFT, 0);
	if (multi)
		rt_head(t, nf, T(METRIC), RT_LEFT, 0);
	for (j = 0, c = nf + multi; j < nh; j++) {
		rt_head(t, c++, report_text(r, head[j]),
			j == nh - 1 ? RT_LEFT : RT_RIGHT,
			j == 1); /* "not measured (...)" */
		if (j == 0 && runs)
			rt_head(t, c++, T(REF_PUBLISHED_RUNS), RT_RIGHT, 0);
	}
	rt_head(t, ncols - 1, T(REF_VERDICT), RT_LEFT, 1);
	for (k = 0; k < ref->nrows; k++) {
		const struct report_ref_row *w = &ref->rows[k];
		for (j = 0; j < ref->nvalues; j++) {
			char col[REPORT_REF_NCOLS][192], vd[512];
			int cc = 0, rc = 0;
			if (isnan(w->v[j].published))
				continue;
			report_ref_fmt(r, w, j, col);
			for (x = 0; x < nf; x++)
				rc |= rt_set(t, a, row, cc++, w->levels[x]);
			if (multi)
				rc |= rt_set(t, a, row, cc++,
					     col[REPORT_REF_COL_METRIC]);
			for (c = REPORT_REF_COL_PUBLISHED; c < REPORT_REF_NCOLS;
			     c++) {
				rc |= rt_set(t, a, row, cc++, col[c]);
				if (c == REPORT_REF_COL_PUBLISHED && runs) {
					snprintf(vd, sizeof vd, "%d", w->npub);
					rc |= rt_set(t, a, row, cc++,
						     j == 0 ? vd : "");
				}
			}
			rc |= rt_set(
			    t, a, row, cc++,
			    j == 0 ? report_ref_fmt_verdict(r, w, vd, sizeof vd)
				   : "");
			if (rc)
				return -XR_ENOMEM;
			row++;
		}
	}
	rt_fill_empty(t);
	return 0;
}

int rt_reference_info(const struct report *r, struct arena *a, struct rtable *t)
{
	const struct report_ref *ref = r->ref;
	struct buf s = BUF_INIT;
	int row = 0, i, rc = 0;
	if (rt_init(t, a, 2, 4) < 0)
		return -XR_ENOMEM;
	t->plain = 1;
	rt_head(t, 0, "", RT_LEFT, 0);
	rt_head(t, 1, "", RT_LEFT, 1);
	if (ref->title || ref->url || ref->author || ref->date) {
		const char *part[] = {ref->title, ref->author, ref->date,
				      ref->url};
		for (i = 0; i < 4; i++)
			if (part[i] && *part[i])
				buf_addf(&s, "%s%s", s.len ? "; " : "",
					 part[i]);
		rc |= rt_set(t, a, row, 0, T(REF_SOURCE));
		rc |= rt_set(t, a, row++, 1, s.s ? s.s : "");
	}
	buf_reset(&s);
	buf_adds(&s, report_ref_stat_name(ref->statistic));
	if (ref->runs > 0)
		buf_addf(&s,
			 r->about.lang == REPORT_LANG_JA ? "（%d 回）"
							 : " (%d runs)",
			 ref->runs);
	rc |= rt_set(t, a, row, 0, T(REF_STATISTIC));
	rc |= rt_set(t, a, row++, 1, s.s);
	buf_reset(&s);
	buf_addf(&s, "±%g%%", ref->tolerance * 100);
	rc |= rt_set(t, a, row, 0, T(REF_TOLERANCE));
	rc |= rt_set(t, a, row++, 1, s.s);
	if (ref->nconds) {
		buf_reset(&s);
		for (i = 0; i < ref->nconds; i++)
			buf_addf(&s, "%s%s %s", i ? ", " : "",
				 ref->conds[i].key, ref->conds[i].value);
		rc |= rt_set(t, a, row, 0, T(REF_CONDITIONS));
		rc |= rt_set(t, a, row++, 1, s.s);
	}
	buf_release(&s);
	if (rc)
		return -XR_ENOMEM;
	rt_fill_empty(t);
	return 0;
}

/* --- appendix ---------------------------------------------------------- */

/* Facts come ordered by host, key, session: is fact k the same host, key
 * and value as fact k - 1 (a fact that did not change between sessions)? */
static int fact_repeats(const struct report *r, int k)
{
	const struct report_fact *f = &r->facts[k], *p = f - 1;
	return k > 0 && !strcmp(f->host, p->host) && !strcmp(f->key, p->key) &&
	       !strcmp(f->value, p->value);
}

/* One row per host, key and value: the sessions that saw the same value
 * share it ("1, 2"), so a fact that stayed the same is listed once and a
 * fact that changed shows each value with its sessions. */
int rt_facts(const struct report *r, struct arena *a, struct rtable *t)
{
	struct buf s = BUF_INIT;
	int k, row = -1, nrows = 0, rc = 0;

	for (k = 0; k < r->nfacts; k++)
		nrows += !fact_repeats(r, k);
	if (rt_init(t, a, 4, nrows) < 0)
		return -XR_ENOMEM;
	t->title = T(HOST_FACTS);
	rt_head(t, 0, T(HOST), RT_LEFT, 0);
	rt_head(t, 1, T(KEY), RT_LEFT, 0);
	rt_head(t, 2, T(VALUE), RT_LEFT, 1);
	rt_head(t, 3, T(SESSION), RT_RIGHT, 0);
	for (k = 0; k < r->nfacts && rc == 0; k++) {
		if (!fact_repeats(r, k)) {
			if (row >= 0)
				rc |= rt_set(t, a, row, 3, s.s);
			buf_reset(&s);
			row++;
			rc |= rt_set(t, a, row, 0, r->facts[k].host);
			rc |= rt_set(t, a, row, 1, r->facts[k].key);
			rc |= rt_set(t, a, row, 2, r->facts[k].value);
		}
		rc |= buf_addf(&s, "%s%lld", fact_repeats(r, k) ? ", " : "",
			       (long long)r->facts[k].session) < 0;
	}
	if (row >= 0 && rc == 0)
		rc |= rt_set(t, a, row, 3, s.s);
	buf_release(&s);
	rt_fill_empty(t);
	return rc ? -XR_ENOMEM : 0;
}

int rt_verifs(const struct report *r, struct arena *a, struct rtable *t)
{
	char s[32];
	int k, rc = 0;

	if (rt_init(t, a, 7, r->nverifs) < 0)
		return -XR_ENOMEM;
	t->title = T(VERIFICATION);
	rt_head(t, 0, T(FACTOR), RT_LEFT, 0);
	rt_head(t, 1, T(HOST), RT_LEFT, 0);
	rt_head(t, 2, T(METHOD), RT_LEFT, 0);
	rt_head(t, 3, T(EXPECTED), RT_LEFT, 1);
	rt_head(t, 4, T(ACTUAL), RT_LEFT, 1);
	rt_head(t, 5, T(VERIFY_RESULT), RT_LEFT, 1);
	rt_head(t, 6, T(RUN_COUNT), RT_RIGHT, 0);
	for (k = 0; k < r->nverifs && rc == 0; k++) {
		const struct report_verif *v = &r->verifs[k];
		snprintf(s, sizeof s, "%d", v->count);
		rc |= rt_set(t, a, k, 0, v->factor);
		rc |= rt_set(t, a, k, 1, v->host);
		rc |= rt_set(t, a, k, 2, v->method);
		rc |= rt_set(t, a, k, 3, v->expected);
		rc |= rt_set(t, a, k, 4, v->actual);
		rc |= rt_set(t, a, k, 5, v->ok ? T(OK) : T(MISMATCH));
		rc |= rt_set(t, a, k, 6, s);
	}
	rt_fill_empty(t);
	return rc ? -XR_ENOMEM : 0;
}

/* --- conditions and sessions -------------------------------------------- */

/* "cubic (6), bbr (2)"; the load as its range on the CPU count. */
static const char *cond_values(const struct report *r,
			       const struct report_condition *c,
			       struct arena *a)
{
	struct buf b = BUF_INIT;
	const char *out;
	int i;
	if (c->is_load) {
		char lo[32], hi[32];
		snprintf(lo, sizeof lo, "%.2f", c->load_min);
		snprintf(hi, sizeof hi, "%.2f", c->load_max);
		buf_addf(&b, T(COND_LOAD), lo, hi, c->cpus);
		buf_addf(&b, " (%d)", c->nruns);
	}
	for (i = 0; !c->is_load && i < c->nvalues; i++)
		buf_addf(&b, "%s%s (%d)", i ? ", " : "", c->values[i].value,
			 c->values[i].runs);
	out = arena_strdup(a, b.s ? b.s : "");
	buf_release(&b);
	return out;
}

static const char *cond_note(const struct report *r,
			     const struct report_condition *c, struct arena *a)
{
	struct buf b = BUF_INIT, l = BUF_INIT;
	const char *out;
	int i, mark;
	if (c->is_load && c->over > 0) {
		buf_addf(&b, T(COND_LOAD_OVER), c->over, c->nruns);
		mark = report_flag_mark(r, REPORT_FLAG_CONTROLLER_LOADED);
		if (mark)
			buf_addf(&b, " [%d]", mark);
	}
	for (i = 0; i < c->nvaries; i++)
		buf_addf(&l, "%s%s", i ? "; " : "", c->varies[i]);
	if (c->nvaries)
		buf_addf(&b, T(COND_VARIES), l.s);
	out = arena_strdup(a, b.s ? b.s : "");
	buf_release(&b);
	buf_release(&l);
	return out;
}

int rt_conditions(const struct report *r, struct arena *a, struct rtable *t)
{
	int k, rc = 0;
	if (rt_init(t, a, 3, r->nconds) < 0)
		return -XR_ENOMEM;
	t->title = T(CONDITIONS);
	rt_head(t, 0, T(CONDITION), RT_LEFT, 0);
	rt_head(t, 1, T(COND_VALUES), RT_LEFT, 1);
	rt_head(t, 2, T(COND_NOTE), RT_LEFT, 1);
	for (k = 0; k < r->nconds && rc == 0; k++) {
		const struct report_condition *c = &r->conds[k];
		const char *v = cond_values(r, c, a), *n = cond_note(r, c, a);
		if (!v || !n)
			return -XR_ENOMEM;
		rc |= rt_set(t, a, k, 0, c->name);
		rc |= rt_set(t, a, k, 1, v);
		rc |= rt_set(t, a, k, 2, n);
	}
	rt_fill_empty(t);
	return rc ? -XR_ENOMEM : 0;
}

int rt_sessions(const struct report *r, struct arena *a, struct rtable *t)
{
	char id[32], when[64];
	int k, rc = 0;
	if (rt_init(t, a, 4, r->span.nsessions) < 0)
		return -XR_ENOMEM;
	t->title = T(SESSIONS);
	rt_head(t, 0, T(SESSION), RT_RIGHT, 0);
	rt_head(t, 1, T(PLAN_HASH), RT_LEFT, 0);
	rt_head(t, 2, T(STARTED), RT_LEFT, 0);
	rt_head(t, 3, T(HOSTS), RT_LEFT, 1);
	for (k = 0; r->span.session_info && k < r->span.nsessions && rc == 0;
	     k++) {
		const struct report_session *s = &r->span.session_info[k];
		char hash[16];
		snprintf(id, sizeof id, "%lld", (long long)s->id);
		snprintf(hash, sizeof hash, "%.12s",
			 s->plan_hash ? s->plan_hash : "");
		rc |= rt_set(t, a, k, 0, id);
		rc |= rt_set(t, a, k, 1, hash);
		rc |= rt_set(t, a, k, 2,
			     report_fmt_time(s->started_at, when, sizeof when));
		if (s->testbed) {
			/* a shard's: the testbed the report keeps apart */
			char *h = arena_printf(
			    a, "%s%stestbed %s", s->hosts ? s->hosts : "",
			    s->hosts && s->hosts[0] ? "; " : "", s->testbed);
			rc |= h ? rt_set(t, a, k, 3, h) : -1;
		} else
			rc |= rt_set(t, a, k, 3, s->hosts);
	}
	rt_fill_empty(t);
	return rc ? -XR_ENOMEM : 0;
}

/* Sized repetitions (repeat: { min, max, precision }): one row per sized
 * cell; no rows for a plan with a fixed repeat. */
int rt_sizing(const struct report *r, struct arena *a, struct rtable *t)
{
	char s[6][48];
	int k, row = 0, rc = 0;

	if (rt_init(t, a, 7, r->ncells) < 0)
		return -XR_ENOMEM;
	t->title = T(SIZING);
	rt_head(t, 0, T(CELL), RT_LEFT, 1);
	rt_head(t, 1, T(SZ_PILOT), RT_RIGHT, 0);
	rt_head(t, 2, T(SZ_NEED), RT_RIGHT, 0);
	rt_head(t, 3, T(SZ_PLANNED), RT_RIGHT, 0);
	rt_head(t, 4, T(SZ_DONE), RT_RIGHT, 0);
	rt_head(t, 5, T(SZ_REACHED), RT_RIGHT, 0);
	rt_head(t, 6, T(SZ_STOPPED), RT_LEFT, 0);
	for (k = 0; k < r->ncells && rc == 0; k++) {
		const struct report_sizing *z = r->cells[k].sizing;
		if (!z)
			continue;
		snprintf(s[0], sizeof s[0], "%d", z->pilot_n);
		snprintf(s[1], sizeof s[1], "%d", z->need);
		snprintf(s[2], sizeof s[2], "%d (max %d)", z->planned, z->max);
		if (z->runs_done >= 0)
			snprintf(s[3], sizeof s[3], "%d", z->runs_done);
		else
			snprintf(s[3], sizeof s[3], "–");
		if (isfinite(z->reached))
			snprintf(s[4], sizeof s[4], "±%.2f%% (±%.2f%%)",
				 100 * z->reached, 100 * z->precision);
		else
			snprintf(s[4], sizeof s[4], "– (±%.2f%%)",
				 100 * z->precision);
		rc |= rt_set(t, a, row, 0, r->cells[k].label);
		rc |= rt_set(t, a, row, 1, s[0]);
		rc |= rt_set(t, a, row, 2, s[1]);
		rc |= rt_set(t, a, row, 3, s[2]);
		rc |= rt_set(t, a, row, 4, s[3]);
		rc |= rt_set(t, a, row, 5, s[4]);
		rc |= rt_set(t, a, row, 6, z->stopped ? z->stopped : "–");
		row++;
	}
	rt_fill_empty(t);
	return rc ? -XR_ENOMEM : 0;
}
