/*
 * The counter groups a plan's `counters:` names and the scopes their rows
 * carry: one row each, which the plan loader (its choices, its bits), the
 * counter readers of every OS (runner/host: the section letter, the
 * reader, the scope of each row, the series each scope's rows become),
 * the docs test (tests/unit/desc/test_counter_group.c: schema/plan.md
 * and schema/plan.schema.json) all read. A leaf below plan and host.
 *
 * Adding a group: a row in COUNTER_GROUP_MAP (its bit next, its letter
 * unused), its scopes in COUNTER_SCOPE_MAP, then its readers, which the
 * compiler asks for by the row's id: the local reader doc_ID in
 * runner/host/counters.c, the far shell's section SH_ID in
 * counters_script.c, the PowerShell section PS_ID in oswin.c and the
 * macOS section MAC_ID in osmac.c ("" where that OS has none: the OS
 * column says which have one), its sections in counters_parse.c; its
 * name and doc text in schema/plan.md ("counters" and "### counters") and
 * schema/plan.schema.json.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_COUNTER_GROUP_H
#define XR_COUNTER_GROUP_H

#include "series_name.h"

/* The OSes a group has a reader on (the os column). */
#define COUNTER_OS_LINUX 1u
#define COUNTER_OS_WINDOWS 2u
#define COUNTER_OS_MACOS 4u

/*
 * X(id, name, letter, os, doc)
 *   id      COUNTER_GROUP_<id>, its index; PLAN_COUNTER_<id> = 1 << index
 *   name    the word in `counters:`
 *   letter  its section letter in the far scripts' "which" argument
 *   os      COUNTER_OS_* bits: where a reader reads it
 *   doc     what it reads: schema/plan.md, "### counters", says
 *           "`name` (doc)" word for word
 */
#define COUNTER_GROUP_MAP(X)                                                   \
	X(NIC, "nic", "n",                                                     \
	  COUNTER_OS_LINUX | COUNTER_OS_WINDOWS | COUNTER_OS_MACOS,            \
	  "interface statistics from sysfs and every changed `ethtool -S` "    \
	  "counter, e.g. PAUSE frames")                                        \
	X(TCP, "tcp", "t",                                                     \
	  COUNTER_OS_LINUX | COUNTER_OS_WINDOWS | COUNTER_OS_MACOS,            \
	  "`/proc/net/snmp`: RetransSegs, ..., and the Udp counters that "     \
	  "moved: InErrors, RcvbufErrors, SndbufErrors")                       \
	X(CPU, "cpu", "c", COUNTER_OS_LINUX | COUNTER_OS_WINDOWS,              \
	  "per-CPU busy %, NET_RX softirqs")                                   \
	X(CAPTURE, "capture", "p",                                             \
	  COUNTER_OS_LINUX | COUNTER_OS_WINDOWS | COUNTER_OS_MACOS,            \
	  "whether tcpdump/dumpcap/tshark was running")

enum counter_group {
#define COUNTER_GROUP_ENUM(id, name, letter, os, doc) COUNTER_GROUP_##id,
	COUNTER_GROUP_MAP(COUNTER_GROUP_ENUM)
#undef COUNTER_GROUP_ENUM
	    COUNTER_GROUP_COUNT
};

/* Every group's bit: `counters: all`, the default. */
#define COUNTER_GROUP_ALL ((1u << COUNTER_GROUP_COUNT) - 1)

/*
 * X(id, name, group, series)
 *   id      COUNTER_SCOPE_<id>, its index
 *   name    a counter row's scope (struct counter_row; the store's
 *           counters.scope)
 *   group   the group whose reading gives it
 *   series  the prefix of the series its rows become (series_name.h),
 *           or NULL: not sampled
 * The parser keeps one list per scope in this order; cpu's rows are
 * computed from the stat section rather than kept.
 */
#define COUNTER_SCOPE_MAP(X)                                                   \
	X(NIC, "nic", NIC, SERIES_NIC)                                         \
	X(ETHTOOL, "ethtool", NIC, SERIES_NIC_ETHTOOL)                         \
	X(TCP, "tcp", TCP, SERIES_TCP)                                         \
	X(UDP, "udp", TCP, SERIES_UDP)                                         \
	X(SOFTIRQ, "softirq", CPU, SERIES_SOFTIRQ)                             \
	X(CAPTURE, "capture", CAPTURE, NULL)                                   \
	X(QDISC, "qdisc", NIC, SERIES_QDISC)                                   \
	X(CPU, "cpu", CPU, SERIES_CPU)

enum counter_scope {
#define COUNTER_SCOPE_ENUM(id, name, group, series) COUNTER_SCOPE_##id,
	COUNTER_SCOPE_MAP(COUNTER_SCOPE_ENUM)
#undef COUNTER_SCOPE_ENUM
	    COUNTER_SCOPE_COUNT
};

/* The group's columns; NULL / 0 outside the table. */
const char *counter_group_name(int g);
const char *counter_group_letter(int g);
unsigned counter_group_os(int g);
const char *counter_group_doc(int g);
/* The group named name, or -1. */
int counter_group_find(const char *name);

/* The scope's columns; NULL / -1 outside the table. */
const char *counter_scope_name(int sc);
int counter_scope_group(int sc);
const char *counter_scope_series(int sc);
/* The scope named name, or -1. */
int counter_scope_find(const char *name);

#endif
