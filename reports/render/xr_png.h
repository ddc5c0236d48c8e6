/*
 * PNG images of the SVG charts (xr_png.c), for blog platforms that take PNG
 * uploads but not SVG: `xrun report -o r.md --png`. Rendered in-process by
 * librsvg and cairo (no child process); text goes through pango and
 * fontconfig, so the font-family of svg_font_family() resolves to IPAex
 * Gothic for a Japanese chart. Built only when librsvg was found at build
 * time; otherwise png_available() is 0 and png_from_svg() says so.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_PNG_H
#define XR_PNG_H

#include <stddef.h>

#include "xr_err.h"

/* Width of a chart's PNG in pixels: a blog column at 2x (about 600 CSS
 * px), or the SVG's own width when that is wider. */
#define PNG_MIN_WIDTH 1200

/* 1 when this xrun can write PNG (built with librsvg), else 0. */
int png_available(void);

/* Render the SVG document svg (len bytes) as a PNG PNG_MIN_WIDTH pixels
 * wide, or its own width in pixels when wider, the height in proportion,
 * on the SVG's own background. OUT: *out (caller frees), *outlen.
 * 0, -XR_ENOMEM, -XR_EENV when built without librsvg, -XR_EREPORT when
 * librsvg refuses the document; err says which, naming what (a file
 * name). */
int png_from_svg(const char *svg, size_t len, const char *what, char **out,
		 size_t *outlen, struct xr_err *err);

#endif
