/*
 * The rate search section of a report (reports/render/rsearch.c,
 * schema/report.md "Rate search") on a search model built by hand: the
 * table's loads in Gbit/s to 4 decimals and its Mpps, the parameters
 * sentence with its loads in the prefix that fits (1 Mbit/s, 1 Gbit/s),
 * and the chart's loss axis (0 to 4 x the largest goal loss, at least 2%)
 * with each trial's dot filled when it lies on the axis, hollow on its top
 * edge when above. Every figure worked out by hand in the comments.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "buf.h"
#include "chart.h"
#include "report.h"
#include "rsearch.h"
#include "rtable.h"
#include "tap.h"

static struct report_search_trial trial(int goal, double load, double loss)
{
	struct report_search_trial t;
	memset(&t, 0, sizeof t);
	t.goal = goal;
	t.load = load;
	t.loss = loss;
	t.duration = 1;
	t.ok = 1;
	t.packets = t.lost = t.pps = NAN;
	return t;
}

int main(void)
{
	struct report_search_goal g[2];
	struct report_search_trial t[5];
	struct report_search s = {0};
	struct report_cell cell = {0};
	struct report r = {0};
	struct arena *a = arena_new();
	struct rtable tb;
	struct buf p = BUF_INIT;
	struct chart_fig f;
	struct buf ticks = BUF_INIT;
	int k, filled = 0, hollow = 0;
	tap_plan(19);
	memset(g, 0, sizeof g);
	g[0].name = "ndr";
	g[0].loss = 0;
	g[1].name = "pdr";
	g[1].loss = 0.005;
	for (k = 0; k < 2; k++) {
		g[k].trial = 1;
		g[k].sum = 21;
		g[k].exceed = 0.5;
		g[k].has_load = g[k].has_upper = 1;
	}
	g[0].load = g[0].throughput = 194.4e6;
	g[0].upper = 195.4e6;
	g[0].pps = 16511;
	g[0].trials = 3;
	g[0].regular = 1;
	g[0].why = "";
	g[1].load = 195.4e6;
	g[1].throughput = 194.4e6;
	g[1].upper = 197.3e6;
	g[1].pps = 16596;
	g[1].trials = 2;
	g[1].regular = 0;
	g[1].why = "the trial cap was reached";
	/* loss in %: 80.56, 0, 0.51, 2.46, 1.47 */
	t[0] = trial(0, 1e9, 0.8056);
	t[1] = trial(0, 194.4e6, 0);
	t[2] = trial(0, 195.4e6, 0.0051);
	t[3] = trial(1, 199.3e6, 0.0246);
	t[4] = trial(1, 197.3e6, 0.0147);
	s.param = "bitrate";
	s.unit = "bit/s";
	s.min = 1e6;
	s.max = 1e9;
	s.width = 0.005;
	s.nsearches = 1;
	s.goals = g;
	s.ngoals = 2;
	s.trials = t;
	s.ntrials = 5;
	cell.label = "-";
	r.cells = &cell;
	r.ncells = 1;
	r.searches = &s;
	r.nsearches = 1;

	/* The table: 194,400,000 bit/s = 0.1944 Gbit/s, 195,400,000 =
	 * 0.1954, 197,300,000 = 0.1973; 16,511 datagrams a second = 0.0165
	 * Mpps (16511 / 1e6 = 0.016511). */
	is_int(rt_search(&r, a, &tb), 0, "table built");
	is_int(tb.nrows, 2, "a row a goal");
	is_str(tb.unit, "Gbit/s", "unit Gbit/s");
	is_str(tb.col[2].head, "load (Gbit/s)", "load column head");
	is_str(tb.col[3].head, "Mpps", "Mpps column head");
	is_str(rt_cell(&tb, 0, 2), "0.1944", "ndr load 0.1944 Gbit/s");
	is_str(rt_cell(&tb, 0, 3), "0.0165", "ndr 0.0165 Mpps");
	is_str(rt_cell(&tb, 0, 4), "0.1944", "ndr throughput 0.1944");
	is_str(rt_cell(&tb, 0, 5), "0.1954", "ndr upper bound 0.1954");
	is_str(rt_cell(&tb, 0, 6), "3", "ndr 3 trials");
	is_str(rt_cell(&tb, 1, 2), "0.1954", "pdr load 0.1954 Gbit/s");
	is_str(rt_cell(&tb, 1, 5), "0.1973", "pdr upper bound 0.1973");
	is_str(rt_cell(&tb, 1, 7), "irregular: the trial cap was reached",
	       "pdr irregular, said why");

	/* The parameters: 1e6 bit/s is 1 Mbit/s, 1e9 is 1 Gbit/s (a round
	 * 1000 takes the next prefix). */
	is_int(rsearch_params(&r, 0, &p), 0, "parameters written");
	is_str(p.s,
	       "Search: bitrate from 1 Mbit/s to 1 Gbit/s, width 0.5% "
	       "(relative); goals (loss, final trial, duration sum, exceed): "
	       "ndr 0%, 1 s, 21 s, 50%; pdr 0.5%, 1 s, 21 s, 50%",
	       "parameters sentence");

	/* The chart: the loss axis runs to 4 x pdr's 0.5% = 2% (the floor,
	 * 2%, too); of the trials' 80.56, 0, 0.51, 2.46 and 1.47% three lie
	 * on it (filled dots) and two above (hollow, on its top edge). */
	is_int(chart_search(&r, 0, 480, a, &f), 0, "chart built");
	for (k = 0; k < f.nops; k++) {
		const struct chart_op *o = &f.ops[k];
		if (o->kind == CHART_OP_DOT)
			*(o->fill ? &filled : &hollow) += 1;
		/* the loss axis's tick labels: anchored at their end */
		if (o->kind == CHART_OP_TEXT && o->anchor == 1 && o->text)
			buf_addf(&ticks, "%s%s", ticks.len ? " " : "", o->text);
	}
	is_int(filled, 3, "3 trials on the loss axis (0, 0.51, 1.47%)");
	is_int(hollow, 2, "2 above it (80.56, 2.46%)");
	/* 0 to 2% in steps of 0.5 (chart_nice_step), one decimal */
	is_str(ticks.s, "0.0 0.5 1.0 1.5 2.0",
	       "loss axis ticks 0.0 .. 2.0 (%)");
	buf_release(&p);
	buf_release(&ticks);
	arena_free(a);
	return tap_done();
}
