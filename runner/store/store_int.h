/*
 * Internal to the store (store.c: handle, schema, lock, transactions and
 * the helpers below that every writer and reader uses; store_rows.c: the
 * rows written through it; store_read.c: the typed readers;
 * store_series.c: series packed and read back). Other modules see only
 * the opaque struct store of store.h.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_STORE_INT_H
#define XR_STORE_INT_H

#include "store.h"

struct sqlite3_stmt;
struct buf;
struct series;

#define STORE_PER_RUN_MAX 24

struct store {
	struct sqlite3 *db;
	char *path;
	int lock_fd;		      /* "<db>.lock": notes, flock */
	int db_lock_fd;		      /* the DB file: the lock itself */
	char *lock_prev;	      /* previous content of the lock file */
	struct sqlite3_stmt *pending; /* store_run_pending_add, prepared once */
	/* The statements of every run (store_rows.c), prepared on first
	 * use and kept until store_close. */
	struct sqlite3_stmt *per_run[STORE_PER_RUN_MAX];
};

/* Finalize the per-run statements (store_rows.c prepares them; store.c
 * finalizes them at store_close). */
void store_per_run_finalize(struct store *st);

/* Fill err with what failed and SQLite's message; returns the negative
 * code. */
int store_db_fail(struct store *st, struct xr_err *err, const char *what);

/* 1 when the DB has the schedules table (version 6), else 0: a store
 * of an older version read without migrating. */
int store_has_schedules(struct store *st);

/* 1 when the DB has the shards table (version 10), else 0. */
int store_has_shards(struct store *st);

/* 1 when another xrun holds the lock of the store at path (lock_db_file,
 * or an older xrun's flock of "<path>.lock"); takes no lock itself. */
int store_lock_held(const char *path);

/* enum run_status of a stored status name, -1 when xrun does not know it. */
int store_status_parse(const char *name);

/* Prepare sql on st (*s NULL on failure), and step a one-shot statement
 * to its end and finalize it; both fill err with `what` failing. */
int store_prep(struct store *st, const char *sql, sqlite3_stmt **s,
	       struct xr_err *err);
int store_step_done(struct store *st, sqlite3_stmt *s, const char *what,
		    struct xr_err *err);

/* The readers' helpers (store_read.c): prepare sql, where "%s" (if any)
 * stands for the list of the n session ids; after the row loop, rc the
 * last sqlite3_step and cb what the callback last said, finalize and say
 * what failed; is there a table of that name? */
int store_read_prep(struct store *st, const char *sql, const int64_t *ids,
		    size_t n, sqlite3_stmt **s, const char *what,
		    struct xr_err *err);
int store_read_end(struct store *st, sqlite3_stmt *s, int rc, int cb,
		   const char *what, struct xr_err *err);
int store_has_table(struct store *st, const char *name);

/* During a merge (the input attached as src, its sessions copied into
 * main): -XR_EUSAGE naming path when the shards in main can no longer
 * form one night: a shard twice, two N, a shard beside a whole session
 * of the same plan, or assignments that differ (store_shard.c). */
int store_shard_merge_check(struct store *st, const char *path,
			    struct xr_err *err);

/* Append the points of s to out as store_series.c stores them (a JSON
 * array of [t, value] pairs); 0 or -XR_ENOMEM. */
int store_series_pack(const struct series *s, struct buf *out);

#endif
