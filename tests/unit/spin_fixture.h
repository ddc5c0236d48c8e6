/*
 * A process of two threads for the engine-process sampler tests (unit/
 * test_sampler_engine, unit/test_sampler_far): the test runs itself again
 * with --threads under `taskset -c 0`, and spin_main(SECONDS) starts a
 * thread that spins on the last CPU (its own affinity) for SECONDS while
 * the main thread sleeps in the join on CPU 0. The affinity by syscall,
 * and C11 threads: runner/sched/sched.h is first on the include path,
 * and <pthread.h> wants the system's <sched.h>.
 */
#ifndef XR_SPIN_FIXTURE_H
#define XR_SPIN_FIXTURE_H

#include <sys/syscall.h>
#include <threads.h>
#include <unistd.h>

#include "proc.h"

static double spin_seconds;

static int spin_thread(void *arg)
{
	unsigned long mask = 1UL << *(int *)arg;
	double end = proc_now_mono() + spin_seconds;
	volatile unsigned long x = 0;
	syscall(SYS_sched_setaffinity, 0, sizeof mask, &mask);
	while (proc_now_mono() < end)
		x++;
	return 0;
}

static int spin_main(double seconds)
{
	int last = (int)sysconf(_SC_NPROCESSORS_ONLN) - 1;
	thrd_t th;
	spin_seconds = seconds;
	if (thrd_create(&th, spin_thread, &last) != thrd_success)
		return 1;
	thrd_join(th, NULL);
	return 0;
}

#endif
