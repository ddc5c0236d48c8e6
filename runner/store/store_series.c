/*
 * The series observed during a run (series.h) in the store: their packed
 * form, one JSON array of [t, value] pairs per run, host and name (table
 * series_data, which the view series unpacks: schema/store.md), written
 * inside store_run_finish's transaction (store_rows.c), and the typed
 * reader that hands each series back as arrays, a run's chunks
 * (store_chunks.c) joined.
 *
 * SPDX-License-Identifier: MIT
 */
#include "store.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "series.h"
#include "store_int.h"
#include "banned.h"

/* The shortest "%.*g" of v that reads back as v: counters are integers
 * and most of their increases 0, so the points stay a few bytes each. */
static int add_num(struct buf *b, double v)
{
	char s[40];
	int p;
	if (!isfinite(v))
		return buf_adds(b, "null");
	for (p = 15; p <= 17; p++) {
		snprintf(s, sizeof s, "%.*g", p, v);
		if (strtod(s, NULL) == v)
			break;
	}
	return buf_adds(b, s);
}

/* t to the millisecond, without trailing zeros ("12.5", "-1", "3.001"). */
static int add_time(struct buf *b, double t)
{
	char s[40];
	size_t n;
	if (!isfinite(t))
		return buf_adds(b, "null");
	snprintf(s, sizeof s, "%.3f", t);
	n = strlen(s);
	while (n > 0 && s[n - 1] == '0')
		s[--n] = '\0';
	if (n > 0 && s[n - 1] == '.')
		s[--n] = '\0';
	if (!strcmp(s, "-0"))
		s[0] = '0', s[1] = '\0';
	return buf_adds(b, s);
}

int store_series_pack(const struct series *s, struct buf *out)
{
	size_t i;
	int r = buf_addc(out, '[');
	for (i = 0; r == 0 && i < s->n; i++) {
		r |= buf_adds(out, i ? ",[" : "[");
		r |= add_time(out, s->t[i]);
		r |= buf_addc(out, ',');
		r |= add_num(out, s->v[i]);
		r |= buf_addc(out, ']');
	}
	r |= buf_addc(out, ']');
	return r ? -XR_ENOMEM : 0;
}

/* One number or null of a packed array at *p; NaN for null. */
static int unpack_num(const char **p, double *v)
{
	char *end;
	while (**p == ' ')
		(*p)++;
	if (!strncmp(*p, "null", 4)) {
		*p += 4;
		*v = NAN;
		return 0;
	}
	*v = strtod(*p, &end);
	if (end == *p)
		return -XR_EPARSE;
	*p = end;
	return 0;
}

static int expect(const char **p, char c)
{
	while (**p == ' ')
		(*p)++;
	if (**p != c)
		return -XR_EPARSE;
	(*p)++;
	return 0;
}

/* Decode text into t[n], v[n] (room for n points); the count found, or
 * -XR_EPARSE when text is not what store_series_pack writes. */
static long unpack(const char *text, size_t n, double *t, double *v)
{
	const char *p = text ? text : "";
	size_t k = 0;
	if (expect(&p, '['))
		return -XR_EPARSE;
	if (!expect(&p, ']'))
		return 0;
	for (;;) {
		if (k == n || expect(&p, '[') || unpack_num(&p, &t[k]) ||
		    expect(&p, ',') || unpack_num(&p, &v[k]) || expect(&p, ']'))
			return -XR_EPARSE;
		k++;
		if (!expect(&p, ']'))
			return (long)k;
		if (expect(&p, ','))
			return -XR_EPARSE;
	}
}

static int has_table_sql(struct store *st, const char *sql)
{
	sqlite3_stmt *s;
	int rc = sqlite3_prepare_v2(st->db, sql, -1, &s, NULL);
	sqlite3_finalize(s);
	return rc == SQLITE_OK;
}

/* The query of store_series_each: filters as bound parameters, the
 * sessions as an IN list of integers. Version 8: the rows of each run's
 * current attempt, chunk after chunk; version 7 has one row a series. */
