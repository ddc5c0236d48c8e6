/*
 * Explain the number (issue 25): per cell, the ceilings that the known
 * host facts set (Ethernet goodput at line rate and MTU, a tbf shaper,
 * PCIe) and the bottleneck that the runs' series show during the loaded
 * phase (t > 0). Every formula and threshold is in schema/report.md,
 * "Limits", with its source. Nothing here guesses: with no ceiling reached
 * and no evidence the kind is "none".
 *
 * Ownership: everything explain_build() returns lives in r->arena and is
 * freed with the report.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_EXPLAIN_H
#define XR_EXPLAIN_H

#include "report.h"
#include "explain_ceil.h"
#include "explain_kind.h"

/* OUT: *out in r->arena; NULL for a model built by hand (no arena, no
 * cells). -XR_ENOMEM only. */
int explain_build(const struct report *r, struct explain **out);

/* Where loss began in rate search si (r->searches; schema/report.md,
 * "Rate search"): the highest trial load without loss below the lowest
 * with some, and at that lowest one what its counters and metrics say:
 * how much of the load the sender did not send, how many datagrams were
 * lost, and which place counted drops (qdisc, socket buffer, NIC) on
 * which host; then the same at the highest load tried. Into out
 * (cleared); *from and *to the two loads (NaN: no trial lost anything,
 * out then says so). 0 or -XR_ENOMEM. */
struct buf;
int explain_search(const struct report *r, int si, struct buf *out,
		   double *from, double *to);

#endif
