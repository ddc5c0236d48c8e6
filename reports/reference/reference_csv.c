/*
 * The CSV layer of a reference file (schema/reference.md): text into
 * records of fields with their line and column, RFC 4180 quoting, comment
 * and blank lines skipped, fields trimmed unless quoted. What the records
 * mean is reference.c's business; ref_parse_num reads a number field.
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

/* Where the splitter is: the text left, the current line and where it
 * starts (for columns). */
struct csv_cur {
	const char *p, *end, *ls;
	int line;
	struct xr_diag *d;
};

/* The rest of a quoted field after its opening quote into v, then up to
 * the next ',' or newline. 0, or 1 when the quote is never closed (the
 * problem reported). */
static int read_quoted(struct csv_cur *c, struct buf *v, int col)
{
	int qline = c->line;
	for (;;) {
		if (c->p >= c->end) {
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
	if (c->p < c->end && *c->p != ',' && *c->p != '\n') {
		xr_diag_add(c->d, 0, c->line, (int)(c->p - c->ls) + 1,
			    "unexpected text after a quoted field");
		while (c->p < c->end && *c->p != ',' && *c->p != '\n')
			c->p++;
	}
	return 0;
}

/* An unquoted field, trimmed, into v. */
static void read_plain(struct csv_cur *c, struct buf *v)
{
	const char *s = c->p, *e;
	while (c->p < c->end && *c->p != ',' && *c->p != '\n')
		c->p++;
	e = c->p;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	buf_add(v, s, (size_t)(e - s));
}

/* Append field s at col to rc (capacity *fcap). 0 or -XR_ENOMEM. */
static int add_field(struct arena *a, struct ref_record *rc, int *fcap,
		     const char *s, int col)
{
	if (rc->n == *fcap) {
		struct ref_field *nf;
		*fcap = *fcap ? *fcap * 2 : 8;
		nf = arena_alloc(a, (size_t)*fcap * sizeof *nf);
		if (!nf)
			return -XR_ENOMEM;
		if (rc->n)
			memcpy(nf, rc->f, (size_t)rc->n * sizeof *nf);
		rc->f = nf;
	}
	rc->f[rc->n].s = arena_strdup(a, s);
	rc->f[rc->n].col = col;
	rc->n++;
	return 0;
}

/* One record from c into rc. 0, 1 at an unterminated quoted field, or
 * -XR_ENOMEM. */
static int read_record(struct arena *a, struct csv_cur *c,
		       struct ref_record *rc)
{
	int fcap = 0, rv;
	c->ls = c->p;
	for (;;) {
		struct buf v = BUF_INIT;
		int col = (int)(c->p - c->ls) + 1;
		while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
			c->p++;
		if (c->p < c->end && *c->p == '"') {
			c->p++;
			if ((rv = read_quoted(c, &v, col))) {
				buf_release(&v);
				return rv;
			}
		} else {
			read_plain(c, &v);
		}
		rv = add_field(a, rc, &fcap, v.s ? v.s : "", col);
		buf_release(&v);
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

/* Split text into records: comment lines (first character '#') and blank
 * lines are skipped; fields are trimmed unless quoted. */
int ref_csv_split(struct arena *a, const char *text, size_t len,
		  struct ref_records *out, struct xr_diag *d)
{
	struct csv_cur c = {text, text + len, text, 1, d};
	int rv;
	if (len >= 3 && !memcmp(c.p, "\xEF\xBB\xBF", 3))
		c.p += 3;
	while (c.p < c.end) {
		struct ref_record rc = {c.line, NULL, 0};
		if (*c.p == '#' || is_blank(c.p, c.end)) {
			while (c.p < c.end && *c.p != '\n')
				c.p++;
			if (c.p < c.end)
				c.p++;
			c.line++;
			continue;
		}
		/* at an unterminated quoted field, keep the records before
		 * it: their problems are reported too */
		if ((rv = read_record(a, &c, &rc)))
			return rv > 0 ? 0 : rv;
		if (out->nrec == out->cap) {
			struct ref_record *nr;
			out->cap = out->cap ? out->cap * 2 : 64;
			nr = arena_alloc(a, (size_t)out->cap * sizeof *nr);
			if (!nr)
				return -XR_ENOMEM;
			if (out->nrec)
				memcpy(nr, out->rec,
				       (size_t)out->nrec * sizeof *nr);
			out->rec = nr;
		}
		out->rec[out->nrec++] = rc;
	}
	return 0;
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
