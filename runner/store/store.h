/*
 * The store: one SQLite file per plan (schema/store.sql, documented in
 * schema/store.md). Opening creates or migrates the schema (PRAGMA
 * user_version), turns on WAL and foreign keys, and optionally takes an
 * exclusive lock on the DB file itself (whatever path names it: a symlink
 * or hard link meets the same lock) so that two xrun processes never run
 * on one DB; "<db>.lock" then holds the holder's notes. Every scheduled
 * run is inserted 'pending' when a session starts and
 * updated in place, each in its own transaction, as soon as it ends.
 * Everything else reads it through the typed readers at the end of this
 * header: all of the program's SQL is in this folder, and the handle is
 * opaque.
 */
#ifndef XR_STORE_H
#define XR_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "err.h"
#include "strv.h"

struct store;
struct buf;
struct engine_result;
struct counter_row;
struct fact;

/* The schema version this xrun writes. */
#define STORE_SCHEMA_VERSION 9
/* The oldest version the readers read as it is (read-only opens do not
 * migrate): versions 2 and 3 added originals and changed only the key of
 * host_facts, nothing the readers depend on; version 5 added sizing (read when
 * there) and version 6 schedules,
 * which the readers use when the table is there (a session without a
 * schedules row has a row in runs for every scheduled run); version 7
 * series (none in an older store), version 8 their chunks and attempts
 * (a version 7 store is read as one chunk of each run's last attempt). */
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

/* Set a run's status and reason without results (e.g. 'skipped'). */
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
int store_fact_put(struct store *st, int64_t session_id, const char *host,
		   const char *key, const char *value, struct xr_err *err);

/*
 * Copy every session of the stores inputs[n] into st (xrun merge), with
 * all their rows and host facts as they are, under new ids. A session st
 * already has (the same session key) is skipped, so merging a store again
 * adds nothing. Sessions of another plan than those in st (another plan
 * name or matrix) are refused with -XR_EUSAGE unless force. Each input is
 * merged in its own transaction; a refused or failing input stops the
 * merge, leaving those before it merged. A session still running (the
 * input is locked by another xrun and the session's status is running)
 * is skipped, so that a merge after it ends copies it whole.
 */
struct store_merge_stats {
	int64_t sessions_added, sessions_skipped, runs_added;
	/* Not merged: sessions still running (their store locked by another
	 * xrun) and sessions with no plan row; warnings says which, one line
	 * each, also for a session copied as far as it got (status running in
	 * a store no xrun holds: cut short). OUT: caller strv_release()s. */
	int64_t sessions_running, sessions_planless;
	struct strv warnings;
};
int store_merge(struct store *st, const char *const *inputs, size_t n,
		int force, struct store_merge_stats *stats, struct xr_err *err);

/* ---- Typed readers: what status, plan estimates and reports need ------
 *
 * Each calls fn once per row. Strings in a row are valid only during that
 * call (copy what you keep); NULL columns are NULL pointers, NaN for reals.
 * fn returns 0 to go on, a positive value to stop early (the reader then
 * returns 0), or a negative code, which the reader returns as is (fill the
 * caller's err from fn's context if it needs a message). Otherwise a
 * reader returns 0, or a negative -XR_E* code with err filled.
 * "sessions[n]" restricts a reader to those session ids.
 */

/* Run statuses, indexed by enum run_status. */
#define STORE_RUN_STATUSES RUN_STATUS_COUNT
#define STORE_STATUS_BIT(s) (1u << (s))

struct store_session_row {
	int64_t id;
	const char *plan_name, *plan_title, *plan_hash, *plan_text;
	const char *status; /* running|done|interrupted|incomplete */
	double started_at, updated_at, ended_at;
};
typedef int (*store_session_fn)(void *ctx, const struct store_session_row *s);
/* Every session with its plan, newest (highest id) first. */
int store_sessions_each(struct store *st, store_session_fn fn, void *ctx,
			struct xr_err *err);

