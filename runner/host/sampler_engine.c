/*
 * The engine's own processes seen by an in-process sampler (a local host,
 * or a netns host whose namespace its thread entered: one PID namespace
 * with us): at each snapshot, every child started for the sampler's host
 * label (proc_opts.watch: the engine's client and servers on that host,
 * proc_watch.c). Two series:
 *
 *   engine.cpu   % of one core they used in the interval: the increase of
 *                each one's utime + stime (/proc/PID/stat fields 14 and
 *                15, all its threads', the dead ones' included; proc(5)),
 *                summed; one that ended within the interval counts to its
 *                end, from the CPU time wait4 gave when it was reaped;
 *   engine.core  the core the busiest of their threads in the interval
 *                last ran on (field 39, "processor"; a multi-threaded one's
 *                threads read from /proc/PID/task/TID/stat), NaN when none
 *                of them ran.
 *
 * So a report can say whether the engine's process was on the core that
 * was busy (explain_evid.c).
 *
 * On a Linux ssh host the same two series come from the far sampler
 * loop's "@@ engine PID" sections (counters.c): the stat line of each
 * process the host's watch files name (host.h, host_watch_token), then
 * its threads'. There the points are timed at the frame's uptime, read
 * just before those sections; a process that ended since the last frame
 * has its last interval lost (no wait4 over there). Windows, macOS and a
 * namespace read through a far loop have no such series.
 *
 * SPDX-License-Identifier: MIT
 */
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plan.h"
#include "sampler_int.h"
#include "series_name.h"

#include "banned.h"

/* The most processes and threads followed per snapshot: iperf3 >= 3.16
 * runs a thread per stream (-P 128 is its maximum). */
#define ENG_PROCS 64
#define ENG_THREADS 1024
/* The far side's clock ticks a second: USER_HZ, which /proc reports in,
 * is 100 on every Linux architecture still built (time(7)). */
#define ENG_FAR_HZ 100.0

struct eng_proc {
	long pid;
	double ticks; /* the whole process's, /proc/PID/stat */
	int core;     /* its busiest thread's processor, -1: not known */
	double start; /* far: when it started (s of uptime, field 22) */
};

struct eng_thread {
	long pid, tid;
	unsigned long long ticks;
	int cpu; /* the processor it last ran on */
};

/* What one snapshot found. */
struct eng_snap {
	size_t np, nt;
	struct eng_proc p[ENG_PROCS];
	struct eng_thread th[ENG_THREADS];
};

/* Two snapshots, the previous one and the one being taken, swapped at
 * each call: nothing is allocated or copied while the engine runs. */
struct sampler_eng {
	int have;  /* a snapshot was taken: the next one makes points */
	double t;  /* when its /proc reads began: the points' t, so that a
		    * rate's interval runs from read to read, not from the
		    * snapshot's t (the counters are read in between, for a
		    * varying time: a sanitizer run measured 105% of a core) */
	double hz; /* clock ticks a second */
	int prev;  /* snap[prev] is the previous snapshot */
	struct eng_snap snap[2];
};

/* What the interval since the previous snapshot showed. */
struct eng_sum {
	double sum, best; /* ticks in the interval: all, the busiest's */
	int core;	  /* the busiest's processor, -1: none ran */
};

/* utime + stime, num_threads, starttime and processor of a /proc stat line (a
 * process's: its threads' times summed, the dead ones' included; or a
 * thread's): 0, or -1 when the line is not one. The command name (field
 * 2) may hold blanks and parentheses: the fields follow its last ')'. */
static int parse_stat(const char *line, unsigned long long *ticks,
		      long *threads, int *cpu, unsigned long long *start)
{
	const char *p = strrchr(line, ')');
	unsigned long long ut, st;
	int k;

	if (!p)
		return -1;
	p++;
	/* field 3 (state) is token 0: utime is token 11, stime 12,
	 * num_threads 17, starttime 19, processor 36 */
	for (k = 0; k < 11 && p; k++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p, " %llu %llu", &ut, &st) != 2)
		return -1;
	for (; k < 17 && p; k++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p, " %ld", threads) != 1)
		return -1;
	for (; k < 19 && p; k++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p, " %llu", start) != 1)
		return -1;
	for (; k < 36 && p; k++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p, " %d", cpu) != 1)
		return -1;
	*ticks = ut + st;
	return 0;
}

/* The same of a /proc stat file: -1 also when it is gone. */
static int read_stat(const char *path, unsigned long long *ticks, long *threads,
		     int *cpu)
{
	char line[1024];
	unsigned long long start;
	ssize_t n;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = read(fd, line, sizeof line - 1);
	close(fd);
	if (n <= 0)
		return -1;
	line[n] = '\0';
	return parse_stat(line, ticks, threads, cpu, &start);
}

