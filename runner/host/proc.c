/*
 * The one module that forks (after git's run-command.c and libuv's
 * process.c). Everything the child needs (resolved path, argv, environment,
 * file descriptors) is built before the child starts (proc_child.c:
 * clone(CLONE_VM | CLONE_VFORK), which does not copy xrun); the child only
 * makes raw system calls and reports an exec failure to the suspended
 * parent. Every child leads its own process group, which is
 * recorded in a registry (proc_registry.c) so that a deadline, an interrupt or
 * exit can kill the whole group, grandchildren included. The parent blocks in
 * poll() on the output pipes, a pidfd and the signal self-pipe with the
 * deadline as timeout: nothing spins while an engine runs.
 *
 * SPDX-License-Identifier: MIT
 */
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "proc_int.h"
#include "banned.h"

extern char **environ;

#define PROC_DEFAULT_MAX ((size_t)16 << 20)
/* How long output is still read after the leader exited while a
 * background grandchild keeps the pipes open. */
#define PROC_LINGER 0.5

static int subreaper_done;

int proc_loadavg(double *load1, int *cpus)
{
	double l[1];
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	if (getloadavg(l, 1) != 1 || n < 1)
		return -XR_EENV;
	*load1 = l[0];
	*cpus = (int)n;
	return 0;
}

/* Resolve argv[0] in PATH before fork (execvp may allocate). */
int proc_int_resolve(const char *name, struct buf *out)
{
	const char *path, *p, *e;
	if (!name || !*name)
		return -ENOENT;
	if (strchr(name, '/')) {
		buf_adds(out, name);
		return 0;
	}
	path = getenv("PATH");
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:"
		       "/sbin";
	for (p = path;; p = e + 1) {
		struct stat st;
		e = strchr(p, ':');
		if (!e)
			e = p + strlen(p);
		buf_reset(out);
		if (e == p)
			buf_adds(out, ".");
		else
			buf_add(out, p, (size_t)(e - p));
		buf_addc(out, '/');
		buf_adds(out, name);
		if (stat(out->s, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(out->s, X_OK) == 0)
			return 0;
		if (!*e)
			break;
	}
	buf_reset(out);
	return -ENOENT;
}

int proc_which(const char *name)
{
	struct buf b = BUF_INIT;
	int rc = proc_int_resolve(name, &b);
	if (rc == 0 && strchr(name, '/'))
		rc = access(b.s, X_OK) == 0 ? 0 : -1;
	buf_release(&b);
	return rc == 0;
}

/* environ plus the extra entries (an extra "K=V" replaces K). */
char **proc_int_env(const char *const *extra)
{
	size_t n = 0, ne = 0, i, j, k = 0;
	char **env;
	while (environ && environ[n])
		n++;
	while (extra && extra[ne])
		ne++;
	env = calloc(n + ne + 1, sizeof *env);
	if (!env)
		return NULL;
	for (i = 0; i < n; i++) {
		const char *eq = strchr(environ[i], '=');
		size_t kl = eq ? (size_t)(eq - environ[i]) : strlen(environ[i]);
		int replaced = 0;
		for (j = 0; j < ne; j++)
			if (!strncmp(extra[j], environ[i], kl) &&
			    extra[j][kl] == '=')
				replaced = 1;
		if (!replaced)
			env[k++] = environ[i];
	}
	for (j = 0; j < ne; j++)
		env[k++] = (char *)extra[j];
	env[k] = NULL;
	return env;
}

/* Start the child (proc_child.c) in a new registered process group.
 * Returns the pid, or -1 with *exec_errno set when the command could not
 * be started (the child has then been reaped). */
pid_t proc_int_spawn(const char *path, const char *const *argv, char **env,
		     const struct child_fds *fds, int *exec_errno)
{
	struct sigaction hup;
	sigset_t all, old;
	pid_t pid;

	if (!subreaper_done) {
		/* Orphaned grandchildren come back to us so that their
		 * group can be reaped and checked for survivors. */
		prctl(PR_SET_CHILD_SUBREAPER, 1);
		subreaper_done = 1;
	}
	proc_int_ensure_atexit();
	/* A SIGHUP ignored by nohup stays ignored for the children too. */
	sigaction(SIGHUP, NULL, &hup);
	/* No handler of ours may run in the child before it resets them. */
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &old);
	pid = proc_int_start_child(path, argv, env, fds,
				   hup.sa_handler == SIG_IGN, exec_errno);
	if (pid < 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		return PROC_NO_PID;
	}
	/* Both sides set the group so that kill(-pid) works at once. */
	setpgid(pid, pid);
	proc_int_group_add(pid);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return pid;
}

