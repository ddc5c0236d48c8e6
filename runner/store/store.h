/*
 * The store: one SQLite file per plan (schema/store.sql, documented in
 * schema/store.md). Opening creates or migrates the schema (PRAGMA
 * user_version), turns on WAL and foreign keys, and optionally takes an
 * exclusive lock on the DB file itself (whatever path names it: a symlink
 * or hard link meets the same lock) so that two xrun processes never run
 * on one DB; "<db>.lock" then holds the holder's notes. Every scheduled
 * run is inserted 'pending' when a session starts and
 * updated in place, each in its own transaction, as soon as it ends.
 * Everything else reads it through the typed readers (store_read.h and
 * store_sizing.h, included at the end of this header): all of the program's SQL
 * is in this folder, and the handle is opaque.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_STORE_H
#define XR_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "strv.h"
#include "xr_err.h"

struct store;
struct buf;
struct engine_result;
struct counter_row;
struct fact;

/* The schema version this xrun writes. */
#define STORE_SCHEMA_VERSION 13
/* The oldest version the readers read as it is (read-only opens do not
 * migrate): versions 2 and 3 added originals and changed only the key of
 * host_facts, nothing the readers depend on; version 5 added sizing (read when
 * there) and version 6 schedules,
 * which the readers use when the table is there (a session without a
 * schedules row has a row in runs for every scheduled run); version 7
 * series (none in an older store), version 8 their chunks and attempts
 * (a version 7 store is read as one chunk of each run's last attempt);
 * version 11 trials, version 12 run_attempts (read when there: an older
 * store's runs have their last attempt only), version 13 fact sets (an
 * older store has none: the readers give the host facts of each run's
 * session, as before). */
#define STORE_SCHEMA_READABLE 1

enum store_open_flags {
	STORE_CREATE = 1 << 0,	 /* create the file if missing */
	STORE_LOCK = 1 << 1,	 /* lock the DB file for the handle's life */
	STORE_READONLY = 1 << 2, /* status/report/plan: see below */
};

/* The store of a plan when no --db is given: "./NAME.db", appended to out.
 * Every command that finds a plan's store by its name uses this. */
void store_default_path(const char *plan_name, struct buf *out);

/*
 * Open path. A DB written by a newer xrun (user_version greater than
 * STORE_SCHEMA_VERSION) is refused with -XR_ESTORE; a locked DB with
 * -XR_ELOCKED. OUT: *out, close with store_close.
 *
 * STORE_READONLY opens with SQLITE_OPEN_READONLY, changes nothing and takes
 * no lock, so it works while xrun runs and on a store it cannot write (a
 * read-only file system, a file without write permission). It also reads
 * a file made from schema/store.sql by hand (version 0 with xrun's tables).
 */
int store_open(const char *path, unsigned flags, struct store **out,
	       struct xr_err *err);
void store_close(struct store *st); /* NULL ok; releases the lock */
const char *store_path(const struct store *st);
/* With STORE_LOCK: what the previous holder left in the lock file (its pid
 * line, then its notes), "" when none; valid until store_close. A crashed
 * xrun's notes name the children it left behind (run.c stops them). */
const char *store_lock_previous(const struct store *st);
/* Whether an xrun holds the lock of the store at path now (it takes no
 * lock itself, so a report can ask while a run goes on): -1 when none,
 * else the pid its lock file names (0 when it names none). */
long store_lock_holder(const char *path);
/* Rewrite the lock file as our pid line followed by note. */
int store_lock_note(struct store *st, const char *note);
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
	int64_t nruns; /* scheduled runs, with or without a row */
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
/* The same for n runs; OUT: ids[k] is the row id of rows[k]. */
int store_runs_pending_make(struct store *st, int64_t session_id,
			    const struct store_pending *rows, size_t n,
			    int64_t *ids, struct xr_err *err);
/*
 * Record how many runs the session's schedule holds (schedules table). Its
 * runs' rows may then be created as the session reaches them, always as a
 * prefix of the schedule: positions 0 .. k-1 have rows, k .. nruns-1 are
 * pending without one. The readers count those as pending.
 */
int store_session_set_planned(struct store *st, int64_t session_id,
			      int64_t nruns, struct xr_err *err);

