/*
 * The rate search (RFC 9971, MLRsearch): which offered loads to try and
 * what they show. A pure module (no I/O, no clock): the caller asks for the
 * next trial (search_next), runs it, and hands its result back
 * (search_add). Every trial counts for every goal (trial re-use), so a
 * resumed session replays its stored trials into a new search in their
 * order and is asked for exactly the trial it would have run next.
 *
 * Loads are in the unit the caller chooses (bit/s for iperf3's bitrate);
 * ratios are fractions (0.005 = 0.5%); durations in seconds.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_SEARCH_H
#define XR_SEARCH_H

#include <stddef.h>

/* RFC 9971 "Search Goal": the name is the report's (ndr, pdr). */
struct search_goal {
	char name[32];
	double loss;   /* Goal Loss Ratio, [0, 1) */
	double trial;  /* Goal Final Trial Duration, s, > 0 */
	double sum;    /* Goal Duration Sum, s, > 0 */
	double exceed; /* Goal Exceed Ratio, [0, 1) */
};

struct search_cfg {
	double min, max; /* Min Load, Max Load; 0 < min < max */
	double width;	 /* Goal Width, relative: (upper - lower) / upper */
	double step;	 /* loads are whole multiples of step (1 bit/s) */
	int max_trials;	 /* stop (irregular) after this many trials */
	int ngoals;
	const struct search_goal *goals; /* borrowed, [ngoals] */
};

/* One trial's result as the search reads it. */
struct search_trial {
	double load;	 /* Trial Load (what was asked) */
	double duration; /* Trial Duration (intended; also the effective
			    duration: RFC 9971 "Trial Effective Duration") */
	double loss;	 /* Trial Loss Ratio, [0, 1] */
	int goal;	 /* the goal it was run for (the record's) */
};

enum search_class { SEARCH_UNDECIDED, SEARCH_LOWER, SEARCH_UPPER };

/* The four duration sums of the trials at one load for one goal (RFC 9971
 * "Load Classification Code" names them). */
struct search_sums {
	double full_low, full_high, short_low, short_high;
};

/* RFC 9971 Appendix A: lower bound, upper bound or undecided. */
enum search_class search_classify(const struct search_goal *g,
				  const struct search_sums *s);
/* The sums of trials t[0..n) at load for goal g. */
void search_sums_at(const struct search_goal *g, const struct search_trial *t,
		    size_t n, double load, struct search_sums *out);
/* RFC 9971 Appendix B: the loss ratio whose forwarding rate is the
 * conditional throughput at load (load * (1 - it)); 1 when no trial there
 * is full-length. */
double search_quantile_loss(const struct search_goal *g,
			    const struct search_trial *t, size_t n,
			    double load);

/* The loss ratio of a UDP trial (schema/plan.md, "The loss ratio of a
 * trial"): datagrams lost of those sent, and the part of the load the
 * sender did not send beyond `unsent` seconds of it or one datagram,
 * whichever is more: 1 - min(1, (sent + tolerance) / (load x duration)) x
 * (1 - lost / packets), sent = bytes / (packets - lost) x packets x 8
 * (bytes: the receiver's, of whole datagrams). 1 when nothing arrived. */
double search_udp_loss(double load, double duration, double unsent,
		       double packets, double lost, double bytes);

/* What a goal found (RFC 9971 "Goal Result"). */
struct search_result {
	int has_lower, has_upper;
	double lower, upper; /* Relevant Lower / Upper Bound */
	double throughput;   /* conditional throughput at lower */
	int regular;	     /* both bounds, upper - lower <= width * upper */
	int trials;	     /* trials run for this goal */
	/* why it is irregular: "max load is a lower bound", "min load is an
	 * upper bound", "the trial cap was reached", "" when regular */
	const char *why;
};

/* The goal results of trials t[0..n) under cfg (any set of trials: the
 * report reads them back from the store). */
void search_result_of(const struct search_cfg *cfg, int goal,
		      const struct search_trial *t, size_t n,
		      struct search_result *out);

struct search;

/* NULL when out of memory. cfg and its goals must outlive the search. */
struct search *search_new(const struct search_cfg *cfg);
void search_free(struct search *s);
/* Add one trial result. 0 or -XR_ENOMEM. */
int search_add(struct search *s, const struct search_trial *t);

struct search_next {
	double load, duration;
	int goal;
};
/* 1 with the next trial in out; 0 when every goal is done. */
int search_next(const struct search *s, struct search_next *out);
size_t search_ntrials(const struct search *s);
const struct search_trial *search_trials(const struct search *s);

#endif
