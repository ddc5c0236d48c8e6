/*
 * The store's typed readers: every query `xrun status`, the estimates of
 * `xrun plan` and the report model make, each handing its rows to a
 * callback as a struct (store.h), so that no SQL text and no SQLite handle
 * leave the store. The writes are store_rows.c's; the handle store.c's.
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
#include "store_int.h"
#include "banned.h"

void store_default_path(const char *plan_name, struct buf *out)
{
	buf_addf(out, "./%s.db", plan_name);
}

static const char *col_str(sqlite3_stmt *s, int i)
{
	return (const char *)sqlite3_column_text(s, i);
}

static double col_real(sqlite3_stmt *s, int i)
{
	if (sqlite3_column_type(s, i) == SQLITE_NULL)
		return NAN;
	return sqlite3_column_double(s, i);
}

static int read_fail(struct store *st, const char *what, struct xr_err *err)
{
	return xr_err_set(err, XR_ESTORE, store_path(st), 0, 0,
			  "cannot read %s from the store: %s", what,
			  sqlite3_errmsg(st->db));
}

/* "(1,2,3)": the session ids, integers only, for an IN clause. */
static void sessions_list(struct buf *b, const int64_t *ids, size_t n)
{
	size_t i;
	buf_addc(b, '(');
	for (i = 0; i < n; i++)
		buf_addf(b, "%s%lld", i ? "," : "", (long long)ids[i]);
	buf_addc(b, ')');
}

static int prep_text(struct store *st, const struct buf *q, sqlite3_stmt **s,
		     const char *what, struct xr_err *err)
{
	int rc =
	    q->s ? sqlite3_prepare_v2(st->db, q->s, -1, s, NULL) : SQLITE_NOMEM;
	if (rc != SQLITE_OK) {
		*s = NULL;
		return read_fail(st, what, err);
	}
	return 0;
}

/* Prepare sql, where "%s" (if any) stands for the sessions list. */
int store_read_prep(struct store *st, const char *sql, const int64_t *ids,
		    size_t n, sqlite3_stmt **s, const char *what,
		    struct xr_err *err)
{
	struct buf q = BUF_INIT, in = BUF_INIT;
	int r;
	sessions_list(&in, ids, n);
	buf_addf(&q, sql, in.s);
	r = prep_text(st, &q, s, what, err);
	buf_release(&q);
	buf_release(&in);
	return r;
}

/* After the row loop: rc the last sqlite3_step, cb what fn last said. */
int store_read_end(struct store *st, sqlite3_stmt *s, int rc, int cb,
		   const char *what, struct xr_err *err)
{
	int r = 0;
	if (cb < 0)
		r = cb;
	else if (!cb && rc != SQLITE_DONE)
		r = read_fail(st, what, err);
	sqlite3_finalize(s);
	return r;
}

/* ---- sessions and runs ------------------------------------------------ */

int store_sessions_each(struct store *st, store_session_fn fn, void *ctx,
			struct xr_err *err)
{
	static const char sql[] =
	    "SELECT s.id, p.name, p.title, p.hash, p.text, s.status, "
	    "s.started_at, s.updated_at, s.ended_at, NULL FROM sessions s "
	    "JOIN plans p ON p.id = s.plan_id ORDER BY s.id DESC";
	/* Version 10: a shard's testbed. */
	static const char sql10[] =
	    "SELECT s.id, p.name, p.title, p.hash, p.text, s.status, "
	    "s.started_at, s.updated_at, s.ended_at, sh.testbed FROM "
	    "sessions s JOIN plans p ON p.id = s.plan_id LEFT JOIN shards sh "
	    "ON sh.session_id = s.id ORDER BY s.id DESC";
	sqlite3_stmt *s;
	int rc = SQLITE_DONE, cb = 0, r;
	if ((r = store_read_prep(st, store_has_shards(st) ? sql10 : sql, NULL,
				 0, &s, "sessions", err)) < 0)
		return r;
	while (!cb && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_session_row row;
		row.id = sqlite3_column_int64(s, 0);
		row.plan_name = col_str(s, 1);
		row.plan_title = col_str(s, 2);
		row.plan_hash = col_str(s, 3);
		row.plan_text = col_str(s, 4);
		row.status = col_str(s, 5);
		row.started_at = col_real(s, 6);
		row.updated_at = col_real(s, 7);
		row.ended_at = col_real(s, 8);
		row.testbed = col_str(s, 9);
		cb = fn(ctx, &row);
	}
	return store_read_end(st, s, rc, cb, "sessions", err);
}

