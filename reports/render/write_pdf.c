/*
 * PDF writer: draws the report model (report.h) with the layout layer in
 * pdf.h, in the order a published benchmark article reads: a header block
 * (title, plan, dates, hosts, runs done/failed), each matrix table with its
 * bar chart, the per-cell statistics and the comparison table with
 * verdicts; then the back matter (write_pdf_back.c): the reference table,
 * the notes explaining every flag that appears, and an appendix of host
 * facts and verification results. It only renders: the tables and notes
 * come laid out from table.c (rtable.h), every number, verdict and flag
 * from the model.
 *
 * SPDX-License-Identifier: MIT
 */
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "buf.h"
#include "chart.h"
#include "pdf.h"
#include "pdf_rtable.h"
#include "explain.h"
#include "render.h"
#include "rlatency.h"
#include "rsearch.h"
#include "rfindings.h"
#include "rtable.h"
#include "utf8.h"
#include "write_pdf_back.h"

#include "banned.h"

#define T(id) report_text(r, REPORT_T_##id)
#define BODY 9.0

static int header_block(struct pdf *pdf, const struct report *r,
			struct arena *a, struct xr_err *err)
{
	struct rtable rt;

	if (rt_header(r, a, &rt) < 0)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	return pdf_rtable_draw(pdf, &rt, BODY, NULL, NULL, err);
}

static int write_pdf_matrix_table(struct pdf *pdf, const struct report *r,
				  const struct rtable *rt, int no,
				  int *landscape, struct xr_err *err)
{
	struct buf cap = BUF_INIT;
	struct pdf_table *t;
	int rc;

	buf_addf(&cap, "%s %d. %s",
		 r->about.lang == REPORT_LANG_JA ? "表" : "Table", no,
		 rt->title);
	if (*rt->unit)
		buf_addf(&cap, " [%s]", rt->unit);
	t = pdf_rtable_new(rt, 8.5, cap.s, pdf_rtable_continued(r));
	buf_release(&cap);
	if (!t)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
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
	return rc;
}

/* The chart of a matrix table (chart.c decides what it shows). */
static int write_pdf_matrix_chart(struct pdf *pdf, const struct report *r,
				  struct arena *a, int ti, const char *caption,
				  struct xr_err *err)
{
	struct chart ch;
	struct chart_fig fig;
	int rc;

	if (chart_matrix(r, ti, ti + 1, caption, a, &ch) < 0 ||
	    chart_box(r, ti, ti + 1, caption, pdf_text_width(pdf), a, &fig) < 0)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	if ((rc = pdf_chart_bars(pdf, &ch, err)) < 0)
		return rc;
	return pdf_chart_fig(pdf, &fig, err);
}

/* Each cell's time series, after the tables. */
static int timeseries(struct pdf *pdf, const struct report *r, struct arena *a,
		      struct xr_err *err)
{
	struct chart_fig fig;
	int i, rc = 0;
	for (i = 0; rc == 0 && i < r->ncells; i++) {
		if (chart_timeseries(r, i, pdf_text_width(pdf), a, &fig) < 0)
			return xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
					  "out of memory");
		rc = pdf_chart_fig(pdf, &fig, err);
	}
	/* latency under load (chart_latency.c): each cell's round-trip
	 * time beside its throughput, then the loaded CDF */
	for (i = 0; rc == 0 && i < r->ncells; i++) {
		if (chart_latency_ts(r, i, pdf_text_width(pdf), a, &fig) < 0)
			return xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
					  "out of memory");
		rc = pdf_chart_fig(pdf, &fig, err);
	}
	if (rc == 0 && chart_latency_cdf(r, pdf_text_width(pdf), a, &fig) < 0)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	return rc == 0 ? pdf_chart_fig(pdf, &fig, err) : rc;
}

/* The rate search (rsearch.c): its table, then each search's chart with
 * its parameters under it. */
