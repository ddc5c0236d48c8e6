/*
 * Orphans: processes a command left running outside its process group
 * (`setsid daemon &`, a double fork). xrun is a child subreaper
 * (PR_SET_CHILD_SUBREAPER, set before the first fork), so such a process
 * becomes xrun's child when its parent exits. After each command, every
 * child of xrun that is neither a registered group (the engine, an iperf3
 * server) nor a member of one, nor kept on purpose, is killed with its
 * group and reaped: nothing an engine run starts outlives the run. Kept
 * until xrun exits: what a command run through ssh leaves (its
 * ControlMaster; the far side's processes are the remote deadline's) and
 * what a hook starts (a daemon meant to last the session).
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buf.h"
#include "proc_int.h"
#include "banned.h"

#define ORPHAN_MAX 256
#define KEPT_MAX 64

/* Children kept on purpose; a child's pid cannot be reused before we
 * reap it, so the pid alone names it. */
static pid_t kept[KEPT_MAX];

static int is_kept(pid_t pid)
{
	int i;
	for (i = 0; i < KEPT_MAX; i++)
		if (kept[i] == pid)
			return 1;
	return 0;
}

static void keep(pid_t pid)
{
	int i;
	for (i = 0; i < KEPT_MAX; i++)
		if (kept[i] == 0) {
			kept[i] = pid;
			return;
		}
}

static void unkeep(pid_t pid)
{
	int i;
	for (i = 0; i < KEPT_MAX; i++)
		if (kept[i] == pid)
			kept[i] = 0;
}

/* Append the pids in a "children" file (space-separated) to out. */
static int read_children(const char *path, pid_t *out, int n, int max)
{
	char text[4096], *p, *end;
	FILE *f = fopen(path, "r");
	size_t len;
	if (!f)
		return -1;
	len = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[len] = '\0';
	for (p = text; n < max; p = end) {
		long v = strtol(p, &end, 10);
		if (end == p)
			break;
		if (v > 0)
			out[n++] = (pid_t)v;
	}
	return n;
}

/* Our children, from the kernel's per-thread lists. -1 when the kernel
 * has none (CONFIG_PROC_CHILDREN off): then nothing is done. */
static int list_children(pid_t *out, int max)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *de;
	int n = 0, any = 0;
	if (!d)
		return -1;
	while ((de = readdir(d)) != NULL) {
		char path[96];
		int r;
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "/proc/self/task/%.40s/children",
			 de->d_name);
		r = read_children(path, out, n, max);
		if (r >= 0) {
			n = r;
			any = 1;
		}
	}
	closedir(d);
	return any ? n : -1;
}

/* A child of ours that no registered group accounts for. */
static int is_orphan(pid_t pid)
{
	pid_t pg;
	if (proc_int_group_known(pid))
		return 0;
	pg = getpgid(pid);
	return pg <= 0 || !proc_int_group_known(pg);
}

static void kill_orphan(pid_t pid)
{
	int st;
	pid_t r;
	/* A process that left with setsid leads its own group: its own
	 * children in that group go with it. */
	if (getpgid(pid) == pid)
		kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	do
		r = waitpid(pid, &st, 0);
	while (r < 0 && errno == EINTR);
}

int proc_int_orphans(enum proc_orphans act, struct buf *note)
{
	pid_t kids[ORPHAN_MAX];
	int round, i, n, killed = 0;
	/* Killing an orphan hands its own children to us: a few rounds. */
	for (round = 0; round < 8; round++) {
		int found = 0;
		n = list_children(kids, ORPHAN_MAX);
		for (i = 0; i < n; i++) {
			pid_t pid = kids[i];
			int st, k = is_kept(pid);
			/* A registered child is its owner's to reap. */
			if (!k && !is_orphan(pid))
				continue;
			/* Exited already: reap the zombie. */
			if (waitpid(pid, &st, WNOHANG) == pid) {
				unkeep(pid);
				continue;
			}
			if (k && act != ORPHANS_KILL_ALL)
				continue;
			if (act == ORPHANS_KEEP) {
				keep(pid);
				continue;
			}
			unkeep(pid);
			if (note && killed < 8)
				buf_addf(note, "%s%ld", killed ? ", " : "",
					 (long)pid);
			kill_orphan(pid);
			killed++;
			found = 1;
		}
		if (!found)
			break;
	}
	return killed;
}
