/*
 * PDF layout core: embeds the TrueType font pdf_font.c finds (UTF-8, so the
 * same face prints English and Japanese and pdftotext gets the text back),
 * owns the libharu document and its error state, keeps the page list and
 * the flowing cursor, measures and wraps UTF-8 text, and draws headings,
 * paragraphs and page footers. Tables live in pdf_table.c, charts in
 * pdf_chart.c.
 *
 * libharu reports errors through a callback and then returns an error
 * status; the callback only records the first error here, and every public
 * function turns a recorded error into a clean -XR_EREPORT.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef XRUN_HAVE_FONTCONFIG
#include <fontconfig/fontconfig.h>
#endif

#include "buf.h"
#include "pdf_font.h"
#include "pdf_int.h"
#include "utf8.h"
#include "wfile.h"

#include "banned.h"

#define MARGIN 50.0

static void on_hpdf_error(HPDF_STATUS code, HPDF_STATUS detail, void *user)
{
	struct pdf *pdf = user;

	if (pdf && !pdf->failed) {
		pdf->failed = 1;
		pdf->hcode = (unsigned long)code;
		pdf->hdetail = (unsigned long)detail;
	}
}

int pdf_check(struct pdf *pdf, struct xr_err *err)
{
	if (!pdf->failed)
		return 0;
	return xr_err_set(err, XR_EREPORT, NULL, 0, 0,
			  "pdf library error 0x%04lx (detail %lu)", pdf->hcode,
			  pdf->hdetail);
}

/* --- document ---------------------------------------------------------- */

int pdf_new(struct pdf **out, const char *font_path, struct xr_err *err)
{
	char path[4096];
	const char *name;
	struct pdf *pdf;
	int idx, rc, i;
	size_t n;

	*out = NULL;
	rc = pdf_find_font(font_path, path, sizeof(path), &idx, err);
	if (rc < 0)
		return rc;
	pdf = calloc(1, sizeof(*pdf));
	if (!pdf)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	for (i = 0; i < 128; i++)
		pdf->ascii_w[i] = -1;
	pdf->ml = pdf->mr = pdf->mt = MARGIN;
	pdf->mb = MARGIN + 10; /* room for the footer */
	pdf->doc = pdf_mem_doc(on_hpdf_error, pdf);
	if (!pdf->doc) {
		free(pdf);
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
				  "cannot create pdf document: out of memory");
	}
	HPDF_SetCompressionMode(pdf->doc, HPDF_COMP_ALL);
	HPDF_UseUTFEncodings(pdf->doc);
	HPDF_SetCurrentEncoder(pdf->doc, "UTF-8");
	pdf_mem_utf8(pdf->doc);
	n = strlen(path);
	if (n > 4 && strcasecmp(path + n - 4, ".ttc") == 0)
		name = HPDF_LoadTTFontFromFile2(pdf->doc, path, (HPDF_UINT)idx,
						HPDF_TRUE);
	else
		name = HPDF_LoadTTFontFromFile(pdf->doc, path, HPDF_TRUE);
	if (name && !pdf->failed)
		pdf->font = HPDF_GetFont(pdf->doc, name, "UTF-8");
	if (pdf->font && !pdf->failed)
		pdf_font_fix_tounicode(pdf->font);
	pdf->font_path = strdup(path);
	pdf->font_index = idx;
	pdf->font_origin = font_path && *font_path ? "font option"
			   : getenv("XRUN_FONT") && *getenv("XRUN_FONT")
			       ? "XRUN_FONT"
			       : "discovered";
	if (!name || !pdf->font || pdf->failed) {
		rc =
		    xr_err_set(err, XR_EFONT, path, 0, 0,
			       "cannot embed font '%s' (libharu error 0x%04lx):"
			       " a TrueType (.ttf/.ttc) font with glyf "
			       "outlines is needed; %s",
			       path, pdf->hcode, PDF_NO_FONT_MSG);
		pdf_free(pdf);
		return rc;
	}
	*out = pdf;
	return 0;
}

