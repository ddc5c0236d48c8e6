/*
 * Which TrueType font a PDF report embeds: the one rule for finding it and
 * the message shown when there is none.
 */
#ifndef XR_PDF_FONT_H
#define XR_PDF_FONT_H

#include <stddef.h>

#include "err.h"

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

#endif
