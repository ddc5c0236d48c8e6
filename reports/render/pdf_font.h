/*
 * Which TrueType font a PDF report embeds: the one rule for finding it and
 * the message shown when there is none; and the repair of libharu's
 * ToUnicode map for it.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_PDF_FONT_H
#define XR_PDF_FONT_H

#include <stddef.h>

#include <hpdf.h>

#include "xr_err.h"

/* Message used when no font can be found (tests match on its start). */
#define PDF_NO_FONT_MSG                                                        \
	"no usable TrueType font with Japanese glyphs found (install "         \
	"fonts-ipaexfont-gothic or set XRUN_FONT=/path/font.ttf)"

/*
 * Find the font to embed. Order: font_path when non-NULL, else $XRUN_FONT,
 * else fontconfig (IPAexGothic, IPAGothic, then any font for lang=ja with
 * TrueType outlines), else a few well-known Debian paths. XRUN_FONT_NOFC=1
 * turns off the discovery (fontconfig and well-known paths): only an
 * explicit path is used. OUT: path (NUL-terminated) and the face index for
 * .ttc collections. An explicit path that cannot be read is an error, not a
 * reason to fall back silently.
 */
int pdf_find_font(const char *font_path, char *path, size_t pathsz,
		  int *face_index, struct xr_err *err);

/*
 * libharu 2.3.0 gives a TrueType font under its UTF-8 encoder (a Type0
 * font, Identity-H, CID = the character's UTF-16 code, hpdf_font_cid.c
 * HPDF_Type0Font_New) a ToUnicode stream that is its encoding CMap: a
 * begincidrange, which a ToUnicode map may not hold (PDF 32000 9.10.3),
 * so poppler warns "Invalid 'begincidrange' operator in ToUnicode CMap"
 * on every page and copied text depends on the reader's guesswork. This
 * rewrites that stream as the map it should be: every BMP code (outside
 * the surrogates) to itself, in beginbfrange rows of 256. 0, or -XR_EFONT when
 * font is not such a font (nothing changed).
 */
int pdf_font_fix_tounicode(HPDF_Font font);

#endif
