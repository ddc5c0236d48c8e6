/*
 * Whether the reported sessions are finished (r->prog): a report read in
 * the morning may be of a night still running, or of one stopped half
 * way, and its top must say so rather than let "12: 2 ok, 0 failed, 10
 * other" pass for a result. Reads the run counts and session statuses
 * through the store's typed readers and asks the store whether an xrun
 * holds its lock now (the report itself takes none).
 *
 * SPDX-License-Identifier: MIT
 */
#include <string.h>
#include <unistd.h>

#include "model_loader.h"
#include "run_status.h"
#include "store.h"
#include "banned.h"

/* The statuses of the reported sessions, worst first. */
struct prog_scan {
	struct loader *l;
	int running, interrupted, incomplete;
};

static int in_report(const struct report *r, int64_t id)
{
	int i;
	for (i = 0; i < r->span.nsessions; i++)
		if (r->span.sessions[i] == id)
			return 1;
	return 0;
}

static int status_row(void *ctx, const struct store_session_row *s)
{
	struct prog_scan *p = ctx;
	if (!in_report(p->l->m.r, s->id) || !s->status)
		return 0;
	p->running += !strcmp(s->status, "running");
	p->interrupted += !strcmp(s->status, "interrupted");
	p->incomplete += !strcmp(s->status, "incomplete");
	return 0;
}

int loader_progress(struct loader *l, struct xr_err *err)
{
	struct report *r = l->m.r;
	struct prog_scan p = {l, 0, 0, 0};
	int64_t counts[STORE_RUN_STATUSES];
	long pid;
	int i, k, rc;

	memset(&r->prog, 0, sizeof r->prog);
	for (i = 0; i < r->span.nsessions; i++) {
		if ((rc = store_run_counts(l->st, r->span.sessions[i], counts,
					   err)) < 0)
			return rc;
		for (k = 0; k < STORE_RUN_STATUSES; k++) {
			r->prog.all += counts[k];
			if (run_status_done(k))
				r->prog.done += counts[k];
		}
	}
	if ((rc = store_sessions_each(l->st, status_row, &p, err)) < 0)
		return rc;
	if (r->prog.done >= r->prog.all)
		return 0; /* every run done, whatever a status says */
	/* A session left "running" is run now or was killed: the lock says
	 * which. The xrun writing its own session's report at its end holds
	 * the lock itself and has stopped running it. */
	pid = p.running ? store_lock_holder(r->about.db_path) : -1;
	if (pid >= 0 && pid != (long)getpid()) {
		r->prog.state = REPORT_STATE_RUNNING;
		r->prog.pid = pid;
	} else if (p.incomplete && !p.interrupted && !p.running) {
		r->prog.state = REPORT_STATE_INCOMPLETE;
	} else {
		r->prog.state = REPORT_STATE_INTERRUPTED;
	}
	return 0;
}
