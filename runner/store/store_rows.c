/*
 * What the store holds, row by row: the plan, the sessions, every
 * scheduled run (inserted 'pending', all of a session in the caller's one
 * transaction), each finished run with its metrics, intervals, observed
 * values, verifications, counters and series (in its own transaction,
 * committed as soon as the run ends so that a crash costs at most the run
 * in flight), hooks and host facts. The handle, schema, lock and transactions
 * are store.c's.
 *
 * SPDX-License-Identifier: MIT
 */
#include "store.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "counters.h"
#include "engine.h"
#include "facts.h"
#include "proc.h"
#include "series.h"
#include "store_int.h"
#include "banned.h"

/* Bind helpers: NULL pointers become SQL NULL. */
static void bind_text(sqlite3_stmt *s, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(s, i);
}

/* A command's output, len bytes (0: up to the NUL). Text as long as it
 * holds no NUL; with a NUL, a blob of all its bytes, so that nothing after
 * the NUL is lost (schema/store.md). */
static void bind_output(sqlite3_stmt *s, int i, const char *v, size_t len)
{
	if (!v) {
		sqlite3_bind_null(s, i);
		return;
	}
	if (!len)
		len = strlen(v);
	if (memchr(v, '\0', len))
		sqlite3_bind_blob64(s, i, v, len, SQLITE_TRANSIENT);
	else
		sqlite3_bind_text64(s, i, v, len, SQLITE_TRANSIENT,
				    SQLITE_UTF8);
}

static const char *col_text(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);
	return t ? (const char *)t : "";
}

static char *col_strdup(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);
	return t ? strdup((const char *)t) : NULL;
}

/*
 * The statements every run executes, prepared once per store handle
 * (parsing them again for every run was a good part of xrun's CPU per
 * run). Each is on a primary key or the runs index.
 */
#define PER_RUN_STMTS(X)                                                       \
	X(RUN_START, "UPDATE runs SET status = 'running', attempts = "         \
		     "attempts + 1, started_at = ?, ended_at = NULL, "         \
		     "reason = NULL WHERE id = ?")                             \
	X(RUN_FINISH,                                                          \
	  "UPDATE runs SET status = ?, started_at = COALESCE(?, "              \
	  "started_at), ended_at = ?, elapsed = ?, exit_code = ?, reason = "   \
	  "?, engine = ?, argv = ?, target = ?, params = ?, stdout = ?, "      \
	  "stderr = ?, verified = ? WHERE id = ?")                             \
	X(WIPE_METRICS, "DELETE FROM metrics WHERE run_id = ?")                \
	X(WIPE_INTERVALS, "DELETE FROM intervals WHERE run_id = ?")            \
	X(WIPE_OBSERVED, "DELETE FROM observed WHERE run_id = ?")              \
	X(WIPE_VERIFICATIONS, "DELETE FROM verifications WHERE run_id = ?")    \
	X(WIPE_COUNTERS, "DELETE FROM counters WHERE run_id = ?")              \
	X(PUT_METRIC, "INSERT OR REPLACE INTO metrics(run_id, name, value, "   \
		      "unit) VALUES(?,?,?,?)")                                 \
	X(PUT_INTERVAL, "INSERT OR REPLACE INTO intervals(run_id, seq, "       \
			"t_start, t_end, value) VALUES(?,?,?,?,?)")            \
	X(PUT_OBSERVED, "INSERT OR REPLACE INTO observed(run_id, key, value) " \
			"VALUES(?,?,?)")                                       \
	X(PUT_VERIFICATION,                                                    \
	  "INSERT OR REPLACE INTO verifications(run_id, factor, host, "        \
	  "method, expected, actual, ok) VALUES(?,?,?,?,?,?,?)")               \
	X(PUT_COUNTER, "INSERT OR REPLACE INTO counters(run_id, host, scope, " \
		       "name, value) VALUES(?,?,?,?,?)")                       \
	X(WIPE_SERIES, "DELETE FROM series_data WHERE run_id = ?1 AND "        \
		       "attempt = (SELECT attempts FROM runs WHERE id = ?1)")  \
	X(WIPE_SERIES_NOTE, "DELETE FROM series_notes WHERE run_id = ?")       \
	X(PUT_SERIES,                                                          \
	  "INSERT OR REPLACE INTO series_data(run_id, attempt, "               \
	  "chunk, host, name, unit, n, points) SELECT ?1, "                    \
	  "attempts, 0, ?2, ?3, ?4, ?5, ?6 FROM runs WHERE id = ?1")           \
	X(WIPE_OUTPUT_CUT, "DELETE FROM output_cut WHERE run_id = ?")          \
	X(PUT_OUTPUT_CUT, "INSERT OR REPLACE INTO output_cut(run_id, cap, "    \
			  "kept) VALUES(?,?,?)")                               \
	X(PUT_SERIES_NOTE, "INSERT OR REPLACE INTO series_notes(run_id, "      \
			   "note) VALUES(?,?)")                                \
	X(SESSION_TOUCH, "UPDATE sessions SET updated_at = ? WHERE id = "      \
			 "(SELECT session_id FROM runs WHERE id = ?)")         \
	X(PUT_ATTEMPT,                                                         \
	  "INSERT OR REPLACE INTO run_attempts(run_id, attempt, status, "      \
	  "started_at, ended_at, elapsed, exit_code, reason) SELECT id, "      \
	  "attempts, status, started_at, ended_at, elapsed, exit_code, "       \
	  "reason FROM runs WHERE id = ? AND attempts > 0")

