/*
 * The PDF report's back matter and system table (write_pdf_back.c), which
 * the PDF writer (write_pdf.c) places: the reference table, the notes,
 * the appendix.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_WRITE_PDF_BACK_H
#define XR_WRITE_PDF_BACK_H

struct arena;
struct pdf;
struct report;
struct xr_err;

/* The system table (rt_system) under the header block; nothing when no
 * host has a fact it shows. 0 or a negative -XR_E* code. */
int write_pdf_system(struct pdf *pdf, const struct report *r, struct arena *a,
		     struct xr_err *err);
/* The reference table (with r->ref), the notes (with r->nnotes) and the
 * appendix (with host facts or verifications), each under its heading.
 * 0 or a negative -XR_E* code. */
int write_pdf_back_matter(struct pdf *pdf, const struct report *r,
			  struct arena *a, struct xr_err *err);

#endif
