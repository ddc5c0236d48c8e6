/* Unit tests for the store: schema creation, version refusal, the lock,
 * pending inserts at scale, per-run commits and the results view
 * (store.c, store_rows.c), and the typed readers on a store filled with
 * known rows (store_read.c).
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
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

/* SQL checks go through a connection of the test's own: the store handle
 * is opaque (WAL: it sees what the store committed). */
static sqlite3 *side_open(struct store *st)
{
	sqlite3 *db = NULL;
	if (sqlite3_open_v2(store_path(st), &db, SQLITE_OPEN_READWRITE, NULL) !=
	    SQLITE_OK) {
		sqlite3_close(db);
		return NULL;
	}
	sqlite3_busy_timeout(db, 5000);
	return db;
}

static long long q_int(struct store *st, const char *sql)
{
	sqlite3 *db = side_open(st);
	sqlite3_stmt *s;
	long long v = -1;
	if (!db || sqlite3_prepare_v2(db, sql, -1, &s, NULL)) {
		sqlite3_close(db);
		return -2;
	}
	if (sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	sqlite3_close(db);
	return v;
}

static char *q_text(struct store *st, const char *sql)
{
	sqlite3 *db = side_open(st);
	sqlite3_stmt *s;
	char *v = NULL;
	if (!db || sqlite3_prepare_v2(db, sql, -1, &s, NULL)) {
		sqlite3_close(db);
		return NULL;
	}
	if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0))
		v = strdup((const char *)sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
	sqlite3_close(db);
	return v;
}

static int q_exec(struct store *st, const char *sql)
{
	sqlite3 *db = side_open(st);
	int rc = db ? sqlite3_exec(db, sql, NULL, NULL, NULL) : SQLITE_ERROR;
	sqlite3_close(db);
	return rc;
}

/* ---- the typed readers ------------------------------------------------ */

/* Known rows: plan a (sessions 1 and 3) and plan b (session 2). Session 1
 * has two blocks: a warm-up, an ok, a failed, a timeout, a pending run and
 * one with a status xrun does not know. */
