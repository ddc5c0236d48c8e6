/*
 * {{placeholder}} templates (see tmpl.h): scanning and expansion, shared by
 * the validator (every name must resolve) and the runner (hooks, engine
 * argv, manual instructions, expected values). A value is substituted as
 * text into one word and never re-scanned, so a level cannot inject more
 * placeholders or arguments.
 *
 * SPDX-License-Identifier: MIT
 */
#include "tmpl.h"

#include <string.h>

#include "buf.h"
#include "banned.h"

static int name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
}

/*
 * At t[i] == "{{": when a well-formed placeholder starts here, return its
 * total length and the name span; 0 otherwise (copied literally).
 */
static size_t match_at(const char *t, size_t i, size_t *ns, size_t *nl)
{
	size_t j = i + 2, s;
	while (t[j] == ' ')
		j++;
	s = j;
	while (name_char(t[j]))
		j++;
	if (j == s)
		return 0;
	*ns = s;
	*nl = j - s;
	while (t[j] == ' ')
		j++;
	if (t[j] != '}' || t[j + 1] != '}')
		return 0;
	return j + 2 - i;
}

int tmpl_each(const char *t, tmpl_each_fn fn, void *ctx)
{
	size_t i = 0, ns, nl, len;
	char name[256];
	if (!t)
		return 0;
	while (t[i]) {
		if (t[i] == '{' && t[i + 1] == '{' &&
		    (len = match_at(t, i, &ns, &nl)) > 0) {
			int rc;
			if (nl >= sizeof name)
				nl = sizeof name - 1;
			memcpy(name, t + ns, nl);
			name[nl] = 0;
			rc = fn(ctx, name, i);
			if (rc)
				return rc;
			i += len;
		} else {
			i++;
		}
	}
	return 0;
}

int tmpl_expand(const char *t, tmpl_lookup_fn lookup, void *ctx,
		struct buf *out, char *bad_name, size_t bad_name_sz)
{
	size_t i = 0, lit = 0, ns, nl, len;
	char name[256];
	if (!t)
		return 0;
	while (t[i]) {
		const char *v;
		if (!(t[i] == '{' && t[i + 1] == '{' &&
		      (len = match_at(t, i, &ns, &nl)) > 0)) {
			i++;
			continue;
		}
		if (nl >= sizeof name)
			nl = sizeof name - 1;
		memcpy(name, t + ns, nl);
		name[nl] = 0;
		v = lookup ? lookup(ctx, name) : NULL;
		if (!v) {
			if (bad_name && bad_name_sz) {
				size_t k = strlen(name);
				if (k >= bad_name_sz)
					k = bad_name_sz - 1;
				memcpy(bad_name, name, k);
				bad_name[k] = 0;
			}
			return TMPL_UNKNOWN;
		}
		buf_add(out, t + lit, i - lit);
		buf_adds(out, v);
		i += len;
		lit = i;
	}
	buf_add(out, t + lit, i - lit);
	return 0;
}