int store_run_counts(struct store *st, int64_t session_id,
		     int64_t counts[STORE_RUN_STATUSES], struct xr_err *err)
{
	/* Positions below 0 are a search's trials (version 11): the
	 * schedule's runs are the searches. */
	static const char sql[] = "SELECT status, count(*) FROM runs WHERE "
				  "session_id = ?1 AND position >= 0 GROUP BY "
				  "status";
	/* Version 6: the scheduled runs without a row yet are pending. */
	static const char sql6[] =
	    "SELECT status, count(*) FROM runs WHERE session_id = ?1 AND "
	    "position >= 0 GROUP BY status UNION ALL SELECT 'pending', runs "
	    "- (SELECT count(*) FROM runs WHERE session_id = ?1 AND "
	    "position >= 0) FROM schedules WHERE session_id = ?1";
	sqlite3_stmt *s;
	int rc = SQLITE_DONE, r, i;
	for (i = 0; i < STORE_RUN_STATUSES; i++)
		counts[i] = 0;
	if ((r = store_read_prep(st, store_has_schedules(st) ? sql6 : sql, NULL,
				 0, &s, "runs", err)) < 0)
		return r;
	sqlite3_bind_int64(s, 1, session_id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		int k = store_status_parse(col_str(s, 0));
		if (k >= 0 && sqlite3_column_int64(s, 1) > 0)
			counts[k] += sqlite3_column_int64(s, 1);
	}
	return store_read_end(st, s, rc, 0, "runs", err);
}

int store_verify_run_counts(struct store *st, int64_t session_id,
			    const char *settings, int64_t *wrong,
			    int64_t *unverified, struct xr_err *err)
{
	/* a factor's second verify entry is stored as "NAME#2" */
	static const char sql[] =
	    "SELECT (SELECT count(*) FROM runs WHERE session_id = ?1 AND "
	    "status = 'ok' AND warmup = 0 AND verified = 0), "
	    "(SELECT count(*) FROM runs r WHERE r.session_id = ?1 AND "
	    "r.status = 'ok' AND r.warmup = 0 AND EXISTS (SELECT 1 FROM "
	    "json_each(?2) f WHERE NOT EXISTS (SELECT 1 FROM verifications "
	    "v WHERE v.run_id = r.id AND (v.factor = f.value OR "
	    "substr(v.factor, 1, length(f.value) + 1) = f.value || '#') AND "
	    "NOT (v.method = 'apply' AND v.ok = 1))))";
	sqlite3_stmt *s;
	int rc, r;
	*wrong = *unverified = 0;
	if ((r = store_read_prep(st, sql, NULL, 0, &s, "verifications", err)) <
	    0)
		return r;
	sqlite3_bind_int64(s, 1, session_id);
	sqlite3_bind_text(s, 2, settings ? settings : "[]", -1,
			  SQLITE_TRANSIENT);
	if ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		*wrong = sqlite3_column_int64(s, 0);
		*unverified = sqlite3_column_int64(s, 1);
		rc = SQLITE_DONE;
	}
	return store_read_end(st, s, rc, 0, "verifications", err);
}

/* The WHERE and LIMIT of a run filter; statuses are xrun's own names. */
static void run_filter_sql(const struct store_run_filter *f, struct buf *q)
{
	int i, n = 0;
	buf_adds(q, "SELECT id, session_id, position, block, rep, warmup, "
		    "status, cell, reason, engine, target, params, "
		    "started_at, ended_at, elapsed FROM runs "
		    "WHERE position >= 0 AND session_id IN ");
	sessions_list(q, f->sessions, f->nsessions);
	if (f->block >= 0)
		buf_adds(q, " AND block = ?1");
	if (f->statuses) {
		buf_adds(q, " AND status IN (");
		for (i = 0; i < STORE_RUN_STATUSES; i++)
			if (f->statuses & STORE_STATUS_BIT(i))
				buf_addf(q, "%s'%s'", n++ ? ", " : "",
					 run_status_name((enum run_status)i));
		buf_adds(q, ")");
	}
	if (f->with_reason)
		buf_adds(q, " AND reason IS NOT NULL");
	buf_adds(q, " ORDER BY session_id, position");
	if (f->limit > 0)
		buf_adds(q, " LIMIT ?2");
}