static const char reader_rows[] =
    "INSERT INTO plans VALUES (1, 'a', 'Title A', 'a.yaml', 'ha', 'text a',"
    " 0), (2, 'b', NULL, 'b.yaml', 'hb', 'text b', 0);"
    "INSERT INTO sessions (id, plan_id, cells_hash, started_at, updated_at,"
    " ended_at, xrun_version, status) VALUES"
    " (1, 1, 'c', 100, 200, NULL, 'v', 'running'),"
    " (2, 2, 'c', 110, 210, 300, 'v', 'done'),"
    " (3, 1, 'c', 120, 220, 320, 'v', 'interrupted');"
    "INSERT INTO runs (id, session_id, position, block, block_pos, pass, rep,"
    " warmup, cell_index, cell, status, started_at, ended_at, elapsed,"
    " reason, engine, target, params) VALUES"
    " (1, 1, 0, 0, 0, 0, 0, 1, 0, '{\"x\":\"1\"}', 'ok', 10, 11, 1.0, NULL,"
    "  'command', NULL, '{}'),"
    " (2, 1, 1, 0, 1, 0, 1, 0, 0, '{\"x\":\"1\"}', 'ok', 12, 13, 1.5, NULL,"
    "  'command', 't', '{\"p\":1}'),"
    " (3, 1, 2, 0, 2, 0, 1, 0, 1, '{\"x\":\"2\"}', 'failed', 15, 16, NULL,"
    "  'boom', 'command', NULL, NULL),"
    " (4, 1, 3, 1, 0, 0, 2, 0, 0, '{\"x\":\"1\"}', 'timeout', 20, 25, 5,"
    "  NULL, 'command', NULL, NULL),"
    " (5, 1, 4, 1, 1, 0, 2, 0, 1, '{\"x\":\"2\"}', 'pending', NULL, NULL,"
    "  NULL, NULL, NULL, NULL, NULL),"
    " (6, 1, 5, 1, 2, 0, 3, 0, 1, '{\"x\":\"2\"}', 'weird', NULL, NULL, NULL,"
    "  NULL, NULL, NULL, NULL),"
    " (7, 3, 0, 0, 0, 0, 1, 0, 0, '{\"x\":\"1\"}', 'ok', 50, 51, NULL, NULL,"
    "  'command', NULL, NULL),"
    " (8, 2, 0, 0, 0, 0, 1, 0, 0, '{\"y\":\"1\"}', 'ok', 60, 61, 1, NULL,"
    "  'command', NULL, NULL);"
    "INSERT INTO metrics VALUES (2, 'throughput', 5e9, 'bit/s'),"
    " (7, 'throughput', 6e9, 'bit/s'), (1, 'throughput', 1, 'bit/s');"
    /* run 2's rows, run 7's, then one more of run 2 (not consecutive) */
    "INSERT INTO intervals VALUES (2, 0, 0, 1, 4e9), (2, 1, 1, 2, 6e9),"
    " (7, 0, 0, 1, 5e9), (2, 2, 2, 3, 7e9);"
    /* Only nic 3 + 4 of the ok, non-warm-up runs of sessions 1 and 3
     * count: not cpu, not 0, not the warm-up, not the failed run. */
    "INSERT INTO counters VALUES (2, 'local', 'nic', 'rx_dropped', 3),"
    " (7, 'local', 'nic', 'rx_dropped', 4), (2, 'local', 'cpu', 'user', 5),"
    " (2, 'local', 'tcp', 'RetransSegs', 0),"
    " (1, 'local', 'nic', 'rx_dropped', 100),"
    " (3, 'local', 'nic', 'rx_dropped', 50),"
    " (8, 'local', 'nic', 'rx_dropped', 9);"
    /* runs 2 and 7 were each checked on two hosts: one run each in the
     * tallies, run 7 a mismatch (one of its checks failed) */
    "INSERT INTO verifications VALUES"
    " (2, 'x', 'local', 'probe:p', '1', '1', 1),"
    " (2, 'x', 'far', 'probe:p', '1', '1', 1),"
    " (7, 'x', 'local', 'probe:p', '1', '2', 0),"
    " (7, 'x', 'far', 'probe:p', '1', '1', 1),"
    " (1, 'x', 'local', 'probe:p', '1', '3', 0);"
    "INSERT INTO host_facts VALUES (1, 'h2', 'kernel', '6'),"
    " (1, 'h1', 'kernel', '5'), (3, 'h1', 'kernel', '5b'),"
    " (2, 'h1', 'k', 'other');"
    /* observed: the warm-up (1) and session 2's run (8) do not count */
    "INSERT INTO observed VALUES (2, 'congestion', 'bbr'),"
    " (2, 'version', 'iperf 3.16'), (1, 'congestion', 'cubic'),"
    " (7, 'congestion', 'cubic'), (8, 'congestion', 'reno'),"
    " (3, 'protocol', NULL);";

/* What a reader's callback saw: the rows as one line of text each. */
struct seen {
	struct buf b;
	int n, stop_after, fail_with;
};

static int seen_end(struct seen *s)
{
	s->n++;
	buf_addc(&s->b, '\n');
	if (s->fail_with && s->n == s->stop_after)
		return s->fail_with;
	return s->n == s->stop_after;
}

static const char *nz(const char *s)
{
	return s ? s : "NULL";
}

static int see_session(void *ctx, const struct store_session_row *r)
{
	struct seen *s = ctx;
	buf_addf(&s->b, "%lld %s %s %s %s %s %g %s", (long long)r->id,
		 r->plan_name, nz(r->plan_title), r->plan_hash, r->plan_text,
		 r->status, r->started_at, isnan(r->ended_at) ? "-" : "e");
	return seen_end(s);
}

static int see_run(void *ctx, const struct store_run_row *r)
{
	struct seen *s = ctx;
	buf_addf(&s->b, "%lld %lld/%lld b%lld r%d w%d %d:%s %s %s %s %s %s ",
		 (long long)r->id, (long long)r->session_id,
		 (long long)r->position, (long long)r->block, r->rep, r->warmup,
		 r->status, r->status_name, r->cell, nz(r->reason),
		 nz(r->engine), nz(r->target), nz(r->params));
	if (isnan(r->started_at))
		buf_adds(&s->b, "-");
	else
		buf_addf(&s->b, "%g-%g", r->started_at, r->ended_at);
	buf_addf(&s->b, " %g", r->elapsed);
	return seen_end(s);
}

static int see_block(void *ctx, const struct store_block_row *r)
{
	struct seen *s = ctx;
	buf_addf(&s->b, "%lld@%lld n%lld d%lld f%lld p%lld %s %s",
		 (long long)r->block, (long long)r->first_position,
		 (long long)r->nruns, (long long)r->done, (long long)r->failed,
		 (long long)r->pending, r->cell, nz(r->pending_cell));
	return seen_end(s);
}

