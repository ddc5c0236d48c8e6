/*
 * Orphans: processes a command left running outside its process group
 * (`setsid daemon &`, a double fork). xrun is a child subreaper
 * (PR_SET_CHILD_SUBREAPER, set before the first fork), so such a process
 * becomes xrun's child when its parent exits.
 *
 * Which of them to kill when: an engine run's must not outlive the run; a
 * hook's daemon may be meant to last the session, and the ControlMaster a
 * ssh command leaves must. A process may leave its command's group only
 * after that command ended, so group membership cannot tell; the
 * environment can: a command whose orphans die with it runs with
 * PROC_ORPHAN_MARK in its environment, which its descendants inherit. After
 * each command, every child of xrun that is neither a registered group (the
 * engine, an iperf3 server) nor a member of one and carries the mark is
 * killed with its group and reaped. The others are left until xrun exits,
 * when every orphan is killed (proc_kill_all).
 *
 * SPDX-License-Identifier: MIT
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
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

/* Children seen without the mark (kept until exit); a child's pid cannot
 * be reused before we reap it, so the pid alone names it. */
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
		return -XR_EIO;
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

/* Our children, from the kernel's per-thread lists. -XR_EENV when the
 * kernel has none (CONFIG_PROC_CHILDREN off): then nothing is done. */
static int list_children(pid_t *out, int max)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *de;
	int n = 0, any = 0;
	if (!d)
		return -XR_EENV;
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
	return any ? n : -XR_EENV;
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

/* Does pid's environment (as of its last exec) carry the mark? */
static int has_mark(pid_t pid)
{
	char path[64], env[65536];
	size_t mlen = strlen(PROC_ORPHAN_MARK), i;
	ssize_t n;
	int fd;
	snprintf(path, sizeof path, "/proc/%ld/environ", (long)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	n = read(fd, env, sizeof env);
	close(fd);
	for (i = 0; n > 0 && i + mlen <= (size_t)n;) {
		size_t e = i;
		while (e < (size_t)n && env[e])
			e++;
		if (e - i == mlen && !memcmp(env + i, PROC_ORPHAN_MARK, mlen))
			return 1;
		i = e + 1;
	}
	return 0;
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

/* What to do with the unregistered child pid: 1 kill it, 0 leave it. */
static int decide(pid_t pid, int all)
{
	int st;
	/* Exited already: reap the zombie. */
	if (waitpid(pid, &st, WNOHANG) == pid) {
		unkeep(pid);
		return 0;
	}
	if (all)
		return 1;
	if (is_kept(pid))
		return 0;
	if (has_mark(pid))
		return 1;
	keep(pid);
	return 0;
}

int proc_int_orphans(int all, struct buf *note)
{
	pid_t kids[ORPHAN_MAX];
	int round, i, n, killed = 0;
	/* Killing an orphan hands its own children to us: a few rounds. */
	for (round = 0; round < 8; round++) {
		int found = 0;
		n = list_children(kids, ORPHAN_MAX);
		for (i = 0; i < n; i++) {
			pid_t pid = kids[i];
			/* A registered child is its owner's to reap. */
			if (!is_orphan(pid) || !decide(pid, all))
				continue;
			if (note && killed < 8)
				buf_addf(note, "%s%ld", killed ? ", " : "",
					 (long)pid);
			unkeep(pid);
			kill_orphan(pid);
			killed++;
			found = 1;
		}
		if (!found)
			break;
	}
	return killed;
}
