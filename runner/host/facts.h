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

#include "xr_err.h"

struct host;

struct fact {
	char key[32]; /* hostname, os_release, kernel, cpu_model, cpu_count,
			 mem_bytes, nic_driver, nic_firmware, nic_link,
			 nic_pcie_link, nic_mtu, nic_offloads ("tso on,
			 gso on, gro off, lro off"), qdisc_root (kind and
			 rate in bit/s: "tbf 1000000000"),
			 qdisc_root_queue (a tbf's queue: "limit 1000000
			 burst 32750", bytes),
			 police_egress, police_ingress (a tc policer:
			 qdisc_police.h qdisc_police_fact),
			 a tool's (facts_tool: iperf3_version),
			 capture_running */
	char *value;  /* owned */
};

/* The groups of facts facts_collect_some reads: a group is read whole
 * (a key of it that is not read, as a policer removed, is gone). */
enum facts_group {
	FACTS_HOST = 1 << 0,	/* hostname, CPU, memory: no factor changes */
	FACTS_OS = 1 << 1,	/* os_release, kernel */
	FACTS_NIC = 1 << 2,	/* nic_*: driver to offloads */
	FACTS_QDISC = 1 << 3,	/* qdisc_root, qdisc_root_queue, police_* */
	FACTS_TOOLS = 1 << 4,	/* the facts_tool keys */
	FACTS_CAPTURE = 1 << 5, /* capture_running */
	FACTS_ALL = (1 << 6) - 1,
	/* What an apply hook can change (runner/exec/runfacts.c): all but
	 * the machine itself and its OS (a reboot is a manual step). */
	FACTS_APPLY = FACTS_NIC | FACTS_QDISC | FACTS_TOOLS | FACTS_CAPTURE,
};
/* A program whose version is a fact (FACTS_TOOLS): the caller's list,
 * ended by a row whose key is NULL; a NULL list reads none. The runner
 * passes the plan's engine's (runner/desc engine_version_of). */
struct facts_tool {
	const char *key;	 /* "iperf3_version" */
	const char *const *argv; /* "iperf3", "--version", NULL */
};

/* The group key is read in (a key of tools: FACTS_TOOLS); 0 for a key
 * facts_collect does not read. */
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
