/*
 * The one module that forks (after git's run-command.c and libuv's
 * process.c). Everything the child needs (resolved path, argv, environment,
 * file descriptors) is built before fork(); the child only calls
 * async-signal-safe functions and reports an exec failure through a
 * close-on-exec pipe. Every child leads its own process group, which is
 * recorded in a registry so that a deadline, an interrupt or exit can kill
 * the whole group, grandchildren included. The parent blocks in poll() on
 * the output pipes, a pidfd and the signal self-pipe with the deadline as
 * timeout: nothing spins while an engine runs.
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
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "proc_int.h"
#include "banned.h"

extern char **environ;

#define PROC_DEFAULT_MAX ((size_t)16 << 20)
#define PROC_DEFAULT_GRACE 2.0
/* How long output is still read after the leader exited while a
 * background grandchild keeps the pipes open. */
#define PROC_LINGER 0.5
#define PROC_MAX_GROUPS 256

volatile sig_atomic_t proc_interrupted;
volatile sig_atomic_t proc_interrupt_signo;

/* Live process groups (leader pid == pgid). Read by the signal handler,
 * so entries are plain ints written in one store. */
static volatile sig_atomic_t groups[PROC_MAX_GROUPS];
static int sig_pipe[2] = {-1, -1};
static int subreaper_done;
static int atexit_done;

