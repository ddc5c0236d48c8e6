/*
 * The sampler's remote reader (sampler_int.h): the stream of a far-side
 * loop, started through host_spawn_stream, whose framed documents become
 * snapshots (counters.c's sampler script), or on a macOS host the lines
 * of `top -l 0 -s S -n 0` (mactop.h) that become cpu.all.busy, or on a
 * Windows host the frames of a Get-Counter loop (winctr.h) that become
 * cpu and nic drop series; and, at the stop, the last partial interval.
 * A far loop's whole text is also read here offline, for its engine
 * series (sampler_far_engine: tests and benchmarks).
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "counters.h"
#include "counters_int.h"
#include "host.h"
#include "mactop.h"
#include "plan.h"
#include "proc.h"
#include "sampler_int.h"
#include "series_name.h"
#include "strv.h"
#include "sysread.h"
#include "winctr.h"

#include "banned.h"

/* ---- the remote reader ------------------------------------------------- */

const char *sampler_frame_next(const char *text, const char **body, size_t *len,
			       double *up)
{
	static const char hd[] = "@@ xrun-sample ", tl[] = "@@ xrun-sample-end";
	const char *b = strstr(text, hd), *nl, *e;
	if (!b || !(nl = strchr(b, '\n')) || !(e = strstr(nl, tl)))
		return NULL;
	*up = strtod(b + sizeof hd - 1, NULL);
	*body = nl + 1;
	*len = (size_t)(e - nl - 1);
	return e + sizeof tl - 1;
}

/* A frame timed at far uptime up, read at now: its clock must be finite
 * and past the last frame's (a far /proc giving nan, a constant or a
 * clock going back would put points anywhere); a refused frame is
 * counted for the run's note. The silence since the last frame, once
 * marked, is kept for the stall note (sampler_remote_last). */
static int clock_ok(struct sampler *s, double up, double now)
{
	int ok = isfinite(up) && up >= 0 && up < 1e10 &&
		 (!s->frames || up > s->last_up);
	pthread_mutex_lock(&s->lock);
	if (s->frames && s->marked && now - s->frame_at > s->frame_gap)
		s->frame_gap = now - s->frame_at;
	s->frame_at = now;
	if (ok)
		s->last_up = up;
	else
		s->bad_clock++;
	pthread_mutex_unlock(&s->lock);
	return ok;
}

/* Complete frames of acc become snapshots; what remains stays. 0, or -XR_EPARSE
 * when the stream is not our sampler's. */
static int take_frames(struct sampler *s, struct buf *acc, double now)
{
	size_t used = 0;

	for (;;) {
		struct counters_snap *snap = NULL;
		const char *body, *next;
		size_t len;
		double up;
		if (!(next =
			  sampler_frame_next(acc->s + used, &body, &len, &up)))
			break;
		used = (size_t)(next - acc->s);
		if (!clock_ok(s, up, now))
			continue;
		if (counters_parse(body, len, &snap) < 0 ||
		    sampler_feed(s, snap, up) < 0)
			return -XR_EPARSE;
		if (s->far_watch && sampler_engine_frame(s, body, len, up) < 0)
			return -XR_EPARSE;
		pthread_mutex_lock(&s->lock);
		if (!s->have_offset || now - up < s->offset)
			s->offset = now - up;
		s->have_offset = 1;
		s->frames++;
		pthread_mutex_unlock(&s->lock);
	}
	if (used) {
		memmove(acc->s, acc->s + used, acc->len - used + 1);
		acc->len -= used;
	}
	return acc->len > FRAME_MAX ? -1 : 0;
}

/* A macOS top "CPU usage:" line at now: a point of cpu.all.busy. The
 * first line covers only top's own start-up (libtop_init reads the
 * ticks, the first sample subtracts them: libtop.c), so it is dropped. */
static int top_point(struct sampler *s, const struct mactop_cpu *c, double now)
{
	struct series *se;
	int rc = 0;

	pthread_mutex_lock(&s->lock);
	s->frames++;
	if (s->mac_lines++ == 0) {
		pthread_mutex_unlock(&s->lock);
		return 0;
	}
	se = series_set_get(&s->set, s->label, SERIES_CPU_ALL_BUSY, "%");
	rc = se ? series_add(se, now, c->busy) : -XR_ENOMEM;
	pthread_mutex_unlock(&s->lock);
	return rc;
}