static int see_timing(void *ctx, const struct store_run_timing *t)
{
	struct seen *s = ctx;
	buf_addf(&s->b, "%g %g %d", t->gap, t->elapsed, t->status);
	return seen_end(s);
}

static int see_metric(void *ctx, const struct store_metric_row *m)
{
	struct seen *s = ctx;
	buf_addf(&s->b, "%lld %s %g %s", (long long)m->run_id, m->name,
		 m->value, m->unit);
	return seen_end(s);
}

/* One line per run: its id, then each row's value, start and end. */
static int see_interval(void *ctx, const struct store_interval_run *v)
{
	struct seen *s = ctx;
	buf_addf(&s->b, "%lld", (long long)v->run_id);
	for (size_t i = 0; i < v->n; i++)
		buf_addf(&s->b, " %g@%g-%g", v->value[i], v->t_start[i],
			 v->t_end[i]);
	return seen_end(s);
}

static int see_counter(void *ctx, const struct store_counter_sum *c)
{
	struct seen *s = ctx;
	buf_addf(&s->b, "%s %s %s %s %g", c->cell, c->host, c->scope, c->name,
		 c->sum);
	return seen_end(s);
}

static int see_tally(void *ctx, const struct store_verify_tally *v)
{
	struct seen *s = ctx;
	buf_addf(&s->b, "%s %s ok%d n%lld %s %s", v->cell, v->factor, v->ok,
		 (long long)v->count, nz(v->expected), nz(v->actual));
	return seen_end(s);
}

static int see_vgroup(void *ctx, const struct store_verify_group *v)
{
	struct seen *s = ctx;
	buf_addf(&s->b, "%s %s %s %s %s ok%d n%lld", v->factor, v->host,
		 v->method, nz(v->expected), nz(v->actual), v->ok,
		 (long long)v->count);
	return seen_end(s);
}

static int see_fact(void *ctx, const struct store_fact_row *f)
{
	struct seen *s = ctx;
	buf_addf(&s->b, "%lld %s %s %s", (long long)f->session_id, f->host,
		 f->key, nz(f->value));
	return seen_end(s);
}

static int see_observed(void *ctx, const struct store_observed_row *o)
{
	struct seen *s = ctx;
	buf_addf(&s->b, "%lld %s %s", (long long)o->run_id, o->key,
		 nz(o->value));
	return seen_end(s);
}

static void seen_reset(struct seen *s)
{
	buf_reset(&s->b);
	s->n = s->stop_after = s->fail_with = 0;
}

static const char *seen_text(struct seen *s)
{
	return s->b.s ? s->b.s : "";
}