/*
 * Load the run ids and statuses (enum run_status) of a session, indexed
 * by position, into ids[n] and status[n] (either may be NULL). Positions
 * without a row are left as they are (0 in a zeroed array).
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
struct series_set;
struct store_run_fact {
	const char *host;
	int64_t set_id; /* store_fact_set_put's */
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
	/* What was sampled during the run (series.h), NULL when nothing. */
	const struct series_set *series;
	/* The fact set in effect on each host the run used (run_facts). */
	const struct store_run_fact *facts;
	size_t nfacts;
};
/* Store everything about one finished run in one transaction. */
int store_run_finish(struct store *st, int64_t run_id,
		     const struct store_run_record *rec, struct xr_err *err);
/*
 * The series of a run in flight, written while it runs (store_chunks.c;
 * schema/store.md, "series"): every period seconds a thread of the
 * store's calls fn(ctx, dst) for the points sampled since its previous
 * call (fn adds them to the empty set dst; 0, or -XR_ENOMEM) and appends
 * them, in one transaction, as the next chunk (1, 2 ...) of run run_id's
 * current attempt, through a connection to the store's file of its own
 * (the handle st stays the calling thread's). store_run_finish later
 * replaces that attempt's chunks with the whole run. fn runs on that
 * thread. NULL when the thread cannot start (the run's series are then
 * stored at its end only).
 */
#define STORE_FLUSH_PERIOD 2.0
struct store_flusher;
struct series_set;
typedef int (*store_collect_fn)(void *ctx, struct series_set *dst);
struct store_flusher *store_flusher_start(struct store *st, int64_t run_id,
					  double period, store_collect_fn fn,
					  void *ctx);
/* Stop the thread (a flush under way ends first) and free f: the number
 * of chunks written. The first failed flush's text into why (why[0] '\0'
 * when none failed). NULL is a no-op (0). */
int64_t store_flusher_stop(struct store_flusher *f, char *why, size_t whysz);

/* Set a run's status and reason without results (e.g. 'skipped'); an
 * attempt that ended so (not 'running') is kept in run_attempts. */
int store_run_set_status(struct store *st, int64_t run_id, const char *status,
			 const char *reason, struct xr_err *err);

/* One hook execution. run_id 0 = none; exit_code < -1000 = NULL. */
int store_hook_add(struct store *st, int64_t session_id, int64_t run_id,
		   const char *factor, const char *host, const char *kind,
		   const char *level, const char *argv_json, int exit_code,
		   const char *out, const char *errtext, struct xr_err *err);

/*
 * The original value of a factor's setting on a host, captured before the
 * session first changed it (restore: true). get: 1 and *value (OUT:
 * caller frees) when stored, 0 when not, negative on error. put: the
 * first value stored for a session, factor and host stands.
 */
int store_original_get(struct store *st, int64_t session_id, const char *factor,
		       const char *host, char **value, struct xr_err *err);
int store_original_put(struct store *st, int64_t session_id, const char *factor,
		       const char *host, const char *value, struct xr_err *err);

/* Host facts: a value already stored for (session, host, key) is kept;
 * a different one is added beside it (schema version 3). */
int store_facts_put(struct store *st, int64_t session_id, const char *host,
		    const struct fact *facts, size_t n, struct xr_err *err);
/*
 * A fact set (schema/store.md, "fact_sets"): every fact of host as read
 * at one time, the cause ("open", "apply", "manual", "verify") and, but
 * for "open", the factor and level that made the read. OUT: *set_id, to
 * name in store_run_record.facts. In a transaction of its own.
 */
int store_fact_set_put(struct store *st, int64_t session_id, const char *host,
		       const char *cause, const char *factor, const char *level,
		       const struct fact *facts, size_t n, int64_t *set_id,
		       struct xr_err *err);
/* The set each host held during run_id (replacing what an earlier
 * attempt named); inside store_run_finish's transaction. */
int store_run_facts_put(struct store *st, int64_t run_id,
			const struct store_run_fact *f, size_t n,
			struct xr_err *err);
int store_fact_put(struct store *st, int64_t session_id, const char *host,
		   const char *key, const char *value, struct xr_err *err);

/* A shard's manifest (schema/store.md, "shards"): written with its
 * session by `xrun run --shard K/N`. */
struct store_shard {
	uint32_t k, n;	     /* shard k (1-based) of n */
	uint32_t nunits;     /* units of the whole plan's schedule */
	const char *assign;  /* JSON [[block, pass0, npass, shard], ...]: every
				unit of the plan in schedule order (pass0
				0-based, npass 0: the whole block, shard
				1-based) */
	const char *blocks;  /* JSON array of the blocks this shard runs */
	const char *testbed; /* its hosts: "label=identity, ..." */
};
int store_shard_put(struct store *st, int64_t session_id,
		    const struct store_shard *sh, struct xr_err *err);
