/* The engine's processes followed on a Linux ssh host (runner/host/
 * sampler_engine.c sampler_engine_frame, counters_script.c's far loop):
 *
 * 1. Frames written here, with numbers worked by hand: two processes
 *    first seen, started since the previous frame (starttime 99.70 s
 *    after boot, the frame before at 99.5 s), count all their ticks (150
 *    + 20 in 0.5 s: 340%); then
 *    40 + 5 ticks of 100 Hz in 0.5 s is 90% of a core, on core 3 (the
 *    busier process's busier thread, not its main thread's core 0); a
 *    process gone since the last frame makes engine.cpu not known (NaN),
 *    not a smaller number; a thread new since counts all its ticks (50 of
 *    the process's 60 in 0.5 s: 120%, core 2); a command name holding
 *    ") " and a torn line do not move the fields; a frame with no
 *    process after one with none makes no point; one first seen that
 *    started before the previous frame (its file came late) makes
 *    engine.cpu not known; a one-thread process's line alone (the far
 *    loop reads no thread lines then) gives its processor as the core.
 * 2. The far loop itself, run here by sh as sshd would run it: the watch
 *    files of its token in $XDG_RUNTIME_DIR (a fresh directory) name a
 *    process of two threads (this test run again with --threads under
 *    taskset -c 0: its main thread asleep on CPU 0, the other spinning on
 *    the last CPU, so that the loop must read the threads' lines), a pid
 *    that has ended, and a `sleep 0.8` reaped while the loop runs;
 *    another session's files name an ended pid and the live process. Its
 *    frames give engine.cpu of at most one core (100% plus two ticks of
 *    100 Hz over a 0.2 s period: 110%, at every point but one, its
 *    start; more than 30% at its busiest, as a loaded CI machine gives
 *    it) on the last CPU, the busy thread's, not the main thread's CPU 0,
 *    in most of the points it ran (a sanitizer build's start-up on CPU 0
 *    may take one); it removes the ended pids' files of its token (the sleep's
 *    at the frame after its end, that interval's engine.cpu not known)
 *    and the other session's ended one at its start, and keeps the other
 *    session's live one. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "counters_int.h"
#include "plan.h"
#include "proc.h"
#include "sampler.h"
#include "series.h"
#include "spin_fixture.h"
#include "tap.h"

/* The frames so far, read afresh as the far host's sampler reads them
 * (sampler_far_engine): the last point of name, and how many. */
static double last_of(const struct buf *frames, const char *name, size_t *n)
{
	struct series_set set = {0};
	const struct series *se;
	double v = -1;
	*n = 0;
	if (sampler_far_engine("far", frames->s ? frames->s : "", &set) == 0 &&
	    (se = series_set_find(&set, "far", name))) {
		*n = se->n;
		v = se->n ? se->v[se->n - 1] : -1;
	}
	series_set_release(&set);
	return v;
}

/* Append one frame of body at up. */
static void frame(struct buf *frames, double up, const struct buf *body)
{
	buf_addf(frames, "@@ xrun-sample %.2f\n", up);
	if (body->len)
		buf_add(frames, body->s, body->len);
	buf_adds(frames, "@@ xrun-sample-end\n");
}

/* A /proc/PID/stat line: utime (field 14), stime (15), num_threads (20)
 * and processor (39) as given, starttime (22) 99.70 s after boot, every
 * other number 0. */
static unsigned long start_ticks = 9970;
static void stat_line(struct buf *b, long pid, const char *comm,
		      unsigned long ut, unsigned long st, long nth, int cpu)
{
	buf_addf(b, "%ld (%s) S", pid, comm);
	for (int k = 1; k <= 49; k++) {
		if (k == 11)
			buf_addf(b, " %lu", ut);
		else if (k == 12)
			buf_addf(b, " %lu", st);
		else if (k == 17)
			buf_addf(b, " %ld", nth);
		else if (k == 19)
			buf_addf(b, " %lu", start_ticks);
		else if (k == 36)
			buf_addf(b, " %d", cpu);
		else
			buf_adds(b, " 0");
	}
	buf_addc(b, '\n');
}

