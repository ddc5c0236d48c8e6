/*
 * The facts each run held under (schema version 13, schema/store.md
 * "fact_sets"): writing a fact set of a host, the runs naming theirs
 * (store_run_finish calls store_run_facts_put in its transaction), and
 * the typed readers: the fact sets of some sessions, which set each run
 * held on each host, and the facts of one run. A run of a session stored
 * before version 13 names no set: its facts are its session's migrated
 * set, the host facts the report read before.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "facts.h"
#include "proc.h"
#include "store.h"
#include "store_int.h"
#include "banned.h"

static void bind_opt(sqlite3_stmt *s, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(s, i);
}

static int put_values(struct store *st, int64_t id, const struct fact *facts,
		      size_t n, struct xr_err *err)
{
	sqlite3_stmt *s;
	int r = 0;
	if ((r = store_prep(st,
			    "INSERT OR REPLACE INTO fact_values(set_id, key, "
			    "value) VALUES(?,?,?)",
			    &s, err)) < 0)
		return r;
	for (size_t i = 0; i < n && r == 0; i++) {
		if (!facts[i].value)
			continue;
		sqlite3_bind_int64(s, 1, id);
		sqlite3_bind_text(s, 2, facts[i].key, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(s, 3, facts[i].value, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(s) != SQLITE_DONE)
			r = store_db_fail(st, err, "storing a fact set");
		sqlite3_reset(s);
	}
	sqlite3_finalize(s);
	return r;
}

int store_fact_set_put(struct store *st, int64_t session_id, const char *host,
		       const char *cause, const char *factor, const char *level,
		       const struct fact *facts, size_t n, int64_t *set_id,
		       struct xr_err *err)
{
	sqlite3_stmt *s;
	int r;
	*set_id = 0;
	if ((r = store_begin(st, err)) < 0)
		return r;
	if ((r = store_prep(st,
			    "INSERT INTO fact_sets(session_id, host, cause, "
			    "factor, level, read_at) VALUES(?,?,?,?,?,?)",
			    &s, err)) < 0)
		goto fail;
	sqlite3_bind_int64(s, 1, session_id);
	bind_opt(s, 2, host);
	bind_opt(s, 3, cause);
	bind_opt(s, 4, factor);
	bind_opt(s, 5, level);
	sqlite3_bind_double(s, 6, proc_now_wall());
	if ((r = store_step_done(st, s, "storing a fact set", err)) < 0)
		goto fail;
	*set_id = sqlite3_last_insert_rowid(st->db);
	if ((r = put_values(st, *set_id, facts, n, err)) < 0 ||
	    (r = store_commit(st, err)) < 0)
		goto fail;
	return 0;
fail:
	store_rollback(st);
	*set_id = 0;
	return r;
}

int store_run_facts_put(struct store *st, int64_t run_id,
			const struct store_run_fact *f, size_t n,
			struct xr_err *err)
{
	sqlite3_stmt *s;
	int r;
	if ((r = store_prep(st, "DELETE FROM run_facts WHERE run_id = ?", &s,
			    err)) < 0)
		return r;
	sqlite3_bind_int64(s, 1, run_id);
	if ((r = store_step_done(st, s, "storing a run's facts", err)) < 0 ||
	    !n)
		return r;
	if ((r = store_prep(st,
			    "INSERT OR REPLACE INTO run_facts(run_id, host, "
			    "set_id) VALUES(?,?,?)",
			    &s, err)) < 0)
		return r;
	for (size_t i = 0; i < n && r == 0; i++) {
		if (f[i].set_id <= 0 || !f[i].host)
			continue;
		sqlite3_bind_int64(s, 1, run_id);
		sqlite3_bind_text(s, 2, f[i].host, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(s, 3, f[i].set_id);
		if (sqlite3_step(s) != SQLITE_DONE)
			r = store_db_fail(st, err, "storing a run's facts");
		sqlite3_reset(s);
	}
	sqlite3_finalize(s);
	return r;
}

static const char *col(sqlite3_stmt *s, int i)
{
	return (const char *)sqlite3_column_text(s, i);
}

int store_fact_sets_each(struct store *st, const int64_t *sessions, size_t n,
			 store_fact_set_fn fn, void *ctx, struct xr_err *err)
{
	static const char sql[] =
	    "SELECT fs.id, fs.session_id, fs.host, fs.cause, fs.factor, "
	    "fs.level, fs.read_at, v.key, v.value FROM fact_sets fs "
	    "LEFT JOIN fact_values v ON v.set_id = fs.id "
	    "WHERE fs.session_id IN %s ORDER BY fs.id, v.key";
	sqlite3_stmt *s;
	int rc = SQLITE_DONE, cb = 0, r;
	if (!store_has_table(st, "fact_sets"))
		return 0;
	if ((r = store_read_prep(st, sql, sessions, n, &s, "fact sets", err)) <
	    0)
		return r;
	while (!cb && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_fact_set_row row;
		row.set_id = sqlite3_column_int64(s, 0);
		row.session_id = sqlite3_column_int64(s, 1);
		row.host = col(s, 2);
		row.cause = col(s, 3);
		row.factor = col(s, 4);
		row.level = col(s, 5);
		row.read_at = sqlite3_column_double(s, 6);
		row.key = col(s, 7);
		row.value = col(s, 8);
		cb = fn(ctx, &row);
	}
	return store_read_end(st, s, rc, cb, "fact sets", err);
}

int store_run_facts_each(struct store *st, const int64_t *sessions, size_t n,
			 store_run_fact_fn fn, void *ctx, struct xr_err *err)
{
	static const char sql[] =
	    "SELECT f.run_id, f.host, f.set_id FROM run_facts f "
	    "CROSS JOIN runs r ON r.id = f.run_id "
	    "WHERE r.session_id IN %s AND r.warmup = 0 "
	    "ORDER BY f.run_id, f.host";
	sqlite3_stmt *s;
	int rc = SQLITE_DONE, cb = 0, r;
	if (!store_has_table(st, "run_facts"))
		return 0;
	if ((r = store_read_prep(st, sql, sessions, n, &s, "run facts", err)) <
	    0)
		return r;
	while (!cb && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_run_fact_row row;
		row.run_id = sqlite3_column_int64(s, 0);
		row.host = col(s, 1);
		row.set_id = sqlite3_column_int64(s, 2);
		cb = fn(ctx, &row);
	}
	return store_read_end(st, s, rc, cb, "run facts", err);
}

int store_facts_of_run(struct store *st, int64_t run_id, store_run_value_fn fn,
		       void *ctx, struct xr_err *err)
{
	/* The sets the run names; none (a session stored before version
	 * 10): its session's migrated sets. */
	static const char sql[] =
	    "WITH s AS (SELECT set_id FROM run_facts WHERE run_id = ?1 "
	    "UNION ALL SELECT fs.id FROM fact_sets fs JOIN runs r ON "
	    "r.session_id = fs.session_id WHERE r.id = ?1 AND fs.cause = "
	    "'migrated' AND NOT EXISTS (SELECT 1 FROM run_facts WHERE "
	    "run_id = ?1)) "
	    "SELECT fs.host, v.key, v.value, fs.id, fs.cause, fs.factor, "
	    "fs.level FROM s JOIN fact_sets fs ON fs.id = s.set_id "
	    "JOIN fact_values v ON v.set_id = fs.id ORDER BY fs.host, v.key";
	sqlite3_stmt *s;
	int rc = SQLITE_DONE, cb = 0, r;
	if (!store_has_table(st, "run_facts"))
		return 0;
	if ((r = store_read_prep(st, sql, NULL, 0, &s, "a run's facts", err)) <
	    0)
		return r;
	sqlite3_bind_int64(s, 1, run_id);
	while (!cb && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_run_value row;
		row.host = col(s, 0);
		row.key = col(s, 1);
		row.value = col(s, 2);
		row.set_id = sqlite3_column_int64(s, 3);
		row.cause = col(s, 4);
		row.factor = col(s, 5);
		row.level = col(s, 6);
		cb = fn(ctx, &row);
	}
	return store_read_end(st, s, rc, cb, "a run's facts", err);
}