/* 1 and the session's shard k of n, 0 when it is not sharded (*k = *n =
 * 0), negative on error. */
int store_shard_of(struct store *st, int64_t session_id, uint32_t *k,
		   uint32_t *n, struct xr_err *err);
/*
 * The shards of st: a line a sharded plan matrix in present ("shards of
 * matrix H: 1/2 (session 1, testbed T), ..."), a line a gap in missing
 * (shards absent with their blocks; shards with runs not done). Either
 * strv may be NULL. Returns the number of gaps (0: complete or nothing
 * sharded), or negative.
 */
int store_shards_check(struct store *st, struct strv *present,
		       struct strv *missing, struct xr_err *err);

/*
 * Copy every session of the stores inputs[n] into st (xrun merge), with
 * all their rows and host facts as they are, under new ids. A session st
 * already has (the same session key) is skipped, so merging a store again
 * adds nothing. Sessions of another plan than those in st (another plan
 * name or matrix) are refused with -XR_EUSAGE unless force. Each input is
 * merged in its own transaction; a refused or failing input stops the
 * merge, leaving those before it merged. A session still running (the
 * input is locked by another xrun and the session's status is running)
 * is skipped, so that a merge after it ends copies it whole. Shards
 * (`run --shard`) are refused, unless force, when one shard would be in
 * st twice, when shards divide the plan differently, or beside a whole
 * session of the same plan (store_shard.c); shards missing are no
 * refusal: stats->shard_missing says which.
 */
struct store_merge_stats {
	int64_t sessions_added, sessions_skipped, runs_added;
	/* Not merged: sessions still running (their store locked by another
	 * xrun) and sessions with no plan row; warnings says which, one line
	 * each, also for a session copied as far as it got (status running in
	 * a store no xrun holds: cut short). OUT: caller strv_release()s. */
	int64_t sessions_running, sessions_planless;
	struct strv warnings;
	/* Shards (store_shards_check) after the merge: the gaps, a line
	 * each in shard_missing (caller strv_release()s). */
	int shard_gaps;
	struct strv shard_missing;
};
int store_merge(struct store *st, const char *const *inputs, size_t n,
		int force, struct store_merge_stats *stats, struct xr_err *err);

/* The rest of the interface: the typed readers and the sizing rows. */
#include "store_read.h"
#include "store_sizing.h"

/* ---- rate searches (store_trials.c; schema/store.md, "trials") ---------- */

/* One trial of a search as stored. */
struct store_trial_row {
	int64_t run_id, search_id, session_id, cell_index;
	int seq;
	const char *goal; /* valid during the callback */
	double load, duration;
	double loss;		 /* NAN until the trial ended ok */
	int status;		 /* enum run_status of its run, -1 unknown */
	double packets, elapsed; /* its run's packets metric (NAN when none)
				    and elapsed seconds */
	double lost;		 /* its lost_packets metric, NAN when none */
};
typedef int (*store_trial_fn)(void *ctx, const struct store_trial_row *row);

/* A new trial of search run search_id: a pending run row like the
 * search's (session, cell, block, repetition) at the session's next
 * negative position, and its trials row. OUT: *run_id. Call inside
 * store_begin/store_commit. */
int store_trial_add(struct store *st, int64_t search_id, int seq,
		    const char *goal, double load, double duration,
		    int64_t *run_id, struct xr_err *err);
/* The counters of the trials of sessions[n] that say where datagrams
 * were dropped (scopes qdisc, udp, nic, ethtool; values above 0): fn gets
 * (ctx, trial run id, host, scope, name, value). */
typedef int (*store_trial_counter_fn)(void *ctx, int64_t run_id,
				      const char *host, const char *scope,
				      const char *name, double value);
int store_trial_counters_each(struct store *st, const int64_t *sessions,
			      size_t n, store_trial_counter_fn fn, void *ctx,
			      struct xr_err *err);
/* The loss ratio a trial ended with. */
int store_trial_set_loss(struct store *st, int64_t run_id, double loss,
			 struct xr_err *err);
/* The trials of one search (search_id > 0) or of sessions[n] (search_id
 * 0, n 0: every session), by search and seq. */
int store_trials_each(struct store *st, int64_t search_id,
		      const int64_t *sessions, size_t n, store_trial_fn fn,
		      void *ctx, struct xr_err *err);

#endif
