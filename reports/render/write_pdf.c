/*
 * PDF writer: draws the report model (report.h) with the layout layer in
 * pdf.h, in the order a published benchmark article reads: a header block
 * (title, plan, dates, hosts, runs done/failed), each matrix table with its
 * bar chart, the per-cell statistics and the comparison table with
 * verdicts; then the back matter (write_pdf_back.c): the reference table,
 * the notes explaining every flag that appears, and an appendix of host
 * facts and verification results. It only formats: every number, verdict
 * and flag comes from the model.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "pdf.h"
#include "report.h"
#include "utf8.h"
#include "write_pdf_int.h"

#include "banned.h"

#define T(id) report_text(r, REPORT_T_##id)
#define BODY 9.0

/* Display scale and unit of metric mi (the primary gets the display unit). */
static double metric_scale(const struct report *r, int mi, const char **unit)
{
	if (mi == r->primary && r->display_unit) {
		*unit = report_unit_label(r->display_unit);
		return r->display_scale > 0 ? r->display_scale : 1;
	}
	*unit = report_unit_label(mi >= 0 && mi < r->nmetrics && r->metric_units
				      ? r->metric_units[mi]
				      : NULL);
	return 1;
}

static const char *metric_name(const struct report *r, int mi)
{
	if (mi >= 0 && mi < r->nmetrics && r->metrics && r->metrics[mi])
		return r->metrics[mi];
	return r->metric ? r->metric : "";
}

/* "median ±spread [marks]" of a cell in a table's metric. */
static void cell_text(const struct report *r, int mi,
		      const struct report_cell *c, struct buf *b)
{
	char v[96], m[96];

	if (mi == r->primary) {
		report_fmt_cell(r, c, v, sizeof(v));
	} else {
		const struct report_stats *s = &c->st[mi];

		report_fmt_metric(r, mi, s->median, v, sizeof(v));
	}
	report_fmt_marks(r, c, m, sizeof(m));
	buf_addf(b, "%s%s%s", v, *m ? " " : "", m);
}

static int header_block(struct pdf *pdf, const struct report *r,
			struct xr_err *err)
{
	struct pdf_table *t = pdf_table_new(2);
	char a[64], b[64], v[256];
	struct buf s = BUF_INIT;
	int i, rc;

	if (!t)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	pdf_table_plain(t, 1);
	pdf_table_wrap(t, 1, 1);
	pdf_table_font_size(t, BODY);

	pdf_table_row(t);
	pdf_table_cell(t, T(PLAN));
	buf_adds(&s, r->plan_name ? r->plan_name : "");
	if (r->plan_hash && *r->plan_hash)
		buf_addf(&s, " (%.12s)", r->plan_hash);
	pdf_table_cell(t, s.s);

	buf_reset(&s);
	for (i = 0; i < r->nsessions; i++)
		buf_addf(&s, "%s%lld", i ? ", " : "",
			 (long long)r->sessions[i]);
	pdf_table_row(t);
	pdf_table_cell(t, T(SESSIONS));
	pdf_table_cell(t, s.s);

	pdf_table_row(t);
	pdf_table_cell(t, T(FIRST_RUN));
	pdf_table_cell(t, report_fmt_time(r->first_run, a, sizeof(a)));
	pdf_table_row(t);
	pdf_table_cell(t, T(LAST_RUN));
	pdf_table_cell(t, report_fmt_time(r->last_run, b, sizeof(b)));

	buf_reset(&s);
	for (i = 0; i < r->nhosts; i++)
		buf_addf(&s, "%s%s", i ? ", " : "", r->hosts[i]);
	pdf_table_row(t);
	pdf_table_cell(t, T(HOSTS));
	pdf_table_cell(t, r->nhosts ? s.s : T(NONE));

	/* Runs done and failed first: a reader looks there before trusting
	 * any number below. */
	pdf_table_row(t);
	pdf_table_cell(t, T(RUNS));
	pdf_table_cell(t, report_fmt_runs(r, v, sizeof(v)));