#define PER_RUN_ENUM(name, sql) PR_##name,
enum per_run { PER_RUN_STMTS(PER_RUN_ENUM) PR_COUNT };
#undef PER_RUN_ENUM
#define PER_RUN_SQL(name, sql) sql,
static const char *const per_run_sql[] = {PER_RUN_STMTS(PER_RUN_SQL)};
#undef PER_RUN_SQL

_Static_assert(PR_COUNT <= STORE_PER_RUN_MAX, "raise STORE_PER_RUN_MAX");

/* The prepared statement k, reset and ready to bind. */
static int per_run(struct store *st, enum per_run k, sqlite3_stmt **s,
		   struct xr_err *err)
{
	*s = NULL;
	if (!st->per_run[k] &&
	    sqlite3_prepare_v3(st->db, per_run_sql[k], -1,
			       SQLITE_PREPARE_PERSISTENT, &st->per_run[k],
			       NULL) != SQLITE_OK) {
		st->per_run[k] = NULL;
		return store_db_fail(st, err, "preparing a statement");
	}
	*s = st->per_run[k];
	return 0;
}

/* Step a per-run statement to DONE and reset it for the next use. */
static int per_run_done(struct store *st, sqlite3_stmt *s, const char *what,
			struct xr_err *err)
{
	int rc = sqlite3_step(s);
	int r = 0;
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		r = store_db_fail(st, err, what);
	sqlite3_reset(s);
	return r;
}

int store_plan_put(struct store *st, const char *name, const char *title,
		   const char *path, const char *hash, const char *text,
		   int64_t *plan_id, struct xr_err *err)
{
	sqlite3_stmt *s;
	int r;
	if ((r = store_prep(
		 st,
		 "INSERT INTO plans(name, title, path, hash, text, "
		 "created_at) VALUES(?,?,?,?,?,?) ON CONFLICT(hash) DO "
		 "UPDATE SET path = excluded.path",
		 &s, err)) < 0)
		return r;
	bind_text(s, 1, name);
	bind_text(s, 2, title);
	bind_text(s, 3, path);
	bind_text(s, 4, hash);
	bind_text(s, 5, text ? text : "");
	sqlite3_bind_double(s, 6, proc_now_wall());
	if ((r = store_step_done(st, s, "storing the plan", err)) < 0)
		return r;
	if ((r = store_prep(st, "SELECT id FROM plans WHERE hash = ?", &s,
			    err)) < 0)
		return r;
	bind_text(s, 1, hash);
	if (sqlite3_step(s) != SQLITE_ROW) {
		r = store_db_fail(st, err, "finding the plan");
		sqlite3_finalize(s);
		return r;
	}
	*plan_id = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return 0;
}

