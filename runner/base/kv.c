/*
 * The one "key: value" reader (see kv.h), so that host facts and probes
 * agree on where a key ends and what blanks a value may carry.
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