void pdf_free(struct pdf *pdf)
{
	if (!pdf)
		return;
	if (pdf->doc)
		HPDF_Free(pdf->doc);
#ifdef XRUN_HAVE_FONTCONFIG
	if (pdf->charset)
		FcCharSetDestroy(pdf->charset);
#endif
	free(pdf->pages);
	free(pdf->footer);
	free(pdf->font_path);
	free(pdf);
}

void pdf_abandon(struct pdf *pdf)
{
	if (!pdf)
		return;
	pdf->doc = NULL; /* libharu's, half built: not freed */
	pdf_free(pdf);
}

void pdf_set_info(struct pdf *pdf, const char *title, const char *creator)
{
	/* Info strings go through the current (UTF-8) encoder, which
	 * wants well-formed UTF-8 (the bytes are counted when drawn). */
	if (title) {
		struct buf b = BUF_INIT;
		if (esc_utf8(&b, title) >= 0 && b.s)
			HPDF_SetInfoAttr(pdf->doc, HPDF_INFO_TITLE, b.s);
		buf_release(&b);
	}
	if (creator)
		HPDF_SetInfoAttr(pdf->doc, HPDF_INFO_CREATOR, creator);
}

void pdf_set_footer(struct pdf *pdf, const char *footer)
{
	free(pdf->footer);
	pdf->footer = footer ? strdup(footer) : NULL;
}

int pdf_page_count(const struct pdf *pdf)
{
	return pdf->npages;
}

void pdf_set_orient(struct pdf *pdf, enum pdf_orient orient)
{
	pdf->orient = orient;
}

int pdf_page_new(struct pdf *pdf, enum pdf_orient orient, struct xr_err *err)
{
	HPDF_Page page;

	if (pdf_check(pdf, err) < 0)
		return -XR_EREPORT;
	if (pdf->npages == pdf->cappages) {
		int cap = pdf->cappages ? pdf->cappages * 2 : 16;
		HPDF_Page *np = realloc(pdf->pages, (size_t)cap * sizeof(*np));

		if (!np)
			return xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
					  "out of memory");
		pdf->pages = np;
		pdf->cappages = cap;
	}
	page = HPDF_AddPage(pdf->doc);
	if (!page)
		return pdf_check(pdf, err) < 0
			   ? -XR_EREPORT
			   : xr_err_set(err, XR_EREPORT, NULL, 0, 0,
					"cannot add page");
	HPDF_Page_SetSize(page, HPDF_PAGE_SIZE_A4,
			  orient == PDF_LANDSCAPE ? HPDF_PAGE_LANDSCAPE
						  : HPDF_PAGE_PORTRAIT);
	pdf->pages[pdf->npages++] = page;
	pdf->page = page;
	pdf->orient = orient;
	pdf->pw = HPDF_Page_GetWidth(page);
	pdf->ph = HPDF_Page_GetHeight(page);
	pdf->y = pdf->ph - pdf->mt;
	return pdf_check(pdf, err);
}

int pdf_ensure_page(struct pdf *pdf, struct xr_err *err)
{
	if (pdf->page)
		return pdf_check(pdf, err);
	return pdf_page_new(pdf, pdf->orient, err);
}

int pdf_need(struct pdf *pdf, double h, struct xr_err *err)
{
	int rc = pdf_ensure_page(pdf, err);

	if (rc < 0)
		return rc;
	/* A fresh page is as good as it gets: never loop on huge blocks. */
	if (pdf->y - h < pdf->mb && pdf->y < pdf->ph - pdf->mt - 0.5)
		return pdf_page_new(pdf, pdf->orient, err);
	return 0;
}

void pdf_space(struct pdf *pdf, double h)
{
	pdf->y -= h;
	if (pdf->y < pdf->mb)
		pdf->y = pdf->mb;
}