int proc_int_devnull(int flags)
{
	return open("/dev/null", flags | O_CLOEXEC);
}

static void close_fd(int *fd)
{
	if (*fd >= 0) {
		close(*fd);
		*fd = -1;
	}
}

static int pidfd_open_(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	errno = ENOSYS;
	return -1;
#endif
}

static void read_into(int *fd, struct buf *b, size_t cap)
{
	char chunk[65536];
	ssize_t n = read(*fd, chunk, sizeof chunk);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		close_fd(fd);
		return;
	}
	/* Past the cap the data is read and dropped so the child never
	 * blocks on a full pipe. */
	if (b->len < cap)
		buf_add(b, chunk,
			(size_t)n > cap - b->len ? cap - b->len : (size_t)n);
	if (b->len >= cap && (size_t)n > 0)
		b->truncated = 1;
}

static int ms_until(double t)
{
	double d = t - proc_now_mono();
	if (d <= 0)
		return 0;
	if (d > 1e6)
		return 1000000000;
	return (int)(d * 1000.0) + 1;
}

/* On exec failure stderr carries the reason, so that whoever stores the
 * run's stderr also stores why it never ran. */
static void proc_exec_failure_text(const char *name, int e, struct buf *b)
{
	buf_reset(b);
	buf_addf(b, "cannot execute '%s': %s", name, strerror(e));
}

/* One child as proc_run watches it: the parent's pipe ends, its output so
 * far, and where it stands. */
struct child {
	pid_t pid;
	int pidfd;
	int op[2], xp[2], ip[2]; /* stdout, stderr, stdin pipes; -1 closed */
	int devnull;		 /* stdin when there is no stdin_data */
	const char *in_data;
	size_t in_len, in_off;
	struct buf out, err;
	size_t cap;	 /* most bytes kept of each stream */
	double deadline; /* 0: none */
	double linger;	 /* after the leader exits: stop waiting for output */
	int status, reaped;
};

static void child_init(struct child *c, const struct proc_opts *o)
{
	memset(c, 0, sizeof *c);
	c->pid = -1;
	c->pidfd = c->devnull = -1;
	c->op[0] = c->op[1] = c->xp[0] = c->xp[1] = c->ip[0] = c->ip[1] = -1;
	c->in_data = o->stdin_data;
	c->in_len = o->stdin_data ? strlen(o->stdin_data) : 0;
	c->cap = o->max_output ? o->max_output : PROC_DEFAULT_MAX;
}

static void child_close(struct child *c)
{
	close_fd(&c->op[0]);
	close_fd(&c->op[1]);
	close_fd(&c->xp[0]);
	close_fd(&c->xp[1]);
	close_fd(&c->ip[0]);
	close_fd(&c->ip[1]);
	close_fd(&c->devnull);
	close_fd(&c->pidfd);
}