void store_session_release(struct store_session *s)
{
	free(s->cells_desc);
	free(s->plan_text);
	memset(s, 0, sizeof *s);
}

int store_session_latest(struct store *st, const char *plan_name,
			 struct store_session *out, struct xr_err *err)
{
	sqlite3_stmt *s;
	int r, rc;
	memset(out, 0, sizeof *out);
	/* The scheduled runs: from schedules (version 6), where the rows
	 * may be a prefix; else every run has its row. */
	if ((r = store_prep(
		 st,
		 store_has_schedules(st)
		     ? "SELECT s.id, s.plan_id, p.name, p.hash, "
		       "s.cells_hash, s.cells_desc, p.text, s.status, "
		       "s.started_at, s.updated_at, s.ended_at, "
		       "COALESCE((SELECT runs FROM schedules WHERE "
		       "session_id = s.id), (SELECT count(*) FROM runs "
		       "WHERE session_id = s.id AND position >= 0)) FROM "
		       "sessions s JOIN "
		       "plans p ON p.id = s.plan_id WHERE ?1 IS NULL OR "
		       "p.name = ?1 ORDER BY s.id DESC LIMIT 1"
		     : "SELECT s.id, s.plan_id, p.name, p.hash, "
		       "s.cells_hash, s.cells_desc, p.text, s.status, "
		       "s.started_at, s.updated_at, s.ended_at, (SELECT "
		       "count(*) FROM runs WHERE session_id = s.id) FROM "
		       "sessions s JOIN plans p ON p.id = s.plan_id "
		       "WHERE ?1 IS NULL OR p.name = ?1 ORDER BY s.id "
		       "DESC LIMIT 1",
		 &s, err)) < 0)
		return r;
	bind_text(s, 1, plan_name);
	rc = sqlite3_step(s);
	if (rc == SQLITE_DONE) {
		sqlite3_finalize(s);
		return 0;
	}
	if (rc != SQLITE_ROW) {
		r = store_db_fail(st, err, "reading sessions");
		sqlite3_finalize(s);
		return r;
	}
	out->id = sqlite3_column_int64(s, 0);
	out->plan_id = sqlite3_column_int64(s, 1);
	snprintf(out->plan_name, sizeof out->plan_name, "%s", col_text(s, 2));
	snprintf(out->plan_hash, sizeof out->plan_hash, "%s", col_text(s, 3));
	snprintf(out->cells_hash, sizeof out->cells_hash, "%s", col_text(s, 4));
	out->cells_desc = col_strdup(s, 5);
	out->plan_text = col_strdup(s, 6);
	snprintf(out->status, sizeof out->status, "%s", col_text(s, 7));
	out->started_at = sqlite3_column_double(s, 8);
	out->updated_at = sqlite3_column_double(s, 9);
	out->ended_at = sqlite3_column_double(s, 10);
	out->nruns = sqlite3_column_int64(s, 11);
	sqlite3_finalize(s);
	return 1;
}

int store_session_create(struct store *st, int64_t plan_id,
			 const char *cells_hash, const char *cells_desc,
			 const char *argv_json, int64_t *session_id,
			 struct xr_err *err)
{
	sqlite3_stmt *s;
	int r;
	double t = proc_now_wall();
	if ((r = store_prep(
		 st,
		 "INSERT INTO sessions(plan_id, cells_hash, cells_desc, "
		 "started_at, updated_at, xrun_version, argv) "
		 "VALUES(?,?,?,?,?,?,?)",
		 &s, err)) < 0)
		return r;
	sqlite3_bind_int64(s, 1, plan_id);
	bind_text(s, 2, cells_hash);
	bind_text(s, 3, cells_desc);
	sqlite3_bind_double(s, 4, t);
	sqlite3_bind_double(s, 5, t);
	bind_text(s, 6, XRUN_VERSION);
	bind_text(s, 7, argv_json);
	if ((r = store_step_done(st, s, "creating a session", err)) < 0)
		return r;
	*session_id = sqlite3_last_insert_rowid(st->db);
	/* The key xrun merge knows the session by, whatever id it gets. */
	if ((r = store_prep(st,
			    "INSERT INTO session_keys(session_id, uuid) "
			    "VALUES(?, lower(hex(randomblob(16))))",
			    &s, err)) < 0)
		return r;
	sqlite3_bind_int64(s, 1, *session_id);
	return store_step_done(st, s, "creating a session key", err);
}

