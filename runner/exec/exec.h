/*
 * The one call from the command line into the runner: exec_run takes a
 * loaded plan and the run's options, and does the rest of `xrun run`
 * (engine, matrix, schedule, the store under its lock, the session
 * decision, the run loop, the summary and the plan's report.output names)
 * and says how it went. Everything else in runner/exec (runctx.h and the
 * modules that share it) is private to this layer.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_EXEC_H
#define XR_EXEC_H

#include <stddef.h>
#include <stdint.h>

struct plan;
struct store;
struct buf;
struct xr_err;

/* `xrun run`'s exit status when every run of the session that ended is
 * ok but some measured with a setting verified wrong (docs/run.md, "Exit
 * codes"): they did not measure what the plan says. */
#define EXEC_EXIT_VERIFY_WRONG 5

/* --only FACTOR=LEVEL, as indexes into the plan. */
struct exec_only {
	int factor;
	uint32_t level;
};

/*
 * Writes one of the plan's report.output files once the session is over:
 * exec expands the file name (placeholders of the session), the caller
 * (which links the renderers) writes path from the store db for session.
 * Returns 0, or a negative XR_ code after printing a warning.
 */
typedef int (*exec_report_fn)(void *ctx, const char *db, int64_t session,
			      const char *path);

/*
 * Says, at the end of the run, what the session's stored values lack:
 * the caller (which links the report model) prints a line for each
 * declared metric without values (issue 35), from the store st, still
 * open, for session.
 */
typedef void (*exec_gaps_fn)(void *ctx, struct store *st, const struct plan *p,
			     int64_t session);

struct exec_opts {
	const char *plan_path; /* the plan's file; NULL: the embedded plan */
	const char *plan_text; /* its text, recorded in the store */
	const char *argv_json; /* the command line, stored with a new session */
	const char *db_path;   /* NULL: ./<plan name>.db */
	const struct exec_only *only; /* [nonly], borrowed */
	int nonly;
	int unattended; /* never prompt */
	int yes;	/* no confirmation before the first manual block */
	int new_session;
	int no_retry; /* failed and timed-out runs stay as they are */
	int quiet;
	/* --shard K/N: run only shard K (1-based) of N (runner/sched/shard.h);
	 * shard_n 0: the whole plan */
	uint32_t shard_k, shard_n;
	const char *testbed; /* --testbed: the shard's testbed name; NULL:
				its hosts' identities */
	double lock_wait;    /* --lock-wait: seconds to wait for a busy
				testbed (testbed.h) */
	exec_report_fn write_report; /* NULL: report.output is ignored */
	void *report_ctx;
	exec_gaps_fn say_gaps; /* NULL: nothing said; ctx report_ctx */
};

/* What this invocation did. */
struct exec_outcome {
	int64_t session_id;  /* 0 when no session was started or resumed */
	size_t nruns, ndone; /* of the session: scheduled, ended */
	size_t n_run, n_ok, n_failed, n_timeout, n_interrupted;
	size_t n_left; /* runs left pending (filter or manual block) */
	int failed;    /* some run of the session failed */
	int interrupted;
	int nbad_reports; /* report.output files that could not be written */
	/* ok runs of the session with a setting verified wrong, and with a
	 * setting applied but never verified (exec_verify_counts) */
	int64_t n_verify_wrong, n_unverified;
	int exit; /* the exit status of `xrun run` (docs/run.md) */
};

/*
 * Runs plan p as o says. Messages (the announcement, progress, warnings,
 * the summary, errors) go to stderr. Returns the exit status, also in
 * out->exit: 0 done (or nothing to do), 1 some run failed, 2 the plan or
 * the session is refused, 3 the environment, 130 interrupted.
 */
int exec_run(const struct plan *p, const struct exec_opts *o,
	     struct exec_outcome *out);

/*
 * The ok runs of a session that no verdict can stand on (schema/report.md,
 * "Verification"), from the store st and the session's plan p: *wrong,
 * those with a setting verified wrong; *unverified, those in which a
 * setting (a factor with an apply hook or a manual step) was applied but
 * never verified. names (may be NULL) gets the settings without a verify
 * ("queue, mtu"). What `xrun run`'s summary and exit status and `xrun
 * status` say. 0 or a negative code (err).
 */
int exec_verify_counts(struct store *st, const struct plan *p, int64_t session,
		       int64_t *wrong, int64_t *unverified, struct buf *names,
		       struct xr_err *err);

/*
 * The idle lead-in before each run's engine while the samplers watch the
 * link (schema/plan.md, `sample:`): 0.2 s (sampler_lead_s); 0 with
 * `sample: off` or `counters: none` (nothing sampled); the latency
 * probe's idle phase when it is longer (schema/plan.md, `latency:`). What
 * the run loop waits and what `xrun plan` counts in its estimate.
 */
double exec_lead_in(const struct plan *p);
/*
 * The wait before each run's engine: `settle` and the lead-in overlap
 * (the samplers start that much before the settle ends), so a run waits
 * the longer of the two, not their sum.
 */
double exec_wait_before(const struct plan *p);
/*
 * The engine's seconds for one run of cell lv (a level index per factor;
 * NULL: the plan's defaults): duration + omit, each as the plan says or
 * as a factor's level sets it (`param: duration`, or `duration:` in the
 * level's `params:`). estimate.c.
 */
double exec_run_seconds(const struct plan *p, const uint32_t *lv);

#endif
