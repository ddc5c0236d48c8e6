/*
 * The CSV layer of a reference file (schema/reference.md): text into
 * records of fields with their line and column, RFC 4180 quoting, comment
 * and blank lines skipped, fields trimmed unless quoted. What the records
 * mean is reference.c's business; ref_parse_num reads a number field.
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "buf.h"
#include "reference_int.h"
#include "banned.h"

static int is_blank(const char *p, const char *end)
{
	for (; p < end && *p != '\n'; p++)
		if (*p != ' ' && *p != '\t' && *p != '\r')
			return 0;
	return 1;
}

/* The rest of a quoted field after its opening quote into v, then up to
 * the next ',' or newline. 0, or 1 when the quote is never closed (the
 * problem reported). */
static int read_quoted(struct ref_csv *c, struct buf *v, int col)
{
	int qline = c->line;
	for (;;) {
		if (c->p >= c->end) {
			if (c->d)
				xr_diag_add(c->d, 0, qline, col,
					    "unterminated quoted field");
			return 1;
		}
		if (*c->p == '"' && c->p + 1 < c->end && c->p[1] == '"') {
			buf_addc(v, '"');
			c->p += 2;
		} else if (*c->p == '"') {
			c->p++;
			break;
		} else {
			if (*c->p == '\n') {
				c->line++;
				c->ls = c->p + 1;
			}
			buf_addc(v, *c->p++);
		}
	}
	while (c->p < c->end &&
	       (*c->p == ' ' || *c->p == '\t' || *c->p == '\r'))
		c->p++;
	if (c->p < c->end && *c->p != ',' && *c->p != '\n' && c->d) {
		xr_diag_add(c->d, 0, c->line, (int)(c->p - c->ls) + 1,
			    "unexpected text after a quoted field");
	}
	while (c->p < c->end && *c->p != ',' && *c->p != '\n')
		c->p++;
	return 0;
}

/* An unquoted field, trimmed, into v. */
static void read_plain(struct ref_csv *c, struct buf *v)
{
	const char *s = c->p, *e;
	while (c->p < c->end && *c->p != ',' && *c->p != '\n')
		c->p++;
	e = c->p;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	buf_add(v, s, (size_t)(e - s));
}

/* Append field v at col to the record being read: its bytes after the
 * others, NUL-terminated. 0 or -XR_ENOMEM. */
static int add_field(struct ref_csv *c, const struct buf *v, int col)
{
	if (c->n == c->cap) {
		int cap = c->cap ? c->cap * 2 : 16;
		size_t *no = realloc(c->off, (size_t)cap * sizeof *no);
		struct ref_field *nf;
		if (!no)
			return -XR_ENOMEM;
		c->off = no;
		if (!(nf = realloc(c->f, (size_t)cap * sizeof *nf)))
			return -XR_ENOMEM;
		c->f = nf;
		c->cap = cap;
	}
	c->off[c->n] = c->text.len;
	c->f[c->n++].col = col;
	/* a field is cut at a NUL byte in it, as strdup cut it */
	if (buf_adds(&c->text, v->s ? v->s : "") < 0 ||
	    buf_addc(&c->text, '\0') < 0)
		return -XR_ENOMEM;
	return 0;
}

/* One record from c into its scratch. 0, 1 at an unterminated quoted
 * field, or -XR_ENOMEM. */
static int read_record(struct ref_csv *c)
{
	int rv;
	c->ls = c->p;
	c->n = 0;
	buf_reset(&c->text);
	for (;;) {
		struct buf *v = &c->field;
		int col = (int)(c->p - c->ls) + 1;
		buf_reset(v);
		while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
			c->p++;
		if (c->p < c->end && *c->p == '"') {
			c->p++;
			if ((rv = read_quoted(c, v, col)))
				return rv;
		} else {
			read_plain(c, v);
		}
		if (v->truncated)
			return -XR_ENOMEM;
		rv = add_field(c, v, col);
		if (rv < 0)
			return rv;
		if (c->p < c->end && *c->p == ',') {
			c->p++;
			continue;
		}
		if (c->p < c->end)
			c->p++; /* '\n' */
		c->line++;
		return 0;
	}
}

void ref_csv_init(struct ref_csv *c, const char *text, size_t len,
		  struct xr_diag *d)
{
	memset(c, 0, sizeof *c);
	c->p = c->ls = text;
	c->end = text + len;
	c->line = 1;
	c->d = d;
	buf_init(&c->text, 0);
	buf_init(&c->field, 0);
	if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3))
		c->p += 3;
}

int ref_csv_next(struct ref_csv *c, struct ref_record *rec)
{
	int rv, i;
	while (c->p < c->end && (*c->p == '#' || is_blank(c->p, c->end))) {
		while (c->p < c->end && *c->p != '\n')
			c->p++;
		if (c->p < c->end)
			c->p++;
		c->line++;
	}
	if (c->p >= c->end)
		return 0;
	rec->line = c->line;
	/* an unterminated quoted field ends the records: the ones before
	 * it were read, and their problems reported */
	if ((rv = read_record(c)) > 0)
		c->p = c->end;
	if (rv)
		return rv > 0 ? 0 : rv;
	for (i = 0; i < c->n; i++)
		c->f[i].s = c->text.s + c->off[i];
	rec->f = c->f;
	rec->n = c->n;
	return 1;
}

int ref_csv_peek(struct ref_csv *c, struct ref_record *rec)
{
	const char *p = c->p;
	int line = c->line, rc;
	struct xr_diag *d = c->d;
	c->d = NULL;
	rc = ref_csv_next(c, rec);
	c->p = p;
	c->line = line;
	c->d = d;
	return rc;
}

int ref_csv_keep(struct arena *a, const struct ref_csv *c,
		 struct ref_record *rec)
{
	struct ref_field *f = arena_alloc(a, (size_t)c->n * sizeof *f);
	char *txt = arena_alloc(a, c->text.len);
	int i;
	if (!f || !txt)
		return -XR_ENOMEM;
	memcpy(txt, c->text.s, c->text.len);
	for (i = 0; i < c->n; i++) {
		f[i].s = txt + c->off[i];
		f[i].col = c->f[i].col;
	}
	rec->f = f;
	rec->n = c->n;
	return 0;
}

void ref_csv_release(struct ref_csv *c)
{
	buf_release(&c->text);
	buf_release(&c->field);
	free(c->off);
	free(c->f);
	c->off = NULL;
	c->f = NULL;
	c->n = c->cap = 0;
}

/* A finite number, the whole field. */
int ref_parse_num(const char *s, double *v)
{
	char *e;
	if (!*s)
		return -XR_EPARSE;
	errno = 0;
	*v = strtod(s, &e);
	if (*e || errno || !isfinite(*v))
		return -XR_EPARSE;
	return 0;
}