/* Complete lines of top's stream: CPU usage lines become points, the
 * others go. 0, or -XR_EPARSE when a CPU usage line is not top's. */
static int take_top(struct sampler *s, struct buf *acc, double now)
{
	size_t used = 0;
	char *nl;

	while ((nl = memchr(acc->s + used, '\n', acc->len - used))) {
		struct mactop_cpu c;
		size_t n = (size_t)(nl - (acc->s + used));
		int r = mactop_cpu_line(acc->s + used, n, &c);
		if (r < 0 || (r == 1 && top_point(s, &c, now) < 0))
			return -XR_EPARSE;
		used += n + 1;
	}
	if (used) {
		memmove(acc->s, acc->s + used, acc->len - used + 1);
		acc->len -= used;
	}
	return acc->len > FRAME_MAX ? -1 : 0;
}

/* A point of series name at t. Under lock. */
static int win_point(struct sampler *s, const char *name, const char *unit,
		     double t, double v)
{
	struct series *se = series_set_get(&s->set, s->label, name, unit);
	return se ? series_add(se, t, v) : -XR_ENOMEM;
}

/* cpu.N.busy, .softirq (% DPC Time: where NIC receive work runs, as
 * Linux's softirq share; docs/hosts.md), .irq, and cpu.all.* from the
 * "_Total" instance, else the mean of the CPUs. Under lock. */
static int win_cpu(struct sampler *s, const struct winctr_frame *f)
{
	static const char *const kind[] = {"busy", "softirq", "irq"};
	char name[SERIES_NAME_MAX];
	int rc = 0;

	for (int k = 0; rc == 0 && k < 3; k++) {
		unsigned bit = 1u << k;
		double sum = 0, v;
		size_t n = 0;
		for (size_t i = 0; rc == 0 && i < f->ncpu; i++) {
			const struct winctr_cpu *c = &f->cpu[i];
			if (!(c->have & bit))
				continue;
			v = k == 0 ? c->busy : k == 1 ? c->dpc : c->irq;
			sum += v;
			n++;
			snprintf(name, sizeof name, SERIES_CPU "%zu.%s", i,
				 kind[k]);
			rc = win_point(s, name, "%", f->up, v);
		}
		if (f->all.have & bit)
			v = k == 0   ? f->all.busy
			    : k == 1 ? f->all.dpc
				     : f->all.irq;
		else if (n)
			v = sum / (double)n;
		else
			continue;
		snprintf(name, sizeof name, SERIES_CPU "all.%s", kind[k]);
		if (rc == 0)
			rc = win_point(s, name, "%", f->up, v);
	}
	return rc;
}

/* nic.rx_dropped and nic.rx_errors: the raw counts' increase since the
 * previous set (the first is the baseline). Under lock. */
static int win_nic(struct sampler *s, const struct winctr_frame *f)
{
	static const char *const name[] = {"nic.rx_dropped", "nic.rx_errors"};
	const uint64_t cur[] = {f->rx_discarded, f->rx_errors};
	const unsigned bit[] = {WINCTR_DISC, WINCTR_RXERR};
	int rc = 0;

	for (int k = 0; rc == 0 && k < 2; k++) {
		if (!(f->nic & bit[k]))
			continue;
		if (s->win_nic_have & bit[k]) {
			uint64_t d = cur[k] >= s->win_nic[k]
					 ? cur[k] - s->win_nic[k]
					 : cur[k]; /* the adapter restarted */
			rc = win_point(s, name[k], "1", f->up, (double)d);
		}
		s->win_nic[k] = cur[k];
		s->win_nic_have |= bit[k];
	}
	return rc;
}

struct win_ctx {
	struct sampler *s;
	double now;
};