static const struct eng_proc *prev_proc(const struct eng_snap *was, long pid)
{
	for (size_t i = 0; i < was->np; i++)
		if (was->p[i].pid == pid)
			return &was->p[i];
	return NULL;
}

/* The ticks thread tid had at the previous snapshot, or 0 (a thread new
 * since: all its time is in the interval). */
static unsigned long long prev_ticks(const struct eng_snap *was, long tid)
{
	for (size_t i = 0; i < was->nt; i++)
		if (was->th[i].tid == tid)
			return was->th[i].ticks;
	return 0;
}

static void add_thread(struct eng_snap *w, long pid, long tid,
		       unsigned long long ticks, int cpu)
{
	if (w->nt < ENG_THREADS)
		w->th[w->nt++] = (struct eng_thread){pid, tid, ticks, cpu};
}

/* A multi-threaded pid's threads into w. */
static void read_threads(long pid, struct eng_snap *w)
{
	char path[320];
	struct dirent *d;
	DIR *dir;

	snprintf(path, sizeof path, "/proc/%ld/task", pid);
	if (!(dir = opendir(path)))
		return; /* ended since its stat was read */
	while ((d = readdir(dir)) && w->nt < ENG_THREADS) {
		unsigned long long t;
		long nth;
		int cpu;
		if (d->d_name[0] < '0' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof path, "/proc/%ld/task/%s/stat", pid,
			 d->d_name);
		if (read_stat(path, &t, &nth, &cpu) == 0)
			add_thread(w, pid, atol(d->d_name), t, cpu);
	}
	closedir(dir);
}

/* The processor of pid's busiest thread in w since the previous
 * snapshot, -1 when none of them ran. */
static int busiest_core(const struct eng_snap *prev, const struct eng_snap *w,
			long pid)
{
	unsigned long long best = 0;
	int core = -1;
	for (size_t i = 0; i < w->nt; i++) {
		const struct eng_thread *t = &w->th[i];
		unsigned long long before;
		if (t->pid != pid)
			continue;
		before = prev_ticks(prev, t->tid);
		if (t->ticks > before && t->ticks - before > best) {
			best = t->ticks - before;
			core = t->cpu;
		}
	}
	return core;
}

/* One process's ticks in the interval (ticks now, less what the previous
 * snapshot saw of it) and its core, added into acc. */
static void sum_process(const struct eng_proc *was, double ticks, int core,
			struct eng_sum *acc)
{
	double d = ticks - (was ? was->ticks : 0);
	if (!(d > 0))
		return;
	acc->sum += d;
	if (d > acc->best && core >= 0) {
		acc->best = d;
		acc->core = core;
	}
}

/* The processes of w, their cores set, into acc. */
static void sum_snapshot(const struct eng_snap *prev, struct eng_snap *w,
			 struct eng_sum *acc)
{
	for (size_t i = 0; i < w->np; i++) {
		struct eng_proc *p = &w->p[i];
		p->core = busiest_core(prev, w, p->pid);
		sum_process(prev_proc(prev, p->pid), p->ticks, p->core, acc);
	}
}

/* One watched process of ours into w; an ended one (its CPU time from
 * wait4, its core the one last seen) straight into acc. */
static void take_process(const struct eng_snap *prev,
			 const struct proc_watch *pw, double hz,
			 struct eng_snap *w, struct eng_sum *acc)
{
	char path[64];
	unsigned long long t;
	long nth;
	int cpu;

	if (pw->ended) {
		const struct eng_proc *was = prev_proc(prev, pw->pid);
		/* not known: its last interval is lost */
		if (isfinite(pw->cpu_s))
			sum_process(was, pw->cpu_s * hz, was ? was->core : -1,
				    acc);
		return;
	}
	snprintf(path, sizeof path, "/proc/%ld/stat", pw->pid);
	if (read_stat(path, &t, &nth, &cpu) < 0 || w->np >= ENG_PROCS)
		return;
	/* one thread: its times are the process's; kept as the main
	 * thread's, for when it starts others (iperf3 >= 3.16 does at its
	 * test's start) */
	if (nth > 1)
		read_threads(pw->pid, w);
	else
		add_thread(w, pw->pid, pw->pid, t, cpu);
	w->p[w->np++] = (struct eng_proc){pw->pid, (double)t, -1, 0};
}

static struct sampler_eng *eng_of(struct sampler *s, double hz)
{
	if (!s->eng && (s->eng = calloc(1, sizeof *s->eng)))
		s->eng->hz = hz;
	return s->eng;
}

/* The interval's points at now (when the snapshot's reads began); the
 * snapshot taken becomes the previous one. n: processes seen now. */
