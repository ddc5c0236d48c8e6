/*
 * Bump allocator (see arena.h). Blocks grow geometrically; a large request
 * gets a block of its own. Freed only as a whole.
 *
 * SPDX-License-Identifier: MIT
 */
#include "arena.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oom.h"
#include "banned.h"

struct block {
	struct block *next;
	size_t size, used;
	max_align_t data[];
};

/* A heap block the arena frees (arena_adopt); the node is in the arena. */
struct adopted {
	struct adopted *next;
	void *p;
};

struct arena {
	struct block *head;
	struct adopted *adopted;
	size_t total;
};

struct arena *arena_new(void)
{
	struct arena *a = calloc(1, sizeof(struct arena));
	if (!a)
		xr_oom_mark(NULL, 0);
	return a;
}

void *arena_alloc(struct arena *a, size_t n)
{
	const size_t al = sizeof(max_align_t);
	struct block *b = a->head;
	void *p;
	n = (n + al - 1) / al * al;
	if (!n)
		n = al;
	if (!b || b->size - b->used < n) {
		size_t sz = b ? b->size * 2 : 16384;
		if (sz > ((size_t)1 << 24))
			sz = (size_t)1 << 24;
		if (sz < n)
			sz = n;
		b = malloc(sizeof *b + sz);
		if (!b) {
			xr_oom_mark(NULL, 0);
			return NULL;
		}
		b->size = sz;
		b->used = 0;
		b->next = a->head;
		a->head = b;
	}
	p = (char *)b->data + b->used;
	b->used += n;
	a->total += n;
	memset(p, 0, n);
	return p;
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);
	if (p) {
		memcpy(p, s, n);
		p[n] = 0;
	}
	return p;
}

char *arena_strdup(struct arena *a, const char *s)
{
	return s ? arena_strndup(a, s, strlen(s)) : NULL;
}

char *arena_printf(struct arena *a, const char *fmt, ...)
{
	va_list ap;
	int n;
	char *p;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return NULL;
	p = arena_alloc(a, (size_t)n + 1);
	if (!p)
		return NULL;
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

void *arena_adopt(struct arena *a, void *p)
{
	struct adopted *n;
	if (!p)
		return NULL;
	n = arena_alloc(a, sizeof *n);
	if (!n) {
		free(p);
		return NULL;
	}
	n->p = p;
	n->next = a->adopted;
	a->adopted = n;
	return p;
}

size_t arena_used(const struct arena *a)
{
	return a->total;
}

void arena_free(struct arena *a)
{
	struct block *b, *n;
	struct adopted *x;
	if (!a)
		return;
	for (x = a->adopted; x; x = x->next)
		free(x->p);
	for (b = a->head; b; b = n) {
		n = b->next;
		free(b);
	}
	free(a);
}