double pdf_text_width(const struct pdf *pdf)
{
	double pw = pdf->page ? pdf->pw : 595.276;

	if (!pdf->page && pdf->orient == PDF_LANDSCAPE)
		pw = 841.89;
	return pw - pdf->ml - pdf->mr;
}

enum pdf_orient pdf_orient(const struct pdf *pdf)
{
	if (!pdf->page)
		return pdf->orient;
	return pdf->pw > pdf->ph ? PDF_LANDSCAPE : PDF_PORTRAIT;
}

/* --- glyph coverage -------------------------------------------------- */

#ifdef XRUN_HAVE_FONTCONFIG
/* Kana, kanji and their punctuation and full-width forms (not emoji: a
 * title's emoji is no reason to refuse a Japanese font). */
static int is_cjk(unsigned long cp)
{
	return (cp >= 0x2E80 && cp <= 0x9FFF) ||
	       (cp >= 0xF900 && cp <= 0xFAFF) ||
	       (cp >= 0xFF00 && cp <= 0xFFEF) ||
	       (cp >= 0x20000 && cp <= 0x2FFFF);
}
#endif

int pdf_require_japanese(struct pdf *pdf, const char *text, struct xr_err *err)
{
#ifdef XRUN_HAVE_FONTCONFIG
	/* Hiragana, katakana and two kanji every Japanese report prints
	 * (比較: comparison). */
	static const unsigned long sample[] = {0x3042, 0x30A2, 0x6F22, 0x6BD4};
	unsigned long missing = 0;
	FcPattern *pat;
	FcCharSet *cs = NULL;
	const char *p;
	size_t i;
	int count = 0;

	if (!pdf->font_path)
		return 0;
	pat = FcFreeTypeQuery((const FcChar8 *)pdf->font_path,
			      (unsigned)pdf->font_index, NULL, &count);
	if (!pat)
		return 0; /* not a file fontconfig reads: libharu decided */
	if (FcPatternGetCharSet(pat, FC_CHARSET, 0, &cs) != FcResultMatch) {
		FcPatternDestroy(pat);
		return 0;
	}
	for (i = 0; !missing && i < sizeof(sample) / sizeof(sample[0]); i++)
		if (!FcCharSetHasChar(cs, (FcChar32)sample[i]))
			missing = sample[i];
	for (p = text; !missing && p && *p;) {
		uint32_t cp;

		p += utf8_next(p, SIZE_MAX, &cp);
		if (is_cjk(cp) && !FcCharSetHasChar(cs, (FcChar32)cp))
			missing = cp;
	}
	FcPatternDestroy(pat);
	if (missing)
		return xr_err_set(err, XR_EFONT, pdf->font_path, 0, 0,
				  "font '%s' (%s) lacks Japanese glyphs "
				  "(U+%04lX); %s",
				  pdf->font_path, pdf->font_origin, missing,
				  PDF_NO_FONT_MSG);
#else
	(void)pdf;
	(void)text;
	(void)err;
#endif
	return 0;
}

/* --- characters the font cannot draw ------------------------------------ */

/* Whether the embedded font has a glyph for cp. With fontconfig, the
 * font's own character set; without it, the Basic Multilingual Plane
 * (libharu's UTF-8 encoder drops characters beyond it, emoji among
 * them). Controls are left to the layout. */
static int has_glyph(struct pdf *pdf, uint32_t cp)
{
	if (cp < 0x20)
		return 1;
#ifdef XRUN_HAVE_FONTCONFIG
	if (!pdf->charset_tried && pdf->font_path) {
		FcCharSet *cs = NULL;
		int count = 0;
		FcPattern *pat =
		    FcFreeTypeQuery((const FcChar8 *)pdf->font_path,
				    (unsigned)pdf->font_index, NULL, &count);
		pdf->charset_tried = 1;
		if (pat && FcPatternGetCharSet(pat, FC_CHARSET, 0, &cs) ==
			       FcResultMatch)
			pdf->charset = FcCharSetCopy(cs);
		if (pat)
			FcPatternDestroy(pat);
	}
	if (pdf->charset)
		return FcCharSetHasChar(pdf->charset, (FcChar32)cp) ? 1 : 0;
#endif
	return cp <= 0xFFFF;
}

