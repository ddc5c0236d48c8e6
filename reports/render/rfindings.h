/*
 * The findings at the top of every report (rfindings.c): the answer
 * first. One line per comparison (verdict, effect with its interval, both
 * sides' values), the limits one line per group of cells bound by the
 * same thing, the comparisons refused and why, the declared metrics
 * without values and why, the failed runs grouped by
 * their stored reason; before them, when the sessions are not finished,
 * how far they got. Built once from the model and reports/explain, so
 * that the Markdown, HTML, PDF, JSON and CSV writers say the same lines.
 *
 * Ownership: every string and array belongs to the arena passed to
 * rt_findings(); free it with arena_free().
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_RFINDINGS_H
#define XR_RFINDINGS_H

#include "format.h"

struct arena;

/* X(id, name in the JSON "kind") in the order the block lists them. */
#define RF_KIND_MAP(X)                                                         \
	X(STATE, "session")	  /* the sessions are not finished */          \
	X(VERDICT, "verdict")	  /* a comparison and its verdict */           \
	X(LIMIT, "limit")	  /* cells with one limit */                   \
	X(REFUSED, "refused")	  /* a comparison refused, with why */         \
	X(DECLARED, "declared")	  /* a declared pair that yields none */       \
	X(NONE, "no_comparisons") /* no comparison at all, and why */          \
	X(NO_VALUES, "no_values") /* a declared metric without values */       \
	X(FAILED, "failed")	  /* runs that failed for one reason */

enum rf_kind {
#define RF_ENUM(id, name) RF_##id,
	RF_KIND_MAP(RF_ENUM)
#undef RF_ENUM
	    RF_COUNT
};

struct rf_line {
	enum rf_kind kind;
	const char *text;   /* the whole line, in the report's language */
	int cmp;	    /* VERDICT, REFUSED: index into r->cmps; else -1 */
	int count, of;	    /* LIMIT: cells of all cells; FAILED: runs of
			       all runs; STATE: done of all; else 0 */
	const char *status; /* FAILED: the runs' status (failed, timeout) */
	const char *reason; /* FAILED: the stored reason, NULL when none */
	const char *limit;  /* LIMIT: the kind's name (explain.h) */
	const char *code;   /* NONE: why (report_nocmp_code); NO_VALUES:
			       why (report_gap_code) */
	const char *metric; /* NO_VALUES: the declared metric */
};

/* "verdict", "limit", ... (the JSON's "kind"). */
const char *rf_kind_name(enum rf_kind k);

/* The findings of r. OUT: *out [*n] from a; 0 or -XR_ENOMEM. */
int rt_findings(const struct report *r, struct arena *a, struct rf_line **out,
		int *n);

#endif