/* Sessions, counts, runs with their filters, blocks and timings. */
static void test_run_readers(struct store *st, struct seen *s)
{
	struct xr_err err = {0};
	struct store_run_filter f = {0};
	int64_t counts[STORE_RUN_STATUSES], s1 = 1, s13[2] = {1, 3};

	CHK(store_sessions_each(st, see_session, s, &err), 0, "sessions");
	is_str(seen_text(s),
	       "3 a Title A ha text a interrupted 120 e\n"
	       "2 b NULL hb text b done 110 e\n"
	       "1 a Title A ha text a running 100 -\n",
	       "sessions newest first, with their plans");
	seen_reset(s);
	s->stop_after = 1;
	CHK(store_sessions_each(st, see_session, s, &err), 0,
	    "a positive return stops the reader, which returns 0");
	CHK(s->n, 1, "stopped after one row");
	seen_reset(s);
	s->stop_after = 2;
	s->fail_with = -XR_ENOMEM;
	CHK(store_sessions_each(st, see_session, s, &err), -XR_ENOMEM,
	    "a negative return comes back as is");
	seen_reset(s);

	CHK(store_run_counts(st, 1, counts, &err), 0, "run counts");
	ok(counts[RUN_OK] == 2 && counts[RUN_FAILED] == 1 &&
	       counts[RUN_TIMEOUT] == 1 && counts[RUN_PENDING] == 1 &&
	       counts[RUN_RUNNING] == 0 && counts[RUN_SKIPPED] == 0,
	   "counts by status; an unknown status is not counted");

	f.sessions = &s1;
	f.nsessions = 1;
	f.block = -1;
	CHK(store_runs_each(st, &f, see_run, s, &err), 0, "runs of session 1");
	is_str(
	    seen_text(s),
	    "1 1/0 b0 r0 w1 2:ok {\"x\":\"1\"} NULL command NULL {} 10-11 1\n"
	    "2 1/1 b0 r1 w0 2:ok {\"x\":\"1\"} NULL command t {\"p\":1} "
	    "12-13 1.5\n"
	    "3 1/2 b0 r1 w0 3:failed {\"x\":\"2\"} boom command NULL NULL "
	    "15-16 nan\n"
	    "4 1/3 b1 r2 w0 4:timeout {\"x\":\"1\"} NULL command NULL NULL "
	    "20-25 5\n"
	    "5 1/4 b1 r2 w0 0:pending {\"x\":\"2\"} NULL NULL NULL NULL - "
	    "nan\n"
	    "6 1/5 b1 r3 w0 -1:weird {\"x\":\"2\"} NULL NULL NULL NULL - "
	    "nan\n",
	    "every column of every run, in position order");
	seen_reset(s);
	f.sessions = s13;
	f.nsessions = 2;
	f.limit = 2;
	CHK(store_runs_each(st, &f, see_run, s, &err), 0, "runs, limit 2");
	CHK(s->n, 2, "limit honoured");
	seen_reset(s);
	f.limit = 0;
	f.statuses = STORE_STATUS_BIT(RUN_OK);
	CHK(store_runs_each(st, &f, see_run, s, &err), 0, "ok runs");
	ok(s->n == 3 && strstr(seen_text(s), "\n7 3/0 ") != NULL,
	   "ok runs of sessions 1 and 3, session order: %s", seen_text(s));
	seen_reset(s);
	f.sessions = &s1;
	f.nsessions = 1;
	f.block = 1;
	f.limit = 5;
	f.statuses = STORE_STATUS_BIT(RUN_FAILED) |
		     STORE_STATUS_BIT(RUN_TIMEOUT) |
		     STORE_STATUS_BIT(RUN_INTERRUPTED);
	CHK(store_runs_each(st, &f, see_run, s, &err), 0, "failures, block 1");
	ok(s->n == 1 && !strncmp(seen_text(s), "4 1/3 b1", 8),
	   "only block 1's timeout: %s", seen_text(s));
	seen_reset(s);

	CHK(store_blocks_each(st, 1, see_block, s, &err), 0, "blocks");
	is_str(seen_text(s),
	       "0@0 n3 d2 f1 p0 {\"x\":\"1\"} NULL\n"
	       "1@3 n3 d0 f1 p1 {\"x\":\"1\"} {\"x\":\"2\"}\n",
	       "blocks: counts, first cell, first cell still to do");
	seen_reset(s);

	CHK(store_run_timings_each(st, see_timing, s, &err), 0, "timings");
	is_str(seen_text(s),
	       "nan 1 2\n1 1.5 2\n2 nan 3\n4 5 4\nnan 1 2\nnan nan 2\n",
	       "gaps within a session between runs with both times");
	seen_reset(s);
}