	buf_reset(&s);
	buf_addf(&s, "%s", r->metric ? r->metric : "");
	if (*report_unit_label(r->display_unit))
		buf_addf(&s, " (%s)", r->display_unit);
	pdf_table_row(t);
	pdf_table_cell(t, T(METRIC));
	pdf_table_cell(t, s.s);

	pdf_table_row(t);
	pdf_table_cell(t, T(THRESHOLD));
	pdf_table_cellf(t, "±%g%%", r->threshold * 100);

	pdf_table_row(t);
	pdf_table_cell(t, T(GENERATED));
	pdf_table_cell(t, report_fmt_time(r->generated_at, a, sizeof(a)));

	rc = pdf_table_draw(pdf, t, err);
	pdf_table_free(t);
	buf_release(&s);
	return rc;
}

/* Factor names joined: "streams, os, slot". */
static void factor_names(const struct report *r, const struct report_table *tb,
			 struct buf *b)
{
	int k, first = 1;

	if (tb->row_factor >= 0) {
		buf_adds(b, r->factors[tb->row_factor].name);
		first = 0;
	}
	for (k = 0; k < tb->ncol_factors; k++) {
		buf_addf(b, "%s%s", first ? "" : ", ",
			 r->factors[tb->col_factors[k]].name);
		first = 0;
	}
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

static int matrix_table(struct pdf *pdf, const struct report *r,
			const struct report_table *tb, int no, int *landscape,
			struct xr_err *err)
{
	struct pdf_table *t = pdf_table_new(tb->ncols + 1);
	struct buf cap = BUF_INIT, fn = BUF_INIT, s = BUF_INIT;
	const char *unit;
	int k, c, row, rc;

	if (!t)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	metric_scale(r, tb->metric_index, &unit);
	factor_names(r, tb, &fn);
	buf_addf(&cap, "%s %d. ", r->lang == REPORT_LANG_JA ? "表" : "Table",
		 no);
	buf_addf(&cap, T(TABLE_CAPTION), metric_name(r, tb->metric_index),
		 fn.s);
	if (unit && *unit)
		buf_addf(&cap, " [%s]", unit);
	pdf_table_caption(
	    t, cap.s, r->lang == REPORT_LANG_JA ? "（続き）" : " (continued)");
	for (c = 1; c <= tb->ncols; c++)
		pdf_table_align(t, c, PDF_RIGHT);
	pdf_table_wrap(t, 0, 1);

