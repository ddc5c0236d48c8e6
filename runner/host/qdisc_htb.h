/*
 * The rate an htb root qdisc lets unclassified traffic through: its
 * default class's ceil, and no more than any ancestor's ceil (a class
 * borrows up to its ceil from its parent, and the parent is bound by its
 * own: tc-htb(8)). A pure text function over `tc class show dev IF`, so
 * that recordings test it (tests/unit/host/test_qdisc_htb.c).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_QDISC_HTB_H
#define XR_QDISC_HTB_H

/* classes: the text of `tc class show dev IF` (iproute2 prints htb
 * classes as text even with -j: "class htb 1:10 parent 1:1 prio 0 rate
 * 500Mbit ceil 800Mbit burst ..."); handle: the qdisc's ("1:"); deflt:
 * its `default` option as tc -j prints it ("0x10": the class 1:10).
 * 0 and the lowest ceil on the path from the default class to its root
 * in *bps (bit/s); -1 when there is no default class (default 0:
 * unclassified packets go out unshaped) or a class on the path is
 * missing or unreadable. */
int qdisc_htb_ceil(const char *classes, const char *handle, const char *deflt,
		   double *bps);

/* tc's rate text ("800Mbit", "1Gbit", "64Kbit", "100bit", "1Mibit") in
 * bit/s, or -1. */
double qdisc_rate_bits(const char *s, const char **end);

#endif