static int store_series_query(struct store *st,
			      const struct store_series_filter *f,
			      sqlite3_stmt **s, struct xr_err *err)
{
	struct buf q = BUF_INIT;
	size_t i;
	int r = 0, v8 = has_table_sql(
		       st, "SELECT attempt, chunk FROM series_data LIMIT 0");
	buf_adds(&q, "SELECT d.run_id, d.host, d.name, d.unit, d.n, d.points "
		     "FROM series_data d");
	if (v8)
		buf_adds(&q, " JOIN runs r ON r.id = d.run_id AND d.attempt = "
			     "r.attempts");
	else if (f && f->nsessions)
		buf_adds(&q, " JOIN runs r ON r.id = d.run_id");
	if (f && f->nsessions) {
		buf_adds(&q, " AND r.session_id IN (");
		for (i = 0; i < f->nsessions; i++)
			buf_addf(&q, "%s%lld", i ? "," : "",
				 (long long)f->sessions[i]);
		buf_addc(&q, ')');
	}
	buf_adds(&q, " WHERE (?1 = 0 OR d.run_id = ?1) AND (?2 IS NULL OR "
		     "d.name GLOB ?2) AND (?3 IS NULL OR d.host = ?3) "
		     "ORDER BY d.run_id, d.host, d.name");
	if (v8)
		buf_adds(&q, ", d.chunk");
	if (q.truncated ||
	    sqlite3_prepare_v2(st->db, q.s, -1, s, NULL) != SQLITE_OK) {
		*s = NULL;
		r = xr_err_set(err, XR_ESTORE, store_path(st), 0, 0,
			       "cannot read series from the store: %s",
			       sqlite3_errmsg(st->db));
	} else {
		sqlite3_bind_int64(*s, 1, f ? f->run_id : 0);
		if (f && f->name)
			sqlite3_bind_text(*s, 2, f->name, -1, SQLITE_STATIC);
		if (f && f->host)
			sqlite3_bind_text(*s, 3, f->host, -1, SQLITE_STATIC);
	}
	buf_release(&q);
	return r;
}

/* One series being gathered from its rows (chunks). */
struct gather {
	int64_t run_id;
	struct buf host, name, unit;
	double *t, *v;
	size_t n, cap;
	int have; /* a series is gathered */
};

static int same_key(const struct gather *g, sqlite3_stmt *s)
{
	const char *h = (const char *)sqlite3_column_text(s, 1);
	const char *nm = (const char *)sqlite3_column_text(s, 2);
	return g->have && g->run_id == sqlite3_column_int64(s, 0) &&
	       !strcmp(g->host.s, h ? h : "") &&
	       !strcmp(g->name.s, nm ? nm : "");
}

static int set_key(struct gather *g, sqlite3_stmt *s)
{
	const char *h = (const char *)sqlite3_column_text(s, 1);
	const char *nm = (const char *)sqlite3_column_text(s, 2);
	const char *u = (const char *)sqlite3_column_text(s, 3);
	buf_reset(&g->host);
	buf_reset(&g->name);
	buf_reset(&g->unit);
	g->run_id = sqlite3_column_int64(s, 0);
	g->n = 0;
	g->have = 1;
	return buf_adds(&g->host, h ? h : "") |
		       buf_adds(&g->name, nm ? nm : "") |
		       buf_adds(&g->unit, u ? u : "")
		   ? -XR_ENOMEM
		   : 0;
}

/* Append the current row's points to g (grown as needed). */
static int gather_row(struct store *st, sqlite3_stmt *s, struct gather *g,
		      struct xr_err *err)
{
	long n = (long)sqlite3_column_int64(s, 4), got;
	if (n < 0)
		n = 0;
	if (g->n + (size_t)n + 1 > g->cap) {
		size_t cap = g->n + (size_t)n + 1;
		double *nt = realloc(g->t, cap * sizeof *nt), *nv;
		if (nt)
			g->t = nt;
		nv = nt ? realloc(g->v, cap * sizeof *nv) : NULL;
		if (!nv)
			return xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
					  "out of memory reading series");
		g->v = nv;
		g->cap = cap;
	}
	got = unpack((const char *)sqlite3_column_text(s, 5), (size_t)n,
		     g->t + g->n, g->v + g->n);
	if (got < 0)
		return xr_err_set(
		    err, XR_ESTORE, store_path(st), 0, 0,
		    "bad points of series '%s' on '%s' of run "
		    "%lld in the store (not %ld [t, value] pairs)",
		    g->name.s, g->host.s, (long long)g->run_id, n);
	g->n += (size_t)got;
	return 0;
}