/*
 * What is drawn for the n bytes at s: NULL when they are drawn as they
 * are, else the visible replacement: U+FFFD (or '?' when the font lacks
 * it) for an ill-formed byte, '?' for a character the font has no glyph
 * for. *bad tells which (1 ill-formed, 2 no glyph) for the warning.
 */
static const char *substitute(struct pdf *pdf, const char *s, size_t n,
			      uint32_t *cp, int *bad)
{
	*bad = 0;
	if (utf8_decode(s, n, cp) == 0) {
		*bad = 1;
		return has_glyph(pdf, 0xFFFD) ? "\xef\xbf\xbd" : "?";
	}
	if (*cp < 0x80 || has_glyph(pdf, *cp))
		return NULL;
	*bad = 2;
	return "?";
}

/* --- text measuring and wrapping --------------------------------------- */

/* Advance width of one character at 1 pt. */
static double char_w(struct pdf *pdf, const char *s, size_t n)
{
	HPDF_TextWidth tw;
	unsigned char c = (unsigned char)s[0];
	const char *rep;
	uint32_t cp;
	int bad;

	if (n == 1 && c < 128 && pdf->ascii_w[c] >= 0)
		return pdf->ascii_w[c];
	/* Measured as drawn: a replacement takes the replacement's width. */
	if (c >= 128 && (rep = substitute(pdf, s, n, &cp, &bad)) != NULL) {
		s = rep;
		n = strlen(rep);
	}
	tw = HPDF_Font_TextWidth(pdf->font, (const HPDF_BYTE *)s, (HPDF_UINT)n);
	if (n == 1 && c < 128)
		pdf->ascii_w[c] = tw.width / 1000.0;
	return tw.width / 1000.0;
}

double pdf_measure_n(struct pdf *pdf, const char *s, size_t len, double size)
{
	double w = 0;
	size_t i = 0, n;

	while (i < len) {
		uint32_t cp;

		n = utf8_next(s + i, len - i, &cp);
		w += char_w(pdf, s + i, n);
		i += n;
	}
	return w * size;
}

double pdf_measure(struct pdf *pdf, const char *text, double size)
{
	return text ? pdf_measure_n(pdf, text, strlen(text), size) : 0;
}

/* CJK text may break between any two characters (no spaces in Japanese). */
static int is_wide(unsigned long cp)
{
	return (cp >= 0x3000 && cp <= 0x9FFF) ||
	       (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFF00 && cp <= 0xFFEF);
}

/* Japanese line-breaking rules (kinsoku): closing punctuation, the long
 * vowel mark and small kana never start a line; opening brackets never end
 * one. */
static int no_break_before(unsigned long cp)
{
	static const unsigned long cl[] = {
	    0x3001, 0x3002, 0xFF0C, 0xFF0E, 0xFF09, 0x300D, 0x300F, 0x3011,
	    0xFF01, 0xFF1F, 0xFF1A, 0xFF1B, 0x30FC, 0x3005, 0x309D, 0x30FD,
	    0x3063, 0x30C3, 0x3083, 0x3085, 0x3087, 0x30E3, 0x30E5, 0x30E7,
	};
	size_t i;
	for (i = 0; i < sizeof cl / sizeof *cl; i++)
		if (cp == cl[i])
			return 1;
	return 0;
}

static int no_break_after(unsigned long cp)
{
	return cp == 0xFF08 || cp == 0x300C || cp == 0x300E || cp == 0x3010;
}

/* Characters after which a line may break without a space. */
static int breaks_after(unsigned long cp)
{
	return cp == '/' || cp == ',' || cp == ';' || cp == '-' || cp == '=' ||
	       cp == ')' || (is_wide(cp) && !no_break_after(cp));
}

