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

/* The fields of the record being read: their bytes one after another,
 * each NUL-terminated, with offsets and columns; copied into the arena at
 * their exact size when the record ends (an arena copy of each field and
 * an array of 8 fields a record were about 490 bytes a row of 21 bytes,
 * bench/RESULTS.md, "Report scale under 1 s"). */
struct rec_scratch {
	struct buf text;
	size_t *off;
	int *col;
	int n, cap;
};

/* Append field v at col. 0 or -XR_ENOMEM. */
static int add_field(struct rec_scratch *t, const struct buf *v, int col)
{
	if (t->n == t->cap) {
		int cap = t->cap ? t->cap * 2 : 16;
		size_t *no = realloc(t->off, (size_t)cap * sizeof *no);
		int *nc;
		if (!no)
			return -XR_ENOMEM;
		t->off = no;
		if (!(nc = realloc(t->col, (size_t)cap * sizeof *nc)))
			return -XR_ENOMEM;
		t->col = nc;
		t->cap = cap;
	}
	t->off[t->n] = t->text.len;
	t->col[t->n++] = col;
	/* a field is cut at a NUL byte in it, as strdup cut it */
	if (buf_adds(&t->text, v->s ? v->s : "") < 0 ||
	    buf_addc(&t->text, '\0') < 0)
		return -XR_ENOMEM;
	return 0;
}

/* The scratch record into rc, in the arena. 0 or -XR_ENOMEM. */
static int keep_record(struct arena *a, const struct rec_scratch *t,
		       struct ref_record *rc)
{
	char *txt;
	int i;
	rc->f = arena_alloc(a, (size_t)t->n * sizeof *rc->f);
	txt = arena_alloc(a, t->text.len);
	if (!rc->f || !txt)
		return -XR_ENOMEM;
	memcpy(txt, t->text.s, t->text.len);
	for (i = 0; i < t->n; i++) {
		rc->f[i].s = txt + t->off[i];
		rc->f[i].col = t->col[i];
	}
	rc->n = t->n;
	return 0;
}

/* One record from c into rc. 0, 1 at an unterminated quoted field, or
 * -XR_ENOMEM. */
static int read_record(struct arena *a, struct csv_cur *c,
		       struct rec_scratch *t, struct ref_record *rc)
{
	int rv;
	c->ls = c->p;
	t->n = 0;
	buf_reset(&t->text);
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
		rv = add_field(t, &v, col);
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
		return keep_record(a, t, rc);
	}
}

static int split_records(struct arena *a, struct csv_cur *c,
			 struct rec_scratch *t, size_t len,
			 struct ref_records *out)
{
	int rv;
	if (len >= 3 && !memcmp(c->p, "\xEF\xBB\xBF", 3))
		c->p += 3;
	while (c->p < c->end) {
		struct ref_record rc = {c->line, NULL, 0};
		if (*c->p == '#' || is_blank(c->p, c->end)) {
			while (c->p < c->end && *c->p != '\n')
				c->p++;
			if (c->p < c->end)
				c->p++;
			c->line++;
			continue;
		}
		/* at an unterminated quoted field, keep the records before
		 * it: their problems are reported too */
		if ((rv = read_record(a, c, t, &rc)))
			return rv > 0 ? 0 : rv;
		if (out->nrec == out->cap) {
			/* grown with realloc, copied to the arena at the end:
			 * arrays doubled in the arena left each old copy there
			 * and a fresh block of up to 16 MiB for the next (29
			 * MB for 100,000 records of 24 bytes) */
			int cap = out->cap ? out->cap * 2 : 64;
			struct ref_record *nr =
			    realloc(out->rec, (size_t)cap * sizeof *nr);
			if (!nr)
				return -XR_ENOMEM;
			out->rec = nr;
			out->cap = cap;
		}
		out->rec[out->nrec++] = rc;
	}
	return 0;
}

/* out's records from the heap into the arena, at their exact size. */
static int records_to_arena(struct arena *a, struct ref_records *out)
{
	struct ref_record *heap = out->rec;
	if (!heap)
		return 0;
	out->rec = arena_alloc(a, ((size_t)out->nrec + 1) * sizeof *out->rec);
	if (out->rec)
		memcpy(out->rec, heap, (size_t)out->nrec * sizeof *heap);
	out->cap = out->nrec;
	free(heap);
	return out->rec ? 0 : -XR_ENOMEM;
}

/* Split text into records: comment lines (first character '#') and blank
 * lines are skipped; fields are trimmed unless quoted. */
int ref_csv_split(struct arena *a, const char *text, size_t len,
		  struct ref_records *out, struct xr_diag *d)
{
	struct csv_cur c = {text, text + len, text, 1, d};
	struct rec_scratch t = {BUF_INIT, NULL, NULL, 0, 0};
	int rv = split_records(a, &c, &t, len, out), rm;
	if ((rm = records_to_arena(a, out)) < 0 && rv == 0)
		rv = rm;
	buf_release(&t.text);
	free(t.off);
	free(t.col);
	return rv;
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
