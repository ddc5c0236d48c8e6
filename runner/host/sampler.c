/*
 * The sampler (sampler.h): a thread per sampled host that turns counter
 * snapshots into series. Locally the thread takes the snapshots itself
 * (counters_local_document: no subprocess); for a netns host it enters
 * the namespace (setns affects the calling thread only) and does the
 * same with a counters_reader made there; for an ssh host, or a netns
 * host it cannot enter, it reads the framed documents of one far-side
 * loop (counters.c's sampler script) started through host_spawn_stream.
 * A macOS host has no such counters for a shell loop to read: its stream
 * is `top -l 0 -s S -n 0`, whose "CPU usage:" lines (mactop.h) become the
 * host-wide cpu.all.busy series (no per-core series, no nic or tcp).
 * The thread never forks, waits for a child or touches the process-group
 * registry: the calling thread starts and stops the child, so the
 * engine's waits and the sampler cannot reap each other's processes.
 * Series are built with the clock of the side that read the counters
 * (sampler_feed.c turns each snapshot into points) and moved to seconds
 * from the mark when the sampler stops.
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "counters.h"
#include "counters_int.h"
#include "host.h"
#include "plan.h"
#include "proc.h"
#include "sampler.h"
#include "sampler_int.h"

#include "banned.h"

/* ---- the local reader ---------------------------------------------------- */

static int take_local(struct sampler *s)
{
	struct buf doc;
	struct counters_snap *snap = NULL;
	double t = proc_now_mono();
	int rc;

	buf_init(&doc, 64 << 20);
	rc = s->reader
		 ? counters_reader_document(s->reader, s->iface, s->what, &doc)
		 : counters_local_document(s->iface, s->what, &doc);
	if (rc == 0)
		rc = counters_parse(doc.s, doc.len, &snap);
	buf_release(&doc);
	if (rc == 0)
		rc = sampler_feed(s, snap, t);
	if (rc == 0)
		rc = sampler_engine_take(s);
	if (rc == 0)
		sampler_lead_check(s, 0);
	if (rc < 0 && !s->note[0])
		snprintf(s->note, sizeof s->note,
			 "sampler on '%s' stopped: out of memory", s->label);
	return rc;
}

/* Wait until the monotonic time `until` or a stop: 1 when stopped. */
static int wait_stop(struct sampler *s, int fd, double until)
{
	struct pollfd pf[2] = {{s->stop_pipe[0], POLLIN, 0}, {fd, POLLIN, 0}};
	double left = until - proc_now_mono();
	struct timespec ts;
	int r;

	if (left < 0)
		left = 0;
	ts.tv_sec = (time_t)left;
	ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
	r = ppoll(pf, fd >= 0 ? 2 : 1, &ts, NULL);
	return r > 0 && (pf[0].revents & POLLIN);
}

/* Sample until a stop (1) or the deadline or an error (0). */
static int local_loop(struct sampler *s)
{
	double next = s->start + s->first_interval;

	while (!wait_stop(s, -1, next)) {
		double now = proc_now_mono();
		if (now < next)
			continue;
		if (now >= s->deadline) {
			snprintf(s->note, sizeof s->note,
				 "sampler on '%s' stopped at its deadline "
				 "(%.0f s)",
				 s->label, s->deadline - s->start);
			return 0;
		}
		if (take_local(s) < 0)
			return 0;
		next += s->period;
		if (next < now) /* fell behind (a stopped machine): skip */
			next = now + s->period;
	}
	return 1;
}

static void *local_main(void *arg)
{
	local_loop(arg);
	sampler_lead_check(arg, 1);
	return NULL;
}

static void netns_ready(struct sampler *s, int ready)
{
	pthread_mutex_lock(&s->ready_lock);
	s->ready = ready;
	pthread_cond_signal(&s->ready_cond);
	pthread_mutex_unlock(&s->ready_lock);
}

/*
 * A netns host's thread: into the namespace, the first snapshot, then
 * the local loop; the last, partial interval is read here too, as only
 * this thread is in the namespace. The reader's sockets and files are
 * made after setns, so they belong to the namespace.
 */
