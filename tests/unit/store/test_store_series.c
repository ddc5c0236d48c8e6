/* Unit tests for the store's series (store_series.c, schema version 7):
 * store_run_finish writes a run's series in its transaction, the view
 * series unpacks them point by point, store_series_each hands them back
 * exactly (filters, NaN, the lead-in's negative t, t to the millisecond),
 * a redone run replaces them, a run interrupted keeps them, merge copies
 * them, a version 6 store migrates and a read-only one reads none; the
 * flusher (store_chunks.c, version 8) appends a run in flight's points as
 * chunks that the reader joins, a redo's attempt hides the killed one's
 * without deleting them, and a version 7 store migrates to one chunk of
 * each run's last attempt (read alike before it migrates).
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "engine.h"
#include "series.h"
#include "store.h"
#include "strv.h"
#include "tap.h"

static char dir[] = "/tmp/xrun-test-series-XXXXXX";

static sqlite3 *side(const char *path)
{
	sqlite3 *db = NULL;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) !=
	    SQLITE_OK) {
		sqlite3_close(db);
		return NULL;
	}
	return db;
}

static double q_real(const char *path, const char *sql)
{
	sqlite3 *db = side(path);
	sqlite3_stmt *s;
	double v = NAN;
	if (db && sqlite3_prepare_v2(db, sql, -1, &s, NULL) == SQLITE_OK) {
		if (sqlite3_step(s) == SQLITE_ROW &&
		    sqlite3_column_type(s, 0) != SQLITE_NULL)
			v = sqlite3_column_double(s, 0);
		sqlite3_finalize(s);
	}
	sqlite3_close(db);
	return v;
}

static int q_exec(const char *path, const char *sql)
{
	sqlite3 *db = side(path);
	int rc = db ? sqlite3_exec(db, sql, NULL, NULL, NULL) : SQLITE_ERROR;
	sqlite3_close(db);
	return rc;
}

/* A plan, a session and n pending runs (ids 1..n). */
static void make_runs(struct store *st, int n)
{
	struct xr_err err = {0};
	int64_t plan_id, sid, ids[4];
	struct store_pending rows[4] = {0};
	int k;
	store_plan_put(st, "p", NULL, "p.yaml", "h", "text", &plan_id, &err);
	store_session_create(st, plan_id, "c", "{}", "[]", &sid, &err);
	for (k = 0; k < n; k++) {
		rows[k].position = (uint32_t)k;
		rows[k].rep = 1;
		rows[k].cell = "{}";
	}
	store_begin(st, &err);
	store_runs_pending_make(st, sid, rows, (size_t)n, ids, &err);
	store_commit(st, &err);
}

static void fill(struct series_set *ss)
{
	series_set_add(ss, "server", "nic.rx_bytes", "B", -0.5, 0);
	series_set_add(ss, "server", "nic.rx_bytes", "B", 0.25, 1250000);
	series_set_add(ss, "server", "nic.rx_bytes", "B", 1.2504, 2e9);
	series_set_add(ss, "server", "cpu.3.busy", "%", 1.0, NAN);
	series_set_add(ss, "server", "cpu.3.busy", "%", 2.0, 99.5);
	series_set_add(ss, "client", "nic.rx_bytes", "B", 1.0, 0.1 + 0.2);
}

struct got {
	struct buf b;
	int n;
};

static int see(void *ctx, const struct store_series_row *r)
{
	struct got *g = ctx;
	size_t k;
	buf_addf(&g->b, "%lld %s %s %s:", (long long)r->run_id, r->host,
		 r->name, r->unit);
	for (k = 0; k < r->n; k++)
		buf_addf(&g->b, " %.17g=%.17g", r->t[k], r->v[k]);
	buf_addc(&g->b, '\n');
	g->n++;
	return 0;
}

static const char *read_all(struct store *st,
			    const struct store_series_filter *f, struct got *g)
{
	struct xr_err err = {0};
	buf_reset(&g->b);
	g->n = 0;
	if (store_series_each(st, f, see, g, &err) < 0)
		buf_addf(&g->b, "error: %s", err.msg);
	return g->b.s ? g->b.s : "";
}

