/*
 * A run's series kept while it runs (store.h, store_flusher_*): a thread
 * that every period asks the run loop for the points sampled since its
 * last call and appends them to series_data as the next chunk of the
 * run's current attempt, in one transaction, through a connection of its
 * own that it opens at its first flush and closes when stopped (an SQLite
 * connection is used by one thread only: the store handle stays the run
 * loop's). The thread takes no signal, so the run loop's handlers stay
 * on the thread that waits for the engine. A failed flush is remembered
 * and ends the flushing; the run goes on and store_run_finish stores its
 * series whole, replacing the chunks, as before version 8.
 *
 * SPDX-License-Identifier: MIT
 */
#include "store.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "proc.h"
#include "series.h"
#include "store_int.h"
#include "banned.h"

struct store_chunks {
	sqlite3 *db;
	sqlite3_stmt *put;
	char *path;
	struct buf pts;
};

static int chunks_fail(struct store_chunks *c, struct xr_err *err,
		       const char *what)
{
	return xr_err_set(err, XR_ESTORE, c->path, 0, 0, "%s failed: %s", what,
			  c->db ? sqlite3_errmsg(c->db) : "no memory");
}

static void store_chunks_close(struct store_chunks *c);

static int store_chunks_open(const char *path, struct store_chunks **out,
			     struct xr_err *err)
{
	struct store_chunks *c = calloc(1, sizeof *c);
	int r = 0;
	*out = NULL;
	if (!c || !(c->path = strdup(path))) {
		free(c);
		return xr_err_set(err, XR_ENOMEM, path, 0, 0, "out of memory");
	}
	buf_init(&c->pts, 0);
	/* The file exists (the run loop's handle has it open): never
	 * create one. */
	if (sqlite3_open_v2(path, &c->db,
			    SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK)
		r = chunks_fail(c, err, "opening the store for series");
	else {
		/* Short: a flush that waits must not hold up the run's end. */
		sqlite3_busy_timeout(c->db, 2000);
		if (sqlite3_exec(c->db,
				 "PRAGMA foreign_keys = ON;"
				 "PRAGMA synchronous = NORMAL",
				 NULL, NULL, NULL) != SQLITE_OK ||
		    sqlite3_prepare_v3(
			c->db,
			"INSERT OR REPLACE INTO series_data(run_id, attempt, "
			"chunk, host, name, unit, n, points) SELECT ?1, "
			"attempts, ?2, ?3, ?4, ?5, ?6, ?7 FROM runs WHERE id = "
			"?1",
			-1, SQLITE_PREPARE_PERSISTENT, &c->put,
			NULL) != SQLITE_OK)
			r = chunks_fail(c, err, "preparing the series chunks");
	}
	if (r < 0) {
		store_chunks_close(c);
		return r;
	}
	*out = c;
	return 0;
}

static int chunks_exec(struct store_chunks *c, const char *sql,
		       struct xr_err *err)
{
	if (sqlite3_exec(c->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return chunks_fail(c, err, "storing series chunks");
	return 0;
}

/* One chunk row of series x; inside the caller's transaction. */
static int chunk_row(struct store_chunks *c, int64_t run_id, int64_t chunk,
		     const struct series *x, struct xr_err *err)
{
	int rc;
	buf_reset(&c->pts);
	if (store_series_pack(x, &c->pts) < 0)
		return xr_err_set(err, XR_ENOMEM, c->path, 0, 0,
				  "series '%s' on '%s' does not fit in memory",
				  x->name, x->host);
	sqlite3_bind_int64(c->put, 1, run_id);
	sqlite3_bind_int64(c->put, 2, chunk);
	sqlite3_bind_text(c->put, 3, x->host, -1, SQLITE_STATIC);
	sqlite3_bind_text(c->put, 4, x->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(c->put, 5, x->unit[0] ? x->unit : "1", -1,
			  SQLITE_STATIC);
	sqlite3_bind_int64(c->put, 6, (int64_t)x->n);
	sqlite3_bind_text(c->put, 7, c->pts.s, (int)c->pts.len, SQLITE_STATIC);
	rc = sqlite3_step(c->put);
	sqlite3_reset(c->put);
	sqlite3_clear_bindings(c->put);
	return rc == SQLITE_DONE ? 0 : chunks_fail(c, err, "storing a chunk");
}

static int store_chunks_put(struct store_chunks *c, int64_t run_id,
			    int64_t chunk, const struct series_set *ss,
			    struct xr_err *err)
{
	size_t i;
	int r;
	if ((r = chunks_exec(c, "BEGIN IMMEDIATE", err)) < 0)
		return r;
	for (i = 0; r == 0 && i < ss->n; i++)
		if (ss->s[i].n)
			r = chunk_row(c, run_id, chunk, &ss->s[i], err);
	if (r == 0)
		r = chunks_exec(c, "COMMIT", err);
	if (r < 0 && !sqlite3_get_autocommit(c->db))
		sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
	return r;
}

static void store_chunks_close(struct store_chunks *c)
{
	if (!c)
		return;
	sqlite3_finalize(c->put);
	if (c->db)
		sqlite3_close_v2(c->db);
	buf_release(&c->pts);
	free(c->path);
	free(c);
}

/* ---- the flusher thread ------------------------------------------------- */

struct store_flusher {
	char *path;
	int64_t run_id;
	double period;
	store_collect_fn collect;
	void *ctx;
	int64_t chunk; /* the last chunk written */
	struct store_chunks *db;
	int stop_pipe[2];
	pthread_t thread;
	char why[256]; /* the first failure, "" when none */
};

/* Wait until the monotonic time until or a stop: 1 when stopped. */
static int wait_stop(struct store_flusher *f, double until)
{
	struct pollfd pf = {f->stop_pipe[0], POLLIN, 0};
	double left = until - proc_now_mono();
	struct timespec ts;
	if (left < 0)
		left = 0;
	ts.tv_sec = (time_t)left;
	ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
	return ppoll(&pf, 1, &ts, NULL) > 0 && (pf.revents & POLLIN);
}

/* One flush: the new points as the next chunk. */
static int flush_once(struct store_flusher *f)
{
	struct series_set ss = {0};
	struct xr_err err = {0};
	int r = f->collect(f->ctx, &ss);
	if (r < 0)
		xr_err_set(&err, r, NULL, 0, 0, "out of memory");
	else if (ss.n && !f->db)
		r = store_chunks_open(f->path, &f->db, &err);
	if (r == 0 && ss.n)
		r = store_chunks_put(f->db, f->run_id, f->chunk + 1, &ss, &err);
	if (r == 0 && ss.n)
		f->chunk++;
	if (r < 0)
		snprintf(f->why, sizeof f->why,
			 "series of run %lld not flushed during the run: "
			 "%.200s",
			 (long long)f->run_id, err.msg);
	series_set_release(&ss);
	return r;
}

static void *flush_main(void *arg)
{
	struct store_flusher *f = arg;
	double next = proc_now_mono() + f->period;
	while (!wait_stop(f, next)) {
		double now = proc_now_mono();
		if (now < next)
			continue;
		if (flush_once(f) < 0)
			break;
		next += f->period;
		if (next < now) /* fell behind (a stopped machine): skip */
			next = now + f->period;
	}
	store_chunks_close(f->db);
	f->db = NULL;
	return NULL;
}

static void flusher_free(struct store_flusher *f)
{
	if (f->stop_pipe[0] >= 0)
		close(f->stop_pipe[0]);
	if (f->stop_pipe[1] >= 0)
		close(f->stop_pipe[1]);
	free(f->path);
	free(f);
}

struct store_flusher *store_flusher_start(struct store *st, int64_t run_id,
					  double period, store_collect_fn fn,
					  void *ctx)
{
	struct store_flusher *f;
	sigset_t all, old;
	int rc;
	if (!st || !fn || period <= 0 || !(f = calloc(1, sizeof *f)))
		return NULL;
	f->stop_pipe[0] = f->stop_pipe[1] = -1;
	f->path = strdup(st->path);
	f->run_id = run_id;
	f->period = period;
	f->collect = fn;
	f->ctx = ctx;
	if (!f->path || pipe2(f->stop_pipe, O_CLOEXEC) < 0) {
		flusher_free(f);
		return NULL;
	}
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&f->thread, NULL, flush_main, f);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		flusher_free(f);
		return NULL;
	}
	return f;
}

int64_t store_flusher_stop(struct store_flusher *f, char *why, size_t whysz)
{
	int64_t n;
	ssize_t w;
	if (why && whysz)
		why[0] = '\0';
	if (!f)
		return 0;
	do
		w = write(f->stop_pipe[1], "x", 1);
	while (w < 0 && errno == EINTR);
	pthread_join(f->thread, NULL);
	if (why && whysz)
		snprintf(why, whysz, "%s", f->why);
	n = f->chunk;
	flusher_free(f);
	return n;
}
