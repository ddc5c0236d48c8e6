/*
 * The report output format table (see output_format.h) and its lookups.
 *
 * SPDX-License-Identifier: MIT
 */
#include "output_format.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "banned.h"

const struct output_format_row output_formats[OUTPUT_FORMAT_COUNT] = {
#define OUTPUT_FORMAT_ROW(id, name, ext, stream)                               \
	[OUTPUT_FORMAT_##id] = {name, ext, stream},
    OUTPUT_FORMAT_MAP(OUTPUT_FORMAT_ROW)
#undef OUTPUT_FORMAT_ROW
};

int output_format_find(const char *name)
{
	int i;
	for (i = 0; name && i < OUTPUT_FORMAT_COUNT; i++)
		if (strcmp(output_formats[i].name, name) == 0)
			return i;
	return -1;
}

/* Is ext (".md") one of the space-separated words of list? */
static int ext_listed(const char *list, const char *ext)
{
	size_t n = strlen(ext);
	const char *w = list, *e;
	for (; *w; w = *e ? e + 1 : e) {
		e = strchr(w, ' ');
		if (!e)
			e = w + strlen(w);
		if ((size_t)(e - w) == n && strncasecmp(w, ext, n) == 0)
			return 1;
	}
	return 0;
}

int output_format_of_path(const char *path)
{
	const char *dot = strrchr(path, '.');
	int i;
	if (!dot || strchr(dot, '/'))
		return -1;
	for (i = 0; i < OUTPUT_FORMAT_COUNT; i++)
		if (ext_listed(output_formats[i].extensions, dot))
			return i;
	return -1;
}

const char *output_format_list(char *out, size_t outsz, int extensions)
{
	size_t len = 0;
	int i;
	if (!outsz)
		return out;
	out[0] = 0;
	for (i = 0; i < OUTPUT_FORMAT_COUNT && len < outsz; i++) {
		const char *s = extensions ? output_formats[i].extensions
					   : output_formats[i].name;
		int n = (int)strcspn(s, " ");
		int w = snprintf(out + len, outsz - len, "%s%.*s",
				 i ? ", " : "", n, s);
		if (w < 0)
			break;
		len += (size_t)w;
	}
	return out;
}