static int finish(struct store *st, int64_t id, enum run_status status,
		  const struct series_set *ss)
{
	struct store_run_record rec = {0};
	struct engine_result res = {0};
	struct xr_err err = {0};
	int r;
	res.status = status;
	res.exit_code = 0;
	rec.res = &res;
	rec.engine = "command";
	rec.series = ss;
	r = store_run_finish(st, id, &rec, &err);
	engine_result_release(&res);
	return r;
}

static void test_round_trip(const char *path)
{
	struct xr_err err = {0};
	struct store *st = NULL;
	struct series_set ss = {0};
	struct store_series_filter f = {0};
	struct got g = {BUF_INIT, 0};
	int64_t ses = 1;
	is_int(store_open(path, STORE_CREATE | STORE_LOCK, &st, &err), 0,
	       "open");
	make_runs(st, 2);
	fill(&ss);
	snprintf(ss.note, sizeof ss.note, "sampler on 'client' died: eof");
	is_int(finish(st, 1, RUN_OK, &ss), 0, "run 1 stored with its series");
	is_str(read_all(st, NULL, &g),
	       "1 client nic.rx_bytes B: 1=0.30000000000000004\n"
	       "1 server cpu.3.busy %: 1=nan 2=99.5\n"
	       "1 server nic.rx_bytes B: -0.5=0 0.25=1250000 1.25=2000000000\n",
	       "read back exactly; t to the millisecond, NaN kept");
	is_near(q_real(path, "SELECT count(*) FROM series"), 6, 0,
		"the view has one row per point");
	is_near(q_real(path, "SELECT value FROM series WHERE host = 'server' "
			     "AND name = 'nic.rx_bytes' AND t = 1.25"),
		2e9, 0, "the view's value at t");
	is_near(q_real(path, "SELECT count(*) FROM series WHERE value IS NULL"),
		1, 0, "NaN is null in the view");
	is_near(q_real(path, "SELECT sum(value) FROM series WHERE name = "
			     "'nic.rx_bytes' AND host = 'server' AND t > 0"),
		2001250000, 0, "SQL sums over the view");
	is_near(q_real(path, "SELECT count(*) FROM series_notes WHERE note "
			     "LIKE 'sampler on ''client'' died%'"),
		1, 0, "why sampling stopped is kept");
	f.name = "nic.*";
	f.host = "server";
	read_all(st, &f, &g);
	is_int(g.n, 1, "filter by name pattern and host");
	f.name = NULL;
	f.host = NULL;
	f.sessions = &ses;
	f.nsessions = 1;
	f.run_id = 2;
	read_all(st, &f, &g);
	is_int(g.n, 0, "run 2 has none yet");

	/* Interrupted (SIGINT/SIGTERM): the run is stored with what it had. */
	series_set_release(&ss);
	series_set_add(&ss, "client", "engine.throughput", "bit/s", 1, 5e9);
	is_int(finish(st, 2, RUN_INTERRUPTED, &ss), 0, "interrupted run");
	read_all(st, &f, &g);
	is_int(g.n, 1, "an interrupted run keeps its series");
	/* A redone run replaces what the earlier attempt left. */
	series_set_release(&ss);
	series_set_add(&ss, "client", "cpu.all.busy", "%", 1, 3);
	is_int(finish(st, 2, RUN_OK, &ss), 0, "redone");
	is_str(read_all(st, &f, &g), "2 client cpu.all.busy %: 1=3\n",
	       "a redone run's series replace the first attempt's");
	is_int(finish(st, 1, RUN_OK, NULL), 0, "redone without series");
	f.run_id = 1;
	read_all(st, &f, &g);
	is_int(g.n, 0, "no series: none left from before");
	is_near(q_real(path, "SELECT count(*) FROM series_notes"), 0, 0,
		"nor its note");
	series_set_release(&ss);
	buf_release(&g.b);
	store_close(st);
}

/* The flusher's source: call k hands the points of step k. */
struct script {
	int calls;
};

static int collect(void *ctx, struct series_set *dst)
{
	struct script *sc = ctx;
	int k = sc->calls++;
	if (k == 0) {
		series_set_add(dst, "client", "cpu.all.busy", "%", -0.5, 1);
		series_set_add(dst, "client", "cpu.all.busy", "%", 0.5, 2);
	} else if (k == 1) {
		series_set_add(dst, "client", "cpu.all.busy", "%", 1.5, 3);
		series_set_add(dst, "server", "nic.rx_bytes", "B", -0.5, 0);
		series_set_add(dst, "server", "nic.rx_bytes", "B", 1.5, 7);
	}
	return 0; /* later calls: nothing new, no chunk */
}

