/*
 * The state of one `xrun run`, shared by the runner's modules: session.c
 * (which session to continue, and its status), runloop.c (executing the
 * schedule), hooks.c (apply/verify/restore and manual steps), runctx.c
 * (hosts and template expansion, used by both), progress.c, and exec.c
 * (exec_run, which fills it). Private to runner/exec: other layers go
 * through exec.h.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_RUNCTX_H
#define XR_RUNCTX_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "cellctx.h"
#include "exec.h"
#include "matrix.h"
#include "shard.h"
#include "store.h"
#include "xr_err.h"
#include "xr_sched.h"

struct plan;
struct host;
struct buf;
struct engine_ops;
struct hooks_factor;
struct runfacts;
struct fact;

struct runctx {
	const struct plan *p;
	const struct exec_opts *o;
	struct matrix m;
	struct sched s;
	struct shard_plan shard; /* units of the schedule when o->shard_n */
	struct store *st;
	int64_t session_id;
	int64_t *ids;	  /* [s.nruns] run row ids by position; 0: no row
			     yet (positions rows_made and later) */
	size_t rows_made; /* positions 0 .. rows_made-1 have a row */
	uint8_t *status;  /* [s.nruns] enum run_status by position */
	/* [s.nruns] attempts left in this invocation for a run that had
	 * failed or timed out before it (plan retry:; 0: none) */
	uint8_t *retry;

	/* Hosts, by plan host index; NULL until a cell needs one
	 * (hostset.c). */
	struct host **hosts;
	char *need; /* [nhosts] the hosts the plan can use, in any cell
		       (cellctx_hosts_needed) */
	int client_hi, server_hi; /* of the current cell; -1 when none */
	char tmpdir[256];

	const struct engine_ops *eng;
	void *eng_state;
	int eng_open;
	int eng_client_hi, eng_server_hi; /* hosts the engine was opened on */
	int binary_checked;

	struct hooks_factor *hf;	 /* [p->nfactors] */
	struct store_verification *vbuf; /* this run's verifications */
	size_t nvbuf, vcap;
	uint32_t *manual_state; /* [nfactors] current manual levels */
	int manual_known;
	int interactive; /* prompts allowed (TTY and not --unattended) */

	/* Tally of this invocation. */
	size_t n_ok, n_failed, n_timeout, n_interrupted, n_run;
	size_t n_left; /* runs left pending (filter or manual block) */
	size_t n_blocks_left;
	double t_start, t_runs; /* wall time spent per executed run */
	size_t n_todo;		/* runs this invocation means to execute */
	/* their engine seconds (exec_run_seconds), and those of the runs
	 * executed so far: the ETA counts each run's own duration */
	double est_todo, est_done;
	size_t n_retried;    /* attempts of runs that had failed before */
	size_t n_retry_left; /* runs to retry left: a manual change first */
	size_t n_done0;	     /* runs of the session ended before it */
	int interrupted;
	/* The host the last run lost (hostset_lost), and since when. */
	int lost_hi;
	double lost_since;
	/* hooks_prepare: the cell's setup lost a host (lost_hi); what it was
	 * doing, e.g. "apply hook of factor 'cc'". */
	int setup_lost;
	char setup_what[160];
	int env_error;
	struct xr_err env_err;
	struct runfacts *rf; /* the fact set in effect per host (runfacts.c) */
	/* The testbed lock of a shard (testbed.c): its directory and the
	 * host holding it; -1 when not held. */
	struct buf lock_dir;
	int lock_hi;
	/* The search trial in flight (search_run.c): the run loop runs and
	 * stores it in its own row instead of the scheduled run's, with the
	 * load and duration set, and leaves the tallies to the search. */
	struct runctx_trial {
		int64_t row; /* 0: no trial */
		char load[40];
		double duration;
		int stored;  /* the run loop stored it (any status) */
		int status;  /* enum run_status it was stored with */
		double loss; /* its loss ratio; NAN when it has none */
		char reason[256];
	} trial;
};

/* runctx.c */

/* A placeholder lookup context (tmpl_lookup_fn): the shared cellctx
 * (schema/plan.md names), plus one factor whose value is overridden
 * (restore: true puts back a value that need not be a level). */
struct runctx_tmpl {
	struct cellctx c;
	int override_factor; /* -1 = none */
	const char *override;
};
/* lv may be NULL for plan-level templates (on_finish); run may be NULL. */
void runctx_tmpl_init(struct runctx_tmpl *t, struct runctx *rc,
		      const uint32_t *lv, size_t position);
