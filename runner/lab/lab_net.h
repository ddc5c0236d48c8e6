/*
 * The network side of the lab (lab.h), private to runner/lab: the one
 * lab's names (struct lab, which lab.h hands out as an opaque handle) and
 * the namespaces, the veth pair between them and its tc shaping, made and
 * removed through proc as argv (ip, tc). lab.c owns the profiles and the
 * record of what `up` created.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_LAB_NET_H
#define XR_LAB_NET_H

#include <stddef.h>

#include "lab.h"

struct buf;
struct xr_err;

#define LAB_RUN_DIR "/run/xrun-lab"
#define LAB_CMD_TIMEOUT 20.0

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

#endif
