/*
 * Internal to the PDF writer: write_pdf.c draws the header, the matrix
 * tables and charts, the cells and the comparisons, then hands the rest
 * of the document to write_pdf_back.c.
 */
#ifndef XR_WRITE_PDF_INT_H
#define XR_WRITE_PDF_INT_H

struct arena;
struct pdf;
struct pdf_table;
struct report;
struct rtable;
struct xr_err;

/* " (continued)" in the report's language, for table captions. */
const char *write_pdf_continued(const struct report *r);
/* A neutral table as a PDF table at a font size, with a caption (NULL:
 * none) and its continuation text. OUT: caller frees with pdf_table_free;
 * NULL when out of memory. */
struct pdf_table *write_pdf_table(const struct rtable *rt, double size,
				  const char *caption, const char *cont);

/* The reference table (with r->ref), the notes (with r->nnotes) and the
 * appendix (with host facts or verifications), each under its heading.
 * 0 or a negative -XR_E* code. */
/* The system table (rt_system) under the header block; nothing when no
 * host has a fact it shows. */
int write_pdf_system(struct pdf *pdf, const struct report *r, struct arena *a,
		     struct xr_err *err);
int write_pdf_back_matter(struct pdf *pdf, const struct report *r,
			  struct arena *a, struct xr_err *err);

#endif
