/*
 * UTF-8 decoding (see utf8.h): the well-formed sequences of RFC 3629 /
 * Unicode table 3-7, so that the plan loader's check, the did-you-mean
 * distance, column numbers and the PDF's text measuring all agree on
 * what one character is.
 */
#include "utf8.h"

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
