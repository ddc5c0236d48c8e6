/*
 * Escaping of untrusted report text per output format (escape.h): the one
 * place that knows which characters are significant in HTML, Markdown and
 * spreadsheets, and the one place that replaces ill-formed UTF-8.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xr_err.h"
#include "escape.h"
#include "utf8.h"
#include "banned.h"

#define REPLACEMENT "\xef\xbf\xbd" /* U+FFFD */

/* What one character becomes in a format: NULL keeps it as it is. */
typedef const char *(*esc_map)(uint32_t cp, char next, unsigned flags);

/* Walk s character by character; ill-formed bytes become U+FFFD and are
 * counted; each well-formed character goes through map. */
static int walk(struct buf *b, const char *s, esc_map map, unsigned flags)
{
	int bad = 0;
	size_t n = s ? strlen(s) : 0, i = 0;
	while (i < n) {
		uint32_t cp;
		size_t k = utf8_decode(s + i, n - i, &cp);
		const char *rep;
		int rc;
		if (k == 0) {
			bad++;
			rc = buf_adds(b, REPLACEMENT);
			k = 1;
		} else if (map && (rep = map(cp, s[i + k], flags)) != NULL) {
			rc = buf_adds(b, rep);
		} else {
			rc = buf_add(b, s + i, k);
		}
		if (rc < 0)
			return -XR_ENOMEM;
		i += k;
	}
	return bad;
}

/* C0 controls other than tab and line breaks, DEL, and C1 controls: they
 * have no business in a report and some renderers choke on them. */
static int is_control(uint32_t cp)
{
	return (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') ||
	       (cp >= 0x7f && cp < 0xa0);
}

static int is_break(uint32_t cp)
{
	return cp == '\n' || cp == '\r' || cp == 0x2028 || cp == 0x2029;
}

int esc_utf8(struct buf *b, const char *s)
{
	return walk(b, s, NULL, 0);
}

static const char *map_html(uint32_t cp, char next, unsigned flags)
{
	(void)next;
	(void)flags;
	switch (cp) {
	case '&':
		return "&amp;";
	case '<':
		return "&lt;";
	case '>':
		return "&gt;";
	case '"':
		return "&quot;";
	case '\'':
		return "&#39;";
	}
	return is_control(cp) ? "" : NULL;
}

int esc_html(struct buf *b, const char *s)
{
	return walk(b, s, map_html, 0);
}

/* esc_md's own flag: the text has no '<', so a '>' cannot close a tag
 * and stays as it is ("need >= 3 runs"). */
#define ESC_MD_GT_TEXT (1u << 8)

static const char *map_md(uint32_t cp, char next, unsigned flags)
{
	switch (cp) {
	case '&':
		return "&amp;";
	case '<':
		return "&lt;";
	case '>':
		return (flags & ESC_MD_GT_TEXT) ? NULL : "&gt;";
	case '|':
		return (flags & ESC_MD_CELL) ? "\\|" : NULL;
	case ']':
		/* "](" and "][" close a link or an image; a lone bracket
		 * ("[95% CI]", "[3]") is text and stays as it is. */
		return !(flags & ESC_MD_BLOCK) && (next == '(' || next == '[')
			   ? "\\]"
			   : NULL;
	}
	if (is_break(cp))
		return (flags & ESC_MD_BLOCK) ? NULL : " ";
	return is_control(cp) ? "" : NULL;
}

int esc_md(struct buf *b, const char *s, unsigned flags)
{
	if (s && !strchr(s, '<')) {
		flags |= ESC_MD_GT_TEXT;
		/* Flattened text at a line start must not open a quote. */
		if (*s == '>' && !(flags & ESC_MD_BLOCK)) {
			if (buf_adds(b, "\\>") < 0)
				return -XR_ENOMEM;
			s++;
		}
	}
	return walk(b, s, map_md, flags);
}

int esc_csv_is_formula(const char *s)
{
	char *end;
	if (!s || !strchr("=+-@\t\r", *s) || !*s)
		return 0;
	/* "-3", "+1e5", "-inf" are values a spreadsheet should compute on;
	 * strtod accepts exactly those (and hex, harmless). */
	if (*s == '+' || *s == '-') {
		(void)strtod(s, &end);
		if (end != s && *end == '\0')
			return 0;
	}
	return 1;
}

int esc_csv(struct buf *b, const char *s)
{
	struct buf t = BUF_INIT;
	int bad, quote;
	size_t i;
	if (!s)
		return 0;
	if (esc_csv_is_formula(s) && buf_addc(&t, '\'') < 0)
		goto oom;
	if ((bad = walk(&t, s, NULL, 0)) < 0)
		goto oom;
	quote = t.len && strpbrk(t.s, ",\"\r\n") != NULL;
	if (quote && buf_addc(b, '"') < 0)
		goto oom;
	for (i = 0; i < t.len; i++) {
		if (t.s[i] == '"' && buf_addc(b, '"') < 0)
			goto oom;
		if (buf_addc(b, t.s[i]) < 0)
			goto oom;
	}
	if (quote && buf_addc(b, '"') < 0)
		goto oom;
	buf_release(&t);
	return bad;
oom:
	buf_release(&t);
	return -XR_ENOMEM;
}

void esc_count_add(struct esc_count *c, int replaced)
{
	if (replaced > 0)
		c->bad_utf8 += replaced;
}

void esc_warn(const struct esc_count *c, const char *fmt, FILE *f)
{
	if (c->bad_utf8)
		fprintf(f,
			"xrun: warning: %s report: %ld ill-formed UTF-8 "
			"byte%s replaced by U+FFFD%s\n",
			fmt, c->bad_utf8, c->bad_utf8 == 1 ? "" : "s",
			strcmp(fmt, "pdf") ? "" : " (or '?')");
	if (c->no_glyph)
		fprintf(f,
			"xrun: warning: %s report: %ld character%s the font "
			"lacks (first U+%04lX) drawn as '?'\n",
			fmt, c->no_glyph, c->no_glyph == 1 ? "" : "s",
			c->first_missing);
}
