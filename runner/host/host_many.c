/*
 * Several commands on one host started together and waited for together
 * (many-to-one load: N iperf3 clients against one server), without
 * threads: each is spawned through the one forking module with its stdout
 * and stderr on pipes (host_spawn_stream), the pipes are drained with
 * poll(2) until every child has exited, and a child still running at its
 * deadline (or on an interrupt) has its process group stopped (proc_stop:
 * SIGTERM, then SIGKILL). Each command's result is what host_run would
 * have given it.
 *
 * SPDX-License-Identifier: MIT
 */
#include "host.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buf.h"
#include "host_int.h"
#include "proc.h"
#include "banned.h"

struct many_child {
	struct proc *p;
	int fd[2];	 /* stdout, stderr; -1 once at their end */
	struct buf b[2]; /* what they gave, capped */
	double deadline; /* monotonic; 0: none */
	double ended;	 /* monotonic time it was reaped; 0: running */
	enum proc_status status;
	int wstatus;
};

static void drain(struct many_child *c, int i, size_t cap)
{
	if (buf_read_some(&c->b[i], c->fd[i]) == 0) {
		close(c->fd[i]);
		c->fd[i] = -1;
	}
	/* past the cap: keep reading (the child must not block on a full
	 * pipe) but keep only the first cap bytes */
	if (c->b[i].len > cap) {
		c->b[i].len = cap;
		c->b[i].s[cap] = '\0';
		c->b[i].truncated = 1;
	}
}

/* When the next pass must look even if no pipe speaks: the nearest
 * deadline; 50 ms from now while a running child has closed both pipes
 * (its exit makes no event: it is checked); 0 (none) otherwise, an
 * interrupt waking proc_poll through the signal pipe. */
static double wake_at(const struct many_child *c, int n, double now)
{
	double t = 0;
	for (int k = 0; k < n; k++) {
		int open = c[k].fd[0] >= 0 || c[k].fd[1] >= 0;
		double d = c[k].deadline;
		if (!c[k].ended && !open)
			d = d > 0 && d < now + 0.05 ? d : now + 0.05;
		else if (c[k].ended && !open)
			continue;
		if (d > 0 && (t == 0 || d < t))
			t = d;
	}
	return t;
}

/* One pass: wait for output (or the next deadline), read what came, reap
 * the children that ended, stop the ones past their deadline. The number
 * of children still running or with a pipe open. */
static int step(struct many_child *c, int n, size_t cap)
{
	struct pollfd pf[2 * HOST_MANY_MAX];
	int who[2 * HOST_MANY_MAX], np = 0, k, i, busy = 0;
	double now;

	for (k = 0; k < n; k++)
		for (i = 0; i < 2; i++)
			if (c[k].fd[i] >= 0) {
				pf[np].fd = c[k].fd[i];
				pf[np].events = POLLIN;
				pf[np].revents = 0;
				who[np++] = 2 * k + i;
			}
	if (proc_poll(pf, np, wake_at(c, n, proc_now_mono())) > 0)
		for (i = 0; i < np; i++)
			if (pf[i].revents)
				drain(&c[who[i] / 2], who[i] % 2, cap);
	now = proc_now_mono();
	for (k = 0; k < n; k++) {
		struct many_child *ck = &c[k];
		if (!ck->ended && !proc_alive(ck->p)) {
			ck->ended = now;
			ck->wstatus = proc_exit_status(ck->p);
		} else if (!ck->ended &&
			   (proc_interrupted ||
			    (ck->deadline > 0 && now >= ck->deadline))) {
			ck->status =
			    proc_interrupted ? PROC_INTERRUPTED : PROC_TIMEOUT;
			proc_stop(ck->p); /* the group: TERM, then KILL */
			ck->p = NULL;
			ck->ended = now;
		}
		/* a child that ended leaves its pipes to a daemon of its
		 * own at most until its deadline */
		if (ck->ended && ck->deadline > 0 && now >= ck->deadline)
			for (i = 0; i < 2; i++)
				if (ck->fd[i] >= 0) {
					close(ck->fd[i]);
					ck->fd[i] = -1;
				}
		busy += !ck->ended || ck->fd[0] >= 0 || ck->fd[1] >= 0;
	}
	return busy;
}

static void finish(struct host *h, const struct proc_opts *o,
		   struct many_child *c, double t0, double wall0,
		   struct proc_result *res)
{
	memset(res, 0, sizeof *res);
	res->started_at = wall0;
	res->elapsed = c->ended - t0;
	res->max_output = o->max_output ? o->max_output : 16u << 20;
	res->status = c->status;
	res->exit_code = -1;
	if (c->status == PROC_EXITED) {
		if (WIFEXITED(c->wstatus)) {
			res->exit_code = WEXITSTATUS(c->wstatus);
		} else if (WIFSIGNALED(c->wstatus)) {
			res->status = PROC_SIGNALED;
			res->signo = WTERMSIG(c->wstatus);
		}
	}
	res->out_cut = c->b[0].truncated;
	res->err_cut = c->b[1].truncated;
	res->out = buf_detach(&c->b[0], &res->out_len);
	res->err = buf_detach(&c->b[1], &res->err_len);
	if (h->ops->finish)
		h->ops->finish(h, o, res);
}

static void many_release(struct many_child *c, int n)
{
	int k, i;
	for (k = 0; k < n; k++) {
		for (i = 0; i < 2; i++) {
			if (c[k].fd[i] >= 0)
				close(c[k].fd[i]);
			buf_release(&c[k].b[i]);
		}
		if (c[k].p)
			proc_stop(c[k].p);
	}
}

int host_run_many(struct host *h, const struct proc_opts *o, int n,
		  struct proc_result *res, struct xr_err *err)
{
	struct many_child c[HOST_MANY_MAX];
	size_t cap;
	double t0, wall0;
	int k, i, rc = 0;

	if (n < 1 || n > HOST_MANY_MAX)
		return xr_err_set(err, XR_EINTERNAL, NULL, 0, 0,
				  "host_run_many: %d commands (1 to %d)", n,
				  HOST_MANY_MAX);
	memset(c, 0, sizeof c);
	for (k = 0; k < n; k++)
		c[k].fd[0] = c[k].fd[1] = -1;
	t0 = proc_now_mono();
	wall0 = proc_now_wall();
	for (k = 0; k < n && rc == 0; k++) {
		c[k].p =
		    host_spawn_stream(h, &o[k], &c[k].fd[0], &c[k].fd[1], err);
		if (!c[k].p) {
			rc = err && err->code ? -err->code : -XR_EENV;
			break;
		}
		for (i = 0; i < 2; i++)
			(void)fcntl(c[k].fd[i], F_SETFL,
				    fcntl(c[k].fd[i], F_GETFL) | O_NONBLOCK);
		if (o[k].timeout > 0)
			c[k].deadline = t0 + o[k].timeout + h->ops->margin;
	}
	if (rc < 0) { /* stop what started: nothing runs half a set */
		many_release(c, n);
		return rc;
	}
	cap = o[0].max_output ? o[0].max_output : 16u << 20;
	while (step(c, n, cap) > 0)
		;
	for (k = 0; k < n; k++)
		finish(h, &o[k], &c[k], t0, wall0, &res[k]);
	many_release(c, n);
	return 0;
}