/* Hand the gathered series to fn: fn's answer. */
static int gather_emit(struct gather *g, store_series_fn fn, void *ctx)
{
	struct store_series_row row;
	if (!g->have)
		return 0;
	g->have = 0;
	row.run_id = g->run_id;
	row.host = g->host.s;
	row.name = g->name.s;
	row.unit = g->unit.s;
	row.t = g->t;
	row.v = g->v;
	row.n = g->n;
	return fn(ctx, &row);
}

int store_series_each(struct store *st, const struct store_series_filter *f,
		      store_series_fn fn, void *ctx, struct xr_err *err)
{
	sqlite3_stmt *s;
	struct gather g = {0};
	int rc = SQLITE_DONE, cb = 0, r;
	if (!has_table_sql(st, "SELECT 1 FROM series_data LIMIT 0"))
		return 0; /* a store older than version 7 */
	if ((r = store_series_query(st, f, &s, err)) < 0)
		return r;
	buf_init(&g.host, 0);
	buf_init(&g.name, 0);
	buf_init(&g.unit, 0);
	while (!cb && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (!same_key(&g, s)) {
			cb = gather_emit(&g, fn, ctx);
			if (!cb && set_key(&g, s) < 0)
				cb = xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
						"out of memory reading series");
		}
		if (!cb)
			cb = gather_row(st, s, &g, err);
	}
	if (!cb && rc == SQLITE_DONE)
		cb = gather_emit(&g, fn, ctx);
	r = cb < 0 ? cb : 0;
	if (!cb && rc != SQLITE_DONE)
		r = xr_err_set(err, XR_ESTORE, store_path(st), 0, 0,
			       "cannot read series from the store: %s",
			       sqlite3_errmsg(st->db));
	free(g.t);
	free(g.v);
	buf_release(&g.host);
	buf_release(&g.name);
	buf_release(&g.unit);
	sqlite3_finalize(s);
	return r;
}

int store_series_names_each(struct store *st, const int64_t *sessions, size_t n,
			    store_name_fn fn, void *ctx, struct xr_err *err)
{
	/* version 8 keeps a killed attempt's rows beside the redo's: only
	 * the current attempt's, as the view series shows */
	static const char v8[] =
	    "SELECT d.host, d.name, COUNT(DISTINCT d.run_id) FROM series_data "
	    "d CROSS JOIN runs r ON r.id = d.run_id AND d.attempt = "
	    "r.attempts WHERE r.session_id IN %s AND r.warmup = 0 AND d.n > 0 "
	    "GROUP BY d.host, d.name ORDER BY d.host, d.name";
	static const char v7[] =
	    "SELECT d.host, d.name, COUNT(DISTINCT d.run_id) FROM series_data "
	    "d CROSS JOIN runs r ON r.id = d.run_id WHERE r.session_id IN %s "
	    "AND r.warmup = 0 AND d.n > 0 GROUP BY d.host, d.name "
	    "ORDER BY d.host, d.name";
	sqlite3_stmt *s;
	int rc = SQLITE_DONE, cb = 0, r;
	if (!has_table_sql(st, "SELECT 1 FROM series_data LIMIT 0"))
		return 0; /* a store older than version 7 */
	if ((r = store_read_prep(
		 st,
		 has_table_sql(st, "SELECT attempt FROM series_data LIMIT 0")
		     ? v8
		     : v7,
		 sessions, n, &s, "series names", err)) < 0)
		return r;
	while (!cb && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_name_count row;
		const char *h = (const char *)sqlite3_column_text(s, 0);
		const char *nm = (const char *)sqlite3_column_text(s, 1);
		row.host = h ? h : "";
		row.name = nm ? nm : "";
		row.runs = sqlite3_column_int64(s, 2);
		cb = fn(ctx, &row);
	}
	return store_read_end(st, s, rc, cb, "series names", err);
}
