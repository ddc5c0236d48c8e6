/* A latency metric explained against the queue the facts allow (issue 34
 * Deliver 4), on hand-built models: the report's metric
 * latency.loaded_p50, the cell's latency.idle_p50 0.1 ms, a tbf of
 * 200 Mbit/s on the client. Numbers from python3:
 *   limit 1000000 B: 1e6 * 8 / 2e8 = 0.040 s of queue; the loaded RTT's
 *   ceiling 0.0001 + 0.040 = 0.0401 s; a median of 38 ms is 0.947631 of
 *   it (>= EXPLAIN_QUEUE_FULL 0.8): queue-bound.
 *   limit 5000000 B: 0.200 s; 47 ms is 0.234883 of 0.2001 s: not the
 *   queue; the window 1150000 B at 2e8 bit/s is 1.15e6 * 8 / 2e8 =
 *   0.046 s and 47 ms is 1.021739 of it (within 0.8-1.25): window-bound.
 *   The BDP at the idle RTT: 2e8 / 8 * 0.0001 = 2500 B = 2.5 kB.
 * With drops in the series the delay is never drop-bound.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "explain.h"
#include "tap.h"

static const char *metrics[] = {"latency.loaded_p50", "latency.idle_p50"};
static const char *units[] = {"s", "s"};
static const char *hosts[] = {"client", "server"};
static const double T[5] = {-0.5, 0.5, 1, 1.5, 2};

static const struct explain_limit *one(struct arena *a, double med,
				       const char *queue, double cwnd,
				       const char *metric)
{
	static struct report r;
	static struct report_cell cell;
	static struct report_stats st[2];
	static struct report_run u;
	static struct report_series s[3];
	static struct report_fset set;
	static struct report_fkv kv[3];
	static const struct report_fset *ps;
	static double vals[2], cw[5], drops[5] = {0, 40, 40, 40, 40};
	struct explain *x = NULL;
	memset(&r, 0, sizeof r);
	r.arena = a;
	r.met.metrics = metrics;
	r.met.metric_units = units;
	r.met.nmetrics = 2;
	r.met.metric = metric;
	r.met.display_unit = "ms";
	r.met.display_scale = 1e-3;
	st[0].median = med;
	st[1].median = 0.0001;
	cell.st = st;
	cell.label = "q=x";
	r.cells = &cell;
	r.ncells = 1;
	r.span.hosts = hosts;
	r.span.nhosts = 2;
	kv[0] = (struct report_fkv){"nic_mtu", "1500"};
	kv[1] = (struct report_fkv){"qdisc_root", "tbf 200000000"};
	kv[2] = (struct report_fkv){"qdisc_root_queue", queue};
	set = (struct report_fset){1, 1, "client", "apply", "q", "x", kv, 3};
	ps = &set;
	for (int i = 0; i < 5; i++)
		cw[i] = cwnd;
	s[0] =
	    (struct report_series){"client", "engine.snd_cwnd", "B", T, cw, 5};
	s[1] =
	    (struct report_series){"client", "qdisc.drops", "1", T, drops, 5};
	vals[0] = med;
	vals[1] = 0.0001;
	u.ok = 1;
	u.vals = vals;
	u.series = s;
	u.nseries = cwnd > 0 ? 2 : 1;
	u.fsets = &ps;
	u.nfsets = 1;
	r.runs = &u;
	r.nruns = 1;
	if (explain_build(&r, &x) < 0 || !x)
		return NULL;
	return &x->cells[0];
}

int main(void)
{
	struct arena *a = arena_new();
	const struct explain_limit *l;
	tap_plan(13);
	l = one(a, 0.038, "limit 1000000 burst 32750", 0, "latency.loaded_p50");
	ok(l != NULL, "built");
	if (!l)
		return tap_done();
	is_str(explain_kind_name(l->kind), "queue", "38 ms of a 40 ms queue");
	ok(fabs(l->ceiling - 0.0401) < 1e-12, "ceiling %.9g s", l->ceiling);
	ok(fabs(l->fraction - 0.947630923) < 1e-8, "fraction %.9f",
	   l->fraction);
	is_str(l->ceiling_name,
	       "idle RTT + tbf 200 Mbit/s on client, queue limit 1000000 B = "
	       "40.0 ms",
	       "the queue named with its limit");
	ok(strstr(l->line, "BDP 2.5 kB at the idle RTT 0.10 ms") != NULL,
	   "BDP in the line: %s", l->line);
	ok(!strstr(l->line, "drop"), "no drops named for a delay: %s", l->line);
	l = one(a, 0.047, "limit 5000000 burst 32750", 1150000,
		"latency.loaded_p50");
	is_str(explain_kind_name(l->kind), "window",
	       "47 ms behind a 200 ms queue, window 46 ms: window-bound");
	ok(fabs(l->fraction - 0.234882559) < 1e-8, "fraction %.9f",
	   l->fraction);
	ok(strstr(l->line, "window 1.15 MB / 200 Mbit/s = 46.0 ms") != NULL,
	   "the window's delay: %s", l->line);
	l = one(a, 0.047, "limit 5000000 burst 32750", 0, "latency.loaded_p50");
	is_str(explain_kind_name(l->kind), "none",
	       "47 ms, no window series: no kind, never drop-bound");
	l = one(a, 0.300, "limit 5000000 burst 32750", 0, "latency.loaded_p50");
	ok(l->disagree && strstr(l->line, "disagree"),
	   "300 ms behind a 200 ms queue: the facts and the measurement "
	   "disagree: %s",
	   l->line);
	is_str(explain_kind_name(l->kind), "none", "... and no kind");
	arena_free(a);
	return tap_done();
}
