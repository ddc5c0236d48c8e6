/*
 * An htb root's ceiling for unclassified traffic (runner/host/qdisc_htb.c)
 * from `tc class show dev lo` as iproute2 6.1 printed it here
 * (2026-12-03: tc qdisc add dev lo root handle 1: htb default 10; class
 * 1:1 htb rate 900mbit; class 1:10 parent 1:1 htb rate 500mbit ceil
 * 800mbit): the default class's ceil 800 Mbit/s under its parent's 900;
 * with the parent at 600, the parent's. tc-htb(8): a class borrows up to
 * its ceil; sprint_rate() prints 10^3 units, Kibit ... with -iec.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stddef.h>

#include "qdisc_htb.h"
#include "tap.h"

static const char two[] =
    "class htb 1:10 parent 1:1 prio 0 rate 500Mbit ceil 800Mbit burst "
    "1500b cburst 1600b \n"
    "class htb 1:1 root rate 900Mbit ceil 900Mbit burst 1462b cburst "
    "1462b \n";
static const char low_parent[] =
    "class htb 1:1 root rate 600Mbit ceil 600Mbit burst 1462b cburst 1462b \n"
    "class htb 1:10 parent 1:1 prio 0 rate 500Mbit ceil 800Mbit burst "
    "1500b cburst 1600b \n";
static const char root_only[] = "class htb 1:a root prio 0 rate 1Gbit ceil "
				"1Gbit burst 1375b cburst 1375b \n";
static const char loop[] =
    "class htb 1:10 parent 1:20 prio 0 rate 5Mbit ceil 8Mbit burst 1b \n"
    "class htb 1:20 parent 1:10 prio 0 rate 5Mbit ceil 9Mbit burst 1b \n";

int main(void)
{
	double v = NAN;
	const char *end;
	tap_plan(14);
	ok(qdisc_htb_ceil(two, "1:", "0x10", &v) == 0 && v == 800e6,
	   "default 1:10 ceil 800Mbit under 900Mbit (got %g)", v);
	ok(qdisc_htb_ceil(low_parent, "1:", "0x10", &v) == 0 && v == 600e6,
	   "the parent's 600Mbit holds the 800Mbit child (got %g)", v);
	ok(qdisc_htb_ceil(root_only, "1:", "0xa", &v) == 0 && v == 1e9,
	   "a root default class, minor in hex (1:a): 1Gbit (got %g)", v);
	ok(qdisc_htb_ceil(two, "1:", "0", &v) < 0,
	   "default 0: unclassified traffic is not shaped");
	ok(qdisc_htb_ceil(two, "1:", "0x30", &v) < 0, "no class 1:30");
	ok(qdisc_htb_ceil(two, "2:", "0x10", &v) < 0, "another qdisc's 2:10");
	ok(qdisc_htb_ceil(loop, "1:", "0x10", &v) < 0, "a parent loop ends");
	ok(qdisc_htb_ceil("", "1:", "0x10", &v) < 0, "no classes");
	ok(qdisc_htb_ceil(NULL, "1:", "0x10", &v) < 0, "NULL text");
	ok(qdisc_rate_bits("64Kbit", &end) == 64e3 && *end == '\0', "64Kbit");
	ok(qdisc_rate_bits("1Mibit burst", &end) == 1048576 && *end == ' ',
	   "1Mibit (-iec)");
	ok(qdisc_rate_bits("100bit", NULL) == 100, "100bit");
	ok(qdisc_rate_bits("12.5Gbit", NULL) == 12.5e9, "12.5Gbit");
	ok(qdisc_rate_bits("5Mbps", NULL) < 0, "an input unit tc never prints");
	return tap_done();
}