int store_runs_each(struct store *st, const struct store_run_filter *f,
		    store_run_fn fn, void *ctx, struct xr_err *err)
{
	struct buf q = BUF_INIT;
	sqlite3_stmt *s;
	int rc = SQLITE_DONE, cb = 0, r;
	run_filter_sql(f, &q);
	r = prep_text(st, &q, &s, "runs", err);
	buf_release(&q);
	if (r < 0)
		return r;
	if (f->block >= 0)
		sqlite3_bind_int64(s, 1, f->block);
	if (f->limit > 0)
		sqlite3_bind_int(s, 2, f->limit);
	while (!cb && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_run_row row;
		row.id = sqlite3_column_int64(s, 0);
		row.session_id = sqlite3_column_int64(s, 1);
		row.position = sqlite3_column_int64(s, 2);
		row.block = sqlite3_column_int64(s, 3);
		row.rep = sqlite3_column_int(s, 4);
		row.warmup = sqlite3_column_int(s, 5);
		row.status_name = col_str(s, 6);
		row.status = store_status_parse(row.status_name);
		row.cell = col_str(s, 7);
		row.reason = col_str(s, 8);
		row.engine = col_str(s, 9);
		row.target = col_str(s, 10);
		row.params = col_str(s, 11);
		row.started_at = col_real(s, 12);
		row.ended_at = col_real(s, 13);
		row.elapsed = col_real(s, 14);
		cb = fn(ctx, &row);
	}
	return store_read_end(st, s, rc, cb, "runs", err);
}

int store_blocks_each(struct store *st, int64_t session_id, store_block_fn fn,
		      void *ctx, struct xr_err *err)
{
	static const char sql[] =
	    "SELECT block, min(position), cell, count(*), "
	    "sum(status IN ('ok', 'skipped')), "
	    "sum(status IN ('failed', 'timeout')), "
	    "sum(status IN ('pending', 'running', 'interrupted')), "
	    "(SELECT cell FROM runs r2 WHERE r2.session_id = "
	    "runs.session_id AND r2.block = runs.block AND r2.status "
	    "IN ('pending', 'running', 'interrupted') ORDER BY "
	    "position LIMIT 1) FROM runs WHERE session_id = ?1 AND "
	    "position >= 0 GROUP BY block ORDER BY block";
	sqlite3_stmt *s;
	int rc = SQLITE_DONE, cb = 0, r;
	if ((r = store_read_prep(st, sql, NULL, 0, &s, "blocks", err)) < 0)
		return r;
	sqlite3_bind_int64(s, 1, session_id);
	while (!cb && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_block_row row;
		row.block = sqlite3_column_int64(s, 0);
		row.first_position = sqlite3_column_int64(s, 1);
		row.cell = col_str(s, 2);
		row.nruns = sqlite3_column_int64(s, 3);
		row.done = sqlite3_column_int64(s, 4);
		row.failed = sqlite3_column_int64(s, 5);
		row.pending = sqlite3_column_int64(s, 6);
		row.pending_cell = col_str(s, 7);
		cb = fn(ctx, &row);
	}
	return store_read_end(st, s, rc, cb, "blocks", err);
}

