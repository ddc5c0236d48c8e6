/*
 * The host facts, one table (hostfact.c): every key a store keeps in
 * host_facts and fact_sets, with the reading it comes with, what each OS
 * reads for it, whether a factor's setting can change it (read again
 * after an apply hook) and its label in a report's system table. It
 * lives in this leaf so that runner/host (the readers), runner/exec (what
 * to read again after a change) and reports/ (the labels) read one row,
 * and schema/store.md's table of host facts is checked against it
 * (tests/unit/desc/test_hostfact.c). Adding a fact: one row here, its
 * reader in runner/host/facts.c, its row in schema/store.md.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_HOSTFACT_H
#define XR_HOSTFACT_H

/* The readings facts are taken in (runner/host/facts.h facts_group): a
 * group is read whole, so a key of it that is not read (a policer
 * removed) is gone from the set read again. */
enum hostfact_group {
	HOSTFACT_G_HOST = 1 << 0,    /* hostname, CPU, memory */
	HOSTFACT_G_OS = 1 << 1,	     /* os_release, kernel */
	HOSTFACT_G_NIC = 1 << 2,     /* nic_*: driver to offloads */
	HOSTFACT_G_QDISC = 1 << 3,   /* qdisc_root, qdisc_root_queue, police */
	HOSTFACT_G_TOOLS = 1 << 4,   /* an engine's version */
	HOSTFACT_G_CAPTURE = 1 << 5, /* capture_running */
	HOSTFACT_G_ALL = (1 << 6) - 1,
};

enum hostfact_os { HOSTFACT_LINUX, HOSTFACT_WINDOWS, HOSTFACT_MACOS };
#define HOSTFACT_NOS 3

struct hostfact {
	const char *key; /* as stored: "nic_mtu" */
	/* the reading it comes with (enum hostfact_group); 0: xrun's own,
	 * not read from the host (xrun_version, plan_hash, transport) */
	unsigned group;
	/* 1: a factor's setting can change it (an apply hook sets the MTU,
	 * a qdisc, a driver): read again after every apply hook; 0: the
	 * machine and its OS, changed only by a manual step */
	int by_factor;
	/* what is read on each OS (enum hostfact_os), for the docs; NULL:
	 * not read there. An engine's version row has argv instead. */
	const char *reader[HOSTFACT_NOS];
	const char *const *argv; /* an engine's version command, every OS */
	/* its row in a report's system table, English and Japanese; NULL:
	 * not in it (the appendix lists every fact) */
	const char *en, *ja;
};

/* Row i in table order (the system table's row order): the facts xrun
 * reads, then each engine's version fact (runner/desc engine_cond.c),
 * then xrun's own; NULL past the last. */
const struct hostfact *hostfact_at(int i);
/* The row of key; NULL when no row has it. */
const struct hostfact *hostfact_find(const char *key);
/* The groups a factor's setting can change (an apply hook): the groups
 * of the rows with by_factor. */
unsigned hostfact_factor_groups(void);
/* "host", "os", "nic", "qdisc", "tools", "capture"; "xrun" for 0. */
const char *hostfact_group_name(unsigned group);

#endif
