/*
 * The CSV layer of a reference file (schema/reference.md): text into
 * records of fields with their line and column, RFC 4180 quoting, comment
 * and blank lines skipped, fields trimmed unless quoted. What the records
 * mean is reference.c's business.
 */
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

/* Split text into records: comment lines (first character '#') and blank
 * lines are skipped; fields are trimmed unless quoted. */
int ref_csv_split(struct arena *a, const char *text, size_t len,
		  struct ref_records *out, struct xr_diag *d)
{
	const char *p = text, *end = text + len;
	int line = 1;
	if (len >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3))
		p += 3;
	while (p < end) {
		const char *ls = p;
		struct ref_record rc = {line, NULL, 0};
		int fcap = 0;
		if (*p == '#' || is_blank(p, end)) {
			while (p < end && *p != '\n')
				p++;
			if (p < end)
				p++;
			line++;
			continue;
		}
		for (;;) {
			struct buf v = BUF_INIT;
			int col = (int)(p - ls) + 1, quoted = 0;
			while (p < end && (*p == ' ' || *p == '\t'))
				p++;
			if (p < end && *p == '"') {
				int qline = line;
				quoted = 1;
				p++;
				for (;;) {
					if (p >= end) {
						/* keep the records before it:
						 * their problems are
						 * reported too */
						xr_diag_add(d, 0, qline, col,
							    "unterminated "
							    "quoted field");
						buf_release(&v);
						return 0;
					}
					if (*p == '"' && p + 1 < end &&
					    p[1] == '"') {
						buf_addc(&v, '"');
						p += 2;
					} else if (*p == '"') {
						p++;
						break;
					} else {
						if (*p == '\n') {
							line++;
							ls = p + 1;
						}
						buf_addc(&v, *p++);
					}
				}
				while (p < end &&
				       (*p == ' ' || *p == '\t' || *p == '\r'))
					p++;
				if (p < end && *p != ',' && *p != '\n') {
					xr_diag_add(d, 0, line,
						    (int)(p - ls) + 1,
						    "unexpected text after a "
						    "quoted field");
					while (p < end && *p != ',' &&
					       *p != '\n')
						p++;
				}
			} else {
				const char *s = p;
				while (p < end && *p != ',' && *p != '\n')
					p++;
				{
					const char *e = p;
					while (e > s &&
					       (e[-1] == ' ' || e[-1] == '\t' ||
						e[-1] == '\r'))
						e--;
					buf_add(&v, s, (size_t)(e - s));
				}
			}
			(void)quoted;
			if (rc.n == fcap) {
				struct ref_field *nf;
				fcap = fcap ? fcap * 2 : 8;
				nf = arena_alloc(a, (size_t)fcap * sizeof *nf);
				if (!nf) {
					buf_release(&v);
					return -1;
				}
				if (rc.n)
					memcpy(nf, rc.f,
					       (size_t)rc.n * sizeof *nf);
				rc.f = nf;
			}
			rc.f[rc.n].s = arena_strdup(a, v.s ? v.s : "");
			rc.f[rc.n].col = col;
			rc.n++;
			buf_release(&v);
			if (p < end && *p == ',') {
				p++;
				continue;
			}
			if (p < end)
				p++; /* '\n' */
			line++;
			break;
		}
		if (out->nrec == out->cap) {
			struct ref_record *nr;
			out->cap = out->cap ? out->cap * 2 : 64;
			nr = arena_alloc(a, (size_t)out->cap * sizeof *nr);
			if (!nr)
				return -1;
			if (out->nrec)
				memcpy(nr, out->rec,
				       (size_t)out->nrec * sizeof *nr);
			out->rec = nr;
		}
		out->rec[out->nrec++] = rc;
	}
	return 0;
}
