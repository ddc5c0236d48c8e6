/*
 * The published cells of a reference while its rows are read
 * (reference.c): rows with the same levels are the published runs of one
 * cell (schema/reference.md), found by a hash of their levels (a search
 * of every cell per row was rows x cells) and folded into it as they
 * come, so that memory follows the cells and the runs, not the rows.
 * A cell keeps its first row's levels, columns and label; of each run only
 * what the verdicts and the reports print of it (schema/report.md:
 * published_runs, published_text, published_lines): its value, its line
 * and its text, in one pool for all cells; an extra metric as the mean of
 * the runs that publish it. The arrays grow with realloc and are handed to
 * the arena at their size once the file is read (arrays doubled in the
 * arena leave each old copy behind).
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "buf.h"
#include "reference_int.h"
#include "banned.h"

static int same_levels(const struct report_ref *ref,
		       const struct report_ref_row *x, const char **levels)
{
	int j;
	for (j = 0; j < ref->nfactors; j++)
		if (strcmp(x->levels[j], levels[j]))
			return 0;
	return 1;
}

/* FNV-1a of a row's levels, each ended by its NUL. */
static uint64_t levels_hash(const struct report_ref *ref, const char **levels)
{
	uint64_t h = 1469598103934665603ULL;
	for (int j = 0; j < ref->nfactors; j++) {
		const unsigned char *c = (const unsigned char *)levels[j];
		do
			h = (h ^ *c) * 1099511628211ULL;
		while (*c++);
	}
	return h;
}

/* The hash's slot for levels: the cell that has them, or an empty one. */
static size_t cells_find(const struct report_ref *ref,
			 const struct ref_cells *cs, const char **levels)
{
	size_t h = (size_t)levels_hash(ref, levels) & cs->mask;
	while (cs->slot[h] >= 0 &&
	       !same_levels(ref, &cs->rows[cs->slot[h]], levels))
		h = (h + 1) & cs->mask;
	return h;
}

/* Room for one more cell (the hash kept at most half full). 0 or
 * -XR_ENOMEM. */
static int cells_grow(const struct report_ref *ref, struct ref_cells *cs)
{
	if (cs->n == cs->cap) {
		int cap = cs->cap ? cs->cap * 2 : 64, i;
		struct report_ref_row *r =
		    realloc(cs->rows, (size_t)cap * sizeof *r);
		int *pc;
		size_t **to;
		if (r)
			cs->rows = r;
		if (!r || !(pc = realloc(cs->pcap, (size_t)cap * sizeof *pc)))
			return -XR_ENOMEM;
		cs->pcap = pc;
		if (!(to = realloc(cs->toff, (size_t)cap * sizeof *to)))
			return -XR_ENOMEM;
		cs->toff = to;
		for (i = cs->cap; i < cap; i++)
			cs->toff[i] = NULL;
		cs->cap = cap;
	}
	if (2 * ((size_t)cs->n + 1) > cs->mask + 1 || !cs->slot) {
		size_t size = cs->slot ? 2 * (cs->mask + 1) : 256, i;
		int *s = malloc(size * sizeof *s);
		if (!s)
			return -XR_ENOMEM;
		free(cs->slot);
		cs->slot = s;
		cs->mask = size - 1;
		memset(s, 0xff, size * sizeof *s); /* -1: empty */
		for (i = 0; i < (size_t)cs->n; i++)
			s[cells_find(ref, cs, cs->rows[i].levels)] = (int)i;
	}
	return 0;
}

/* A new cell from row w at line: its levels, columns and label into the
 * arena. 0 or -XR_ENOMEM. */
static int cell_new(struct ref_read *rr, struct ref_cells *cs,
		    const struct ref_row_scratch *w, int line)
{
	struct report_ref *ref = rr->ref;
	struct report_ref_row *g = &cs->rows[cs->n];
	struct buf lab = BUF_INIT;
	size_t nf = (size_t)ref->nfactors + 1;
	int j;
	memset(g, 0, sizeof *g);
	g->line = line;
	g->cell = -1;
	g->detail = g->reasons = g->method = "";
	g->est = g->lo = g->hi = g->diff_pct = g->p = NAN;
	g->levels = arena_alloc(rr->a, nf * sizeof *g->levels);
	g->level_col = arena_alloc(rr->a, nf * sizeof *g->level_col);
	g->v = arena_alloc(rr->a, (size_t)ref->nvalues * sizeof *g->v);
	if (!g->levels || !g->level_col || !g->v)
		return -XR_ENOMEM;
	for (j = 0; j < ref->nfactors; j++) {
		if (!(g->levels[j] = arena_strdup(rr->a, w->levels[j])))
			return -XR_ENOMEM;
		g->level_col[j] = w->level_col[j];
		buf_addf(&lab, "%s%s=%s", lab.len ? ", " : "", ref->factors[j],
			 w->levels[j]);
	}
	g->label = arena_strdup(rr->a, lab.s ? lab.s : "");
	buf_release(&lab);
	if (!g->label)
		return -XR_ENOMEM;
	memcpy(g->v, w->v, (size_t)ref->nvalues * sizeof *g->v);
	/* an extra metric's runs so far, for its mean (ratio is set after) */
	for (j = 1; j < ref->nvalues; j++)
		g->v[j].ratio = isnan(g->v[j].published) ? NAN : 1;
	cs->pcap[cs->n] = 0;
	cs->toff[cs->n] = NULL;
	cs->n++;
	return 0;
}

/* Run w at line appended to cell g (index k): its value, line and text;
 * an extra metric folded into the mean of the runs that publish it. 0 or
 * -XR_ENOMEM. */
