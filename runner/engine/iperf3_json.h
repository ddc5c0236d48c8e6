/*
 * Parser for iperf3 -J output (checked against iperf3 3.12), kept apart
 * from the engine so that it can be unit-tested on captured files and
 * fuzzed. Every value is type-checked: odd JSON never crashes, it either
 * parses to fewer fields or fails with a reason.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_IPERF3_JSON_H
#define XR_IPERF3_JSON_H

#include <stddef.h>

#include "series.h"
#include "xr_err.h"

struct engine_result;

/* What one iperf3 client run reported. A have_* flag says whether the
 * field was present with the right type. Rates in bit/s, sizes in B,
 * times in s. */
struct iperf3_report {
	char version[32]; /* start.version: "iperf 3.12" */
	char protocol[8]; /* start.test_start.protocol: "TCP" | "UDP" */
	int num_streams;  /* start.test_start.num_streams, 0 when absent */
	int reverse;	  /* start.test_start.reverse */
	double duration;  /* start.test_start.duration (s), 0 when absent */
	int bidir;	  /* end.sum_received_bidir_reverse present */
	int udp;

	int have_recv, have_sent;
	double recv_bps, recv_bytes; /* receiver side (sum_received / sum) */
	double sent_bps, sent_bytes; /* sender side (sum_sent) */
	/* --bidir: the reverse direction (server to client) */
	int have_recv_rev, have_sent_rev;
	double recv_rev_bps, recv_rev_bytes, sent_rev_bps, sent_rev_bytes;

	int have_retransmits;
	double retransmits; /* TCP: sum_sent(+_bidir_reverse).retransmits */

	int have_cpu_host, have_cpu_remote;
	double cpu_host, cpu_remote; /* % */

	int have_udp_stats; /* UDP: jitter and loss */
	double jitter, lost_packets, lost_percent, packets;

	char congestion[32];	      /* end.sender_tcp_congestion */
	char receiver_congestion[32]; /* end.receiver_tcp_congestion */
	int have_mss, have_sndbuf, have_rcvbuf, have_sock_bufsize;
	double mss, sndbuf, rcvbuf, sock_bufsize;

	/* The receiving side's intervals in bit/s: the server's
	 * (server_output_json, from --get-server-output with a -J server)
	 * or the reverse-mode client's own; with --bidir both receivers,
	 * summed interval by interval. Without the server's JSON a forward
	 * test falls back to the client's (sending) intervals and
	 * iv_receiver is 0. Omitted (-O) intervals and a runt (shorter than
	 * a quarter of the longest, e.g. iperf3's last 9 ms) are left out.
	 * OUT: owned, freed by iperf3_report_release. */
	double *iv_start, *iv_end, *iv_bps;
	int nintervals;
	int iv_receiver;  /* iv_* are a receiver's */
	int iv_on_server; /* ... and that receiver is the server */
	int have_server;  /* server_output_json was there */

	/* end.streams[].sender of the sending side(s): round-trip time
	 * (s) over the streams: mean of mean_rtt, min, max */
	int have_rtt;
	double rtt_mean, rtt_min, rtt_max;

	/* The sending side's per-interval series, on host "client" or
	 * "server" (the role; iperf3_report_to_result maps it to the
	 * labels below): engine.sender_throughput (bit/s) and, for TCP,
	 * over the sending streams, engine.retransmits (sum),
	 * engine.snd_cwnd (B, sum), engine.rtt and engine.rttvar (s,
	 * mean); t is the interval's end. OUT: owned, released with r. */
	struct series_set series;
	/* host labels for the roles (set by the caller before
	 * iperf3_report_to_result; "" keeps "client" / "server") */
	char client_host[64], server_host[64];
};

/*
 * Parse text (len bytes, need not be NUL-terminated). Returns 0 and fills
 * r; -XR_EPARSE when the text is not iperf3 JSON (empty, garbage,
 * truncated, no receiver total) with the reason in err; -XR_EENGINE when
 * iperf3 reported an error (top-level "error" key, even with exit 0): the
 * message is iperf3's own text. r is filled as far as it could be either
 * way and must be released.
 */
int iperf3_json_parse(const char *text, size_t len, struct iperf3_report *r,
		      struct xr_err *err);
void iperf3_report_release(struct iperf3_report *r);

/*
 * Add the report's metrics (throughput first; rtt_mean, rtt_min, rtt_max
 * in s when measured), observed settings (interval_side: receiver |
 * sender), the receiver's intervals (iv_*, iv_host) and the sending
 * side's series to res. Returns 0 or -XR_ENOMEM.
 */
int iperf3_report_to_result(const struct iperf3_report *r,
			    struct engine_result *res);
/* Every metric name iperf3_report_to_result can add, NULL-terminated
 * (engine_ops.metrics; a run of several flows adds NAME.flowN too). */
extern const char *const iperf3_json_metrics[];

#endif
