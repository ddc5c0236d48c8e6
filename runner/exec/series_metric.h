/*
 * Series at the end of a run: the engine's intervals kept as the series
 * engine.throughput on the receiving host, and the plan's series metrics
 * (`metrics: { NAME: { series: ... } }`, schema/plan.md) computed from the
 * run's series and stored as ordinary metrics. Private to runner/exec.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_SERIES_METRIC_H
#define XR_SERIES_METRIC_H

struct runctx;
struct engine_result;
struct plan_metric;
struct series;
struct series_set;

/*
 * Move the engine's own series of res into ss, add its intervals
 * (engine.throughput on res->iv_host, else the receiving role's host,
 * unless ss has it) and every series metric of the plan to res's metrics.
 * Returns ss when it holds a series or a note, else NULL: what
 * store_run_record.series takes. A metric whose series the run lacks has
 * no value for the run.
 */
const struct series_set *series_metric_finish(struct runctx *rc,
					      struct engine_result *res,
					      struct series_set *ss);

/*
 * The value of metric m over series s: its points with t > 0 (the idle
 * lead-in left out), NaNs skipped; with m->rate each value is divided by
 * its interval (from the point before, or for the first point the next
 * spacing). OUT: *value in the series' unit (per second with rate).
 * 1 when there is a value, 0 when no point is left.
 */
int series_metric_value(const struct plan_metric *m, const struct series *s,
			double *value);

#endif
