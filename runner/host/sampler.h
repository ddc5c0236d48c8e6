/*
 * The sampler: the counters of one host read every period during a run,
 * as time series (series.h). On this machine a thread takes the snapshots
 * in-process (netlink, /proc, the ethtool ioctl: no child per sample), and
 * so does it for a netns host after entering its namespace (setns on that
 * thread only); on an ssh host, or a netns host it cannot enter (noted
 * with the run), one long-lived far-side sh loop per run prints a
 * snapshot document every period, read by a thread here. Both go through
 * the one counters parser. A macOS host streams top (mactop.h), a Windows
 * host a Get-Counter loop (winctr.h): cpu.N.busy, cpu.N.softirq (% DPC
 * Time), cpu.N.irq (% Interrupt Time), cpu.all.*, nic.rx_dropped and
 * nic.rx_errors. A sampler that dies is noted and the run goes on
 * without it.
 *
 * Series (names in schema/store.md): nic.NAME (interface statistics),
 * nic.ethtool.NAME (those that moved), qdisc.drops, .overlimits,
 * .requeues, .backlog, .qlen, cpu.N.busy, cpu.all.busy, cpu.N.softirq,
 * cpu.all.softirq, cpu.N.irq and cpu.all.irq (Windows) (%),
 * softirq.net_rx, .net_tx, tcp.retrans, tcp.NAME, udp.NAME; in-process
 * and on a Linux ssh host only, engine.cpu and engine.core (the processes
 * started for the label with proc_opts.watch: sampler_engine.c). A counter's
 * point is its increase over the interval ending at t; t is seconds from
 * sampler_mark (the engine's start).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_SAMPLER_H
#define XR_SAMPLER_H

#include <stdio.h>

#include "series.h"
#include "xr_err.h"

struct counter_row;
struct host;
struct sampler;

/* The shortest period a plan may ask for (`sample: 100ms`). */
#define SAMPLER_MIN_PERIOD 0.1

/*
 * The idle lead-in before the engine starts, so that the series show the
 * hosts before the load (explain's "busy before the engine started", the
 * engine's core by its rise): the sampler's first interval is
 * min(period, SAMPLER_LEAD_S), its later ones the period, and the lead-in
 * ends with the point that completes SAMPLER_LEAD_S (the first point; the
 * second at a 100 ms period). 0.2 s: /proc/stat counts in 10 ms ticks, so
 * a core's busy share over it is good to 5% (the note's threshold is
 * 50%), and a run pays it whole: with the default 1 s period the old
 * lead-in of two periods cost 1.1 s a run (bench/RESULTS.md, "Per-run
 * cost with sampling").
 */
#define SAMPLER_LEAD_S 0.2
/* The lead-in's length for a period (seconds): SAMPLER_LEAD_S, or whole
 * periods of a shorter one up to it. */
double sampler_lead_s(double period);

/*
 * Start sampling h (label: the plan's host name, used in the series and
 * the note) every period seconds. what: enum plan_counter bits (capture
 * is never sampled); iface may be NULL (no nic, ethtool, qdisc series).
 * max_s bounds the sampler's life (its deadline; a remote one also gets
 * it on the far side). The first snapshot is taken before this returns
 * on a local or an entered netns host. OUT: *out, stop with sampler_stop.
 */
int sampler_start(struct host *h, const char *label, const char *iface,
		  unsigned what, double period, double max_s,
		  struct sampler **out, struct xr_err *err);
/*
 * Wait until a far-side sampler's first snapshot has been read, at most
 * until the monotonic time until: 0 when it has (at once for an
 * in-process one); 1 when not (its child ended, or until passed: the run
 * goes on and the series start late); -XR_EINTR when interrupted. So the
 * lead-in counts from the first snapshot: over a new ssh session on a
 * loaded machine the far loop's first one came about a second after its
 * start, and a 2 s run at 200 ms kept 7 of its 12 points (a CI-like
 * failure of e2e/ssh_series).
 */
int sampler_wait_first(struct sampler *s, double until);
/*
 * Wait until the sampler has its lead-in's points (sampler_lead_s after
 * its first snapshot), at most until the monotonic time until: 0 when it
 * has, when it ended, or at until (the run goes on without them: a far
 * loop that is late); -XR_EINTR when interrupted. Its last lead-in point
 * is then older than the mark that follows, whatever the load: no margin
 * is guessed. A macOS or Windows stream has no lead-in (its first point
 * comes a whole second after its start): 0 at once.
 */
int sampler_wait_lead(struct sampler *s, double until);
/* The engine starts now: t = 0. */
void sampler_mark(struct sampler *s);
/* The points taken since the previous call (or since the start), copied
 * into dst with t from the mark, as sampler_stop will give them (a far
 * side's clock offset as known now): what the run loop's flusher writes
 * while the run goes on. Safe from another thread while s samples, not
 * during or after sampler_stop; nothing before sampler_mark. 0 or
 * -XR_ENOMEM. */
int sampler_peek_new(struct sampler *s, struct series_set *dst);
/* Take one last sample (local), stop, and move the series into dst
 * (t from the mark; before it, t < 0). Why sampling ended early, if it
 * did, is appended to dst->note. Frees s; NULL is a no-op. */
void sampler_stop(struct sampler *s, struct series_set *dst);

/* A Linux far loop's output (its framed documents) read as the sampler
 * of host label reads their "@@ engine" sections (sampler_remote.c, with
 * sampler_engine.c's reader):
 * engine.cpu and engine.core moved into dst, t the frames' far uptime.
 * For tests and benchmarks of the far side's reading. 0, -XR_ENOMEM or
 * -XR_EPARSE. */
int sampler_far_engine(const char *label, const char *text,
		       struct series_set *dst);

/* One line per series ("xrun: series HOST NAME UNIT n=N t=A..B
 * sum=S") and the note: what XRUN_SERIES_DUMP=1 shows after each run. */
void sampler_dump(const struct series_set *ss, FILE *f);

/* The series a counter row becomes (sampler_feed.c): 1 with its name,
 * unit and whether it is a level (a value, not an increase), or 0 when
 * the row is not sampled. The names the reports read are
 * runner/desc/series_name.h's; tests/unit/host/test_counter_readers.c runs
 * this on each of their counters. */
int sampler_series_name(const struct counter_row *r, char *name, size_t sz,
			const char **unit, int *level);

#endif
