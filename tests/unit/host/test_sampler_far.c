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
 *    session's live one.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
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

#define TOKEN "0123456789abcdef"

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

/* The wrapper (counters_watch_wrapper) run as sshd would run it, in a
 * runtime directory dir: the pid its command printed, or -1. */
static long wrapped(const char *dir)
{
	char env[96];
	const char *argv[] = {"sh",	 "-c", counters_watch_wrapper(),
			      TOKEN,	 "sh", "-c",
			      "echo $$", NULL};
	const char *envv[] = {env, NULL};
	struct proc_opts o = {0};
	struct proc_result r;
	struct xr_err err = {0};
	long pid = -1;
	snprintf(env, sizeof env, "XDG_RUNTIME_DIR=%s", dir);
	o.argv = argv;
	o.env = envv;
	o.timeout = 5;
	if (proc_run(&o, &r, &err) < 0)
		return -1;
	if (r.status == PROC_EXITED && r.exit_code == 0)
		pid = strtol(r.out, NULL, 10);
	proc_result_release(&r);
	return pid;
}

static int is_file(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0;
}

/* A path's text, or "" */
static const char *text_of(const char *path, char *out, size_t n)
{
	FILE *f = fopen(path, "r");
	size_t k = f ? fread(out, 1, n - 1, f) : 0;
	out[k] = 0;
	if (f)
		fclose(f);
	return out;
}

/* The pid the kernel gives next is above ns_last_pid: links and FIFOs
 * planted at the watch file names of the next 300 pids, where another user
 * who can write the base directory (the old names, issue 40) or the same
 * user (inside .xrun-w) could put them. */
static void plant(const char *dir, const char *wdir, const char *victim)
{
	char p[700], t[32];
	long last = strtol(text_of("/proc/sys/kernel/ns_last_pid", t, sizeof t),
			   NULL, 10);
	for (long n = last + 1; n <= last + 300; n++) {
		snprintf(p, sizeof p, "%s/.xrun-w." TOKEN ".%ld", dir, n);
		symlink(victim, p);
		snprintf(p, sizeof p, "%s/" TOKEN ".%ld", wdir, n);
		if (n % 2)
			symlink(victim, p);
		else
			mkfifo(p, 0600);
	}
}

/*
 * 3. The watch files against a hostile neighbour (issue 40): the wrapper
 *    leaves TOKEN.PID, an empty regular file named by its command's pid,
 *    in .xrun-w; with links to a victim file ("keep\n") and FIFOs planted
 *    at the next 300 pids' names, five wrapped commands run at once (no
 *    FIFO opened: each within its 5 s deadline), the victim keeps its 5
 *    bytes and no file is made through a link; a .xrun-w of mode 0755, or
 *    owned by another user (root only: chown), or a link to a directory
 *    of mode 0755 gets no file; the loop's start removes only regular
 *    files of this user named TOKEN.PID of an ended pid: a link, a FIFO,
 *    another user's file, a name of other form and the old name
 *    .xrun-w.backup.2024 beside .xrun-w stay.
 */