static int add_points(struct sampler *s, double now, size_t n,
		      const struct eng_sum *acc)
{
	struct sampler_eng *e = s->eng;
	int rc = 0;

	if (e->have && (n || e->snap[e->prev].np) && now > e->t) {
		pthread_mutex_lock(&s->lock);
		rc = series_set_add(&s->set, s->label, SERIES_ENGINE_CPU, "%",
				    now,
				    100.0 * acc->sum / e->hz / (now - e->t));
		if (rc == 0)
			rc = series_set_add(&s->set, s->label,
					    SERIES_ENGINE_CORE, "1", now,
					    acc->core >= 0 ? acc->core : NAN);
		pthread_mutex_unlock(&s->lock);
	}
	e->prev = !e->prev;
	e->t = now;
	e->have = 1;
	return rc;
}

int sampler_engine_take(struct sampler *s)
{
	struct proc_watch pw[ENG_PROCS];
	struct eng_sum acc = {0, 0, -1};
	struct sampler_eng *e;
	struct eng_snap *prev, *w;
	long hz;
	double now;
	int n;

	if (!(s->what & PLAN_COUNTER_CPU))
		return 0;
	hz = s->eng ? 0 : sysconf(_SC_CLK_TCK);
	if (!(e = eng_of(s, hz > 0 ? (double)hz : 100)))
		return -XR_ENOMEM;
	prev = &e->snap[e->prev];
	w = &e->snap[!e->prev];
	w->np = w->nt = 0;
	now = proc_now_mono();
	n = proc_watched(s->label, pw, ENG_PROCS);
	for (int i = 0; i < n; i++)
		take_process(prev, &pw[i], e->hz, w, &acc);
	sum_snapshot(prev, w, &acc);
	return add_points(s, now, (size_t)n, &acc);
}

/* One "@@ engine PID" section's lines into w: the process's stat line,
 * then its threads' (none when it has one thread: its line stands for
 * the thread's). */
static void parse_section(long pid, const char *p, const char *end,
			  struct eng_snap *w)
{
	unsigned long long pt = 0;
	int first = 1, pcpu = -1, threads = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = (size_t)((nl ? nl : end) - p);
		char line[1024];
		unsigned long long t, start;
		long nth;
		int cpu;
		if (len < sizeof line) {
			memcpy(line, p, len);
			line[len] = '\0';
			if (parse_stat(line, &t, &nth, &cpu, &start) < 0) {
				; /* not a stat line: a torn read */
			} else if (!first) {
				add_thread(w, pid, atol(line), t, cpu);
				threads++;
			} else if (w->np < ENG_PROCS) {
				w->p[w->np++] = (struct eng_proc){
				    pid, (double)t, -1,
				    (double)start / ENG_FAR_HZ};
				pt = t;
				pcpu = cpu;
				first = 0;
			} else {
				return; /* no room: not followed */
			}
		}
		p = nl ? nl + 1 : end;
	}
	if (!first && !threads)
		add_thread(w, pid, pid, pt, pcpu);
}

int sampler_engine_frame(struct sampler *s, const char *text, size_t len,
			 double up)
{
	static const char hd[] = "@@ engine ";
	const char *p = text, *end = text + len;
	struct eng_sum acc = {0, 0, -1};
	struct sampler_eng *e;
	struct eng_snap *w;

	if (!(s->what & PLAN_COUNTER_CPU))
		return 0;
	if (!(e = eng_of(s, ENG_FAR_HZ)))
		return -XR_ENOMEM;
	w = &e->snap[!e->prev];
	w->np = w->nt = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *next = nl ? nl + 1 : end, *sec_end = next;
		long pid;
		if ((size_t)(end - p) > sizeof hd - 1 &&
		    !memcmp(p, hd, sizeof hd - 1) &&
		    (pid = atol(p + sizeof hd - 1)) > 0) {
			/* to the next section header */
			while (sec_end < end && !(end - sec_end >= 3 &&
						  !memcmp(sec_end, "@@ ", 3))) {
				const char *n2 = memchr(
				    sec_end, '\n', (size_t)(end - sec_end));
				sec_end = n2 ? n2 + 1 : end;
			}
			parse_section(pid, next, sec_end, w);
		}
		p = sec_end;
	}
	sum_snapshot(&e->snap[e->prev], w, &acc);
	/* One seen before is gone: what it used since is not known (no
	 * wait4 over there). One seen first that started before the
	 * previous frame (its file was not there yet): its ticks are not
	 * all the interval's. */
	for (size_t i = 0; i < e->snap[e->prev].np; i++)
		if (!prev_proc(w, e->snap[e->prev].p[i].pid))
			acc.sum = NAN;
	for (size_t i = 0; e->have && i < w->np; i++)
		if (!prev_proc(&e->snap[e->prev], w->p[i].pid) &&
		    w->p[i].start < e->t)
			acc.sum = NAN;
	return add_points(s, up, w->np, &acc);
}

void sampler_engine_free(struct sampler *s)
{
	free(s->eng);
	s->eng = NULL;
}
