/*
 * A cell's runs as the charts read them (reports/model/model_runs.c,
 * report_cell_runs: each cell's runs indexed once, issue 40), through
 * its time series (reports/render/chart_runs.c): a cell of three ok
 * runs draws three throughput lines, the last run's too. The report is
 * built by hand: cell 0 holds runs 0, 1 and 2 (cell_first {0, 3}), each
 * with engine.throughput at t = 0.5 .. 3 s; cell 1 holds run 3 alone
 * (cell_first {3, 4}): one line. Counted by hand: one path a run.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "chart.h"
#include "report.h"
#include "tap.h"
#include "banned.h"

static const double tput_t[] = {0.5, 1, 1.5, 2, 2.5, 3};
static const double v0[] = {9e8, 9.2e8, 9.1e8, 9.3e8, 9.2e8, 9.1e8};
static const double v1[] = {8e8, 8.2e8, 8.1e8, 8.3e8, 8.2e8, 8.1e8};
static const double v2[] = {7e8, 7.2e8, 7.1e8, 7.3e8, 7.2e8, 7.1e8};

/* The lines of 6 points: a run's throughput (the axes and grid are
 * lines of 2). */
static int paths(const struct chart_fig *f)
{
	int n = 0;
	for (int i = 0; i < f->nops; i++)
		n += f->ops[i].kind == CHART_OP_PATH && f->ops[i].n == 6;
	return n;
}

int main(void)
{
	struct report_series ser[4] = {
	    {"", "engine.throughput", "bit/s", tput_t, v0, 6},
	    {"", "engine.throughput", "bit/s", tput_t, v1, 6},
	    {"", "engine.throughput", "bit/s", tput_t, v2, 6},
	    {"", "engine.throughput", "bit/s", tput_t, v0, 6},
	};
	double vals[4] = {9.1e8, 8.1e8, 7.1e8, 9.1e8};
	struct report_run runs[4];
	struct report_cell cells[2] = {{.label = "x=a"}, {.label = "x=b"}};
	const char *metrics[1] = {"throughput"}, *units[1] = {"bit/s"};
	static const int cell_first[3] = {0, 3, 4}, cell_runs[4] = {0, 1, 2, 3};
	struct report r;
	struct chart_fig f;
	struct arena *a = arena_new();
	const int *v;
	int i, n = -1;

	tap_plan(6);
	memset(&r, 0, sizeof r);
	memset(runs, 0, sizeof runs);
	for (i = 0; i < 4; i++) {
		runs[i].id = i + 1;
		runs[i].cell = i < 3 ? 0 : 1;
		runs[i].rep = i < 3 ? i + 1 : 1;
		runs[i].ok = 1;
		runs[i].status = "ok";
		runs[i].vals = &vals[i];
		runs[i].series = &ser[i];
		runs[i].nseries = 1;
	}
	r.cells = cells;
	r.ncells = 2;
	r.runs = runs;
	r.nruns = 4;
	r.cell_first = cell_first;
	r.cell_runs = cell_runs;
	r.met.metrics = metrics;
	r.met.metric_units = units;
	r.met.nmetrics = 1;
	r.met.display_unit = "Mbit/s";
	r.met.display_scale = 1e6;

	v = report_cell_runs(&r, 0, &n);
	ok(v && n == 3 && v[2] == 2, "cell 0: runs 0, 1 and 2 (%d)", n);
	is_int(report_cell_run(&r, 1, 0), 3, "cell 1: run 3");
	ok(a && chart_timeseries(&r, 0, 480, a, &f) == 0, "cell 0's chart");
	is_int(paths(&f), 3, "three throughput lines, one a run");
	ok(chart_timeseries(&r, 1, 480, a, &f) == 0, "cell 1's chart");
	is_int(paths(&f), 1, "one line: its one run");
	arena_free(a);
	return tap_done();
}