	/* One header row per column factor: equal level prefixes span. */
	for (k = 0; k < tb->ncol_factors; k++) {
		const struct report_factor *f = &r->factors[tb->col_factors[k]];

		/* The stub names the column factor of its header row; the
		 * last one also names the row factor, as in "streams \ os". */
		pdf_table_head_row(t);
		buf_reset(&s);
		if (k == tb->ncol_factors - 1 && tb->row_factor >= 0)
			buf_addf(&s, "%s \\ ", r->factors[tb->row_factor].name);
		buf_adds(&s, f->name);
		pdf_table_head(t, s.s, 1);
		for (c = 0; c < tb->ncols;) {
			int span = 1, lv = tb->col_lv[c][k];

			while (c + span < tb->ncols &&
			       same_prefix(tb, c, c + span, k))
				span++;
			pdf_table_head(
			    t, lv >= 0 && lv < f->nlevels ? f->levels[lv] : "?",
			    span);
			c += span;
		}
	}
	if (tb->ncol_factors == 0) {
		pdf_table_head_row(t);
		pdf_table_head(
		    t,
		    tb->row_factor >= 0 ? r->factors[tb->row_factor].name : "",
		    1);
		/* No column factor: the one column is the metric itself. */
		for (c = 0; c < tb->ncols; c++)
			pdf_table_head(t,
				       tb->col_label[c] && *tb->col_label[c]
					   ? tb->col_label[c]
					   : metric_name(r, tb->metric_index),
				       1);
	}
	for (row = 0; row < tb->nrows; row++) {
		pdf_table_row(t);
		pdf_table_cell(t, tb->row_label[row]);
		for (c = 0; c < tb->ncols; c++) {
			int ci = tb->cell[row * tb->ncols + c];

			buf_reset(&s);
			if (ci >= 0 && ci < r->ncells)
				cell_text(r, tb->metric_index, &r->cells[ci],
					  &s);
			else
				buf_adds(&s, "–");
			pdf_table_cell(t, s.s);
		}
	}
	/* A table as wide as seed 001's (OS x NIC x slot) gets a landscape
	 * page, and so does its chart; later pages are portrait again. */
	rc = 0;
	if (!pdf_table_fits(pdf, t, PDF_PORTRAIT)) {
		if (pdf_orient(pdf) == PDF_PORTRAIT)
			rc = pdf_page_new(pdf, PDF_LANDSCAPE, err);
		*landscape = 1;
	}
	/* The section heading goes with the first table, on its page. */
	if (rc == 0 && no == 1) {
		rc = pdf_heading(pdf, 2, T(TABLES), err);
		if (rc == 0)
			rc = pdf_paragraph(pdf, 8, 0, T(SPREAD_NOTE), err);
		pdf_space(pdf, 4);
	}
	if (rc == 0)
		rc = pdf_table_draw(pdf, t, err);
	pdf_table_free(t);
	buf_release(&cap);
	buf_release(&fn);
	buf_release(&s);
	return rc;
}

/* The chart of a matrix table: groups = rows, one bar per column; with a
 * single row the columns become the groups. Bars are medians, whiskers
 * min..max over the ok runs. */
static int matrix_chart(struct pdf *pdf, const struct report *r,
			const struct report_table *tb, int no,
			struct xr_err *err)
{
	int swap = tb->nrows == 1, ng, ns, g, s, rc;
	size_t n = (size_t)tb->nrows * (size_t)tb->ncols;
	double *v = calloc(n ? n : 1, sizeof(double) * 3), scale;
	const char *unit, *series1[1];
	struct buf title = BUF_INIT, fn = BUF_INIT;
	struct pdf_chart ch;

	if (!v)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	scale = metric_scale(r, tb->metric_index, &unit);
	ng = swap ? tb->ncols : tb->nrows;
	ns = swap ? 1 : tb->ncols;
	for (g = 0; g < ng; g++)
		for (s = 0; s < ns; s++) {
			int row = swap ? 0 : g, col = swap ? g : s;
			int ci = tb->cell[row * tb->ncols + col];
			size_t k = (size_t)g * (size_t)ns + (size_t)s;
			const struct report_stats *st;

			v[k] = v[n + k] = v[2 * n + k] = NAN;
			if (ci < 0 || ci >= r->ncells)
				continue;
			st = &r->cells[ci].st[tb->metric_index];
			if (st->n < 1)
				continue;
			v[k] = st->median / scale;
			v[n + k] = st->min / scale;
			v[2 * n + k] = st->max / scale;
		}
	factor_names(r, tb, &fn);
	buf_addf(&title, "%s %d. ", r->lang == REPORT_LANG_JA ? "図" : "Figure",
		 no);
	buf_addf(&title, T(TABLE_CAPTION), metric_name(r, tb->metric_index),
		 fn.s);
	buf_addf(&title,
		 r->lang == REPORT_LANG_JA ? "（%s、ひげ = %s–%s）"
					   : " (%s, whiskers = %s–%s)",
		 T(MEDIAN), T(MIN), T(MAX));
	series1[0] = metric_name(r, tb->metric_index);
	memset(&ch, 0, sizeof(ch));
	ch.title = title.s;
	ch.ylabel = unit && *unit ? unit : metric_name(r, tb->metric_index);
	ch.xlabel = !swap && tb->row_factor >= 0
			? r->factors[tb->row_factor].name
			: NULL;
	ch.ngroups = ng;
	ch.nseries = ns;
	ch.groups = swap ? tb->col_label : tb->row_label;
	ch.series = swap ? series1 : tb->col_label;
	ch.value = v;
	ch.lo = v + n;
	ch.hi = v + 2 * n;
	ch.height = 170;
	rc = pdf_chart_bars(pdf, &ch, err);
	free(v);
	buf_release(&title);
	buf_release(&fn);
	return rc;
}

static void fmt_stat(const struct report *r, double v, struct buf *b)
{
	char tmp[64];

	buf_adds(b, report_fmt_metric(r, r->primary, v, tmp, sizeof(tmp)));
}

static int cells_table(struct pdf *pdf, const struct report *r,
		       struct xr_err *err)
{
	static const enum report_text_id heads[] = {
	    REPORT_T_CELL,	    REPORT_T_N,
	    REPORT_T_MEDIAN,	    REPORT_T_MEAN,
	    REPORT_T_STDEV,	    REPORT_T_CV,
	    REPORT_T_MIN,	    REPORT_T_MAX,
	    REPORT_T_CI95,	    REPORT_T_INTERVAL_P95,
	    REPORT_T_INTERVAL_PEAK,
	};
	int nh = (int)(sizeof(heads) / sizeof(heads[0])), i, rc, any_iv = 0;
	struct pdf_table *t = pdf_table_new(nh);
	struct buf s = BUF_INIT, cap = BUF_INIT;
	char m[96];

