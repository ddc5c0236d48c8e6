/*
 * Unit tests for runner/search: RFC 9971's load classification against
 * the RFC's own worked example (its "Load Classification Computations",
 * Points 1-6, four goals), the conditional throughput against its
 * "Conditional Throughput Computations" (Goals 2-4), and the controller
 * on model devices whose loss at each load is known, with each load the
 * search must try worked out by hand in the comments.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tap.h"
#include "xr_search.h"

/* RFC 9971 "Example Goals": RFC2544, TST009, 1s final, 20% exceed. */
static const struct search_goal rfc_goals[4] = {
    {"RFC2544", 0, 60, 60, 0},
    {"TST009", 0, 60, 120, 0.5},
    {"1s final", 0.005, 1, 120, 0.5},
    {"20% exceed", 0.005, 60, 60, 0.2},
};

static struct search_trial tr[200];
static size_t ntr;

static void add(int count, double dur, double loss)
{
	int i;
	for (i = 0; i < count; i++) {
		tr[ntr].load = 1e6;
		tr[ntr].duration = dur;
		tr[ntr].loss = loss;
		tr[ntr].goal = 0;
		ntr++;
	}
}

static const char *cls(enum search_class c)
{
	return c == SEARCH_LOWER   ? "lower"
	       : c == SEARCH_UPPER ? "upper"
				   : "undecided";
}

/* want: one letter a goal, L lower, U upper, - undecided. */
static void point(const char *name, const char *want)
{
	int g;
	for (g = 0; g < 4; g++) {
		struct search_sums s;
		enum search_class c;
		char msg[160];
		search_sums_at(&rfc_goals[g], tr, ntr, 1e6, &s);
		c = search_classify(&rfc_goals[g], &s);
		snprintf(msg, sizeof msg, "%.20s, goal %.31s: %s", name,
			 rfc_goals[g].name, cls(c));
		ok(c == (want[g] == 'L'	  ? SEARCH_LOWER
			 : want[g] == 'U' ? SEARCH_UPPER
					  : SEARCH_UNDECIDED),
		   "%s (RFC: %c)", msg, want[g]);
	}
}

static void rfc_example(void)
{
	struct search_cfg cfg = {0};
	struct search_result r;
	ntr = 0;
	/* Point 1: 59x1s0l. */
	add(59, 1, 0);
	point("point 1", "----");
	/* The sums of Point 1, "1s final": full-length low-loss 59 s. */
	{
		struct search_sums s;
		search_sums_at(&rfc_goals[2], tr, ntr, 1e6, &s);
		is_near(s.full_low, 59, 0, "point 1, 1s final: full low 59 s");
		search_sums_at(&rfc_goals[1], tr, ntr, 1e6, &s);
		is_near(s.short_low, 59, 0, "point 1, TST009: short low 59 s");
	}
	/* Point 2: +1x1s1l. */
	add(1, 1, 0.01);
	point("point 2", "U---");
	/* Point 3: 59x1s0l+60x1s1l. */
	add(59, 1, 0.01);
	point("point 3", "U--U");
	/* Point 4: 60x1s0l+60x1s1l: the last short good decides 1s final. */
	add(1, 1, 0);
	point("point 4", "U-LU");
	/* Point 5: +1x60s.1l. The RFC's table says Lower Bound for "20%
	 * exceed" here and at Point 6, but its own rows say otherwise:
	 * effective high-loss 45 s of a 105 s whole (165 s at Point 6),
	 * 42.857% (27.273%) above the goal's 20%, which its Appendix A code
	 * (and its "Load Classification Logic": "an Upper Bound if the
	 * optimistic exceed ratio is larger than the Goal Exceed Ratio")
	 * makes an upper bound. The code is followed: U. */
	add(1, 60, 0.001);
	point("point 5", "U-LU");
	/* Point 6: +1x60s0l. */
	add(1, 60, 0);
	point("point 6", "ULLU");
	/* Conditional throughput (RFC 9971, "Conditional Throughput
	 * Computations"): goals 2 and 3 read the 0% trial: 1,000,000;
	 * goal 4 the 0.1% one: 1,000,000 x 0.999 = 999,000. */
	is_near(1e6 * (1 - search_quantile_loss(&rfc_goals[1], tr, ntr, 1e6)),
		1e6, 0, "TST009 conditional throughput 1000000");
	is_near(1e6 * (1 - search_quantile_loss(&rfc_goals[2], tr, ntr, 1e6)),
		1e6, 0, "1s final conditional throughput 1000000");
	is_near(1e6 * (1 - search_quantile_loss(&rfc_goals[3], tr, ntr, 1e6)),
		999000, 1e-6, "20% exceed conditional throughput 999000");
	/* One load, a lower bound for TST009 and no upper bound: irregular,
	 * the load still reported (RFC 9971 "Irregular Goal Result"). */
	cfg.min = 1e5;
	cfg.max = 1e6;
	cfg.width = 0.005;
	cfg.ngoals = 4;
	cfg.goals = rfc_goals;
	search_result_of(&cfg, 1, tr, ntr, &r);
	ok(r.has_lower && !r.has_upper && !r.regular && r.lower == 1e6,
	   "TST009 at max load: lower 1000000, no upper, irregular");
	is_str(r.why, "max load is a lower bound", "why irregular");
}

