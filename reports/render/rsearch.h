/*
 * The rate search in a report (rsearch.c; schema/report.md, "Rate
 * search"): the table of each cell's goal results (NDR, PDR ... in Gbit/s
 * and Mpps), the chart of loss ratio against offered load with every
 * trial as a point and the loads found marked, and the line of the
 * search's parameters written under it. The writers call these as one
 * section of their own, after the cells.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_RSEARCH_H
#define XR_RSEARCH_H

#include "buf.h"
#include "chart.h"
#include "report.h"
#include "rtable.h"

struct arena;

/* One row per cell and goal: cell, goal, load (Gbit/s), Mpps, conditional
 * throughput (Gbit/s), upper bound (Gbit/s), trials, and why a result is
 * irregular; a search of another unit shows its loads as they are. The
 * title is the section's. t->nrows == 0 without searches. 0 or
 * -XR_ENOMEM. */
int rt_search(const struct report *r, struct arena *a, struct rtable *t);

/* The parameters of search si (r->searches) as one sentence, into out
 * (cleared first): "Search: bitrate from 20 Mbit/s to 1 Gbit/s, width
 * 0.5% (relative); goals (...): ndr 0%, 1 s, 21 s, 50%; ...". 0 or
 * -XR_ENOMEM. */
int rsearch_params(const struct report *r, int si, struct buf *out);

/* Search si's chart in width units: loss ratio (%) against offered load,
 * each trial a dot coloured by its goal (hollow on the top edge when
 * above the axis), a vertical line at each goal's load with its name.
 * 0 or -XR_ENOMEM. */
int chart_search(const struct report *r, int si, double width, struct arena *a,
		 struct chart_fig *f);

#endif
