/*
 * A buffered writer for large machine-readable output: the caller owns the
 * buffer (b, cap) and the stream; fastout_flush at the end. A failed write
 * sets .failed and later writes are still attempted.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_FASTOUT_H
#define XR_FASTOUT_H

#include <stddef.h>
#include <stdio.h>

struct fastout {
	FILE *f;
	char *b; /* buffer of cap bytes */
	size_t len, cap;
	int failed;
};

void fastout_flush(struct fastout *o);
void fastout_mem(struct fastout *o, const char *s, size_t n);
void fastout_s(struct fastout *o, const char *s);
void fastout_u(struct fastout *o, unsigned long long v);
void fastout_f(struct fastout *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* s as a JSON string literal, or null when s is NULL. */
void fastout_json(struct fastout *o, const char *s);

#endif
