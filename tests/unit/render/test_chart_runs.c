/*
 * A cell's time series (reports/render/chart_runs.c, issue 35): nothing
 * drawn outside the plot's axes (the sampler's lead-in, t < 0, used to
 * run left of the y axis over its labels) and a key naming the host of
 * every CPU line (a client's core 1 and a server's are two lines). The
 * report is built by hand: two ok runs, each with engine.throughput from
 * t = 0.5 to 3 s and cpu.1.busy on "client" and "server" from t = -1 s.
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

#define LEFT 44.0 /* chart_runs.c: where the plot's y axis is */

static const double tput_t[] = {0.5, 1, 1.5, 2, 2.5, 3};
static const double tput_v[] = {9e8, 9.2e8, 9.1e8, 9.3e8, 9.2e8, 9.1e8};
/* the lead-in at -1 and -0.5, then the run; the client's line crosses
 * t = 0 at (20 + 60) / 2 = 40%, the server's at (5 + 95) / 2 = 50%: on
 * the 42-point strip (0-100%) their first points lie 10% x 42 = 4.2
 * points apart */
static const double cpu_t[] = {-1, -0.5, 0.5, 1.5, 2.5, 3.5};
static const double cli_v[] = {10, 20, 60, 70, 70, 65};
static const double srv_v[] = {5, 5, 95, 99, 97, 96};

int main(void)
{
	struct report_series ser[3] = {
	    {"", "engine.throughput", "bit/s", tput_t, tput_v, 6},
	    {"client", "cpu.1.busy", "%", cpu_t, cli_v, 6},
	    {"server", "cpu.1.busy", "%", cpu_t, srv_v, 6},
	};
	double vals[2] = {9.1e8, 9.2e8};
	struct report_run runs[2];
	struct report_cell cell = {.label = "x=a"};
	const char *metrics[1] = {"throughput"}, *units[1] = {"bit/s"};
	static const int cell_first[2] = {0, 2}, cell_runs[2] = {0, 1};
	struct report r;
	struct chart_fig f;
	struct arena *a = arena_new();
	int i, k, outside = 0, client = 0, server = 0, swatches = 0;
	double x_end = 0;

	memset(&r, 0, sizeof r);
	memset(runs, 0, sizeof runs);
	for (i = 0; i < 2; i++) {
		runs[i].id = i + 1;
		runs[i].cell = 0;
		runs[i].rep = i + 1;
		runs[i].ok = 1;
		runs[i].status = "ok";
		runs[i].vals = &vals[i];
		runs[i].series = ser;
		runs[i].nseries = 3;
	}
	r.cells = &cell;
	r.ncells = 1;
	r.runs = runs;
	r.nruns = 2;
	r.cell_first = cell_first; /* both runs are cell 0's */
	r.cell_runs = cell_runs;
	r.met.metrics = metrics;
	r.met.metric_units = units;
	r.met.nmetrics = 1;
	r.met.display_unit = "Mbit/s";
	r.met.display_scale = 1e6;

	ok(a && chart_timeseries(&r, 0, 480, a, &f) == 0 && f.nops > 0,
	   "a time series with a CPU strip");
	for (i = 0; i < f.nops; i++) {
		const struct chart_op *o = &f.ops[i];
		if (o->kind != CHART_OP_PATH)
			continue;
		for (k = 0; k < o->n; k++) {
			outside +=
			    o->px[k] < LEFT - 1e-9 || o->px[k] > 474 + 1e-9;
			x_end = fmax(x_end, o->px[k]);
		}
	}
	is_int(outside, 0,
	       "no line point left of the y axis or past the "
	       "plot's right end");
	/* the CPU lines start on the axis, where they cross t = 0 */
	for (i = 0; i < f.nops; i++) {
		const struct chart_op *o = &f.ops[i];
		if (o->kind == CHART_OP_PATH && o->colour >= 10)
			break;
	}
	ok(i < f.nops && fabs(f.ops[i].px[0] - LEFT) < 1e-9,
	   "the CPU line begins on the y axis (x = %g)",
	   i < f.nops ? f.ops[i].px[0] : -1);
	{
		double first[2] = {NAN, NAN};
		for (k = 0; k < f.nops; k++)
			if (f.ops[k].kind == CHART_OP_PATH &&
			    f.ops[k].colour >= 10 && isnan(first[0]))
				first[0] = f.ops[k].py[0];
			else if (f.ops[k].kind == CHART_OP_PATH &&
				 f.ops[k].colour >= 10 &&
				 fabs(f.ops[k].py[0] - first[0]) > 1e-9)
				first[1] = f.ops[k].py[0];
		ok(fabs(fabs(first[1] - first[0]) - 4.2) < 1e-9,
		   "cut where it crosses t = 0: 40%% and 50%% (%g apart)",
		   fabs(first[1] - first[0]));
	}
	for (i = 0; i < f.nops; i++) {
		const struct chart_op *o = &f.ops[i];
		if (o->kind == CHART_OP_TEXT && o->text) {
			client += !strcmp(o->text, "client: cpu 1 busy %");
			server += !strcmp(o->text, "server: cpu 1 busy %");
		}
		swatches += o->kind == CHART_OP_RECT && o->fill &&
			    (o->colour == 10 || o->colour == 11);
	}
	is_int(server, 1, "a key for the server's core 1");
	is_int(client, 1, "a key for the client's core 1");
	is_int(swatches, 2, "each key with a swatch of its line's colour");
	arena_free(a);
	return tap_done();
}