static int win_frame(void *arg, const struct winctr_frame *f)
{
	struct win_ctx *x = arg;
	struct sampler *s = x->s;
	int rc = 0;

	pthread_mutex_lock(&s->lock);
	if (s->what & PLAN_COUNTER_CPU)
		rc = win_cpu(s, f);
	if (rc == 0 && (s->what & PLAN_COUNTER_NIC))
		rc = win_nic(s, f);
	if (!s->have_offset || x->now - f->up < s->offset)
		s->offset = x->now - f->up;
	s->have_offset = 1;
	s->frames++;
	pthread_mutex_unlock(&s->lock);
	return rc;
}

/* Windows: winctr.c's frames, timed on the far side's clock as the sh
 * loop's are. 0, or negative when the stream is not the script's. */
static int take_win(struct sampler *s, struct buf *acc, double now)
{
	struct win_ctx x = {s, now};
	if (winctr_take(acc, win_frame, &x) < 0)
		return -XR_EPARSE;
	return acc->len > FRAME_MAX ? -1 : 0;
}

static int take_stream(struct sampler *s, struct buf *acc, double now)
{
	if (s->win)
		return take_win(s, acc, now);
	return s->mac ? take_top(s, acc, now) : take_frames(s, acc, now);
}

void *sampler_remote_main(void *arg)
{
	struct sampler *s = arg;
	struct buf acc = BUF_INIT;
	int r = 1;

	while (s->out_fd >= 0) {
		struct pollfd pf[3] = {{s->stop_pipe[0], POLLIN, 0},
				       {s->out_fd, POLLIN, 0},
				       {s->err_fd, POLLIN, 0}};
		double left = s->deadline - proc_now_mono();
		if (left <= 0) {
			snprintf(s->note, sizeof s->note,
				 "sampler on '%s' stopped at its deadline "
				 "(%.0f s)",
				 s->label, s->deadline - s->start);
			break;
		}
		if (poll(pf, s->err_fd >= 0 ? 3 : 2, (int)(left * 1000) + 1) <
			0 &&
		    errno != EINTR)
			break;
		if (pf[0].revents & POLLIN)
			break;
		if (s->err_fd >= 0 && pf[2].revents) {
			struct buf *eb = &s->err_text;
			if (buf_read_some(eb, s->err_fd) == 0 ||
			    eb->len > 4096) {
				close(s->err_fd);
				s->err_fd = -1;
			}
		}
		if (!pf[1].revents)
			continue;
		r = buf_read_some(&acc, s->out_fd);
		if (r == 0)
			break;
		if (acc.truncated ||
		    take_stream(s, &acc, proc_now_mono()) < 0) {
			snprintf(s->note, sizeof s->note,
				 "sampler on '%s' stopped: its output is not "
				 "a counter snapshot",
				 s->label);
			break;
		}
		if (s->frames) /* this thread is the only writer now */
			proc_latch_fire(&s->first);
		sampler_lead_check(s, 0);
	}
	proc_latch_fire(&s->first);
	sampler_lead_check(s, 1);
	if (r == 0 && !s->note[0]) {
		/* the child's stderr, if it said anything, tells why */
		if (s->err_fd >= 0)
			while (buf_read_some(&s->err_text, s->err_fd) > 0 &&
			       s->err_text.len < 4096)
				;
		snprintf(s->note, sizeof s->note,
			 "sampler on '%s' died after %.1f s%s%.120s", s->label,
			 proc_now_mono() - s->start,
			 s->err_text.len ? ": " : "",
			 s->err_text.len ? s->err_text.s : "");
		for (char *p = s->note; *p; p++)
			if (*p == '\n' || *p == '\r')
				*p = ' ';
	}
	buf_release(&acc);
	return NULL;
}

/* macOS: top every S whole seconds (its -s takes an integer: options.c),
 * the plan's period rounded, at least 1; what it does not sample is said
 * in s->how. */
static void mac_argv(struct sampler *s, const char **argv, char *per,
		     size_t persz)
{
	long secs = (long)(s->period + 0.5);
	if (secs < 1)
		secs = 1;
	snprintf(per, persz, "%ld", secs);
	argv[0] = "top";
	argv[1] = "-l";
	argv[2] = "0";
	argv[3] = "-s";
	argv[4] = per;
	argv[5] = "-n";
	argv[6] = "0";
	argv[7] = NULL;
	s->mac = 1;
	s->have_offset = 1; /* points are timed on arrival: offset 0 */
	if (s->what != PLAN_COUNTER_CPU || (double)secs != s->period)
		snprintf(s->how, sizeof s->how,
			 "sampler on '%s' (macOS) reads host-wide cpu.all.busy "
			 "only, from top every %ld s%s",
			 s->label, secs,
			 s->what != PLAN_COUNTER_CPU
			     ? "; nic and tcp are read before and after the run"
			     : "");
}

