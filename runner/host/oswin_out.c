/*
 * What comes back from a Windows host before it is read (issue 20 item 2):
 * the output decoded into UTF-8 whatever the console code page, and the
 * framed cmdlet errors of the scripts turned into the reading's failure.
 *
 * The script prologue (oswin.c) sets [Console]::OutputEncoding and
 * $OutputEncoding to UTF-8 and then prints "@@ xrun-codepage N" with the
 * code page actually in force: over ssh without a console the setting can
 * throw, and output stays in the OEM code page (932, Shift_JIS, on a
 * Japanese Windows: Microsoft Learn, "Code Page Identifiers"). The marker
 * is ASCII, so it reads the same in every code page. 65001 is UTF-8;
 * another page is converted with iconv(3) as "CP<N>" (glibc knows CP932);
 * a page iconv does not know, or bytes that do not convert, are refused
 * with the reason. Output with no marker must already be valid UTF-8.
 *
 * Each cmdlet runs in its own try/catch; a catch prints one line
 * "@@ xrun-error SECTION: MESSAGE" (the exception's message, newlines
 * folded), which oswin_failure finds.
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <iconv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "oswin.h"

#include "banned.h"

#define CODEPAGE_MARK "@@ xrun-codepage "
#define ERROR_MARK "@@ xrun-error "

int oswin_utf8_valid(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *e = p + n;
	while (p < e) {
		unsigned c = *p++;
		int more = c < 0x80		   ? 0
			   : c >= 0xc2 && c < 0xe0 ? 1
			   : c >= 0xe0 && c < 0xf0 ? 2
			   : c >= 0xf0 && c < 0xf5 ? 3
						   : -1;
		if (more < 0 || e - p < more)
			return 0;
		for (; more > 0; more--)
			if ((*p++ & 0xc0) != 0x80)
				return 0;
	}
	return 1;
}

/* The N of "@@ xrun-codepage N" at a line start, or -1. */
static long codepage_of(const char *s)
{
	size_t ml = strlen(CODEPAGE_MARK);
	for (const char *p = s; p && *p;) {
		if (strncmp(p, CODEPAGE_MARK, ml) == 0) {
			char *end;
			long v = strtol(p + ml, &end, 10);
			return end != p + ml && v > 0 ? v : -1;
		}
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return -1;
}

static int convert(const char *from, const char *s, size_t n, struct buf *out,
		   char *why, size_t whylen)
{
	iconv_t cd = iconv_open("UTF-8", from);
	char tmp[1024];
	char *in = (char *)s;
	size_t left = n;
	int rc = 0;

	if (cd == (iconv_t)-1) {
		snprintf(why, whylen,
			 "output in code page '%s', which iconv here cannot "
			 "convert",
			 from);
		return -1;
	}
	while (left > 0 && rc == 0) {
		char *o = tmp;
		size_t room = sizeof tmp;
		size_t r = iconv(cd, &in, &left, &o, &room);
		buf_add(out, tmp, (size_t)(o - tmp));
		if (r == (size_t)-1 && errno != E2BIG) {
			snprintf(why, whylen,
				 "output byte %zu is not valid in code page "
				 "'%s'",
				 n - left, from);
			rc = -1;
		}
	}
	iconv_close(cd);
	return rc;
}

int oswin_decode(const char *s, size_t n, struct buf *out, char *why,
		 size_t whylen)
{
	long cp = codepage_of(s);
	char from[32];

	if (cp == 65001 || (cp < 0 && oswin_utf8_valid(s, n))) {
		if (!oswin_utf8_valid(s, n)) {
			snprintf(why, whylen,
				 "output marked as code page 65001 (UTF-8) "
				 "is not valid UTF-8");
			return -1;
		}
		buf_add(out, s, n);
		return out->truncated ? -1 : 0;
	}
	if (cp < 0) {
		snprintf(why, whylen,
			 "output is not UTF-8 and carries no code page "
			 "marker (the script prologue did not run?)");
		return -1;
	}
	snprintf(from, sizeof from, "CP%ld", cp);
	return convert(from, s, n, out, why, whylen);
}

const char *oswin_failure(const char *text, size_t *len)
{
	size_t ml = strlen(ERROR_MARK);
	for (const char *p = text; p && *p;) {
		if (strncmp(p, ERROR_MARK, ml) == 0) {
			const char *e = strchr(p, '\n');
			size_t n = e ? (size_t)(e - p) : strlen(p);
			while (n > ml && (p[n - 1] == '\r' || p[n - 1] == ' '))
				n--;
			*len = n - ml;
			return p + ml;
		}
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return NULL;
}
