/*
 * The one "key: value" reader (see kv.h), so that host facts and probes
 * agree on where a key ends and what blanks a value may carry, and the one
 * reader of the "@@ name" sections a host's multi-part output is cut into.
 *
 * SPDX-License-Identifier: MIT
 */
#include "kv.h"

#include <string.h>

#include "banned.h"

static int blank(char c)
{
	return c == ' ' || c == '\t';
}

int kv_get(const char *text, const char *key, struct buf *out)
{
	size_t kl = strlen(key);
	const char *p = text;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		const char *e = nl ? nl : p + strlen(p);
		if ((size_t)(e - p) > kl && memcmp(p, key, kl) == 0) {
			const char *s = p + kl;
			while (s < e && blank(*s))
				s++;
			if (s < e && *s == ':') {
				s++;
				while (s < e && blank(*s))
					s++;
				while (e > s && (blank(e[-1]) || e[-1] == '\r'))
					e--;
				buf_reset(out);
				buf_add(out, s, (size_t)(e - s));
				return 1;
			}
		}
		p = nl ? nl + 1 : NULL;
	}
	return 0;
}

const char *kv_section(const char *text, const char *name, size_t *len)
{
	size_t nl = strlen(name);
	const char *p = text;
	while (p && *p) {
		const char *eol = strchr(p, '\n');
		const char *e = eol ? eol : p + strlen(p);
		const char *t = e;
		while (t > p && (t[-1] == '\r' || t[-1] == ' '))
			t--;
		if ((size_t)(t - p) == nl + 3 && memcmp(p, "@@ ", 3) == 0 &&
		    memcmp(p + 3, name, nl) == 0) {
			const char *body = eol ? eol + 1 : e, *q = body;
			while (*q && strncmp(q, "@@ ", 3) != 0) {
				const char *n2 = strchr(q, '\n');
				q = n2 ? n2 + 1 : q + strlen(q);
			}
			if (len)
				*len = (size_t)(q - body);
			return body;
		}
		p = eol ? eol + 1 : NULL;
	}
	return NULL;
}