static void test_chunks(const char *path, const char *other)
{
	struct xr_err err = {0};
	struct store *st = NULL, *mo = NULL;
	struct store_flusher *fl;
	struct store_merge_stats ms = {0};
	struct script sc = {0};
	struct series_set ss = {0};
	struct got g = {BUF_INIT, 0};
	const char *in[1] = {path};
	char why[256];
	int64_t n;
	int k;
	is_int(store_open(path, STORE_CREATE | STORE_LOCK, &st, &err), 0,
	       "open (chunks)");
	make_runs(st, 1);
	store_run_start(st, 1, 1.0, &err);
	fl = store_flusher_start(st, 1, 0.05, collect, &sc);
	ok(fl != NULL, "the flusher starts");
	for (k = 0; k < 200 && sc.calls < 4; k++)
		usleep(10000);
	n = store_flusher_stop(fl, why, sizeof why);
	is_int((int)n, 2, "two chunks written (calls with nothing new: none)");
	is_str(why, "", "no flush failed");
	is_near(q_real(path, "SELECT count(*) FROM series_data WHERE run_id = "
			     "1 AND attempt = 1 AND chunk >= 1"),
		3, 0, "chunk rows of attempt 1 (one per series and chunk)");
	is_str(read_all(st, NULL, &g),
	       "1 client cpu.all.busy %: -0.5=1 0.5=2 1.5=3\n"
	       "1 server nic.rx_bytes B: -0.5=0 1.5=7\n",
	       "the reader joins the chunks in order");
	is_near(q_real(path, "SELECT count(*) FROM series"), 5, 0,
		"the view shows every chunk's points");
	/* Merged as it is (the store no longer locked, as after the
	 * SIGKILL): chunks and attempts kept. */
	store_close(st);
	is_int(store_open(other, STORE_CREATE | STORE_LOCK, &mo, &err), 0,
	       "open a merge output");
	is_int(store_merge(mo, in, 1, 0, &ms, &err), 0, "merge a killed run");
	is_str(read_all(mo, NULL, &g),
	       "1 client cpu.all.busy %: -0.5=1 0.5=2 1.5=3\n"
	       "1 server nic.rx_bytes B: -0.5=0 1.5=7\n",
	       "merge copies the chunks");
	strv_release(&ms.warnings);
	store_close(mo);
	is_int(store_open(path, STORE_LOCK, &st, &err), 0, "open again");
	/* The redo (resume after a SIGKILL): a new attempt, nothing in the
	 * view until it writes; the killed attempt's rows stay. */
	store_run_start(st, 1, 2.0, &err);
	is_str(read_all(st, NULL, &g), "", "a redo hides the killed attempt");
	is_near(q_real(path, "SELECT count(*) FROM series"), 0, 0,
		"so does the view");
	series_set_add(&ss, "client", "cpu.all.busy", "%", 0.5, 9);
	is_int(finish(st, 1, RUN_OK, &ss), 0, "the redo is stored");
	is_str(read_all(st, NULL, &g), "1 client cpu.all.busy %: 0.5=9\n",
	       "the redo's series alone");
	is_near(q_real(path, "SELECT count(*) FROM series_data WHERE attempt "
			     "= 1"),
		3, 0, "the killed attempt's chunks are kept");
	is_near(q_real(path, "SELECT count(*) FROM series_data WHERE attempt "
			     "= 2 AND chunk = 0"),
		1, 0, "the redo is one row, chunk 0");
	series_set_release(&ss);
	buf_release(&g.b);
	store_close(st);
}

/* A version 7 store (one row a series, no attempt): read as it is, then
 * migrated to the run's last attempt, chunk 0. */