static void *netns_main(void *arg)
{
	struct sampler *s = arg;

	if (setns(s->ns_fd, CLONE_NEWNET) < 0) {
		netns_ready(s, errno > 0 ? -errno : -EINVAL);
		return NULL;
	}
	s->reader = counters_reader_new(1);
	if (!s->reader || take_local(s) < 0) {
		netns_ready(s, -ENOMEM);
		return NULL;
	}
	netns_ready(s, 1);
	if (local_loop(s) && !s->note[0])
		take_local(s);
	sampler_lead_check(s, 1);
	return NULL;
}

/* ---- lifecycle --------------------------------------------------------- */

static void sampler_free(struct sampler *s)
{
	if (s->stop_pipe[0] >= 0)
		close(s->stop_pipe[0]);
	if (s->stop_pipe[1] >= 0)
		close(s->stop_pipe[1]);
	proc_latch_close(&s->first);
	proc_latch_close(&s->lead);
	if (s->out_fd >= 0)
		close(s->out_fd);
	if (s->err_fd >= 0)
		close(s->err_fd);
	if (s->ns_fd >= 0)
		close(s->ns_fd);
	counters_reader_free(s->reader);
	pthread_mutex_destroy(&s->ready_lock);
	pthread_cond_destroy(&s->ready_cond);
	counters_snap_free(s->prev);
	series_set_release(&s->set);
	sampler_engine_free(s);
	buf_release(&s->err_text);
	pthread_mutex_destroy(&s->lock);
	free(s->peeked);
	free(s->times);
	free(s->iface);
	free(s);
}

/* Start fn on the sampler's thread: 0 or pthread_create's error. The
 * thread takes no signal: the run loop's handlers stay on the thread
 * that waits for the engine. */
static int start_thread(struct sampler *s, void *(*fn)(void *))
{
	sigset_t all, old;
	int rc;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&s->thread, NULL, fn, s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	s->running = rc == 0;
	return rc;
}

/*
 * A netns host sampled in-process: the thread enters the namespace and
 * answers once it has the first snapshot. 1 when it samples; 0 when it
 * cannot (not root, the namespace gone): the thread has ended and s->how
 * says why, for the run's note.
 */
static int start_netns(struct sampler *s, const char *ns)
{
	char path[300];
	int ready;

	snprintf(path, sizeof path, "/run/netns/%s", ns);
	s->ns_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (s->ns_fd < 0) {
		ready = -errno;
	} else if ((ready = start_thread(s, netns_main)) != 0) {
		ready = -ready;
	} else {
		pthread_mutex_lock(&s->ready_lock);
		while (!s->ready)
			pthread_cond_wait(&s->ready_cond, &s->ready_lock);
		ready = s->ready;
		pthread_mutex_unlock(&s->ready_lock);
	}
	if (s->ns_fd >= 0)
		close(s->ns_fd);
	s->ns_fd = -1;
	if (ready == 1)
		return 1;
	if (s->running)
		pthread_join(s->thread, NULL);
	s->running = 0;
	counters_reader_free(s->reader);
	s->reader = NULL;
	counters_snap_free(s->prev);
	s->prev = NULL;
	snprintf(s->how, sizeof s->how,
		 "sampler on '%s' reads namespace '%s' through a far-side "
		 "loop: cannot enter it in-process (%s)",
		 s->label, ns, strerror(-ready));
	return 0;
}

/* A host the sampler cannot read during a run: 0, or -XR_EHOST with err
 * saying why and what is read instead. Windows: Get-Counter (winctr.c)
 * gives CPU time and the adapter's receive drops, so without cpu in
 * counters, and nic with an interface, there is nothing to sample;
 * macOS: top gives CPU busy only, so without cpu there is nothing. */
static int unsampled(struct host *h, unsigned what, const char *iface,
		     const char *label, struct xr_err *err)
{
	if (host_os(h) == PLAN_OS_WINDOWS && !host_is_local(h) &&
	    !(what & PLAN_COUNTER_CPU) && !(iface && (what & PLAN_COUNTER_NIC)))
		return xr_err_set(err, XR_EHOST, NULL, 0, 0,
				  "host '%s' (Windows): the sampler reads CPU "
				  "time and the adapter's receive drops "
				  "(Get-Counter) and counters has neither cpu "
				  "nor nic with an interface; tcp is read "
				  "before and after the run",
				  label);
	if (host_os(h) == PLAN_OS_MACOS && !host_is_local(h) &&
	    !(what & PLAN_COUNTER_CPU))
		return xr_err_set(err, XR_EHOST, NULL, 0, 0,
				  "host '%s' (macOS): the sampler reads CPU "
				  "busy only (top) and counters has no cpu; "
				  "nic and tcp are read before and after the "
				  "run",
				  label);
	return 0;
}