static void test_frames(void)
{
	struct buf all = BUF_INIT, f = BUF_INIT;
	size_t n;
	double v;

	frame(&all, 99.5, &f); /* no processes yet */
	last_of(&all, "engine.cpu", &n);
	is_int((long long)n, 0, "no process: no point");
	start_ticks = 9970;
	buf_adds(&f, "@@ engine 4242\n");
	stat_line(&f, 4242, "iperf3", 100, 50, 2, 0);
	stat_line(&f, 4242, "iperf3", 10, 5, 2, 0);
	stat_line(&f, 4243, "iperf3", 90, 45, 2, 3);
	buf_adds(&f, "@@ engine 5000\n");
	stat_line(&f, 5000, "a) (b", 20, 0, 1, 1);
	stat_line(&f, 5000, "a) (b", 20, 0, 1, 1);
	buf_adds(&f, "@@ engine x\n@@ xrun-counters 1\n@@ stat\ncpu 1 2 3\n");
	frame(&all, 100.0, &f);
	v = last_of(&all, "engine.cpu", &n);
	is_near(v, 340.0, 1e-9,
		"both started since the last frame (99.70 s > 99.5 s): all "
		"their ticks, 150 + 20 in 0.5 s = 340%");

	buf_reset(&f);
	buf_adds(&f, "@@ engine 4242\n");
	stat_line(&f, 4242, "iperf3", 130, 60, 2, 0);
	stat_line(&f, 4242, "iperf3", 10, 10, 2, 0);
	stat_line(&f, 4243, "iperf3", 120, 50, 2, 3);
	buf_adds(&f, "4243 (iperf3) S 0 0\n"); /* torn */
	buf_adds(&f, "@@ engine 5000\n");
	stat_line(&f, 5000, "a) (b", 25, 0, 1, 1);
	stat_line(&f, 5000, "a) (b", 25, 0, 1, 1);
	frame(&all, 100.5, &f);
	v = last_of(&all, "engine.cpu", &n);
	is_near(v, 90.0, 1e-9, "(40 + 5 ticks) / 100 Hz / 0.5 s = 90%");
	v = last_of(&all, "engine.core", &n);
	is_near(v, 3, 0, "on core 3: the busier process's busier thread");

	buf_reset(&f);
	buf_adds(&f, "@@ engine 4242\n");
	stat_line(&f, 4242, "iperf3", 140, 60, 2, 0);
	stat_line(&f, 4242, "iperf3", 10, 10, 2, 0);
	stat_line(&f, 4243, "iperf3", 130, 50, 2, 3);
	frame(&all, 101.0, &f);
	v = last_of(&all, "engine.cpu", &n);
	ok(isnan(v), "process 5000 gone: engine.cpu not known (%g)", v);
	v = last_of(&all, "engine.core", &n);
	is_near(v, 3, 0, "the core of those seen is still known");

	buf_reset(&f);
	buf_adds(&f, "@@ engine 4242\n");
	stat_line(&f, 4242, "iperf3", 200, 60, 3, 0);
	stat_line(&f, 4242, "iperf3", 10, 10, 3, 0);
	stat_line(&f, 4243, "iperf3", 140, 50, 3, 3);
	stat_line(&f, 4244, "iperf3", 50, 0, 3, 2);
	frame(&all, 101.5, &f);
	v = last_of(&all, "engine.cpu", &n);
	is_near(v, 120.0, 1e-9, "60 ticks in 0.5 s: 120%");
	v = last_of(&all, "engine.core", &n);
	is_near(v, 2, 0, "a new thread's 50 ticks count: core 2");
	is_int((long long)n, 4, "a point a frame with processes");

	buf_reset(&f);
	frame(&all, 102.0, &f);
	v = last_of(&all, "engine.cpu", &n);
	ok(isnan(v) && n == 5, "the process gone: not known, once (%zu)", n);
	frame(&all, 102.5, &f);
	last_of(&all, "engine.cpu", &n);
	is_int((long long)n, 5, "none now and none before: no point");
	/* one whose file came late: it started at boot, before 102.5 s */
	start_ticks = 0;
	buf_adds(&f, "@@ engine 6000\n");
	stat_line(&f, 6000, "iperf3", 500, 0, 1, 1);
	stat_line(&f, 6000, "iperf3", 500, 0, 1, 1);
	frame(&all, 103.0, &f);
	v = last_of(&all, "engine.cpu", &n);
	ok(isnan(v) && n == 6,
	   "first seen, started before the last frame: not known (%g)", v);
	/* one thread: its process line alone stands for its thread */
	buf_reset(&f);
	start_ticks = 10350;
	buf_adds(&f, "@@ engine 7000\n");
	stat_line(&f, 7000, "iperf3", 40, 0, 1, 5);
	frame(&all, 103.5, &f);
	v = last_of(&all, "engine.core", &n);
	is_near(v, 5, 0, "a process line alone: its processor is the core");
	buf_release(&f);
	buf_release(&all);
}

static int exists(const char *dir, const char *name)
{
	char p[512];
	struct stat st;
	snprintf(p, sizeof p, "%s/%s", dir, name);
	return stat(p, &st) == 0;
}

static void touch(const char *dir, const char *name)
{
	char p[512];
	FILE *f;
	snprintf(p, sizeof p, "%s/%s", dir, name);
	if ((f = fopen(p, "w")))
		fclose(f);
}

