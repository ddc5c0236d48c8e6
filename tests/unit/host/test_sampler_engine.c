/* The engine's processes in a sampler's series (runner/host/
 * sampler_engine.c, proc_watch.c): a child started with proc_opts.watch
 * is in proc_watched while it runs, once more when it has ended (with
 * the CPU time wait4 gave), and not after; a local sampler of that label
 * gets engine.cpu and engine.core for it, a sampler of another label does
 * not. The child is sha256sum reading /dev/zero pinned by taskset (which
 * execs it: the pid is the hasher's) to the last CPU, beside an unwatched
 * one pinned to CPU 0: every point where the watched one ran names the
 * last CPU; engine.cpu counts one process on one core (at most 100% plus
 * two clock ticks of 100 Hz per 0.2 s period, 10%: its times grow a tick
 * at a time, and the sanitizer run measured 105.1%), not the two; and its sum
 * over the run (engine.cpu x the interval) is the CPU time the kernel
 * gives for the reaped child (getrusage RUSAGE_CHILDREN, before and after)
 * to 10 ms, its last interval included. A watched `sleep` pinned to the
 * last CPU runs from before the hasher to its end, so that the hasher's
 * first interval has a point before it, whose t gives that interval's
 * length (a sanitizer build, slowed, sampled 1.479 s against 1.490 with
 * the period taken for it). Then a process of two threads
 * (this test run again with --threads, under taskset -c 0): its main
 * thread asleep on CPU 0, the other spinning on the last CPU (its own
 * affinity): engine.core names the last CPU, the busy thread's, not the
 * process's (its main thread's) CPU 0.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "host.h"
#include "plan.h"
#include "proc.h"
#include "sampler.h"
#include "series.h"
#include "spin_fixture.h"
#include "tap.h"

static void test_registry(void)
{
	const char *argv[] = {"sleep", "5", NULL};
	const char *quick[] = {"true", NULL};
	struct proc_opts o = {0};
	struct proc_result res;
	struct xr_err err = {0};
	struct proc_watch w[4];
	struct proc *p;
	int n;
	o.argv = argv;
	o.watch = "w1";
	p = proc_spawn(&o, NULL, &err);
	ok(p != NULL, "spawn a watched sleep: %s", err.msg);
	ok(proc_watched("w1", w, 4) == 1 && w[0].pid == proc_pid(p) &&
	       !w[0].ended,
	   "it is watched under its label, running");
	ok(proc_watched("w2", w, 4) == 0, "and not under another");
	proc_stop(p);
	ok(proc_watched("w1", w, 4) == 0, "not after it is stopped");
	o.argv = quick;
	ok(proc_run(&o, &res, &err) == 0 && res.status == PROC_EXITED,
	   "run a watched true");
	proc_result_release(&res);
	n = proc_watched("w1", w, 4);
	ok(n == 1 && w[0].ended && w[0].cpu_s >= 0 && w[0].cpu_s < 0.5,
	   "once ended, with its CPU time (%.3f s)", w[0].cpu_s);
	ok(proc_watched("w1", w, 4) == 0, "and in one answer only");
}

static double children_cpu(void)
{
	struct rusage ru;
	getrusage(RUSAGE_CHILDREN, &ru);
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

struct run {
	const struct series *cpu, *core;
	double max_cpu, sum_s;
	int on_last, ran, elsewhere;
};

static struct run look(const struct series_set *set, int last)
{
	struct run r = {0};
	r.cpu = series_set_find(set, "client", "engine.cpu");
	r.core = series_set_find(set, "client", "engine.core");
	for (size_t k = 0; r.cpu && r.core && k < r.core->n; k++) {
		/* the first point's interval is not in the series: the
		 * sleep's, which used nothing */
		double dt = k ? r.cpu->t[k] - r.cpu->t[k - 1] : 0.2;
		if (r.cpu->v[k] > r.max_cpu)
			r.max_cpu = r.cpu->v[k];
		r.sum_s += r.cpu->v[k] / 100 * dt;
		if (isnan(r.core->v[k]))
			continue;
		r.ran++;
		r.on_last += r.core->v[k] == last;
		r.elsewhere += r.core->v[k] != last;
	}
	return r;
}