void runctx_tmpl_release(struct runctx_tmpl *t);
const char *runctx_lookup(void *ctx, const char *name);
/* Expand a template argv. OUT: NULL-terminated, free with
 * runctx_argv_free. NULL with err set on an unknown placeholder. */
char **runctx_expand_argv(const char *const *tv, struct runctx_tmpl *t,
			  struct xr_err *err);
void runctx_argv_free(char **argv);
/* Expand one template into out (cleared first). */
int runctx_expand(const char *tpl, struct runctx_tmpl *t, struct buf *out,
		  struct xr_err *err);
/* The host a name in `on:` or the engine section means ("client" and
 * "server" are the current cell's); NULL when not open. */
struct host *runctx_host(struct runctx *rc, const char *name);
int runctx_host_index(const struct runctx *rc, const char *name);
/* Plan host index of role in cell lv (factor hosts: bindings), or -1;
 * lv NULL: the plan's defaults. */
int runctx_role_index(const struct runctx *rc, const char *role,
		      const uint32_t *lv);
/* Interface for hooks, counters and probes on host index hi
 * (cellctx_iface: the same answer `xrun plan` shows). */
const char *runctx_iface(const struct runctx *rc, int hi);
/* hostset.c: the hosts of a run, opened when a cell needs them. */
/* Allocates rc->hosts and the control directory. */
int hostset_init(struct runctx *rc, struct xr_err *err);
/* Open host hi unless open, recording its facts. -XR_EHOST with err. */
int hostset_get(struct runctx *rc, int hi, struct xr_err *err);
/* Set rc->client_hi/server_hi for cell lv and open every host it needs
 * (client, server, the on: hosts of factors with hooks). */
int hostset_cell(struct runctx *rc, const uint32_t *lv, struct xr_err *err);
/* Forget host hi's connection (it is being rebooted). */
void hostset_drop(struct runctx *rc, int hi);
void hostset_release(struct runctx *rc);
/* Is open host hi what the new level needs? 0 yes; otherwise why. */
typedef int (*hostset_ready_fn)(struct runctx *rc, int hi, void *ctx,
				struct buf *why);
/* Wait up to timeout seconds for host hi to answer (ssh with backoff, a
 * progress line per attempt saying what it waits for: "booted into
 * windows11") and then for ready(). 0; -XR_ETIMEOUT with why set;
 * -XR_EINTR. */
int hostset_wait(struct runctx *rc, int hi, double timeout, const char *what,
		 hostset_ready_fn ready, void *ctx, struct buf *why);

/* runfacts.c: the facts each run held under (schema/store.md
 * "fact_sets"). */
int runfacts_init(struct runctx *rc);
void runfacts_release(struct runctx *rc);
/* The programs whose version is a host fact: the version command of the
 * engine p uses (runner/desc engine_version_of; none for `command`),
 * into out (room for 2, ended by a NULL key). */
struct facts_tool;
void runfacts_tools(const struct plan *p, struct facts_tool *out);
/* Host hi was opened and facts read whole (extra: more key, value pairs,
 * NULL-terminated): its set, caused by the manual step that touched it
 * (a reboot) or "open". */
void runfacts_opened(struct runctx *rc, int hi, const struct fact *facts,
		     size_t n, const char *const *extra);
/* An apply hook (manual 0) or a manual step (1) of factor f at level lv
 * touched host hi: its facts are read again before the next run. */
void runfacts_touch(struct runctx *rc, int hi, int manual, int factor,
		    uint32_t level);
/* Before a run of cell lv: read the touched hosts again and take the
 * reads of the run's verifications v; a new set where values changed. */
void runfacts_settle(struct runctx *rc, const uint32_t *lv,
		     const struct store_verification *v, size_t nv);
/* The set in effect on each host of cell lv, for store_run_record.facts;
 * *out valid until the next call. */
size_t runfacts_of_run(struct runctx *rc, const uint32_t *lv,
		       const struct store_run_fact **out);

/* After a run that did not end ok: the plan index of a host of cell lv
 * that no longer answers (host_check; why says what ssh said), or -1. */