static void test_loop(const char *self)
{
	int last = (int)sysconf(_SC_NPROCESSORS_ONLN) - 1;
	char dir[] = "/tmp/xr-far-XXXXXX", env[64], name[96], dead_name[96],
	     other_dead[96], other_live[96], nap_name[96], log[640];
	const char *busy[] = {"taskset", "-c", "0", self, "--threads", NULL};
	const char *truth[] = {"true", NULL};
	const char *nap[] = {"sleep", "0.8", NULL};
	const char *loop[] = {"sh", "-c",  counters_sampler_script(), "sh", "",
			      "c",  "0.2", "0123456789abcdef",	      NULL};
	const char *envv[] = {env, NULL};
	struct proc_opts o = {0}, u = {0}, l = {0}, z = {0};
	struct buf out = BUF_INIT;
	struct xr_err err = {0};
	struct series_set set = {0};
	const struct series *c, *k;
	struct proc *gone;
	long dead_pid;
	struct proc *bg, *napper, *lp;
	int frames, on_last = 0, ran = 0, over = 0, unknown = 0;
	double max = 0;

	ok(mkdtemp(dir) != NULL, "a runtime directory");
	snprintf(env, sizeof env, "XDG_RUNTIME_DIR=%s", dir);
	u.argv = truth;
	gone = proc_spawn(&u, NULL, &err);
	dead_pid = gone ? proc_pid(gone) : 1;
	proc_sleep(0.1);
	proc_stop(gone);
	ok(gone && kill((pid_t)dead_pid, 0) < 0, "a pid that has ended");
	o.argv = busy;
	bg = proc_spawn(&o, NULL, &err);
	ok(bg != NULL, "a process of two threads, one spinning on CPU %d",
	   last);
	snprintf(name, sizeof name, ".xrun-w.0123456789abcdef.%ld",
		 (long)proc_pid(bg));
	snprintf(dead_name, sizeof dead_name, ".xrun-w.0123456789abcdef.%ld",
		 dead_pid);
	snprintf(other_dead, sizeof other_dead, ".xrun-w.fedcba9876543210.%ld",
		 dead_pid);
	snprintf(other_live, sizeof other_live, ".xrun-w.fedcba9876543210.%ld",
		 (long)proc_pid(bg));
	touch(dir, name);
	touch(dir, dead_name);
	touch(dir, other_dead);
	touch(dir, other_live);
	z.argv = nap;
	napper = proc_spawn(&z, NULL, &err);
	snprintf(nap_name, sizeof nap_name, ".xrun-w.0123456789abcdef.%ld",
		 napper ? proc_pid(napper) : 1L);
	touch(dir, nap_name);
	proc_sleep(0.2); /* the hasher is reading */
	l.argv = loop;
	l.env = envv;
	snprintf(log, sizeof log, "%s.log", dir);
	lp = proc_spawn(&l, log, &err);
	ok(lp && napper, "the far loop started beside a process of 0.8 s");
	proc_sleep(0.9);
	proc_stop(napper); /* reaped: its /proc entry gone */
	proc_sleep(1.0);
	proc_stop(lp);
	frames = 0;
	if (buf_read_file(&out, log, 1 << 20) < 0)
		buf_reset(&out);
	unlink(log);
	for (const char *p = out.s; p && (p = strstr(p, "@@ xrun-sample-end"));
	     p++)
		frames++;
	ok(frames >= 5 && sampler_far_engine("far", out.s, &set) == 0,
	   "its frames (%d) read", frames);
	c = series_set_find(&set, "far", "engine.cpu");
	k = series_set_find(&set, "far", "engine.core");
	ok(c && k && c->n == k->n && c->n == (size_t)frames - 1,
	   "a point a frame after the first (%zu)", c ? c->n : 0);
	for (size_t i = 0; c && k && i < c->n && i < k->n; i++) {
		ran += k->v[i] == k->v[i];
		on_last += k->v[i] == last;
		unknown += isnan(c->v[i]);
		over += c->v[i] > 110;
		if (c->v[i] > max)
			max = c->v[i];
	}
	/* most of them: in a sanitizer build slowed by other processes, the
	 * main thread's runtime set-up on CPU 0 may fall in a point, where
	 * it is truly the busiest (and the two threads above a core) */
	ok(c && on_last >= 3 && 2 * on_last > ran && 2 * ran >= (int)c->n,
	   "on CPU %d, the busy thread's, at %d of the %d points it ran (of "
	   "%zu)",
	   last, on_last, ran, c ? c->n : 0);
	ok(c && over <= 1 && max > 30,
	   "about one core: at most 100%% + two ticks at every point but its "
	   "start (over: %d), and it ran (max %.1f%%)",
	   over, max);
	ok(exists(dir, name) && !exists(dir, dead_name),
	   "the ended pid's file removed, the live one's kept");
	ok(!exists(dir, nap_name) && unknown <= 1,
	   "the file of the one that ended while it ran removed; that "
	   "interval's engine.cpu not known (%d points)",
	   unknown);
	ok(!exists(dir, other_dead) && exists(dir, other_live),
	   "another session's: the ended one removed, the live one kept");
	buf_release(&out);
	proc_stop(bg);
	{
		char p[600];
		snprintf(p, sizeof p, "%s/%s", dir, name);
		unlink(p);
		snprintf(p, sizeof p, "%s/%s", dir, other_live);
		unlink(p);
	}
	rmdir(dir);
	series_set_release(&set);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--threads"))
		return spin_main(2.5);
	tap_plan(24);
	test_frames();
	if (!proc_which("taskset") || sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		tap_skip("the far loop's two threads: need taskset and two "
			 "CPUs");
		return tap_done();
	}
	test_loop(argv[0]);
	return tap_done();
}
