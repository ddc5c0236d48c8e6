/*
 * Inside the latency probes (latprobe.c, latirtt.c): the row of the probe
 * table and what each probe's own file gives the table.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_LATPROBE_INT_H
#define XR_LATPROBE_INT_H

#include "latprobe.h"
#include "xr_err.h"

struct host;
struct proc;

/* The argv of a probe toward address (for irtt "ADDR:PORT"): argv[] has
 * room for 16; strings in bufs[4][32]. */
typedef void (*latprobe_argv_fn)(const char *address, double interval,
				 double max_s, const char **argv,
				 char bufs[4][32]);

struct latprobe_row {
	const char *name;
	latprobe_argv_fn argv;
	int (*parse)(const char *line, struct latprobe_reply *r);
	int wraps;	/* sequence numbers wrap at 65536 (icmp_seq) */
	int has_server; /* a server of its own on the target (irtt) */
	/* Every probe sent gets a line, a reply or "no answer yet" (ping
	 * -O): a sequence number with neither was never sent, and silence
	 * is a stalled probe, not loss. irtt prints nothing for a lost
	 * packet: there silence cannot be told from total loss. */
	int tells_all;
};

/* irtt client: one probe per interval for ceil(max_s) seconds. */
void latirtt_argv(const char *address, double interval, double max_s,
		  const char **argv, char bufs[4][32]);

/*
 * Start `irtt server` on h bound to address, on the first free UDP port
 * from 2112 (a port in use is tried past, up to 32 of them), and wait
 * until it listens. OUT: *srv (stop it with proc_stop) and target, the
 * client's "ADDR:PORT" ("[v6]:PORT"). On failure NULL and why in err.
 */
struct proc *latirtt_server_start(struct host *h, const char *address,
				  double max_s, char *target, size_t target_sz,
				  struct xr_err *err);

#endif