/* Runs of a session counted by status: counts[enum run_status]. A status
 * xrun does not know is not counted. */
int store_run_counts(struct store *st, int64_t session_id,
		     int64_t counts[STORE_RUN_STATUSES], struct xr_err *err);

/* Which runs store_runs_each visits. */
struct store_run_filter {
	const int64_t *sessions; /* these sessions (required) */
	size_t nsessions;
	int64_t block;	   /* only this manual block; -1: every block */
	unsigned statuses; /* STORE_STATUS_BIT()s; 0: every status */
	int limit;	   /* at most this many; 0: no limit */
	int with_reason;   /* only runs that carry a reason */
};
struct store_run_row {
	int64_t id, session_id, position, block;
	int rep, warmup;
	int status;		 /* enum run_status; -1 for one xrun lacks */
	const char *status_name; /* as stored */
	const char *cell;	 /* JSON object factor -> level */
	const char *reason;
	const char *engine, *target, *params; /* params: JSON object */
	double started_at, ended_at, elapsed; /* NaN: not recorded */
};
typedef int (*store_run_fn)(void *ctx, const struct store_run_row *r);
/* The runs f selects, in session then position order. */
int store_runs_each(struct store *st, const struct store_run_filter *f,
		    store_run_fn fn, void *ctx, struct xr_err *err);

/* A session's manual blocks, in order, as `xrun status` shows them. */
struct store_block_row {
	int64_t block;
	int64_t first_position;
	int64_t nruns;
	int64_t done;		  /* ok or skipped */
	int64_t failed;		  /* failed or timeout */
	int64_t pending;	  /* pending, running or interrupted */
	const char *cell;	  /* the cell of its first run */
	const char *pending_cell; /* of its first run still to do; NULL */
};
typedef int (*store_block_fn)(void *ctx, const struct store_block_row *b);
int store_blocks_each(struct store *st, int64_t session_id, store_block_fn fn,
		      void *ctx, struct xr_err *err);

/* Timing of every run with a start and an end time, over all sessions (in
 * session, then position order): what `xrun plan` estimates overhead from. */
struct store_run_timing {
	double gap;	/* start minus the previous such run's end in its
			   session; NaN for a session's first */
	double elapsed; /* NaN: not recorded */
	int status;	/* enum run_status; -1 for one xrun lacks */
};
typedef int (*store_timing_fn)(void *ctx, const struct store_run_timing *t);
int store_run_timings_each(struct store *st, store_timing_fn fn, void *ctx,
			   struct xr_err *err);

/* Every metric and interval value in the store, in storage order, for the
 * caller to keep those of its runs: a plain scan is a third of the time of
 * a join with runs on 100,000 runs. */
struct store_metric_row {
	int64_t run_id;
	const char *name, *unit;
	double value;
};
typedef int (*store_metric_fn)(void *ctx, const struct store_metric_row *m);
int store_metrics_each(struct store *st, store_metric_fn fn, void *ctx,
		       struct xr_err *err);
struct store_interval_row {
	int64_t run_id;
	double value;
	double t_start, t_end; /* seconds from the engine's start */
};
typedef int (*store_interval_fn)(void *ctx, const struct store_interval_row *v);
int store_intervals_each(struct store *st, store_interval_fn fn, void *ctx,
			 struct xr_err *err);

/* The series observed during runs (series.h; table series_data, view
 * series: schema/store.md), one call per run, host and series, ordered
 * by run id, host and name. A filter field left 0 or NULL does not
 * filter. None (0) in a store older than version 7. */
struct store_series_filter {
	const int64_t *sessions; /* the runs of these sessions */
	size_t nsessions;
	int64_t run_id;	  /* this run */
	const char *name; /* a GLOB pattern: "engine.throughput", "cpu.*" */
	const char *host; /* the plan's host label */
};
struct store_series_row {
	int64_t run_id;
	const char *host, *name, *unit;
	const double *t, *v; /* [n]: t seconds from the engine's start;
				v NaN where not a number */
	size_t n;
};
typedef int (*store_series_fn)(void *ctx, const struct store_series_row *s);
int store_series_each(struct store *st, const struct store_series_filter *f,
		      store_series_fn fn, void *ctx, struct xr_err *err);

