/*
 * Background children (proc_spawn): an iperf3 server and the like, started
 * in its own registered process group with output sent to a log file, and
 * stopped as a group (SIGTERM, SIGKILL after grace), or one whose output
 * is read as it comes (proc_spawn_stream: a remote sampler). Forking
 * itself is proc.c's; this file only holds the handle's lifecycle.
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buf.h"
#include "proc_int.h"
#include "banned.h"

struct proc {
	pid_t pid;
	int status; /* waitpid status once reaped */
	int reaped;
	double grace;
};

/* Start o->argv with fds in, out, err (closed here in any case). */
static struct proc *spawn_fds(const struct proc_opts *o, int in, int out,
			      int errfd, struct xr_err *err)
{
	struct buf path = BUF_INIT;
	struct child_fds fds;
	struct proc *p = NULL;
	char **env = NULL;
	int e = 0;
	pid_t pid;

	if (proc_int_resolve(o->argv[0], &path) < 0) {
		xr_err_set(err, XR_EEXEC, NULL, 0, 0, "cannot execute '%s': %s",
			   o->argv[0], strerror(ENOENT));
		goto out;
	}
	env = proc_int_env(o->env);
	if (!env) {
		xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
		goto out;
	}
	fds.in = in;
	fds.out = out;
	fds.err = errfd;
	pid = proc_int_spawn(path.s, o->argv, env, &fds, &e);
	if (pid < 0) {
		xr_err_set(err, XR_EEXEC, NULL, 0, 0, "cannot execute '%s': %s",
			   o->argv[0], strerror(e));
		goto out;
	}
	p = calloc(1, sizeof *p);
	if (!p) {
		int st = 0, r = 0;
		proc_int_terminate(pid, 1.0, &st, &r);
		xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
		goto out;
	}
	p->pid = pid;
	p->grace = o->grace;
	proc_int_watch_add(pid, o->watch);
out:
	close(in);
	if (out != errfd)
		close(out);
	close(errfd);
	free(env);
	buf_release(&path);
	return p;
}

struct proc *proc_spawn(const struct proc_opts *o, const char *log_path,
			struct xr_err *err)
{
	int in, logfd;

	if (!o->argv || !o->argv[0]) {
		xr_err_set(err, XR_EINTERNAL, NULL, 0, 0, "empty command line");
		return NULL;
	}
	in = proc_int_devnull(O_RDONLY);
	if (log_path)
		logfd = open(log_path,
			     O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	else
		logfd = proc_int_devnull(O_WRONLY);
	if (in < 0 || logfd < 0) {
		xr_err_set(err, XR_EIO, log_path, 0, 0,
			   "cannot open the log of '%s': %s", o->argv[0],
			   strerror(errno));
		if (in >= 0)
			close(in);
		if (logfd >= 0)
			close(logfd);
		return NULL;
	}
	return spawn_fds(o, in, logfd, logfd, err);
}

/* Pipes for the child's stdout and stderr, and for its stdin when in_fd
 * is non-NULL (else /dev/null); the parent's ends in *in_fd, *out_fd,
 * *err_fd. */
static struct proc *spawn_piped(const struct proc_opts *o, int *in_fd,
				int *out_fd, int *err_fd, struct xr_err *err)
{
	int in = -1, pi[2] = {-1, -1}, po[2] = {-1, -1}, pe[2] = {-1, -1};
	struct proc *p;

	*out_fd = *err_fd = -1;
	if (in_fd)
		*in_fd = -1;
	if (!o->argv || !o->argv[0]) {
		xr_err_set(err, XR_EINTERNAL, NULL, 0, 0, "empty command line");
		return NULL;
	}
	if (in_fd && pipe2(pi, O_CLOEXEC) == 0)
		in = pi[0];
	else if (!in_fd)
		in = proc_int_devnull(O_RDONLY);
	if (in < 0 || pipe2(po, O_CLOEXEC) < 0 || pipe2(pe, O_CLOEXEC) < 0) {
		xr_err_set(err, XR_EIO, NULL, 0, 0,
			   "cannot make the pipes of '%s': %s", o->argv[0],
			   strerror(errno));
		if (in >= 0 && !in_fd)
			close(in);
		for (int k = 0; k < 2; k++) {
			if (pi[k] >= 0)
				close(pi[k]);
			if (po[k] >= 0)
				close(po[k]);
			if (pe[k] >= 0)
				close(pe[k]);
		}
		return NULL;
	}
	p = spawn_fds(o, in, po[1], pe[1], err);
	if (!p) {
		if (pi[1] >= 0)
			close(pi[1]);
		close(po[0]);
		close(pe[0]);
		return NULL;
	}
	if (in_fd)
		*in_fd = pi[1];
	*out_fd = po[0];
	*err_fd = pe[0];
	return p;
}

struct proc *proc_spawn_stream(const struct proc_opts *o, int *out_fd,
			       int *err_fd, struct xr_err *err)
{
	return spawn_piped(o, NULL, out_fd, err_fd, err);
}

struct proc *proc_spawn_pipes(const struct proc_opts *o, int *in_fd,
			      int *out_fd, int *err_fd, struct xr_err *err)
{
	return spawn_piped(o, in_fd, out_fd, err_fd, err);
}

int proc_alive(struct proc *p)
{
	if (!p)
		return 0;
	if (!p->reaped) {
		struct rusage ru;
		pid_t r;
		do
			r = wait4(p->pid, &p->status, WNOHANG, &ru);
		while (r < 0 && errno == EINTR);
		if (r == p->pid || (r < 0 && errno == ECHILD)) {
			p->reaped = 1; /* ECHILD: reaped by proc_kill_all */
			proc_int_watch_end(p->pid, r == p->pid ? &ru : NULL);
		}
	}
	return !p->reaped;
}

int proc_exit_status(struct proc *p)
{
	if (!p || proc_alive(p))
		return PROC_STILL_RUNNING;
	return p->status;
}

void proc_stop(struct proc *p)
{
	if (!p)
		return;
	if (!p->reaped || proc_int_group_exists(p->pid)) {
		int reaped = p->reaped;
		proc_int_terminate(p->pid, p->grace, &p->status, &reaped);
	}
	proc_int_group_del(p->pid);
	proc_int_watch_del(p->pid);
	free(p);
}

long proc_pid(const struct proc *p)
{
	return p ? (long)p->pid : -1;
}