/* The pipes of the child and what it gets as 0, 1 and 2 (fds). */
static int open_pipes(const struct proc_opts *o, struct child *c,
		      struct child_fds *fds, struct xr_err *err)
{
	if (pipe2(c->op, O_CLOEXEC) < 0 ||
	    (!o->stderr_to_stdout && pipe2(c->xp, O_CLOEXEC) < 0))
		return xr_err_set(err, XR_EIO, NULL, 0, 0,
				  "cannot create pipes for '%s': %s",
				  o->argv[0], strerror(errno));
	if (o->tty_stdin) {
		fds->in = -1; /* the child inherits ours */
	} else if (o->stdin_data) {
		if (pipe2(c->ip, O_CLOEXEC) < 0)
			return xr_err_set(err, XR_EIO, NULL, 0, 0,
					  "cannot create a pipe: %s",
					  strerror(errno));
		fds->in = c->ip[0];
		fcntl(c->ip[1], F_SETFL, O_NONBLOCK);
	} else {
		fds->in = c->devnull = proc_int_devnull(O_RDONLY);
	}
	/* Read ends never block: a read follows poll(), and a reader
	 * whose poll was cut short must not wait on a silent writer. */
	fcntl(c->op[0], F_SETFL, O_NONBLOCK);
	if (c->xp[0] >= 0)
		fcntl(c->xp[0], F_SETFL, O_NONBLOCK);
	fds->out = c->op[1];
	fds->err = o->stderr_to_stdout ? c->op[1] : c->xp[1];
	return 0;
}

/* What one poll() waits for, and where each fd sits in pf (-1: absent). */
struct pollset {
	struct pollfd pf[5];
	int n, out, err, in, pid, sig;
};

static int pollset_add(struct pollset *ps, int fd, short events)
{
	ps->pf[ps->n] = (struct pollfd){fd, events, 0};
	return ps->n++;
}

static void pollset_build(const struct child *c, struct pollset *ps)
{
	ps->n = 0;
	ps->out = ps->err = ps->in = ps->pid = ps->sig = -1;
	if (c->op[0] >= 0)
		ps->out = pollset_add(ps, c->op[0], POLLIN);
	if (c->xp[0] >= 0)
		ps->err = pollset_add(ps, c->xp[0], POLLIN);
	if (c->ip[1] >= 0)
		ps->in = pollset_add(ps, c->ip[1], POLLOUT);
	if (c->pidfd >= 0 && !c->reaped)
		ps->pid = pollset_add(ps, c->pidfd, POLLIN);
	if (proc_int_sig_fd() >= 0)
		ps->sig = pollset_add(ps, proc_int_sig_fd(), POLLIN);
}

/* Milliseconds poll() may wait: to the deadline or the end of the
 * linger, whichever is first; -1 for no limit. */
static int poll_timeout(const struct child *c)
{
	int tmo = -1;
	if (c->deadline)
		tmo = ms_until(c->deadline);
	if (c->reaped && c->linger) {
		int l = ms_until(c->linger);
		tmo = tmo < 0 || l < tmo ? l : tmo;
	}
	if (c->pidfd < 0 && !c->reaped && (tmo < 0 || tmo > 100))
		tmo = 100; /* no pidfd: fall back to checking */
	return tmo;
}

static void write_stdin(struct child *c, short revents)
{
	ssize_t n =
	    write(c->ip[1], c->in_data + c->in_off, c->in_len - c->in_off);
	if (n > 0)
		c->in_off += (size_t)n;
	if ((n < 0 && errno != EAGAIN && errno != EINTR) ||
	    c->in_off >= c->in_len || (revents & POLLERR))
		close_fd(&c->ip[1]);
}

/* Act on what poll() found ready. */
static void pollset_serve(struct child *c, const struct pollset *ps)
{
	if (ps->out >= 0 && ps->pf[ps->out].revents)
		read_into(&c->op[0], &c->out, c->cap);
	if (ps->err >= 0 && ps->pf[ps->err].revents)
		read_into(&c->xp[0], &c->err, c->cap);
	if (ps->in >= 0 && ps->pf[ps->in].revents)
		write_stdin(c, ps->pf[ps->in].revents);
	if (ps->sig >= 0 && ps->pf[ps->sig].revents)
		proc_int_drain_signals();
	if (!c->reaped &&
	    (c->pidfd < 0 || (ps->pid >= 0 && ps->pf[ps->pid].revents))) {
		proc_int_group_reap(c->pid, &c->status, &c->reaped);
		if (c->reaped)
			c->linger = proc_now_mono() + PROC_LINGER;
	}
}

/*
 * Feed stdin and collect output until the leader has exited and its
 * output is closed (or has lingered long enough). Returns PROC_EXITED, or
 * PROC_TIMEOUT / PROC_INTERRUPTED when the child must be killed. Once the
 * leader is reaped its status stands: an interrupt or the deadline only
 * cut the wait for lingering output.
 */
