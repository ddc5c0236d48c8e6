/*
 * The notes under a report's tables: one per flag that appears, with
 * where it applies, built from the model (report.h) once so that every
 * writer lists the same places.
 *
 * Ownership: every string and array belongs to the arena passed to
 * rt_notes(); free it with arena_free().
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_RNOTE_H
#define XR_RNOTE_H

#include "format.h"

struct arena;

/* Where a note applies: a cell ("os=w11, streams=1") or a comparison
 * ("os=w11: nic=a vs nic=b"), and the flag's detail there ("" none). */
struct rt_note_item {
	const char *where, *detail;
};

#define RT_NOTE_MAX_ITEMS 12

/* Note k (1-based) explains r->notes[k-1]. */
struct rt_note {
	enum report_flag_code code;
	const char *name; /* "rx_drops" */
	const char *text; /* the sentence, in the report's language */
	struct rt_note_item *item;
	int nitems;
	int more; /* places not listed past RT_NOTE_MAX_ITEMS */
};

/* One note per r->notes entry. The places come from where the flag is
 * raised (report_flag_scope): cells for a cell flag, comparisons for a
 * comparison flag (not the A:/B: copies of cell flags on comparisons).
 * OUT: *out [*n]; 0 or -XR_ENOMEM. */
int rt_notes(const struct report *r, struct arena *a, struct rt_note **out,
	     int *n);

#endif