int sampler_start(struct host *h, const char *label, const char *iface,
		  unsigned what, double period, double max_s,
		  struct sampler **out, struct xr_err *err)
{
	struct sampler *s;
	int local = host_is_local(h), rc;

	*out = NULL;
	if ((rc = unsampled(h, what, iface, label, err)) < 0)
		return rc;
	if (!(s = calloc(1, sizeof *s)))
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	s->stop_pipe[0] = s->stop_pipe[1] = s->out_fd = s->err_fd = -1;
	s->first.rd = s->first.wr = -1;
	s->lead.rd = s->lead.wr = -1;
	pthread_mutex_init(&s->lock, NULL);
	s->ns_fd = -1;
	pthread_mutex_init(&s->ready_lock, NULL);
	pthread_cond_init(&s->ready_cond, NULL);
	snprintf(s->label, sizeof s->label, "%s", label);
	s->iface = iface ? strdup(iface) : NULL;
	s->what =
	    what & (PLAN_COUNTER_NIC | PLAN_COUNTER_TCP | PLAN_COUNTER_CPU);
	s->period = period < SAMPLER_MIN_PERIOD ? SAMPLER_MIN_PERIOD : period;
	s->first_interval =
	    s->period < SAMPLER_LEAD_S ? s->period : SAMPLER_LEAD_S;
	s->lead_points =
	    (size_t)(sampler_lead_s(s->period) / s->first_interval + 0.5);
	s->start = proc_now_mono();
	s->deadline = s->start + max_s;
	buf_init(&s->err_text, 8192);
	if ((iface && !s->iface) || pipe2(s->stop_pipe, O_CLOEXEC) < 0 ||
	    proc_latch_open(&s->first) < 0 || proc_latch_open(&s->lead) < 0) {
		sampler_free(s);
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
				  "cannot start the sampler of host '%s'",
				  label);
	}
	if (local)
		rc = take_local(s) < 0 ? -XR_ENOMEM : 0;
	else if (host_netns(h) && host_os(h) != PLAN_OS_MACOS &&
		 host_os(h) != PLAN_OS_WINDOWS && start_netns(s, host_netns(h)))
		rc = 0; /* its thread runs (a netns host of another OS stands
			 * in for one in the tests: it gets that OS's stream) */
	else
		rc = sampler_remote_start(s, h, max_s, err);
	if (rc < 0) {
		if (local)
			xr_err_set(err, rc, NULL, 0, 0,
				   "cannot sample host '%s': %s", label,
				   s->note[0] ? s->note : "no snapshot");
		sampler_free(s);
		return rc;
	}
	if (!s->running &&
	    (rc = start_thread(s, local ? local_main : sampler_remote_main)) !=
		0) {
		proc_stop(s->child);
		sampler_free(s);
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
				  "cannot start the sampler thread of host "
				  "'%s': %s",
				  label, strerror(rc));
	}
	*out = s;
	return 0;
}

double sampler_lead_s(double period)
{
	double k;
	if (period < SAMPLER_MIN_PERIOD)
		period = SAMPLER_MIN_PERIOD;
	if (period >= SAMPLER_LEAD_S)
		return SAMPLER_LEAD_S;
	/* whole periods up to SAMPLER_LEAD_S; 1e-9: 0.2 / 0.1 is not 2 */
	k = ceil(SAMPLER_LEAD_S / period - 1e-9);
	return k * period;
}

int sampler_wait_lead(struct sampler *s, double until)
{
	int r;
	if (!s)
		return 0;
	r = proc_latch_wait(&s->lead, until);
	return r < 0 ? r : 0;
}

void sampler_mark(struct sampler *s)
{
	if (!s)
		return;
	pthread_mutex_lock(&s->lock);
	s->t0 = proc_now_mono();
	s->marked = 1;
	pthread_mutex_unlock(&s->lock);
}