int store_run_timings_each(struct store *st, store_timing_fn fn, void *ctx,
			   struct xr_err *err)
{
	static const char sql[] =
	    "SELECT started_at - LAG(ended_at) OVER "
	    "(PARTITION BY session_id ORDER BY position), elapsed, status, "
	    "cell_index, session_id FROM runs WHERE started_at IS NOT NULL AND "
	    "ended_at IS NOT NULL AND position >= 0 ORDER BY session_id, "
	    "position";
	sqlite3_stmt *s;
	int rc = SQLITE_DONE, cb = 0, r;
	if ((r = store_read_prep(st, sql, NULL, 0, &s, "run times", err)) < 0)
		return r;
	while (!cb && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_run_timing row;
		row.gap = col_real(s, 0);
		row.elapsed = col_real(s, 1);
		row.status = store_status_parse(col_str(s, 2));
		row.cell_index = sqlite3_column_int64(s, 3);
		row.session_id = sqlite3_column_int64(s, 4);
		cb = fn(ctx, &row);
	}
	return store_read_end(st, s, rc, cb, "run times", err);
}

/* ---- values ----------------------------------------------------------- */

int store_metrics_each(struct store *st, store_metric_fn fn, void *ctx,
		       struct xr_err *err)
{
	sqlite3_stmt *s;
	int rc = SQLITE_DONE, cb = 0, r;
	if ((r = store_read_prep(
		 st, "SELECT run_id, name, value, unit FROM metrics", NULL, 0,
		 &s, "metrics", err)) < 0)
		return r;
	while (!cb && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_metric_row row;
		row.run_id = sqlite3_column_int64(s, 0);
		row.name = col_str(s, 1);
		row.value = sqlite3_column_double(s, 2);
		row.unit = col_str(s, 3);
		cb = fn(ctx, &row);
	}
	return store_read_end(st, s, rc, cb, "metrics", err);
}

/* The rows of one run, gathered for store_intervals_each. */
struct iv_group {
	struct store_interval_run g;
	double *v; /* [3 * cap]: values, starts, ends */
	size_t cap;
};

static int iv_push(struct iv_group *b, double value, double t0, double t1)
{
	if (b->g.n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 64;
		double *t = malloc(3 * cap * sizeof *t);
		if (!t)
			return -XR_ENOMEM;
		if (b->g.n) {
			memcpy(t, b->v, b->g.n * sizeof *t);
			memcpy(t + cap, b->v + b->cap, b->g.n * sizeof *t);
			memcpy(t + 2 * cap, b->v + 2 * b->cap,
			       b->g.n * sizeof *t);
		}
		free(b->v);
		b->v = t;
		b->cap = cap;
	}
	b->v[b->g.n] = value;
	b->v[b->cap + b->g.n] = t0;
	b->v[2 * b->cap + b->g.n] = t1;
	b->g.n++;
	return 0;
}

/* Hand the gathered run to fn; what fn says, 0 when there was none. */
static int iv_flush(struct iv_group *b, store_interval_fn fn, void *ctx)
{
	int cb;
	if (!b->g.n)
		return 0;
	b->g.value = b->v;
	b->g.t_start = b->v + b->cap;
	b->g.t_end = b->v + 2 * b->cap;
	cb = fn(ctx, &b->g);
	b->g.n = 0;
	return cb;
}

int store_intervals_each(struct store *st, store_interval_fn fn, void *ctx,
			 struct xr_err *err)
{
	struct iv_group b;
	sqlite3_stmt *s;
	int rc = SQLITE_DONE, cb = 0, r;
	if ((r = store_read_prep(
		 st, "SELECT run_id, value, t_start, t_end FROM intervals",
		 NULL, 0, &s, "intervals", err)) < 0)
		return r;
	memset(&b, 0, sizeof b);
	while (!cb && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(s, 0);
		if (b.g.n && id != b.g.run_id)
			cb = iv_flush(&b, fn, ctx);
		b.g.run_id = id;
		if (!cb && iv_push(&b, sqlite3_column_double(s, 1),
				   sqlite3_column_double(s, 2),
				   sqlite3_column_double(s, 3)) < 0)
			cb = xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
					"out of memory reading the intervals");
	}
	if (!cb && rc == SQLITE_DONE)
		cb = iv_flush(&b, fn, ctx);
	free(b.v);
	return store_read_end(st, s, rc, cb, "intervals", err);
}