static void test_hostile(void)
{
	char dir[] = "/tmp/xr-fw-XXXXXX", wdir[64], victim[96], p[700], t[16],
	     env[64], link_dir[96];
	const char *loop[] = {"sh",  "-c",  counters_sampler_script(),
			      "sh",  "",    "c",
			      "0.2", TOKEN, NULL};
	const char *envv[] = {env, NULL};
	struct proc_opts l = {0};
	struct proc_result r;
	struct xr_err err = {0};
	long pid, dead = 4194300;
	int made = 0, all = 1;
	FILE *f;

	ok(mkdtemp(dir) != NULL, "a runtime directory");
	snprintf(wdir, sizeof wdir, "%s/.xrun-w", dir);
	snprintf(victim, sizeof victim, "%s/victim", dir);
	mkdir(wdir, 0700);
	pid = wrapped(dir);
	snprintf(p, sizeof p, "%s/" TOKEN ".%ld", wdir, pid);
	ok(pid > 0 && is_file(p), "the wrapper leaves " TOKEN ".%ld", pid);
	unlink(p);
	if ((f = fopen(victim, "w"))) {
		fputs("keep\n", f);
		fclose(f);
	}
	plant(dir, wdir, victim);
	for (int i = 0; i < 5; i++) {
		pid = wrapped(dir);
		all &= pid > 0;
		snprintf(p, sizeof p, "%s/" TOKEN ".%ld", wdir, pid);
		made += is_file(p);
	}
	ok(all && !strcmp(text_of(victim, t, sizeof t), "keep\n") && !made,
	   "5 commands beside planted links and FIFOs: all ran, the victim "
	   "whole (\"%s\"), no file made through a link (%d)",
	   t, made);

	/* the directory not private: nothing made */
	chmod(wdir, 0755);
	pid = wrapped(dir);
	snprintf(p, sizeof p, "%s/" TOKEN ".%ld", wdir, pid);
	ok(pid > 0 && !is_file(p), "a .xrun-w of mode 0755: no file");
	chmod(wdir, 0700);
	if (geteuid() == 0) {
		chown(wdir, 65534, 65534);
		pid = wrapped(dir);
		snprintf(p, sizeof p, "%s/" TOKEN ".%ld", wdir, pid);
		ok(pid > 0 && !is_file(p),
		   "a .xrun-w of another user: no file");
		chown(wdir, 0, 0);
	} else {
		tap_skip("a .xrun-w of another user: not root");
	}
	{
		char d2[] = "/tmp/xr-fw2-XXXXXX";
		ok(mkdtemp(d2) != NULL, "another runtime directory");
		snprintf(link_dir, sizeof link_dir, "%s/.xrun-w", d2);
		chmod(dir, 0755);
		symlink(dir, link_dir); /* dir: mode 0755 */
		pid = wrapped(d2);
		snprintf(p, sizeof p, "%s/" TOKEN ".%ld", dir, pid);
		ok(pid > 0 && !is_file(p),
		   "a .xrun-w linked to a directory of mode 0755: no file");
		unlink(link_dir);
		rmdir(d2);
	}

	/* the loop's start: only its own kind of file goes */
	while (kill((pid_t)dead, 0) == 0 && dead < 4194303)
		dead++;
	{
		snprintf(p, sizeof p, "%s/" TOKEN ".%ld", wdir, dead);
		symlink(victim, p); /* link */
		snprintf(p, sizeof p, "%s/fedcba9876543210.%ld", wdir, dead);
		mkfifo(p, 0600); /* fifo */
		snprintf(p, sizeof p, "%s/0000000000000000.%ld", wdir, dead);
		touch(wdir, p + strlen(wdir) + 1); /* other user's */
		if (geteuid() == 0)
			chown(p, 65534, 65534);
		snprintf(p, sizeof p, "%s/1111111111111111.%ld", wdir, dead);
		touch(wdir, p + strlen(wdir) + 1); /* this user's: goes */
		touch(dir, ".xrun-w.backup.2024");
	}
	snprintf(env, sizeof env, "XDG_RUNTIME_DIR=%s", dir);
	l.argv = loop;
	l.env = envv;
	l.timeout = 0.5;
	l.grace = 0.1;
	if (proc_run(&l, &r, &err) == 0)
		proc_result_release(&r);
	{
		char a[700], b[700], c[700], d[700];
		struct stat st;
		snprintf(a, sizeof a, "%s/" TOKEN ".%ld", wdir, dead);
		snprintf(b, sizeof b, "%s/fedcba9876543210.%ld", wdir, dead);
		snprintf(c, sizeof c, "%s/0000000000000000.%ld", wdir, dead);
		snprintf(d, sizeof d, "%s/1111111111111111.%ld", wdir, dead);
		ok(lstat(a, &st) == 0 && S_ISLNK(st.st_mode) &&
		       lstat(b, &st) == 0 && S_ISFIFO(st.st_mode) &&
		       (geteuid() != 0 || lstat(c, &st) == 0) &&
		       lstat(d, &st) < 0 &&
		       exists(dir, ".xrun-w.backup.2024") &&
		       !strcmp(text_of(victim, t, sizeof t), "keep\n"),
		   "the loop's start: the ended pid's regular file of this "
		   "user removed; a link, a FIFO, another user's file and "
		   ".xrun-w.backup.2024 kept; the victim whole");
	}
	{
		const char *rm[] = {"rm", "-rf", "--", dir, NULL};
		struct proc_opts o = {0};
		o.argv = rm;
		o.timeout = 10;
		if (proc_run(&o, &r, &err) == 0)
			proc_result_release(&r);
	}
}

/*
 * 4. A command name holding a newline and ") " (prctl PR_SET_NAME
 *    "a\n) b c d", any byte but NUL is allowed) read by the far loop under
 *    dash, Debian's sh, whose failed `shift` ends the shell (issue 40):
 *    the loop runs its 1.2 s to the end (a frame every 0.2 s; two at
 *    least on a machine loaded as CI's), each frame with the process;
 *    its stat text is one line, whose fields past the name read: a point
 *    of engine.cpu a frame after the first, each known.
 */
