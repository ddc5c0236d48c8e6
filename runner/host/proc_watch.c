/*
 * The children a sampler follows (proc_opts.watch): the registry of the
 * processes started for a host label (an engine's client and servers on a
 * local or netns host), which that host's in-process sampler reads at each
 * snapshot (sampler_engine.c). A child that ended stays until a sampler
 * has read it once, with the CPU time wait4 gave when it was reaped: what
 * it used after the sampler's last look at /proc would be lost otherwise.
 * Kept apart from the group registry (proc_group.c), which the signal
 * handler reads: this one takes a lock.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "proc.h"
#include "proc_int.h"
#include "banned.h"

#define WATCH_MAX 64

static pthread_mutex_t watch_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	pid_t pid; /* 0: a free entry */
	int ended;
	double cpu_s;
	char label[64];
} watched[WATCH_MAX];

void proc_int_watch_add(pid_t pid, const char *label)
{
	int i, free_at = -1;
	if (!label || pid <= 0)
		return;
	pthread_mutex_lock(&watch_lock);
	/* a free entry, else one that ended and was never read (no sampler
	 * of its label) */
	for (i = 0; i < WATCH_MAX && free_at < 0; i++)
		if (!watched[i].pid)
			free_at = i;
	for (i = 0; i < WATCH_MAX && free_at < 0; i++)
		if (watched[i].ended)
			free_at = i;
	if (free_at >= 0) {
		watched[free_at].pid = pid;
		watched[free_at].ended = 0;
		watched[free_at].cpu_s = NAN;
		snprintf(watched[free_at].label, sizeof watched[free_at].label,
			 "%s", label);
	}
	/* Full of running ones: this one runs unwatched. */
	pthread_mutex_unlock(&watch_lock);
}

void proc_int_watch_end(pid_t pid, const struct rusage *ru)
{
	pthread_mutex_lock(&watch_lock);
	for (int i = 0; i < WATCH_MAX; i++)
		if (watched[i].pid == pid && !watched[i].ended) {
			watched[i].ended = 1;
			if (ru)
				watched[i].cpu_s =
				    (double)ru->ru_utime.tv_sec +
				    (double)ru->ru_utime.tv_usec / 1e6 +
				    (double)ru->ru_stime.tv_sec +
				    (double)ru->ru_stime.tv_usec / 1e6;
		}
	pthread_mutex_unlock(&watch_lock);
}

void proc_int_watch_del(pid_t pid)
{
	pthread_mutex_lock(&watch_lock);
	for (int i = 0; i < WATCH_MAX; i++)
		if (watched[i].pid == pid)
			watched[i].pid = 0;
	pthread_mutex_unlock(&watch_lock);
}

int proc_watched(const char *label, struct proc_watch *w, int max)
{
	int n = 0;
	pthread_mutex_lock(&watch_lock);
	for (int i = 0; i < WATCH_MAX && n < max; i++)
		if (watched[i].pid && !strcmp(watched[i].label, label)) {
			w[n].pid = (long)watched[i].pid;
			w[n].ended = watched[i].ended;
			w[n].cpu_s = watched[i].cpu_s;
			n++;
			if (watched[i].ended)
				watched[i].pid = 0; /* read once */
		}
	pthread_mutex_unlock(&watch_lock);
	return n;
}
