/*
 * The history of a plan's sessions (`xrun report --history`;
 * schema/report.md, "History"): per cell and testbed, the sessions in
 * time order with each one's estimate and interval, the changes between
 * them found by the rule of reports/stats/changept.h with the family's
 * false alarms held to 5% over every cell and every possible change
 * point, each change with the host facts that changed at it, and the
 * answer for the latest session against the segment before it: changed,
 * the same within the plan's threshold, or not known (with the runs that
 * would settle it), Pinpoint's three answers.
 *
 * Built from a report model over every session (report_build with
 * session 0); allocates from the report's arena.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_HISTORY_H
#define XR_HISTORY_H

#include <stdint.h>

#include "report.h" /* struct history_opts */
#include "xr_err.h"

struct report;

/* The family's false-alarm level over the whole history. */
#define HISTORY_ALPHA 0.05

struct history_session {
	int64_t session;
	double started_at;
	double value, lo, hi; /* geometric mean and its 95% interval, in the
				 metric's base unit; lo/hi NaN when n < 2 */
	int n;		      /* runs with a value */
	const char *changed;  /* the facts that differ from the session
				 before ("kernel on client: 6.1 -> 6.6"),
				 "" when none or the first session */
};

struct history_cause {
	const char *host, *key, *before, *after;
};

enum history_dir { HISTORY_BETTER = 0, HISTORY_WORSE };

struct history_change {
	int at;		 /* index into sessions of the first session
			    after the change */
	int64_t session; /* that session's id */
	enum history_dir dir;
	double effect_pct;     /* after / before - 1, in % */
	double lo_pct, hi_pct; /* its interval at the test's level */
	double p;	       /* permutation p of the split */
	struct history_cause *causes;
	int ncauses;
	/* no fact changed: "no recorded fact changed" with the controller's
	 * load and the time of day when they differ; else NULL */
	const char *no_cause;
};

enum history_answer {
	HISTORY_CHANGED = 0, /* the latest session is a change */
	HISTORY_SAME,	     /* within the threshold of the segment before */
	HISTORY_UNKNOWN,     /* neither: more runs needed */
	HISTORY_ONE,	     /* one session: nothing to compare */
};

struct history_cell {
	int cell;	     /* index into report.cells */
	const char *label;   /* the cell's levels */
	const char *testbed; /* the machines (sessions' hosts or shard) */
	struct history_session *s;
	int ns;
	struct history_change *ch;
	int nch;
	const int *deviant; /* lone sessions between opposite changes */
	int ndeviant;
	enum history_answer answer;
	/* latest session against the segment before: change in % with its
	 * 90% interval (the TOST interval); NaN with HISTORY_ONE */
	double answer_pct, answer_lo, answer_hi;
	int runs_needed; /* HISTORY_UNKNOWN: runs in the next session that
			    would settle it; -1 when no number would */
};

struct report_history {
	struct history_cell *cells;
	int ncells;
	int ntests;   /* cells with two sessions or more */
	double alpha; /* each cell's test level: HISTORY_ALPHA/ntests */
	double theta; /* the magnitude floor (the threshold) */
	int higher_is_better;
	int regressions; /* cells whose latest session is a worse change */
};

/*
 * The history of r (a model of every session of the plan), attached as
 * r->history. 0, -XR_ENOMEM, or -XR_EUSAGE when the options leave no
 * session.
 */
int history_build(struct report *r, const struct history_opts *o,
		  struct xr_err *err);

#endif