/* Windows: Get-Counter every S whole seconds (winctr_interval) until the
 * deadline, its sets one more than the deadline holds; what it does not
 * sample is said in s->how. */
static int win_argv(struct sampler *s, double max_s, struct strv *av)
{
	long secs = winctr_interval(s->period);
	long sets = (long)ceil(max_s / (double)secs) + 1;
	int partial = (s->what & PLAN_COUNTER_TCP) ||
		      ((s->what & PLAN_COUNTER_NIC) && s->iface);

	s->win = 1;
	if (partial || (double)secs != s->period)
		snprintf(s->how, sizeof s->how,
			 "sampler on '%s' (Windows) reads Get-Counter every "
			 "%ld s%s",
			 s->label, secs,
			 partial ? "; of nic only receive discards and errors, "
				   "no tcp (both read before and after the run)"
				 : "");
	/* no adapter counters asked for: none read over there */
	return winctr_argv((s->what & PLAN_COUNTER_NIC) ? s->iface : NULL, secs,
			   sets, av);
}

int sampler_remote_start(struct sampler *s, struct host *h, double max_s,
			 struct xr_err *err)
{
	char letters[8], per[32], first[32];
	const char *argv[10], *token;
	struct proc_opts o = {0};
	struct strv wav = {0};

	if (host_os(h) == PLAN_OS_WINDOWS) {
		if (win_argv(s, max_s, &wav) < 0) {
			strv_release(&wav);
			return xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
					  "out of memory");
		}
	} else if (host_os(h) == PLAN_OS_MACOS) {
		mac_argv(s, argv, per, sizeof per);
	} else {
		counters_letters(s->what, letters);
		snprintf(per, sizeof per, "%.3f", s->period);
		argv[0] = "sh";
		argv[1] = "-c";
		argv[2] = counters_sampler_script();
		argv[3] = "sh";
		argv[4] = s->iface ? s->iface : "";
		argv[5] = letters;
		argv[6] = per;
		/* the engine's processes, followed on a Linux ssh host */
		token = host_watch_token(h);
		s->far_watch = token && (s->what & PLAN_COUNTER_CPU);
		argv[7] = s->far_watch ? token : "";
		/* the lead-in's first interval, then the period */
		snprintf(first, sizeof first, "%.3f", s->first_interval);
		argv[8] = first;
		argv[9] = NULL;
	}
	/* top and Get-Counter sample whole seconds from their start: no
	 * lead-in point is waited for (docs/hosts.md) */
	if (s->mac || s->win)
		sampler_lead_check(s, 1);
	o.argv = s->win ? (const char *const *)wav.v : argv;
	o.timeout = max_s;
	o.grace = 1.0;
	s->host = h;
	s->child = host_spawn_stream(h, &o, &s->out_fd, &s->err_fd, err);
	strv_release(&wav);
	if (!s->child)
		return -XR_EHOST;
	fcntl(s->out_fd, F_SETFL, fcntl(s->out_fd, F_GETFL) | O_NONBLOCK);
	fcntl(s->err_fd, F_SETFL, fcntl(s->err_fd, F_GETFL) | O_NONBLOCK);
	return 0;
}

/* The engine's processes followed over there, once more at up (far
 * clock): their last, partial interval. Nothing when the reading fails. */
static void last_engine(struct sampler *s, double up)
{
	const char *argv[] = {"sh",
			      "-c",
			      counters_watch_script(),
			      "sh",
			      host_watch_token(s->host),
			      NULL};
	struct buf doc = BUF_INIT;
	struct xr_err e = {0};

	if (!s->far_watch || !argv[4])
		return;
	if (sysread_run(s->host, argv, 10.0, &doc, &e) == 0 &&
	    sampler_engine_frame(s, doc.s, doc.len, up) < 0)
		snprintf(s->note, sizeof s->note,
			 "sampler on '%s' stopped: out of memory", s->label);
	buf_release(&doc);
}

