/*
 * Growable, capped string buffer (see buf.h). Every piece of text xrun
 * builds (argv words, JSON, reports) goes through here instead of fixed
 * arrays, so that long input is truncated visibly instead of overflowing.
 *
 * SPDX-License-Identifier: MIT
 */
#include "buf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xr_code.h"
#include "oom.h"
#include "banned.h"

#define BUF_DEFAULT_MAX ((size_t)256 << 20)

static char buf_empty[1];

void buf_init(struct buf *b, size_t max)
{
	memset(b, 0, sizeof *b);
	b->max = max;
	b->s = buf_empty;
}

static size_t buf_max(const struct buf *b)
{
	return b->max ? b->max : BUF_DEFAULT_MAX;
}

static int buf_grow(struct buf *b, size_t extra)
{
	size_t need = b->len + extra + 1, nc;
	char *ns;
	if (need <= b->cap)
		return 0;
	nc = b->cap ? b->cap : 64;
	while (nc < need)
		nc *= 2;
	ns = realloc(b->cap ? b->s : NULL, nc);
	if (!ns) {
		xr_oom_mark(NULL, 0);
		return -XR_ENOMEM;
	}
	if (!b->cap)
		ns[0] = 0;
	b->s = ns;
	b->cap = nc;
	return 0;
}

int buf_add(struct buf *b, const void *data, size_t n)
{
	int rc = 0;
	if (!b->s)
		b->s = buf_empty;
	if (b->len + n > buf_max(b)) {
		n = buf_max(b) > b->len ? buf_max(b) - b->len : 0;
		b->truncated = 1;
		rc = -XR_ENOMEM;
	}
	if (n == 0)
		return rc;
	if (buf_grow(b, n) < 0)
		return -XR_ENOMEM;
	memcpy(b->s + b->len, data, n);
	b->len += n;
	b->s[b->len] = 0;
	return rc;
}

int buf_adds(struct buf *b, const char *s)
{
	return buf_add(b, s, strlen(s));
}

int buf_addc(struct buf *b, char c)
{
	return buf_add(b, &c, 1);
}

int buf_vaddf(struct buf *b, const char *fmt, va_list ap)
{
	char small[256];
	va_list cp;
	int n;
	va_copy(cp, ap);
	n = vsnprintf(small, sizeof small, fmt, cp);
	va_end(cp);
	if (n < 0)
		return -XR_EINTERNAL;
	if ((size_t)n < sizeof small)
		return buf_add(b, small, (size_t)n);
	if (buf_grow(b, (size_t)n) < 0)
		return -XR_ENOMEM;
	if (b->len + (size_t)n > buf_max(b)) {
		b->truncated = 1;
		return -XR_ENOMEM;
	}
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
	return 0;
}

int buf_addf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int rc;
	va_start(ap, fmt);
	rc = buf_vaddf(b, fmt, ap);
	va_end(ap);
	return rc;
}

int buf_add_json_str(struct buf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	int rc = buf_addc(b, '"');
	for (; *p && rc == 0; p++) {
		switch (*p) {
		case '"':
			rc = buf_adds(b, "\\\"");
			break;
		case '\\':
			rc = buf_adds(b, "\\\\");
			break;
		case '\n':
			rc = buf_adds(b, "\\n");
			break;
		case '\r':
			rc = buf_adds(b, "\\r");
			break;
		case '\t':
			rc = buf_adds(b, "\\t");
			break;
		default:
			if (*p < 0x20)
				rc = buf_addf(b, "\\u%04x", *p);
			else
				rc = buf_addc(b, (char)*p);
		}
	}
	if (rc == 0)
		rc = buf_addc(b, '"');
	return rc;
}

void buf_reset(struct buf *b)
{
	b->len = 0;
	b->truncated = 0;
	if (b->cap)
		b->s[0] = 0;
}

char *buf_detach(struct buf *b, size_t *len)
{
	char *s;
	if (!b->cap) {
		s = strdup("");
	} else {
		s = b->s;
	}
	if (len)
		*len = b->len;
	buf_init(b, b->max);
	return s;
}

void buf_release(struct buf *b)
{
	if (b->cap)
		free(b->s);
	buf_init(b, b->max);
}

int buf_read_file(struct buf *b, const char *path, size_t max)
{
	char chunk[65536];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	size_t total = 0;
	if (fd < 0)
		return -XR_EIO;
	for (;;) {
		n = read(fd, chunk, sizeof chunk);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (max && total + (size_t)n > max) {
			buf_add(b, chunk, max - total);
			b->truncated = 1;
			close(fd);
			return -XR_ENOMEM;
		}
		total += (size_t)n;
		if (buf_add(b, chunk, (size_t)n) < 0) {
			close(fd);
			return -XR_ENOMEM;
		}
	}
	close(fd);
	return n < 0 ? -XR_EIO : 0;
}

int buf_read_some(struct buf *b, int fd)
{
	char chunk[16384];
	ssize_t n;
	do
		n = read(fd, chunk, sizeof chunk);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno == EAGAIN ? -1 : 0;
	if (n == 0)
		return 0;
	buf_add(b, chunk, (size_t)n);
	return 1;
}