static void test_sampled(void)
{
	int last = (int)sysconf(_SC_NPROCESSORS_ONLN) - 1;
	char cpu[16];
	const char *busy[] = {"taskset",   "-c",	cpu,
			      "sha256sum", "/dev/zero", NULL};
	const char *other[] = {"taskset",   "-c",	 "0",
			       "sha256sum", "/dev/zero", NULL};
	const char *idle[] = {"taskset", "-c", cpu, "sleep", "30", NULL};
	struct proc_opts o = {0}, u = {0}, z = {0};
	struct proc_result res;
	struct plan_host ph;
	struct host *h = NULL;
	struct sampler *s = NULL, *t = NULL;
	struct series_set set = {0}, tset = {0};
	struct xr_err err = {0};
	struct proc *bg, *sl;
	int seen = 0;
	struct run r;
	struct proc_watch pw[4];
	double before, used, t_mark, t_end;

	snprintf(cpu, sizeof cpu, "%d", last);
	memset(&ph, 0, sizeof ph);
	ph.name = "client";
	ok(host_open(&ph, "/tmp", &h, &err) == 0, "open the local host");
	ok(sampler_start(h, "client", NULL, PLAN_COUNTER_CPU, 0.2, 60, &s,
			 &err) == 0,
	   "start a sampler of 'client': %s", err.msg);
	ok(sampler_start(h, "server", NULL, PLAN_COUNTER_CPU, 0.2, 60, &t,
			 &err) == 0,
	   "and one of 'server': %s", err.msg);
	u.argv = other;
	bg = proc_spawn(&u, NULL, &err);
	ok(bg != NULL, "an unwatched hasher on CPU 0");
	/* A watched sleep first, so that the hasher's first interval has a
	 * point before it in the series (no process: no point), whose t
	 * gives that interval's length: a loaded machine (a sanitizer
	 * build) samples later than every 0.2 s. */
	z.argv = idle;
	z.watch = "client";
	sl = proc_spawn(&z, NULL, &err);
	sampler_mark(s);
	sampler_mark(t);
	t_mark = proc_now_mono();
	for (int i = 0; sl && i < 100 && !seen; i++) {
		struct series_set peek = {0};
		proc_sleep(0.05);
		seen = sampler_peek_new(s, &peek) == 0 &&
		       series_set_find(&peek, "client", "engine.cpu");
		series_set_release(&peek);
	}
	ok(sl && seen, "a watched sleep on CPU %d has its points", last);
	o.argv = busy;
	o.timeout = 1.5;
	o.grace = 0.2;
	o.watch = "client";
	before = children_cpu();
	ok(proc_run(&o, &res, &err) == 0 && res.status == PROC_TIMEOUT,
	   "the watched hasher on CPU %d ran until its deadline", last);
	used = children_cpu() - before;
	t_end = proc_now_mono() - t_mark;
	proc_stop(sl); /* its ~1 ms in engine.cpu, not in used */
	proc_result_release(&res);
	proc_sleep(1.0);
	ok(proc_watched("client", pw, 4) == 0,
	   "not watched once the sampler has read its end");
	proc_stop(bg);
	sampler_stop(s, &set);
	sampler_stop(t, &tset);
	r = look(&set, last);
	ok(r.cpu && r.core && r.cpu->n == r.core->n && r.core->n >= 5,
	   "engine.cpu and engine.core, a point a sample (%zu)",
	   r.core ? r.core->n : 0);
	ok(r.cpu && !strcmp(r.cpu->unit, "%") && r.core &&
	       !strcmp(r.core->unit, "1"),
	   "in %% and as a number");
	ok(r.ran >= 4 && r.on_last == r.ran && !r.elsewhere,
	   "on CPU %d in each of the %d samples it ran (elsewhere: %d)", last,
	   r.ran, r.elsewhere);
	ok(r.max_cpu > 30 && r.max_cpu <= 110,
	   "one process on one core: at most 100%% + two ticks (max %.1f%%)",
	   r.max_cpu);
	ok(r.sum_s > 0.3 && r.sum_s <= 1.5 * 1.1,
	   "its CPU time over the run (%.2f s) at most its 1.5 s of life",
	   r.sum_s);
	is_near(r.sum_s, used, 0.01,
		"engine.cpu x the interval, summed = the kernel's CPU time of "
		"the reaped child");
	ok(r.core && r.core->t[r.core->n - 1] < t_end + 0.6,
	   "no points once its end was read (the last at %.2f s, it ended "
	   "at %.2f s, the sampler stopped 1 s later)",
	   r.core ? r.core->t[r.core->n - 1] : -1, t_end);
	ok(!series_set_find(&tset, "server", "engine.cpu") &&
	       !series_set_find(&tset, "server", "engine.core"),
	   "another label's sampler has no engine series");
	series_set_release(&set);
	series_set_release(&tset);
	host_close(h);
}

static void test_threads(const char *self)
{
	int last = (int)sysconf(_SC_NPROCESSORS_ONLN) - 1;
	const char *argv[] = {"taskset", "-c", "0", self, "--threads", NULL};
	struct proc_opts o = {0};
	struct proc_result res;
	struct plan_host ph;
	struct host *h = NULL;
	struct sampler *s = NULL;
	struct series_set set = {0};
	struct xr_err err = {0};
	struct run r;

	memset(&ph, 0, sizeof ph);
	ph.name = "client";
	ok(host_open(&ph, "/tmp", &h, &err) == 0 &&
	       sampler_start(h, "client", NULL, PLAN_COUNTER_CPU, 0.2, 60, &s,
			     &err) == 0,
	   "a sampler for the two threads: %s", err.msg);
	sampler_mark(s);
	o.argv = argv;
	o.timeout = 10;
	o.watch = "client";
	ok(proc_run(&o, &res, &err) == 0 && res.status == PROC_EXITED &&
	       res.exit_code == 0,
	   "the process of two threads ran");
	proc_result_release(&res);
	proc_sleep(0.3);
	sampler_stop(s, &set);
	r = look(&set, last);
	/* most of them: the main thread is the busiest on CPU 0, truly,
	 * in the samples of its start (a sanitizer build's runtime set-up,
	 * which took 2 to 3 samples of 0.2 s beside a busy loop on CPU 0)
	 * and of its exit work (a sanitizer's leak check); a core taken
	 * from the main thread only would name CPU 0 or none in every one */
	ok(r.on_last >= 3 && 2 * r.on_last > r.ran,
	   "on CPU %d, the busy thread's, in %d of the %d samples it ran "
	   "(elsewhere: %d)",
	   last, r.on_last, r.ran, r.elsewhere);
	series_set_release(&set);
	host_close(h);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--threads"))
		return spin_main(1.2);
	tap_plan(25);
	test_registry();
	if (!proc_which("taskset") || !proc_which("sha256sum")) {
		tap_skip("the sampled hasher: need taskset and sha256sum");
		return tap_done();
	}
	test_sampled();
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		tap_skip("two threads on two CPUs: one CPU here");
		return tap_done();
	}
	test_threads(argv[0]);
	return tap_done();
}