	if (!t)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	buf_addf(&cap, "%s: %s", T(CELLS), r->metric ? r->metric : "");
	if (*report_unit_label(r->display_unit))
		buf_addf(&cap, " [%s]", r->display_unit);
	pdf_table_caption(
	    t, cap.s, r->lang == REPORT_LANG_JA ? "（続き）" : " (continued)");
	pdf_table_font_size(t, 7.5);
	pdf_table_wrap(t, 0, 1);
	pdf_table_head_row(t);
	for (i = 0; i < nh; i++) {
		pdf_table_head(t, report_text(r, heads[i]), 1);
		if (i > 0)
			pdf_table_align(t, i, PDF_RIGHT);
	}
	for (i = 0; i < r->ncells; i++) {
		const struct report_cell *c = &r->cells[i];
		const struct report_stats *st = &c->st[r->primary];

		pdf_table_row(t);
		report_fmt_marks(r, c, m, sizeof(m));
		buf_reset(&s);
		buf_addf(&s, "%s%s%s", c->label, *m ? " " : "", m);
		pdf_table_cell(t, s.s);
		buf_reset(&s);
		buf_addf(&s, "%d", st->n);
		if (c->n_failed + c->n_timeout > 0)
			buf_addf(&s, "/%d", c->n_runs);
		pdf_table_cell(t, s.s);
#define STAT(v)                                                                \
	do {                                                                   \
		buf_reset(&s);                                                 \
		fmt_stat(r, (v), &s);                                          \
		pdf_table_cell(t, s.s);                                        \
	} while (0)
		STAT(st->median);
		STAT(st->mean);
		STAT(st->sd);
		pdf_table_cellf(t, isnan(st->cv_pct) ? "–" : "%.1f",
				st->cv_pct);
		STAT(st->min);
		STAT(st->max);
		buf_reset(&s);
		if (isnan(st->ci_low))
			buf_adds(&s, "–");
		else {
			fmt_stat(r, st->ci_low, &s);
			buf_adds(&s, " – ");
			fmt_stat(r, st->ci_high, &s);
		}
		pdf_table_cell(t, s.s);
		STAT(st->iv_p95);
		STAT(st->iv_peak);
#undef STAT
		any_iv |= st->n_intervals > 0;
	}
	rc = pdf_table_draw(pdf, t, err);
	if (rc == 0 && any_iv)
		rc = pdf_paragraph(pdf, 7.5, 0, T(INTERVAL_NOTE), err);
	pdf_table_free(t);
	buf_release(&s);
	buf_release(&cap);
	return rc;
}

static int cmp_table(struct pdf *pdf, const struct report *r,
		     struct xr_err *err)
{
	struct pdf_table *t = pdf_table_new(10);
	struct buf s = BUF_INIT;
	char v[512];
	int i, rc;

