/*
 * A neutral table (rtable.h) as a PDF table (pdf.h): what the body
 * (write_pdf.c) and the back matter (write_pdf_back.c) of the PDF report
 * both draw with.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_PDF_RTABLE_H
#define XR_PDF_RTABLE_H

struct pdf;
struct pdf_table;
struct report;
struct rtable;
struct xr_err;

/* " (continued)" in the report's language, for table captions. */
const char *pdf_rtable_continued(const struct report *r);
/* rt as a PDF table at a font size, with a caption (NULL: none) and its
 * continuation text. OUT: caller frees with pdf_table_free; NULL when out
 * of memory. */
struct pdf_table *pdf_rtable_new(const struct rtable *rt, double size,
				 const char *caption, const char *cont);
/* rt drawn at a font size with a caption (NULL: none) and its
 * continuation text; 0 or a negative -XR_E* code. */
int pdf_rtable_draw(struct pdf *pdf, const struct rtable *rt, double size,
		    const char *caption, const char *cont, struct xr_err *err);

#endif
