/*
 * Time-series sets (series.h): the one container every producer of
 * during-the-run data fills and the store writes.
 *
 * SPDX-License-Identifier: MIT
 */
#include "series.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xr_code.h"
#include "banned.h"

static int fits(const char *s, size_t max)
{
	return s && strlen(s) < max;
}

struct series *series_set_get(struct series_set *ss, const char *host,
			      const char *name, const char *unit)
{
	struct series *s;
	size_t i;
	if (!fits(host, SERIES_HOST_MAX) || !fits(name, SERIES_NAME_MAX))
		return NULL;
	for (i = 0; i < ss->n; i++)
		if (!strcmp(ss->s[i].host, host) &&
		    !strcmp(ss->s[i].name, name))
			return &ss->s[i];
	if (ss->n == ss->cap) {
		size_t cap = ss->cap ? ss->cap * 2 : 2;
		struct series *n = realloc(ss->s, cap * sizeof *n);
		if (!n)
			return NULL;
		ss->s = n;
		ss->cap = cap;
	}
	s = &ss->s[ss->n++];
	memset(s, 0, sizeof *s);
	memcpy(s->host, host, strlen(host) + 1);
	memcpy(s->name, name, strlen(name) + 1);
	if (unit)
		snprintf(s->unit, sizeof s->unit, "%s", unit);
	return s;
}

int series_add(struct series *s, double t, double v)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 8;
		double *nt = realloc(s->t, cap * sizeof *nt), *nv;
		if (!nt)
			return -XR_ENOMEM;
		s->t = nt;
		nv = realloc(s->v, cap * sizeof *nv);
		if (!nv)
			return -XR_ENOMEM;
		s->v = nv;
		s->cap = cap;
	}
	s->t[s->n] = t;
	s->v[s->n] = v;
	s->n++;
	return 0;
}

int series_set_add(struct series_set *ss, const char *host, const char *name,
		   const char *unit, double t, double v)
{
	struct series *s = series_set_get(ss, host, name, unit);
	return s ? series_add(s, t, v) : -XR_ENOMEM;
}

const struct series *series_set_find(const struct series_set *ss,
				     const char *host, const char *name)
{
	size_t i;
	for (i = 0; i < ss->n; i++)
		if ((!host || !strcmp(ss->s[i].host, host)) &&
		    !strcmp(ss->s[i].name, name))
			return &ss->s[i];
	return NULL;
}

int series_set_take(struct series_set *dst, struct series_set *src)
{
	while (src->n > 0) {
		struct series *from = &src->s[src->n - 1];
		struct series *to =
		    series_set_get(dst, from->host, from->name, from->unit);
		size_t i;
		if (!to)
			return -XR_ENOMEM;
		for (i = 0; i < from->n; i++)
			if (series_add(to, from->t[i], from->v[i]) < 0)
				return -XR_ENOMEM;
		free(from->t);
		free(from->v);
		src->n--;
	}
	if (!dst->note[0] && src->note[0])
		memcpy(dst->note, src->note, sizeof dst->note);
	return 0;
}

void series_set_release(struct series_set *ss)
{
	size_t i;
	for (i = 0; i < ss->n; i++) {
		free(ss->s[i].t);
		free(ss->s[i].v);
	}
	free(ss->s);
	memset(ss, 0, sizeof *ss);
}
