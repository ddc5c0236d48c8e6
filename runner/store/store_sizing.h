/*
 * The store's repetition sizing rows and the readers of values per cell and
 * level (store_sizing.c). Part of the store's interface: include "store.h",
 * which includes this file at its end (the header is split only to keep each
 * part short).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_STORE_SIZING_H
#define XR_STORE_SIZING_H

#include <stddef.h>
#include <stdint.h>

#include "store.h"

/* ---- repetition sizing (store_sizing.c; schema/store.md, "sizing") ---- */

/* One cell's sizing decision, and once the session stops its outcome
 * (runs_done < 0, reached NaN and stopped NULL until then). */
struct store_sizing_row {
	int64_t cell_index, block;
	const char *cell;	     /* JSON object factor -> level */
	const char *metric;	     /* the metric the precision is about */
	int pilot_n;		     /* successful pilot runs used */
	double pilot_mean, pilot_sd; /* of the log values; NaN when unknown */
	double precision;	     /* target relative half-width */
	int need;		     /* runs the precision needs */
	int planned;		     /* runs frozen for the cell */
	int max;
	double decided_at;
	int runs_done;
	double reached;
	const char *stopped; /* "planned", "max", "interrupted" or NULL */
};

int store_sizing_add(struct store *st, int64_t session_id,
		     const struct store_sizing_row *row, struct xr_err *err);
/* The outcome of one cell when the session stops. */
int store_sizing_finish(struct store *st, int64_t session_id,
			int64_t cell_index, int runs_done, double reached,
			const char *stopped, struct xr_err *err);
typedef int (*store_sizing_fn)(void *ctx, const struct store_sizing_row *r);
/* Every sizing row of a session by block and cell; none (0) in a store
 * older than version 5. */
int store_sizing_each(struct store *st, int64_t session_id, store_sizing_fn fn,
		      void *ctx, struct xr_err *err);
/* Marks a run as one a sizing decision of block `block` read. */
int store_sizing_run_add(struct store *st, int64_t run_id, int64_t block,
			 struct xr_err *err);
typedef int (*store_sizing_run_fn)(void *ctx, int64_t run_id, int64_t block);
/* The runs the session's sizing decisions read; none (0) in a store
 * older than version 8. */
int store_sizing_runs_each(struct store *st, int64_t session_id,
			   store_sizing_run_fn fn, void *ctx,
			   struct xr_err *err);
/* Moves every run of the session past position `after` by `by` places
 * (to make room for the extra passes of a sized block). */
int store_runs_shift(struct store *st, int64_t session_id, int64_t after,
		     int64_t by, struct xr_err *err);
/* One interval (or, for a run without intervals, the run alone) of the
 * successful non-warm-up runs of every session, by cell text, run and
 * interval order: the run's value of the metric and, when the run has
 * per-interval values, one of them (iv NaN otherwise) with its length. */
struct store_level_row {
	const char *cell;
	int64_t run_id;
	double run_value, iv, iv_len;
};
typedef int (*store_level_fn)(void *ctx, const struct store_level_row *r);
int store_levels_each(struct store *st, const char *metric, store_level_fn fn,
		      void *ctx, struct xr_err *err);
typedef int (*store_value_fn)(void *ctx, int64_t cell_index, int64_t run_id,
			      double value);
/* The metric's value of every successful non-warm-up run of a session's
 * block (block < 0: every block), in execution order. */
int store_cell_values_each(struct store *st, int64_t session_id, int64_t block,
			   const char *metric, store_value_fn fn, void *ctx,
			   struct xr_err *err);

#endif