static void test_v7(const char *path)
{
	struct xr_err err = {0};
	struct store *st = NULL;
	struct got g = {BUF_INIT, 0};
	is_int(store_open(path, STORE_CREATE | STORE_LOCK, &st, &err), 0,
	       "open (v7)");
	make_runs(st, 1);
	store_close(st);
	ok(q_exec(path,
		  "DROP VIEW series; DROP TABLE series_data;"
		  "CREATE TABLE series_data (run_id INTEGER NOT NULL "
		  "REFERENCES runs(id) ON DELETE CASCADE, host TEXT NOT NULL, "
		  "name TEXT NOT NULL, unit TEXT NOT NULL, n INTEGER NOT NULL, "
		  "points TEXT NOT NULL, PRIMARY KEY (run_id, host, name));"
		  "CREATE VIEW series AS SELECT d.run_id AS run_id, d.host AS "
		  "host, d.name AS name, d.unit AS unit, json_extract(p.value, "
		  "'$[0]') AS t, json_extract(p.value, '$[1]') AS value FROM "
		  "series_data d, json_each(d.points) p;"
		  "INSERT INTO series_data VALUES(1, 'client', 'tcp.retrans', "
		  "'1', 2, '[[0.5,1],[1,4]]');"
		  "UPDATE runs SET attempts = 3, status = 'ok' WHERE id = 1;"
		  "PRAGMA user_version = 7") == SQLITE_OK,
	   "made a version 7 store");
	is_int(store_open(path, STORE_READONLY, &st, &err), 0,
	       "read-only (v7)");
	is_str(read_all(st, NULL, &g), "1 client tcp.retrans 1: 0.5=1 1=4\n",
	       "a version 7 store is read as it is");
	store_close(st);
	is_int(store_open(path, STORE_LOCK, &st, &err), 0, "open to write");
	is_near(q_real(path, "PRAGMA user_version"), STORE_SCHEMA_VERSION, 0,
		"migrated to the current version");
	is_near(q_real(path, "SELECT attempt * 10 + chunk FROM series_data"),
		30, 0, "the row: the run's last attempt (3), chunk 0");
	is_str(read_all(st, NULL, &g), "1 client tcp.retrans 1: 0.5=1 1=4\n",
	       "read alike after the migration");
	is_near(q_real(path, "SELECT sum(value) FROM series"), 5, 0,
		"the view after the migration");
	buf_release(&g.b);
	store_close(st);
}

static void test_merge(const char *path, const char *other)
{
	struct xr_err err = {0};
	struct store *st = NULL;
	struct store_merge_stats ms = {0};
	const char *in[1] = {path};
	struct got g = {BUF_INIT, 0};
	is_int(store_open(other, STORE_CREATE | STORE_LOCK, &st, &err), 0,
	       "open the merge output");
	is_int(store_merge(st, in, 1, 0, &ms, &err), 0, "merge");
	read_all(st, NULL, &g);
	is_int(g.n, 1, "merge copies the series");
	strv_release(&ms.warnings);
	buf_release(&g.b);
	store_close(st);
}

/* A version 6 store (no series tables): read-only it reads none;
 * opened to write, it migrates to 7. */
static void test_old(const char *path)
{
	struct xr_err err = {0};
	struct store *st = NULL;
	struct got g = {BUF_INIT, 0};
	ok(q_exec(path, "DROP VIEW series; DROP TABLE series_data; DROP TABLE "
			"series_notes; PRAGMA user_version = 6") == SQLITE_OK,
	   "made a version 6 store");
	is_int(store_open(path, STORE_READONLY, &st, &err), 0, "read-only");
	is_str(read_all(st, NULL, &g), "", "none in a version 6 store");
	store_close(st);
	is_int(store_open(path, STORE_LOCK, &st, &err), 0, "open to write");
	is_near(q_real(path, "PRAGMA user_version"), STORE_SCHEMA_VERSION, 0,
		"migrated to the current version");
	is_near(q_real(path, "SELECT count(*) FROM series"), 0, 0,
		"the view is there");
	store_close(st);
	buf_release(&g.b);
}

int main(void)
{
	char path[128], other[128], c1[128], c2[128], v7[128];
	tap_plan(26 + 18 + 8);
	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof path, "%s/a.db", dir);
	snprintf(other, sizeof other, "%s/b.db", dir);
	test_round_trip(path);
	test_merge(path, other);
	test_old(path);
	snprintf(c1, sizeof c1, "%s/c.db", dir);
	snprintf(c2, sizeof c2, "%s/d.db", dir);
	snprintf(v7, sizeof v7, "%s/v7.db", dir);
	test_chunks(c1, c2);
	test_v7(v7);
	{
		char cmd[160];
		snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
		if (system(cmd) != 0)
			ok(0, "cleanup");
	}
	return tap_done();
}
