/*
 * macOS hosts: the sh scripts run for probes, counters and facts (ifconfig,
 * networksetup, system_profiler, sw_vers, sysctl, netstat, ps) and the
 * translators of their text into the documents the shared readers take.
 * See hostos.h.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_OSMAC_H
#define XR_OSMAC_H

#include <stddef.h>

struct buf;

/* The fixed sh scripts, for the interface, the system and a counter
 * snapshot: run as sh -c SCRIPT sh IFACE LETTERS (hostos.c picks one). */
extern const char osmac_nic_script[];
extern const char osmac_system_script[];
extern const char osmac_counters_script[];

int osmac_nic_doc(const char *text, const char *iface, struct buf *doc);
/* The interface's MAC address from a nic output's ifconfig section into
 * mac (n bytes); 0 when there is none. */
int osmac_ether(const char *text, char *mac, size_t n);
/* The system_profiler sections (ethernet, usb) of a nic output, with
 * their "@@ " headers, appended to out: what a host keeps per session. */
void osmac_profiler_text(const char *text, struct buf *out);
int osmac_system_doc(const char *text, struct buf *doc);
int osmac_counters_doc(const char *text, struct buf *doc);

#endif
