/*
 * The rehearsal lab's provisioning (`xrun lab`, whose command line and
 * printing are runner/cli/cmd_lab.c): two hosts made of network
 * namespaces (PREFIX-client, PREFIX-server) joined by one veth pair, or
 * through a PREFIX-router namespace, with the link shaped by tc as a
 * profile says; the record of what `up` created, so that `down` removes
 * exactly that; and what `status` reads back. Nothing here prints: each
 * call says what happened, the caller words it.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_LAB_H
#define XR_LAB_H

#include <stddef.h>

struct buf;
struct xr_err;

#define LAB_MAX_PREFIX 10 /* interface names hold 15 bytes: PREFIX-veth */

enum lab_shape { LAB_NONE, LAB_TBF, LAB_NETEM };

/* A link profile: a row of the table, or one --rate describes. */
struct lab_profile {
	const char *name;
	enum lab_shape shape;
	double rate;	 /* bit/s, 0 = unshaped */
	double delay_ms; /* one way, per end: RTT = 2 * delay_ms */
	const char *about;
	double burst;	   /* tbf: B; 0 = the default (lab_net.c) */
	double latency_ms; /* tbf: queue as time instead of limit; 0 = none */
};

/* The profile table: row i (NULL past the last row), its name (an
 * OPT_CHOICE source), and the row of a name (NULL: none). */
const struct lab_profile *lab_profile_at(size_t i);
const char *lab_profile_name(size_t i);
const struct lab_profile *lab_profile_find(const char *name);

extern const char *const lab_role[2]; /* "client", "server" */

/* One lab, by its prefix: its names, its record, its topology. */
struct lab;

/* The lab of prefix; -XR_EUSAGE (what is wrong, what is valid) for a bad
 * prefix. Looks at nothing on the system. OUT: *out, lab_free it. */
int lab_new(const char *prefix, struct lab **out, struct xr_err *err);
void lab_free(struct lab *l);
/* `--bottleneck router`: the link goes through PREFIX-router. */
void lab_set_router(struct lab *l, int router);
int lab_has_router(const struct lab *l);

/* Whether this process can provision a lab (root, `ip` in PATH);
 * -XR_EENV naming `xrun lab ACTION` otherwise. */
int lab_check_env(const char *action, struct xr_err *err);

/* The names a plan uses: the prefix, end i's (0 client, 1 server)
 * namespace, interface and address, the router's namespace. */
const char *lab_prefix(const struct lab *l);
const char *lab_ns(const struct lab *l, int i);
const char *lab_ifname(const struct lab *l, int i);
const char *lab_addr(const struct lab *l, int i);
const char *lab_router_ns(const struct lab *l);

/* Makes the namespaces, the veth pair(s) and the shaping of pr
 * (idempotent; a refused re-shape keeps the old one; a failed first up
 * removes what it made), recording them before they are made.
 * foreign[i]: end i's namespace existed before and no up made it (down
 * leaves it in place). */
int lab_up(struct lab *l, const struct lab_profile *pr, int foreign[2],
	   struct xr_err *err);
/* Removes what the record says up created, then the record. *found: how
 * many of the lab's namespaces (or veth ends) were there; kept[i]: end
 * i's namespace, not made by up, was left in place after its pair went.
 * Without a record, removes nothing and says what is there (-XR_EENV). */
int lab_down(struct lab *l, int *found, int kept[2], struct xr_err *err);

/* What `status` shows: which namespaces exist, the record's profile and
 * rate. */
struct lab_state {
	int ns_up[2];	  /* client, server */
	int router_up;	  /* PREFIX-router exists */
	char profile[64]; /* the record's profile, "" when unknown */
	int has_rate;	  /* the record has a rate */
	double rate;	  /* bit/s */
};
void lab_state_read(const struct lab *l, struct lab_state *st);

/* tc's and ip's own text: end i's addresses (`ip -br addr show`), its
 * qdiscs (`tc qdisc show dev`), the router's qdiscs. Appended to out;
 * nothing when the command fails to start. */
void lab_read_addr(const struct lab *l, int i, struct buf *out);
void lab_read_qdisc(const struct lab *l, int i, struct buf *out);
void lab_read_router_qdisc(const struct lab *l, struct buf *out);

/* A root qdisc of end i, from `tc -j qdisc show` (tc gives rates in bytes
 * per second and latencies in microseconds). */
struct lab_qdisc {
	char kind[32];
	int has_rate, has_burst, has_lat, has_delay;
	double rate_bps; /* bit/s */
	double burst;	 /* B */
	double lat_ms;	 /* the longest wait in the queue */
};
/* End i's root qdiscs, at most max; their number. */
size_t lab_read_shaping(const struct lab *l, int i, struct lab_qdisc *q,
			size_t max);

#endif
