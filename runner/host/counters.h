/*
 * Counters read before and after every run and stored as deltas
 * (schema/store.sql, table counters): interface statistics from sysfs,
 * every changed `ethtool -S` statistic (ETHTOOL_GSTATS ioctl locally),
 * TCP and UDP counters from /proc/net/snmp, the statistics of the
 * interface's root qdisc (RTM_GETQDISC locally, `tc -s -j qdisc` on other
 * hosts), per-CPU busy % from /proc/stat, NET_RX/NET_TX softirqs, and
 * whether a packet capture was running.
 * A snapshot is taken as one text document (one command on remote
 * hosts; on Windows and macOS hosts their own commands, translated into
 * the same document by hostos.h), so every host shares one parser.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_COUNTERS_H
#define XR_COUNTERS_H

#include <stddef.h>

#include "xr_err.h"

struct host;
struct counters_snap;

struct counter_row {
	char scope[16]; /* nic | ethtool | tcp | udp | cpu | softirq | qdisc
			 * | capture */
	char name[64];
	double value;
};

/* what: enum plan_counter bits. iface may be NULL (then nic and ethtool
 * are skipped). OUT: *out, free with counters_snap_free. */
int counters_snapshot(struct host *h, const char *iface, unsigned what,
		      struct counters_snap **out, struct xr_err *err);
void counters_snap_free(struct counters_snap *s);

/*
 * Deltas after - before. nic/ethtool/tcp/softirq: counter differences
 * (ethtool: only the ones that changed); cpu: busy_avg_pct, busy_max_pct
 * and cpuN_busy_pct over the interval; qdisc: drops, overlimits,
 * requeues as differences, backlog and qlen (bytes, packets queued) as
 * after's
 * level; capture: one row per capture tool found running in either
 * snapshot (value = number of such processes). Counters without a
 * baseline in before are skipped. OUT: *rows (caller frees), *nrows.
 */
int counters_delta(const struct counters_snap *before,
		   const struct counters_snap *after, struct counter_row **rows,
		   size_t *nrows);
/* counters_delta plus cpuN_softirq_pct and softirq_avg_pct: what the
 * sampler turns into series over each sample interval. */
int counters_interval(const struct counters_snap *before,
		      const struct counters_snap *after,
		      struct counter_row **rows, size_t *nrows);

/* Parse a snapshot document (exposed for tests and fuzzing). */
int counters_parse(const char *text, size_t len, struct counters_snap **out);

#endif