int store_session_set_status(struct store *st, int64_t session_id,
			     const char *status, int ended, struct xr_err *err)
{
	sqlite3_stmt *s;
	int r;
	double t = proc_now_wall();
	if ((r = store_prep(st,
			    "UPDATE sessions SET status = ?, updated_at = ?, "
			    "ended_at = CASE WHEN ? THEN ? ELSE NULL END "
			    "WHERE id = ?",
			    &s, err)) < 0)
		return r;
	bind_text(s, 1, status);
	sqlite3_bind_double(s, 2, t);
	sqlite3_bind_int(s, 3, ended);
	sqlite3_bind_double(s, 4, t);
	sqlite3_bind_int64(s, 5, session_id);
	return store_step_done(st, s, "updating the session", err);
}

int store_session_set_plan(struct store *st, int64_t session_id,
			   int64_t plan_id, struct xr_err *err)
{
	sqlite3_stmt *s;
	int r;
	if ((r = store_prep(st, "UPDATE sessions SET plan_id = ? WHERE id = ?",
			    &s, err)) < 0)
		return r;
	sqlite3_bind_int64(s, 1, plan_id);
	sqlite3_bind_int64(s, 2, session_id);
	return store_step_done(st, s, "updating the session", err);
}

int store_run_pending_add(struct store *st, int64_t session_id,
			  const struct store_pending *p, struct xr_err *err)
{
	sqlite3_stmt *s;
	if (!st->pending &&
	    store_prep(
		st,
		"INSERT INTO runs(session_id, position, block, block_pos, "
		"pass, rep, warmup, cell_index, cell) "
		"VALUES(?,?,?,?,?,?,?,?,?)",
		&st->pending, err) < 0)
		return -XR_ESTORE;
	s = st->pending;
	sqlite3_bind_int64(s, 1, session_id);
	sqlite3_bind_int64(s, 2, p->position);
	sqlite3_bind_int64(s, 3, p->block);
	sqlite3_bind_int64(s, 4, p->block_pos);
	sqlite3_bind_int64(s, 5, p->pass);
	sqlite3_bind_int64(s, 6, p->rep);
	sqlite3_bind_int(s, 7, p->warmup);
	sqlite3_bind_int64(s, 8, p->cell_index);
	/* STATIC: the text outlives the step, which copies it. */
	sqlite3_bind_text(s, 9, p->cell ? p->cell : "{}", -1, SQLITE_STATIC);
	if (sqlite3_step(s) != SQLITE_DONE) {
		int r = store_db_fail(st, err, "inserting pending runs");
		sqlite3_reset(s);
		return r;
	}
	sqlite3_reset(s);
	return 0;
}

int store_runs_pending_make(struct store *st, int64_t session_id,
			    const struct store_pending *rows, size_t n,
			    int64_t *ids, struct xr_err *err)
{
	size_t k;
	int r;
	for (k = 0; k < n; k++) {
		if ((r = store_run_pending_add(st, session_id, &rows[k], err)) <
		    0)
			return r;
		ids[k] = sqlite3_last_insert_rowid(st->db);
	}
	return 0;
}

