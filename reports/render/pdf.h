/*
 * A small flowing layout layer over libharu: one document with an
 * embedded TrueType font (UTF-8 text, Japanese included), a cursor that
 * moves down the page and breaks to a new page when content would not fit,
 * headings and wrapped paragraphs, tables with multi-level column headers
 * that break across pages with their header rows repeated, and grouped bar
 * charts with min-max whiskers, a y axis and a legend.
 *
 * Every function returns 0 or a negative -XR_E* code and fills err. A
 * libharu error is recorded inside the document; once one happened every
 * later call fails with the same message and pdf_save writes nothing.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_PDF_H
#define XR_PDF_H

#include <setjmp.h>
#include <stddef.h>

#include "xr_err.h"

struct pdf; /* opaque */

/*
 * Refuse a font that cannot print Japanese, for a document that will show
 * some: the embedded font must have kana and kanji (U+3042, U+30A2,
 * U+6F22, U+6BD4) and every CJK character (kana, kanji, CJK punctuation
 * and full-width forms) of text (UTF-8, may be NULL). Otherwise -XR_EFONT,
 * naming the file and where it came from: "font 'F' (XRUN_FONT) lacks Japanese
 * glyphs (U+3042); ...". Checked with fontconfig (FcFreeTypeQuery); without
 * fontconfig, or when fontconfig cannot read the file, nothing is checked and 0
 * returned.
 */
int pdf_require_japanese(struct pdf *pdf, const char *text, struct xr_err *err);

enum pdf_orient { PDF_PORTRAIT = 0, PDF_LANDSCAPE };

/* A new A4 document with the font found by pdf_find_font(font_path).
 * OUT: *out, free with pdf_free. */
int pdf_new(struct pdf **out, const char *font_path, struct xr_err *err);
void pdf_free(struct pdf *pdf);
/* libharu goes on with a NULL it did not check when an allocation fails
 * (HPDF_MemCpy into it: a crash, found by e2e/fault_oom), so its allocator
 * jumps to *oom instead of returning NULL while a guard is set: the caller
 * setjmp()s, sets the guard before pdf_new and clears it (NULL) after
 * pdf_free. After the jump the document is in a state libharu cannot free:
 * pdf_abandon releases xrun's own parts and leaves libharu's memory to the
 * process, which is out of memory and ends. One guard per thread. */
void pdf_oom_guard(jmp_buf *oom);
void pdf_abandon(struct pdf *pdf);
/* Document info (title shown by viewers). */
void pdf_set_info(struct pdf *pdf, const char *title, const char *creator);
/* Text printed in each page's footer next to "page/total" (may be NULL). */
void pdf_set_footer(struct pdf *pdf, const char *footer);
/* Write the document; draws page numbers first. */
int pdf_save(struct pdf *pdf, const char *path, struct xr_err *err);
/* Pages so far. */
int pdf_page_count(const struct pdf *pdf);

/* Start a new page (the first call to any drawing function starts one
 * in portrait). */
int pdf_page_new(struct pdf *pdf, enum pdf_orient orient, struct xr_err *err);
/* Orientation of the next automatic page break. */
void pdf_set_orient(struct pdf *pdf, enum pdf_orient orient);
/* Break to a new page unless at least h points remain. */
int pdf_need(struct pdf *pdf, double h, struct xr_err *err);
/* Vertical space (points); never breaks a page. */
void pdf_space(struct pdf *pdf, double h);
/* Width between the margins of the current page, in points. */
double pdf_text_width(const struct pdf *pdf);
/* Orientation of the current page (of the next one before the first). */
enum pdf_orient pdf_orient(const struct pdf *pdf);

/* Width in points of UTF-8 text at a font size. */
double pdf_measure(struct pdf *pdf, const char *text, double size);

/* Heading: level 1 (title), 2 (section), 3 (subsection). Kept together
 * with at least some following content on the same page. */
int pdf_heading(struct pdf *pdf, int level, const char *text,
		struct xr_err *err);
/* A paragraph wrapped to the text width ('\n' forces a break); indent in
 * points from the left margin. */
int pdf_paragraph(struct pdf *pdf, double size, double indent, const char *text,
		  struct xr_err *err);

/*
 * Tables. Build the whole table, then draw it: the column widths come
 * from the content. Header rows are given as cells spanning one or more
 * columns; the body as rows of ncols cells. A cell holds UTF-8 text in
 * which '\n' breaks a line. When the table is wider than the page,
 * columns marked wrappable (default: none; if none fits, all) wrap, and
 * the font shrinks down to 6 pt as a last resort. Rules follow the
 * published ("booktabs") style: heavy top and bottom, light under the
 * header and under spanning header cells.
 */
enum pdf_align { PDF_LEFT = 0, PDF_RIGHT, PDF_CENTER };

struct pdf_table;
/* OUT: caller frees with pdf_table_free; NULL when out of memory. */
struct pdf_table *pdf_table_new(int ncols);
void pdf_table_free(struct pdf_table *t);
/* Caption above the table; cont is appended to it on continuation pages
 * (e.g. " (continued)"); both copied. */
int pdf_table_caption(struct pdf_table *t, const char *caption,
		      const char *cont);
void pdf_table_font_size(struct pdf_table *t, double size);
void pdf_table_align(struct pdf_table *t, int col, enum pdf_align a);
void pdf_table_wrap(struct pdf_table *t, int col, int wrappable);
/* No rules, no header emphasis: for key/value blocks. */
void pdf_table_plain(struct pdf_table *t, int plain);
/* Start a header row, then add its cells left to right. */
int pdf_table_head_row(struct pdf_table *t);
int pdf_table_head(struct pdf_table *t, const char *text, int span);
/* Start a body row, then add its ncols cells (missing cells are empty). */
int pdf_table_row(struct pdf_table *t);
int pdf_table_cell(struct pdf_table *t, const char *text);
int pdf_table_cellf(struct pdf_table *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int pdf_table_rows(const struct pdf_table *t);
/* Would the table fit unwrapped at its font size between the margins of a
 * page in this orientation? (To choose landscape for wide tables.) */
int pdf_table_fits(struct pdf *pdf, struct pdf_table *t,
		   enum pdf_orient orient);
int pdf_table_draw(struct pdf *pdf, struct pdf_table *t, struct xr_err *err);

/* Draw a grouped bar chart (chart.h) as one block that never breaks
 * across pages: its title, the unit above the y axis, bars, whiskers,
 * published markers, group labels and the legend. */
struct chart;
int pdf_chart_bars(struct pdf *pdf, const struct chart *c, struct xr_err *err);
/* Draw a chart of the runs (chart.h's chart_fig) with its title as one
 * block, c->w wide from the left margin. */
struct chart_fig;
int pdf_chart_fig(struct pdf *pdf, const struct chart_fig *c,
		  struct xr_err *err);

#endif