int hostset_lost(struct runctx *rc, const uint32_t *lv, struct buf *why);
/* Wait for lost host hi as the plan's `reconnect:` says: the tries left
 * of *used (the run's tries so far, counted up), each wait twice the one
 * before up to max_wait. 0 when it answers again (open anew); -XR_EHOST
 * with why set to "host 'x' unreachable since HH:MM:SS after N tries
 * (last: ...)"; -XR_EINTR. */
int hostset_reconnect(struct runctx *rc, int hi, int *used, struct buf *why);

/* runloop.c */
int runloop_execute(struct runctx *rc);
/* Run position i (or the trial in rc->trial) until it is stored, waiting
 * for a lost host as the plan's reconnect: says. 0, -XR_EINTR, -XR_EENV. */
int runloop_one(struct runctx *rc, size_t i);
/* The row run i (or the trial in flight) is stored in. */
int64_t runctx_row(const struct runctx *rc, size_t i);

/* search_run.c: run position i as a rate search (schema/plan.md, "Rate
 * search"): its stored trials replayed, the next ones run and stored, the
 * search's run stored with what each goal found. 0, -XR_EINTR,
 * -XR_EENV. */
int search_execute(struct runctx *rc, size_t i);
/* The loss ratio of a trial's result (NAN with why when it has none). */
struct engine_result;
double search_trial_loss(const struct runctx *rc,
			 const struct engine_result *res, char *why,
			 size_t whysz);
/* Has a run with this status ended (ok, failed, timeout, skipped)? */
int runctx_run_done(uint8_t status);
/* Is run position i for this invocation to execute: not ended, or ended
 * failed or timed out with a retry left (rc->retry)? --only aside. */
int runctx_run_todo(const struct runctx *rc, size_t i);
/* Does cell lv match every --only FACTOR=LEVEL? */
int runctx_only_match(const struct runctx *rc, const uint32_t *lv);

/* hooks.c (and manual.c: manual steps, waiting for a rebooted host) */
int hooks_init(struct runctx *rc);
/* Bring automatic factors to the levels of run i (apply/verify on level
 * change) and return this run's verifications (valid until next call).
 * 0, HOOKS_LOST (an ssh host stopped answering during a hook: nothing of
 * it is stored, rc->lost_hi and rc->setup_what say which and where; the
 * run waits for the host as a run that lost it does), or -XR_EINTR. */
#define HOOKS_LOST 1
int hooks_prepare(struct runctx *rc, size_t i,
		  const struct store_verification **ver, size_t *nver);
/* Entering a block whose manual levels differ: prompt (interactive) or
 * announce (unattended), wait for the hosts a manual factor with `wait`
 * reboots and check them with its verify. Returns 0, 1 when the block is
 * left pending (a host did not come back; the reason is printed and
 * stored), or -XR_EINTR. */
int hooks_manual_enter(struct runctx *rc, size_t i, int first);
/* Can the manual step into run i's block happen without a person: does
 * every manual factor that changes wait for its host (a reboot that
 * something else starts)? */
int hooks_manual_unattended(const struct runctx *rc, size_t i);
/* Host hi was lost and is back: what its hooks applied may not be in
 * effect (an apply that failed with the connection), so the next run
 * applies its levels there again. */
void hooks_forget_host(struct runctx *rc, int hi);
/* Does factor f's verify pass on host hi for cell lv? 0 when it does or
 * when f has no verify there; -1 with why ("probe:os.release: expected
 * ..."). For a host coming back from a reboot. */
int hooks_verify_on(struct runctx *rc, int f, int hi, const uint32_t *lv,
		    struct buf *why);
/* Put back what apply changed (restore: true / restore argv). */
void hooks_restore(struct runctx *rc);
void hooks_release(struct runctx *rc);

/* stale.c: children a killed xrun left behind (see the file). */
void stale_note_children(struct store *st);
void stale_reap(const char *prev_lock_note, int quiet);

/* progress.c */
void progress_run_start(struct runctx *rc, size_t i); /* terminal only */
void progress_run_done(struct runctx *rc, size_t i, const char *status,
		       double primary, const char *unit, double elapsed);
void progress_clear(struct runctx *rc);
/* Seconds left in this invocation: the runs left, each its own engine
 * seconds plus what a run has cost beyond them so far; -1 before the
 * first run. */
double progress_eta(const struct runctx *rc);
/* "9.41 Gbit/s" */
void progress_fmt_value(double v, const char *unit, char *out, size_t n);

#endif