int store_counter_sums_each(struct store *st, const int64_t *sessions, size_t n,
			    store_counter_fn fn, void *ctx, struct xr_err *err)
{
	/* Summed in SQL: few rows come back. */
	static const char sql[] =
	    "SELECT r.cell, c.host, c.scope, c.name, SUM(c.value) "
	    "FROM counters c CROSS JOIN runs r ON r.id = c.run_id "
	    "WHERE r.position >= 0 AND r.session_id IN %s AND r.status = 'ok' "
	    "AND r.warmup = 0 AND c.value > 0 "
	    "AND c.scope IN ('nic', 'ethtool', 'tcp', 'capture') "
	    "GROUP BY r.cell, c.host, c.scope, c.name";
	sqlite3_stmt *s;
	int rc = SQLITE_DONE, cb = 0, r;
	if ((r = store_read_prep(st, sql, sessions, n, &s, "counters", err)) <
	    0)
		return r;
	while (!cb && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_counter_sum row;
		row.cell = col_str(s, 0);
		row.host = col_str(s, 1);
		row.scope = col_str(s, 2);
		row.name = col_str(s, 3);
		row.sum = sqlite3_column_double(s, 4);
		cb = fn(ctx, &row);
	}
	return store_read_end(st, s, rc, cb, "counters", err);
}

int store_verify_tallies_each(struct store *st, const int64_t *sessions,
			      size_t n, store_tally_fn fn, void *ctx,
			      struct xr_err *err)
{
	/* A factor's second and later verify entries are stored as
	 * "NAME#2" ... (a factor name has no '#'): they count for NAME.
	 * Runs are counted, not checks: a run whose factor was checked on
	 * two hosts (or by two entries) is one run, failed when any check
	 * failed (the inner query: one row per run and factor). */
	static const char sql[] =
	    "SELECT cell, f, ok, COUNT(*), MIN(e), MIN(a) FROM ("
	    "SELECT r.cell AS cell, CASE WHEN instr(v.factor, '#') > 0 THEN "
	    "substr(v.factor, 1, instr(v.factor, '#') - 1) ELSE v.factor END "
	    "AS f, MIN(v.ok) AS ok, "
	    "MIN(CASE WHEN v.ok = 0 THEN v.expected END) AS e, "
	    "MIN(CASE WHEN v.ok = 0 THEN v.actual END) AS a "
	    "FROM verifications v CROSS JOIN runs r ON r.id = v.run_id "
	    "WHERE r.position >= 0 AND r.session_id IN %s AND r.status = 'ok' "
	    "AND r.warmup = 0 AND NOT (v.method = 'apply' AND v.ok = 1) "
	    "GROUP BY r.id, f) GROUP BY cell, f, ok";
	sqlite3_stmt *s;
	int rc = SQLITE_DONE, cb = 0, r;
	if ((r = store_read_prep(st, sql, sessions, n, &s, "verifications",
				 err)) < 0)
		return r;
	while (!cb && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_verify_tally row;
		row.cell = col_str(s, 0);
		row.factor = col_str(s, 1);
		row.ok = sqlite3_column_int(s, 2);
		row.count = sqlite3_column_int64(s, 3);
		row.expected = col_str(s, 4);
		row.actual = col_str(s, 5);
		cb = fn(ctx, &row);
	}
	return store_read_end(st, s, rc, cb, "verifications", err);
}

int store_verify_groups_each(struct store *st, const int64_t *sessions,
			     size_t n, store_vgroup_fn fn, void *ctx,
			     struct xr_err *err)
{
	static const char sql[] =
	    "SELECT v.factor, v.host, v.method, v.expected, v.actual, "
	    "v.ok, COUNT(*) FROM verifications v CROSS JOIN runs r "
	    "ON r.id = v.run_id WHERE r.position >= 0 AND r.session_id IN %s "
	    "AND r.warmup = 0 GROUP BY 1, 2, 3, 4, 5, 6 "
	    "ORDER BY 1, 2, 6, 4, 5";
	sqlite3_stmt *s;
	int rc = SQLITE_DONE, cb = 0, r;
	if ((r = store_read_prep(st, sql, sessions, n, &s, "verifications",
				 err)) < 0)
		return r;
	while (!cb && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_verify_group row;
		row.factor = col_str(s, 0);
		row.host = col_str(s, 1);
		row.method = col_str(s, 2);
		row.expected = col_str(s, 3);
		row.actual = col_str(s, 4);
		row.ok = sqlite3_column_int(s, 5);
		row.count = sqlite3_column_int64(s, 6);
		cb = fn(ctx, &row);
	}
	return store_read_end(st, s, rc, cb, "verifications", err);
}

