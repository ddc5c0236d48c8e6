/*
 * The back matter of the PDF report, after the comparisons: the published
 * reference next to the measured cells (--reference), the notes explaining
 * once every flag that appears with the cells and comparisons it marks,
 * and the appendix of host facts and verification results. Like the rest
 * of the PDF writer (write_pdf.c) it only renders the tables and notes
 * laid out by table.c (rtable.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "pdf.h"
#include "pdf_rtable.h"
#include "render.h"
#include "rtable.h"
#include "write_pdf_back.h"

#include "banned.h"

#define T(id) report_text(r, REPORT_T_##id)

/* The published matrix next to the measured cells (--reference). */
static int ref_table(struct pdf *pdf, const struct report *r, struct arena *a,
		     struct xr_err *err)
{
	struct pdf_table *t;
	struct rtable rt;
	struct buf s = BUF_INIT;
	int rc;

	if (rt_reference_info(r, a, &rt) < 0)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	t = pdf_rtable_new(&rt, 8, NULL, NULL);
	if (!t)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	rc = pdf_table_draw(pdf, t, err);
	pdf_table_free(t);
	if (rc < 0)
		return rc;
	pdf_space(pdf, 4);
	if (rt_reference(r, a, &rt) < 0)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	buf_addf(&s, report_text(r, REPORT_T_REF_NOTE), r->ref->path);
	rc = pdf_paragraph(pdf, 8, 0, s.s, err);
	pdf_space(pdf, 4);
	buf_reset(&s);
	buf_addf(&s, "%s [%s]", rt.title, rt.unit);
	t = pdf_rtable_new(&rt, 7.5, s.s, NULL);
	buf_release(&s);
	if (!t)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	if (rc == 0)
		rc = pdf_table_draw(pdf, t, err);
	pdf_table_free(t);
	return rc;
}

/* Every flag that appears, explained once, with where it applies
 * (indented under the sentence). */
static int notes(struct pdf *pdf, const struct report *r, struct arena *a,
		 struct xr_err *err)
{
	struct buf s = BUF_INIT;
	struct rt_note *n;
	int k, j, nn, rc = 0;

	if (rt_notes(r, a, &n, &nn) < 0)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	for (k = 0; k < nn && rc == 0; k++) {
		buf_reset(&s);
		buf_addf(&s, "[%d] %s (%s)", k + 1, n[k].text, n[k].name);
		rc = pdf_paragraph(pdf, 8, 0, s.s, err);
		buf_reset(&s);
		for (j = 0; j < n[k].nitems; j++) {
			buf_addf(&s, "%s%s", j ? "; " : "", n[k].item[j].where);
			if (*n[k].item[j].detail)
				buf_addf(&s, ": %s", n[k].item[j].detail);
		}
		if (n[k].more)
			buf_addf(&s, "; … +%d", n[k].more);
		if (rc == 0 && s.len)
			rc = pdf_paragraph(pdf, 7.5, 12, s.s, err);
		pdf_space(pdf, 3);
	}
	buf_release(&s);
	return rc;
}

/* Host facts or verifications: a table captioned with its title. */
static int appendix_table(struct pdf *pdf, const struct report *r,
			  const struct rtable *rt, struct xr_err *err)
{
	return pdf_rtable_draw(pdf, rt, 7.5, rt->title, pdf_rtable_continued(r),
			       err);
}

int write_pdf_system(struct pdf *pdf, const struct report *r, struct arena *a,
		     struct xr_err *err)
{
	struct rtable rt;
	if (rt_system(r, a, &rt) < 0)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	return rt.nrows ? appendix_table(pdf, r, &rt, err) : 0;
}

int write_pdf_back_matter(struct pdf *pdf, const struct report *r,
			  struct arena *a, struct xr_err *err)
{
	struct rtable rt;
	int rc = 0;

	if (r->ref) {
		rc = pdf_heading(pdf, 2, T(REFERENCE), err);
		if (rc == 0)
			rc = ref_table(pdf, r, a, err);
	}
	if (rc == 0 && r->nconds > 0)
		rc = rt_conditions(r, a, &rt) < 0
			 ? xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
				      "out of memory")
			 : appendix_table(pdf, r, &rt, err);
	if (rc == 0 && r->nnotes > 0) {
		rc = pdf_heading(pdf, 2, T(NOTES), err);
		if (rc == 0)
			rc = notes(pdf, r, a, err);
	}
	if (rc == 0) { /* sized repetitions, when the plan sized any */
		if (rt_sizing(r, a, &rt) < 0)
			rc = xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
					"out of memory");
		else if (rt.nrows)
			rc = appendix_table(pdf, r, &rt, err);
	}
	if (rc == 0 &&
	    (r->nfacts > 0 || r->nverifs > 0 || r->span.nsessions > 0)) {
		rc = pdf_heading(
		    pdf, 2,
		    r->about.lang == REPORT_LANG_JA ? "付録" : "Appendix", err);
		if (rc == 0 && r->span.nsessions > 0)
			rc = rt_sessions(r, a, &rt) < 0
				 ? xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
					      "out of memory")
				 : appendix_table(pdf, r, &rt, err);
		if (rc == 0 && r->nfacts > 0)
			rc = rt_facts(r, a, &rt) < 0
				 ? xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
					      "out of memory")
				 : appendix_table(pdf, r, &rt, err);
		if (rc == 0 && r->nverifs > 0)
			rc = rt_verifs(r, a, &rt) < 0
				 ? xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
					      "out of memory")
				 : appendix_table(pdf, r, &rt, err);
	}
	return rc;
}