/* Append text to note, after a "; " when it holds something already. */
static void note_add(char *note, size_t sz, const char *text)
{
	size_t n = strlen(note);
	if (!text[0] || n + 3 >= sz)
		return;
	/* at most what fits: the precision keeps -Wformat-truncation quiet */
	snprintf(note + n, sz - n, "%s%.*s", n ? "; " : "", (int)(sz - n - 3),
		 text);
}

void sampler_stop(struct sampler *s, struct series_set *dst)
{
	double shift;
	ssize_t w;

	if (!s)
		return;
	if (s->running) {
		do
			w = write(s->stop_pipe[1], "x", 1);
		while (w < 0 && errno == EINTR);
		pthread_join(s->thread, NULL);
	}
	if (!s->child && !s->reader && !s->note[0])
		take_local(s); /* the last, partial interval (netns: its
				* thread took it) */
	else if (s->child && !s->note[0])
		sampler_remote_last(s);
	if (s->child)
		proc_stop(s->child);
	shift = (s->child ? s->offset : 0) - (s->marked ? s->t0 : s->start);
	for (size_t i = 0; i < s->set.n; i++)
		for (size_t k = 0; k < s->set.s[i].n; k++)
			s->set.s[i].t[k] += shift;
	if (series_set_take(dst, &s->set) < 0)
		note_add(s->note, sizeof s->note, "out of memory");
	note_add(dst->note, sizeof dst->note, s->how);
	note_add(dst->note, sizeof dst->note, s->note);
	sampler_free(s);
}

/* The new points of series i into dst, t moved by shift. Under lock. */
static int peek_series(struct sampler *s, size_t i, double shift,
		       struct series_set *dst)
{
	const struct series *se = &s->set.s[i];
	struct series *to;
	size_t k;
	if (s->peeked[i] >= se->n)
		return 0;
	to = series_set_get(dst, se->host, se->name, se->unit);
	if (!to)
		return -XR_ENOMEM;
	for (k = s->peeked[i]; k < se->n; k++)
		if (series_add(to, se->t[k] + shift, se->v[k]) < 0)
			return -XR_ENOMEM;
	s->peeked[i] = se->n;
	return 0;
}

int sampler_wait_first(struct sampler *s, double until)
{
	size_t n;
	int r;
	/* in-process: its first snapshot came with the start */
	if (!s || !s->child)
		return 0;
	if ((r = proc_latch_wait(&s->first, until)) < 0)
		return r;
	pthread_mutex_lock(&s->lock);
	n = s->frames;
	pthread_mutex_unlock(&s->lock);
	return n ? 0 : 1;
}

int sampler_peek_new(struct sampler *s, struct series_set *dst)
{
	double shift;
	int rc = 0;
	if (!s || !s->marked)
		return 0;
	pthread_mutex_lock(&s->lock);
	if (s->npeeked < s->set.n) {
		size_t *np = realloc(s->peeked, s->set.n * sizeof *np);
		if (!np)
			rc = -XR_ENOMEM;
		else {
			memset(np + s->npeeked, 0,
			       (s->set.n - s->npeeked) * sizeof *np);
			s->peeked = np;
			s->npeeked = s->set.n;
		}
	}
	/* as sampler_stop will move them; a far side's offset as known now */
	shift = (s->child ? s->offset : 0) - s->t0;
	if (s->child && !s->have_offset)
		rc = rc ? rc : 1;
	for (size_t i = 0; rc == 0 && i < s->set.n; i++)
		rc = peek_series(s, i, shift, dst);
	pthread_mutex_unlock(&s->lock);
	return rc < 0 ? rc : 0;
}

void sampler_dump(const struct series_set *ss, FILE *f)
{
	for (size_t i = 0; i < ss->n; i++) {
		const struct series *se = &ss->s[i];
		double sum = 0;
		for (size_t k = 0; k < se->n; k++)
			sum += se->v[k];
		fprintf(f, "xrun: series %s %s %s n=%zu", se->host, se->name,
			se->unit, se->n);
		if (se->n)
			fprintf(f, " t=%.3f..%.3f sum=%.17g", se->t[0],
				se->t[se->n - 1], sum);
		fputc('\n', f);
	}
	if (ss->note[0])
		fprintf(f, "xrun: series note: %s\n", ss->note);
}
