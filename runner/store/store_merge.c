/*
 * xrun merge: copying the sessions of other stores (other machines, other
 * sessions of the same plan) into one. Each input is attached read-only in
 * effect (only SELECTed from) and every session it holds is copied with
 * all its rows (runs, metrics, intervals, observed settings,
 * verifications, counters, series, hooks, originals, load, host facts and
 * fact sets (under new ids) as
 * they are), under new ids. A session is known by its key (session_keys, or
 * for a store older than version 4 one made from its plan hash and start
 * time): a session the output already has is skipped, so merging the same
 * store twice adds nothing. Sessions of another plan (another name or
 * another matrix: cells_hash) are refused unless forced. A session still
 * running (its store locked by another xrun) and a session with no plan
 * row are skipped with a warning; one cut short while running is copied
 * as far as it got, with a warning.
 *
 * SPDX-License-Identifier: MIT
 */
#include "store.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "buf.h"
#include "store_int.h"
#include "banned.h"

/* Up to three int64 parameters, bound in order; -1 ends the list. */
static int merge_exec(struct store *st, const char *sql, int64_t a, int64_t b,
		      struct xr_err *err)
{
	sqlite3_stmt *s;
	int rc, np;
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return store_db_fail(st, err, "preparing the merge");
	np = sqlite3_bind_parameter_count(s);
	if (np >= 1)
		sqlite3_bind_int64(s, 1, a);
	if (np >= 2)
		sqlite3_bind_int64(s, 2, b);
	rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return store_db_fail(st, err, "merging");
	return 0;
}