/* Values, counters, verifications and facts of sessions 1 and 3. */
static void test_value_readers(struct store *st, struct seen *s)
{
	struct xr_err err = {0};
	int64_t s13[2] = {1, 3};
	struct buf p = BUF_INIT;

	CHK(store_metrics_each(st, see_metric, s, &err), 0, "metrics");
	ok(s->n == 3 && strstr(seen_text(s), "2 throughput 5e+09 bit/s\n"),
	   "every metric: %s", seen_text(s));
	seen_reset(s);
	CHK(store_intervals_each(st, see_interval, s, &err), 0, "intervals");
	is_str(seen_text(s),
	       "2 4e+09@0-1 6e+09@1-2\n7 5e+09@0-1\n2 7e+09@2-3\n",
	       "every interval, a run's consecutive rows in one call");
	seen_reset(s);
	CHK(store_counter_sums_each(st, s13, 2, see_counter, s, &err), 0,
	    "counter sums");
	is_str(seen_text(s), "{\"x\":\"1\"} local nic rx_dropped 7\n",
	       "summed per cell over ok, non-warm-up runs, flagged scopes");
	seen_reset(s);
	CHK(store_verify_tallies_each(st, s13, 2, see_tally, s, &err), 0,
	    "verification tallies");
	is_str(seen_text(s),
	       "{\"x\":\"1\"} x ok0 n1 1 2\n{\"x\":\"1\"} x ok1 n1 NULL NULL\n",
	       "tallies of runs (not checks) per cell, factor and outcome");
	seen_reset(s);
	CHK(store_verify_groups_each(st, s13, 2, see_vgroup, s, &err), 0,
	    "verification groups");
	is_str(seen_text(s),
	       "x far probe:p 1 1 ok1 n2\nx local probe:p 1 2 ok0 n1\n"
	       "x local probe:p 1 1 ok1 n1\n",
	       "groups, mismatches first");
	seen_reset(s);
	CHK(store_facts_each(st, s13, 2, see_fact, s, &err), 0, "facts");
	is_str(seen_text(s), "1 h1 kernel 5\n3 h1 kernel 5b\n1 h2 kernel 6\n",
	       "facts of the sessions by host, key, session");
	seen_reset(s);
	CHK(store_observed_each(st, s13, 2, see_observed, s, &err), 0,
	    "observed");
	is_str(seen_text(s),
	       "2 congestion bbr\n2 version iperf 3.16\n3 protocol NULL\n"
	       "7 congestion cubic\n",
	       "observed values of non-warm-up runs, by run and key");
	seen_reset(s);

	store_default_path("pcie-gen", &p);
	is_str(p.s, "./pcie-gen.db", "default store path");
	buf_release(&p);
}

/* A store made from schema/store.sql by hand (no user_version) is read,
 * not written: read-only opening takes it, the writer refuses it. */
static void test_readers(const char *tmp)
{
	char path[256];
	struct xr_err err = {0};
	struct store *st = NULL;
	struct seen s = {BUF_INIT, 0, 0, 0};
	sqlite3 *db;
	int rc;

	snprintf(path, sizeof path, "%s/read.db", tmp);
	sqlite3_open(path, &db);
	rc = sqlite3_exec(db, xr_store_sql, NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, reader_rows, NULL, NULL, NULL);
	is_int(rc, SQLITE_OK, "fixture rows");
	if (rc != SQLITE_OK)
		printf("# %s\n", sqlite3_errmsg(db));
	sqlite3_close(db);
	CHK(store_open(path, STORE_READONLY, &st, &err), 0,
	    "read-only open of a hand-made schema (version 0)");
	if (!st)
		return;
	test_run_readers(st, &s);
	test_value_readers(st, &s);
	store_close(st);
	st = NULL;
	ok(store_open(path, STORE_CREATE | STORE_LOCK, &st, &err) < 0 &&
	       strstr(err.msg, "not an xrun database"),
	   "the writer still refuses it: %s", err.msg);
	store_close(st);
	buf_release(&s.b);
}

/* A version-1 store (before `originals`) is upgraded by the writer; the
 * first original stored for a session, factor and host stands. */
static void test_migrate_originals(const char *tmp)
{
	char path[256];
	struct xr_err err = {0};
	struct store *st = NULL;
	sqlite3 *db;
	char *v = NULL;
	int64_t plan_id = 0, sid = 0;

	snprintf(path, sizeof path, "%s/v1.db", tmp);
	sqlite3_open(path, &db);
	sqlite3_exec(db, xr_store_sql, NULL, NULL, NULL);
	sqlite3_exec(db, "DROP TABLE originals; PRAGMA user_version = 1", NULL,
		     NULL, NULL);
	sqlite3_close(db);
	CHK(store_open(path, STORE_READONLY, &st, &err), 0,
	    "a reader takes version 1 as it is");
	store_close(st);
	st = NULL;
	CHK(store_open(path, STORE_CREATE | STORE_LOCK, &st, &err), 0,
	    "the writer upgrades version 1");
	if (!st)
		return;
	CHK(q_int(st, "PRAGMA user_version"), STORE_SCHEMA_VERSION,
	    "upgraded to the current version");
	CHK(store_plan_put(st, "p", NULL, "p.yaml", "h", "t", &plan_id, &err),
	    0, "plan");
	CHK(store_session_create(st, plan_id, "c", "{}", "[]", &sid, &err), 0,
	    "session");
	is_int(store_original_get(st, sid, "mtu", "local", &v, &err), 0,
	       "no original yet");
	CHK(store_original_put(st, sid, "mtu", "local", "1500", &err), 0,
	    "store an original");
	CHK(store_original_put(st, sid, "mtu", "local", "9000", &err), 0,
	    "a second capture is ignored");
	is_int(store_original_get(st, sid, "mtu", "local", &v, &err), 1,
	       "original found");
	is_str(v ? v : "", "1500", "the first capture stands");
	free(v);
	store_close(st);
}

