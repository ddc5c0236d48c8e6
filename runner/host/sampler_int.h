/*
 * Internals of the sampler shared by sampler.c (the local and netns
 * readers, the lifecycle), sampler_remote.c (the far-side stream),
 * sampler_engine.c (the engine's processes) and sampler_feed.c (snapshots
 * into points).
 * Not for other modules: sampler.h is the interface.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_SAMPLER_INT_H
#define XR_SAMPLER_INT_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "proc.h"
#include "sampler.h"
#include "series.h"

struct counters_snap;
struct counters_reader;
struct host;
struct proc;
struct xr_err;
struct sampler_eng;

/* A far side that sends no complete frame within this many bytes is not
 * our sampler. */
#define FRAME_MAX ((size_t)8 << 20)

struct sampler {
	char label[SERIES_HOST_MAX];
	char *iface;
	unsigned what;
	double period, start, deadline, t0;
	/* the first interval (sampler_lead_s) and the points that end the
	 * lead-in, fired at the last of them (or the thread's end) */
	double first_interval;
	size_t lead_points;
	struct proc_latch lead;
	int marked;
	struct series_set set; /* t in the reader's clock until the stop */
	double *times;	       /* the sample times so far */
	size_t ntimes, captimes;
	/* set, times and offset change under lock, so that sampler_peek_new
	 * can copy from another thread; peeked[i]: points of set.s[i] it
	 * has handed out. */
	pthread_mutex_t lock;
	size_t *peeked, npeeked;
	struct counters_snap *prev;
	char note[512]; /* why the thread ended early, "" if it did not */
	char how[256];	/* how it samples, when not as planned, or "" */
	int stop_pipe[2];
	pthread_t thread;
	int running;
	/* netns, in-process: the namespace's file (until the thread is in),
	 * the thread's reader, and its answer to sampler_start */
	int ns_fd;
	struct counters_reader *reader;
	pthread_mutex_t ready_lock;
	pthread_cond_t ready_cond;
	int ready; /* 0 waiting, 1 sampling, -errno setns failed */
	/* remote */
	struct host *host; /* borrowed: the last, partial interval */
	struct proc *child;
	int out_fd, err_fd;
	double offset; /* local mono - far uptime, least seen */
	int have_offset;
	size_t frames; /* documents read (frames, top's lines), under lock */
	/* The reader's time of the last frame and the longest silence
	 * between two once marked (a stalled far loop is noted); the far
	 * clock of the last frame taken, and frames refused for a clock
	 * that is not finite and rising (issue 40) */
	double frame_at, frame_gap, last_up;
	size_t bad_clock;
	/* fired by the remote reader at its first document, or at its end */
	struct proc_latch first;
	/* macOS: the stream is top's, its lines timed on arrival (offset
	 * 0); mac_lines: CPU usage lines seen (the first is dropped) */
	int mac;
	size_t mac_lines;
	/* Windows: the stream is winctr.c's Get-Counter frames; win_nic[]:
	 * the last raw receive discards and errors (win_nic_have: which),
	 * whose increase is the next point */
	int win;
	uint64_t win_nic[2];
	unsigned win_nic_have;
	struct buf err_text;
	/* the engine's processes at the last snapshot (sampler_engine.c);
	 * NULL until the first. far_watch: the far loop follows them
	 * (a Linux ssh host's "@@ engine" sections) */
	struct sampler_eng *eng;
	int far_watch;
};

/* A snapshot taken at t (the reader's clock): the interval since the
 * previous one becomes points. Takes snap. 0 or -XR_ENOMEM. */
int sampler_feed(struct sampler *s, struct counters_snap *snap, double t);
/* On the sampler's thread after a snapshot: fire s->lead when the
 * lead-in's points are in (all: when the thread ends). */
void sampler_lead_check(struct sampler *s, int all);
/* In-process samplers, after each snapshot: the engine's processes on
 * s's host (sampler_engine.c): engine.cpu and engine.core from the
 * second call on, timed at their own reads. 0 or -XR_ENOMEM. */
int sampler_engine_take(struct sampler *s);
/* The next complete frame of a far loop's text ("@@ xrun-sample UP" ..
 * "@@ xrun-sample-end"): its body and length, its far uptime; returns
 * the text after it, or NULL when no frame is complete. */
const char *sampler_frame_next(const char *text, const char **body, size_t *len,
			       double *up);
/* The same from a far sampler frame's "@@ engine PID" sections (the
 * frame's text; other sections are skipped), its points at up. */
int sampler_engine_frame(struct sampler *s, const char *text, size_t len,
			 double up);
void sampler_engine_free(struct sampler *s);
/* Start the far-side stream of s on h (ssh, or a netns host it cannot
 * enter, or a macOS host's top): 0, or negative with err set. */
int sampler_remote_start(struct sampler *s, struct host *h, double max_s,
			 struct xr_err *err);
/* The thread that reads that stream until the stop, the deadline or EOF. */
void *sampler_remote_main(void *arg);
/* At the stop: what is left in the pipe, then (not on macOS) one last
 * snapshot for the partial interval. */
void sampler_remote_last(struct sampler *s);

#endif