static enum proc_status watch_child(struct child *c)
{
	for (;;) {
		struct pollset ps;
		double now = proc_now_mono();

		if (proc_interrupted)
			return c->reaped ? PROC_EXITED : PROC_INTERRUPTED;
		if (c->deadline && now >= c->deadline)
			return c->reaped ? PROC_EXITED : PROC_TIMEOUT;
		if (c->op[0] < 0 && c->xp[0] < 0 && c->reaped)
			return PROC_EXITED;
		if (c->reaped && c->linger && now >= c->linger)
			return PROC_EXITED;
		pollset_build(c, &ps);
		if (poll(ps.pf, (nfds_t)ps.n, poll_timeout(c)) < 0) {
			if (errno == EINTR)
				continue;
			return PROC_EXITED;
		}
		pollset_serve(c, &ps);
	}
}

/* Kill the group; whatever the dying group wrote is still worth keeping. */
static void kill_and_drain(struct child *c, double grace)
{
	double kill_at;
	proc_int_terminate(c->pid, grace, &c->status, &c->reaped);
	kill_at = proc_now_mono();
	while (c->op[0] >= 0 || c->xp[0] >= 0) {
		struct pollfd pf[2];
		int np = 0, io = -1, ie = -1;
		if (c->op[0] >= 0) {
			io = np;
			pf[np++] = (struct pollfd){c->op[0], POLLIN, 0};
		}
		if (c->xp[0] >= 0) {
			ie = np;
			pf[np++] = (struct pollfd){c->xp[0], POLLIN, 0};
		}
		if (poll(pf, (nfds_t)np, 100) <= 0 ||
		    proc_now_mono() > kill_at + 0.5)
			break;
		/* Only a ready end is read: a process outside the group
		 * (ssh's ControlMaster holds a client's stdout and stderr)
		 * may keep the other open, silent, for ever. */
		if (io >= 0 && pf[io].revents)
			read_into(&c->op[0], &c->out, c->cap);
		if (ie >= 0 && pf[ie].revents)
			read_into(&c->xp[0], &c->err, c->cap);
	}
}

/* The leader exited by itself: reap it; background members that outlived
 * it stay registered and die in proc_kill_all. */
static void reap_exited(struct child *c)
{
	if (!c->reaped) {
		struct rusage ru;
		while (wait4(c->pid, &c->status, 0, &ru) < 0 && errno == EINTR)
			;
		c->reaped = 1;
		proc_int_watch_end(c->pid, &ru);
	}
	proc_int_group_reap(c->pid, NULL, NULL);
	if (!proc_int_group_exists(c->pid))
		proc_int_group_del(c->pid);
}

/* End the child as watch_child decided (killed_as) and say how it ended. */
static void finish_child(struct child *c, const struct proc_opts *o,
			 enum proc_status killed_as, struct proc_result *res)
{
	if (killed_as) {
		kill_and_drain(c, o->grace);
		res->status = killed_as;
	} else {
		reap_exited(c);
		if (WIFEXITED(c->status))
			res->status = PROC_EXITED;
		else if (WIFSIGNALED(c->status))
			res->status = PROC_SIGNALED;
	}
	if (WIFEXITED(c->status))
		res->exit_code = WEXITSTATUS(c->status);
	if (WIFSIGNALED(c->status))
		res->signo = WTERMSIG(c->status);
}

/* environ, o->env and, unless the command may leave daemons, the mark
 * that tells its orphans from others (proc_orphan.c). */
static char **run_env(const struct proc_opts *o)
{
	const char *extra[64];
	size_t n = 0;
	char **env;
	while (o->env && o->env[n] && n < 62) {
		extra[n] = o->env[n];
		n++;
	}
	if (!o->keep_daemons)
		extra[n++] = PROC_ORPHAN_MARK;
	extra[n] = NULL;
	env = proc_int_env(extra);
	return env;
}

/* What the command left running outside its group dies with it; its
 * stderr says so. */
