/*
 * proc's process groups and signals: reaping a group, TERM-then-KILL of a
 * whole group, the kill of every registered group (proc_registry.c) and
 * then of every orphan at exit, and the SIGINT/SIGTERM/SIGHUP handler with
 * its self-pipe that wakes proc_run's poll(). The forking itself is
 * proc.c's and proc_child.c's.
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proc.h"
#include "proc_int.h"
#include "banned.h"

#define PROC_DEFAULT_GRACE 2.0

volatile sig_atomic_t proc_interrupted;
volatile sig_atomic_t proc_interrupt_signo;

static int sig_pipe[2] = {-1, -1};
static int atexit_done;

/* Reap what we can of a group: the leader (our child) and, because we are
 * a child subreaper, members orphaned by it. Records the leader status. */
void proc_int_group_reap(pid_t pgid, int *leader_status, int *leader_reaped)
{
	struct rusage ru;
	int st;
	pid_t r;
	for (;;) {
		r = wait4(-pgid, &st, WNOHANG, &ru);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (r == pgid)
			proc_int_watch_end(r, &ru);
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
		proc_int_group_reap(pgid, leader_status, leader_reaped);
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
	proc_int_group_reap(pgid, leader_status, leader_reaped);
	if (leader_reaped && !*leader_reaped) {
		struct rusage ru;
		int st;
		pid_t r;
		do
			r = wait4(pgid, &st, 0, &ru);
		while (r < 0 && errno == EINTR);
		if (r == pgid) {
			proc_int_watch_end(r, &ru);
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
		pid_t g = proc_int_group_slot(i);
		if (g > 0) {
			int st = 0, reaped = 0;
			/* unregisters g (proc_int_group_del) */
			proc_int_terminate(g, 1.0, &st, &reaped);
		}
	}
	proc_int_orphans(1, NULL);
}

/* Signals received, and whether xrun is putting things back (restore
 * hooks, on_finish) after an interrupt. */
static volatile sig_atomic_t sig_count;
static volatile sig_atomic_t sig_shield;

static void kill_groups_now(void)
{
	int i;
	for (i = 0; i < PROC_MAX_GROUPS; i++) {
		pid_t g = proc_int_group_slot(i);
		if (g > 0)
			kill(-g, SIGKILL);
	}
}

static void say(const char *msg)
{
	ssize_t n = write(2, msg, strlen(msg));
	(void)n;
}

/*
 * First signal: stop (the run in flight is killed with its group, TERM
 * then KILL). Second: the user insists: the engine's group is killed at
 * once, without the grace period, but the settings are still put back;
 * while they are, a second signal changes nothing. Third: quit at once.
 */
static void on_signal(int sig)
{
	int saved = errno;
	sig_count++;
	if (sig_count >= 3) {
		kill_groups_now();
		_exit(128 + sig);
	}
	if (sig_count == 2) {
		if (!sig_shield)
			kill_groups_now();
		say("\nxrun: stopping now; settings are still put back "
		    "(signal once more to quit at once)\n");
		errno = saved;
		return;
	}
	if (sig_shield) {
		errno = saved;
		return;
	}
	proc_interrupted = 1;
	proc_interrupt_signo = sig;
	if (sig_pipe[1] >= 0) {
		ssize_t n = write(sig_pipe[1], "x", 1);
		(void)n;
	}
	errno = saved;
}

void proc_int_ensure_atexit(void)
{
	if (!atexit_done) {
		atexit_done = 1;
		atexit(proc_kill_all);
	}
}

void proc_interrupt_shield(void)
{
	sig_shield = 1;
	proc_interrupted = 0;
}

void proc_install_signal_handlers(void)
{
	struct sigaction sa, hup;
	if (sig_pipe[0] < 0 && pipe2(sig_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		sig_pipe[0] = sig_pipe[1] = -1;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: blocking calls see EINTR. A hang-up (the terminal
	 * or ssh session gone) stops the run like SIGTERM, unless SIGHUP is
	 * ignored (nohup): then the run survives its terminal. */
	sa.sa_flags = 0;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (sigaction(SIGHUP, NULL, &hup) == 0 && hup.sa_handler != SIG_IGN)
		sigaction(SIGHUP, &sa, NULL);
	proc_int_ensure_atexit();
}

int proc_int_sig_fd(void)
{
	return sig_pipe[0];
}

void proc_int_drain_signals(void)
{
	char b[64];
	if (sig_pipe[0] >= 0)
		while (read(sig_pipe[0], b, sizeof b) > 0)
			;
}
