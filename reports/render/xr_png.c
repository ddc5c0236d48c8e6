/*
 * PNG from SVG (xr_png.h): librsvg parses the chart's SVG and draws it on a
 * cairo image surface, which cairo encodes as PNG into memory; the caller
 * writes the bytes through the one writer (wfile.h). Nothing forks and no
 * file is read: the document is the chart svg_chart.c wrote.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "xr_png.h"

#ifdef XRUN_HAVE_RSVG
#include <cairo.h>
#include <fontconfig/fontconfig.h>
#include <librsvg/rsvg.h>
#include <pango/pangocairo.h>
#endif

#include "banned.h"

#ifndef XRUN_HAVE_RSVG

int png_available(void)
{
	return 0;
}

int png_from_svg(const char *svg, size_t len, const char *what, char **out,
		 size_t *outlen, struct xr_err *err)
{
	(void)svg, (void)len;
	*out = NULL;
	*outlen = 0;
	return xr_err_set(err, XR_EENV, NULL, 0, 0,
			  "cannot write '%s': this xrun was built without "
			  "librsvg, so --png is not available (install "
			  "librsvg2-dev and rebuild)",
			  what ? what : "a PNG");
}

#else

int png_available(void)
{
	return 1;
}

/* cairo's PNG encoder writes here: a growing buffer. */
struct membuf {
	unsigned char *p;
	size_t len, cap;
	int failed;
};

static cairo_status_t put(void *ctx, const unsigned char *data, unsigned int n)
{
	struct membuf *m = ctx;
	if (m->len + n > m->cap) {
		size_t cap = m->cap ? m->cap : 65536;
		unsigned char *p;
		while (cap < m->len + n)
			cap *= 2;
		if (!(p = realloc(m->p, cap))) {
			m->failed = 1;
			return CAIRO_STATUS_NO_MEMORY;
		}
		m->p = p;
		m->cap = cap;
	}
	memcpy(m->p + m->len, data, n);
	m->len += n;
	return CAIRO_STATUS_SUCCESS;
}

/* Draw handle h on a w x h_px surface and encode it. */
static int encode(RsvgHandle *h, int w, int hp, struct membuf *m,
		  const char *what, struct xr_err *err)
{
	cairo_surface_t *s =
	    cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, hp);
	cairo_t *cr = cairo_create(s);
	RsvgRectangle vp = {0, 0, w, hp};
	GError *ge = NULL;
	int rc = 0;

	if (cairo_status(cr) != CAIRO_STATUS_SUCCESS) {
		rc = xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
				"out of memory rendering '%s'", what);
	} else if (!rsvg_handle_render_document(h, cr, &vp, &ge)) {
		rc = xr_err_set(err, XR_EREPORT, NULL, 0, 0,
				"cannot render '%s': %s", what,
				ge && ge->message ? ge->message : "librsvg");
	} else {
		cairo_surface_flush(s);
		if (cairo_surface_write_to_png_stream(s, put, m) !=
			CAIRO_STATUS_SUCCESS ||
		    m->failed)
			rc = xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
					"out of memory encoding '%s'", what);
	}
	if (ge)
		g_error_free(ge);
	cairo_destroy(cr);
	cairo_surface_destroy(s);
	return rc;
}

int png_from_svg(const char *svg, size_t len, const char *what, char **out,
		 size_t *outlen, struct xr_err *err)
{
	struct membuf m = {0};
	GError *ge = NULL;
	RsvgHandle *h;
	double iw = 0, ih = 0, scale;
	int rc;

	*out = NULL;
	*outlen = 0;
	if (!what)
		what = "a PNG";
	h = rsvg_handle_new_from_data((const guint8 *)svg, len, &ge);
	if (!h) {
		rc = xr_err_set(err, XR_EREPORT, NULL, 0, 0,
				"cannot render '%s': %s", what,
				ge && ge->message ? ge->message : "librsvg");
		if (ge)
			g_error_free(ge);
		return rc;
	}
	/* The SVG's width and height attributes, in pixels (96 dpi). */
	if (!rsvg_handle_get_intrinsic_size_in_pixels(h, &iw, &ih) ||
	    !(iw > 0) || !(ih > 0)) {
		g_object_unref(h);
		return xr_err_set(err, XR_EREPORT, NULL, 0, 0,
				  "cannot render '%s': the SVG has no size",
				  what);
	}
	scale = iw < PNG_MIN_WIDTH ? PNG_MIN_WIDTH / iw : 1;
	rc = encode(h, (int)lround(iw * scale), (int)lround(ih * scale), &m,
		    what, err);
	g_object_unref(h);
	/* librsvg draws text with pango's default font map, cairo caches
	 * font faces, and both use fontconfig's default configuration: all
	 * live for the process. Drop them (no cairo or pango object is
	 * alive here; the next PNG builds them again, and pdf_font.c uses a
	 * configuration of its own), so that a report leaves nothing behind
	 * (LeakSanitizer in CI). */
	pango_cairo_font_map_set_default(NULL);
	cairo_debug_reset_static_data();
	FcFini();
	if (rc < 0) {
		free(m.p);
		return rc;
	}
	*out = (char *)m.p;
	*outlen = m.len;
	return 0;
}

#endif
