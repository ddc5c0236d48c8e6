/*
 * The store: one SQLite file per plan (schema/store.sql, documented in
 * schema/store.md). Opening creates or migrates the schema (PRAGMA
 * user_version), turns on WAL and foreign keys, and optionally takes an
 * exclusive lock on "<db>.lock" so that two xrun processes never run on one
 * DB. Every scheduled run is inserted 'pending' when a session starts and
 * updated in place, each in its own transaction, as soon as it ends.
 */
#ifndef XR_STORE_H
#define XR_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

struct store;
struct sqlite3;
struct engine_result;
struct counter_row;
struct fact;

/* The schema version this xrun writes. */
#define STORE_SCHEMA_VERSION 2

enum store_open_flags {
	STORE_CREATE = 1 << 0,	 /* create the file if missing */
	STORE_LOCK = 1 << 1,	 /* flock "<db>.lock" for the handle's life */
	STORE_READONLY = 1 << 2, /* status/report: no schema change */
};

/*
 * Open path. A DB written by a newer xrun (user_version greater than
 * STORE_SCHEMA_VERSION) is refused with -XR_ESTORE; a locked DB with
 * -XR_ELOCKED. OUT: *out, close with store_close.
 */
int store_open(const char *path, unsigned flags, struct store **out,
	       struct xr_err *err);
void store_close(struct store *st); /* NULL ok; releases the lock */
const char *store_path(const struct store *st);
/* With STORE_LOCK: what the previous holder left in the lock file (its pid
 * line, then its notes), "" when none; valid until store_close. A crashed
 * xrun's notes name the children it left behind (run.c stops them). */
const char *store_lock_previous(const struct store *st);
/* Rewrite the lock file as our pid line followed by note. */
int store_lock_note(struct store *st, const char *note);
/* For read-only queries (status, reports); owned by st. */
struct sqlite3 *store_sqlite(struct store *st);
/* The schema text compiled into the binary. */
extern const char xr_store_sql[];

/* Explicit transactions (store_run_pending_add is meant to run inside). */
int store_begin(struct store *st, struct xr_err *err);
int store_commit(struct store *st, struct xr_err *err);
void store_rollback(struct store *st);

/* Insert the plan (or find it by hash). */
int store_plan_put(struct store *st, const char *name, const char *title,
		   const char *path, const char *hash, const char *text,
		   int64_t *plan_id, struct xr_err *err);

struct store_session {
	int64_t id;
	int64_t plan_id;
	char plan_name[128];
	char plan_hash[65];
	char cells_hash[65];
	char *cells_desc; /* owned: JSON of what changes the runs */
	char *plan_text;  /* owned: the plan file the session ran */
	char status[16];  /* running|done|interrupted|incomplete */
	double started_at, updated_at, ended_at; /* ended_at 0 = NULL */
	int64_t nruns;
};
void store_session_release(struct store_session *s);

/*
 * The latest session (highest id) of the plan named plan_name, or of any
 * plan when plan_name is NULL. Returns 1 and fills *out when found, 0 when
 * there is none, negative on error.
 */
int store_session_latest(struct store *st, const char *plan_name,
			 struct store_session *out, struct xr_err *err);
int store_session_create(struct store *st, int64_t plan_id,
			 const char *cells_hash, const char *cells_desc,
			 const char *argv_json, int64_t *session_id,
			 struct xr_err *err);
/* status: running|done|interrupted|incomplete; ended: set ended_at. */
int store_session_set_status(struct store *st, int64_t session_id,
			     const char *status, int ended, struct xr_err *err);
/* Point an existing session at a plan row (same cells, new file bytes). */
int store_session_set_plan(struct store *st, int64_t session_id,
			   int64_t plan_id, struct xr_err *err);

/* One scheduled run, inserted 'pending'. */
struct store_pending {
	uint32_t position, block, block_pos, pass, rep, cell_index;
	int warmup;
	const char *cell; /* JSON object factor -> level */
};
/* Call inside store_begin/store_commit (prepared once, reused). */
int store_run_pending_add(struct store *st, int64_t session_id,
			  const struct store_pending *r, struct xr_err *err);

/*
 * Load the run ids and statuses (enum run_status) of a session, indexed
 * by position, into ids[n] and status[n] (either may be NULL).
 * Returns the number of rows found, negative on error.
 */
int64_t store_runs_load(struct store *st, int64_t session_id, int64_t *ids,
			uint8_t *status, size_t n, struct xr_err *err);

/* Mark a run 'running' (attempts + 1) and commit at once, so that a run
 * in flight when xrun is killed is found 'running' and redone. */
int store_run_start(struct store *st, int64_t run_id, double started_at,
		    struct xr_err *err);

struct store_verification {
	const char *factor, *host;
	const char *method; /* probe:<name> | run | engine */
	const char *expected, *actual;
	int ok;
};
struct store_counters {
	const char *host;
	const struct counter_row *rows;
	size_t n;
};
struct store_run_record {
	const struct engine_result *res; /* status, times, output, metrics */
	const char *engine;
	const char *target;
	const char *params_json;
	const char *argv_json; /* overrides res->argv_json when non-NULL */
	const char *reason;    /* overrides res->reason when non-NULL */
	const struct store_verification *ver;
	size_t nver;
	const struct store_counters *counters;
	size_t ncounters;
};
/* Store everything about one finished run in one transaction. */
int store_run_finish(struct store *st, int64_t run_id,
		     const struct store_run_record *rec, struct xr_err *err);
/* Set a run's status and reason without results (e.g. 'skipped'). */
int store_run_set_status(struct store *st, int64_t run_id, const char *status,
			 const char *reason, struct xr_err *err);

/* One hook execution. run_id 0 = none; exit_code < -1000 = NULL. */
int store_hook_add(struct store *st, int64_t session_id, int64_t run_id,
		   const char *factor, const char *host, const char *kind,
		   const char *level, const char *argv_json, int exit_code,
		   const char *out, const char *errtext, struct xr_err *err);

/* Host facts: a value already stored for (session, host, key) is kept;
 * a different one is added beside it (schema version 2). */
int store_facts_put(struct store *st, int64_t session_id, const char *host,
		    const struct fact *facts, size_t n, struct xr_err *err);
int store_fact_put(struct store *st, int64_t session_id, const char *host,
		   const char *key, const char *value, struct xr_err *err);

#endif
