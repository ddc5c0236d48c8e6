/*
 * String vectors (strv.h): the argv arrays xrun builds before it forks.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strv.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "xr_code.h"
#include "banned.h"

/* Append w, which the vector then owns; w NULL means out of memory. */
static int strv_take(struct strv *s, char *w)
{
	if (!w)
		return -XR_ENOMEM;
	if (s->n + 2 > s->cap) {
		size_t nc = s->cap ? s->cap * 2 : 16;
		char **nv = realloc(s->v, nc * sizeof *nv);
		if (!nv) {
			free(w);
			return -XR_ENOMEM;
		}
		s->v = nv;
		s->cap = nc;
	}
	s->v[s->n++] = w;
	s->v[s->n] = NULL;
	return 0;
}

int strv_push(struct strv *s, const char *word)
{
	return strv_take(s, strdup(word));
}

int strv_pushf(struct strv *s, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;
	int rc;
	va_start(ap, fmt);
	rc = buf_vaddf(&b, fmt, ap);
	va_end(ap);
	if (rc < 0) {
		buf_release(&b);
		return rc;
	}
	return strv_take(s, buf_detach(&b, NULL));
}

void strv_release(struct strv *s)
{
	size_t i;
	for (i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof *s);
}

void strv_free(char **v)
{
	size_t i;
	if (!v)
		return;
	for (i = 0; v[i]; i++)
		free(v[i]);
	free(v);
}
