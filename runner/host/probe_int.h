/*
 * Internals of the probes shared with facts.c: every nic.* probe is
 * answered from one "key: value" document about the interface, so that
 * facts can read driver, firmware, link and PCIe link in one round trip.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_PROBE_INT_H
#define XR_PROBE_INT_H

#include "xr_err.h"

struct host;
struct buf;

/* The interface document of iface on h (local: sysfs + ETHTOOL_GDRVINFO;
 * a Linux host: one fixed sh script with iface as $1; Windows and macOS:
 * their commands, translated by hostos.h). Appends to doc. */
int probe_nic_doc(struct host *h, const char *iface, struct buf *doc,
		  struct xr_err *err);
/* Answer nic.* probe `name` from such a document into out. */
int probe_from_nic_doc(struct host *h, const char *name, const char *iface,
		       const char *doc, struct buf *out, struct xr_err *err);
/* The script used on non-local hosts (exposed for tests). */
const char *probe_nic_script(void);

#endif