int store_facts_each(struct store *st, const int64_t *sessions, size_t n,
		     store_fact_fn fn, void *ctx, struct xr_err *err)
{
	static const char sql[] =
	    "SELECT session_id, host, key, value FROM host_facts "
	    "WHERE session_id IN %s ORDER BY host, key, session_id";
	sqlite3_stmt *s;
	int rc = SQLITE_DONE, cb = 0, r;
	if ((r = store_read_prep(st, sql, sessions, n, &s, "host facts", err)) <
	    0)
		return r;
	while (!cb && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_fact_row row;
		row.session_id = sqlite3_column_int64(s, 0);
		row.host = col_str(s, 1);
		row.key = col_str(s, 2);
		row.value = col_str(s, 3);
		cb = fn(ctx, &row);
	}
	return store_read_end(st, s, rc, cb, "host facts", err);
}

int store_metric_names_each(struct store *st, const int64_t *sessions, size_t n,
			    store_name_fn fn, void *ctx, struct xr_err *err)
{
	static const char sql[] =
	    "SELECT m.name, COUNT(*) FROM metrics m "
	    "CROSS JOIN runs r ON r.id = m.run_id "
	    "WHERE r.position >= 0 AND r.session_id IN %s AND r.warmup = 0 "
	    "AND r.status = 'ok' GROUP BY m.name ORDER BY m.name";
	sqlite3_stmt *s;
	int rc = SQLITE_DONE, cb = 0, r;
	if ((r = store_read_prep(st, sql, sessions, n, &s, "metric names",
				 err)) < 0)
		return r;
	while (!cb && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_name_count row;
		row.host = NULL;
		row.name = col_str(s, 0);
		row.runs = sqlite3_column_int64(s, 1);
		cb = fn(ctx, &row);
	}
	return store_read_end(st, s, rc, cb, "metric names", err);
}

int store_observed_each(struct store *st, const int64_t *sessions, size_t n,
			store_observed_fn fn, void *ctx, struct xr_err *err)
{
	static const char sql[] =
	    "SELECT o.run_id, o.key, o.value FROM observed o "
	    "CROSS JOIN runs r ON r.id = o.run_id "
	    "WHERE r.position >= 0 AND r.session_id IN %s AND r.warmup = 0 "
	    "ORDER BY o.run_id, o.key";
	sqlite3_stmt *s;
	int rc = SQLITE_DONE, cb = 0, r;
	if ((r = store_read_prep(st, sql, sessions, n, &s, "observed values",
				 err)) < 0)
		return r;
	while (!cb && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_observed_row row;
		row.run_id = sqlite3_column_int64(s, 0);
		row.key = col_str(s, 1);
		row.value = col_str(s, 2);
		cb = fn(ctx, &row);
	}
	return store_read_end(st, s, rc, cb, "observed values", err);
}

/* ---- conditions: what the runs really ran under ----------------------- */