/* A version-2 store with a session: the writer upgrades it to version 4,
 * giving the session a key (xrun merge) and recording the load of runs
 * finished after. */
static void test_migrate_keys(const char *tmp)
{
	char path[256];
	struct xr_err err = {0};
	struct store *st = NULL;
	sqlite3 *db;

	snprintf(path, sizeof path, "%s/v2.db", tmp);
	sqlite3_open(path, &db);
	sqlite3_exec(db, xr_store_sql, NULL, NULL, NULL);
	sqlite3_exec(db,
		     "DROP TABLE session_keys; DROP TABLE run_load; "
		     "INSERT INTO plans(name, hash, text, created_at) "
		     "VALUES('p', 'h', 't', 0); INSERT INTO sessions(plan_id, "
		     "cells_hash, started_at, updated_at, xrun_version) "
		     "VALUES(1, 'c', 0, 0, 'x'); PRAGMA user_version = 2",
		     NULL, NULL, NULL);
	sqlite3_close(db);
	CHK(store_open(path, STORE_CREATE | STORE_LOCK, &st, &err), 0,
	    "the writer upgrades version 2");
	if (!st)
		return;
	CHK(q_int(st, "PRAGMA user_version"), STORE_SCHEMA_VERSION,
	    "upgraded to the current version");
	CHK(q_int(st, "SELECT count(*) FROM session_keys WHERE session_id = 1 "
		      "AND length(uuid) = 32"),
	    1, "the old session got a key");
	CHK(q_int(st, "SELECT count(*) FROM run_load"), 0, "run_load exists");
	store_close(st);
}

/* A version-10 store (no run_attempts) with a failed run of one attempt,
 * an ok run of two and a pending one: the writer upgrades it to version 11,
 * keeping each ended run's last attempt (the earlier one was never kept),
 * and a run finished after keeps every attempt. */
static void test_migrate_attempts(const char *tmp)
{
	char path[256];
	struct xr_err err = {0};
	struct store *st = NULL;
	struct store_run_record rec = {0};
	struct engine_result res = {0};
	sqlite3 *db;
	char *t;

	snprintf(path, sizeof path, "%s/v10.db", tmp);
	sqlite3_open(path, &db);
	sqlite3_exec(db, xr_store_sql, NULL, NULL, NULL);
	sqlite3_exec(db,
		     "DROP TABLE run_attempts; "
		     "INSERT INTO plans(name, hash, text, created_at) "
		     "VALUES('p', 'h', 't', 0); INSERT INTO sessions(plan_id, "
		     "cells_hash, started_at, updated_at, xrun_version) "
		     "VALUES(1, 'c', 0, 0, 'x'); INSERT INTO runs(session_id, "
		     "position, block, block_pos, pass, rep, cell_index, cell, "
		     "status, attempts, started_at, ended_at, reason) VALUES "
		     "(1, 0, 0, 0, 0, 1, 0, '{}', 'failed', 1, 10, 11, 'no "
		     "server'), (1, 1, 0, 1, 0, 1, 0, '{}', 'ok', 2, 20, 21, "
		     "NULL), (1, 2, 0, 2, 0, 1, 0, '{}', 'pending', 0, NULL, "
		     "NULL, NULL); PRAGMA user_version = 10",
		     NULL, NULL, NULL);
	sqlite3_close(db);
	CHK(store_open(path, STORE_CREATE | STORE_LOCK, &st, &err), 0,
	    "the writer upgrades version 10");
	if (!st)
		return;
	t = q_text(st, "SELECT group_concat(run_id || ' ' || attempt || ' ' "
		       "|| status || ' ' || started_at || ' ' || "
		       "coalesce(reason, '-'), ', ') FROM (SELECT * FROM "
		       "run_attempts ORDER BY run_id)");
	is_str(t ? t : "", "1 1 failed 10.0 no server, 2 2 ok 20.0 -",
	       "each ended run's last attempt kept, none for the pending");
	free(t);
	/* the failed run retried: attempt 2, ok; attempt 1 stays */
	res.status = RUN_OK;
	res.exit_code = 0;
	rec.res = &res;
	CHK(store_run_start(st, 1, 30, &err), 0, "retry: started");
	CHK(store_run_finish(st, 1, &rec, &err), 0, "retry: stored");
	t = q_text(st, "SELECT group_concat(attempt || ' ' || status || ' ' || "
		       "coalesce(reason, '-'), ', ') FROM (SELECT * FROM "
		       "run_attempts WHERE run_id = 1 ORDER BY attempt)");
	is_str(t ? t : "", "1 failed no server, 2 ok -",
	       "the retry is attempt 2, the failed attempt 1 kept");
	free(t);
	CHK(q_int(st, "SELECT attempts FROM runs WHERE id = 1"), 2,
	    "runs.attempts counts both");
	store_close(st);
}

