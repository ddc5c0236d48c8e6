/* Unit test of store_run_set_status (store_rows.c): an attempt that lost
 * its host goes back to 'pending' and is kept in run_attempts with that
 * status and reason (schema/store.md, run_attempts: "An attempt that lost
 * its host ... has its row with that status and reason"), so that after
 * the run's next attempt ends, both are there: attempts 1 and 2.
 *
 * SPDX-License-Identifier: MIT
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"
#include "store.h"
#include "tap.h"

static char dir[] = "/tmp/xrun-test-attempt-lost-XXXXXX";

/* The first column of the first row of sql, read through a connection of
 * the test's own (the store handle is opaque); NULL when none. */
static char *q_text(const char *path, const char *sql)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *s;
	char *v = NULL;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) ||
	    sqlite3_prepare_v2(db, sql, -1, &s, NULL)) {
		sqlite3_close(db);
		return NULL;
	}
	if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0))
		v = strdup((const char *)sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
	sqlite3_close(db);
	return v;
}

static int q_exec(const char *path, const char *sql)
{
	sqlite3 *db = NULL;
	int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_busy_timeout(db, 5000);
		rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
	}
	sqlite3_close(db);
	return rc;
}

int main(void)
{
	char path[256];
	struct xr_err err = {0};
	struct store *st = NULL;
	struct store_run_record rec = {0};
	struct engine_result res = {0};
	char *t;

	tap_plan(6);
	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof path, "%s/lost.db", dir);
	if (store_open(path, STORE_CREATE | STORE_LOCK, &st, &err) < 0) {
		ok(0, "store_open: %s", err.msg);
		return tap_done();
	}
	is_int(q_exec(path,
		      "INSERT INTO plans(name, hash, text, created_at) "
		      "VALUES('p', 'h', 't', 0); INSERT INTO sessions(plan_id, "
		      "cells_hash, started_at, updated_at, xrun_version) "
		      "VALUES(1, 'c', 0, 0, 'x'); INSERT INTO runs(session_id, "
		      "position, block, block_pos, pass, rep, cell_index, "
		      "cell, status, attempts) VALUES (1, 0, 0, 0, 0, 1, 0, "
		      "'{}', 'pending', 0)"),
	       SQLITE_OK, "a session with one pending run");

	/* attempt 1: started, then its host lost: pending again */
	is_int(store_run_start(st, 1, 10, &err), 0, "attempt 1 started");
	is_int(store_run_set_status(st, 1, "pending",
				    "host 'srv' lost: connection reset", &err),
	       0, "attempt 1 lost its host");
	/* attempt 2: ok */
	res.status = RUN_OK;
	res.exit_code = 0;
	rec.res = &res;
	store_run_start(st, 1, 20, &err);
	is_int(store_run_finish(st, 1, &rec, &err), 0, "attempt 2 stored");
	t = q_text(path, "SELECT group_concat(attempt || ' ' || status || ' ' "
			 "|| coalesce(reason, '-'), ', ') FROM (SELECT * FROM "
			 "run_attempts WHERE run_id = 1 ORDER BY attempt)");
	is_str(t ? t : "",
	       "1 pending host 'srv' lost: connection reset, 2 ok -",
	       "both attempts kept: the lost one with its status and reason");
	free(t);
	t = q_text(path, "SELECT attempts || ' ' || status FROM runs");
	is_str(t ? t : "", "2 ok", "the runs row holds the latest attempt");
	free(t);
	store_close(st);
	snprintf(path, sizeof path, "rm -rf %s", dir);
	if (system(path) != 0)
		return 1;
	return tap_done();
}
