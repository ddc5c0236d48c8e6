/*
 * A process of two threads for the engine-process sampler tests (unit/
 * test_sampler_engine, unit/test_sampler_far): the test runs itself again
 * with --threads under `taskset -c 0`, and spin_main(SECONDS) starts a
 * thread that spins on the last CPU (its own affinity) for SECONDS while
 * the main thread sleeps in the join on CPU 0. POSIX threads, not C11's:
 * ThreadSanitizer (tests/all.sh) does not intercept glibc's thrd_create
 * and crashes in the thread.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_SPIN_FIXTURE_H
#define XR_SPIN_FIXTURE_H

#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include "proc.h"

static double spin_seconds;

static void *spin_thread(void *arg)
{
	cpu_set_t mask;
	double end = proc_now_mono() + spin_seconds;
	volatile unsigned long x = 0;
	CPU_ZERO(&mask);
	CPU_SET(*(int *)arg, &mask);
	sched_setaffinity(0, sizeof mask, &mask);
	while (proc_now_mono() < end)
		x++;
	return NULL;
}

static int spin_main(double seconds)
{
	int last = (int)sysconf(_SC_NPROCESSORS_ONLN) - 1;
	pthread_t th;
	spin_seconds = seconds;
	if (pthread_create(&th, NULL, spin_thread, &last) != 0)
		return 1;
	pthread_join(th, NULL);
	return 0;
}

#endif
