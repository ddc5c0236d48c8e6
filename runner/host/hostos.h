/*
 * Per-OS command sets for probes, counters and facts. A Linux host is read
 * as before (sysfs, /proc); a Windows host (plan `os: windows`, or
 * `shell: powershell`) runs PowerShell scripts (oswin.c) and a macOS host
 * sh scripts around ifconfig, netstat, sysctl and system_profiler
 * (osmac.c). Their outputs are translated into the documents the Linux
 * path already reads (the interface document of probe_int.h, the counter
 * snapshot of counters.c), so verification, deltas and facts are shared.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_HOSTOS_H
#define XR_HOSTOS_H

#include <stddef.h>

#include "plan.h"
#include "xr_err.h"

struct host;
struct buf;
struct strv;

/* What is asked of a host. */
enum hostos_what {
	HOSTOS_NIC,	 /* the interface document (every nic.* probe) */
	HOSTOS_SYSTEM,	 /* os.release, kernel, tcp.cc and host facts */
	HOSTOS_COUNTERS, /* a counter snapshot */
};

/* "linux", "windows", "macos". */
const char *hostos_name(enum plan_os os);

/*
 * The argv sent to a host of that OS (before the transport wraps it) for
 * what; iface may be NULL; letters is the counters' section word (n, t, c,
 * p). Linux has no argv here (its paths stay in probe.c and counters.c):
 * -XR_EUSAGE. OUT: out (caller releases).
 */
int hostos_argv(enum plan_os os, enum hostos_what what, const char *iface,
		const char *letters, struct strv *out);

/*
 * Translate a host's output for what into the shared document: the
 * interface document ("key: value" lines), the system document (lines
 * "hostname:", "os_release:", "kernel:", "tcp_cc:", "cpu_model:",
 * "cpu_count:", "mem_bytes:") or a counter snapshot ("@@ xrun-counters
 * 1" ...). Pure functions, tested against tests/data/{windows,macos}.
 */
int hostos_translate(enum plan_os os, enum hostos_what what, const char *text,
		     const char *iface, struct buf *doc);

/* Run what on h (a Windows or macOS host) and translate. */
int hostos_read(struct host *h, enum hostos_what what, const char *iface,
		const char *letters, struct buf *doc, struct xr_err *err);

/* An interface name usable on that OS (Windows adapter names hold spaces:
 * "Ethernet 2"). 0 or -XR_EUSAGE with err. */
int hostos_iface_ok(enum plan_os os, const char *iface, struct xr_err *err);

#endif
