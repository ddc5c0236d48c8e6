/*
 * Rate searches in the store (store.h, "rate searches"): each trial of a
 * search is a run row of its own, at a negative position so that the
 * schedule's positions 0 .. n-1 stay the scheduled runs, and a `trials`
 * row linking it to its search with the load, the goal, the duration
 * asked and the loss ratio read. The runner writes them; the runner (to
 * resume a search) and the report read them back.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "store_int.h"
#include "banned.h"

int store_trial_add(struct store *st, int64_t search_id, int seq,
		    const char *goal, double load, double duration,
		    int64_t *run_id, struct xr_err *err)
{
	sqlite3_stmt *s;
	int r;
	/* The row copies the search's place in the schedule; its position
	 * is one below the session's lowest (the first trial: -1). */
	if ((r = store_prep(st,
			    "INSERT INTO runs(session_id, position, block, "
			    "block_pos, pass, rep, warmup, cell_index, cell) "
			    "SELECT session_id, min(0, (SELECT min(position) "
			    "FROM runs x WHERE x.session_id = s.session_id)) "
			    "- 1, block, block_pos, pass, rep, warmup, "
			    "cell_index, cell FROM runs s WHERE id = ?1",
			    &s, err)) < 0)
		return r;
	sqlite3_bind_int64(s, 1, search_id);
	if ((r = store_step_done(st, s, "adding a trial run", err)) < 0)
		return r;
	if (sqlite3_changes(st->db) != 1)
		return xr_err_set(err, XR_ESTORE, store_path(st), 0, 0,
				  "search run %lld is not in the store",
				  (long long)search_id);
	*run_id = sqlite3_last_insert_rowid(st->db);
	if ((r = store_prep(st,
			    "INSERT INTO trials(run_id, search_id, seq, goal, "
			    "load, duration) VALUES(?1, ?2, ?3, ?4, ?5, ?6)",
			    &s, err)) < 0)
		return r;
	sqlite3_bind_int64(s, 1, *run_id);
	sqlite3_bind_int64(s, 2, search_id);
	sqlite3_bind_int(s, 3, seq);
	sqlite3_bind_text(s, 4, goal, -1, SQLITE_STATIC);
	sqlite3_bind_double(s, 5, load);
	sqlite3_bind_double(s, 6, duration);
	return store_step_done(st, s, "adding a trial", err);
}

int store_trial_set_loss(struct store *st, int64_t run_id, double loss,
			 struct xr_err *err)
{
	sqlite3_stmt *s;
	int r;
	if ((r = store_prep(st, "UPDATE trials SET loss = ?2 WHERE run_id = ?1",
			    &s, err)) < 0)
		return r;
	sqlite3_bind_int64(s, 1, run_id);
	if (isnan(loss))
		sqlite3_bind_null(s, 2);
	else
		sqlite3_bind_double(s, 2, loss);
	return store_step_done(st, s, "storing a trial's loss", err);
}

static double col_num(sqlite3_stmt *s, int i)
{
	return sqlite3_column_type(s, i) == SQLITE_NULL
		   ? NAN
		   : sqlite3_column_double(s, i);
}

static int has_trials(struct store *st)
{
	sqlite3_stmt *s;
	int rc = sqlite3_prepare_v2(st->db, "SELECT 1 FROM trials LIMIT 0", -1,
				    &s, NULL);
	sqlite3_finalize(s);
	return rc == SQLITE_OK;
}