/*
 * What the far loop's frames say of it at the stop, into s->how (a note
 * of the run beside s->note; issue 40): it sent nothing for more than
 * three periods (2 s at least) and 1 s up to the stop, or that long
 * between two frames during the run (stopped, stalled: its series then
 * hold fewer points than the run's length asks, and that is said), and
 * the frames refused for their clock (clock_ok).
 */
static void far_silence(struct sampler *s, double now)
{
	double stall = fmax(2.0, 3 * s->period) + 1.0, tail;
	size_t k = strlen(s->how);
	char *o = s->how + k;
	size_t room = sizeof s->how - k;
	if (s->mac || s->win || room < 4)
		return;
	pthread_mutex_lock(&s->lock);
	tail = now - (s->frame_at > s->t0 ? s->frame_at : s->t0);
	if (s->marked && s->frames && tail > stall)
		k = (size_t)snprintf(o, room,
				     "%ssampler on '%s' sent nothing for the "
				     "last %.1f s of the run (stalled)",
				     k ? "; " : "", s->label, tail);
	else if (s->frame_gap > stall)
		k = (size_t)snprintf(o, room,
				     "%ssampler on '%s' sent nothing for "
				     "%.1f s during the run (stalled)",
				     k ? "; " : "", s->label, s->frame_gap);
	else
		k = 0;
	if (s->bad_clock && k < room)
		snprintf(o + k, room - k,
			 "%ssampler on '%s' refused %zu frames: the far "
			 "uptime was not finite and rising",
			 o[0] || o != s->how ? "; " : "", s->label,
			 s->bad_clock);
	pthread_mutex_unlock(&s->lock);
}

/* At the stop: the frames still in the pipe, then one snapshot of the
 * host now (one command), so that the last, partial interval up to the
 * engine's end is not lost; its time on the far side's clock. */
void sampler_remote_last(struct sampler *s)
{
	struct buf acc = BUF_INIT;
	struct counters_snap *snap = NULL;
	struct xr_err e = {0};
	double now;

	while (s->out_fd >= 0 && buf_read_some(&acc, s->out_fd) > 0 &&
	       !acc.truncated)
		;
	if (acc.len && take_stream(s, &acc, proc_now_mono()) < 0)
		snprintf(s->note, sizeof s->note,
			 "sampler on '%s' stopped: its output is not a counter "
			 "snapshot",
			 s->label);
	buf_release(&acc);
	far_silence(s, proc_now_mono());
	if (s->note[0] || !s->have_offset || !s->host || s->mac || s->win)
		return; /* macOS, Windows: the stream's last set is the last
			 * point (Get-Counter rates need two reads) */
	now = proc_now_mono();
	last_engine(s, now - s->offset);
	if (counters_snapshot(s->host, s->iface, s->what, &snap, &e) < 0)
		snprintf(s->note, sizeof s->note,
			 "sampler on '%s': the last snapshot: %.300s", s->label,
			 e.msg[0] ? e.msg : "failed");
	else if (sampler_feed(s, snap, now - s->offset) < 0)
		snprintf(s->note, sizeof s->note,
			 "sampler on '%s' stopped: out of memory", s->label);
}

/* ---- a far loop's text read offline (tests, bench/far-watch.c) -------- */

int sampler_far_engine(const char *label, const char *text,
		       struct series_set *dst)
{
	struct sampler s;
	const char *body;
	size_t len;
	double up;
	int rc = 0;

	memset(&s, 0, sizeof s);
	snprintf(s.label, sizeof s.label, "%s", label);
	s.what = PLAN_COUNTER_CPU;
	pthread_mutex_init(&s.lock, NULL);
	while (rc == 0 && (text = sampler_frame_next(text, &body, &len, &up)))
		rc = sampler_engine_frame(&s, body, len, up);
	if (rc == 0)
		rc = series_set_take(dst, &s.set);
	series_set_release(&s.set);
	sampler_engine_free(&s);
	pthread_mutex_destroy(&s.lock);
	return rc;
}