int store_session_set_planned(struct store *st, int64_t session_id,
			      int64_t nruns, struct xr_err *err)
{
	sqlite3_stmt *s;
	int r;
	if ((r = store_prep(
		 st,
		 "INSERT OR REPLACE INTO schedules(session_id, runs) "
		 "VALUES(?, ?)",
		 &s, err)) < 0)
		return r;
	sqlite3_bind_int64(s, 1, session_id);
	sqlite3_bind_int64(s, 2, nruns);
	return store_step_done(st, s, "recording the schedule", err);
}

static int status_code(const char *name)
{
	int s = store_status_parse(name);
	return s < 0 ? RUN_PENDING : s;
}

int64_t store_runs_load(struct store *st, int64_t session_id, int64_t *ids,
			uint8_t *status, size_t n, struct xr_err *err)
{
	sqlite3_stmt *s;
	int64_t found = 0;
	int r, rc;
	if ((r = store_prep(st,
			    "SELECT position, id, status FROM runs WHERE "
			    "session_id = ?",
			    &s, err)) < 0)
		return r;
	sqlite3_bind_int64(s, 1, session_id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		int64_t pos = sqlite3_column_int64(s, 0);
		if (pos < 0 || (uint64_t)pos >= n)
			continue;
		if (ids)
			ids[pos] = sqlite3_column_int64(s, 1);
		if (status)
			status[pos] = (uint8_t)status_code(col_text(s, 2));
		found++;
	}
	if (rc != SQLITE_DONE) {
		r = store_db_fail(st, err, "reading runs");
		sqlite3_finalize(s);
		return r;
	}
	sqlite3_finalize(s);
	return found;
}

int store_run_start(struct store *st, int64_t run_id, double started_at,
		    struct xr_err *err)
{
	sqlite3_stmt *s;
	int r;
	if ((r = per_run(st, PR_RUN_START, &s, err)) < 0)
		return r;
	sqlite3_bind_double(s, 1, started_at);
	sqlite3_bind_int64(s, 2, run_id);
	return per_run_done(st, s, "marking a run running", err);
}

/* The run's attempt as its row now says, kept in run_attempts (every
 * attempt that ended; the runs row holds the latest). */
static int keep_attempt(struct store *st, int64_t run_id, struct xr_err *err)
{
	sqlite3_stmt *s;
	int r;
	if ((r = per_run(st, PR_PUT_ATTEMPT, &s, err)) < 0)
		return r;
	sqlite3_bind_int64(s, 1, run_id);
	return per_run_done(st, s, "keeping a run's attempt", err);
}

int store_run_set_status(struct store *st, int64_t run_id, const char *status,
			 const char *reason, struct xr_err *err)
{
	sqlite3_stmt *s;
	int r;
	if ((r = store_prep(
		 st, "UPDATE runs SET status = ?, reason = ? WHERE id = ?", &s,
		 err)) < 0)
		return r;
	bind_text(s, 1, status);
	bind_text(s, 2, reason);
	sqlite3_bind_int64(s, 3, run_id);
	if ((r = store_step_done(st, s, "updating a run", err)) < 0)
		return r;
	/* an attempt that ended without a result (its host lost) */
	return strcmp(status, "running") ? keep_attempt(st, run_id, err) : 0;
}