static int push_line(struct pdf_line **lines, int *n, int *cap, const char *s,
		     size_t len)
{
	if (*n == *cap) {
		int nc = *cap ? *cap * 2 : 4;
		struct pdf_line *nl = realloc(*lines, (size_t)nc * sizeof(*nl));

		if (!nl)
			return -XR_ENOMEM;
		*lines = nl;
		*cap = nc;
	}
	/* Trailing spaces at a break are not part of the line. */
	while (len > 0 && s[len - 1] == ' ')
		len--;
	(*lines)[*n].s = s;
	(*lines)[(*n)++].len = len;
	return 0;
}

int pdf_wrap(struct pdf *pdf, const char *text, double size, double width,
	     struct pdf_line **lines)
{
	const char *start, *p, *brk = NULL, *pbrk = NULL;
	double w = 0, wbrk = 0, pwbrk = 0;
	unsigned long prev = 0;
	int n = 0, cap = 0;

	*lines = NULL;
	if (!text)
		text = "";
	start = p = text;
	width /= size > 0 ? size : 1;
	while (*p) {
		uint32_t cp;
		size_t cl = utf8_next(p, SIZE_MAX, &cp);
		double cw;

		if (cp == '\n') {
			if (push_line(lines, &n, &cap, start,
				      (size_t)(p - start)))
				goto oom;
			start = p + 1;
			p++;
			brk = NULL;
			w = 0;
			continue;
		}
		cw = char_w(pdf, p, cl);
		/* No break just before closing punctuation: fall back to the
		 * opportunity before. */
		if (no_break_before(cp) && brk == p)
			brk = pbrk, wbrk = pwbrk;
		/* A break opportunity before a wide character too. */
		else if (is_wide(cp) && p > start && !no_break_before(cp) &&
			 !no_break_after(prev) && brk != p)
			pbrk = brk, pwbrk = wbrk, brk = p, wbrk = w;
		if (w + cw > width && p > start && cp != ' ') {
			const char *cut = brk && brk > start ? brk : p;

			if (push_line(lines, &n, &cap, start,
				      (size_t)(cut - start)))
				goto oom;
			w = cut == p ? 0 : w - wbrk;
			start = cut;
			while (*start == ' ') {
				w -= char_w(pdf, start, 1);
				start++;
			}
			if (w < 0)
				w = 0;
			brk = pbrk = NULL;
		}
		w += cw;
		p += cl;
		prev = cp;
		if (cp == ' ' || breaks_after(cp))
			pbrk = brk, pwbrk = wbrk, brk = p, wbrk = w;
	}
	if (push_line(lines, &n, &cap, start, (size_t)(p - start)))
		goto oom;
	return n;
oom:
	free(*lines);
	*lines = NULL;
	return -XR_ENOMEM;
}

double pdf_min_width(struct pdf *pdf, const char *text, double size)
{
	double best = 0, w = 0;
	const char *p = text ? text : "";

	/* The widest run between two break opportunities. */
	while (*p) {
		uint32_t cp;
		size_t cl = utf8_next(p, SIZE_MAX, &cp);

		if (is_wide(cp) || cp == ' ' || cp == '\n')
			w = 0;
		if (cp != ' ' && cp != '\n')
			w += char_w(pdf, p, cl);
		if (w > best)
			best = w;
		if (breaks_after(cp))
			w = 0;
		p += cl;
	}
	return best * size;
}

/* --- drawing ----------------------------------------------------------- */

/* The Japanese face draws ASCII '~' as a raised tilde, which reads as a
 * superscript in "~ (p=0.41)"; lowering that glyph keeps the character
 * (and so the extracted text) while it looks like a plain tilde. */
