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
 * was busy (explain_evid.c). A far-side sampler (ssh, or a namespace read
 * through a far loop) has no such series: the engine's pids there are not
 * ours.
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

#include "banned.h"

/* The most processes and threads followed per snapshot: iperf3 >= 3.16
 * runs a thread per stream (-P 128 is its maximum). */
#define ENG_PROCS 64
#define ENG_THREADS 1024

struct eng_proc {
	long pid;
	double ticks; /* the whole process's, /proc/PID/stat */
	int core;     /* its busiest thread's processor, -1: not known */
};

struct eng_thread {
	long tid;
	unsigned long long ticks;
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

/* utime + stime, num_threads and processor of a /proc stat file (a
 * process's: its threads' times summed, the dead ones' included; or a
 * thread's): 0, or -1 when it is gone or the line is not one. The
 * command name (field 2) may hold blanks and parentheses: the fields
 * follow its last ')'. */
static int read_stat(const char *path, unsigned long long *ticks, long *threads,
		     int *cpu)
{
	char line[1024], *p;
	unsigned long long ut, st;
	ssize_t n;
	int fd, k;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = read(fd, line, sizeof line - 1);
	close(fd);
	if (n <= 0)
		return -1;
	line[n] = '\0';
	if (!(p = strrchr(line, ')')))
		return -1;
	p++;
	/* field 3 (state) is token 0: utime is token 11, stime 12,
	 * num_threads 17, processor 36 */
	for (k = 0; k < 11 && p; k++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p, " %llu %llu", &ut, &st) != 2)
		return -1;
	for (; k < 17 && p; k++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p, " %ld", threads) != 1)
		return -1;
	for (; k < 36 && p; k++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p, " %d", cpu) != 1)
		return -1;
	*ticks = ut + st;
	return 0;
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

/* The busiest thread of a multi-threaded pid since the previous
 * snapshot was: its processor, -1 when none ran. Its threads go into w. */
static int busiest_thread(const struct eng_snap *was, long pid,
			  struct eng_snap *w)
{
	char path[320];
	unsigned long long best = 0;
	struct dirent *d;
	int core = -1;
	DIR *dir;

	snprintf(path, sizeof path, "/proc/%ld/task", pid);
	if (!(dir = opendir(path)))
		return -1; /* ended since its stat was read */
	while ((d = readdir(dir)) && w->nt < ENG_THREADS) {
		unsigned long long t, before;
		long nth;
		int cpu;
		if (d->d_name[0] < '0' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof path, "/proc/%ld/task/%s/stat", pid,
			 d->d_name);
		if (read_stat(path, &t, &nth, &cpu) < 0)
			continue;
		w->th[w->nt].tid = atol(d->d_name);
		w->th[w->nt].ticks = t;
		before = prev_ticks(was, w->th[w->nt].tid);
		w->nt++;
		if (t > before && t - before > best) {
			best = t - before;
			core = cpu;
		}
	}
	closedir(dir);
	return core;
}

/* One watched process into w: its ticks since the previous snapshot
 * (an ended one: its CPU time from wait4, less what was seen of it) and,
 * when it ran, the core of its busiest thread, added into acc. */
static void take_process(const struct eng_snap *prev,
			 const struct proc_watch *pw, double hz,
			 struct eng_snap *w, struct eng_sum *acc)
{
	const struct eng_proc *was = prev_proc(prev, pw->pid);
	double ticks, d;
	int core = was ? was->core : -1;

	if (pw->ended) {
		if (!isfinite(pw->cpu_s))
			return; /* not known: its last interval is lost */
		ticks = pw->cpu_s * hz;
	} else {
		char path[64];
		unsigned long long t;
		long nth;
		int cpu;
		snprintf(path, sizeof path, "/proc/%ld/stat", pw->pid);
		if (read_stat(path, &t, &nth, &cpu) < 0 || w->np >= ENG_PROCS)
			return;
		ticks = (double)t;
		core = nth > 1 ? busiest_thread(prev, pw->pid, w) : cpu;
		/* one thread: its times are the process's; kept as the main
		 * thread's, for when it starts others (iperf3 >= 3.16 does at
		 * its test's start) */
		if (nth == 1 && w->nt < ENG_THREADS)
			w->th[w->nt++] = (struct eng_thread){pw->pid, t};
		w->p[w->np++] = (struct eng_proc){pw->pid, ticks, core};
	}
	d = ticks - (was ? was->ticks : 0);
	if (!(d > 0))
		return;
	acc->sum += d;
	if (d > acc->best && core >= 0) {
		acc->best = d;
		acc->core = core;
	}
}

int sampler_engine_take(struct sampler *s)
{
	struct proc_watch pw[ENG_PROCS];
	struct sampler_eng *e = s->eng;
	struct eng_sum acc = {0, 0, -1};
	struct eng_snap *prev, *w;
	double now;
	int n, rc = 0;

	if (!(s->what & PLAN_COUNTER_CPU))
		return 0;
	if (!e) {
		long hz = sysconf(_SC_CLK_TCK);
		if (!(e = s->eng = calloc(1, sizeof *e)))
			return -XR_ENOMEM;
		e->hz = hz > 0 ? (double)hz : 100;
	}
	prev = &e->snap[e->prev];
	w = &e->snap[!e->prev];
	w->np = w->nt = 0;
	now = proc_now_mono();
	n = proc_watched(s->label, pw, ENG_PROCS);
	for (int i = 0; i < n; i++)
		take_process(prev, &pw[i], e->hz, w, &acc);
	if (e->have && (n || prev->np) && now > e->t) {
		pthread_mutex_lock(&s->lock);
		rc = series_set_add(&s->set, s->label, "engine.cpu", "%", now,
				    100.0 * acc.sum / e->hz / (now - e->t));
		if (rc == 0)
			rc = series_set_add(&s->set, s->label, "engine.core",
					    "1", now,
					    acc.core >= 0 ? acc.core : NAN);
		pthread_mutex_unlock(&s->lock);
	}
	e->prev = !e->prev;
	e->t = now;
	e->have = 1;
	return rc;
}

void sampler_engine_free(struct sampler *s)
{
	free(s->eng);
	s->eng = NULL;
}