double proc_now_mono(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double proc_now_wall(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void group_add(pid_t pgid)
{
	int i;
	for (i = 0; i < PROC_MAX_GROUPS; i++)
		if (groups[i] == 0) {
			groups[i] = pgid;
			return;
		}
	/* Full: the group is still killed by its own proc_run/proc_stop. */
}

void proc_int_group_del(pid_t pgid)
{
	int i;
	for (i = 0; i < PROC_MAX_GROUPS; i++)
		if (groups[i] == pgid)
			groups[i] = 0;
}

/* Reap what we can of a group: the leader (our child) and, because we are
 * a child subreaper, members orphaned by it. Records the leader status. */
static void group_reap(pid_t pgid, int *leader_status, int *leader_reaped)
{
	int st;
	pid_t r;
	for (;;) {
		r = waitpid(-pgid, &st, WNOHANG);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (r == pgid && leader_status) {
			*leader_status = st;
			*leader_reaped = 1;
		}
	}
}

/* 1 while any process of the group exists (zombies we cannot reap
 * included: an init that never reaps would otherwise make us wait). */
int proc_int_group_exists(pid_t pgid)
{
	return kill(-pgid, 0) == 0 || errno == EPERM;
}

/* TERM the group, wait up to grace for it to vanish, then KILL it. Only
 * this phase polls the group (every 20 ms): there is no event for "the
 * last member of a group exited". */
void proc_int_terminate(pid_t pgid, double grace, int *leader_status,
			int *leader_reaped)
{
	double end;
	int killed = 0;
	if (grace <= 0)
		grace = PROC_DEFAULT_GRACE;
	kill(-pgid, SIGTERM);
	kill(-pgid, SIGCONT);
	end = proc_now_mono() + grace;
	for (;;) {
		group_reap(pgid, leader_status, leader_reaped);
		if (!proc_int_group_exists(pgid))
			break;
		if (!killed && proc_now_mono() >= end) {
			kill(-pgid, SIGKILL);
			killed = 1;
			end = proc_now_mono() + 2.0;
		} else if (killed && proc_now_mono() >= end) {
			break; /* unreapable zombies: nothing more to do */
		}
		poll(NULL, 0, 20);
	}
	/* The leader may be our zombie even though the group looked gone. */
	group_reap(pgid, leader_status, leader_reaped);
	if (leader_reaped && !*leader_reaped) {
		int st;
		pid_t r;
		do
			r = waitpid(pgid, &st, 0);
		while (r < 0 && errno == EINTR);
		if (r == pgid) {
			*leader_status = st;
			*leader_reaped = 1;
		}
	}
	proc_int_group_del(pgid);
}

void proc_kill_all(void)
{
	int i;
	for (i = 0; i < PROC_MAX_GROUPS; i++) {
		pid_t g = groups[i];
		if (g > 0) {
			int st = 0, reaped = 0;
			proc_int_terminate(g, 1.0, &st, &reaped);
			groups[i] = 0;
		}
	}
}

static void on_signal(int sig)
{
	int saved = errno, i;
	if (proc_interrupted) {
		/* Second signal: the user insists. Kill everything now. */
		for (i = 0; i < PROC_MAX_GROUPS; i++)
			if (groups[i] > 0)
				kill(-(pid_t)groups[i], SIGKILL);
		_exit(128 + sig);
	}
	proc_interrupted = 1;
	proc_interrupt_signo = sig;
	if (sig_pipe[1] >= 0) {
		ssize_t n = write(sig_pipe[1], "x", 1);
		(void)n;
	}
	errno = saved;
}

static void ensure_atexit(void)
{
	if (!atexit_done) {
		atexit_done = 1;
		atexit(proc_kill_all);
	}
}

void proc_install_signal_handlers(void)
{
	struct sigaction sa;
	if (sig_pipe[0] < 0 && pipe2(sig_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		sig_pipe[0] = sig_pipe[1] = -1;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: blocking calls see EINTR. SIGHUP is left alone so
	 * that a run started under nohup survives its terminal. */
	sa.sa_flags = 0;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	ensure_atexit();
}

static void drain_sig_pipe(void)
{
	char b[64];
	if (sig_pipe[0] >= 0)
		while (read(sig_pipe[0], b, sizeof b) > 0)
			;
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

/* Fork and exec. Returns the pid, or -1 with *exec_errno set when the
 * command could not be started (the child has then been reaped). */
pid_t proc_int_spawn(const char *path, const char *const *argv, char **env,
		     const struct child_fds *fds, int *exec_errno)
{
	int ep[2], e = 0, i;
	struct sigaction hup;
	sigset_t all, old;
	pid_t pid, parent = getpid();
	ssize_t n;

	if (!subreaper_done) {
		/* Orphaned grandchildren come back to us so that their
		 * group can be reaped and checked for survivors. */
		prctl(PR_SET_CHILD_SUBREAPER, 1);
		subreaper_done = 1;
	}
	ensure_atexit();
	if (pipe2(ep, O_CLOEXEC) < 0) {
		*exec_errno = errno;
		return -1;
	}
	/* A SIGHUP ignored by nohup stays ignored for the children too. */
	sigaction(SIGHUP, NULL, &hup);
	/* No handler of ours may run in the child before it resets them. */
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &old);
	pid = fork();
	if (pid == 0) {
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = SIG_DFL;
		for (i = 1; i < NSIG; i++)
			if (i != SIGHUP || hup.sa_handler != SIG_IGN)
				sigaction(i, &sa, NULL);
		setpgid(0, 0);
		/* A SIGKILLed xrun runs no cleanup: the child goes with it.
		 * This matters most for ssh, where a surviving local client
		 * keeps a remote server alive for good; its death hangs up
		 * the remote pty. The check closes the race with a parent
		 * that died before the prctl. */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(128 + SIGTERM);
		if (fds->in >= 0 && dup2(fds->in, 0) < 0)
			goto fail;
		if (fds->out >= 0 && dup2(fds->out, 1) < 0)
			goto fail;
		if (fds->err >= 0 && dup2(fds->err, 2) < 0)
			goto fail;
		sigemptyset(&all);
		sigprocmask(SIG_SETMASK, &all, NULL);
		execve(path, (char *const *)argv, env);
	fail:
		e = errno;
		n = write(ep[1], &e, sizeof e);
		(void)n;
		_exit(127);
	}
	if (pid < 0) {
		*exec_errno = errno;
		sigprocmask(SIG_SETMASK, &old, NULL);
		close(ep[0]);
		close(ep[1]);
		return -1;
	}
	/* Both sides set the group so that kill(-pid) works at once. */
	setpgid(pid, pid);
	group_add(pid);
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(ep[1]);
	do
		n = read(ep[0], &e, sizeof e);
	while (n < 0 && errno == EINTR);
	close(ep[0]);
	if (n == (ssize_t)sizeof e) {
		int st;
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		proc_int_group_del(pid);
		*exec_errno = e;
		return -1;
	}
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
static void exec_failure_text(const char *name, int e, struct buf *b)
{
	buf_reset(b);
	buf_addf(b, "cannot execute '%s': %s", name, strerror(e));
}

int proc_run(const struct proc_opts *o, struct proc_result *res,
	     struct xr_err *err)
{
	struct buf path = BUF_INIT, out = BUF_INIT, errb = BUF_INIT;
	int op[2] = {-1, -1}, xp[2] = {-1, -1}, ip[2] = {-1, -1};
	int in_fd = -1, pidfd = -1, status = 0, reaped = 0, rc = 0;
	size_t cap = o->max_output ? o->max_output : PROC_DEFAULT_MAX;
	size_t in_len = o->stdin_data ? strlen(o->stdin_data) : 0, in_off = 0;
	double t0, deadline, linger = 0, kill_at = 0;
	enum proc_status killed_as = PROC_EXITED;
	struct child_fds fds;
	struct sigaction ign, old_pipe;
	char **env = NULL;
	pid_t pid;
	int e = 0;

	memset(res, 0, sizeof *res);
	res->exit_code = -1;
	res->started_at = proc_now_wall();
	t0 = proc_now_mono();
	if (!o->argv || !o->argv[0])
		return xr_err_set(err, XR_EINTERNAL, NULL, 0, 0,
				  "empty command line");
	if (proc_interrupted) {
		res->status = PROC_INTERRUPTED;
		goto out;
	}
	if (proc_int_resolve(o->argv[0], &path) < 0) {
		res->status = PROC_EXEC_FAILED;
		res->exec_errno = ENOENT;
		goto out;
	}
	env = proc_int_env(o->env);
	if (!env || pipe2(op, O_CLOEXEC) < 0 ||
	    (!o->stderr_to_stdout && pipe2(xp, O_CLOEXEC) < 0)) {
		rc = xr_err_set(err, XR_EIO, NULL, 0, 0,
				"cannot create pipes for '%s': %s", o->argv[0],
				strerror(errno));
		goto out;
	}
	if (o->tty_stdin)
		in_fd = -1;
	else if (o->stdin_data) {
		if (pipe2(ip, O_CLOEXEC) < 0) {
			rc = xr_err_set(err, XR_EIO, NULL, 0, 0,
					"cannot create a pipe: %s",
					strerror(errno));
			goto out;
		}
		in_fd = ip[0];
		fcntl(ip[1], F_SETFL, O_NONBLOCK);
	} else
		in_fd = proc_int_devnull(O_RDONLY);
	fds.in = in_fd; /* -1 with tty_stdin: the child inherits ours */
	fds.out = op[1];
	fds.err = o->stderr_to_stdout ? op[1] : xp[1];

	/* A child that exits before reading its stdin must not kill us. */
	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &ign, &old_pipe);

	pid = proc_int_spawn(path.s, o->argv, env, &fds, &e);
	if (!o->tty_stdin && !o->stdin_data)
		close_fd(&in_fd);
	close_fd(&ip[0]);
	close_fd(&op[1]);
	close_fd(&xp[1]);
	if (pid < 0) {
		res->status = PROC_EXEC_FAILED;
		res->exec_errno = e;
		goto restore;
	}
	pidfd = pidfd_open_(pid);
	deadline = o->timeout > 0 ? t0 + o->timeout : 0;
	if (!o->stdin_data)
		close_fd(&ip[1]);

	for (;;) {
		struct pollfd pf[5];
		int np = 0, tmo = -1, i_out = -1, i_err = -1, i_in = -1,
		    i_pid = -1, i_sig = -1;
		double now = proc_now_mono();

		/* Once the leader is reaped its status stands: an interrupt or
		 * the deadline only cut the wait for lingering output. */
		if (proc_interrupted) {
			if (!reaped)
				killed_as = PROC_INTERRUPTED;
			break;
		}
		if (deadline && now >= deadline) {
			if (!reaped)
				killed_as = PROC_TIMEOUT;
			break;
		}
		if (op[0] < 0 && xp[0] < 0 && reaped)
			break;
		if (reaped && linger && now >= linger)
			break;
		if (op[0] >= 0) {
			i_out = np;
			pf[np++] = (struct pollfd){op[0], POLLIN, 0};
		}
		if (xp[0] >= 0) {
			i_err = np;
			pf[np++] = (struct pollfd){xp[0], POLLIN, 0};
		}
		if (ip[1] >= 0) {
			i_in = np;
			pf[np++] = (struct pollfd){ip[1], POLLOUT, 0};
		}
		if (pidfd >= 0 && !reaped) {
			i_pid = np;
			pf[np++] = (struct pollfd){pidfd, POLLIN, 0};
		}
		if (sig_pipe[0] >= 0) {
			i_sig = np;
			pf[np++] = (struct pollfd){sig_pipe[0], POLLIN, 0};
		}
		if (deadline)
			tmo = ms_until(deadline);
		if (reaped && linger) {
			int l = ms_until(linger);
			tmo = tmo < 0 || l < tmo ? l : tmo;
		}
		if (pidfd < 0 && !reaped && (tmo < 0 || tmo > 100))
			tmo = 100; /* no pidfd: fall back to checking */
		if (poll(pf, (nfds_t)np, tmo) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (i_out >= 0 && pf[i_out].revents)
			read_into(&op[0], &out, cap);
		if (i_err >= 0 && pf[i_err].revents)
			read_into(&xp[0], &errb, cap);
		if (i_in >= 0 && pf[i_in].revents) {
			ssize_t n = write(ip[1], o->stdin_data + in_off,
					  in_len - in_off);
			if (n > 0)
				in_off += (size_t)n;
			if ((n < 0 && errno != EAGAIN && errno != EINTR) ||
			    in_off >= in_len || (pf[i_in].revents & POLLERR))
				close_fd(&ip[1]);
		}
		if (i_sig >= 0 && pf[i_sig].revents)
			drain_sig_pipe();
		if (!reaped &&
		    (pidfd < 0 || (i_pid >= 0 && pf[i_pid].revents))) {
			group_reap(pid, &status, &reaped);
			if (reaped)
				linger = proc_now_mono() + PROC_LINGER;
		}
	}

	if (killed_as) {
		proc_int_terminate(pid, o->grace, &status, &reaped);
		kill_at = proc_now_mono();
		/* Whatever the dying group wrote is still worth keeping. */
		while (op[0] >= 0 || xp[0] >= 0) {
			struct pollfd pf[2];
			int np = 0;
			if (op[0] >= 0)
				pf[np++] = (struct pollfd){op[0], POLLIN, 0};
			if (xp[0] >= 0)
				pf[np++] = (struct pollfd){xp[0], POLLIN, 0};
			if (poll(pf, (nfds_t)np, 100) <= 0 ||
			    proc_now_mono() > kill_at + 0.5)
				break;
			if (op[0] >= 0)
				read_into(&op[0], &out, cap);
			if (xp[0] >= 0)
				read_into(&xp[0], &errb, cap);
		}
		res->status = killed_as;
	} else {
		if (!reaped) {
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			reaped = 1;
		}
		/* Background members that outlived the leader stay
		 * registered and die in proc_kill_all. */
		group_reap(pid, NULL, NULL);
		if (!proc_int_group_exists(pid))
			proc_int_group_del(pid);
		if (WIFEXITED(status)) {
			res->status = PROC_EXITED;
			res->exit_code = WEXITSTATUS(status);
		} else if (WIFSIGNALED(status)) {
			res->status = PROC_SIGNALED;
			res->signo = WTERMSIG(status);
		}
	}
	if (killed_as && WIFEXITED(status))
		res->exit_code = WEXITSTATUS(status);
	if (killed_as && WIFSIGNALED(status))
		res->signo = WTERMSIG(status);

restore:
	sigaction(SIGPIPE, &old_pipe, NULL);
out:
	close_fd(&op[0]);
	close_fd(&op[1]);
	close_fd(&xp[0]);
	close_fd(&xp[1]);
	close_fd(&ip[0]);
	close_fd(&ip[1]);
	if (!o->tty_stdin && !o->stdin_data)
		close_fd(&in_fd);
	close_fd(&pidfd);
	free(env);
	buf_release(&path);
	if (rc < 0) {
		buf_release(&out);
		buf_release(&errb);
		return rc;
	}
	if (res->status == PROC_EXEC_FAILED)
		exec_failure_text(o->argv[0], res->exec_errno, &errb);
	res->out = buf_detach(&out, &res->out_len);
	res->err = buf_detach(&errb, &res->err_len);
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

int proc_sleep(double s)
{
	double end = proc_now_mono() + s;
	for (;;) {
		struct pollfd pf = {sig_pipe[0], POLLIN, 0};
		int tmo;
		if (proc_interrupted)
			return -1;
		tmo = ms_until(end);
		if (tmo <= 0)
			return 0;
		if (poll(&pf, sig_pipe[0] >= 0 ? 1 : 0, tmo) > 0)
			drain_sig_pipe();
	}
}
