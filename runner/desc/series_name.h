/*
 * The names of the during-the-run series that the run side writes and the
 * report side reads (schema/store.md, "series"): one constant each, used
 * by the producer (runner/host/sampler_feed.c, sampler_remote.c) and by
 * every reader (reports/explain, reports/render, reports/reference), so
 * that a renamed series renames its readers with it. A name a producer
 * builds from a raw counter (snake case of TcpExt's "TCPRcvQDrop") has a
 * row in SERIES_NAME_MAP with the counter it comes from, and
 * tests/unit/host/test_counter_readers.c runs the producer on that counter
 * and compares; tests/unit/desc/test_counter_group.c checks that
 * schema/store.md names each.
 *
 * Adding a series a report reads: its constant here, its row in the map,
 * its name in schema/store.md.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_SERIES_NAME_H
#define XR_SERIES_NAME_H

/* The prefixes, one per counter scope (counter_group.h) and the engine's
 * own series; a prefix ends with its dot. */
#define SERIES_NIC "nic."
#define SERIES_NIC_ETHTOOL "nic.ethtool."
#define SERIES_QDISC "qdisc."
#define SERIES_TCP "tcp."
#define SERIES_UDP "udp."
#define SERIES_SOFTIRQ "softirq."
#define SERIES_CPU "cpu."
#define SERIES_ENGINE "engine."

/* Whole names. A "%d" is a core's number (printf and sscanf formats). */
#define SERIES_CPU_RUNNING SERIES_CPU "running"
#define SERIES_CPU_ALL_BUSY SERIES_CPU "all.busy"
#define SERIES_CPU_ALL_SOFTIRQ SERIES_CPU "all.softirq"
#define SERIES_CPU_CORE_BUSY SERIES_CPU "%d.busy"
#define SERIES_CPU_CORE_SOFTIRQ SERIES_CPU "%d.softirq"
#define SERIES_QDISC_DROPS SERIES_QDISC "drops"
#define SERIES_QDISC_INGRESS_DROPS SERIES_QDISC "ingress_drops"
#define SERIES_QDISC_BACKLOG SERIES_QDISC "backlog"
#define SERIES_UDP_RCVBUF_ERRORS SERIES_UDP "rcvbuf_errors"
#define SERIES_UDP_SNDBUF_ERRORS SERIES_UDP "sndbuf_errors"
#define SERIES_TCP_RCV_Q_DROP SERIES_TCP "rcv_q_drop"
#define SERIES_TCP_BACKLOG_DROP SERIES_TCP "backlog_drop"
#define SERIES_TCP_ZERO_WINDOW_DROP SERIES_TCP "zero_window_drop"
#define SERIES_TCP_OFO_DROP SERIES_TCP "ofo_drop"
/* the engine's intervals (runner/exec/series_metric.c) and its processes
 * (runner/host/sampler_engine.c) */
#define SERIES_ENGINE_THROUGHPUT SERIES_ENGINE "throughput"
#define SERIES_ENGINE_CPU SERIES_ENGINE "cpu"
#define SERIES_ENGINE_CORE SERIES_ENGINE "core"
/* iperf3's sending side, a point an interval (runner/engine/iperf3_json.c)
 * that explain reads for the window and the round trip */
#define SERIES_ENGINE_SENDER_THROUGHPUT SERIES_ENGINE "sender_throughput"
#define SERIES_ENGINE_RETRANSMITS SERIES_ENGINE "retransmits"
#define SERIES_ENGINE_SND_CWND SERIES_ENGINE "snd_cwnd"
#define SERIES_ENGINE_SND_WND SERIES_ENGINE "snd_wnd"
#define SERIES_ENGINE_RTT SERIES_ENGINE "rtt"
#define SERIES_ENGINE_RTTVAR SERIES_ENGINE "rttvar"

/*
 * The series the reports read by name that the sampler derives from a
 * raw counter: X(name, scope, counter), scope and counter as a counter
 * row carries them (runner/host/counters.h, struct counter_row); "%d"
 * in both is the same core number.
 */
#define SERIES_NAME_MAP(X)                                                     \
	X(SERIES_CPU_RUNNING, "cpu", "procs_running")                          \
	X(SERIES_CPU_ALL_BUSY, "cpu", "busy_avg_pct")                          \
	X(SERIES_CPU_ALL_SOFTIRQ, "cpu", "softirq_avg_pct")                    \
	X(SERIES_CPU_CORE_BUSY, "cpu", "cpu%d_busy_pct")                       \
	X(SERIES_CPU_CORE_SOFTIRQ, "cpu", "cpu%d_softirq_pct")                 \
	X(SERIES_QDISC_DROPS, "qdisc", "drops")                                \
	X(SERIES_QDISC_INGRESS_DROPS, "qdisc", "ingress_drops")                \
	X(SERIES_QDISC_BACKLOG, "qdisc", "backlog")                            \
	X(SERIES_UDP_RCVBUF_ERRORS, "udp", "RcvbufErrors")                     \
	X(SERIES_UDP_SNDBUF_ERRORS, "udp", "SndbufErrors")                     \
	X(SERIES_TCP_RCV_Q_DROP, "tcp", "TCPRcvQDrop")                         \
	X(SERIES_TCP_BACKLOG_DROP, "tcp", "TCPBacklogDrop")                    \
	X(SERIES_TCP_ZERO_WINDOW_DROP, "tcp", "TCPZeroWindowDrop")             \
	X(SERIES_TCP_OFO_DROP, "tcp", "TCPOFODrop")

#endif