	if (!t)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	pdf_table_caption(t, NULL, NULL);
	pdf_table_font_size(t, 7.5);
	pdf_table_head_row(t);
	pdf_table_head(t, T(FACTOR), 1);
	pdf_table_head(t, T(CELL), 1);
	pdf_table_head(t, T(A), 1);
	pdf_table_head(t, T(B), 1);
	buf_addf(&s, "A %s", T(MEDIAN));
	pdf_table_head(t, s.s, 1);
	buf_reset(&s);
	buf_addf(&s, "B %s", T(MEDIAN));
	pdf_table_head(t, s.s, 1);
	pdf_table_head(t, T(DELTA), 1);
	pdf_table_head(t, T(P), 1);
	pdf_table_head(t, T(N), 1);
	pdf_table_head(t, T(VERDICT), 1);
	for (i = 4; i <= 8; i++)
		pdf_table_align(t, i, PDF_RIGHT);
	pdf_table_wrap(t, 1, 1);
	pdf_table_wrap(t, 2, 1);
	pdf_table_wrap(t, 3, 1);
	pdf_table_wrap(t, 6, 1);
	pdf_table_wrap(t, 9, 1);
	for (i = 0; i < r->ncmps; i++) {
		const struct report_cmp *c = &r->cmps[i];
		const struct report_cell *a = &r->cells[c->a];
		const struct report_cell *b = &r->cells[c->b];

		pdf_table_row(t);
		pdf_table_cell(t, c->factor >= 0 ? r->factors[c->factor].name
						 : T(EXPLICIT_PAIR));
		/* the shared levels once, then only what differs: full
		 * labels on both sides made rows five lines tall */
		pdf_table_cell(t, report_fmt_common(r, a, b, v, sizeof(v)));
		pdf_table_cell(t, report_fmt_side(r, a, b, v, sizeof(v)));
		pdf_table_cell(t, report_fmt_side(r, b, a, v, sizeof(v)));
		pdf_table_cell(t, report_fmt_value(r, a->st[r->primary].median,
						   v, sizeof(v)));
		pdf_table_cell(t, report_fmt_value(r, b->st[r->primary].median,
						   v, sizeof(v)));
		pdf_table_cell(t, report_fmt_delta(c, v, sizeof(v)));
		pdf_table_cell(t, report_fmt_p(c, v, sizeof(v)));
		pdf_table_cellf(t, "%d+%d", c->n_a, c->n_b);
		buf_reset(&s);
		buf_adds(&s, report_fmt_verdict(r, c, v, sizeof(v)));
		if (*report_fmt_cmp_marks(r, c, 0, v, sizeof(v)))
			buf_addf(&s, " %s", v);
		pdf_table_cell(t, s.s);
	}
	rc = pdf_table_draw(pdf, t, err);
	pdf_table_free(t);
	buf_release(&s);
	return rc;
}

static int draw_report(struct pdf *pdf, const struct report *r,
		       struct xr_err *err)
{
	struct buf s = BUF_INIT;
	int i, rc;

