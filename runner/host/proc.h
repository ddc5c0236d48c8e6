/*
 * The one module that forks. Children run in their own process group with
 * a deadline on CLOCK_MONOTONIC; at the deadline (or on interrupt) the
 * whole group gets SIGTERM, then SIGKILL after a grace period. argv only,
 * never a shell. Output is captured (capped) even when the command fails.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_PROC_H
#define XR_PROC_H

#include <signal.h>
#include <stddef.h>

#include "xr_err.h"

enum proc_status {
	PROC_EXITED = 0,  /* exit_code is valid */
	PROC_SIGNALED,	  /* killed by signo (not by us) */
	PROC_TIMEOUT,	  /* we killed it at the deadline */
	PROC_INTERRUPTED, /* we killed it because of proc_interrupted */
	PROC_EXEC_FAILED, /* exec failed: exec_errno */
};

struct proc_opts {
	const char *const *argv; /* argv[0] searched in PATH */
	double timeout;		 /* seconds; <= 0 means no deadline */
	double grace;		 /* seconds between SIGTERM and SIGKILL; 0=2 */
	const char *stdin_data;	 /* written to stdin, or NULL (= /dev/null) */
	size_t max_output;	 /* cap per stream; 0 = 16 MiB */
	const char *const *env;	 /* extra "K=V" entries, or NULL */
	int stderr_to_stdout;
	int tty_stdin; /* child inherits our stdin (manual steps) */
	/* Processes the command leaves running outside its group are kept
	 * until xrun exits (ssh: its ControlMaster; a hook's daemon);
	 * otherwise they are killed as soon as it ends. */
	int keep_daemons;
	/* A host label: while the child runs, the in-process sampler of
	 * that host follows it (proc_watched; sampler.h: engine.cpu,
	 * engine.core); host_run and the host_spawn calls follow it on a
	 * Linux ssh host over there (host.h, host_watch_token). NULL: not
	 * followed. */
	const char *watch;
};

struct proc_result {
	enum proc_status status;
	int exit_code;
	int signo;
	int exec_errno;
	char *out; /* NUL-terminated stdout; caller frees via release */
	size_t out_len;
	char *err; /* NUL-terminated stderr */
	size_t err_len;
	/* The stream passed max_output: out/err hold its first bytes. */
	int out_cut, err_cut;
	size_t max_output; /* the cap that applied, bytes */
	double elapsed;	   /* seconds, monotonic */
	double started_at; /* wall clock, seconds since the epoch */
};

/* Run to completion. Returns 0 when the child was run and waited for (even
 * if it failed or timed out: see res->status), negative on setup errors. */
int proc_run(const struct proc_opts *o, struct proc_result *res,
	     struct xr_err *err);
void proc_result_release(struct proc_result *res);
/* "exited with status 1", "timed out after 12.0 s", "killed by SIGSEGV",
 * "cannot execute 'iperf3': No such file or directory" */
const char *proc_describe(const struct proc_result *res, char *buf,
			  size_t bufsz);

/* A background child (e.g. an iperf3 server). Output is sent to a file
 * when log_path is non-NULL, else discarded. */
struct proc;
struct proc *proc_spawn(const struct proc_opts *o, const char *log_path,
			struct xr_err *err);
/* The same with stdout and stderr on pipes: OUT: *out_fd, *err_fd, the
 * read ends (close-on-exec; the caller reads and closes them). The
 * caller enforces the deadline (proc_stop at it); the child dies with us
 * (PR_SET_PDEATHSIG) and at proc_kill_all. */
struct proc *proc_spawn_stream(const struct proc_opts *o, int *out_fd,
			       int *err_fd, struct xr_err *err);
/* The same with a pipe for stdin too: OUT: *in_fd, its write end
 * (close-on-exec; closing it is the child's EOF). A host session's
 * shell (host_session.c). */
struct proc *proc_spawn_pipes(const struct proc_opts *o, int *in_fd,
			      int *out_fd, int *err_fd, struct xr_err *err);
