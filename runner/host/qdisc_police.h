/*
 * The tc policers of one interface hook (the root qdisc's filters, or
 * clsact's egress, or the ingress hook) from `tc -s filter show dev IF
 * [ingress|egress]` text: iproute2 prints a police action's rate, burst
 * and mtu as text only, never in -j (tc/m_police.c print_police: PRINT_FP),
 * so, as with htb classes (qdisc_htb.h), the text is the format. A pure
 * text function, tested from recordings (tests/data/tc/README.md).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_QDISC_POLICE_H
#define XR_QDISC_POLICE_H

#include <stddef.h>

#include "buf.h"

struct qdisc_police {
	char cls[16];	   /* the classifier: matchall, u32, basic, flower */
	char proto[16];	   /* the filter's protocol: all, ip, ipv6 ... */
	unsigned pref;	   /* its priority, 0 when not printed */
	int all;	   /* the classifier matches every packet of proto */
	int first;	   /* no other filter comes before it on its hook */
	double rate;	   /* bit/s, 0 without a byte rate (avrate only) */
	double peakrate;   /* bit/s, 0 without */
	double burst, mtu; /* bytes, as tc prints them (0 when absent) */
	double pkts_rate;  /* packets/s, 0 without */
	int overhead;	   /* bytes added to each packet's length */
	int atm;	   /* linklayer atm: 53-byte cells of 48 */
	char exceed[24];   /* the exceed action: drop, reclassify, pipe ... */
	int has_stats;	   /* the "Sent ..." line was found (tc -s) */
	unsigned long long bytes, packets, drops, overlimits;
};

/* Up to cap policers found in text (the output of `tc -s filter show`)
 * into p, in the order printed; the number found (it may exceed cap:
 * only cap are filled). 0 for text with none or NULL. */
int qdisc_police_parse(const char *text, struct qdisc_police *p, int cap);

/* Whether p limits the traffic its filter sees: a byte rate, a filter
 * that matches all traffic and is the first of its hook (one before it
 * may take some traffic and end its classification: tc-filter(8), the
 * filters of a hook run in pref order), and an exceed action that ends
 * in a drop
 * (drop; reclassify: tcf_classify() restarts the classification, the
 * same policer exceeds again, and after max_reclassify_loop rounds the
 * packet is TC_ACT_SHOT, net/sched/cls_api.c). 1 or 0; why into *why
 * (static text) when 0. */
int qdisc_police_limits(const struct qdisc_police *p, const char **why);

/* The fact of one hook (facts.c, police_egress / police_ingress) from
 * the n policers found: "RATE overhead O linklayer L: CLS protocol P pref
 * N, exceed X" with RATE in bit/s for the lowest-rate policer that
 * limits, else "none: CLS ..., WHY" for the first one. 0, or -1 when n
 * is 0 (no fact). */
int qdisc_police_fact(const struct qdisc_police *p, int n, struct buf *out);

#endif