/* ---- the controller on model devices ---------------------------------- */

/* A shaper: nothing lost up to capacity C, the excess above it. */
static double cap_c;
static double floor_loss; /* and this much of everything, at random */

static double model_loss(double load)
{
	double shaped = load <= cap_c ? 0 : 1 - cap_c / load;
	return 1 - (1 - shaped) * (1 - floor_loss);
}

static const struct search_goal ndr_pdr[2] = {
    {"ndr", 0, 1, 1, 0},
    {"pdr", 0.005, 1, 1, 0},
};

/* Runs the search to its end; the loads tried in loads[]. */
static size_t drive(const struct search_cfg *cfg, double *loads, size_t max,
		    struct search **out)
{
	struct search *s = search_new(cfg);
	struct search_next nx;
	size_t n = 0;
	while (s && n < max && search_next(s, &nx)) {
		struct search_trial t = {nx.load, nx.duration,
					 model_loss(nx.load), nx.goal};
		loads[n++] = nx.load;
		search_add(s, &t);
	}
	*out = s;
	return n;
}

static void shaper_search(void)
{
	struct search_cfg cfg = {20e6, 1e9, 0.005, 1, 100, 2, ndr_pdr};
	struct search *s, *r;
	struct search_result ndr, pdr;
	struct search_next nx;
	double loads[64];
	size_t n, k;
	int same = 1;
	cap_c = 194450000; /* 200 Mbit/s x 1472 / 1514, rounded */
	floor_loss = 0;
	n = drive(&cfg, loads, 64, &s);
	/* By hand: max (loss 1 - 0.19445); the forwarding rate there,
	 * 194,450,000, min(that, 995e6): no loss, a lower bound for both;
	 * one width up, 194,450,000 x 1.005 = 195,422,249.99 -> 195,422,249
	 * (loads go down to a whole bit/s): loss 0.4975%, upper for ndr
	 * (done: 0.4975% <= 0.5% apart), lower for pdr; pdr steps up 4
	 * widths from its second lower bound in a row, x 1.02 = 199,330,693
	 * (upper); that turned it back: the midpoint 197,376,471 (upper);
	 * a second upper bound in a row: one width down, 196,389,588, is
	 * below the midpoint 196,399,360, which is tried (upper: 0.4975%
	 * above 195,422,249, done). */
	is_int((long long)n, 6, "6 trials");
	is_near(loads[0], 1e9, 0, "trial 1 at max load");
	is_near(loads[1], 194450000, 0,
		"trial 2 at max load's forwarding rate");
	is_near(loads[2], 195422249, 0, "trial 3 one width up");
	is_near(loads[3], 199330693, 0, "trial 4 four widths up");
	is_near(loads[4], 197376471, 0, "trial 5 the midpoint");
	is_near(loads[5], 196399360, 0, "trial 6 the midpoint");
	search_result_of(&cfg, 0, search_trials(s), search_ntrials(s), &ndr);
	search_result_of(&cfg, 1, search_trials(s), search_ntrials(s), &pdr);
	ok(ndr.regular && ndr.lower == loads[1] && ndr.upper == loads[2],
	   "ndr: regular, lower %.0f upper %.0f", ndr.lower, ndr.upper);
	is_near(ndr.throughput, 194450000, 1, "ndr throughput = its load");
	ok(pdr.regular && pdr.lower == loads[2] && pdr.upper == loads[5],
	   "pdr: regular, lower %.0f upper %.0f", pdr.lower, pdr.upper);
	/* 195,422,249 x (1 - 0.4975%) = the shaper's 194,450,000. */
	is_near(pdr.throughput, 194450000, 2, "pdr throughput 194450000");
	is_int(ndr.trials, 3, "ndr ran 3 trials");
	is_int(pdr.trials, 3, "pdr ran 3 (re-using ndr's 3)");
	/* A replay asks for the same trial after each prefix. */
	for (k = 0; k < n; k++) {
		r = search_new(&cfg);
		for (size_t j = 0; j < k; j++)
			search_add(r, &search_trials(s)[j]);
		if (!search_next(r, &nx) || nx.load != loads[k])
			same = 0;
		search_free(r);
	}
	ok(same, "replaying k stored trials asks for trial k+1");
	search_free(s);
}