/* Counter values summed per cell, host, scope and name over the ok,
 * non-warm-up runs of the sessions; only positive values of the scopes
 * nic, ethtool, tcp and capture (those a report flags). */
struct store_counter_sum {
	const char *cell, *host, *scope, *name;
	double sum;
};
typedef int (*store_counter_fn)(void *ctx, const struct store_counter_sum *c);
int store_counter_sums_each(struct store *st, const int64_t *sessions, size_t n,
			    store_counter_fn fn, void *ctx, struct xr_err *err);

/* Verifications of the ok, non-warm-up runs of the sessions, counted per
 * cell, factor and outcome; expected/actual: the least mismatch of the
 * group (NULL when ok). A successful apply hook (method "apply", stored
 * for factors without verify) is not a verification and is left out; a
 * failed one counts as a mismatch. */
struct store_verify_tally {
	const char *cell, *factor;
	int ok;
	int64_t count;
	const char *expected, *actual;
};
typedef int (*store_tally_fn)(void *ctx, const struct store_verify_tally *v);
int store_verify_tallies_each(struct store *st, const int64_t *sessions,
			      size_t n, store_tally_fn fn, void *ctx,
			      struct xr_err *err);
/* Verifications of the non-warm-up runs of the sessions, grouped by what
 * was checked and found, ordered by factor, host, ok, expected, actual. */
struct store_verify_group {
	const char *factor, *host, *method, *expected, *actual;
	int ok;
	int64_t count;
};
typedef int (*store_vgroup_fn)(void *ctx, const struct store_verify_group *v);
int store_verify_groups_each(struct store *st, const int64_t *sessions,
			     size_t n, store_vgroup_fn fn, void *ctx,
			     struct xr_err *err);

/* Host facts of the sessions, ordered by host, key and session. */
struct store_fact_row {
	int64_t session_id;
	const char *host, *key, *value;
};
typedef int (*store_fact_fn)(void *ctx, const struct store_fact_row *f);
int store_facts_each(struct store *st, const int64_t *sessions, size_t n,
		     store_fact_fn fn, void *ctx, struct xr_err *err);

/* What the engine observed per run (the congestion control really used,
 * the protocol, its version, ...), of the sessions' non-warm-up runs,
 * ordered by run id and key. value may be NULL. */
struct store_observed_row {
	int64_t run_id;
	const char *key, *value;
};
typedef int (*store_observed_fn)(void *ctx, const struct store_observed_row *o);
int store_observed_each(struct store *st, const int64_t *sessions, size_t n,
			store_observed_fn fn, void *ctx, struct xr_err *err);

/* What the ok, non-warm-up runs of the sessions ran under, counted per
 * cell, key and value: the engine's observed settings (iperf3:
 * congestion, receiver_congestion, version, protocol, parallel, mss,
 * direction, test_duration), key "engine" (the engine type) and key
 * "mtu@HOST" (what the nic.mtu probe read on HOST). Ordered by key, cell,
 * value. */
struct store_condition_row {
	const char *cell, *key, *value;
	int64_t count;
};
typedef int (*store_condition_fn)(void *ctx,
				  const struct store_condition_row *c);
int store_conditions_each(struct store *st, const int64_t *sessions, size_t n,
			  store_condition_fn fn, void *ctx, struct xr_err *err);

/* The controller's 1-minute load average when the ok, non-warm-up runs of
 * the sessions ended, per cell: its range, the CPU count, how many runs
 * ended with the load above it. None for a store older than version 3. */
