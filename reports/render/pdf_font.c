/*
 * Finding the TrueType font a PDF report embeds (pdf_font.h): an explicit
 * path, $XRUN_FONT, IPAexGothic at its Debian path, fontconfig's Japanese
 * Gothic faces, then a few more Debian paths. Only the file is chosen here;
 * pdf.c loads and measures it. Also the ToUnicode map libharu writes for it,
 * rewritten (pdf_font.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef XRUN_HAVE_FONTCONFIG
#include <fontconfig/fontconfig.h>
#endif

#include "pdf_font.h"

#include "banned.h"

static int readable_font(const char *p)
{
	return p && *p && access(p, R_OK) == 0;
}

static int copy_path(char *dst, size_t dstsz, const char *src)
{
	int n = snprintf(dst, dstsz, "%s", src);

	return n >= 0 && (size_t)n < dstsz;
}

#ifdef XRUN_HAVE_FONTCONFIG
/* A match is usable when it is a TrueType-outline font (libharu cannot
 * embed CFF) that has kanji and kana. fontconfig always returns some
 * font, so the glyph check is what makes the match meaningful. */
static int fc_try(FcConfig *cfg, const char *family, char *path, size_t pathsz,
		  int *index)
{
	FcPattern *pat, *m;
	FcResult res;
	FcChar8 *file = NULL, *format = NULL;
	FcCharSet *cs = NULL;
	int ok = 0, idx = 0;

	pat = FcPatternCreate();
	if (!pat)
		return 0;
	if (family)
		FcPatternAddString(pat, FC_FAMILY, (const FcChar8 *)family);
	FcPatternAddString(pat, FC_LANG, (const FcChar8 *)"ja");
	FcConfigSubstitute(cfg, pat, FcMatchPattern);
	FcDefaultSubstitute(pat);
	m = FcFontMatch(cfg, pat, &res);
	FcPatternDestroy(pat);
	if (!m)
		return 0;
	if (FcPatternGetString(m, FC_FILE, 0, &file) == FcResultMatch &&
	    FcPatternGetString(m, FC_FONTFORMAT, 0, &format) == FcResultMatch &&
	    strcmp((const char *)format, "TrueType") == 0 &&
	    FcPatternGetCharSet(m, FC_CHARSET, 0, &cs) == FcResultMatch &&
	    FcCharSetHasChar(cs, 0x6BD4) && FcCharSetHasChar(cs, 0x3042) &&
	    readable_font((const char *)file)) {
		if (FcPatternGetInteger(m, FC_INDEX, 0, &idx) != FcResultMatch)
			idx = 0;
		ok = copy_path(path, pathsz, (const char *)file);
		*index = idx;
	}
	FcPatternDestroy(m);
	return ok;
}
#endif

