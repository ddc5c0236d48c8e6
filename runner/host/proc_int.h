/*
 * Internals of proc shared by proc.c (fork/exec, proc_run), proc_registry.c
 * (the live groups), proc_group.c (their kills, signals), proc_child.c,
 * proc_orphan.c and proc_spawn.c (background children). Not for other modules.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_PROC_INT_H
#define XR_PROC_INT_H

#include <sys/types.h>

#include "proc.h"

struct buf;

/* What proc_int_spawn and proc_int_start_child return when no child
 * runs (as fork() does; the reason is in *exec_errno). */
#define PROC_NO_PID ((pid_t)-1)

struct child_fds {
	int in, out, err; /* what the child gets as 0, 1, 2 (-1: inherit) */
};

/* Resolve argv[0] in PATH into out; -ENOENT when absent. */
int proc_int_resolve(const char *name, struct buf *out);
/* environ plus extra "K=V" entries. OUT: free() the array only. */
char **proc_int_env(const char *const *extra);
int proc_int_devnull(int flags);
/* Fork and exec in a new registered process group. Returns the pid, or
 * PROC_NO_PID with *exec_errno set (the child has then been reaped). */
pid_t proc_int_spawn(const char *path, const char *const *argv, char **env,
		     const struct child_fds *fds, int *exec_errno);
/* Start one child (proc_child.c): clone(CLONE_VM | CLONE_VFORK), then
 * in the child: signal handlers reset (SIGHUP stays ignored when
 * keep_hup_ignored), own process group, PR_SET_PDEATHSIG, fds as 0 1 2,
 * an empty signal mask, execve. The caller blocks every signal around the
 * call. Returns the pid once the child has exec'd, or PROC_NO_PID with
 * *exec_errno set (the child has then been reaped). */
pid_t proc_int_start_child(const char *path, const char *const *argv,
			   char **env, const struct child_fds *fds,
			   int keep_hup_ignored, int *exec_errno);
/* TERM the group, KILL after grace, reap what we can, unregister. */
void proc_int_terminate(pid_t pgid, double grace, int *leader_status,
			int *leader_reaped);
/* proc_registry.c: the live groups, at most PROC_MAX_GROUPS (a group past
 * them is still killed by its own proc_run/proc_stop). */
#define PROC_MAX_GROUPS 256
void proc_int_group_add(pid_t pgid);
void proc_int_group_del(pid_t pgid);
/* 1 when pgid is a registered group (its leader's pid). */
int proc_int_group_known(pid_t pgid);
/* Slot i (0 <= i < PROC_MAX_GROUPS) of the registry: a group, or 0 when
 * free. Async-signal-safe. */
pid_t proc_int_group_slot(int i);
/* proc_group.c: reaping, the kills and the signal self-pipe. */
/* Reap what we can of group pgid without waiting (the leader and the
 * members orphaned to us); the leader's status when it was reaped. */
void proc_int_group_reap(pid_t pgid, int *leader_status, int *leader_reaped);
/* proc_kill_all at exit, registered once. */
void proc_int_ensure_atexit(void);
/* The signal self-pipe's read end (-1: none), and emptying it. */
int proc_int_sig_fd(void);
void proc_int_drain_signals(void);
/* In the environment of a command whose orphans die when it ends. */
#define PROC_ORPHAN_MARK "XRUN_ORPHANS=kill"
/*
 * Children of ours outside every registered group (orphans a command left
 * running, handed to us as subreaper): those with PROC_ORPHAN_MARK in their
 * environment (all: every one, at exit) are killed with their group and
 * reaped, up to 8 of their pids appended to note (may be NULL). Returns
 * how many were killed. proc_orphan.c.
 */
int proc_int_orphans(int all, struct buf *note);
int proc_int_group_exists(pid_t pgid);
/* proc_watch.c: pid runs for the sampler of host label (NULL: no-op);
 * it was reaped, having used ru's CPU time (NULL: not known; a no-op for
 * a pid not watched or already ended); it is forgotten (proc_stop). */
struct rusage;
void proc_int_watch_add(pid_t pid, const char *label);
void proc_int_watch_end(pid_t pid, const struct rusage *ru);
void proc_int_watch_del(pid_t pid);

#endif
