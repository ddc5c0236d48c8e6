/*
 * UTF-8 decoding (see utf8.h): the well-formed sequences of RFC 3629 /
 * Unicode table 3-7, so that the plan loader's check, the did-you-mean
 * distance, column numbers and the PDF's text measuring all agree on
 * what one character is.
 *
 * SPDX-License-Identifier: MIT
 */
#include "utf8.h"

#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "xr_code.h"
#include "banned.h"

size_t utf8_decode(const char *s, size_t n, uint32_t *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	uint32_t c, min;
	size_t k, i;

	*cp = 0;
	if (n == 0)
		return 0;
	c = u[0];
	*cp = c;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		k = 2, c &= 0x1f, min = 0x80;
	else if (c >= 0xe0 && c <= 0xef)
		k = 3, c &= 0x0f, min = 0x800;
	else if (c >= 0xf0 && c <= 0xf4)
		k = 4, c &= 0x07, min = 0x10000;
	else
		return 0;
	for (i = 1; i < k; i++) {
		if (i >= n || (u[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (u[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return k;
}

size_t utf8_next(const char *s, size_t n, uint32_t *cp)
{
	size_t k = utf8_decode(s, n, cp);
	return k ? k : n ? 1 : 0;
}

static int term_control(uint32_t cp, unsigned flags)
{
	if (cp == '\t' || (cp == '\n' && (flags & UTF8_TERM_KEEP_LF)))
		return 0;
	return cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f);
}

int utf8_term_escape(struct buf *out, const char *s, size_t n, unsigned flags)
{
	size_t i = 0, k;
	int r = 0;
	if (!out->s)
		buf_init(out, out->max);
	while (r == 0 && s && i < n) {
		uint32_t cp;
		char hex[8];
		k = utf8_decode(s + i, n - i, &cp);
		if (k == 0) { /* a byte of an ill-formed sequence */
			cp = (unsigned char)s[i];
			k = 1;
		} else if (!term_control(cp, flags)) {
			r = buf_add(out, s + i, k);
			i += k;
			continue;
		}
		snprintf(hex, sizeof hex, "\\x%02x", (unsigned)cp);
		r = buf_adds(out, hex);
		i += k;
	}
	return r < 0 ? -XR_ENOMEM : 0;
}

const char *utf8_term(struct buf *b, const char *s)
{
	buf_reset(b);
	if (utf8_term_escape(b, s, s ? strlen(s) : 0, 0) < 0 || !b->s)
		return "";
	return b->s;
}
