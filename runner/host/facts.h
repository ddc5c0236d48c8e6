/*
 * Host facts: hostname, OS release, kernel, CPU model and count, memory,
 * NIC driver/firmware/link/offloads, root qdisc and policers, the
 * version of the programs the caller names (the plan's engine's: the
 * runner hands its version command in, so no engine is named here; plus
 * xrun version and plan hash added by the runner); read whole when a host
 * is opened, in groups after a change (runfacts.c).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_FACTS_H
#define XR_FACTS_H

#include <stddef.h>

#include "hostfact.h"
#include "xr_err.h"

struct host;

struct fact {
	char key[32]; /* a row of runner/desc/hostfact.c: nic_offloads
			 ("tso on, gso on, gro off, lro off"), qdisc_root
			 (kind and rate in bit/s: "tbf 1000000000"),
			 qdisc_root_queue (a tbf's queue: "limit 1000000
			 burst 32750", bytes), police_egress (a tc policer:
			 qdisc_police.h qdisc_police_fact), a tool's
			 (facts_tool: its engine's version) ... */
	char *value;  /* owned */
};

/* The groups of facts facts_collect_some reads: a group is read whole
 * (a key of it that is not read, as a policer removed, is gone). Each key's
 * group, and whether a factor can change it, is its row of the host
 * facts' table (runner/desc/hostfact.h). */
enum facts_group {
	FACTS_HOST = HOSTFACT_G_HOST,	    /* hostname, CPU, memory */
	FACTS_OS = HOSTFACT_G_OS,	    /* os_release, kernel */
	FACTS_NIC = HOSTFACT_G_NIC,	    /* nic_*: driver to offloads */
	FACTS_QDISC = HOSTFACT_G_QDISC,	    /* qdisc_root, police_* */
	FACTS_TOOLS = HOSTFACT_G_TOOLS,	    /* the facts_tool keys */
	FACTS_CAPTURE = HOSTFACT_G_CAPTURE, /* capture_running */
	FACTS_ALL = HOSTFACT_G_ALL,
};
/* A program whose version is a fact (FACTS_TOOLS): the caller's list,
 * ended by a row whose key is NULL; a NULL list reads none. The runner
 * passes the plan's engine's (runner/desc engine_version_of). */
struct facts_tool {
	const char *key;	 /* "iperf3_version" */
	const char *const *argv; /* "iperf3", "--version", NULL */
};

/* The group key is read in (its hostfact row's; a key of tools:
 * FACTS_TOOLS); 0 for a key facts_collect does not read. */
unsigned facts_key_group(const char *key, const struct facts_tool *tools);
/* The facts of the groups in what (enum facts_group). */
int facts_collect_some(struct host *h, const char *iface, unsigned what,
		       const struct facts_tool *tools, struct fact **facts,
		       size_t *n);

/* OUT: *facts (free with facts_free). A fact that cannot be read is
 * left out, never an error; returns negative only on OOM. */
int facts_collect(struct host *h, const char *iface,
		  const struct facts_tool *tools, struct fact **facts,
		  size_t *n);
void facts_free(struct fact *facts, size_t n);

#endif