static void show_text(struct pdf *pdf, char *s, double size)
{
	char *t;

	while ((t = strchr(s, '~')) != NULL) {
		*t = '\0';
		if (*s)
			HPDF_Page_ShowText(pdf->page, s);
		HPDF_Page_SetTextRise(pdf->page, (HPDF_REAL)(-0.2 * size));
		HPDF_Page_ShowText(pdf->page, "~");
		HPDF_Page_SetTextRise(pdf->page, 0);
		s = t + 1;
	}
	if (*s)
		HPDF_Page_ShowText(pdf->page, s);
}

void pdf_draw_text(struct pdf *pdf, double x, double y, double size,
		   const char *s, size_t len, int bold)
{
	char small[512];
	char *tmp = small;
	size_t i = 0, k = 0;

	if (len == 0)
		return;
	/* HPDF_Page_TextOut wants a NUL-terminated string; a replacement
	 * ('?' or U+FFFD, 3 bytes) is never longer than what it replaces
	 * times three. */
	if (3 * len >= sizeof(small)) {
		tmp = malloc(3 * len + 1);
		if (!tmp)
			return;
	}
	while (i < len) {
		uint32_t cp;
		size_t n = utf8_next(s + i, len - i, &cp);
		int bad = 0;
		const char *rep = (unsigned char)s[i] >= 128
				      ? substitute(pdf, s + i, n, &cp, &bad)
				      : NULL;
		if (bad == 1) {
			pdf->esc.bad_utf8++;
		} else if (bad == 2 && !pdf->esc.no_glyph++) {
			pdf->esc.first_missing = cp;
		}
		if (rep) {
			memcpy(tmp + k, rep, strlen(rep));
			k += strlen(rep);
		} else {
			memcpy(tmp + k, s + i, n);
			k += n;
		}
		i += n;
	}
	tmp[k] = '\0';
	if (bold) {
		HPDF_Page_SetTextRenderingMode(pdf->page,
					       HPDF_FILL_THEN_STROKE);
		HPDF_Page_SetLineWidth(pdf->page, size * 0.035);
	}
	HPDF_Page_BeginText(pdf->page);
	HPDF_Page_SetFontAndSize(pdf->page, pdf->font, (HPDF_REAL)size);
	HPDF_Page_MoveTextPos(pdf->page, (HPDF_REAL)x, (HPDF_REAL)y);
	show_text(pdf, tmp, size);
	HPDF_Page_EndText(pdf->page);
	if (bold)
		HPDF_Page_SetTextRenderingMode(pdf->page, HPDF_FILL);
	if (tmp != small)
		free(tmp);
}

void pdf_hline(struct pdf *pdf, double x0, double x1, double y, double w)
{
	HPDF_Page_SetLineWidth(pdf->page, (HPDF_REAL)w);
	HPDF_Page_MoveTo(pdf->page, (HPDF_REAL)x0, (HPDF_REAL)y);
	HPDF_Page_LineTo(pdf->page, (HPDF_REAL)x1, (HPDF_REAL)y);
	HPDF_Page_Stroke(pdf->page);
}

static int draw_wrapped(struct pdf *pdf, double size, double lead,
			double indent, const char *text, int bold,
			struct xr_err *err)
{
	struct pdf_line *lines = NULL;
	double width;
	int n, i, rc = 0;

	rc = pdf_ensure_page(pdf, err);
	if (rc < 0)
		return rc;
	width = pdf_text_width(pdf) - indent;
	n = pdf_wrap(pdf, text, size, width, &lines);
	if (n < 0)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	for (i = 0; i < n && rc == 0; i++) {
		rc = pdf_need(pdf, lead, err);
		if (rc < 0)
			break;
		pdf_draw_text(pdf, pdf->ml + indent, pdf->y - size * PDF_ASCENT,
			      size, lines[i].s, lines[i].len, bold);
		pdf->y -= lead;
	}
	free(lines);
	return rc < 0 ? rc : pdf_check(pdf, err);
}