/* Insert the run's child rows; inside the caller's transaction. */
static int put_children(struct store *st, int64_t id,
			const struct store_run_record *rec, struct xr_err *err)
{
	static const enum per_run wipe[] = {
	    PR_WIPE_METRICS,	   PR_WIPE_INTERVALS,  PR_WIPE_OBSERVED,
	    PR_WIPE_VERIFICATIONS, PR_WIPE_COUNTERS,   PR_WIPE_SERIES,
	    PR_WIPE_SERIES_NOTE,   PR_WIPE_OUTPUT_CUT,
	};
	const struct engine_result *res = rec->res;
	sqlite3_stmt *s;
	size_t i, j;
	int r;
	/* A redone run replaces what an earlier attempt may have left; of
	 * the series, only the chunks this attempt wrote during the run (an
	 * earlier attempt's stay, under its own attempt number). */
	for (i = 0; i < sizeof wipe / sizeof wipe[0]; i++) {
		if ((r = per_run(st, wipe[i], &s, err)) < 0)
			return r;
		sqlite3_bind_int64(s, 1, id);
		if ((r = per_run_done(st, s, "clearing a run", err)) < 0)
			return r;
	}
	if ((r = per_run(st, PR_PUT_METRIC, &s, err)) < 0)
		return r;
	for (i = 0; res && i < (size_t)res->nmetrics; i++) {
		sqlite3_bind_int64(s, 1, id);
		bind_text(s, 2, res->metrics[i].name);
		sqlite3_bind_double(s, 3, res->metrics[i].value);
		bind_text(s, 4, res->metrics[i].unit);
		if ((r = per_run_done(st, s, "storing run results", err)) < 0)
			return r;
	}
	if ((r = per_run(st, PR_PUT_INTERVAL, &s, err)) < 0)
		return r;
	for (i = 0; res && i < (size_t)res->nintervals; i++) {
		sqlite3_bind_int64(s, 1, id);
		sqlite3_bind_int64(s, 2, (int64_t)i);
		sqlite3_bind_double(s, 3, res->iv_start[i]);
		sqlite3_bind_double(s, 4, res->iv_end[i]);
		sqlite3_bind_double(s, 5, res->iv_value[i]);
		if ((r = per_run_done(st, s, "storing run results", err)) < 0)
			return r;
	}
	if ((r = per_run(st, PR_PUT_OBSERVED, &s, err)) < 0)
		return r;
	for (i = 0; res && i < (size_t)res->nobserved; i++) {
		sqlite3_bind_int64(s, 1, id);
		bind_text(s, 2, res->observed[i].key);
		bind_text(s, 3, res->observed[i].value);
		if ((r = per_run_done(st, s, "storing run results", err)) < 0)
			return r;
	}
	if ((r = per_run(st, PR_PUT_VERIFICATION, &s, err)) < 0)
		return r;
	for (i = 0; i < rec->nver; i++) {
		const struct store_verification *v = &rec->ver[i];
		sqlite3_bind_int64(s, 1, id);
		bind_text(s, 2, v->factor);
		bind_text(s, 3, v->host);
		bind_text(s, 4, v->method);
		bind_text(s, 5, v->expected);
		bind_text(s, 6, v->actual);
		sqlite3_bind_int(s, 7, v->ok);
		if ((r = per_run_done(st, s, "storing run results", err)) < 0)
			return r;
	}
	if ((r = per_run(st, PR_PUT_COUNTER, &s, err)) < 0)
		return r;
	for (i = 0; i < rec->ncounters; i++) {
		const struct store_counters *c = &rec->counters[i];
		for (j = 0; j < c->n; j++) {
			sqlite3_bind_int64(s, 1, id);
			bind_text(s, 2, c->host);
			bind_text(s, 3, c->rows[j].scope);
			bind_text(s, 4, c->rows[j].name);
			sqlite3_bind_double(s, 5, c->rows[j].value);
			if ((r = per_run_done(st, s, "storing run results",
					      err)) < 0)
				return r;
		}
	}
	return 0;
}

/* The run's series, each packed into one row (store_series.c), and why
 * sampling stopped early; inside the caller's transaction. */
static int put_series(struct store *st, int64_t id, const struct series_set *ss,
		      struct xr_err *err)
{
	struct buf pts = BUF_INIT;
	sqlite3_stmt *s;
	size_t i;
	int r = 0;
	if (!ss)
		return 0;
	if ((r = per_run(st, PR_PUT_SERIES, &s, err)) < 0)
		return r;
	for (i = 0; r == 0 && i < ss->n; i++) {
		const struct series *x = &ss->s[i];
		buf_reset(&pts);
		if (store_series_pack(x, &pts) < 0) {
			r = xr_err_set(err, XR_ENOMEM, st->path, 0, 0,
				       "series '%s' on '%s' does not fit in "
				       "memory",
				       x->name, x->host);
			break;
		}
		sqlite3_bind_int64(s, 1, id);
		bind_text(s, 2, x->host);
		bind_text(s, 3, x->name);
		bind_text(s, 4, x->unit[0] ? x->unit : "1");
		sqlite3_bind_int64(s, 5, (int64_t)x->n);
		sqlite3_bind_text(s, 6, pts.s, (int)pts.len, SQLITE_STATIC);
		r = per_run_done(st, s, "storing run series", err);
	}
	buf_release(&pts);
	if (r < 0 || !ss->note[0])
		return r;
	if ((r = per_run(st, PR_PUT_SERIES_NOTE, &s, err)) < 0)
		return r;
	sqlite3_bind_int64(s, 1, id);
	bind_text(s, 2, ss->note);
	return per_run_done(st, s, "storing run series", err);
}

