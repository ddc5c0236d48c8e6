/*
 * The store's typed readers (store_read.c, store_rows.c): what status, plan
 * estimates and reports read. Part of the store's interface: include "store.h",
 * which includes this file at its end (the header is split only to keep each
 * part short).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_STORE_READ_H
#define XR_STORE_READ_H

#include <stddef.h>
#include <stdint.h>

#include "store.h"

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
	const char *testbed; /* a shard's (schema/store.md), else NULL */
};
typedef int (*store_session_fn)(void *ctx, const struct store_session_row *s);
/* Every session with its plan, newest (highest id) first. */
int store_sessions_each(struct store *st, store_session_fn fn, void *ctx,
			struct xr_err *err);

/* The ok, non-warm-up runs of a session that a verdict cannot stand on
 * (schema/report.md, "Verification"): *wrong, those with a setting
 * verified wrong (runs.verified = 0: a check failed, or the apply hook of
 * a factor without verify); *unverified, those in which one of the
 * factors named in settings (a JSON array of names: the factors with an
 * apply hook or a manual step) has no check but a successful apply hook
 * (none declared, or none ran). Runs, not checks. */
int store_verify_run_counts(struct store *st, int64_t session_id,
			    const char *settings, int64_t *wrong,
			    int64_t *unverified, struct xr_err *err);

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
	double gap;	    /* start minus the previous such run's end in its
			       session; NaN for a session's first */
	double elapsed;	    /* NaN: not recorded */
	int status;	    /* enum run_status; -1 for one xrun lacks */
	int64_t cell_index; /* the run's cell in its session's matrix */
	int64_t session_id;
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
/* The intervals come one run at a time: the consecutive rows of a run (xrun
 * writes a run's rows together) as arrays valid during the call, so that
 * the caller's per-run work is done once a run and not once a row (the
 * report of 100,000 runs has 500,000 rows: bench/RESULTS.md). A run whose
 * rows are not consecutive comes in more than one call. */
struct store_interval_run {
	int64_t run_id;
	size_t n;			       /* rows, >= 1 */
	const double *value, *t_start, *t_end; /* [n], seconds from the
						  engine's start */
};
typedef int (*store_interval_fn)(void *ctx, const struct store_interval_run *v);
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

/* Verifications of the ok, non-warm-up runs of the sessions: runs (not
 * checks) counted per cell, factor and outcome, a run whose factor failed
 * any of its checks (hosts, verify entries) counted once as a mismatch;
 * expected/actual: the least mismatch of the group (NULL when ok). A successful
 * apply hook (method "apply", stored for factors without verify) is not a
 * verification and is left out; a failed one counts as a mismatch. */
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

/* The names that hold values in the non-warm-up runs of the sessions,
 * with how many runs hold each: what a declared metric without values
 * is told apart from (reports/model/model_gaps.c). host is NULL for a
 * metric. */
struct store_name_count {
	const char *host, *name;
	int64_t runs;
};
typedef int (*store_name_fn)(void *ctx, const struct store_name_count *c);
/* Metric names of the ok runs, by name. */
int store_metric_names_each(struct store *st, const int64_t *sessions, size_t n,
			    store_name_fn fn, void *ctx, struct xr_err *err);
/* Series (host, name) of the runs' current attempts, any status, by host
 * and name (store_series.c). None in a store older than version 7. */
int store_series_names_each(struct store *st, const int64_t *sessions, size_t n,
			    store_name_fn fn, void *ctx, struct xr_err *err);

/* Host facts of the sessions, ordered by host, key and session. */
struct store_fact_row {
	int64_t session_id;
	const char *host, *key, *value;
};
typedef int (*store_fact_fn)(void *ctx, const struct store_fact_row *f);
int store_facts_each(struct store *st, const int64_t *sessions, size_t n,
		     store_fact_fn fn, void *ctx, struct xr_err *err);

/*
 * Fact sets (schema version 12, schema/store.md "fact_sets") of the
 * sessions: one row per value, ordered by set id and key (a set without
 * values: one row, key and value NULL). factor and level are NULL for
 * the causes "open" and "migrated". Nothing for an older store read
 * without migrating. The strings live until fn returns.
 */
struct store_fact_set_row {
	int64_t set_id, session_id;
	const char *host, *cause, *factor, *level;
	double read_at; /* Unix s */
	const char *key, *value;
};
typedef int (*store_fact_set_fn)(void *ctx, const struct store_fact_set_row *f);
int store_fact_sets_each(struct store *st, const int64_t *sessions, size_t n,
			 store_fact_set_fn fn, void *ctx, struct xr_err *err);

/* The set each non-warm-up run of the sessions held under on each host
 * it used, ordered by run id and host. A run of a session stored before
 * version 12 has no row: its facts are its session's "migrated" sets. */
struct store_run_fact_row {
	int64_t run_id;
	const char *host;
	int64_t set_id;
};
typedef int (*store_run_fact_fn)(void *ctx, const struct store_run_fact_row *f);
int store_run_facts_each(struct store *st, const int64_t *sessions, size_t n,
			 store_run_fact_fn fn, void *ctx, struct xr_err *err);

/* The facts of run run_id: every value of the sets it held under
 * (its session's migrated sets when it names none), ordered by host and
 * key, with the set each came from and why that set was read. */
struct store_run_value {
	const char *host, *key, *value;
	int64_t set_id;
	const char *cause, *factor, *level;
};
typedef int (*store_run_value_fn)(void *ctx, const struct store_run_value *v);
int store_facts_of_run(struct store *st, int64_t run_id, store_run_value_fn fn,
		       void *ctx, struct xr_err *err);

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
 * direction, test_duration) and key "mtu@HOST" (what the nic.mtu probe
 * read on HOST). Ordered by key, cell, value. The engine type of the runs
 * is not here: store_runs_each has it. */
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

#endif
