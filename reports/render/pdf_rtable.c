/*
 * A neutral table (rtable.h, laid out by table.c) as a PDF table
 * (pdf.h): its columns, header rows and cells, a caption and its
 * continuation text. The PDF writer's two halves (write_pdf.c, the body;
 * write_pdf_back.c, the back matter) both draw their tables through it.
 *
 * SPDX-License-Identifier: MIT
 */
#include "pdf_rtable.h"

#include "pdf.h"
#include "render.h"
#include "rtable.h"

#include "banned.h"

const char *pdf_rtable_continued(const struct report *r)
{
	return r->about.lang == REPORT_LANG_JA ? "（続き）" : " (continued)";
}

struct pdf_table *pdf_rtable_new(const struct rtable *rt, double size,
				 const char *caption, const char *cont)
{
	struct pdf_table *t = pdf_table_new(rt->ncols);
	int i, c;

	if (!t)
		return NULL;
	if (caption)
		pdf_table_caption(t, caption, cont);
	pdf_table_font_size(t, size);
	pdf_table_plain(t, rt->plain);
	for (c = 0; c < rt->ncols; c++) {
		pdf_table_align(
		    t, c, rt->col[c].align == RT_RIGHT ? PDF_RIGHT : PDF_LEFT);
		pdf_table_wrap(t, c, rt->col[c].wrap);
	}
	for (i = 0; i < rt->ngroup_rows; i++) {
		pdf_table_head_row(t);
		for (c = 0; c < rt->ngroup_len[i]; c++)
			pdf_table_head(t, rt->group[i][c].text,
				       rt->group[i][c].span);
	}
	if (!rt->ngroup_rows && !rt->plain) {
		pdf_table_head_row(t);
		for (c = 0; c < rt->ncols; c++)
			pdf_table_head(t, rt->col[c].head, 1);
	}
	for (i = 0; i < rt->nrows; i++) {
		pdf_table_row(t);
		for (c = 0; c < rt->ncols; c++)
			pdf_table_cell(t, rt_cell(rt, i, c));
	}
	return t;
}

int pdf_rtable_draw(struct pdf *pdf, const struct rtable *rt, double size,
		    const char *caption, const char *cont, struct xr_err *err)
{
	struct pdf_table *t = pdf_rtable_new(rt, size, caption, cont);
	int rc;
	if (!t)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	rc = pdf_table_draw(pdf, t, err);
	pdf_table_free(t);
	return rc;
}
