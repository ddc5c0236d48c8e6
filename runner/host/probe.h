/*
 * Built-in probes: named readings of a host's state used by `verify:`
 * (nic.driver, nic.firmware, nic.link_speed, nic.mtu, nic.pcie_link,
 * tcp.cc, os.release, kernel). Local hosts are read directly (sysfs,
 * /proc, ioctl); others through the host transport.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_PROBE_H
#define XR_PROBE_H

#include "xr_err.h"

struct host;
struct buf;

extern const char *const probe_names[]; /* NULL-terminated */
int probe_known(const char *name);
/* Does the probe need an interface (nic.*)? */
int probe_needs_iface(const char *name);
/* The host fact (facts.h) this probe reads as facts.c reads it, so that
 * a verify's read is a fact of its run too: "nic.mtu" -> "nic_mtu";
 * NULL for a probe that reads no fact that way. */
const char *probe_fact_key(const char *name);

/*
 * Read probe `name` on h into out (trimmed, one line), e.g. "mlx5_core",
 * "9000", "10000Mb/s", "8.0 GT/s x1 (max 8.0 GT/s x4)", "cubic",
 * "Debian GNU/Linux 12 (bookworm)", "6.1.0-18-amd64". iface may be NULL
 * for probes that need none. 0, or negative with err set.
 */
int probe_read(struct host *h, const char *name, const char *iface,
	       struct buf *out, struct xr_err *err);

#endif
