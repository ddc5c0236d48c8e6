/*
 * The back matter of the PDF report, after the comparisons: the published
 * reference next to the measured cells (--reference), the notes explaining
 * once every flag that appears with the cells and comparisons it marks,
 * and the appendix of host facts and verification results. Like the rest
 * of the PDF writer (write_pdf.c) it only formats what the model holds.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "pdf.h"
#include "render.h"
#include "write_pdf_int.h"

#include "banned.h"

#define T(id) report_text(r, REPORT_T_##id)

/* The published matrix next to the measured cells (--reference). */
static int ref_table(struct pdf *pdf, const struct report *r,
		     struct xr_err *err)
{
	static const enum report_text_id head[] = {
	    REPORT_T_REF_PUBLISHED, REPORT_T_REF_MEASURED,
	    REPORT_T_CI95,	    REPORT_T_REF_RANGE,
	    REPORT_T_REF_RATIO,	    REPORT_T_REF_IN_RANGE,
	};
	const struct report_ref *ref = r->ref;
	/* like the published table: one column per factor it names, the
	 * metric only when it publishes several */
	int multi = ref->nvalues > 1, nf = ref->nfactors;
	int ncols = nf + multi + (int)(sizeof head / sizeof *head);
	struct pdf_table *t = pdf_table_new(ncols);
	struct buf s = BUF_INIT;
	size_t h;
	int k, j, c, rc;

	if (!t)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	buf_addf(&s, report_text(r, REPORT_T_REF_NOTE), ref->path);
	rc = pdf_paragraph(pdf, 8, 0, s.s, err);
	pdf_space(pdf, 4);
	buf_reset(&s);
	buf_addf(&s, "%s [%s]", ref->values[0], r->display_unit);
	pdf_table_caption(t, s.s, NULL);
	pdf_table_font_size(t, 7.5);
	pdf_table_head_row(t);
	for (j = 0; j < nf; j++)
		pdf_table_head(t, ref->factors[j], 1);
	if (multi)
		pdf_table_head(t, T(METRIC), 1);
	for (h = 0; h < sizeof head / sizeof *head; h++)
		pdf_table_head(t, report_text(r, head[h]), 1);
	for (c = nf + multi; c < ncols - 1; c++)
		pdf_table_align(t, c, PDF_RIGHT);
	pdf_table_wrap(t, nf + multi + 1, 1); /* "not measured (...)" */
	for (k = 0; k < ref->nrows; k++) {
		const struct report_ref_row *w = &ref->rows[k];
		for (j = 0; j < ref->nvalues; j++) {
			char col[REPORT_REF_NCOLS][192];
			int x;
			if (isnan(w->v[j].published))
				continue;
			report_ref_fmt(r, w, j, col);
			pdf_table_row(t);
			for (x = 0; x < nf; x++)
				pdf_table_cell(t, w->levels[x]);
			if (multi)
				pdf_table_cell(t, col[REPORT_REF_COL_METRIC]);
			for (c = REPORT_REF_COL_PUBLISHED; c < REPORT_REF_NCOLS;
			     c++)
				pdf_table_cell(t, col[c]);
		}
	}
	if (rc == 0)
		rc = pdf_table_draw(pdf, t, err);
	pdf_table_free(t);
	buf_release(&s);
	return rc;
}

/* Every flag that appears, explained once, with the cells it marks. */
/* Flags raised on comparisons only; the others are cell flags, repeated on
 * comparisons as A:/B: warnings and listed with the cells. */
static int cmp_only(enum report_flag_code c)
{
	return c == REPORT_FLAG_FACTORS_DIFFER ||
	       c == REPORT_FLAG_NOT_INTERLEAVED ||
	       c == REPORT_FLAG_ENGINE_DIFFERS ||
	       c == REPORT_FLAG_UNIT_DIFFERS ||
	       c == REPORT_FLAG_FACTS_CHANGED || c == REPORT_FLAG_NOT_VERIFIED;
}

/* Add one note detail item; counts those past the cap. */
static void note_item(struct buf *s, int *shown, int *more, const char *what,
		      const char *detail)
{
	if (*shown >= 12) {
		(*more)++;
		return;
	}
	buf_addf(s, "%s%s", *shown ? "; " : "", what);
	if (detail && *detail)
		buf_addf(s, ": %s", detail);
	(*shown)++;
}

