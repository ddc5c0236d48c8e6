/*
 * Escaping of report text for each output format (reports/render). Every
 * string a writer takes from the model (title, description, factor and
 * level names, flag details, host facts) can come from a plan, a command
 * line or a command's output, so none of it is trusted:
 *
 *  - ill-formed UTF-8 is replaced by U+FFFD (one per bad byte, as
 *    utf8_next() walks it) and counted, so that the writer can warn once;
 *  - HTML-significant characters become entities (HTML, and Markdown,
 *    where a renderer would pass raw HTML through);
 *  - line breaks are flattened where a break would end the construct
 *    (a Markdown heading, table cell or list item);
 *  - a CSV field that a spreadsheet would read as a formula is prefixed
 *    with an apostrophe (schema/report.md, "CSV").
 *
 * The functions append to a struct buf (runner/base/buf.h) and return the
 * number of ill-formed bytes they replaced, or -XR_ENOMEM (xr_code.h).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_ESCAPE_H
#define XR_ESCAPE_H

#include <stdio.h>

#include "buf.h"

/* Flags for esc_md(). */
enum {
	ESC_MD_CELL = 1,  /* inside a pipe table: '|' as "\|" */
	ESC_MD_BLOCK = 2, /* a paragraph: line breaks kept, Markdown kept */
};

/* s with ill-formed UTF-8 replaced by U+FFFD; nothing else changes. */
int esc_utf8(struct buf *b, const char *s);

/* HTML text or a quoted attribute value: & < > " ' as entities, the
 * control characters other than tab and line breaks dropped. */
int esc_html(struct buf *b, const char *s);

/*
 * Markdown text. Always: & and < as entities (no raw HTML, no autolink),
 * and > too when the text holds a '<' (so no tag can close); a '>' in
 * text without one is plain ("need >= 3 runs"), "\>" when it would
 * start the line; other control characters dropped. Without
 * ESC_MD_BLOCK, every line break (CR, LF, U+2028, U+2029) becomes one
 * space, so a title cannot start a new heading or block, and a ']'
 * followed by '(' or '[' is escaped with a backslash, so a value cannot
 * become a link or an image ("[95% CI]" stays as it is). ESC_MD_BLOCK
 * keeps the text's own Markdown and line breaks (the plan's description)
 * but not its raw HTML.
 */
int esc_md(struct buf *b, const char *s, unsigned flags);

/*
 * One RFC 4180 CSV field: quoted when it holds a comma, quote, CR or LF.
 * A field starting with '=', '+', '-', '@', tab or CR that is not a
 * number is prefixed with an apostrophe (OWASP "CSV injection"), so a
 * spreadsheet shows it as text; numbers ("-3", "+1e5") stay numbers.
 */
int esc_csv(struct buf *b, const char *s);

/* Whether a CSV field would be read as a formula (esc_csv prefixes it). */
int esc_csv_is_formula(const char *s);

/*
 * Counts what the escaping replaced in one report, for the one warning
 * a writer prints when it is done (esc_warn).
 */
struct esc_count {
	long bad_utf8; /* ill-formed bytes replaced by U+FFFD */
	long no_glyph; /* characters the PDF font lacks, drawn as '?' */
	unsigned long first_missing; /* the first of those */
};

/* Add the return value of an esc_* call (ignores -XR_ENOMEM). */
void esc_count_add(struct esc_count *c, int replaced);

/* Print "xrun: warning: ..." lines to f for what c counted in the report
 * of format fmt ("markdown", "pdf" ...); nothing when c is all zero. */
void esc_warn(const struct esc_count *c, const char *fmt, FILE *f);

#endif
