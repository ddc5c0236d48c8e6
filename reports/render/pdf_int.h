/*
 * Internals shared by pdf.c (document, font, text), pdf_table.c and
 * pdf_chart.c. Not a public interface: only the pdf modules include it.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_PDF_INT_H
#define XR_PDF_INT_H

#include <hpdf.h>

#include "escape.h"
#include "pdf.h"

struct pdf {
	HPDF_Doc doc;
	HPDF_Font font;
	HPDF_Page page; /* NULL before the first page */
	HPDF_Page *pages;
	int npages, cappages;
	enum pdf_orient orient; /* for automatic page breaks */
	double pw, ph;		/* size of the current page */
	double y;		/* top of the free space on the page */
	double ml, mr, mt, mb;	/* margins */
	int failed;		/* a libharu error happened */
	unsigned long hcode, hdetail;
	char *footer;
	char *font_path;	 /* the embedded font file */
	int font_index;		 /* its face in a .ttc collection */
	const char *font_origin; /* "XRUN_FONT", "font option", "discovered" */
	double ascii_w[128]; /* advance widths per 1 pt, -1 = not measured */
	void *charset;	     /* the font's FcCharSet (NULL: not known) */
	int charset_tried;
	struct esc_count esc; /* replaced bytes and missing glyphs drawn */
};

/* One line of wrapped text: a byte range of the source string. */
struct pdf_line {
	const char *s;
	size_t len;
};

/* A libharu document on pdf_mem.c's allocator (pdf_oom_guard). */
HPDF_Doc pdf_mem_doc(HPDF_Error_Handler on_error, void *user);
/* The document's UTF-8 encoder (HPDF_UseUTFEncodings first) on it too. */
void pdf_mem_utf8(HPDF_Doc doc);

/* Fill err from a recorded libharu error; 0 when none happened. */
int pdf_check(struct pdf *pdf, struct xr_err *err);
/* Make sure a page exists. */
int pdf_ensure_page(struct pdf *pdf, struct xr_err *err);
/* Width in points of len bytes of UTF-8 text. */
double pdf_measure_n(struct pdf *pdf, const char *s, size_t len, double size);
/* Wrap text into lines no wider than width. OUT: *lines (caller frees),
 * returns the number of lines (>= 1), negative when out of memory. */
int pdf_wrap(struct pdf *pdf, const char *text, double size, double width,
	     struct pdf_line **lines);
/* Widest word (unbreakable run) of text, in points. */
double pdf_min_width(struct pdf *pdf, const char *text, double size);
/* Draw len bytes of text with its baseline at (x, y). bold: emulated by
 * stroking the outline (the TrueType has no bold face). */
void pdf_draw_text(struct pdf *pdf, double x, double y, double size,
		   const char *s, size_t len, int bold);
void pdf_hline(struct pdf *pdf, double x0, double x1, double y, double w);

/* The font's ascent as a fraction of the size: baseline = top - this. */
#define PDF_ASCENT 0.88

#endif