static int notes(struct pdf *pdf, const struct report *r, struct xr_err *err)
{
	struct buf s = BUF_INIT, w = BUF_INIT;
	int k, i, j, shown, more, rc = 0;

	for (k = 0; k < r->nnotes && rc == 0; k++) {
		enum report_flag_code code = r->notes[k];

		buf_reset(&s);
		buf_addf(&s, "[%d] %s (%s)", k + 1,
			 report_flag_text(code, r->lang),
			 report_flag_code_name(code));
		rc = pdf_paragraph(pdf, 8, 0, s.s, err);
		/* where it applies, indented under the sentence: cells, then
		 * comparisons (factors_differ and not_interleaved are
		 * comparison flags only and had no details at all) */
		buf_reset(&s);
		shown = more = 0;
		for (i = 0; i < r->ncells; i++)
			for (j = 0; j < r->cells[i].nflags; j++) {
				const struct report_flag *f =
				    &r->cells[i].flags[j];
				if (f->code != code)
					continue;
				note_item(&s, &shown, &more, r->cells[i].label,
					  f->detail);
				break;
			}
		for (i = 0; i < r->ncmps; i++) {
			const struct report_cmp *c = &r->cmps[i];
			const struct report_flag *f = NULL;
			char cm[512], sa[512], sb[512];
			if (!cmp_only(code))
				continue;
			for (j = 0; j < c->nreasons && !f; j++)
				if (c->reasons[j].code == code)
					f = &c->reasons[j];
			for (j = 0; j < c->nwarnings && !f; j++)
				if (c->warnings[j].code == code)
					f = &c->warnings[j];
			if (!f)
				continue;
			report_fmt_common(r, &r->cells[c->a], &r->cells[c->b],
					  cm, sizeof cm);
			report_fmt_side(r, &r->cells[c->a], &r->cells[c->b], sa,
					sizeof sa);
			report_fmt_side(r, &r->cells[c->b], &r->cells[c->a], sb,
					sizeof sb);
			buf_reset(&w);
			if (strcmp(cm, "–"))
				buf_addf(&w, "%s: ", cm);
			buf_addf(&w, "%s vs %s", sa, sb);
			note_item(&s, &shown, &more, w.s, f->detail);
		}
		if (more)
			buf_addf(&s, "; … +%d", more);
		if (rc == 0 && s.len)
			rc = pdf_paragraph(pdf, 7.5, 12, s.s, err);
		pdf_space(pdf, 3);
	}
	buf_release(&s);
	buf_release(&w);
	return rc;
}

static int facts_table(struct pdf *pdf, const struct report *r,
		       struct xr_err *err)
{
	struct pdf_table *t = pdf_table_new(4);
	int i, rc;

	if (!t)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	pdf_table_caption(t, T(HOST_FACTS),
			  r->lang == REPORT_LANG_JA ? "（続き）"
						    : " (continued)");
	pdf_table_font_size(t, 7.5);
	pdf_table_wrap(t, 3, 1);
	pdf_table_align(t, 0, PDF_RIGHT);
	pdf_table_head_row(t);
	pdf_table_head(t, T(SESSION), 1);
	pdf_table_head(t, T(HOST), 1);
	pdf_table_head(t, T(KEY), 1);
	pdf_table_head(t, T(VALUE), 1);
	for (i = 0; i < r->nfacts; i++) {
		pdf_table_row(t);
		pdf_table_cellf(t, "%lld", (long long)r->facts[i].session);
		pdf_table_cell(t, r->facts[i].host);
		pdf_table_cell(t, r->facts[i].key);
		pdf_table_cell(t, r->facts[i].value);
	}
	rc = pdf_table_draw(pdf, t, err);
	pdf_table_free(t);
	return rc;
}

static int verif_table(struct pdf *pdf, const struct report *r,
		       struct xr_err *err)
{
	struct pdf_table *t = pdf_table_new(7);
	int i, rc;

	if (!t)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	pdf_table_caption(t, T(VERIFICATION),
			  r->lang == REPORT_LANG_JA ? "（続き）"
						    : " (continued)");
	pdf_table_font_size(t, 7.5);
	pdf_table_wrap(t, 3, 1);
	pdf_table_wrap(t, 4, 1);
	pdf_table_wrap(t, 5, 1);
	pdf_table_align(t, 6, PDF_RIGHT);
	pdf_table_head_row(t);
	pdf_table_head(t, T(FACTOR), 1);
	pdf_table_head(t, T(HOST), 1);
	pdf_table_head(t, T(METHOD), 1);
	pdf_table_head(t, T(EXPECTED), 1);
	pdf_table_head(t, T(ACTUAL), 1);
	pdf_table_head(t, T(VERIFY_RESULT), 1);
	pdf_table_head(t, T(RUNS), 1);
	for (i = 0; i < r->nverifs; i++) {
		const struct report_verif *v = &r->verifs[i];

		pdf_table_row(t);
		pdf_table_cell(t, v->factor);
		pdf_table_cell(t, v->host);
		pdf_table_cell(t, v->method);
		pdf_table_cell(t, v->expected);
		pdf_table_cell(t, v->actual);
		pdf_table_cell(t, v->ok ? T(OK) : T(MISMATCH));
		pdf_table_cellf(t, "%d", v->count);
	}
	rc = pdf_table_draw(pdf, t, err);
	pdf_table_free(t);
	return rc;
}

int write_pdf_back_matter(struct pdf *pdf, const struct report *r,
			  struct xr_err *err)
{
	int rc = 0;

	if (r->ref) {
		rc = pdf_heading(pdf, 2, T(REFERENCE), err);
		if (rc == 0)
			rc = ref_table(pdf, r, err);
	}
	if (rc == 0 && r->nnotes > 0) {
		rc = pdf_heading(pdf, 2, T(NOTES), err);
		if (rc == 0)
			rc = notes(pdf, r, err);
	}
	if (rc == 0 && (r->nfacts > 0 || r->nverifs > 0)) {
		rc = pdf_heading(
		    pdf, 2, r->lang == REPORT_LANG_JA ? "付録" : "Appendix",
		    err);
		if (rc == 0 && r->nfacts > 0)
			rc = facts_table(pdf, r, err);
		if (rc == 0 && r->nverifs > 0)
			rc = verif_table(pdf, r, err);
	}
	return rc;
}
