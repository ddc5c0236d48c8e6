/*
 * Latency under load in the tables (rlatency.c): the increase in plain
 * words for the summary block, and the per-cell table of idle against
 * loaded latency.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_RLATENCY_H
#define XR_RLATENCY_H

#include "buf.h"
#include "report.h"
#include "rtable.h"

struct arena;

/* Into out, per cell with a `latency.increase_p50` value: "+38 ms at the
 * median under load (idle 12 ms, loaded 50 ms)" (Japanese for r->lang),
 * the cell's label first when there are several cells. Returns the
 * number of cells said (0: the metric is absent, out untouched), or
 * -XR_ENOMEM. */
int rlatency_summary(const struct report *r, struct buf *out);

/* Per cell: the report's metric (median, display unit) and the medians
 * of the latency probe's metrics it has (idle p50, loaded p50/p90/p99,
 * increase p50 in ms; probe loss in %), titled "Latency under load
 * (median over runs)"; t->nrows == 0 when the runs have none of them.
 * 0 or -XR_ENOMEM. */
int rt_latency(const struct report *r, struct arena *a, struct rtable *t);

#endif