static void reap_orphans(const struct proc_opts *o, struct buf *err)
{
	struct buf pids = BUF_INIT;
	int n;
	if (o->keep_daemons)
		return; /* what it left is marked as not ours to kill */
	n = proc_int_orphans(0, &pids);
	if (n > 0)
		buf_addf(err,
			 "%sxrun: killed %d process%s the command left "
			 "running in the background (pid %s)\n",
			 err->len && err->s[err->len - 1] != '\n' ? "\n" : "",
			 n, n == 1 ? "" : "es", pids.s);
	buf_release(&pids);
}

/* Start the child: SIGPIPE stays ignored (old_pipe keeps what it was) so
 * that a child that exits before reading its stdin cannot kill us. */
static void start_child(const struct proc_opts *o, struct child *c,
			const char *path, char **env,
			const struct child_fds *fds, struct sigaction *old_pipe,
			struct proc_result *res)
{
	struct sigaction ign;
	int e = 0;

	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &ign, old_pipe);
	c->pid = proc_int_spawn(path, o->argv, env, fds, &e);
	/* the child's ends are the child's now */
	close_fd(&c->devnull);
	close_fd(&c->ip[0]);
	close_fd(&c->op[1]);
	close_fd(&c->xp[1]);
	if (c->pid < 0) {
		res->status = PROC_EXEC_FAILED;
		res->exec_errno = e;
		return;
	}
	c->pidfd = pidfd_open_(c->pid);
	if (!o->stdin_data)
		close_fd(&c->ip[1]);
}

int proc_run(const struct proc_opts *o, struct proc_result *res,
	     struct xr_err *err)
{
	struct buf path = BUF_INIT;
	struct child c;
	struct child_fds fds;
	struct sigaction old_pipe;
	char **env = NULL;
	double t0;
	int rc = 0;

	memset(res, 0, sizeof *res);
	res->exit_code = -1;
	res->started_at = proc_now_wall();
	t0 = proc_now_mono();
	if (!o->argv || !o->argv[0])
		return xr_err_set(err, XR_EINTERNAL, NULL, 0, 0,
				  "empty command line");
	child_init(&c, o);
	if (proc_interrupted) {
		res->status = PROC_INTERRUPTED;
		goto out;
	}
	if (proc_int_resolve(o->argv[0], &path) < 0) {
		res->status = PROC_EXEC_FAILED;
		res->exec_errno = ENOENT;
		goto out;
	}
	if (!(env = run_env(o))) {
		rc = xr_err_set(err, XR_EIO, NULL, 0, 0,
				"cannot create pipes for '%s': %s", o->argv[0],
				strerror(errno));
		goto out;
	}
	if ((rc = open_pipes(o, &c, &fds, err)) < 0)
		goto out;
	start_child(o, &c, path.s, env, &fds, &old_pipe, res);
	if (c.pid >= 0) {
		c.deadline = o->timeout > 0 ? t0 + o->timeout : 0;
		proc_int_watch_add(c.pid, o->watch);
		finish_child(&c, o, watch_child(&c), res);
		/* reaped by now, its CPU time kept; or not known */
		proc_int_watch_end(c.pid, NULL);
		reap_orphans(o, &c.err);
	}
	sigaction(SIGPIPE, &old_pipe, NULL);
out:
	child_close(&c);
	free(env);
	buf_release(&path);
	if (rc < 0) {
		buf_release(&c.out);
		buf_release(&c.err);
		return rc;
	}
	if (res->status == PROC_EXEC_FAILED)
		proc_exec_failure_text(o->argv[0], res->exec_errno, &c.err);
	res->out_cut = c.out.truncated;
	res->err_cut = c.err.truncated;
	res->max_output = c.cap;
	res->out = buf_detach(&c.out, &res->out_len);
	res->err = buf_detach(&c.err, &res->err_len);
	res->elapsed = proc_now_mono() - t0;
	return 0;
}

void proc_result_release(struct proc_result *res)
{
	if (!res)
		return;
	free(res->out);
	free(res->err);
	res->out = res->err = NULL;
	res->out_len = res->err_len = 0;
}