static void random_loss(void)
{
	/* 0.1% lost at every load: no load is a lower bound for ndr, so
	 * it steps down to min load (irregular); pdr finds the shaper. */
	struct search_cfg cfg = {20e6, 4e8, 0.005, 1, 100, 2, ndr_pdr};
	struct search *s;
	struct search_result ndr, pdr;
	double loads[64];
	size_t n;
	cap_c = 194450000;
	floor_loss = 0.001;
	n = drive(&cfg, loads, 64, &s);
	search_result_of(&cfg, 0, search_trials(s), search_ntrials(s), &ndr);
	search_result_of(&cfg, 1, search_trials(s), search_ntrials(s), &pdr);
	ok(!ndr.has_lower && ndr.has_upper && ndr.upper == 20e6,
	   "ndr: min load is the relevant upper bound (%.0f)", ndr.upper);
	is_str(ndr.why, "min load is an upper bound", "ndr irregular");
	/* pdr's lower bound: loss 1 - (1 - shaped)(0.999) <= 0.5%, i.e.
	 * load <= C x 0.999 / 0.995 = 195,231,709; within one width. */
	ok(pdr.regular && pdr.lower <= 195231709 &&
	       pdr.lower >= 195231709 * 0.995,
	   "pdr lower %.0f within 0.5%% below 195231709", pdr.lower);
	ok(n < 30, "%zu trials", n);
	search_free(s);
}

static void duration_sum(void)
{
	/* CSIT's NDR goal: 1 s trials, 21 s a load, exceed 50%: a load is
	 * a lower bound after 11 low-loss seconds (21 - 11 = 10 <= 10.5)
	 * and an upper bound after 11 high-loss ones (11 > 10.5): the
	 * first 11 trials are all at max load. */
	static const struct search_goal csit[1] = {{"ndr", 0, 1, 21, 0.5}};
	struct search_cfg cfg = {20e6, 1e9, 0.005, 1, 400, 1, csit};
	struct search *s;
	double loads[400];
	size_t n, k;
	int first = 1;
	cap_c = 194450000;
	floor_loss = 0;
	n = drive(&cfg, loads, 400, &s);
	for (k = 0; k < 11; k++)
		first &= loads[k] == 1e9;
	ok(first && loads[11] != 1e9, "11 trials at max load, then another");
	is_int((long long)n % 11, 0, "a multiple of 11 trials: 11 per load");
	search_free(s);
}