static int search(struct pdf *pdf, const struct report *r, struct arena *a,
		  struct xr_err *err)
{
	struct rtable rt;
	struct chart_fig fig;
	struct buf p = BUF_INIT;
	double lo, hi;
	int i, rc;
	if (rt_search(r, a, &rt) < 0)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	if (!rt.nrows)
		return 0;
	rc = pdf_heading(pdf, 2, rt.title, err);
	if (rc == 0)
		rc = pdf_rtable_draw(pdf, &rt, 7.5, NULL, NULL, err);
	for (i = 0; rc == 0 && i < r->nsearches; i++) {
		if (chart_search(r, i, pdf_text_width(pdf), a, &fig) < 0 ||
		    rsearch_params(r, i, &p) < 0)
			rc = xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
					"out of memory");
		if (rc == 0)
			rc = pdf_chart_fig(pdf, &fig, err);
		if (rc == 0)
			rc = pdf_paragraph(pdf, 7.5, 0, p.s, err);
		if (rc == 0 && explain_search(r, i, &p, &lo, &hi) < 0)
			rc = xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
					"out of memory");
		if (rc == 0)
			rc = pdf_paragraph(pdf, 7.5, 0, p.s, err);
	}
	buf_release(&p);
	return rc;
}

/* The table of cells, built in an arena of its own, freed once drawn
 * (libharu keeps its own copy): its text is a line per cell, the largest
 * part of a report of many cells (issue 40). */
static int cells_table(struct pdf *pdf, const struct report *r,
		       struct arena *doc, struct xr_err *err)
{
	struct rtable rt;
	struct buf cap = BUF_INIT;
	struct arena *a = arena_new();
	int i, rc, any_iv = 0;

	(void)doc;
	if (!a || rt_cells(r, a, &rt) < 0) {
		arena_free(a);
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	}
	buf_addf(&cap, "%s: %s", T(CELLS), rt.title);
	if (*rt.unit)
		buf_addf(&cap, " [%s]", rt.unit);
	rc =
	    pdf_rtable_draw(pdf, &rt, 7.5, cap.s, pdf_rtable_continued(r), err);
	for (i = 0; i < r->ncells; i++)
		any_iv |= r->cells[i].st[r->met.primary].n_intervals > 0;
	if (rc == 0 && any_iv)
		rc = pdf_paragraph(pdf, 7.5, 0, T(INTERVAL_NOTE), err);
	/* idle against loaded latency beside the throughput (rlatency.c) */
	if (rc == 0 && rt_latency(r, a, &rt) < 0)
		rc = xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	if (rc == 0 && rt.nrows)
		rc = pdf_rtable_draw(pdf, &rt, 7.5, rt.title, NULL, err);
	buf_release(&cap);
	arena_free(a);
	return rc;
}

static int cmp_table(struct pdf *pdf, const struct report *r, struct arena *a,
		     struct xr_err *err)
{
	struct chart_fig fig;
	struct rtable rt;
	const char **vn;
	int i, nvn, rc;

	/* a short verdict per row, the full ones as numbered notes below:
	 * the verdict column no longer wraps to a page of its own */
	if (rt_cmps_short(r, a, &rt, &vn, &nvn) < 0)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	rc = pdf_rtable_draw(pdf, &rt, 7.5, NULL, NULL, err);
	for (i = 0; rc == 0 && i < nvn; i++) {
		const char *s = arena_printf(
		    a, "%s %d. %s",
		    r->about.lang == REPORT_LANG_JA ? "注" : "Note", i + 1,
		    vn[i]);
		if (!s)
			return xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
					  "out of memory");
		rc = pdf_paragraph(pdf, 7, 0, s, err);
	}
	/* each pair's change against the ±θ band (chart_cmp.c) */
	if (rc == 0 && chart_forest(r, pdf_text_width(pdf), a, &fig) < 0)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	if (rc == 0) {
		pdf_space(pdf, 6);
		rc = pdf_chart_fig(pdf, &fig, err);
	}
	return rc;
}

/* Each matrix table with its chart. */
static int matrices(struct pdf *pdf, const struct report *r, struct arena *a,
		    struct xr_err *err)
{
	int i, rc = 0;

