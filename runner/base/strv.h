/*
 * NULL-terminated string vectors (argv arrays): building them word by word
 * and freeing them. Every argv xrun builds and hands to proc_ is one.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_STRV_H
#define XR_STRV_H

#include <stddef.h>

struct strv {
	char **v; /* NULL-terminated once a word was pushed; owned */
	size_t n, cap;
};

/* Append a copy of word; 0 or -XR_ENOMEM. */
int strv_push(struct strv *s, const char *word);
int strv_pushf(struct strv *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void strv_release(struct strv *s);
/* Free a NULL-terminated vector of malloc'd strings (NULL ok). */
void strv_free(char **v);

#endif
