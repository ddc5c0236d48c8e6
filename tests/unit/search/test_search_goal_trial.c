/*
 * Each goal's trials last that goal's final trial duration (schema/
 * plan.md, "Rate search": "every trial the goal asks for lasts this
 * long"): a search with a 1 s goal first and a 60 s one (RFC 2544's) after
 * it runs the second goal's trial for 60 s, and that one trial decides the
 * second goal, where 1 s trials never could (RFC 9971: short trials cannot
 * make a lower bound of a goal with a zero exceed ratio).
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tap.h"
#include "xr_search.h"

/* A shaper: nothing lost up to C, the excess above it. */
#define CAP 194450000.0

static double shaper_loss(double load)
{
	return load <= CAP ? 0 : 1 - CAP / load;
}

static const struct search_goal goals[2] = {
    {"ndr", 0, 1, 1, 0},
    {"rfc2544", 0, 60, 60, 0},
};

int main(void)
{
	struct search_cfg cfg = {20e6, 1e9, 0.005, 1, 100, 2, goals};
	struct search *s = search_new(&cfg);
	struct search_next nx[16];
	struct search_result r;
	size_t n = 0;
	tap_plan(11);
	while (s && n < 16 && search_next(s, &nx[n])) {
		struct search_trial t = {nx[n].load, nx[n].duration,
					 shaper_loss(nx[n].load), nx[n].goal};
		search_add(s, &t);
		n++;
	}
	/* By hand (xr_search.c's controller, as unit/test_search's shaper):
	 * ndr's trials at max 1e9 (lossy), at its forwarding rate
	 * 194,450,000 (no loss: lower) and one width up, 194,450,000 x 1.005
	 * -> 195,422,249 (lossy: upper, 0.4975% apart: ndr done). For
	 * rfc2544 (0%, 60 s, sum 60 s, exceed 0) those 1 s trials are short:
	 * the lossy ones make upper bounds (a short high-loss second counts,
	 * the exceed ratio 0 balances none of it), the lossless one leaves
	 * 194,450,000 undecided (60 - 0 full low-loss seconds > 0): it is
	 * measured again for rfc2544, for 60 s, no loss: full low 60 s, a
	 * lower bound, 195,422,249 - 194,450,000 = 972,249 <= 0.5% of
	 * 195,422,249 (977,111): done after 4 trials. */
	is_int((long long)n, 4, "4 trials");
	ok(n >= 3 && nx[0].duration == 1 && nx[1].duration == 1 &&
	       nx[2].duration == 1 && nx[0].goal == 0 && nx[2].goal == 0,
	   "trials 1-3 for ndr, 1 s each");
	is_int(n >= 4 ? nx[3].goal : -1, 1, "trial 4 for rfc2544");
	is_near(n >= 4 ? nx[3].duration : 0, 60, 0,
		"trial 4 lasts rfc2544's 60 s, not ndr's 1 s");
	is_near(n >= 4 ? nx[3].load : 0, 194450000, 0,
		"trial 4 at the load undecided for rfc2544: 194450000");
	search_result_of(&cfg, 1, search_trials(s), search_ntrials(s), &r);
	ok(r.regular && r.has_lower && r.has_upper,
	   "rfc2544 regular: both bounds");
	is_near(r.lower, 194450000, 0, "rfc2544 lower 194450000");
	is_near(r.upper, 195422249, 0, "rfc2544 upper 195422249");
	is_int(r.trials, 1, "rfc2544 ran 1 trial");
	is_near(r.throughput, 194450000, 0,
		"rfc2544 throughput: 194450000 x (1 - 0)");
	search_result_of(&cfg, 0, search_trials(s), search_ntrials(s), &r);
	is_int(r.trials, 3, "ndr ran 3 trials");
	search_free(s);
	return tap_done();
}