	rc = pdf_heading(pdf, 1, r->title ? r->title : "xrun", err);
	/* The plan's description says what the benchmark is for: right
	 * under the title, before the numbers. */
	if (rc == 0 && r->description && *r->description) {
		rc = pdf_paragraph(pdf, 10, 0, r->description, err);
		pdf_space(pdf, 6);
	}
	if (rc == 0)
		rc = header_block(pdf, r, err);
	for (i = 0; rc == 0 && i < r->ntables; i++) {
		int wide = 0;

		rc = matrix_table(pdf, r, &r->tables[i], i + 1, &wide, err);
		if (rc == 0)
			rc = matrix_chart(pdf, r, &r->tables[i], i + 1, err);
		if (wide)
			pdf_set_orient(pdf, PDF_PORTRAIT);
	}
	if (rc == 0 && r->ncells > 0) {
		rc = pdf_heading(pdf, 2, T(CELLS), err);
		if (rc == 0)
			rc = cells_table(pdf, r, err);
	}
	if (rc == 0)
		rc = pdf_heading(pdf, 2, T(COMPARISONS), err);
	if (rc == 0) {
		buf_addf(&s, T(METHOD_NOTE), r->threshold * 100);
		rc = pdf_paragraph(pdf, 8, 0, s.s, err);
		pdf_space(pdf, 4);
	}
	if (rc == 0)
		rc = r->ncmps > 0
			 ? cmp_table(pdf, r, err)
			 : pdf_paragraph(pdf, BODY, 0, T(NO_COMPARISONS), err);
	if (rc == 0)
		rc = write_pdf_back_matter(pdf, r, err);
	buf_release(&s);
	return rc;
}

/* Is there a CJK character in s (U+2E80-U+9FFF: CJK radicals and
 * punctuation, kana, kanji; U+F900-U+FAFF; full-width forms U+FF00 and up;
 * U+20000-U+2FFFF)? */
static int has_cjk(const char *s)
{
	uint32_t cp;

	while (s && *s) {
		s += utf8_next(s, SIZE_MAX, &cp);
		if ((cp >= 0x2E80 && cp <= 0x9FFF) ||
		    (cp >= 0xF900 && cp <= 0xFAFF) ||
		    (cp >= 0xFF00 && cp <= 0xFFFF) ||
		    (cp >= 0x20000 && cp <= 0x2FFFF))
			return 1;
	}
	return 0;
}

/*
 * The text of the report that may not be Latin: the title, the
 * description, factor names and levels, host names. OUT: b.
 * Returns whether the report needs Japanese glyphs: its language is
 * Japanese, or that text holds CJK characters.
 */
static int japanese_text(const struct report *r, struct buf *b)
{
	int i, k;

	buf_addf(b, "%s\n%s\n%s\n", r->title ? r->title : "",
		 r->description ? r->description : "",
		 r->plan_name ? r->plan_name : "");
	for (i = 0; i < r->nfactors; i++) {
		buf_addf(b, "%s\n", r->factors[i].name);
		for (k = 0; k < r->factors[i].nlevels; k++)
			buf_addf(b, "%s\n", r->factors[i].levels[k]);
	}
	for (i = 0; i < r->nhosts; i++)
		buf_addf(b, "%s\n", r->hosts[i]);
	return r->lang == REPORT_LANG_JA || has_cjk(b->s);
}

int report_write_pdf(const struct report *r, const char *path,
		     struct xr_err *err)
{
	struct pdf *pdf = NULL;
	struct buf foot = BUF_INIT;
	int rc;

	rc = pdf_new(&pdf, NULL, err);
	if (rc < 0)
		return rc;
	/* A font without kana and kanji draws nothing (or boxes) for them
	 * and the PDF looks fine until someone reads it: refuse it when the
	 * report has Japanese to print (schema/report.md, "Fonts"). */
	if (japanese_text(r, &foot))
		rc = pdf_require_japanese(pdf, foot.s, err);
	buf_release(&foot);
	if (rc < 0) {
		pdf_free(pdf);
		return rc;
	}
	pdf_set_info(pdf, r->title, "xrun " XRUN_VERSION);
	buf_addf(&foot, "xrun %s — %s", XRUN_VERSION, r->title ? r->title : "");
	pdf_set_footer(pdf, foot.s);
	buf_release(&foot);
	rc = draw_report(pdf, r, err);
	if (rc == 0)
		rc = pdf_save(pdf, path, err);
	pdf_free(pdf);
	return rc;
}
