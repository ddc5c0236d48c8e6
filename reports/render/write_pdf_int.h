/*
 * Internal to the PDF writer: write_pdf.c draws the header, the matrix
 * tables and charts, the cells and the comparisons, then hands the rest
 * of the document to write_pdf_back.c.
 */
#ifndef XR_WRITE_PDF_INT_H
#define XR_WRITE_PDF_INT_H

struct pdf;
struct report;
struct xr_err;

/* The reference table (with r->ref), the notes (with r->nnotes) and the
 * appendix (with host facts or verifications), each under its heading.
 * 0 or a negative -XR_E* code. */
int write_pdf_back_matter(struct pdf *pdf, const struct report *r,
			  struct xr_err *err);

#endif
