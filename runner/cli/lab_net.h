/*
 * The network side of `xrun lab` (lab.c): the two namespaces, the veth
 * pair between them and its tc shaping, made and removed through proc as
 * argv (ip, tc). lab.c owns the profiles, the record of what `up`
 * created and the command line.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_LAB_NET_H
#define XR_LAB_NET_H

#include <stddef.h>

struct buf;
struct xr_err;

#define LAB_RUN_DIR "/run/xrun-lab"
#define LAB_CMD_TIMEOUT 20.0
#define LAB_MAX_PREFIX 10 /* interface names hold 15 bytes: PREFIX-veth */

enum lab_shape { LAB_NONE, LAB_TBF, LAB_NETEM };

/* A link profile (lab.c's table, or one --rate describes). */
struct lab_profile {
	const char *name;
	enum lab_shape shape;
	double rate;	 /* bit/s, 0 = unshaped */
	double delay_ms; /* one way, per end: RTT = 2 * delay_ms */
	const char *about;
	double burst;	   /* tbf: B; 0 = lab_shape's default */
	double latency_ms; /* tbf: queue as time instead of limit; 0 = none */
};

/* One lab's names: PREFIX-client, PREFIX-server, PREFIX-veth; with a
 * router (`--bottleneck router`), PREFIX-router between them, whose ends
 * of the two veth pairs are PREFIX-c (toward the client) and PREFIX-s. */
struct lab {
	char prefix[LAB_MAX_PREFIX + 1];
	char ns[2][32];	    /* client, server */
	char ifname[2][16]; /* veth end in each */
	const char *addr[2];
	char record[128]; /* LAB_RUN_DIR/PREFIX.json */
	int router;	  /* the link goes through PREFIX-router */
	char rns[32];	  /* PREFIX-router */
	char rif[2][16];  /* its ends toward client, server */
};

extern const char *const lab_role[2]; /* "client", "server" */

/* The names of lab prefix; -XR_EUSAGE (what is wrong, what is valid) for
 * a bad prefix. Looks at nothing on the system. */
int lab_init(struct lab *l, const char *prefix, struct xr_err *err);
/* Runs argv; 0 when it exited 0, else < 0 with stderr (trimmed, or what
 * happened) in errtext. out, errtext: may be NULL. */
int lab_run(const char *const *argv, struct buf *out, struct buf *errtext);
int lab_ns_exists(const char *ns);
int lab_link_exists(const char *ns, const char *ifname);
/* -XR_EENV: "WHAT failed: STDERR". */
int lab_cmd_fail(struct xr_err *err, const char *what, struct buf *e);
/* The namespaces and the veth pair (with l->router: the router and its
 * two pairs, forwarding with proxy ARP so the ends keep one /30);
 * idempotent. created[] says which namespaces this call made (client,
 * server, router), *veth whether it made a pair. */
int lab_build(struct lab *l, int created[3], int *veth, struct xr_err *err);
/* Shapes both ends as pr says, or with a router its two egresses (the
 * ends unshaped); tc replace: a refusal keeps the old. */
int lab_shape(struct lab *l, const struct lab_profile *pr, struct xr_err *err);
/* Deletes namespace ns if it exists; the veth pair. */
int lab_down_ns(const char *ns, struct buf *e);
int lab_del_veth(struct lab *l, struct buf *e);
/* Prints argv's output, each line after indent; end i's shaping. */
void lab_show(const char *const *argv, const char *indent);
void lab_show_shaping(const struct lab *l, int i);

#endif
