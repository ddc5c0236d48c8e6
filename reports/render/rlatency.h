/*
 * The latency increase under load in plain words, for the summary block
 * (rlatency.c).
 */
#ifndef XR_RLATENCY_H
#define XR_RLATENCY_H

#include "buf.h"
#include "report.h"

/* Into out, per cell with a `latency.increase_p50` value: "+38 ms at the
 * median under load (idle 12 ms, loaded 50 ms)" (Japanese for r->lang),
 * the cell's label first when there are several cells. Returns the
 * number of cells said (0: the metric is absent, out untouched), or
 * -XR_ENOMEM. */
int rlatency_summary(const struct report *r, struct buf *out);

#endif
