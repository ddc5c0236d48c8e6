/*
 * A growable string buffer with a size cap (after git's strbuf and curl's
 * dynbuf). The contents are always NUL-terminated. A buffer whose cap would
 * be exceeded keeps what fits, sets .truncated and returns -XR_ENOMEM.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_BUF_H
#define XR_BUF_H

#include <stdarg.h>
#include <stddef.h>

struct buf {
	char *s;    /* NUL-terminated; "" (static) before the first add */
	size_t len; /* bytes used, excluding the NUL */
	size_t cap; /* bytes allocated */
	size_t max; /* maximum len; 0 = default (256 MiB) */
	int truncated;
};

#define BUF_INIT                                                               \
	{                                                                      \
		0                                                              \
	}

void buf_init(struct buf *b, size_t max);
int buf_add(struct buf *b, const void *data, size_t n);
/* Append what the (non-blocking) fd has now, one read: 1 data, 0 end of
 * stream or an error, -1 nothing now (EAGAIN). EINTR is retried. */
int buf_read_some(struct buf *b, int fd);
int buf_adds(struct buf *b, const char *s);
int buf_addc(struct buf *b, char c);
int buf_addf(struct buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int buf_vaddf(struct buf *b, const char *fmt, va_list ap);
/* Append s as a JSON string literal, quotes included. */
int buf_add_json_str(struct buf *b, const char *s);
void buf_reset(struct buf *b); /* len = 0, keeps memory */
/* OUT: caller frees; the buffer is left empty. Never NULL unless OOM. */
char *buf_detach(struct buf *b, size_t *len);
void buf_release(struct buf *b);
/* Read a whole file (at most max bytes, 0 = default cap). */
int buf_read_file(struct buf *b, const char *path, size_t max);

#endif
