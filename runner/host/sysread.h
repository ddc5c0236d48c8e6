/*
 * Small readings of a host's state shared by probes, counters and facts:
 * a file read directly on a local host (or through the host transport on
 * any other), a short command run through the transport, and the check
 * that an interface name is safe to use in a /sys path.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_SYSREAD_H
#define XR_SYSREAD_H

#include "xr_err.h"

struct host;
struct buf;

/* h == NULL means this machine's own namespace, read directly. */
int sysread_is_local(struct host *h);
const char *sysread_host_name(struct host *h);

/* Append the contents of path on h to out. Errors name the path. */
int sysread_file(struct host *h, const char *path, struct buf *out,
		 struct xr_err *err);
/* Run argv on h (timeout seconds); on exit 0 append stdout to out.
 * A non-zero exit is an error carrying the command's stderr. */
int sysread_run(struct host *h, const char *const *argv, double timeout,
		struct buf *out, struct xr_err *err);
/* The same with inline_cmd, the reading in the session shell's own
 * language beside argv (host_read_run_inline); NULL: sysread_run. */
int sysread_run_inline(struct host *h, const char *const *argv,
		       const char *inline_cmd, double timeout, struct buf *out,
		       struct xr_err *err);

/* 0 when iface is a plausible interface name (1..15 bytes, no '/',
 * whitespace or quotes, not "." or ".."), else -XR_EUSAGE with err. */
int sysread_iface_ok(const char *iface, struct xr_err *err);

/* Strip leading and trailing whitespace in place; keep the first line. */
void sysread_trim_line(struct buf *b);

#endif
