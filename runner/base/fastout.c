/*
 * A buffered writer for large machine-readable output (`xrun plan --json`
 * of a million runs): appends into a caller-provided buffer and writes it
 * with fwrite when full, without stdio formatting on the hot path.
 *
 * SPDX-License-Identifier: MIT
 */
#include "fastout.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "banned.h"

void fastout_flush(struct fastout *o)
{
	if (o->len && fwrite(o->b, 1, o->len, o->f) != o->len)
		o->failed = 1;
	o->len = 0;
}

void fastout_mem(struct fastout *o, const char *s, size_t n)
{
	if (n == 0)
		return;
	if (n > o->cap - o->len) {
		fastout_flush(o);
		if (n > o->cap) {
			if (fwrite(s, 1, n, o->f) != n)
				o->failed = 1;
			return;
		}
	}
	memcpy(o->b + o->len, s, n);
	o->len += n;
}

void fastout_s(struct fastout *o, const char *s)
{
	fastout_mem(o, s, strlen(s));
}

void fastout_u(struct fastout *o, unsigned long long v)
{
	char t[24];
	int i = sizeof t;
	do
		t[--i] = (char)('0' + v % 10);
	while (v /= 10);
	fastout_mem(o, t + i, sizeof t - (size_t)i);
}

void fastout_f(struct fastout *o, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	fastout_mem(o, b.s, b.len);
	buf_release(&b);
}

void fastout_json(struct fastout *o, const char *s)
{
	struct buf b = BUF_INIT;
	if (!s) {
		fastout_s(o, "null");
		return;
	}
	buf_add_json_str(&b, s);
	fastout_mem(o, b.s, b.len);
	buf_release(&b);
}