/* stdout passed the output cap: the cap and what was kept, so that a
 * report marks an ok run read from a cut output (flag output_cut). */
static int put_cut(struct store *st, int64_t id,
		   const struct engine_result *res, struct xr_err *err)
{
	sqlite3_stmt *s;
	int r;
	if ((r = per_run(st, PR_PUT_OUTPUT_CUT, &s, err)) < 0)
		return r;
	sqlite3_bind_int64(s, 1, id);
	sqlite3_bind_int64(s, 2, (int64_t)res->out_cut);
	sqlite3_bind_int64(s, 3, (int64_t)res->raw_len);
	return per_run_done(st, s, "storing the output cap", err);
}

/* The controller's load when a run ends: a loaded machine running xrun
 * (and, on loopback or in namespaces, the runs themselves) can measure
 * less than the link gives; the report says so. */
static int put_load(struct store *st, int64_t run_id, struct xr_err *err)
{
	sqlite3_stmt *s;
	double load1;
	int cpus, r;
	if (proc_loadavg(&load1, &cpus) < 0)
		return 0;
	if ((r = store_prep(
		 st,
		 "INSERT OR REPLACE INTO run_load(run_id, load1, cpus) "
		 "VALUES(?,?,?)",
		 &s, err)) < 0)
		return r;
	sqlite3_bind_int64(s, 1, run_id);
	sqlite3_bind_double(s, 2, load1);
	sqlite3_bind_int(s, 3, cpus);
	return store_step_done(st, s, "storing the load average", err);
}

int store_run_finish(struct store *st, int64_t run_id,
		     const struct store_run_record *rec, struct xr_err *err)
{
	const struct engine_result *res = rec->res;
	const char *reason = rec->reason;
	sqlite3_stmt *s;
	int r, verified = -1;
	size_t i;
	for (i = 0; i < rec->nver; i++)
		verified = (verified != 0 && rec->ver[i].ok) ? 1 : 0;
	if (!reason && res && res->reason[0])
		reason = res->reason;
	if ((r = store_begin(st, err)) < 0)
		return r;
	if ((r = per_run(st, PR_RUN_FINISH, &s, err)) < 0)
		goto fail;
	bind_text(s, 1, run_status_name(res ? res->status : RUN_FAILED));
	/* Without the engine's start time, keep store_run_start's. */
	if (res && res->started_at > 0) {
		sqlite3_bind_double(s, 2, res->started_at);
		sqlite3_bind_double(s, 3, res->started_at + res->elapsed);
		sqlite3_bind_double(s, 4, res->elapsed);
	} else {
		sqlite3_bind_null(s, 2);
		sqlite3_bind_double(s, 3, proc_now_wall());
		sqlite3_bind_null(s, 4);
	}
	if (res && res->exit_code >= 0)
		sqlite3_bind_int(s, 5, res->exit_code);
	else
		sqlite3_bind_null(s, 5);
	bind_text(s, 6, reason);
	bind_text(s, 7, rec->engine);
	bind_text(s, 8,
		  rec->argv_json ? rec->argv_json
				 : (res ? res->argv_json : NULL));
	bind_text(s, 9, rec->target);
	bind_text(s, 10, rec->params_json);
	bind_output(s, 11, res ? res->raw : NULL, res ? res->raw_len : 0);
	bind_output(s, 12, res ? res->err_text : NULL, res ? res->err_len : 0);
	if (verified >= 0)
		sqlite3_bind_int(s, 13, verified);
	else
		sqlite3_bind_null(s, 13);
	sqlite3_bind_int64(s, 14, run_id);
	if ((r = per_run_done(st, s, "storing a run", err)) < 0)
		goto fail;
	if ((r = put_children(st, run_id, rec, err)) < 0)
		goto fail;
	if ((r = put_series(st, run_id, rec->series, err)) < 0)
		goto fail;
	if (res && res->out_cut && (r = put_cut(st, run_id, res, err)) < 0)
		goto fail;
	if ((r = put_load(st, run_id, err)) < 0)
		goto fail;
	if ((r = keep_attempt(st, run_id, err)) < 0)
		goto fail;
	if (rec->nfacts && (r = store_run_facts_put(st, run_id, rec->facts,
						    rec->nfacts, err)) < 0)
		goto fail;
	/* `xrun status` shows when the session last moved. */
	if ((r = per_run(st, PR_SESSION_TOUCH, &s, err)) < 0)
		goto fail;
	sqlite3_bind_double(s, 1, proc_now_wall());
	sqlite3_bind_int64(s, 2, run_id);
	if ((r = per_run_done(st, s, "updating the session", err)) < 0)
		goto fail;
	if ((r = store_commit(st, err)) < 0)
		goto fail;
	return 0;
fail:
	store_rollback(st);
	return r;
}