static int src_has_table(struct store *st, const char *name)
{
	sqlite3_stmt *s;
	int found = 0;
	if (sqlite3_prepare_v2(st->db,
			       "SELECT 1 FROM src.sqlite_master WHERE type = "
			       "'table' AND name = ?",
			       -1, &s, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
	found = sqlite3_step(s) == SQLITE_ROW;
	sqlite3_finalize(s);
	return found;
}

/* 1 when the input's series_data has chunks and attempts (version 8). */
static int src_series_chunked(struct store *st)
{
	sqlite3_stmt *s;
	int rc =
	    sqlite3_prepare_v2(st->db,
			       "SELECT attempt, chunk FROM src.series_data "
			       "LIMIT 0",
			       -1, &s, NULL);
	sqlite3_finalize(s);
	return rc == SQLITE_OK;
}

static int attach(struct store *st, const char *path, struct xr_err *err)
{
	sqlite3_stmt *s;
	int rc;
	if (sqlite3_prepare_v2(st->db, "ATTACH DATABASE ? AS src", -1, &s,
			       NULL) != SQLITE_OK)
		return store_db_fail(st, err, "attaching an input");
	sqlite3_bind_text(s, 1, path, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return xr_err_set(err, XR_ESTORE, path, 0, 0,
				  "cannot read the store: %s",
				  sqlite3_errmsg(st->db));
	return 0;
}

static void detach(struct store *st)
{
	sqlite3_exec(st->db, "DETACH DATABASE src", NULL, NULL, NULL);
}

/* Check that path is an xrun store this xrun can read and is not out. */
static int check_input(struct store *out, const char *path, struct xr_err *err)
{
	struct store *in = NULL;
	struct stat a, b;
	int r;
	if (stat(out->path, &a) == 0 && stat(path, &b) == 0 &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		return xr_err_set(err, XR_EUSAGE, path, 0, 0,
				  "is the output store itself; name another "
				  "store to merge");
	if ((r = store_open(path, STORE_READONLY, &in, err)) < 0)
		return r;
	store_close(in);
	return 0;
}

/*
 * The plans of the input's sessions that the output (with the inputs
 * merged before) does not have: their name and matrix (cells_hash). When
 * the output has no session yet, the first input's plan sets it.
 */
static int check_plans(struct store *st, const char *path, int force,
		       struct xr_err *err)
{
	sqlite3_stmt *s;
	int rc, r = 0, have;
	if (force)
		return 0;
	if (sqlite3_prepare_v2(st->db, "SELECT count(*) FROM main.sessions", -1,
			       &s, NULL) != SQLITE_OK)
		return store_db_fail(st, err, "reading the output's sessions");
	have = sqlite3_step(s) == SQLITE_ROW && sqlite3_column_int(s, 0) > 0;
	sqlite3_finalize(s);
	if (!have)
		/* The input's own sessions must still agree. */
		rc = sqlite3_prepare_v2(
		    st->db,
		    "SELECT s.id, p.name, s.cells_hash, o.name FROM "
		    "src.sessions s JOIN src.plans p ON p.id = s.plan_id, "
		    "(SELECT p2.name AS name, s2.cells_hash AS ch FROM "
		    "src.sessions s2 JOIN src.plans p2 ON p2.id = s2.plan_id "
		    "ORDER BY s2.id LIMIT 1) o WHERE p.name <> o.name OR "
		    "s.cells_hash <> o.ch ORDER BY s.id LIMIT 1",
		    -1, &s, NULL);
	else
		rc = sqlite3_prepare_v2(
		    st->db,
		    "SELECT s.id, p.name, s.cells_hash, (SELECT mp.name FROM "
		    "main.sessions ms JOIN main.plans mp ON mp.id = ms.plan_id "
		    "ORDER BY ms.id DESC LIMIT 1) FROM src.sessions s JOIN "
		    "src.plans p ON p.id = s.plan_id WHERE NOT EXISTS (SELECT "
		    "1 FROM main.sessions ms JOIN main.plans mp ON mp.id = "
		    "ms.plan_id WHERE mp.name = p.name AND ms.cells_hash = "
		    "s.cells_hash) ORDER BY s.id LIMIT 1",
		    -1, &s, NULL);
	if (rc != SQLITE_OK)
		return store_db_fail(st, err, "comparing the plans");
	if (sqlite3_step(s) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(s, 1);
		const char *ch = (const char *)sqlite3_column_text(s, 2);
		const char *other = (const char *)sqlite3_column_text(s, 3);
		r = xr_err_set(err, XR_EUSAGE, path, 0, 0,
			       "session %lld ran plan '%s' (matrix %.12s), "
			       "not the plan of the sessions merged so far "
			       "('%s' with another matrix); only stores of "
			       "one plan are merged: use --force to merge "
			       "them anyway",
			       (long long)sqlite3_column_int64(s, 0),
			       name ? name : "", ch ? ch : "",
			       other ? other : "");
	}
	sqlite3_finalize(s);
	return r;
}

/* Rows that hang off a run: copied with the new run id, found by the
 * session and position of the old one. */
static const char *const run_children[] = {
    "INSERT INTO main.metrics(run_id, name, value, unit) SELECT n.id, "
    "c.name, c.value, c.unit FROM src.metrics c",
    "INSERT INTO main.intervals(run_id, seq, t_start, t_end, value) SELECT "
    "n.id, c.seq, c.t_start, c.t_end, c.value FROM src.intervals c",
    "INSERT INTO main.observed(run_id, key, value) SELECT n.id, c.key, "
    "c.value FROM src.observed c",
    "INSERT INTO main.verifications(run_id, factor, host, method, "
    "expected, actual, ok) SELECT n.id, c.factor, c.host, c.method, "
    "c.expected, c.actual, c.ok FROM src.verifications c",
    "INSERT INTO main.counters(run_id, host, scope, name, value) SELECT "
    "n.id, c.host, c.scope, c.name, c.value FROM src.counters c",
    "INSERT INTO main.run_load(run_id, load1, cpus) SELECT n.id, c.load1, "
    "c.cpus FROM src.run_load c", /* version 4 inputs only */
    "INSERT INTO main.series_data(run_id, attempt, chunk, host, name, "
    "unit, n, points) SELECT n.id, c.attempt, c.chunk, c.host, c.name, "
    "c.unit, c.n, c.points FROM src.series_data c", /* version 8 inputs */
    /* version 7 inputs: one row a series, of the run's last attempt */
    "INSERT INTO main.series_data(run_id, attempt, chunk, host, name, "
    "unit, n, points) SELECT n.id, o.attempts, 0, c.host, c.name, c.unit, "
    "c.n, c.points FROM src.series_data c",
    "INSERT INTO main.output_cut(run_id, cap, kept) SELECT n.id, c.cap, "
    "c.kept FROM src.output_cut c", /* version 8 inputs only */
    "INSERT INTO main.series_notes(run_id, note) SELECT n.id, c.note FROM "
    "src.series_notes c", /* version 7 inputs only */
    "INSERT INTO main.sizing_runs(run_id, block) SELECT n.id, c.block FROM "
    "src.sizing_runs c", /* version 9 inputs only */
    /* version 11 inputs: a trial's search is a run of the same session,
     * found by its position too */
    "INSERT INTO main.trials(run_id, search_id, seq, goal, load, duration, "
    "loss) SELECT n.id, (SELECT ns.id FROM main.runs ns JOIN src.runs os "
    "ON os.id = c.search_id WHERE ns.session_id = ?2 AND ns.position = "
    "os.position), c.seq, c.goal, c.load, c.duration, c.loss FROM "
    "src.trials c",
    "INSERT INTO main.run_attempts(run_id, attempt, status, started_at, "
    "ended_at, elapsed, exit_code, reason) SELECT n.id, c.attempt, "
    "c.status, c.started_at, c.ended_at, c.elapsed, c.exit_code, c.reason "
    "FROM src.run_attempts c", /* version 12 inputs only */
};

/* The source table of a run_children row ("... FROM src.T c"): an input
 * older than the table has none to copy. */
static int child_in_src(struct store *st, const char *sql)
{
	char table[64];
	const char *p = strstr(sql, "FROM src.");
	size_t n;
	if (!p)
		return 1;
	p += strlen("FROM src.");
	n = strcspn(p, " ");
	if (n >= sizeof table)
		return 1;
	memcpy(table, p, n);
	table[n] = '\0';
	if (!src_has_table(st, table))
		return 0;
	if (strcmp(table, "series_data") != 0)
		return 1;
	/* Of the two series_data rows, the one of the input's version. */
	return src_series_chunked(st) == (strstr(sql, "c.chunk") != NULL);
}

static int copy_runs(struct store *st, int64_t old, int64_t sid,
		     struct xr_err *err)
{
	struct buf q = BUF_INIT;
	size_t i;
	int r;
	if ((r = merge_exec(
		 st,
		 "INSERT INTO main.runs(session_id, position, block, "
		 "block_pos, pass, rep, warmup, cell_index, cell, status, "
		 "attempts, started_at, ended_at, elapsed, exit_code, reason, "
		 "engine, argv, target, params, stdout, stderr, verified) "
		 "SELECT ?2, position, block, block_pos, pass, rep, warmup, "
		 "cell_index, cell, status, attempts, started_at, ended_at, "
		 "elapsed, exit_code, reason, engine, argv, target, params, "
		 "stdout, stderr, verified FROM src.runs WHERE session_id = ?1",
		 old, sid, err)) < 0)
		return r;
	for (i = 0; i < sizeof run_children / sizeof run_children[0]; i++) {
		if (!child_in_src(st, run_children[i]))
			continue;
		buf_reset(&q);
		buf_addf(&q,
			 "%s JOIN src.runs o ON o.id = c.run_id JOIN main.runs "
			 "n ON n.session_id = ?2 AND n.position = o.position "
			 "WHERE o.session_id = ?1",
			 run_children[i]);
		if ((r = merge_exec(st, q.s, old, sid, err)) < 0)
			break;
	}
	buf_release(&q);
	return r;
}

/* Statements of copy_fact_sets, in order: the sets of an input of
 * version 13 under new ids (merge_fset maps them, in the input's order),
 * their values and the runs naming them. */
static const char *const fact_set_copy[] = {
    "CREATE TEMP TABLE IF NOT EXISTS merge_fset(old INTEGER PRIMARY KEY, "
    "new INTEGER NOT NULL)",
    "DELETE FROM temp.merge_fset",
    "INSERT INTO temp.merge_fset(old, new) SELECT id, (SELECT "
    "coalesce(max(id), 0) FROM main.fact_sets) + row_number() OVER "
    "(ORDER BY id) FROM src.fact_sets WHERE session_id = ?1",
    "INSERT INTO main.fact_sets(id, session_id, host, cause, factor, "
    "level, read_at) SELECT m.new, ?2, f.host, f.cause, f.factor, "
    "f.level, f.read_at FROM src.fact_sets f JOIN temp.merge_fset m ON "
    "m.old = f.id ORDER BY m.new",
    "INSERT INTO main.fact_values(set_id, key, value) SELECT m.new, "
    "v.key, v.value FROM src.fact_values v JOIN temp.merge_fset m ON "
    "m.old = v.set_id",
    "INSERT INTO main.run_facts(run_id, host, set_id) SELECT n.id, c.host, "
    "m.new FROM src.run_facts c JOIN temp.merge_fset m ON m.old = "
    "c.set_id JOIN src.runs o ON o.id = c.run_id JOIN main.runs n ON "
    "n.session_id = ?2 AND n.position = o.position",
};

/* An input older than version 13: its session's host facts become one
 * migrated set per host, as migration 13 makes them (013.sql). */
static const char *const fact_set_migrate[] = {
    "INSERT INTO main.fact_sets(session_id, host, cause, read_at) SELECT "
    "DISTINCT ?2, f.host, 'migrated', s.started_at FROM main.host_facts f "
    "JOIN main.sessions s ON s.id = f.session_id WHERE f.session_id = ?2",
    "INSERT OR IGNORE INTO main.fact_values(set_id, key, value) SELECT "
    "fs.id, f.key, f.value FROM main.host_facts f JOIN main.fact_sets fs "
    "ON fs.session_id = f.session_id AND fs.host = f.host AND fs.cause = "
    "'migrated' WHERE f.session_id = ?2 AND f.value IS NOT NULL AND "
    "f.rowid = (SELECT max(g.rowid) FROM main.host_facts g WHERE "
    "g.session_id = f.session_id AND g.host = f.host AND g.key = f.key "
    "AND g.value IS NOT NULL)",
};

static int copy_fact_sets(struct store *st, int64_t old, int64_t sid,
			  struct xr_err *err)
{
	int v10 = src_has_table(st, "fact_sets");
	const char *const *q = v10 ? fact_set_copy : fact_set_migrate;
	size_t n = v10 ? sizeof fact_set_copy / sizeof *q
		       : sizeof fact_set_migrate / sizeof *q;
	int r = 0;
	for (size_t i = 0; i < n && r == 0; i++)
		r = merge_exec(st, q[i], old, sid, err);
	return r;
}

static int copy_session_rows(struct store *st, int64_t old, int64_t sid,
			     struct xr_err *err)
{
	int r;
	if ((r = copy_runs(st, old, sid, err)) < 0)
		return r;
	if ((r = merge_exec(
		 st,
		 "INSERT INTO main.hooks(session_id, run_id, factor, host, "
		 "kind, level, argv, exit_code, stdout, stderr, at) SELECT ?2, "
		 "(SELECT n.id FROM src.runs o JOIN main.runs n ON "
		 "n.session_id "
		 "= ?2 AND n.position = o.position WHERE o.id = h.run_id), "
		 "h.factor, h.host, h.kind, h.level, h.argv, h.exit_code, "
		 "h.stdout, h.stderr, h.at FROM src.hooks h WHERE h.session_id "
		 "= ?1 ORDER BY h.id",
		 old, sid, err)) < 0)
		return r;
	if (src_has_table(st, "originals") &&
	    (r = merge_exec(st,
			    "INSERT INTO main.originals(session_id, factor, "
			    "host, value, captured_at) SELECT ?2, factor, "
			    "host, value, captured_at FROM src.originals "
			    "WHERE session_id = ?1",
			    old, sid, err)) < 0)
		return r;
	/* The schedule's size: its runs not reached have no row, and a
	 * shard's runs not done are counted from it (store_shard.c). */
	if (src_has_table(st, "schedules") &&
	    (r = merge_exec(st,
			    "INSERT INTO main.schedules(session_id, runs) "
			    "SELECT ?2, runs FROM src.schedules WHERE "
			    "session_id = ?1",
			    old, sid, err)) < 0)
		return r;
	if (src_has_table(st, "shards") &&
	    (r = merge_exec(st,
			    "INSERT INTO main.shards(session_id, k, n, units, "
			    "assign, blocks, testbed) SELECT ?2, k, n, units, "
			    "assign, blocks, testbed FROM src.shards WHERE "
			    "session_id = ?1",
			    old, sid, err)) < 0)
		return r;
	/* Host facts as they are: every (host, key) row of the session. */
	if ((r = merge_exec(st,
			    "INSERT INTO main.host_facts(session_id, host, "
			    "key, value) SELECT ?2, host, key, value FROM "
			    "src.host_facts WHERE session_id = ?1",
			    old, sid, err)) < 0)
		return r;
	return copy_fact_sets(st, old, sid, err);
}

/* Copy session old of src under key; *added 1 when copied, 0 when the
 * output already had it. */
static int copy_session(struct store *st, int64_t old, const char *key,
			int *added, struct xr_err *err)
{
	sqlite3_stmt *s;
	int64_t sid;
	int r, have;
	*added = 0;
	if (sqlite3_prepare_v2(st->db,
			       "SELECT 1 FROM main.session_keys WHERE uuid = ?",
			       -1, &s, NULL) != SQLITE_OK)
		return store_db_fail(st, err, "reading the session keys");
	sqlite3_bind_text(s, 1, key, -1, SQLITE_TRANSIENT);
	have = sqlite3_step(s) == SQLITE_ROW;
	sqlite3_finalize(s);
	if (have)
		return 0;
	if ((r = merge_exec(
		 st,
		 "INSERT INTO main.plans(name, title, path, hash, text, "
		 "created_at) SELECT p.name, p.title, p.path, p.hash, p.text, "
		 "p.created_at FROM src.plans p JOIN src.sessions s ON "
		 "s.plan_id = p.id WHERE s.id = ?1 ON CONFLICT(hash) DO "
		 "NOTHING",
		 old, 0, err)) < 0)
		return r;
	if ((r = merge_exec(
		 st,
		 "INSERT INTO main.sessions(plan_id, cells_hash, cells_desc, "
		 "started_at, updated_at, ended_at, xrun_version, argv, "
		 "status) "
		 "SELECT (SELECT mp.id FROM main.plans mp JOIN src.plans p ON "
		 "p.hash = mp.hash WHERE p.id = s.plan_id), s.cells_hash, "
		 "s.cells_desc, s.started_at, s.updated_at, s.ended_at, "
		 "s.xrun_version, s.argv, s.status FROM src.sessions s WHERE "
		 "s.id = ?1",
		 old, 0, err)) < 0)
		return r;
	sid = sqlite3_last_insert_rowid(st->db);
	if (sqlite3_prepare_v2(
		st->db,
		"INSERT INTO main.session_keys(session_id, uuid) "
		"VALUES(?, ?)",
		-1, &s, NULL) != SQLITE_OK)
		return store_db_fail(st, err, "storing a session key");
	sqlite3_bind_int64(s, 1, sid);
	sqlite3_bind_text(s, 2, key, -1, SQLITE_TRANSIENT);
	r = sqlite3_step(s);
	sqlite3_finalize(s);
	if (r != SQLITE_DONE)
		return store_db_fail(st, err, "storing a session key");
	if ((r = copy_session_rows(st, old, sid, err)) < 0)
		return r;
	*added = 1;
	return 0;
}

/* Each input session with its key, oldest first. A store older than
 * version 4 has no keys: its sessions are known by plan hash and start
 * time, the same on every merge of that store. */
static int copy_all(struct store *st, const char *path, int held,
		    struct store_merge_stats *stats, struct xr_err *err)
{
	struct buf live = BUF_INIT, cut = BUF_INIT;
	sqlite3_stmt *s;
	int rc, r = 0;
	const char *sql =
	    src_has_table(st, "session_keys")
		? "SELECT s.id, COALESCE(k.uuid, 'v2-' || p.hash || '-' || "
		  "printf('%.6f', s.started_at)), s.status = 'running' FROM "
		  "src.sessions s JOIN "
		  "src.plans p ON p.id = s.plan_id LEFT JOIN src.session_keys "
		  "k ON k.session_id = s.id ORDER BY s.id"
		: "SELECT s.id, 'v2-' || p.hash || '-' || printf('%.6f', "
		  "s.started_at), s.status = 'running' FROM src.sessions s "
		  "JOIN src.plans p ON p.id "
		  "= s.plan_id ORDER BY s.id";
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return store_db_fail(st, err, "reading the input's sessions");
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		int64_t old = sqlite3_column_int64(s, 0);
		int running = sqlite3_column_int(s, 2);
		char *key;
		int added = 0;
		if (running && held) {
			buf_addf(&live, "%s%lld", live.len ? ", " : "",
				 (long long)old);
			stats->sessions_running++;
			continue;
		}
		key = strdup((const char *)sqlite3_column_text(s, 1));
		if (!key) {
			r = xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
				       "out of memory");
			break;
		}
		r = copy_session(st, old, key, &added, err);
		free(key);
		if (r < 0)
			break;
		if (added)
			stats->sessions_added++;
		else
			stats->sessions_skipped++;
		if (added && running)
			buf_addf(&cut, "%s%lld", cut.len ? ", " : "",
				 (long long)old);
	}
	if (r == 0 && rc != SQLITE_DONE)
		r = store_db_fail(st, err, "reading the input's sessions");
	sqlite3_finalize(s);
	if (r == 0 && live.len &&
	    strv_pushf(&stats->warnings,
		       "%s: session %s is still running (another xrun holds "
		       "the store): skipped; merge again when it has ended",
		       path, live.s) < 0)
		r = xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	if (r == 0 && cut.len &&
	    strv_pushf(&stats->warnings,
		       "%s: session %s was cut short while running (status "
		       "running, no xrun holds the store): merged as far as "
		       "it got; a later merge will not update it",
		       path, cut.s) < 0)
		r = xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	buf_release(&live);
	buf_release(&cut);
	return r;
}

/* Sessions of the input with no plan row: a report cannot read them, so
 * they are not copied; said in a warning. */
static int note_planless(struct store *st, const char *path,
			 struct store_merge_stats *stats, struct xr_err *err)
{
	sqlite3_stmt *s;
	int64_t n = 0;
	int r = 0;
	if (sqlite3_prepare_v2(
		st->db,
		"SELECT count(*), group_concat(id, ', ') FROM (SELECT s.id "
		"AS id FROM src.sessions s WHERE NOT EXISTS (SELECT 1 FROM "
		"src.plans p WHERE p.id = s.plan_id) ORDER BY s.id)",
		-1, &s, NULL) != SQLITE_OK)
		return store_db_fail(st, err, "reading the input's sessions");
	if (sqlite3_step(s) == SQLITE_ROW &&
	    (n = sqlite3_column_int64(s, 0)) > 0) {
		stats->sessions_planless += n;
		if (strv_pushf(&stats->warnings,
			       "%s: session%s %s %s no plan row (its plan is "
			       "missing from the store): skipped",
			       path, n == 1 ? "" : "s",
			       (const char *)sqlite3_column_text(s, 1),
			       n == 1 ? "has" : "have") < 0)
			r = xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
				       "out of memory");
	}
	sqlite3_finalize(s);
	return r;
}

/* Runs in the main store into *n, for the merge's statistics (when: what
 * the message says about the store, before or after the merge). */
static int count_runs(struct store *st, int64_t *n, const char *when,
		      struct xr_err *err)
{
	sqlite3_stmt *s = NULL;
	int rc = sqlite3_prepare_v2(st->db, "SELECT count(*) FROM main.runs",
				    -1, &s, NULL);
	if (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		*n = sqlite3_column_int64(s, 0);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(s);
	if (rc == SQLITE_OK)
		return 0;
	/* a count of 0 printed for a merge that copied runs was the answer
	 * before (an allocation failing in SQLite, e2e/fault_oom) */
	return xr_err_set(err, rc == SQLITE_NOMEM ? XR_ENOMEM : XR_ESTORE,
			  st->path, 0, 0, "%s; counting its runs failed: %s",
			  when, sqlite3_errstr(rc));
}

int store_merge(struct store *st, const char *const *inputs, size_t n,
		int force, struct store_merge_stats *stats, struct xr_err *err)
{
	int64_t before, after;
	size_t i;
	int r = 0;
	memset(stats, 0, sizeof *stats);
	for (i = 0; i < n; i++)
		if ((r = check_input(st, inputs[i], err)) < 0)
			return r;
	if ((r = count_runs(st, &before, "nothing merged yet", err)) < 0)
		return r;
	/* One transaction per input (ATTACH is refused inside one): an input
	 * refused leaves those before it merged, which is safe to repeat. */
	for (i = 0; i < n && r == 0; i++) {
		int held = store_lock_held(inputs[i]);
		int64_t added0 = stats->sessions_added;
		if ((r = attach(st, inputs[i], err)) < 0)
			break;
		if ((r = store_begin(st, err)) < 0) {
			detach(st);
			break;
		}
		if ((r = check_plans(st, inputs[i], force, err)) == 0 &&
		    (r = note_planless(st, inputs[i], stats, err)) == 0 &&
		    (r = copy_all(st, inputs[i], held, stats, err)) == 0 &&
		    !force)
			r = store_shard_merge_check(st, inputs[i], err);
		if (r == 0)
			r = store_commit(st, err);
		else {
			store_rollback(st);
			stats->sessions_added = added0; /* none of this input */
		}
		detach(st);
	}
	if (r == 0 && (r = count_runs(st, &after,
				      "the merge is stored (a merge again "
				      "copies nothing twice)",
				      err)) == 0)
		stats->runs_added = after - before;
	if (r == 0 && (r = store_shards_check(st, NULL, &stats->shard_missing,
					      err)) >= 0) {
		stats->shard_gaps = r;
		r = 0;
	}
	return r;
}
