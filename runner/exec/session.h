/*
 * A run's session: which session of the store `xrun run` continues, and its
 * status around the run loop. The latest unfinished session with the same
 * cells is resumed (finished runs kept, runs left 'running' or
 * 'interrupted' redone in their own row, failed and timed-out ones run
 * again the plan's `retry:` times), a plan whose cells changed under an
 * unfinished session is refused with what changed, a finished session
 * with the same cells is complete unless it has runs to retry; otherwise
 * a new session is made with every scheduled run pending. exec_run
 * (exec.c) prints the outcome.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_SESSION_H
#define XR_SESSION_H

#include <stddef.h>

#include "buf.h"
#include "store.h"
#include "xr_err.h"

struct runctx;

enum session_kind {
	SESSION_NEW,	  /* a new session, every run pending */
	SESSION_RESUMED,  /* the latest unfinished session, same cells, or a
			     finished one with runs to retry */
	SESSION_COMPLETE, /* the latest session is done, same cells, nothing
			     to retry: no-op */
	SESSION_CHANGED,  /* unfinished, cells differ: refused */
};

struct session_decision {
	enum session_kind kind;
	struct store_session last; /* the plan's latest session; id 0: none */
	struct buf changes; /* SESSION_CHANGED: "  factor 'x' added\n"... */
	size_t nretry; /* runs that had failed or timed out, to run again */
	size_t nkept;  /* such runs left as they are (--no-retry, retry: 0) */
};

/*
 * Records the plan (its file path, NULL when embedded, and text) in rc->st
 * and decides from the plan's latest session (rc->o->new_session: always a
 * new one). For NEW and RESUMED, sets rc->session_id and loads rc->ids and
 * rc->status (allocated here, freed by the caller). argv_json: the command
 * line, stored with a new session. 0, or a negative XR_ code with err set.
 * OUT: d, released with session_decision_release.
 */
int session_start(struct runctx *rc, const char *plan_path, const char *text,
		  const char *argv_json, struct session_decision *d,
		  struct xr_err *err);
void session_decision_release(struct session_decision *d);

/*
 * Make sure position i of the schedule has its row in runs (rc->ids[i]):
 * rows are inserted in schedule order, a batch at a time, when the run
 * loop reaches the first position without one (session_rows_upto). A new
 * session inserts only the first batch, so that starting a session of a
 * million runs does not insert a million rows. 0, or a negative XR_ code.
 */
int session_rows_upto(struct runctx *rc, size_t i, struct xr_err *err);

/* Runs this invocation means to execute (the ETA's denominator); their
 * engine seconds go to rc->est_todo. */
size_t session_count_todo(struct runctx *rc);

/* Marks the session running, executes the schedule (runloop_execute) and
 * marks it interrupted, incomplete or done. Returns runloop_execute's. */
int session_run(struct runctx *rc);

#endif