	(void)a; /* each table in an arena of its own, freed once drawn */
	for (i = 0; rc == 0 && i < r->ntables; i++) {
		struct rtable rt;
		struct arena *ta = arena_new();
		int wide = 0;

		if (!ta || rt_matrix(r, i, ta, &rt) < 0) {
			arena_free(ta);
			return xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
					  "out of memory");
		}
		rc = write_pdf_matrix_table(pdf, r, &rt, i + 1, &wide, err);
		if (rc == 0)
			rc = write_pdf_matrix_chart(pdf, r, ta, i, rt.title,
						    err);
		if (wide)
			pdf_set_orient(pdf, PDF_PORTRAIT);
		arena_free(ta);
	}
	return rc;
}

/* A limit line per cell, a sentence per pair bound by different things
 * (reports/explain). */
static int limits(struct pdf *pdf, const struct report *r, struct xr_err *err)
{
	struct explain *x;
	int rc = explain_build(r, &x);
	if (rc < 0 || !x)
		return rc < 0 ? xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
					   "out of memory explaining the cells")
			      : 0;
	rc = pdf_heading(pdf, 2, T(LIMITS), err);
	for (int k = 0; rc == 0 && k < r->ncells; k++) {
		const char *s = arena_printf(
		    r->arena, "%s: %s", r->cells[k].label, x->cells[k].line);
		rc = s ? pdf_paragraph(pdf, 8, 0, s, err)
		       : xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
				    "out of memory explaining the cells");
	}
	for (int k = 0; rc == 0 && k < r->ncmps; k++)
		if (x->pairs[k])
			rc = pdf_paragraph(pdf, 8, 0, x->pairs[k], err);
	for (int k = 0; rc == 0 && k < x->nrefs; k++) {
		const char *s =
		    x->ref_lines[k]
			? arena_printf(r->arena, "%s: %s",
				       r->ref->rows[k].label, x->ref_lines[k])
			: NULL;
		if (s)
			rc = pdf_paragraph(pdf, 8, 0, s, err);
	}
	return rc;
}

/* The answer first (rfindings.h), on page 1 under the title: a line
 * each, the state of an unfinished session first. */
static int findings(struct pdf *pdf, const struct report *r, struct arena *a,
		    struct xr_err *err)
{
	struct rf_line *l;
	int i, n, rc;
	if (rt_findings(r, a, &l, &n) < 0)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	rc = pdf_heading(pdf, 2, T(FINDINGS), err);
	for (i = 0; rc == 0 && i < n; i++) {
		const char *s = arena_printf(a, "• %s", l[i].text);
		rc =
		    s ? pdf_paragraph(pdf, l[i].kind == RF_STATE ? 10 : BODY, 0,
				      s, err)
		      : xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	}
	pdf_space(pdf, 6);
	return rc;
}

static int draw_report(struct pdf *pdf, const struct report *r, struct arena *a,
		       struct xr_err *err)
{
	struct buf s = BUF_INIT;
	int rc;

