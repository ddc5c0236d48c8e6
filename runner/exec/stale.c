/*
 * Children a killed xrun left behind. SIGKILL gives xrun no chance to stop
 * the iperf3 server or the ssh masters it started, and a server still
 * holding the port would make the resume fail. So while it runs, xrun
 * notes its direct children (pid and start time) in the DB's lock file;
 * the next xrun, once it holds the lock (which proves the old one is
 * gone), stops those that still exist. The start time (from
 * /proc/PID/stat) makes sure a reused pid is never killed.
 *
 * SPDX-License-Identifier: MIT
 */
#include <ctype.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "proc.h"
#include "runctx.h"
#include "store.h"
#include "banned.h"

/* ppid, pgrp and start time of pid from /proc; -XR_EIO when gone (or
 * unreadable). */
static int stale_proc_stat(long pid, long *ppid, long *pgrp,
			   unsigned long long *start, char *comm, size_t commsz)
{
	char path[64], text[1024], *rp, *lp;
	FILE *f;
	size_t n;
	int field;
	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	if (!(f = fopen(path, "r")))
		return -XR_EIO;
	n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[n] = '\0';
	lp = strchr(text, '(');
	rp = strrchr(text, ')');
	if (!lp || !rp || rp < lp)
		return -XR_EIO;
	snprintf(comm, commsz, "%.*s", (int)(rp - lp - 1), lp + 1);
	rp += 2; /* field 3: state */
	for (field = 3; field <= 22 && *rp; field++) {
		if (field == 4)
			*ppid = strtol(rp, NULL, 10);
		else if (field == 5)
			*pgrp = strtol(rp, NULL, 10);
		else if (field == 22)
			*start = strtoull(rp, NULL, 10);
		while (*rp && *rp != ' ')
			rp++;
		while (*rp == ' ')
			rp++;
	}
	return field > 22 ? 0 : -XR_EIO;
}

static void note_child(long pid, long me, struct buf *note)
{
	long ppid = 0, pgrp = 0;
	unsigned long long start = 0;
	char comm[64];
	if (stale_proc_stat(pid, &ppid, &pgrp, &start, comm, sizeof comm) ==
		0 &&
	    ppid == me)
		buf_addf(note, "child %ld %llu %ld %s\n", pid, start, pgrp,
			 comm);
}

/* The kernel's list of our children (/proc/self/task/TID/children,
 * CONFIG_PROC_CHILDREN): a few reads instead of one per process on the
 * machine. -XR_EENV when the kernel has no such file. */
static int note_from_children_files(long me, struct buf *note)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int found = 0;
	if (!d)
		return -XR_EENV;
	while ((e = readdir(d))) {
		char path[96];
		struct buf text = BUF_INIT;
		const char *t;
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof path, "/proc/self/task/%.40s/children",
			 e->d_name);
		if (buf_read_file(&text, path, 1 << 20) < 0)
			continue;
		found = 1;
		for (t = text.s; t && *t;) {
			char *end;
			long pid = strtol(t, &end, 10);
			if (end == t)
				break;
			note_child(pid, me, note);
			t = end;
		}
		buf_release(&text);
	}
	closedir(d);
	return found ? 0 : -1;
}

/* Called after every run (the engine may have restarted its server): only
 * rewrite the lock file when the children changed. */
void stale_note_children(struct store *st)
{
	static struct buf last = BUF_INIT;
	static int noted;
	struct buf note = BUF_INIT;
	const char *now;
	long me = (long)getpid();
	DIR *d;
	struct dirent *e;
	if (note_from_children_files(me, &note) < 0) {
		if (!(d = opendir("/proc")))
			return;
		while ((e = readdir(d)))
			if (isdigit((unsigned char)e->d_name[0]))
				note_child(strtol(e->d_name, NULL, 10), me,
					   &note);
		closedir(d);
	}
	now = note.s ? note.s : "";
	if (!noted || strcmp(last.s ? last.s : "", now) != 0) {
		store_lock_note(st, now);
		buf_reset(&last);
		buf_adds(&last, now);
		noted = 1;
	}
	buf_release(&note);
}

void stale_reap(const char *prev, int quiet)
{
	const char *line = prev;
	while (line && *line) {
		long pid, pgrp, ppid = 0, npgrp = 0;
		unsigned long long start, now = 0;
		char comm[64] = "", ncomm[64];
		const char *nl = strchr(line, '\n');
		if (sscanf(line, "child %ld %llu %ld %63s", &pid, &start, &pgrp,
			   comm) == 4 &&
		    pid > 1 &&
		    stale_proc_stat(pid, &ppid, &npgrp, &now, ncomm,
				    sizeof ncomm) == 0 &&
		    now == start) {
			double t0 = proc_now_mono();
			if (!quiet)
				fprintf(stderr,
					"xrun: stopping '%s' (pid %ld) left "
					"running by an xrun that was killed\n",
					ncomm, pid);
			/* Children of proc lead their own group. */
			kill(npgrp == pid ? -(pid_t)pid : (pid_t)pid, SIGTERM);
			while (stale_proc_stat(pid, &ppid, &npgrp, &now, ncomm,
					       sizeof ncomm) == 0 &&
			       now == start && proc_now_mono() - t0 < 2.0)
				usleep(20000);
			if (stale_proc_stat(pid, &ppid, &npgrp, &now, ncomm,
					    sizeof ncomm) == 0 &&
			    now == start)
				kill(npgrp == pid ? -(pid_t)pid : (pid_t)pid,
				     SIGKILL);
		}
		line = nl ? nl + 1 : NULL;
	}
}