static void test_comm(const char *self)
{
	char dir[] = "/tmp/xr-fc-XXXXXX", wdir[64], name[64], env[64];
	const char *named[] = {self, "--comm", NULL};
	const char *sh = proc_which("dash") ? "dash" : "sh";
	const char *loop[] = {sh,    "-c",  counters_sampler_script(),
			      "sh",  "",    "c",
			      "0.2", TOKEN, NULL};
	const char *envv[] = {env, NULL};
	struct proc_opts o = {0}, l = {0};
	struct proc_result r;
	struct xr_err err = {0};
	struct series_set set = {0};
	const struct series *c = NULL;
	struct proc *bg;
	int frames = 0, eng = 0, known = 0;

	ok(mkdtemp(dir) != NULL, "a runtime directory");
	snprintf(wdir, sizeof wdir, "%s/.xrun-w", dir);
	mkdir(wdir, 0700);
	o.argv = named;
	bg = proc_spawn(&o, NULL, &err);
	snprintf(name, sizeof name, TOKEN ".%ld", bg ? (long)proc_pid(bg) : 1L);
	touch(wdir, name);
	proc_sleep(0.1); /* its name set */
	snprintf(env, sizeof env, "XDG_RUNTIME_DIR=%s", dir);
	l.argv = loop;
	l.env = envv;
	l.timeout = 1.2;
	l.grace = 0.1;
	if (bg && proc_run(&l, &r, &err) == 0) {
		for (const char *q = r.out;
		     (q = strstr(q, "@@ xrun-sample-end")); q++)
			frames++;
		for (const char *q = r.out; (q = strstr(q, "@@ engine ")); q++)
			eng++;
		if (sampler_far_engine("far", r.out, &set) == 0)
			c = series_set_find(&set, "far", "engine.cpu");
		for (size_t i = 0; c && i < c->n; i++)
			known += !isnan(c->v[i]);
		ok(r.status == PROC_TIMEOUT && frames >= 2 && eng == frames &&
		       c && c->n == (size_t)frames - 1 && known == (int)c->n,
		   "%s's loop ran to its deadline (%s): %d frames, the "
		   "process in %d, %d known points of engine.cpu",
		   sh, r.status == PROC_TIMEOUT ? "yes" : "no", frames, eng,
		   known);
		proc_result_release(&r);
	} else {
		ok(0, "the named process and the loop ran");
	}
	proc_stop(bg);
	series_set_release(&set);
	{
		const char *rm[] = {"rm", "-rf", "--", dir, NULL};
		struct proc_opts x = {0};
		x.argv = rm;
		x.timeout = 10;
		if (proc_run(&x, &r, &err) == 0)
			proc_result_release(&r);
	}
}

static void test_loop(const char *self)
{
	int last = (int)sysconf(_SC_NPROCESSORS_ONLN) - 1;
	char dir[] = "/tmp/xr-far-XXXXXX", wdir[64], env[64], name[96],
	     dead_name[96], other_dead[96], other_live[96], nap_name[96],
	     log[640];
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
	snprintf(wdir, sizeof wdir, "%s/.xrun-w", dir);
	mkdir(wdir, 0700);
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
	snprintf(name, sizeof name, "0123456789abcdef.%ld", (long)proc_pid(bg));
	snprintf(dead_name, sizeof dead_name, "0123456789abcdef.%ld", dead_pid);
	snprintf(other_dead, sizeof other_dead, "fedcba9876543210.%ld",
		 dead_pid);
	snprintf(other_live, sizeof other_live, "fedcba9876543210.%ld",
		 (long)proc_pid(bg));
	touch(wdir, name);
	touch(wdir, dead_name);
	touch(wdir, other_dead);
	touch(wdir, other_live);
	z.argv = nap;
	napper = proc_spawn(&z, NULL, &err);
	snprintf(nap_name, sizeof nap_name, "0123456789abcdef.%ld",
		 napper ? proc_pid(napper) : 1L);
	touch(wdir, nap_name);
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
	ok(exists(wdir, name) && !exists(wdir, dead_name),
	   "the ended pid's file removed, the live one's kept");
	ok(!exists(wdir, nap_name) && unknown <= 1,
	   "the file of the one that ended while it ran removed; that "
	   "interval's engine.cpu not known (%d points)",
	   unknown);
	ok(!exists(wdir, other_dead) && exists(wdir, other_live),
	   "another session's: the ended one removed, the live one kept");
	buf_release(&out);
	proc_stop(bg);
	{
		char p[600];
		snprintf(p, sizeof p, "%s/%s", wdir, name);
		unlink(p);
		snprintf(p, sizeof p, "%s/%s", wdir, other_live);
		unlink(p);
	}
	rmdir(wdir);
	rmdir(dir);
	series_set_release(&set);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--threads"))
		return spin_main(2.5);
	if (argc > 1 && !strcmp(argv[1], "--comm")) {
		prctl(PR_SET_NAME, "a\n) b c d", 0, 0, 0);
		proc_sleep(3);
		return 0;
	}
	tap_plan(34);
	test_frames();
	test_hostile();
	test_comm(argv[0]);
	if (!proc_which("taskset") || sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		tap_skip("the far loop's two threads: need taskset and two "
			 "CPUs");
		return tap_done();
	}
	test_loop(argv[0]);
	return tap_done();
}
