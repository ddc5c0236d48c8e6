/* The engine-bound rule's version bound (schema/report.md, "Limits":
 * `engine` is `cpu` with the observed iperf3 version < 3.16 and more than
 * one stream; iperf3 3.16 runs a thread per stream, iperf3 issue #1569):
 * the same cell, one core at 100% and iperf3's client process at 99% of a
 * core with 4 streams (the shape of test_explain_rules.c's engine-bound
 * case), read with iperf3 3.15 and 3.16. 3.15 is before 3.16: engine-bound,
 * "iperf3 3.15 runs its 4 streams in one thread"; 3.16 is not before 3.16
 * (3 = 3 and 16 < 16 is false, by hand): CPU-bound, no engine claim. The
 * bound is the iperf3 row's (runner/desc engine_cond.c, engine_one_thread).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "explain.h"
#include "tap.h"

#define NPT 9
static const double T[NPT] = {-0.25, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2};
static const double C0[NPT] = {3, 100, 100, 100, 100, 100, 100, 100, 100};
static const double C1[NPT] = {3, 20, 20, 20, 20, 20, 20, 20, 20};
static const char *metrics[] = {"throughput", "cpu_host", "cpu_remote"};
static const char *units[] = {"bit/s", "%", "%"};
static const char *hosts[] = {"client", "server"};

/* The cell's kind, second kind and line with iperf3 version ver. */
static void one(const char *ver, const char *kind, const char *has,
		const char *hasnt)
{
	struct report r = {0};
	struct report_cell cell = {0};
	struct report_stats st[3] = {{0}};
	struct report_series s[3];
	struct report_run u = {0};
	struct report_observed ob[2] = {{0, "version", ver, 1},
					{0, "parallel", "4", 1}};
	double vals[3] = {20e9, 99, 40};
	struct explain *x = NULL;
	r.arena = arena_new();
	r.met.metrics = metrics;
	r.met.metric_units = units;
	r.met.nmetrics = 3;
	r.met.display_unit = "Gbit/s";
	r.met.display_scale = 1e9;
	st[0].median = 20e9;
	cell.st = st;
	cell.label = "x=a";
	cell.engine = "iperf3"; /* its runs' engine: the row names 3.16 */
	r.cells = &cell;
	r.ncells = 1;
	r.span.hosts = hosts;
	r.span.nhosts = 2;
	r.observed = ob;
	r.nobserved = 2;
	u.ok = 1;
	u.vals = vals;
	u.series = s;
	s[0] = (struct report_series){"client", "cpu.0.busy", "%", T, C0, NPT};
	s[1] = (struct report_series){"client", "cpu.1.busy", "%", T, C1, NPT};
	s[2] = (struct report_series){"client", "cpu.all.busy", "%", T, C0, 1};
	u.nseries = 3;
	r.runs = &u;
	r.nruns = 1;
	is_int(explain_build(&r, &x), 0, ver);
	if (x) {
		const char *line = x->cells[0].line;
		is_str(explain_kind_name(x->cells[0].kind), kind, ver);
		ok(strstr(line, has) != NULL, "%s: '%s' in '%s'", ver, has,
		   line);
		ok(!hasnt || !strstr(line, hasnt), "%s: no '%s' in '%s'", ver,
		   hasnt ? hasnt : "", line);
	}
	arena_free(r.arena);
}

int main(void)
{
	tap_plan(12);
	one("iperf 3.15", "engine",
	    "iperf3 3.15 runs its 4 streams in one thread: engine-bound (",
	    NULL);
	/* a thread a stream: the process's 99% is no core's, not named */
	one("iperf 3.16", "cpu", "core 0 of client 100% busy", "one thread");
	one("iperf 3.16", "cpu", ": CPU-bound (", "engine-bound");
	return tap_done();
}