static int cell_add(const struct report_ref *ref, struct ref_cells *cs, int k,
		    const struct ref_row_scratch *w, int line)
{
	struct report_ref_row *g = &cs->rows[k];
	int j;
	if (g->npub == cs->pcap[k]) {
		int m = cs->pcap[k] ? cs->pcap[k] * 2 : 1;
		double *p = realloc(g->pub, (size_t)m * sizeof *p);
		int *l;
		size_t *t;
		if (p)
			g->pub = p;
		if (!p || !(l = realloc(g->pub_line, (size_t)m * sizeof *l)))
			return -XR_ENOMEM;
		g->pub_line = l;
		if (!(t = realloc(cs->toff[k], (size_t)m * sizeof *t)))
			return -XR_ENOMEM;
		cs->toff[k] = t;
		cs->pcap[k] = m;
	}
	g->pub[g->npub] = w->pub;
	g->pub_line[g->npub] = line;
	cs->toff[k][g->npub] = cs->texts.len;
	if (buf_add(&cs->texts, w->pub_text, strlen(w->pub_text) + 1) < 0)
		return -XR_ENOMEM;
	if (g->npub++ == 0)
		return 0;
	for (j = 1; j < ref->nvalues; j++) {
		double *a = &g->v[j].published, b = w->v[j].published;
		int cnt = isnan(g->v[j].ratio) ? 1 : (int)g->v[j].ratio;
		if (isnan(b))
			continue;
		if (isnan(*a)) {
			*a = b;
			g->v[j].ratio = 1;
		} else {
			*a = (*a * cnt + b) / (cnt + 1);
			g->v[j].ratio = cnt + 1;
		}
	}
	return 0;
}
void ref_cells_release(struct ref_cells *cs)
{
	int k;
	for (k = 0; k < cs->n; k++) {
		free(cs->rows[k].pub);
		free(cs->rows[k].pub_line);
		free(cs->toff[k]);
	}
	free(cs->rows);
	free(cs->pcap);
	free(cs->toff);
	free(cs->slot);
	buf_release(&cs->texts);
	memset(cs, 0, sizeof *cs);
}

/* Trimmed to n elements of size and handed to the arena; NULL when out of
 * memory (p freed). */
static void *adopt(struct arena *a, void *p, size_t n, size_t size)
{
	void *q = realloc(p, n ? n * size : 1);
	return arena_adopt(a, q ? q : p);
}

/* The runs of cell g (its text offsets to): trimmed and handed to the
 * arena, the offsets turned into pointers into texts in their own memory
 * (a size_t and a pointer are one size). 0 or -XR_ENOMEM, the arrays
 * freed. */
static int cell_finish(struct arena *a, struct report_ref_row *g, size_t *to,
		       const char *texts)
{
	size_t n = (size_t)g->npub, i;
	_Static_assert(sizeof(size_t) == sizeof(const char *),
		       "offsets and pointers share the array");
	if (!(g->pub = adopt(a, g->pub, n, sizeof *g->pub))) {
		free(g->pub_line);
		free(to);
		return -XR_ENOMEM;
	}
	if (!(g->pub_line = adopt(a, g->pub_line, n, sizeof *g->pub_line))) {
		free(to);
		return -XR_ENOMEM;
	}
	if (!(to = adopt(a, to, n, sizeof *to)))
		return -XR_ENOMEM;
	g->pub_text = (const char **)to;
	for (i = 0; i < n; i++)
		g->pub_text[i] = texts + to[i];
	return 0;
}

int ref_cells_finish(struct ref_read *rr, struct ref_cells *cs)
{
	struct report_ref *ref = rr->ref;
	size_t tlen;
	char *texts = buf_detach(&cs->texts, &tlen);
	int k, i, j;
	if (!texts || !arena_adopt(rr->a, texts)) {
		ref_cells_release(cs);
		return -XR_ENOMEM;
	}
	for (k = 0; k < cs->n; k++) {
		struct report_ref_row *g = &cs->rows[k];
		double sum = 0;
		size_t *to = cs->toff[k];
		cs->toff[k] = NULL;
		if (cell_finish(rr->a, g, to, texts) < 0) {
			/* the cells before are the arena's */
			memmove(cs->rows, cs->rows + k + 1,
				(size_t)(cs->n - k - 1) * sizeof *cs->rows);
			memmove(cs->toff, cs->toff + k + 1,
				(size_t)(cs->n - k - 1) * sizeof *cs->toff);
			cs->n -= k + 1;
			ref_cells_release(cs);
			return -XR_ENOMEM;
		}
		for (i = 0; i < g->npub; i++)
			sum += g->pub[i];
		g->v[0].published = sum / g->npub;
		for (j = 0; j < ref->nvalues; j++)
			g->v[j].ratio = NAN;
	}
	ref->nrows = cs->n;
	ref->rows = adopt(rr->a, cs->rows, (size_t)cs->n + 1, sizeof *cs->rows);
	cs->rows = NULL;
	cs->n = 0;
	ref_cells_release(cs);
	return ref->rows ? 0 : -XR_ENOMEM;
}

int ref_cells_add(struct ref_read *rr, struct ref_cells *cs,
		  const struct ref_row_scratch *w, int line)
{
	size_t h;
	int k, rc;
	if ((rc = cells_grow(rr->ref, cs)) < 0)
		return rc;
	h = cells_find(rr->ref, cs, w->levels);
	if ((k = cs->slot[h]) < 0) {
		if ((rc = cell_new(rr, cs, w, line)) < 0)
			return rc;
		cs->slot[h] = k = cs->n - 1;
	}
	return cell_add(rr->ref, cs, k, w, line);
}
