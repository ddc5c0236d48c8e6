/*
 * The store's side of sized repetitions (repeat: { min, max, precision }):
 * the per-cell decision rows of the `sizing` table (schema version 5),
 * the pilot values they are computed from, and the shift that makes room
 * for a block's extra passes. Kept apart from store_rows.c/store_read.c so
 * the feature's SQL reads in one place.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <sqlite3.h>
#include <stddef.h>

#include "store_int.h"
#include "banned.h"

static void bind_real(sqlite3_stmt *s, int i, double v)
{
	if (isfinite(v))
		sqlite3_bind_double(s, i, v);
	else
		sqlite3_bind_null(s, i);
}

static double col_real(sqlite3_stmt *s, int i)
{
	if (sqlite3_column_type(s, i) == SQLITE_NULL)
		return NAN;
	return sqlite3_column_double(s, i);
}

int store_sizing_add(struct store *st, int64_t session_id,
		     const struct store_sizing_row *row, struct xr_err *err)
{
	sqlite3_stmt *s;
	int r;
	if ((r = store_prep(
		 st,
		 "INSERT OR REPLACE INTO sizing(session_id, cell_index, "
		 "block, cell, metric, pilot_n, pilot_mean, pilot_sd, "
		 "precision, need, planned, max, decided_at) "
		 "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)",
		 &s, err)) < 0)
		return r;
	sqlite3_bind_int64(s, 1, session_id);
	sqlite3_bind_int64(s, 2, row->cell_index);
	sqlite3_bind_int64(s, 3, row->block);
	sqlite3_bind_text(s, 4, row->cell ? row->cell : "{}", -1,
			  SQLITE_STATIC);
	sqlite3_bind_text(s, 5, row->metric ? row->metric : "", -1,
			  SQLITE_STATIC);
	sqlite3_bind_int(s, 6, row->pilot_n);
	bind_real(s, 7, row->pilot_mean);
	bind_real(s, 8, row->pilot_sd);
	sqlite3_bind_double(s, 9, row->precision);
	sqlite3_bind_int(s, 10, row->need);
	sqlite3_bind_int(s, 11, row->planned);
	sqlite3_bind_int(s, 12, row->max);
	sqlite3_bind_double(s, 13, row->decided_at);
	return store_step_done(st, s, "recording the sizing decision", err);
}

int store_sizing_finish(struct store *st, int64_t session_id,
			int64_t cell_index, int runs_done, double reached,
			const char *stopped, struct xr_err *err)
{
	sqlite3_stmt *s;
	int r;
	if ((r = store_prep(
		 st,
		 "UPDATE sizing SET runs_done = ?, reached = ?, "
		 "stopped = ? WHERE session_id = ? AND cell_index = ?",
		 &s, err)) < 0)
		return r;
	sqlite3_bind_int(s, 1, runs_done);
	bind_real(s, 2, reached);
	sqlite3_bind_text(s, 3, stopped, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 4, session_id);
	sqlite3_bind_int64(s, 5, cell_index);
	return store_step_done(st, s, "recording the sizing outcome", err);
}

static int has_table(struct store *st, const char *sql)
{
	sqlite3_stmt *s;
	int rc = sqlite3_prepare_v2(st->db, sql, -1, &s, NULL);
	sqlite3_finalize(s);
	return rc == SQLITE_OK;
}

static int has_sizing_table(struct store *st)
{
	return has_table(st, "SELECT 1 FROM sizing LIMIT 0");
}

int store_sizing_each(struct store *st, int64_t session_id, store_sizing_fn fn,
		      void *ctx, struct xr_err *err)
{
	sqlite3_stmt *s;
	int r, rc, cb = 0;
	if (!has_sizing_table(st))
		return 0;
	if ((r = store_prep(
		 st,
		 "SELECT cell_index, block, cell, metric, pilot_n, "
		 "pilot_mean, pilot_sd, precision, need, planned, max, "
		 "decided_at, runs_done, reached, stopped FROM sizing "
		 "WHERE session_id = ? ORDER BY block, cell_index",
		 &s, err)) < 0)
		return r;
	sqlite3_bind_int64(s, 1, session_id);
	while (!cb && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_sizing_row row;
		row.cell_index = sqlite3_column_int64(s, 0);
		row.block = sqlite3_column_int64(s, 1);
		row.cell = (const char *)sqlite3_column_text(s, 2);
		row.metric = (const char *)sqlite3_column_text(s, 3);
		row.pilot_n = sqlite3_column_int(s, 4);
		row.pilot_mean = col_real(s, 5);
		row.pilot_sd = col_real(s, 6);
		row.precision = sqlite3_column_double(s, 7);
		row.need = sqlite3_column_int(s, 8);
		row.planned = sqlite3_column_int(s, 9);
		row.max = sqlite3_column_int(s, 10);
		row.decided_at = sqlite3_column_double(s, 11);
		row.runs_done = sqlite3_column_type(s, 12) == SQLITE_NULL
				    ? -1
				    : sqlite3_column_int(s, 12);
		row.reached = col_real(s, 13);
		row.stopped = (const char *)sqlite3_column_text(s, 14);
		cb = fn(ctx, &row);
	}
	r = cb < 0 ? cb
	    : !cb && rc != SQLITE_DONE
		? store_db_fail(st, err, "reading the sizing decisions")
		: 0;
	sqlite3_finalize(s);
	return r;
}

int store_runs_shift(struct store *st, int64_t session_id, int64_t after,
		     int64_t by, struct xr_err *err)
{
	sqlite3_stmt *s;
	int r, pass;
	/* UNIQUE(session_id, position) holds row by row: move the runs out
	 * of the way (negative positions), then to their place. */
	for (pass = 0; pass < 2; pass++) {
		if ((r = store_prep(st,
				    pass == 0
					? "UPDATE runs SET position = -1 - "
					  "position WHERE session_id = ? AND "
					  "position > ?"
					: "UPDATE runs SET position = -1 - "
					  "position + ? WHERE session_id = ? "
					  "AND position < 0",
				    &s, err)) < 0)
			return r;
		if (pass == 0) {
			sqlite3_bind_int64(s, 1, session_id);
			sqlite3_bind_int64(s, 2, after);
		} else {
			sqlite3_bind_int64(s, 1, by);
			sqlite3_bind_int64(s, 2, session_id);
		}
		if ((r = store_step_done(st, s, "moving runs", err)) < 0)
			return r;
	}
	return 0;
}

