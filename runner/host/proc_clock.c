/*
 * proc's clocks (proc.h): the monotonic one that every deadline and
 * interval of xrun is measured on, and the wall clock stored with runs.
 *
 * SPDX-License-Identifier: MIT
 */
#include <time.h>

#include "proc.h"
#include "banned.h"

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
