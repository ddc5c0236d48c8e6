/*
 * The ceilings' formulas (explain.h): the goodput a verified fact allows
 * (Ethernet at its line rate and MTU, a tbf/htb shaper, a tc policer,
 * PCIe generation and width, USB, Wi-Fi's PHY rate), each with its source
 * here and in schema/report.md ("Limits"). Pure functions of the facts;
 * explain.c applies them to a cell.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain_ceil.h"

#include "banned.h"

/* IPv4 20 + TCP 20 + timestamps 12 (Linux's default) or UDP 8 inside the
 * MTU; Ethernet header 14 + FCS 4 + preamble/SFD 8 + IFG 12 outside it
 * (IEEE 802.3 clause 3 and 4.4.2). */
double explain_eth_goodput(double link_bps, int mtu, int udp)
{
	double pay = mtu - (udp ? 28 : 52);
	return mtu > 68 ? link_bps * pay / (mtu + 38) : NAN;
}

/* tbf charges qdisc_pkt_len(): the frame from the Ethernet header on,
 * without FCS, preamble and gap (net/sched/sch_tbf.c), per segment. */
double explain_tbf_goodput(double rate_bps, int mtu, int udp)
{
	double pay = mtu - (udp ? 28 : 52);
	return mtu > 68 ? rate_bps * pay / (mtu + 14) : NAN;
}

/* tcf_police_act() charges psched_l2t_ns(&rate, qdisc_pkt_len(skb))
 * (net/sched/act_police.c), which adds the rate's overhead and rounds up
 * to ATM cells (include/net/sch_generic.h psched_l2t_ns). qdisc_pkt_len()
 * is set before the hook: at egress by __dev_queue_xmit's
 * qdisc_pkt_len_init() (qdisc_pkt_len_segs_init() in later kernels), the
 * frame from the Ethernet header per GSO segment; at ingress by
 * sch_handle_ingress() as skb->len, the Ethernet header already pulled
 * (net/core/dev.c; act_police's MTU check adds mac_len back at ingress
 * for that reason: D. Caratti's patch, lore.kernel.org/netdev/
 * 876d597a0ff55f6ba786f73c5a9fd9eb8d597a03.1644514748.git.dcaratti@
 * redhat.com, 2022). A GRO packet is charged its headers once: up to
 * MTU / (MTU - 52) above this ceiling, 3.6% at 1500, inside the 1.05
 * that line-bound allows (explain_cell). */
double explain_police_goodput(double rate_bps, int mtu, int udp, int ingress,
			      int overhead, int atm)
{
	double pay = mtu - (udp ? 28 : 52), len = mtu + (ingress ? 0 : 14);
	len += overhead;
	if (atm)
		len = 53.0 * ceil(len / 48.0);
	return mtu > 68 && len > 0 ? rate_bps * pay / len : NAN;
}

/* PCIe base spec: 2.5 and 5 GT/s code 8b/10b, 8 GT/s and up 128b/130b. */
double explain_pcie_raw(double gts, int lanes)
{
	double enc = gts < 8.0 ? 8.0 / 10.0 : 128.0 / 130.0;
	return gts > 0 && lanes > 0 ? gts * 1e9 * lanes * enc : NAN;
}

/* USB 2.0 spec 5.8.4, Table 5-10: at most 13 bulk transactions of 512
 * bytes per 125 us microframe, 13 * 512 * 8 * 8000 = 425.984 Mbit/s. USB
 * 3.2 spec: Gen 1 (5 GT/s) codes 8b/10b, Gen 2 (10 GT/s per lane)
 * 128b/132b; sysfs says 10000 for Gen 2x1 and 20000 for Gen 2x2 (a Gen
 * 1x2 link also says 10000: counted as Gen 2, the higher ceiling). */
double explain_usb_data(double signal_bps)
{
	if (signal_bps == 480e6)
		return 13.0 * 512 * 8 * 8000;
	if (signal_bps == 5e9)
		return signal_bps * 8.0 / 10.0;
	if (signal_bps == 10e9 || signal_bps == 20e9)
		return signal_bps * 128.0 / 132.0;
	return NAN;
}

double explain_usb_signal(const char *fact)
{
	char *end;
	double v = fact ? strtod(fact, &end) : 0;
	if (!fact || end == fact || v <= 0)
		return NAN;
	if (!strncmp(end, " Gb/s", 5))
		return v * 1e9;
	if (!strncmp(end, " Mb/s", 5))
		return v * 1e6;
	return NAN;
}

double explain_wifi_phy(const char *fact)
{
	double best = NAN, v;
	const char *p;
	for (int i = 0; fact && i < 2; i++) {
		p = strstr(fact, i ? "rx " : "tx ");
		if (p && sscanf(p + 3, "%lf Mbit/s", &v) == 1 && v > 0 &&
		    !(v * 1e6 <= best))
			best = v * 1e6;
	}
	return best;
}