	rc = pdf_heading(pdf, 1, r->about.title ? r->about.title : "xrun", err);
	/* The plan's description says what the benchmark is for: right
	 * under the title, before the numbers. */
	if (rc == 0 && r->about.description && *r->about.description) {
		rc = pdf_paragraph(pdf, 10, 0, r->about.description, err);
		pdf_space(pdf, 6);
	}
	/* a report re-cut after its runs says so (recut.c) */
	if (rc == 0 && r->about.recut) {
		rc = pdf_paragraph(pdf, 10, 0, r->about.recut, err);
		pdf_space(pdf, 6);
	}
	if (rc == 0)
		rc = findings(pdf, r, a, err);
	if (rc == 0)
		rc = header_block(pdf, r, a, err);
	if (rc == 0)
		rc = write_pdf_system(pdf, r, a, err);
	if (rc == 0)
		rc = matrices(pdf, r, a, err);
	if (rc == 0)
		rc = timeseries(pdf, r, a, err);
	if (rc == 0)
		rc = search(pdf, r, a, err);
	if (rc == 0 && r->ncells > 0) {
		rc = pdf_heading(pdf, 2, T(CELLS), err);
		if (rc == 0)
			rc = cells_table(pdf, r, a, err);
	}
	if (rc == 0)
		rc = pdf_heading(pdf, 2, T(COMPARISONS), err);
	/* declared pairs that yield no comparison (pair_note.c), as the
	 * Markdown and HTML list them */
	for (int k = 0; rc == 0 && k < r->npair_notes; k++)
		rc = pdf_paragraph(pdf, 8, 0, r->pair_notes[k], err);
	if (rc == 0)
		rc = r->ncmps > 0 ? cmp_table(pdf, r, a, err)
				  : pdf_paragraph(pdf, BODY, 0,
						  report_nocmp_text(r), err);
	if (rc == 0)
		rc = limits(pdf, r, err);
	/* how the comparisons were computed, after the results */
	if (rc == 0 && r->ncmps > 0) {
		report_method_note(r, &s);
		rc = pdf_heading(pdf, 2, T(METHOD), err);
		if (rc == 0)
			rc = pdf_paragraph(pdf, 8, 0, s.s, err);
	}
	if (rc == 0)
		rc = write_pdf_back_matter(pdf, r, a, err);
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

	buf_addf(b, "%s\n%s\n%s\n", r->about.title ? r->about.title : "",
		 r->about.description ? r->about.description : "",
		 r->about.plan_name ? r->about.plan_name : "");
	for (i = 0; i < r->nfactors; i++) {
		buf_addf(b, "%s\n", r->factors[i].name);
		for (k = 0; k < r->factors[i].nlevels; k++)
			buf_addf(b, "%s\n", r->factors[i].levels[k]);
	}
	for (i = 0; i < r->span.nhosts; i++)
		buf_addf(b, "%s\n", r->span.hosts[i]);
	return r->about.lang == REPORT_LANG_JA || has_cjk(b->s);
}

/* The document of report_write_pdf into *pdf (and its scratch arena
 * *a, the footer's text foot), each left for the caller to free: a jump
 * out of libharu (pdf_oom_guard) may end this function anywhere. */
static int write_doc(struct pdf **pdf, struct arena **a, struct buf *foot,
		     const struct report *r, const char *path,
		     struct xr_err *err)
{
	int rc = pdf_new(pdf, NULL, err);

	if (rc < 0)
		return rc;
	/* A font without kana and kanji draws nothing (or boxes) for them
	 * and the PDF looks fine until someone reads it: refuse it when the
	 * report has Japanese to print (schema/report.md, "Fonts"). */
	if (japanese_text(r, foot))
		rc = pdf_require_japanese(*pdf, foot->s, err);
	buf_release(foot);
	if (rc < 0)
		return rc;
	pdf_set_info(*pdf, r->about.title, "xrun " XRUN_VERSION);
	buf_addf(foot, "xrun %s — %s", XRUN_VERSION,
		 r->about.title ? r->about.title : "");
	pdf_set_footer(*pdf, foot->s);
	buf_release(foot);
	*a = arena_new();
	rc = *a ? draw_report(*pdf, r, *a, err)
		: xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	if (rc == 0)
		rc = pdf_save(*pdf, path, err);
	return rc;
}

int report_write_pdf(const struct report *r, const char *path,
		     struct xr_err *err)
{
	struct pdf *volatile pdf = NULL;
	struct buf foot = BUF_INIT;
	struct arena *volatile a = NULL;
	jmp_buf oom;
	int rc;

	if (setjmp(oom)) { /* libharu's allocation failed (pdf.h) */
		pdf_oom_guard(NULL);
		pdf_abandon(pdf);
		arena_free(a);
		buf_release(&foot);
		return xr_err_set(err, XR_ENOMEM, path, 0, 0,
				  "out of memory rendering '%s'", path);
	}
	pdf_oom_guard(&oom);
	rc = write_doc((struct pdf **)&pdf, (struct arena **)&a, &foot, r, path,
		       err);
	pdf_oom_guard(NULL);
	arena_free(a);
	pdf_free(pdf);
	buf_release(&foot);
	return rc;
}