int store_trials_each(struct store *st, int64_t search_id,
		      const int64_t *sessions, size_t n, store_trial_fn fn,
		      void *ctx, struct xr_err *err)
{
	struct buf q = BUF_INIT;
	sqlite3_stmt *s = NULL;
	size_t i;
	int rc, cb = 0;
	buf_adds(&q, "SELECT t.run_id, t.search_id, r.session_id, "
		     "r.cell_index, t.seq, t.goal, t.load, t.duration, "
		     "t.loss, r.status, (SELECT value FROM metrics m WHERE "
		     "m.run_id = t.run_id AND m.name = 'packets'), r.elapsed, "
		     "(SELECT value FROM metrics m WHERE m.run_id = t.run_id "
		     "AND m.name = 'lost_packets') "
		     "FROM trials t JOIN runs r ON r.id = t.run_id");
	if (search_id > 0)
		buf_adds(&q, " WHERE t.search_id = ?1");
	else if (n) {
		buf_adds(&q, " WHERE r.session_id IN (");
		for (i = 0; i < n; i++)
			buf_addf(&q, "%s%lld", i ? "," : "",
				 (long long)sessions[i]);
		buf_addc(&q, ')');
	}
	buf_adds(&q, " ORDER BY t.search_id, t.seq");
	rc = q.s ? sqlite3_prepare_v2(st->db, q.s, -1, &s, NULL) : SQLITE_NOMEM;
	buf_release(&q);
	if (rc != SQLITE_OK && !has_trials(st))
		return 0; /* a store from before version 11, read as it is */
	if (rc != SQLITE_OK)
		return store_db_fail(st, err, "reading trials");
	if (search_id > 0)
		sqlite3_bind_int64(s, 1, search_id);
	while (!cb && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_trial_row row;
		row.run_id = sqlite3_column_int64(s, 0);
		row.search_id = sqlite3_column_int64(s, 1);
		row.session_id = sqlite3_column_int64(s, 2);
		row.cell_index = sqlite3_column_int64(s, 3);
		row.seq = sqlite3_column_int(s, 4);
		row.goal = (const char *)sqlite3_column_text(s, 5);
		row.load = sqlite3_column_double(s, 6);
		row.duration = sqlite3_column_double(s, 7);
		row.loss = col_num(s, 8);
		row.status =
		    store_status_parse((const char *)sqlite3_column_text(s, 9));
		row.packets = col_num(s, 10);
		row.elapsed = col_num(s, 11);
		row.lost = col_num(s, 12);
		cb = fn(ctx, &row);
	}
	if (cb < 0 || (!cb && rc != SQLITE_DONE)) {
		int r = cb < 0 ? cb : store_db_fail(st, err, "reading trials");
		sqlite3_finalize(s);
		return r;
	}
	sqlite3_finalize(s);
	return 0;
}

int store_trial_counters_each(struct store *st, const int64_t *sessions,
			      size_t n, store_trial_counter_fn fn, void *ctx,
			      struct xr_err *err)
{
	struct buf q = BUF_INIT;
	sqlite3_stmt *s = NULL;
	size_t i;
	int rc, cb = 0;
	if (!has_trials(st))
		return 0;
	buf_adds(&q, "SELECT c.run_id, c.host, c.scope, c.name, c.value FROM "
		     "trials t JOIN runs r ON r.id = t.run_id JOIN counters c "
		     "ON c.run_id = t.run_id WHERE c.value > 0 AND c.scope IN "
		     "('qdisc', 'udp', 'nic', 'ethtool')");
	if (n) {
		buf_adds(&q, " AND r.session_id IN (");
		for (i = 0; i < n; i++)
			buf_addf(&q, "%s%lld", i ? "," : "",
				 (long long)sessions[i]);
		buf_addc(&q, ')');
	}
	rc = q.s ? sqlite3_prepare_v2(st->db, q.s, -1, &s, NULL) : SQLITE_NOMEM;
	buf_release(&q);
	if (rc != SQLITE_OK)
		return store_db_fail(st, err, "reading trial counters");
	while (!cb && (rc = sqlite3_step(s)) == SQLITE_ROW)
		cb = fn(ctx, sqlite3_column_int64(s, 0),
			(const char *)sqlite3_column_text(s, 1),
			(const char *)sqlite3_column_text(s, 2),
			(const char *)sqlite3_column_text(s, 3),
			sqlite3_column_double(s, 4));
	if (cb < 0 || (!cb && rc != SQLITE_DONE)) {
		int r = cb < 0
			    ? cb
			    : store_db_fail(st, err, "reading trial counters");
		sqlite3_finalize(s);
		return r;
	}
	sqlite3_finalize(s);
	return 0;
}