int store_hook_add(struct store *st, int64_t session_id, int64_t run_id,
		   const char *factor, const char *host, const char *kind,
		   const char *level, const char *argv_json, int exit_code,
		   const char *out, const char *errtext, struct xr_err *err)
{
	sqlite3_stmt *s;
	int r;
	if ((r = store_prep(
		 st,
		 "INSERT INTO hooks(session_id, run_id, factor, host, "
		 "kind, level, argv, exit_code, stdout, stderr, at) "
		 "VALUES(?,?,?,?,?,?,?,?,?,?,?)",
		 &s, err)) < 0)
		return r;
	sqlite3_bind_int64(s, 1, session_id);
	if (run_id > 0)
		sqlite3_bind_int64(s, 2, run_id);
	else
		sqlite3_bind_null(s, 2);
	bind_text(s, 3, factor);
	bind_text(s, 4, host);
	bind_text(s, 5, kind);
	bind_text(s, 6, level);
	bind_text(s, 7, argv_json);
	if (exit_code >= -1000)
		sqlite3_bind_int(s, 8, exit_code);
	else
		sqlite3_bind_null(s, 8);
	bind_text(s, 9, out);
	bind_text(s, 10, errtext);
	sqlite3_bind_double(s, 11, proc_now_wall());
	return store_step_done(st, s, "storing a hook", err);
}

int store_fact_put(struct store *st, int64_t session_id, const char *host,
		   const char *key, const char *value, struct xr_err *err)
{
	sqlite3_stmt *s;
	int r;
	if ((r = store_prep(
		 st,
		 "INSERT OR IGNORE INTO host_facts(session_id, host, "
		 "key, value) VALUES(?,?,?,?)",
		 &s, err)) < 0)
		return r;
	sqlite3_bind_int64(s, 1, session_id);
	bind_text(s, 2, host);
	bind_text(s, 3, key);
	bind_text(s, 4, value);
	return store_step_done(st, s, "storing host facts", err);
}

int store_facts_put(struct store *st, int64_t session_id, const char *host,
		    const struct fact *facts, size_t n, struct xr_err *err)
{
	size_t i;
	int r;
	if ((r = store_begin(st, err)) < 0)
		return r;
	for (i = 0; i < n; i++)
		if ((r = store_fact_put(st, session_id, host, facts[i].key,
					facts[i].value, err)) < 0) {
			store_rollback(st);
			return r;
		}
	return store_commit(st, err);
}
