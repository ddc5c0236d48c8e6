/*
 * Error values and positioned diagnostics (see xr_err.h): the one place that
 * formats "file:line:col: error: message" for the whole program.
 *
 * SPDX-License-Identifier: MIT
 */
#include "oom.h"
#include "xr_err.h"

#include "buf.h"
#include "utf8.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banned.h"

int xr_err_set(struct xr_err *err, int code, const char *file, int line,
	       int col, const char *fmt, ...)
{
	if (code < 0)
		code = -code;
	if (code == XR_ENOMEM)
		xr_oom_mark(file, line);
	if (err) {
		va_list ap;
		err->code = code;
		snprintf(err->file, sizeof err->file, "%s", file ? file : "");
		err->line = line;
		err->col = col;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof err->msg, fmt, ap);
		va_end(ap);
	}
	return -code;
}

void xr_err_clear(struct xr_err *err)
{
	if (err)
		memset(err, 0, sizeof *err);
}

/* A message for the terminal: it may quote a command's output (an
 * engine's stderr), whose control characters are shown, not obeyed. */
static const char *term_msg(struct buf *b, const char *msg)
{
	static char plain[1024];
	size_t i;
	buf_reset(b);
	if (utf8_term_escape(b, msg, strlen(msg), UTF8_TERM_KEEP_LF) >= 0)
		return b->s;
	/* no memory to escape into: the message, its controls as '?' */
	for (i = 0; msg[i] && i < sizeof plain - 1; i++)
		plain[i] = ((unsigned char)msg[i] < 0x20 && msg[i] != '\n') ||
				   msg[i] == 0x7f
			       ? '?'
			       : msg[i];
	plain[i] = 0;
	return plain;
}

void xr_err_print(const struct xr_err *err, const char *prog)
{
	struct buf b = BUF_INIT;
	const char *msg = term_msg(&b, err->msg);
	if (err->file[0] && err->line > 0)
		fprintf(stderr, "%s:%d:%d: error: %s\n", err->file, err->line,
			err->col > 0 ? err->col : 1, msg);
	else if (err->file[0])
		fprintf(stderr, "%s: error: %s\n", err->file, msg);
	else
		fprintf(stderr, "%s: error: %s\n", prog ? prog : "xrun", msg);
	buf_release(&b);
}

void xr_diag_init(struct xr_diag *d, const char *file)
{
	memset(d, 0, sizeof *d);
	d->file = file;
}

void xr_diag_vadd(struct xr_diag *d, int is_warning, int line, int col,
		  const char *fmt, va_list ap)
{
	char buf[1024];
	char *msg = NULL;
	if (!is_warning)
		d->nerr++;
	if (d->n >= XR_DIAG_MAX) {
		d->nover++;
		d->nover_err += !is_warning;
		return;
	}
	vsnprintf(buf, sizeof buf, fmt, ap);
	if (d->n == d->cap) {
		size_t nc = d->cap ? d->cap * 2 : 16;
		struct xr_diag_item *ni = realloc(d->items, nc * sizeof *ni);
		if (ni) {
			d->items = ni;
			d->cap = nc;
		}
	}
	if (d->n < d->cap)
		msg = strdup(buf);
	if (!msg) {
		xr_oom_mark(d->file, line);
		if (!d->nlost++) {
			size_t k = strlen(buf);
			d->lost.is_warning = is_warning;
			d->lost.line = line;
			d->lost.col = col;
			if (k >= sizeof d->lost.msg)
				k = sizeof d->lost.msg - 1;
			memcpy(d->lost.msg, buf, k);
			d->lost.msg[k] = 0;
		}
		return;
	}
	d->items[d->n].is_warning = is_warning;
	d->items[d->n].line = line;
	d->items[d->n].col = col;
	d->items[d->n].msg = msg;
	d->n++;
}

void xr_diag_add(struct xr_diag *d, int is_warning, int line, int col,
		 const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	xr_diag_vadd(d, is_warning, line, col, fmt, ap);
	va_end(ap);
}

static int cmp_item(const void *a, const void *b)
{
	const struct xr_diag_item *x = a, *y = b;
	/* Messages without a position (summaries) come last. */
	if ((x->line == 0) != (y->line == 0))
		return x->line == 0 ? 1 : -1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	return 0;
}

static void print_item(FILE *f, struct buf *b, const char *file, int is_warning,
		       int line, int col, const char *msg)
{
	const char *kind = is_warning ? "warning" : "error";
	msg = term_msg(b, msg);
	if (line > 0)
		fprintf(f, "%s:%d:%d: %s: %s\n", file, line, col > 0 ? col : 1,
			kind, msg);
	else
		fprintf(f, "%s: %s: %s\n", file, kind, msg);
}

void xr_diag_print(struct xr_diag *d, void *stream)
{
	FILE *f = stream ? stream : stderr;
	struct buf b = BUF_INIT;
	size_t i;
	/* stable enough: qsort then print; identical positions keep order
	 * only approximately, which is fine for messages */
	if (d->n > 1)
		qsort(d->items, d->n, sizeof *d->items, cmp_item);
	for (i = 0; i < d->n; i++) {
		const struct xr_diag_item *it = &d->items[i];
		print_item(f, &b, d->file, it->is_warning, it->line, it->col,
			   it->msg);
	}
	if (d->nlost)
		print_item(f, &b, d->file, d->lost.is_warning, d->lost.line,
			   d->lost.col, d->lost.msg);
	if (d->nlost > 1)
		fprintf(f,
			"%s: error: %zu more messages lost (out of memory)\n",
			d->file, d->nlost - 1);
	if (d->nover)
		fprintf(f,
			"%s: %s: %zu more errors and %zu warnings not shown "
			"(the first %d messages are)\n",
			d->file, d->nover_err ? "error" : "warning",
			d->nover_err, d->nover - d->nover_err, XR_DIAG_MAX);
	buf_release(&b);
}

void xr_diag_release(struct xr_diag *d)
{
	size_t i;
	for (i = 0; i < d->n; i++)
		free(d->items[i].msg);
	free(d->items);
	memset(d, 0, sizeof *d);
}
