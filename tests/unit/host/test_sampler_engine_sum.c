/* engine.cpu is a level read at the engine's own reads (runner/host/
 * sampler_engine.c), not a counter of the snapshots (sampler_feed.c): a
 * counter snapshot between two of its points adds none. What a reader
 * gets from it (schema/report.md: "iperf3's client process 97% of a
 * core", the mean of engine.cpu) must add up to the CPU time the process
 * had: here a watched `sha256sum /dev/zero` run for 1 s beside a local
 * sampler of period 0.2 s; engine.cpu x the interval since the point
 * before, summed, is the CPU time the kernel gives for the reaped child
 * (getrusage RUSAGE_CHILDREN, before and after), to 5 ms: a check of the
 * sum, not of the share, so that it holds on a loaded machine, where the
 * hasher gets a fraction of a core (test_sampler_engine.c asserts the
 * share, alone on a core). A watched `sleep` runs from before the hasher
 * to after it, so that the hasher's first interval has a point before it.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "host.h"
#include "plan.h"
#include "proc.h"
#include "sampler.h"
#include "series.h"
#include "tap.h"

static double children_cpu(void)
{
	struct rusage ru;
	getrusage(RUSAGE_CHILDREN, &ru);
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

int main(void)
{
	const char *busy[] = {"sha256sum", "/dev/zero", NULL};
	const char *idle[] = {"sleep", "30", NULL};
	struct proc_opts o = {0}, z = {0};
	struct proc_result res;
	struct plan_host ph;
	struct host *h = NULL;
	struct sampler *s = NULL;
	struct series_set set = {0};
	struct xr_err err = {0};
	const struct series *cpu;
	struct proc *sl;
	double before, used, sum = 0;
	int seen = 0;

	tap_plan(6);
	if (!proc_which("sha256sum") || !proc_which("sleep"))
		tap_skip_all("need sha256sum and sleep");
	memset(&ph, 0, sizeof ph);
	ph.name = "client";
	ok(host_open(&ph, "/tmp", &h, &err) == 0, "open the local host");
	ok(h && sampler_start(h, "client", NULL, PLAN_COUNTER_CPU, 0.2, 60, &s,
			      &err) == 0,
	   "start a sampler of 'client': %s", err.msg);
	if (!s)
		return tap_done();
	z.argv = idle;
	z.watch = "client";
	sl = proc_spawn(&z, NULL, &err);
	sampler_mark(s);
	for (int i = 0; sl && i < 200 && !seen; i++) {
		struct series_set peek = {0};
		proc_sleep(0.05);
		seen = sampler_peek_new(s, &peek) == 0 &&
		       series_set_find(&peek, "client", "engine.cpu");
		series_set_release(&peek);
	}
	ok(sl && seen, "the watched sleep has its points");
	o.argv = busy;
	o.timeout = 1.0;
	o.grace = 0.2;
	o.watch = "client";
	before = children_cpu();
	ok(proc_run(&o, &res, &err) == 0 && res.status == PROC_TIMEOUT,
	   "the watched hasher ran until its deadline");
	used = children_cpu() - before;
	proc_result_release(&res);
	proc_sleep(0.6); /* the sampler reads its end */
	proc_stop(sl);
	sampler_stop(s, &set);
	cpu = series_set_find(&set, "client", "engine.cpu");
	/* the first point's interval is not in the series: the sleep's */
	for (size_t k = 1; cpu && k < cpu->n; k++)
		if (isfinite(cpu->v[k]))
			sum += cpu->v[k] / 100 * (cpu->t[k] - cpu->t[k - 1]);
	ok(cpu && used > 0.03, "the hasher used %.3f s of CPU", used);
	is_near(sum, used, 0.005,
		"engine.cpu x the interval, summed = the kernel's CPU time of "
		"the reaped child");
	series_set_release(&set);
	host_close(h);
	return tap_done();
}