int pdf_find_font(const char *font_path, char *path, size_t pathsz,
		  int *face_index, struct xr_err *err)
{
	static const char *const known[] = {
	    "/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf",
	    "/usr/share/fonts/truetype/fonts-japanese-gothic.ttf",
	    "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf",
	    "/usr/share/fonts/truetype/ipaexfont-gothic/ipaexg.ttf",
	};
	const char *env = getenv("XRUN_FONT");
	const char *nofc = getenv("XRUN_FONT_NOFC");
	const char *explicit_path = font_path && *font_path ? font_path : NULL;
	const char *origin = "font option";
	size_t i;
#ifdef XRUN_HAVE_FONTCONFIG
	FcConfig *cfg;
#endif

	*face_index = 0;
	if (!explicit_path && env && *env) {
		explicit_path = env;
		origin = "XRUN_FONT";
	}
	if (explicit_path) {
		if (!readable_font(explicit_path))
			return xr_err_set(err, XR_EFONT, explicit_path, 0, 0,
					  "cannot read font '%s' (%s): %s; %s",
					  explicit_path, origin,
					  strerror(errno), PDF_NO_FONT_MSG);
		if (!copy_path(path, pathsz, explicit_path))
			return xr_err_set(err, XR_EFONT, NULL, 0, 0,
					  "font path too long '%s'",
					  explicit_path);
		return 0;
	}
	if (nofc && strcmp(nofc, "0") != 0 && *nofc)
		return xr_err_set(err, XR_EFONT, NULL, 0, 0, "%s",
				  PDF_NO_FONT_MSG);
	/* The face xrun depends on (fonts-ipaexfont-gothic), where its Debian
	 * package puts it: found without fontconfig, whose configuration
	 * parser crashes when an allocation fails (FcRuleDestroy of a rule
	 * half built, e2e/fault_oom) and costs a scan of every font. */
	if (readable_font(known[0]) && copy_path(path, pathsz, known[0]))
		return 0;
#ifdef XRUN_HAVE_FONTCONFIG
	/* A private configuration, destroyed after the lookup: the global
	 * one (FcInit) stays allocated for the life of the process. */
	cfg = FcInitLoadConfigAndFonts();
	if (cfg) {
		static const char *const fams[] = {"IPAexGothic", "IPAGothic",
						   "IPAPGothic", NULL};
		int found = 0;

		for (i = 0; !found && i < sizeof(fams) / sizeof(fams[0]); i++)
			found = fc_try(cfg, fams[i], path, pathsz, face_index);
		FcConfigDestroy(cfg);
		if (found)
			return 0;
	}
#endif
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (readable_font(known[i]) &&
		    copy_path(path, pathsz, known[i]))
			return 0;
	return xr_err_set(err, XR_EFONT, NULL, 0, 0, "%s", PDF_NO_FONT_MSG);
}

/* Adobe Technical Note 5411's ToUnicode form. A bfrange may only vary the
 * last byte of its codes, so one row per high byte; at most 100 rows per
 * block (5014, "CMap syntax"). */
static const char tounicode_head[] =
    "/CIDInit /ProcSet findresource begin\n"
    "12 dict begin\n"
    "begincmap\n"
    "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> "
    "def\n"
    "/CMapName /Adobe-Identity-UCS def\n"
    "/CMapType 2 def\n"
    "1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n";
static const char tounicode_tail[] =
    "endcmap\n"
    "CMapName currentdict /CMap defineresource pop\n"
    "end\n"
    "end\n";

static int is_surrogate_row(unsigned hi)
{
	return hi >= 0xD8 && hi <= 0xDF;
}

int pdf_font_fix_tounicode(HPDF_Font font)
{
	HPDF_FontAttr attr;
	HPDF_Stream st;
	char row[48];
	unsigned hi, rows = 0, left = 0;

	if (!font || !(attr = (HPDF_FontAttr)font->attr) ||
	    attr->type != HPDF_FONT_TYPE0_TT || !attr->cmap_stream ||
	    !(st = attr->cmap_stream->stream) ||
	    HPDF_Dict_GetItem(font, "ToUnicode", HPDF_OCLASS_DICT) !=
		attr->cmap_stream)
		return -XR_EFONT;
	for (hi = 0; hi < 256; hi++)
		left += !is_surrogate_row(hi);
	HPDF_MemStream_FreeData(st);
	if (HPDF_Stream_WriteStr(st, tounicode_head) != HPDF_OK)
		return -XR_EFONT;
	for (hi = 0; hi < 256; hi++) {
		if (is_surrogate_row(hi))
			continue;
		if (rows == 0) {
			snprintf(row, sizeof row, "%u beginbfrange\n",
				 left < 100 ? left : 100);
			if (HPDF_Stream_WriteStr(st, row) != HPDF_OK)
				return -XR_EFONT;
		}
		snprintf(row, sizeof row, "<%02X00> <%02XFF> <%02X00>\n", hi,
			 hi, hi);
		if (HPDF_Stream_WriteStr(st, row) != HPDF_OK)
			return -XR_EFONT;
		left--;
		if (++rows == 100 || left == 0) {
			rows = 0;
			if (HPDF_Stream_WriteStr(st, "endbfrange\n") != HPDF_OK)
				return -XR_EFONT;
		}
	}
	return HPDF_Stream_WriteStr(st, tounicode_tail) == HPDF_OK ? 0 : -1;
}
