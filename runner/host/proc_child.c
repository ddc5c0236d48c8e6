/*
 * Starting a child without copying xrun (proc_int_start_child): the proc
 * module's one fork. A fork() copies the page tables of the whole parent,
 * which is most of the cost of a short run once xrun holds a large
 * schedule; clone(CLONE_VM | CLONE_VFORK) on a small stack of its own
 * (what glibc's posix_spawn does) shares the parent's memory until the
 * child has called execve, and suspends the parent until then.
 * posix_spawn itself cannot set PR_SET_PDEATHSIG, hence this.
 *
 * The child shares memory with the suspended parent, so it writes only
 * its own stack and the err field of its argument block, and calls only
 * raw system calls (sigaction, setpgid, prctl, dup2, sigprocmask, execve,
 * _exit). The caller blocks every signal across the call, so no handler
 * of xrun's ever runs in the child; the child unblocks them just before
 * execve. An exec failure comes back in the argument block (the parent
 * resumes only once the child has exec'd or exited), and the child has
 * then been reaped.
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proc_int.h"
#include "banned.h"

/* Enough for the child's few calls; mapped once, reused by every start
 * (xrun starts one child at a time: the parent is suspended meanwhile). */
#define CHILD_STACK (64 * 1024)

struct child_args {
	const char *path;
	const char *const *argv;
	char **env;
	const struct child_fds *fds;
	pid_t parent;
	int keep_hup_ignored;
	sigset_t *unblock;
	volatile int err; /* set by the child when it cannot exec */
	int err_fd;	  /* and written here when >= 0 (start_forked) */
};

static int child_main(void *arg)
{
	struct child_args *a = arg;
	struct sigaction sa;
	int i;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	for (i = 1; i < NSIG; i++)
		if (i != SIGHUP || !a->keep_hup_ignored)
			sigaction(i, &sa, NULL);
	setpgid(0, 0);
	/* A SIGKILLed xrun runs no cleanup: the child goes with it. This
	 * matters most for ssh, where a surviving local client keeps a
	 * remote server alive for good; its death hangs up the remote pty.
	 * The check closes the race with a parent that died before the
	 * prctl. */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != a->parent)
		_exit(128 + SIGTERM);
	if (a->fds->in >= 0 && dup2(a->fds->in, 0) < 0)
		goto fail;
	if (a->fds->out >= 0 && dup2(a->fds->out, 1) < 0)
		goto fail;
	if (a->fds->err >= 0 && dup2(a->fds->err, 2) < 0)
		goto fail;
	sigprocmask(SIG_SETMASK, a->unblock, NULL);
	execve(a->path, (char *const *)a->argv, a->env);
fail:
	a->err = errno ? errno : ENOEXEC;
	if (a->err_fd >= 0 &&
	    write(a->err_fd, (const void *)&a->err, sizeof a->err) < 0)
		_exit(126); /* the parent sees EOF: no errno to give */
	_exit(127);
}

#if defined(__SANITIZE_THREAD__)
#define XR_TSAN_BUILD 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define XR_TSAN_BUILD 1
#endif
#endif
#ifdef XR_TSAN_BUILD
#include <fcntl.h>
/* ThreadSanitizer cannot follow a child that shares its parent's memory
 * (its clone interceptor fails a CHECK on CLONE_VM), so the TSan build
 * (tests/all.sh, the threaded unit tests) forks instead: the same
 * child_main in a copy, its exec errno back through a close-on-exec pipe
 * read until the exec closes it or the child exits. Never in a release
 * or any other build. */
static pid_t start_forked(struct child_args *a, int *exec_errno)
{
	int p[2], e = 0, st;
	ssize_t n;
	pid_t pid;
	if (pipe2(p, O_CLOEXEC) < 0) {
		*exec_errno = errno;
		return PROC_NO_PID;
	}
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		a->err_fd = p[1];
		child_main(a);
	}
	close(p[1]);
	if (pid < 0) {
		*exec_errno = errno;
		close(p[0]);
		return PROC_NO_PID;
	}
	while ((n = read(p[0], &e, sizeof e)) < 0 && errno == EINTR)
		;
	close(p[0]);
	if (n == (ssize_t)sizeof e && e) {
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		*exec_errno = e;
		return PROC_NO_PID;
	}
	*exec_errno = 0;
	return pid;
}
#endif

pid_t proc_int_start_child(const char *path, const char *const *argv,
			   char **env, const struct child_fds *fds,
			   int keep_hup_ignored, int *exec_errno)
{
	static char *stack;
	struct child_args a;
	sigset_t none;
	pid_t pid;

	if (!stack) {
		void *m = mmap(NULL, CHILD_STACK, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
		if (m == MAP_FAILED) {
			*exec_errno = errno;
			return PROC_NO_PID;
		}
		stack = m;
	}
	memset(&a, 0, sizeof a);
	a.path = path;
	a.argv = argv;
	a.env = env;
	a.fds = fds;
	a.parent = getpid();
	a.keep_hup_ignored = keep_hup_ignored;
	a.err_fd = -1;
	sigemptyset(&none);
	a.unblock = &none;
#ifdef XR_TSAN_BUILD
	return start_forked(&a, exec_errno);
#endif
	/* The stack grows down on every Linux target xrun builds for. */
	pid = clone(child_main, stack + CHILD_STACK,
		    CLONE_VM | CLONE_VFORK | SIGCHLD, &a);
	if (pid < 0) {
		*exec_errno = errno;
		return PROC_NO_PID;
	}
	if (a.err) {
		int st;
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		*exec_errno = a.err;
		return PROC_NO_PID;
	}
	*exec_errno = 0;
	return pid;
}
