/*
 * Latency probes (plan `latency:`, schema/plan.md "Latency under load"):
 * a long-lived child on one host (iputils ping) that sends a probe every
 * interval from before the engine starts (the idle phase) until right
 * after it ends (the loaded phase). The calling thread starts and stops
 * the child through host_spawn_stream / proc_stop; a thread of the probe's
 * own only reads the child's pipes (poll with a stop pipe), never waits
 * for a child, so that nothing here can hang a run or reap the engine's
 * processes. One row per probe in the table of latprobe.c.
 *
 * What a run gets (schema/store.md): the series latency.rtt (s, one point
 * per reply at the time its probe was sent, seconds from the mark) and the
 * summary below, from which runner/exec makes the run's metrics.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_LATPROBE_H
#define XR_LATPROBE_H

#include <stddef.h>

#include "series.h"
#include "xr_err.h"

struct host;
struct latprobe;

/* The probe names, NULL-terminated ("ping", "irtt"): the plan loader's
 * catalog. */
extern const char *const latprobe_names[];

/* One reply as a probe's output line states it. */
struct latprobe_reply {
	double ts;    /* the line's receive time, wall clock seconds */
	unsigned seq; /* icmp_seq, as printed (wraps at 65536) */
	double rtt;   /* seconds */
	int dup;      /* a duplicate reply ("(DUP!)") */
	/* irtt's one-way delays, seconds (client to server, server to
	 * client: they need the two clocks in step); NAN when not printed */
	double send_delay, recv_delay;
};

/*
 * One line of `ping -n -D` (iputils), without its newline:
 *   "[1733100000.123456] 64 bytes from 198.18.0.2: icmp_seq=3 ttl=64
 *    time=0.045 ms"
 * 1 and *r for a reply, 0 for any other line (the banner, an error such
 * as "From 198.18.0.1 icmp_seq=4 Destination Host Unreachable", the
 * statistics). A reply without its -D stamp has ts 0.
 */
int latprobe_parse_ping_line(const char *line, struct latprobe_reply *r);

/*
 * One per-packet line of `irtt client` (0.9.0, without -q), without its
 * newline:
 *   "seq=3 rtt=136µs rd=34.2µs sd=102µs ipdv=19.4µs"
 * with Go durations (ns, µs, ms, s, m, h; "1m2.5s"), rd= and sd= absent
 * when the server sent no timestamps, and " (LATE)" after a reply that
 * came after a later one (kept). 1 and *r for a reply (ts 0: the line
 * has no clock of its own), 0 for any other line ("[Connecting] ...",
 * "DUP! seq=4", the statistics); dup is never set: a duplicate has no
 * reply line.
 */
int latprobe_parse_irtt_line(const char *line, struct latprobe_reply *r);

/*
 * One "no answer yet for icmp_seq=N" line of `ping -O` (with or without
 * its -D stamp): 1 and *seq, else 0.
 */
int latprobe_parse_noanswer(const char *line, unsigned *seq);

/* The sequence number raw (0..65535, as printed) unwrapped next to the
 * one before it, prev (-1 for the first): icmp_seq wraps at 65536, every
 * 109 minutes at 100 ms. */
long long latprobe_unwrap(long long prev, unsigned raw);

/* What one run's probe measured. Times in seconds; a value that has no
 * sample is NAN. */
struct latprobe_summary {
	size_t n_idle, n_loaded; /* replies in each phase */
	double idle_p50;	 /* probes sent before the mark */
	double loaded_p50, loaded_p90, loaded_p99; /* sent during the engine */
	double increase_p50;			   /* loaded_p50 - idle_p50 */
	double loss; /* share of the loaded phase's probes without a reply,
			0..1 (from icmp_seq gaps) */
	size_t sent_loaded, lost_loaded;
	long long seq_first, seq_last; /* the loss window's sequence numbers */
	/* The probe ended, stalled or told nonsense during the run (the
	 * note says which): every value above is NAN (latprobe_stop). */
	int unknown;
};

/*
 * The summary of replies whose send times (t, seconds from the mark),
 * round-trip times (rtt, s) and unwrapped sequence numbers (seq) are
 * given, the engine having run from t = 0 to t = end; interval is the
 * probes' spacing. Quantiles are Hyndman & Fan type 7 (numpy's linear).
 * Loss counts the sequence numbers whose probes were sent in [0, end - w]
 * (w = the 1 s reply wait, or end / 2 on a run of 2 s or less: a probe
 * sent in the last second may still be on its way when the probe is
 * stopped), placed in time from the nearest replies and the replies' own
 * spacing (interval when there are fewer than two).
 */
void latprobe_summarise(const double *t, const double *rtt,
			const long long *seq, size_t n, double end,
			double interval, struct latprobe_summary *out);

/*
 * Start probe (a name of latprobe_names) on h toward address, one probe
 * every interval seconds, for at most max_s seconds (its deadline: the
 * child's own, the far side's and the reader's). label: the plan's host
 * name (the series' host). to: the host that owns address, or NULL (an
 * address of no plan host): a probe that needs a server of its own
 * (irtt) has it started there first, bound to address on a free UDP
 * port, and stopped with the probe; without to it expects a server
 * already listening at address (irtt's port 2112). OUT: *out, stop with
 * latprobe_stop.
 */
int latprobe_start(struct host *h, struct host *to, const char *label,
		   const char *probe, const char *address, double interval,
		   double max_s, struct latprobe **out, struct xr_err *err);
/*
 * Wait for the probe's first reply, at most max_s seconds: 0 when one came;
 * 1 when none did (the child ended, or max_s passed: latprobe_check says
 * which); -XR_EINTR when interrupted. The idle phase counts from the
 * first reply, so that a probe slow to start (ping over a new ssh session
 * on a loaded machine took more than the 1.1 s idle phase: a CI failure of
 * e2e/ssh_latency) still has the idle phase it was given.
 */
int latprobe_wait_reply(struct latprobe *p, double max_s);
/*
 * Is the probe working after its idle phase? 0 when it has replies;
 * else -XR_EENV and why in err: the child ended (with what it said), or
 * no reply came (with the last error line the probe printed).
 */
int latprobe_check(struct latprobe *p, struct xr_err *err);
/* The engine starts now: t = 0. */
void latprobe_mark(struct latprobe *p);
/*
 * The engine ended now: stop the child (its process group) and its
 * server, move the series latency.rtt (and for irtt latency.send_delay,
 * latency.receive_delay) into dst and fill *sum. A probe that ended,
 * stalled or told nonsense during the run leaves every value of *sum NAN
 * (sum->unknown) and says why in dst->note. Frees p; NULL is a no-op.
 */
void latprobe_stop(struct latprobe *p, struct series_set *dst,
		   struct latprobe_summary *sum);

#endif