struct store_load_row {
	const char *cell;
	double load_min, load_max;
	int cpus;
	int64_t over, nruns;
};
typedef int (*store_load_fn)(void *ctx, const struct store_load_row *l);
int store_loads_each(struct store *st, const int64_t *sessions, size_t n,
		     store_load_fn fn, void *ctx, struct xr_err *err);

/* The ok, non-warm-up runs of the sessions whose stdout passed xrun's
 * output cap (table output_cut, version 8), per cell: how many, the cap
 * in bytes. None for an older store. */
struct store_cut_row {
	const char *cell;
	int64_t nruns, cap;
};
typedef int (*store_cut_fn)(void *ctx, const struct store_cut_row *c);
int store_cuts_each(struct store *st, const int64_t *sessions, size_t n,
		    store_cut_fn fn, void *ctx, struct xr_err *err);

/* ---- repetition sizing (store_sizing.c; schema/store.md, "sizing") ---- */

/* One cell's sizing decision, and once the session stops its outcome
 * (runs_done < 0, reached NaN and stopped NULL until then). */
struct store_sizing_row {
	int64_t cell_index, block;
	const char *cell;	     /* JSON object factor -> level */
	const char *metric;	     /* the metric the precision is about */
	int pilot_n;		     /* successful pilot runs used */
	double pilot_mean, pilot_sd; /* of the log values; NaN when unknown */
	double precision;	     /* target relative half-width */
	int need;		     /* runs the precision needs */
	int planned;		     /* runs frozen for the cell */
	int max;
	double decided_at;
	int runs_done;
	double reached;
	const char *stopped; /* "planned", "max", "interrupted" or NULL */
};

int store_sizing_add(struct store *st, int64_t session_id,
		     const struct store_sizing_row *row, struct xr_err *err);
/* The outcome of one cell when the session stops. */
int store_sizing_finish(struct store *st, int64_t session_id,
			int64_t cell_index, int runs_done, double reached,
			const char *stopped, struct xr_err *err);
typedef int (*store_sizing_fn)(void *ctx, const struct store_sizing_row *r);
/* Every sizing row of a session by block and cell; none (0) in a store
 * older than version 5. */
int store_sizing_each(struct store *st, int64_t session_id, store_sizing_fn fn,
		      void *ctx, struct xr_err *err);
/* Marks a run as one a sizing decision of block `block` read. */
int store_sizing_run_add(struct store *st, int64_t run_id, int64_t block,
			 struct xr_err *err);
typedef int (*store_sizing_run_fn)(void *ctx, int64_t run_id, int64_t block);
/* The runs the session's sizing decisions read; none (0) in a store
 * older than version 8. */
int store_sizing_runs_each(struct store *st, int64_t session_id,
			   store_sizing_run_fn fn, void *ctx,
			   struct xr_err *err);
/* Moves every run of the session past position `after` by `by` places
 * (to make room for the extra passes of a sized block). */
int store_runs_shift(struct store *st, int64_t session_id, int64_t after,
		     int64_t by, struct xr_err *err);
/* One interval (or, for a run without intervals, the run alone) of the
 * successful non-warm-up runs of every session, by cell text, run and
 * interval order: the run's value of the metric and, when the run has
 * per-interval values, one of them (iv NaN otherwise) with its length. */
struct store_level_row {
	const char *cell;
	int64_t run_id;
	double run_value, iv, iv_len;
};
typedef int (*store_level_fn)(void *ctx, const struct store_level_row *r);
int store_levels_each(struct store *st, const char *metric, store_level_fn fn,
		      void *ctx, struct xr_err *err);
typedef int (*store_value_fn)(void *ctx, int64_t cell_index, int64_t run_id,
			      double value);
/* The metric's value of every successful non-warm-up run of a session's
 * block (block < 0: every block), in execution order. */
int store_cell_values_each(struct store *st, int64_t session_id, int64_t block,
			   const char *metric, store_value_fn fn, void *ctx,
			   struct xr_err *err);

#endif
