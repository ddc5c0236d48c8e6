/*
 * A JSON document streamed in 64 KiB pieces, a jansson tree at a time
 * (json_dump.h): what the JSON report (write_json.c) is written with.
 * jansson's json_dumpf makes one fwrite per token (7% of a 100,000-run
 * report, bench/RESULTS.md); this buffers them, re-indents each tree to
 * the depth it is written at and can take back the close of what was just
 * dumped, so that a large object is written member by member without its
 * tree.
 *
 * SPDX-License-Identifier: MIT
 */
#include "json_dump.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "banned.h"

struct jdump {
	FILE *f;
	size_t len;
	int bad, indent, skip;
	char b[65536];
};

struct jdump *jdump_new(FILE *f)
{
	struct jdump *d = malloc(sizeof *d);
	if (d) {
		memset(d, 0, offsetof(struct jdump, b));
		d->f = f;
	}
	return d;
}

void jdump_free(struct jdump *d)
{
	free(d);
}

int jdump_flush(struct jdump *d)
{
	if (d->len && fwrite(d->b, 1, d->len, d->f) != d->len)
		d->bad = 1;
	d->len = 0;
	return d->bad ? -1 : 0;
}

/* A full buffer written but for its last JDUMP_TAIL bytes, which
 * jdump_unclose may take back. */
#define JDUMP_TAIL 16
static int spill(struct jdump *d)
{
	size_t n = d->len - JDUMP_TAIL;
	if (fwrite(d->b, 1, n, d->f) != n)
		d->bad = 1;
	memmove(d->b, d->b + n, JDUMP_TAIL);
	d->len = JDUMP_TAIL;
	return d->bad ? -1 : 0;
}

int jdump_raw(struct jdump *d, const char *p, size_t n)
{
	while (n) {
		size_t k = sizeof d->b - d->len;
		if (!k && spill(d) < 0)
			return -1;
		k = sizeof d->b - d->len;
		k = n < k ? n : k;
		memcpy(d->b + d->len, p, k);
		d->len += k;
		p += k;
		n -= k;
	}
	return 0;
}

/* jansson's callback: the first d->skip bytes dropped, d->indent spaces
 * after every newline. */
static int piece(const char *p, size_t n, void *data)
{
	struct jdump *d = data;
	static const char sp[] = "        ";
	while (n && d->skip) {
		p++, n--, d->skip--;
	}
	while (n) {
		const char *nl = d->indent ? memchr(p, '\n', n) : NULL;
		size_t k = nl ? (size_t)(nl - p) + 1 : n;
		if (jdump_raw(d, p, k) < 0 ||
		    (nl && jdump_raw(d, sp, (size_t)d->indent) < 0))
			return -1;
		p += k;
		n -= k;
	}
	return 0;
}

/* Drops end (at most JDUMP_TAIL bytes), the close of what was just
 * dumped. */
int jdump_untail(struct jdump *d, const char *end)
{
	size_t n = strlen(end);
	if (d->len < n || memcmp(d->b + d->len - n, end, n))
		return -1;
	d->len -= n;
	return 0;
}

/* o dumped into d (and o released); -1 when it cannot be written, -2
 * when o is NULL (out of memory building it). */
int jdump_tree(struct jdump *d, json_t *o, int indent, int skip)
{
	int rc;
	if (!o)
		return -2;
	d->indent = indent;
	d->skip = skip;
	rc = json_dump_callback(o, piece, d,
				JSON_INDENT(1) | JSON_REAL_PRECISION(10));
	json_decref(o);
	d->indent = d->skip = 0;
	return rc < 0 || d->bad ? -1 : 0;
}

/* Drops the closing "\n}" of the object just dumped (at depth 0). */
int jdump_unclose(struct jdump *d)
{
	return jdump_untail(d, "\n}");
}
