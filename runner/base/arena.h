/*
 * A bump allocator: plan objects come from one arena freed in one call.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_ARENA_H
#define XR_ARENA_H

#include <stddef.h>

struct arena;

struct arena *arena_new(void);
/* Zeroed memory, aligned for any type; NULL only on OOM. */
void *arena_alloc(struct arena *a, size_t n);
char *arena_strdup(struct arena *a, const char *s);
char *arena_strndup(struct arena *a, const char *s, size_t n);
char *arena_printf(struct arena *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* p (from malloc or realloc) is freed with the arena: an array grown with
 * realloc while it is built and kept to the end, without an arena copy
 * beside it. Returns p; NULL when out of memory, p then freed. */
void *arena_adopt(struct arena *a, void *p);
size_t arena_used(const struct arena *a);
void arena_free(struct arena *a);

#endif