/* Version 6: a session whose rows are a prefix of its schedule counts the
 * rest as pending; a v3 store (no schedules) read as it is counts rows. */
static void test_schedules(const char *tmp)
{
	char path[256];
	struct xr_err err = {0};
	struct store *st = NULL;
	struct store_session ss;
	struct store_pending rows[3];
	int64_t ids[3] = {0}, counts[STORE_RUN_STATUSES];
	int64_t plan_id = 0, sid = 0;
	size_t i;
	sqlite3 *db;

	snprintf(path, sizeof path, "%s/v6.db", tmp);
	CHK(store_open(path, STORE_CREATE | STORE_LOCK, &st, &err), 0,
	    "open v6");
	if (!st)
		return;
	store_plan_put(st, "s", NULL, "s.yaml", "hs", "t", &plan_id, &err);
	store_session_create(st, plan_id, "c", "{}", "[]", &sid, &err);
	CHK(store_session_set_planned(st, sid, 10, &err), 0, "planned runs");
	for (i = 0; i < 3; i++) {
		struct store_pending p = {(uint32_t)i, 0, (uint32_t)i, 0,
					  1,	       0, 0,	       "{}"};
		rows[i] = p;
	}
	CHK(store_runs_pending_make(st, sid, rows, 3, ids, &err), 0,
	    "three rows made");
	ok(ids[0] > 0 && ids[1] == ids[0] + 1 && ids[2] == ids[1] + 1,
	   "their ids returned");
	store_run_start(st, ids[0], 1.0, &err);
	CHK(store_session_latest(st, "s", &ss, &err), 1, "session");
	CHK(ss.nruns, 10, "nruns is the schedule's size, not the rows");
	store_session_release(&ss);
	CHK(store_run_counts(st, sid, counts, &err), 0, "counts");
	CHK(counts[RUN_PENDING], 9, "runs without a row are pending");
	CHK(counts[RUN_RUNNING], 1, "the started one is running");
	store_close(st);

	/* Back to version 3 without schedules: read-only reads rows. */
	sqlite3_open(path, &db);
	sqlite3_exec(db, "DROP TABLE schedules; PRAGMA user_version = 3", NULL,
		     NULL, NULL);
	sqlite3_close(db);
	st = NULL;
	CHK(store_open(path, STORE_READONLY, &st, &err), 0, "read v3");
	if (!st)
		return;
	CHK(store_session_latest(st, "s", &ss, &err), 1, "v3 session");
	CHK(ss.nruns, 3, "v3: every run has its row");
	store_session_release(&ss);
	CHK(store_run_counts(st, sid, counts, &err), 0, "v3 counts");
	CHK(counts[RUN_PENDING], 2, "v3 pending rows");
	store_close(st);
}

int main(void)
{
	tap_plan(118);
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
	{
		/* Foreign keys are on (a per-connection setting): a run of a
		 * session that does not exist is refused. */
		struct store_pending p = {0, 0, 0, 0, 1, 0, 0, "{}"};
		ok(store_run_pending_add(st, 424242, &p, &err) < 0,
		   "foreign keys on: a run of no session is refused");
	}

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
	/* How fast is a bench's question (bench/RESULTS.md), not a timed
	 * test's: a loaded CI machine would fail it for no fault. */
	printf("# %zu pending runs in %.2f s\n", n, t0);

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
		q_exec(st, "UPDATE sessions SET updated_at = 0");
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
	test_readers(dir);
	test_migrate_originals(dir);
	test_migrate_keys(dir);
	test_migrate_attempts(dir);
	test_schedules(dir);

	{
		char cmd[512];
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			fprintf(stderr, "cleanup failed\n");
	}
	return tap_done();
}
