/*
 * Where a rate search's loss began (reports/explain/explain_search.c,
 * schema/report.md "Rate search"), on a search model built by hand: the
 * highest lossless load below the lowest lossy one, what that lossy trial
 * says (all of the load sent, datagrams lost, the qdisc's drops on its
 * host) and what the highest trial says (the share of the load not sent,
 * from its loss ratio against its lost datagrams). Every figure worked
 * out by hand or with python3 in the comments.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "explain.h"
#include "report.h"
#include "tap.h"

/* An ok trial; packets and lost NaN: a command engine's (none). */
static struct report_search_trial trial(double load, double loss,
					double packets, double lost)
{
	struct report_search_trial t;
	memset(&t, 0, sizeof t);
	t.load = load;
	t.loss = loss;
	t.duration = 1;
	t.ok = 1;
	t.packets = packets;
	t.lost = lost;
	t.pps = packets;
	return t;
}

int main(void)
{
	/* Trials in the order a search might run them: max load first. The
	 * loss ratios of the two trials with datagram counts are theirs:
	 * 47.5% at 300 Mbit/s with 959 of 27485 datagrams lost, 21 / 10468
	 * at 123.27 Mbit/s (all sent; the qdisc on client dropped 21). */
	struct report_search_trial t[5];
	struct report_search_goal g = {0};
	struct report_search s = {0};
	struct report_cell cell = {0};
	struct report r = {0};
	struct buf out = BUF_INIT;
	double from, to;
	tap_plan(4);
	t[0] = trial(300e6, 0.475, 27485, 959);
	t[1] = trial(20e6, 0, NAN, NAN);
	t[2] = trial(122.74e6, 0, NAN, NAN);
	t[3] = trial(123.27e6, 21.0 / 10468, 10468, 21);
	t[3].drop[REPORT_DROP_QDISC] = 21;
	t[3].drop_host[REPORT_DROP_QDISC] = "client";
	t[3].drop_name[REPORT_DROP_QDISC] = "drops";
	t[4] = trial(200e6, 0.3, NAN, NAN);
	g.name = "ndr";
	s.param = "bitrate";
	s.unit = "bit/s";
	s.min = 20e6;
	s.max = 300e6;
	s.width = 0.005;
	s.nsearches = 1;
	s.goals = &g;
	s.ngoals = 1;
	s.trials = t;
	s.ntrials = 5;
	cell.label = "-";
	r.cells = &cell;
	r.ncells = 1;
	r.searches = &s;
	r.nsearches = 1;
	is_int(explain_search(&r, 0, &out, &from, &to), 0, "explained");
	/* By hand: the lowest lossy load is 123.27 Mbit/s (not 200 or 300);
	 * the highest lossless below it 122.74 (not 20). At 123.27: loss
	 * 21 / 10468 = 0.201% (python3: '%.3g' % (21 / 10468 * 100)), the
	 * datagrams' own share, so nothing unsent. At 300 (the highest
	 * load): not sent = 1 - (1 - 0.475) / (1 - 959 / 27485) = 45.6%
	 * (python3: 0.45602), not 1 - (1 - 0.475) x (1 - 959 / 27485) =
	 * 49.3%; no counter of it counted drops. */
	is_str(out.s,
	       "Loss began between 122.74 Mbit/s (the highest trial load "
	       "without loss) and 123.27 Mbit/s: at 123.27 Mbit/s, 0.201% "
	       "lost (all of the load sent; 21 of 10468 datagrams lost): "
	       "drops at the qdisc on client (drops 21); at 300.00 Mbit/s, "
	       "47.5% lost (45.6% of the load not sent: the sender fell "
	       "behind; 959 of 27485 datagrams lost): no counter of this run "
	       "counted the drops.",
	       "where loss began, and at the highest load");
	is_near(from, 122.74e6, 0, "drops.from: 122740000");
	is_near(to, 123.27e6, 0, "drops.to: 123270000");
	buf_release(&out);
	return tap_done();
}