static void bounds(void)
{
	/* Everything is lost: min load is an upper bound, the search ends
	 * there; nothing is lost: max load is a lower bound. */
	struct search_cfg cfg = {20e6, 1e9, 0.005, 1, 100, 2, ndr_pdr};
	struct search *s;
	struct search_result r;
	double loads[64];
	size_t n;
	cap_c = 0;
	floor_loss = 0;
	n = drive(&cfg, loads, 64, &s);
	search_result_of(&cfg, 0, search_trials(s), search_ntrials(s), &r);
	ok(!r.has_lower && r.upper == 20e6 && loads[n - 1] == 20e6,
	   "all lost: ends at min load, an upper bound");
	search_free(s);
	cap_c = 2e9;
	n = drive(&cfg, loads, 64, &s);
	search_result_of(&cfg, 1, search_trials(s), search_ntrials(s), &r);
	is_int((long long)n, 1, "nothing lost: one trial, at max load");
	ok(r.has_lower && !r.has_upper && r.lower == 1e9 &&
	       !strcmp(r.why, "max load is a lower bound"),
	   "max load a lower bound: irregular, said so");
	search_free(s);
	/* The trial cap stops a search and is said. */
	cfg.max_trials = 2;
	cap_c = 194450000;
	n = drive(&cfg, loads, 64, &s);
	search_result_of(&cfg, 1, search_trials(s), search_ntrials(s), &r);
	ok(n == 2 && !strcmp(r.why, "the trial cap was reached"),
	   "the cap: 2 trials, '%s'", r.why);
	search_free(s);
}

static void udp_loss(void)
{
	/* A lab trial (tbf 200mbit, a loaded machine): 66,491,779 bit/s for
	 * 2 s, 11,222 datagrams sent, none lost, 16,517,312 bytes received.
	 * By hand: a datagram 16,517,312 / 11,222 = 1,471.869 B, sent
	 * 11,222 x 1,471.869 x 8 = 132,138,496 bit of 132,983,558 asked;
	 * tolerance 1 ms of the load, 66,491.8 bit (> one datagram, 11,775
	 * bit): share 0.9941454, loss 0.58546% (python3). */
	is_near(search_udp_loss(66491779, 2, 0.001, 11222, 0, 16517312),
		0.0058546, 1e-7, "sender shortfall counts: 0.58546%");
	/* 10 ms tolerated: 664,917.8 bit, share 0.9986454: 0.13546%. */
	is_near(search_udp_loss(66491779, 2, 0.01, 11222, 0, 16517312),
		0.0013546, 1e-7, "10 ms unsent tolerated: 0.13546%");
	/* Everything sent, 29 of 16,581 lost (RcvbufErrors 29 on the
	 * server): 29 / 16,581 = 0.1749%. 97,782,029 bit/s x 2 s =
	 * 195,564,058 bit; sent 16,581 x 1,472 x 8 = 195,257,856 +
	 * 97,782 (1 ms) < asked: share 0.9989350, loss 0.28129%. */
	is_near(search_udp_loss(97782029, 2, 0.001, 16581, 29,
				(16581.0 - 29) * 1472),
		1 - (195257856.0 + 97782.029) / 195564058 * (1 - 29.0 / 16581),
		1e-12, "lost datagrams and shortfall compose");
	is_near(search_udp_loss(1e8, 1, 0.001, 0, 0, 0), 1, 0,
		"nothing arrived: all lost");
}

int main(void)
{
	tap_plan(59);
	rfc_example();
	shaper_search();
	random_loss();
	duration_sum();
	bounds();
	udp_loss();
	return tap_done();
}
