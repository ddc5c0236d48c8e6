/*
 * Time series observed during one run: a set of (host, name) series, each
 * a list of points (t seconds from the engine's start, value). The
 * sampler (runner/host), the engines' own intervals (runner/engine) and
 * latency probes fill a set; the store writes it (table series, view
 * series: schema/store.md); series metrics are computed from it.
 *
 * Names are dotted, lowercase: nic.rx_bytes, nic.ethtool.rx_pause,
 * qdisc.drops, cpu.3.busy, cpu.all.softirq, tcp.retrans,
 * udp.rcvbuf_errors, engine.throughput, latency.rtt (schema/store.md
 * lists them). A counter's series holds its increase over each sample
 * interval, at the interval's end; a level (cpu busy %, a throughput)
 * holds the interval's value. host is the plan's host label ("client",
 * "server", a bound host's name).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_SERIES_H
#define XR_SERIES_H

#include <stddef.h>

#define SERIES_HOST_MAX 64
#define SERIES_NAME_MAX 96

struct series {
	char host[SERIES_HOST_MAX];
	char name[SERIES_NAME_MAX];
	char unit[16]; /* "B", "bit/s", "%", "1", "s" ... */
	double *t, *v; /* owned, [n] */
	size_t n, cap;
};

struct series_set {
	struct series *s; /* owned, [n] */
	size_t n, cap;
	/* Why sampling stopped early on a host ("sampler on 'server' died:
	 * ..."), "" when it did not: a run goes on without its sampler. */
	char note[256];
};

/* The series (host, name), made empty with unit when absent. NULL when
 * out of memory or a name does not fit. Pointers move when a series is
 * added: use the result before the next call. */
struct series *series_set_get(struct series_set *ss, const char *host,
			      const char *name, const char *unit);
/* Append one point; 0 or -XR_ENOMEM. */
int series_add(struct series *s, double t, double v);
/* series_set_get + series_add; 0 or -XR_ENOMEM. */
int series_set_add(struct series_set *ss, const char *host, const char *name,
		   const char *unit, double t, double v);
/* The series (host, name), or NULL; host NULL matches any host. */
const struct series *series_set_find(const struct series_set *ss,
				     const char *host, const char *name);
/* Move every series of src into dst (src is left empty); 0 or
 * -XR_ENOMEM (src keeps what was not moved). */
int series_set_take(struct series_set *dst, struct series_set *src);
void series_set_release(struct series_set *ss);

#endif