const char *proc_describe(const struct proc_result *res, char *buf,
			  size_t bufsz)
{
	switch (res->status) {
	case PROC_EXITED:
		snprintf(buf, bufsz, "exited with status %d", res->exit_code);
		break;
	case PROC_SIGNALED:
		snprintf(buf, bufsz, "killed by SIG%s",
			 sigabbrev_np(res->signo) ? sigabbrev_np(res->signo)
						  : "?");
		break;
	case PROC_TIMEOUT:
		snprintf(buf, bufsz, "timed out after %.1f s", res->elapsed);
		break;
	case PROC_INTERRUPTED:
		snprintf(buf, bufsz, "interrupted");
		break;
	case PROC_EXEC_FAILED:
		if (res->err && !strncmp(res->err, "cannot execute '", 16))
			snprintf(buf, bufsz, "%s", res->err);
		else
			snprintf(buf, bufsz, "cannot execute: %s",
				 strerror(res->exec_errno));
		break;
	default:
		snprintf(buf, bufsz, "unknown status");
	}
	return buf;
}

int proc_poll(struct pollfd *pf, int n, double until)
{
	struct pollfd all[PROC_POLL_MAX + 1];
	int i, r, sig = proc_int_sig_fd();
	if (n < 0 || n > PROC_POLL_MAX)
		return -XR_EINTERNAL;
	for (;;) {
		int tmo = until > 0 ? ms_until(until) : -1, m = n;
		if (proc_interrupted || (until > 0 && tmo <= 0))
			return 0;
		for (i = 0; i < n; i++)
			all[i] = (struct pollfd){pf[i].fd, pf[i].events, 0};
		if (sig >= 0)
			all[m++] = (struct pollfd){sig, POLLIN, 0};
		r = poll(all, (nfds_t)m, tmo);
		if (r < 0 && errno != EINTR)
			return -XR_EINTERNAL;
		if (r <= 0)
			continue;
		if (sig >= 0 && all[n].revents) {
			proc_int_drain_signals();
			r--;
		}
		for (i = 0; i < n; i++)
			pf[i].revents = all[i].revents;
		if (r > 0)
			return r;
	}
}

int proc_latch_open(struct proc_latch *l)
{
	int fd[2];
	if (pipe2(fd, O_CLOEXEC) < 0)
		return -XR_ENOMEM;
	l->rd = fd[0];
	l->wr = fd[1];
	return 0;
}

void proc_latch_fire(struct proc_latch *l)
{
	if (l->wr >= 0)
		close(l->wr);
	l->wr = -1;
}

int proc_latch_wait(struct proc_latch *l, double until)
{
	struct pollfd pf = {.fd = l->rd, .events = POLLIN};
	int r = proc_poll(&pf, 1, until);
	if (r < 0)
		return r;
	if (r > 0)
		return 1;
	return proc_interrupted ? -XR_EINTR : 0;
}

void proc_latch_close(struct proc_latch *l)
{
	proc_latch_fire(l);
	if (l->rd >= 0)
		close(l->rd);
	l->rd = -1;
}

int proc_write_all(int fd, const char *text, size_t n, double until)
{
	struct sigaction ign, old;
	int rc = 0;
	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &ign, &old);
	while (n && rc == 0) {
		struct pollfd pf = {.fd = fd, .events = POLLOUT};
		ssize_t w;
		if (proc_poll(&pf, 1, until) <= 0 || !(pf.revents & POLLOUT)) {
			rc = -1;
			break;
		}
		w = write(fd, text, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			rc = -1;
		else {
			text += w;
			n -= (size_t)w;
		}
	}
	sigaction(SIGPIPE, &old, NULL);
	return rc;
}

int proc_sleep(double s)
{
	double end = proc_now_mono() + s;
	for (;;) {
		struct pollfd pf = {proc_int_sig_fd(), POLLIN, 0};
		int tmo;
		if (proc_interrupted)
			return -XR_EINTR;
		tmo = ms_until(end);
		if (tmo <= 0)
			return 0;
		if (poll(&pf, pf.fd >= 0 ? 1 : 0, tmo) > 0)
			proc_int_drain_signals();
	}
}
