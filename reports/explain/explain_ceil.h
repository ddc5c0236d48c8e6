/*
 * The ceilings' formulas (explain_ceil.c; schema/report.md, "Limits",
 * with their sources): pure arithmetic on the host facts' values.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_EXPLAIN_CEIL_H
#define XR_EXPLAIN_CEIL_H

/* Ceilings in bit/s of payload (schema/report.md): Ethernet at link_bps
 * and mtu; a tbf at rate_bps (it counts the frame without FCS and
 * preamble); PCIe raw from GT/s and lanes. udp: 1 for UDP payload. */
double explain_eth_goodput(double link_bps, int mtu, int udp);
double explain_tbf_goodput(double rate_bps, int mtu, int udp);
double explain_pcie_raw(double gts, int lanes);
/* A tc policer at rate_bps (runner/host/qdisc_police.h): it charges
 * qdisc_pkt_len() plus overhead, in 53-byte cells of 48 with atm; at
 * egress the frame without FCS (MTU + 14), at ingress the IP packet (MTU:
 * the Ethernet header is pulled before the hook). NaN for mtu <= 68. */
double explain_police_goodput(double rate_bps, int mtu, int udp, int ingress,
			      int overhead, int atm);
/* The data rate of a USB link from its signalling rate in bit/s (480e6,
 * 5e9, 10e9, 20e9; anything else NaN): USB 2.0's high-speed bulk limit,
 * USB 3.x Gen 1 8b/10b, Gen 2 128b/132b. */
double explain_usb_data(double signal_bps);
/* "5 Gb/s (USB 3.20)", "480 Mb/s (high_speed)" -> bit/s; NaN. */
double explain_usb_signal(const char *fact);
/* "tx 866.7 Mbit/s, rx 780.0 Mbit/s" -> the higher of the two in bit/s
 * (the direction is not known: no cell can exceed the higher); NaN. */
double explain_wifi_phy(const char *fact);

#endif
