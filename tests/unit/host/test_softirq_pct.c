/*
 * The softirq share of each CPU's time (counters_parse.c: softirq_pct,
 * cpuN_softirq_pct and softirq_avg_pct) from two /proc/stat snapshots
 * whose irq and softirq columns differ, so that reading the wrong column
 * shows. The fixtures of test_counters have zeros there. Fields: user
 * nice system idle iowait irq softirq steal (proc(5)); python3:
 *   cpu0 total 980 -> 1280 (dt 300), softirq 20 -> 70 (50), irq 10 -> 30
 *   cpu1 total 1050 -> 1300 (dt 250), softirq 0 -> 45, irq 0 -> 5
 *   100*50/300 = 16.666666666666668, 100*45/250 = 18.0,
 *   100*95/550 = 17.272727272727273 (the share over all CPUs' time);
 *   busy (total - idle - iowait): 100*200/300 = 66.66666666666667,
 *   100*200/250 = 80.0, 100*400/550 = 72.72727272727273.
 * procs_running (proc(5)): the gauge as the later snapshot has it (5, not
 * the earlier 2 nor a difference), and no row when a snapshot lacks it.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdlib.h>
#include <string.h>

#include "counters.h"
#include "tap.h"

static const char before[] = "@@ xrun-counters 1\n@@ stat\n"
			     "cpu  300 0 100 1600 0 10 20 0 0 0\n"
			     "cpu0 100 0 50 800 0 10 20 0 0 0\n"
			     "cpu1 200 0 50 800 0 0 0 0 0 0\n"
			     "procs_running 2\n";
static const char after[] = "@@ xrun-counters 1\n@@ stat\n"
			    "cpu  500 0 180 1750 0 35 115 0 0 0\n"
			    "cpu0 200 0 80 900 0 30 70 0 0 0\n"
			    "cpu1 300 0 100 850 0 5 45 0 0 0\n"
			    "intr 1 2 3\n"
			    "procs_running 5\n";

static double val(const struct counter_row *r, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(r[i].scope, "cpu") && !strcmp(r[i].name, name))
			return r[i].value;
	return -1;
}

int main(void)
{
	struct counters_snap *a = NULL, *b = NULL;
	struct counter_row *rows = NULL;
	size_t n = 0;
	static const struct {
		const char *name;
		double want;
	} want[] = {
	    {"cpu0_softirq_pct", 16.666666666666668},
	    {"cpu1_softirq_pct", 18.0},
	    {"softirq_avg_pct", 17.272727272727273},
	    {"cpu0_busy_pct", 66.66666666666667},
	    {"cpu1_busy_pct", 80.0},
	    {"busy_avg_pct", 72.72727272727273},
	    {"procs_running", 5},
	};

	tap_plan(5 + (int)(sizeof want / sizeof *want));
	ok(counters_parse(before, sizeof before - 1, &a) == 0, "parse before");
	ok(counters_parse(after, sizeof after - 1, &b) == 0, "parse after");
	ok(a && b && counters_interval(a, b, &rows, &n) == 0, "interval");
	for (size_t k = 0; k < sizeof want / sizeof *want; k++)
		is_near(val(rows, n, want[k].name), want[k].want, 1e-9,
			want[k].name);
	free(rows);
	rows = NULL;
	/* b then a: the later one (a) has procs_running 2 */
	ok(counters_interval(b, a, &rows, &n) == 0 &&
	       val(rows, n, "procs_running") == 2,
	   "procs_running: the later snapshot's");
	free(rows);
	rows = NULL;
	counters_snap_free(a);
	a = NULL;
	/* before without its procs_running line */
	ok(counters_parse(before, strstr(before, "procs_running") - before,
			  &a) == 0 &&
	       counters_interval(b, a, &rows, &n) == 0 &&
	       val(rows, n, "procs_running") == -1,
	   "no procs_running row when the later snapshot has none");
	free(rows);
	counters_snap_free(a);
	counters_snap_free(b);
	return tap_done();
}