int proc_alive(struct proc *p); /* 1 while running */
/* proc_exit_status's answer while p runs: no waitpid status is negative. */
#define PROC_STILL_RUNNING (-1)
int proc_exit_status(
    struct proc *p); /* waitpid status, or PROC_STILL_RUNNING */
/* SIGTERM the group, SIGKILL after grace; reaps; frees p. */
void proc_stop(struct proc *p);
long proc_pid(const struct proc *p);

/* Set from a signal handler; a running proc_run kills its child's group
 * and returns PROC_INTERRUPTED. */
extern volatile sig_atomic_t proc_interrupted;
/* Install SIGINT/SIGTERM/SIGHUP handlers (SIGHUP only when not ignored,
 * as under nohup) that set proc_interrupted and remember the signal in
 * proc_interrupt_signo. A second signal kills every group at once, a third
 * exits at once. */
extern volatile sig_atomic_t proc_interrupt_signo;
void proc_install_signal_handlers(void);
/* After an interrupt, before putting settings back: clear
 * proc_interrupted so that the restore hooks run, and let a further
 * signal (short of the third) no longer interrupt them. */
void proc_interrupt_shield(void);
/* Kill (TERM, then KILL) every process group still running. atexit-safe. */
void proc_kill_all(void);

/* Is an executable called name in PATH? */
int proc_which(const char *name);
/* Monotonic and wall clock in seconds. */
double proc_now_mono(void);
double proc_now_wall(void);
/* This machine's 1-minute load average and online CPU count; -XR_EENV
 * when the system does not tell. */
int proc_loadavg(double *load1, int *cpus);
/* Sleep s seconds: 0; returns early (-XR_EINTR) when interrupted. */
int proc_sleep(double s);
/* poll(2) on pf[0..n) (n <= PROC_POLL_MAX; pf may be NULL when n is 0)
 * until one is ready or the monotonic time until (0: no limit); an
 * interrupt (proc_interrupted) wakes it at once through the signal pipe,
 * so a caller waiting on children needs no timer of its own. The number
 * of pf entries ready; 0 at until or on an interrupt; -XR_EINTERNAL when
 * poll fails. */
#define PROC_POLL_MAX 64
struct pollfd;
int proc_poll(struct pollfd *pf, int n, double until);
/*
 * A one-shot signal from a reader thread to a waiter, without polling: a
 * pipe whose write end the firing thread closes, so that the read end
 * polls readable from then on (proc_poll). open: 0, or -XR_ENOMEM (no
 * pipe); fire: idempotent, by one thread at a time; wait: 1 when fired,
 * 0 at the monotonic time until, -XR_EINTR on an interrupt (it wakes the
 * wait at once); close: after the firing thread is gone. A zeroed latch
 * ({0}) is not open: set both ends to -1 first.
 */
struct proc_latch {
	int rd, wr;
};
int proc_latch_open(struct proc_latch *l);
void proc_latch_fire(struct proc_latch *l);
int proc_latch_wait(struct proc_latch *l, double until);
void proc_latch_close(struct proc_latch *l);
/* A child started with proc_opts.watch: running, or ended since the
 * previous call with the CPU time it used in all (user + system, of all
 * its threads: wait4's rusage; NaN when it was not reaped by proc). */
struct proc_watch {
	long pid;
	int ended;
	double cpu_s;
};
/* The children started with watch == label, at most max of them into w:
 * how many. An ended one is in one answer only. Safe from any thread. */
int proc_watched(const char *label, struct proc_watch *w, int max);
/* Write all n bytes of text to the pipe fd (a child's stdin) by the
 * monotonic time until (0: no limit), waiting with proc_poll: 0, or -1
 * when the reader is gone (EPIPE: SIGPIPE is ignored meanwhile), the
 * time ran out or an interrupt came. */
int proc_write_all(int fd, const char *text, size_t n, double until);

#endif
