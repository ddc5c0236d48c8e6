/* Unit tests for store.c: schema creation, version refusal, the lock,
 * pending inserts at scale, per-run commits and the results view. */
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "counters.h"
#include "engine.h"
#include "facts.h"
#include "store.h"
#include "tap.h"

/* is_int evaluates its arguments twice: evaluate calls once. */
#define CHK(expr, want, name)                                                  \
	do {                                                                   \
		long long v_ = (long long)(expr);                              \
		is_int(v_, want, name);                                        \
	} while (0)

static char dir[] = "/tmp/xrun-test-store-XXXXXX";

static double mono(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static long long q_int(struct store *st, const char *sql)
{
	sqlite3_stmt *s;
	long long v = -1;
	if (sqlite3_prepare_v2(store_sqlite(st), sql, -1, &s, NULL))
		return -2;
	if (sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return v;
}

static char *q_text(struct store *st, const char *sql)
{
	sqlite3_stmt *s;
	char *v = NULL;
	if (sqlite3_prepare_v2(store_sqlite(st), sql, -1, &s, NULL))
		return NULL;
	if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0))
		v = strdup((const char *)sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
	return v;
}

int main(void)
{
	struct xr_err err = {0};
	struct store *st = NULL, *st2 = NULL;
	struct store_session ss;
	char path[256], path2[256];
	int64_t plan_id = 0, plan_id2 = 0, sid = 0, ids[4];
	uint8_t status[4];
	size_t i, n = 200000;
	double t0;
	char *txt;
	int r;

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof path, "%s/t.db", dir);

	r = store_open(path, 0, &st, &err);
	ok(r < 0 && !st, "missing DB without STORE_CREATE is refused");

	r = store_open(path, STORE_CREATE | STORE_LOCK, &st, &err);
	CHK(r, 0, "create");
	CHK(q_int(st, "PRAGMA user_version"), STORE_SCHEMA_VERSION,
	    "user_version set");
	txt = q_text(st, "PRAGMA journal_mode");
	is_str(txt, "wal", "WAL mode");
	free(txt);
	CHK(q_int(st, "PRAGMA foreign_keys"), 1, "foreign keys on");

	r = store_open(path, STORE_CREATE | STORE_LOCK, &st2, &err);
	CHK(r, -XR_ELOCKED, "second locked open refused");
	ok(strstr(err.msg, "another xrun") != NULL, "lock message: %s",
	   err.msg);
	r = store_open(path, STORE_READONLY, &st2, &err);
	CHK(r, 0, "read-only open while locked works");
	store_close(st2);

	CHK(store_plan_put(st, "p", "t", "p.yaml", "abc", "xrun: 1\n", &plan_id,
			   &err),
	    0, "plan put");
	CHK(store_plan_put(st, "p", "t", "p2.yaml", "abc", "xrun: 1\n",
			   &plan_id2, &err),
	    0, "plan put again");
	CHK(plan_id, plan_id2, "same hash -> same plan row");

	CHK(store_session_latest(st, "p", &ss, &err), 0, "no session yet");
	CHK(store_session_create(st, plan_id, "h1", "{\"repeat\":2}",
				 "[\"xrun\"]", &sid, &err),
	    0, "session create");

	t0 = mono();
	CHK(store_begin(st, &err), 0, "begin");
	for (i = 0; i < n; i++) {
		struct store_pending p = {
		    (uint32_t)i,       0, (uint32_t)i,	  0, 1,
		    (uint32_t)(i % 4), 0, "{\"a\":\"1\"}"};
		if (store_run_pending_add(st, sid, &p, &err) < 0)
			break;
	}
	CHK(i, n, "all pending inserted");
	CHK(store_commit(st, &err), 0, "commit");
	t0 = mono() - t0;
#if defined(__SANITIZE_ADDRESS__)
	ok(1, "%zu pending runs in %.2f s (no bound under sanitizers)", n, t0);
#else
	/* 1,000,000 take about 4 s on the 2-core CI machine. */
	ok(t0 < 5.0, "%zu pending runs in %.2f s", n, t0);
#endif

	CHK(store_session_latest(st, "p", &ss, &err), 1, "session found");
	CHK(ss.id, sid, "latest session id");
	is_str(ss.cells_hash, "h1", "cells hash");
	is_str(ss.plan_text, "xrun: 1\n", "plan text kept");
	CHK(ss.nruns, (long long)n, "run count");
	store_session_release(&ss);

	CHK(store_runs_load(st, sid, ids, status, 4, &err), 4,
	    "load first positions");
	CHK(status[2], RUN_PENDING, "pending status");

	CHK(store_run_start(st, ids[1], 1000.0, &err), 0, "start");
	{
		struct engine_result res = {0};
		struct store_verification v = {"cc",   "local", "engine",
					       "reno", "reno",	1};
		struct counter_row cr = {"tcp", "RetransSegs", 7};
		struct store_counters c = {"local", &cr, 1};
		struct store_run_record rec = {0};
		res.status = RUN_OK;
		res.exit_code = 0;
		res.started_at = 1000.0;
		res.elapsed = 1.5;
		res.raw = strdup("{}");
		engine_result_add_metric(&res, "throughput", 9.41e9, "bit/s");
		engine_result_add_metric(&res, "retransmits", 3, "1");
		rec.res = &res;
		rec.engine = "iperf3";
		rec.ver = &v;
		rec.nver = 1;
		rec.counters = &c;
		rec.ncounters = 1;
		sqlite3_exec(store_sqlite(st),
			     "UPDATE sessions SET updated_at = 0", NULL, NULL,
			     NULL);
		CHK(store_run_finish(st, ids[1], &rec, &err), 0, "finish");
		/* A redone run replaces its rows, never duplicates them. */
		CHK(store_run_finish(st, ids[1], &rec, &err), 0,
		    "finish again");
		engine_result_release(&res);
	}
	CHK(q_int(st, "SELECT count(*) FROM results"), 2,
	    "results: one row per metric of the one finished run");
	CHK(q_int(st, "SELECT updated_at >= started_at FROM sessions"), 1,
	    "a finished run moves the session's updated_at");
	CHK(q_int(st, "SELECT attempts FROM runs WHERE position = 1"), 1,
	    "attempts counted");
	CHK(q_int(st, "SELECT verified FROM runs WHERE position = 1"), 1,
	    "verified");
	CHK(q_int(st, "SELECT value FROM counters"), 7, "counter stored");
	txt = q_text(st, "SELECT status FROM results LIMIT 1");
	is_str(txt, "ok", "results status");
	free(txt);

	CHK(store_run_set_status(st, ids[2], "skipped", "excluded by test",
				 &err),
	    0, "set status");
	CHK(q_int(st, "SELECT count(*) FROM results WHERE metric IS NULL"), 1,
	    "a run without metrics has one row, metric NULL");
	{
		struct fact f[2] = {{"hostname", (char *)"h"},
				    {"kernel", (char *)"6.1"}};
		CHK(store_facts_put(st, sid, "local", f, 2, &err), 0, "facts");
		CHK(store_hook_add(st, sid, ids[1], "cc", "local", "apply",
				   "reno", "[\"true\"]", 0, "", "", &err),
		    0, "hook");
	}
	CHK(store_session_set_status(st, sid, "done", 1, &err), 0,
	    "session done");
	store_close(st);

	/* A DB from a newer xrun is refused with a clear message. */
	snprintf(path2, sizeof path2, "%s/new.db", dir);
	{
		sqlite3 *db;
		sqlite3_open(path2, &db);
		sqlite3_exec(db, "PRAGMA user_version = 99", NULL, NULL, NULL);
		sqlite3_close(db);
	}
	r = store_open(path2, STORE_CREATE | STORE_LOCK, &st, &err);
	CHK(r, -XR_ESTORE, "newer schema refused");
	ok(strstr(err.msg, "newer") != NULL, "newer message: %s", err.msg);

	/* Some other program's SQLite file (version 0 with tables of its
	 * own) is refused as such, and left untouched. */
	snprintf(path2, sizeof path2, "%s/foreign.db", dir);
	{
		sqlite3 *db;
		sqlite3_open(path2, &db);
		sqlite3_exec(db, "CREATE TABLE runs (a, b)", NULL, NULL, NULL);
		sqlite3_close(db);
	}
	r = store_open(path2, STORE_CREATE | STORE_LOCK, &st, &err);
	CHK(r, -XR_ESTORE, "foreign DB refused");
	ok(strstr(err.msg, "not an xrun database") != NULL,
	   "foreign message: %s", err.msg);
	r = store_open(path2, STORE_READONLY, &st, &err);
	CHK(r, -XR_ESTORE, "foreign DB refused read-only too");
	/* An empty SQLite file (version 0, no tables) becomes a store. */
	snprintf(path2, sizeof path2, "%s/empty.db", dir);
	{
		sqlite3 *db;
		sqlite3_open(path2, &db);
		sqlite3_exec(db, "PRAGMA user_version = 0", NULL, NULL, NULL);
		sqlite3_close(db);
	}
	r = store_open(path2, STORE_CREATE | STORE_LOCK, &st, &err);
	CHK(r, 0, "empty SQLite file becomes a store");
	if (st)
		store_close(st);

	/* A version 1 DB (host facts keyed by session, host, key) is
	 * upgraded: its facts are kept, and a second collection of a host
	 * with another value adds a row instead of overwriting the first. */
	snprintf(path2, sizeof path2, "%s/v1.db", dir);
	r = store_open(path2, STORE_CREATE | STORE_LOCK, &st, &err);
	if (st)
		store_close(st);
	{
		sqlite3 *db;
		sqlite3_open(path2, &db);
		sqlite3_exec(db,
			     "INSERT INTO plans VALUES (1, 'p', NULL, NULL, "
			     "'h', 'xrun: 1', 1764460800);"
			     "INSERT INTO sessions VALUES (1, 1, 'c', NULL, "
			     "1764460800, 1764461000, NULL, '0.1.0', NULL, "
			     "'done');"
			     "DROP TABLE host_facts;"
			     "CREATE TABLE host_facts (session_id INTEGER NOT "
			     "NULL, host TEXT NOT NULL, key TEXT NOT NULL, "
			     "value TEXT, PRIMARY KEY (session_id, host, key));"
			     "INSERT INTO host_facts VALUES (1, 'ubu', "
			     "'os_release', 'Ubuntu 26.04');"
			     "PRAGMA user_version = 1",
			     NULL, NULL, NULL);
		sqlite3_close(db);
	}
	r = store_open(path2, STORE_CREATE | STORE_LOCK, &st, &err);
	CHK(r, 0, "version 1 DB upgraded");
	if (st) {
		CHK(q_int(st, "PRAGMA user_version"), STORE_SCHEMA_VERSION,
		    "upgraded to the current version");
		CHK(q_int(st, "SELECT count(*) FROM host_facts WHERE "
			      "host='ubu'"),
		    1, "v1 facts kept");
		store_fact_put(st, 1, "ubu", "os_release", "Ubuntu 26.04",
			       NULL);
		store_fact_put(st, 1, "ubu", "os_release", "Windows 11", NULL);
		CHK(q_int(st, "SELECT count(*) FROM host_facts WHERE "
			      "host='ubu' AND key='os_release'"),
		    2, "same value once, a different one beside it");
		store_close(st);
	}

	{
		char cmd[512];
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			fprintf(stderr, "cleanup failed\n");
	}
	return tap_done();
}