int pdf_heading(struct pdf *pdf, int level, const char *text,
		struct xr_err *err)
{
	double size = level <= 1 ? 17 : level == 2 ? 13 : 10.5;
	double before = level <= 1 ? 0 : level == 2 ? 14 : 8;
	int rc = pdf_ensure_page(pdf, err);

	if (rc < 0)
		return rc;
	/* Keep the heading with the start of what follows it. */
	rc = pdf_need(pdf, before + size * 1.5 + 60, err);
	if (rc < 0)
		return rc;
	if (pdf->y < pdf->ph - pdf->mt - 0.5)
		pdf_space(pdf, before);
	rc = draw_wrapped(pdf, size, size * 1.3, 0, text, 1, err);
	if (rc < 0)
		return rc;
	if (level == 2) {
		HPDF_Page_SetGrayStroke(pdf->page, 0.55);
		pdf_hline(pdf, pdf->ml, pdf->ml + pdf_text_width(pdf),
			  pdf->y + size * 0.1, 0.5);
		HPDF_Page_SetGrayStroke(pdf->page, 0);
	}
	pdf_space(pdf, level <= 1 ? 8 : 5);
	return pdf_check(pdf, err);
}

int pdf_paragraph(struct pdf *pdf, double size, double indent, const char *text,
		  struct xr_err *err)
{
	if (size <= 0)
		size = 9;
	return draw_wrapped(pdf, size, size * 1.4, indent, text, 0, err);
}

static void draw_footers(struct pdf *pdf)
{
	char num[64];
	double size = 7.5, w;
	int i;

	for (i = 0; i < pdf->npages; i++) {
		HPDF_Page page = pdf->pages[i];
		double pw = HPDF_Page_GetWidth(page);
		HPDF_Page cur = pdf->page;

		pdf->page = page;
		HPDF_Page_SetGrayFill(page, 0.4);
		snprintf(num, sizeof(num), "%d / %d", i + 1, pdf->npages);
		w = pdf_measure(pdf, num, size);
		pdf_draw_text(pdf, pw - pdf->mr - w, MARGIN - 20, size, num,
			      strlen(num), 0);
		if (pdf->footer)
			pdf_draw_text(pdf, pdf->ml, MARGIN - 20, size,
				      pdf->footer, strlen(pdf->footer), 0);
		HPDF_Page_SetGrayFill(page, 0);
		pdf->page = cur;
	}
}

/* The finished document in memory (libharu's stream), handed to the one
 * writer: libharu never opens the target itself. */
static int save_bytes(struct pdf *pdf, const char *path, struct xr_err *err)
{
	HPDF_UINT32 size, got;
	HPDF_BYTE *data;
	HPDF_STATUS st;
	int rc;

	if (HPDF_SaveToStream(pdf->doc) != HPDF_OK || pdf->failed)
		return pdf_check(pdf, err);
	size = HPDF_GetStreamSize(pdf->doc);
	data = malloc(size ? size : 1);
	if (!data)
		return xr_err_set(err, XR_ENOMEM, path, 0, 0,
				  "out of memory rendering '%s'", path);
	got = size;
	HPDF_ResetStream(pdf->doc);
	st = HPDF_ReadFromStream(pdf->doc, data, &got);
	if ((st != HPDF_OK && st != HPDF_STREAM_EOF) || got != size)
		rc = xr_err_set(err, XR_EREPORT, path, 0, 0,
				"cannot render '%s': pdf library error 0x%04lx",
				path, (unsigned long)st);
	else
		rc = wfile_write(path, data, size, err);
	free(data);
	return rc;
}

int pdf_save(struct pdf *pdf, const char *path, struct xr_err *err)
{
	int rc = pdf_ensure_page(pdf, err);

	if (rc < 0)
		return rc;
	draw_footers(pdf);
	/* Drawn text that could not be drawn as it is: said once. */
	esc_warn(&pdf->esc, "pdf", stderr);
	if (pdf_check(pdf, err) < 0)
		return -XR_EREPORT;
	return save_bytes(pdf, path, err);
}