int store_conditions_each(struct store *st, const int64_t *sessions, size_t n,
			  store_condition_fn fn, void *ctx, struct xr_err *err)
{
	/* The engine's observed settings and the MTU the nic.mtu probe
	 * read, per cell and value, over the ok runs. Each joins from the
	 * child table: from runs, every run's row was read for each of them
	 * even when the table was empty (a tenth of the report of 100,000
	 * runs, bench/RESULTS.md). The engine of the runs is the caller's:
	 * it reads the runs anyway. */
	static const char sql[] =
	    "SELECT r.cell, o.key, o.value, count(*) FROM observed o CROSS "
	    "JOIN runs r ON r.id = o.run_id WHERE r.position >= 0 AND "
	    "r.session_id IN %1$s AND "
	    "r.status = 'ok' AND r.warmup = 0 GROUP BY r.cell, o.key, o.value "
	    "UNION ALL SELECT r.cell, 'mtu@' || v.host, v.actual, count(*) "
	    "FROM verifications v CROSS JOIN runs r ON r.id = v.run_id WHERE "
	    "r.session_id IN %1$s AND r.status = 'ok' AND r.warmup = 0 AND "
	    "v.method = 'probe:nic.mtu' AND v.actual IS NOT NULL "
	    "GROUP BY r.cell, v.host, v.actual ORDER BY 2, 1, 3";
	sqlite3_stmt *s;
	int rc = SQLITE_DONE, cb = 0, r;
	if ((r = store_read_prep(st, sql, sessions, n, &s, "observed settings",
				 err)) < 0)
		return r;
	while (!cb && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_condition_row row;
		row.cell = col_str(s, 0);
		row.key = col_str(s, 1);
		row.value = col_str(s, 2);
		row.count = sqlite3_column_int64(s, 3);
		cb = fn(ctx, &row);
	}
	return store_read_end(st, s, rc, cb, "observed settings", err);
}

int store_has_table(struct store *st, const char *name)
{
	sqlite3_stmt *s;
	int found;
	if (sqlite3_prepare_v2(st->db,
			       "SELECT 1 FROM sqlite_master WHERE type = "
			       "'table' AND name = ?",
			       -1, &s, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
	found = sqlite3_step(s) == SQLITE_ROW;
	sqlite3_finalize(s);
	return found;
}

int store_cuts_each(struct store *st, const int64_t *sessions, size_t n,
		    store_cut_fn fn, void *ctx, struct xr_err *err)
{
	static const char sql[] =
	    "SELECT r.cell, count(*), max(c.cap) FROM output_cut c CROSS JOIN "
	    "runs r "
	    "ON r.id = c.run_id WHERE r.position >= 0 AND r.session_id IN %s "
	    "AND r.status = 'ok' "
	    "AND r.warmup = 0 GROUP BY r.cell ORDER BY r.cell";
	sqlite3_stmt *s;
	int rc = SQLITE_DONE, cb = 0, r;
	if (!store_has_table(st, "output_cut"))
		return 0; /* a store older than version 8, read as it is */
	if ((r = store_read_prep(st, sql, sessions, n, &s, "output caps",
				 err)) < 0)
		return r;
	while (!cb && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_cut_row row;
		row.cell = col_str(s, 0);
		row.nruns = sqlite3_column_int64(s, 1);
		row.cap = sqlite3_column_int64(s, 2);
		cb = fn(ctx, &row);
	}
	return store_read_end(st, s, rc, cb, "output caps", err);
}

int store_loads_each(struct store *st, const int64_t *sessions, size_t n,
		     store_load_fn fn, void *ctx, struct xr_err *err)
{
	static const char sql[] =
	    "SELECT r.cell, min(l.load1), max(l.load1), max(l.cpus), "
	    "sum(l.load1 > l.cpus), count(*) FROM run_load l CROSS JOIN runs r "
	    "ON "
	    "r.id = l.run_id WHERE r.position >= 0 AND r.session_id IN %s "
	    "AND r.status = 'ok' "
	    "AND r.warmup = 0 GROUP BY r.cell ORDER BY r.cell";
	sqlite3_stmt *s;
	int rc = SQLITE_DONE, cb = 0, r;
	if (!store_has_table(st, "run_load"))
		return 0; /* a store older than version 4, read as it is */
	if ((r = store_read_prep(st, sql, sessions, n, &s, "load averages",
				 err)) < 0)
		return r;
	while (!cb && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_load_row row;
		row.cell = col_str(s, 0);
		row.load_min = col_real(s, 1);
		row.load_max = col_real(s, 2);
		row.cpus = sqlite3_column_int(s, 3);
		row.over = sqlite3_column_int64(s, 4);
		row.nruns = sqlite3_column_int64(s, 5);
		cb = fn(ctx, &row);
	}
	return store_read_end(st, s, rc, cb, "load averages", err);
}
