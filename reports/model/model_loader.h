/*
 * The loader of the report model: its state while the store is read
 * (struct loader: the build, the factors and cells found, the runs by id,
 * the series and counter sums) and its steps, each under the name of the
 * file that defines it. model.c drives them in order; model_cells.c holds
 * the lookups they all use and calls none of them. Private to
 * reports/model.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_MODEL_LOADER_H
#define XR_MODEL_LOADER_H

#include <stddef.h>
#include <stdint.h>

#include "model_int.h"

struct series_set;
struct store;

#define MAX_VERIFS 500

/* Growable factor while cells are discovered. */
struct mfactor {
	const char *name;
	const char **levels;
	int n, cap;
	int *lh; /* [2 * cap] hash of the levels: an index, or -1 */
};

struct loader {
	struct model_build m;
	struct store *st;   /* open read-only */
	struct xr_err *err; /* report_build's, for the store's callbacks */
	struct mfactor f[MAX_FACTORS];
	int nf;
	/* cells by JSON text: open addressing over cell indices */
	int *hash;
	size_t hcap;
	int cap_cells;
	int cap_runs;			      /* of m.runs */
	int cap_verifs, cap_facts, cap_hosts; /* of r->verifs, facts, hosts */
	/* runs by id for joins: indices sorted by id; where the last
	 * lookup found its run */
	int *byid;
	int byid_hint;
	/* per cell interval values */
	double **iv;
	int *niv, *capiv;
	/* per run (m.runs order) time series, for report.runs: the stored
	 * intervals as engine.throughput (in the arena), the rest */
	struct ivpts {
		double *t, *v;
		int n;
	} * ivp;
	struct series_set *ser;
	/* per cell counter sums */
	struct csum {
		int cell, code;
		const char *host, *name;
		double sum;
	} * cs;
	int ncs, capcs;
	/* the fact sets each run held under (model_facts.c): run ri's are
	 * r->fsets[rf_set[rf_first[ri]] .. rf_set[rf_first[ri + 1] - 1]] */
	int *rf_first, *rf_set;
	/* loader_intern's recent strings */
	const char *interned[8];
	int ninterned;
};

/* model_runs.c: a point of run_id's series (host, name) for report.runs
 * (what the store's intervals and series feed); 0 or -XR_ENOMEM. */
int loader_series_point(struct loader *l, int64_t run_id, const char *host,
			const char *name, const char *unit, double t, double v);
/* model_runs.c: n intervals of run ri (m.runs index) as points (t, v) of
 * its engine.throughput series (what is not finite left out); 0 or
 * -XR_ENOMEM. */
int loader_interval_points(struct loader *l, int ri, const double *t,
			   const double *v, size_t n);
/* The stored series of the runs (none until the store has them; the
 * intervals come through loader_intervals). 0 or a negative -XR_E* code. */
int loader_series(struct loader *l, struct xr_err *err);
/* r->runs from m.runs, m.vals and the series; frees l->ser. 0 or
 * -XR_ENOMEM. */
int loader_run_list(struct loader *l, struct xr_err *err);
void loader_series_release(struct loader *l);

/* model_search.c: r->searches from the stored trials, each goal's
 * result computed again from them (runner/search). 0 or -XR_E*. */
int loader_search(struct loader *l, struct xr_err *err);

/* model_sizing.c: each cell's repetition sizing, and the
 * precision_not_reached flag. */
int loader_sizing(struct loader *l, struct xr_err *err);

/* model_cells.c: factors, cells and runs, and the lookups every loader
 * step uses (a leaf: it calls no other step). */
/* Out of memory into l->err, for the store's row callbacks; returns
 * -XR_ENOMEM. */
int loader_oom(struct loader *l);
/* s in the arena, the same copy as the last few times it was asked for
 * (a status or an engine name a run: 100,000 copies of "ok" before);
 * NULL for NULL and when out of memory. */
const char *loader_intern(struct loader *l, const char *s);
int loader_cell_find(struct loader *l, const char *json); /* -1 if none */
int loader_run_by_id(struct loader *l, int64_t id);	  /* -1 if none */
int loader_factor_find(struct loader *l, const char *name);
/* Factors and levels of the stored plan, in plan order (none without). */
void loader_factors_from_plan(struct loader *l);
/* The runs of the reported sessions into m.runs, their cells created on
 * first sight; warm-up runs only counted. 0 or a negative -XR_E* code. */
int loader_runs(struct loader *l, struct xr_err *err);
/* Order cells by their levels (plan order) and renumber the runs.
 * 0, or -XR_ENOMEM. */
int loader_sort_cells(struct loader *l);
/* byid, and each cell's ok runs in m.mc. 0, or -XR_ENOMEM. */
int loader_index_runs(struct loader *l);
/* r->factors and each cell's label. 0 or -XR_ENOMEM. */
int loader_fill_factors(struct loader *l, struct xr_err *err);
/* What the engine observed per run, as r->observed (by cell and key).
 * 0 or a negative -XR_E* code. */
int loader_observed(struct loader *l, struct xr_err *err);

/* model_stats.c: each 0 or a negative -XR_E* code. */
int loader_intervals(struct loader *l, struct xr_err *err);
int loader_stats(struct loader *l, struct xr_err *err);
int loader_counters(struct loader *l, struct xr_err *err);
int loader_verifications(struct loader *l, struct xr_err *err);
int loader_facts(struct loader *l, struct xr_err *err);
/* model_facts.c: the fact sets of the sessions and the sets each run
 * held (before loader_run_list, which hands them to report.runs); and
 * run ri's, into u. */
int loader_fact_sets(struct loader *l, struct xr_err *err);
int loader_run_fsets(struct loader *l, int ri, struct report_run *u);
int loader_display_unit(struct loader *l, struct xr_err *err);

/* conditions.c: r->conds (and the controller_loaded cell flags), and
 * r->session_info (after loader_facts). 0 or a negative -XR_E* code. */
int loader_conditions(struct loader *l, struct xr_err *err);
int loader_session_info(struct loader *l, struct xr_err *err);

/* model_progress.c: r->prog, whether the reported sessions are finished
 * and whether an xrun runs one now. 0 or a negative -XR_E* code. */
int loader_progress(struct loader *l, struct xr_err *err);

#endif