int store_cell_values_each(struct store *st, int64_t session_id, int64_t block,
			   const char *metric, store_value_fn fn, void *ctx,
			   struct xr_err *err)
{
	sqlite3_stmt *s;
	int r, rc, cb = 0;
	if ((r = store_prep(
		 st,
		 "SELECT r.cell_index, r.id, m.value FROM runs r JOIN "
		 "metrics m "
		 "ON m.run_id = r.id AND m.name = ?3 WHERE r.session_id "
		 "= ?1 AND (?2 < 0 OR r.block = ?2) AND r.warmup = 0 AND "
		 "r.status = 'ok' AND r.position >= 0 ORDER BY r.position",
		 &s, err)) < 0)
		return r;
	sqlite3_bind_int64(s, 1, session_id);
	sqlite3_bind_int64(s, 2, block);
	sqlite3_bind_text(s, 3, metric, -1, SQLITE_STATIC);
	while (!cb && (rc = sqlite3_step(s)) == SQLITE_ROW)
		cb =
		    fn(ctx, sqlite3_column_int64(s, 0),
		       sqlite3_column_int64(s, 1), sqlite3_column_double(s, 2));
	r = cb < 0 ? cb
	    : !cb && rc != SQLITE_DONE
		? store_db_fail(st, err, "reading the pilot values")
		: 0;
	sqlite3_finalize(s);
	return r;
}

int store_levels_each(struct store *st, const char *metric, store_level_fn fn,
		      void *ctx, struct xr_err *err)
{
	sqlite3_stmt *s;
	int r, rc, cb = 0;
	if ((r = store_prep(
		 st,
		 "SELECT r.cell, r.id, m.value, i.value, i.t_end - "
		 "i.t_start FROM runs r JOIN metrics m ON m.run_id = "
		 "r.id AND m.name = ?1 LEFT JOIN intervals i ON i.run_id "
		 "= r.id WHERE r.status = 'ok' AND r.warmup = 0 AND "
		 "r.position >= 0 ORDER BY "
		 "r.cell, r.id, i.seq",
		 &s, err)) < 0)
		return r;
	sqlite3_bind_text(s, 1, metric, -1, SQLITE_STATIC);
	while (!cb && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_level_row row;
		row.cell = (const char *)sqlite3_column_text(s, 0);
		row.run_id = sqlite3_column_int64(s, 1);
		row.run_value = sqlite3_column_double(s, 2);
		row.iv = col_real(s, 3);
		row.iv_len = col_real(s, 4);
		cb = fn(ctx, &row);
	}
	r = cb < 0 ? cb
	    : !cb && rc != SQLITE_DONE
		? store_db_fail(st, err, "reading runs and intervals")
		: 0;
	sqlite3_finalize(s);
	return r;
}

int store_sizing_run_add(struct store *st, int64_t run_id, int64_t block,
			 struct xr_err *err)
{
	sqlite3_stmt *s;
	int r;
	if ((r = store_prep(st,
			    "INSERT OR REPLACE INTO sizing_runs(run_id, block) "
			    "VALUES(?, ?)",
			    &s, err)) < 0)
		return r;
	sqlite3_bind_int64(s, 1, run_id);
	sqlite3_bind_int64(s, 2, block);
	return store_step_done(st, s, "recording a sizing decision's run", err);
}

int store_sizing_runs_each(struct store *st, int64_t session_id,
			   store_sizing_run_fn fn, void *ctx,
			   struct xr_err *err)
{
	sqlite3_stmt *s;
	int r, rc, cb = 0;
	if (!has_table(st, "SELECT 1 FROM sizing_runs LIMIT 0"))
		return 0;
	if ((r = store_prep(st,
			    "SELECT z.run_id, z.block FROM sizing_runs z JOIN "
			    "runs r ON r.id = z.run_id WHERE r.session_id = ? "
			    "ORDER BY r.position",
			    &s, err)) < 0)
		return r;
	sqlite3_bind_int64(s, 1, session_id);
	while (!cb && (rc = sqlite3_step(s)) == SQLITE_ROW)
		cb = fn(ctx, sqlite3_column_int64(s, 0),
			sqlite3_column_int64(s, 1));
	r = cb < 0 ? cb
	    : !cb && rc != SQLITE_DONE
		? store_db_fail(st, err, "reading the sizing decisions' runs")
		: 0;
	sqlite3_finalize(s);
	return r;
}
