/*
 * macOS top's logging-mode lines (`top -l 0 -s S -n 0`): the host-wide
 * CPU usage line and the load average line, as Apple's top 144 prints
 * them (globalstats.c update_cpu and update_load). Pure functions: the
 * sampler (sampler.c) feeds them the lines of its stream.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_MACTOP_H
#define XR_MACTOP_H

#include <stddef.h>

/* One "CPU usage:" line, percent of all CPUs over top's last interval. */
struct mactop_cpu {
	double user, sys, idle; /* user includes nice (top adds them) */
	double busy;		/* user + sys */
};

/* line (len bytes, no newline needed): 1 and *c when it is a CPU usage
 * line, 0 when it is another line, -1 when it starts as one but is not
 * of top's format (a field missing, a fraction over 99, a sum far from
 * 100). */
int mactop_cpu_line(const char *line, size_t len, struct mactop_cpu *c);

/* "Load Avg: 1.23, 0.98, 0.75 ": 1 and la[3], 0 another line, -1 bad. */
int mactop_load_line(const char *line, size_t len, double la[3]);

#endif
