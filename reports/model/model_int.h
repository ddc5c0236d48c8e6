/*
 * Internals of the report model builder shared by model.c (loading from
 * the store), model_cells.c (cells and runs), model_stats.c (per-cell
 * statistics and flags), tables.c and compare.c (tables, comparisons).
 * Not for writers: they read struct report only. Each step's functions
 * under the name of the file that defines them; a flag on a list is in
 * model_flag.h.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_MODEL_INT_H
#define XR_MODEL_INT_H

#include <stdint.h>

#include "report.h"
#include "run_status.h"

struct plan;
struct arena;
struct series_set;

struct mrun {
	int64_t id, session;
	double gpos;	   /* order over all sessions (session, position) */
	double start, end; /* NaN when unknown */
	int cell;	   /* index into report.cells */
	int status;	   /* enum run_status, -1 when unknown */
	int rep;	   /* runs.rep */
	int decide;	   /* 1 + the block of the sizing decision that
			      read the run; 0 for the other runs */
	const char *status_name; /* as stored (arena, shared) */
	const char *engine;	 /* runs.engine (arena, shared), or NULL */
	const char *reason;	 /* runs.reason (arena, shared), or NULL */
};

struct mcell {
	int *ok; /* indices into mb.runs of ok runs, by gpos */
	int nok, capok;
	int64_t session; /* of its first ok run */
	/* [ucap] per metric: the unit of its first value (NULL none) and
	 * whether another came; grown as metrics come (issue 40: MAX_METRICS
	 * of each a cell was 768 bytes a cell, 77 MB at 10^5 cells) */
	const char **unit;
	int *unit_mixed;
	int ucap;
};

struct model_build {
	struct report *r;
	struct arena *a;
	struct plan *plan; /* NULL when the stored plan text did not load */
	const struct report_opts *o;
	struct mrun *runs;
	int nruns;
	struct mcell *mc;	    /* [r->ncells] */
	double **vals;		    /* [nmetrics][nruns], NaN when absent */
	struct report_cverify *ver; /* [ncells * nfactors], arena */
	/* the comparisons as re-cut by --compare / --accept (recut.c), or
	 * NULL: the plan's report.compare, else the default ones */
	const struct plan_compare *compare;
	int ncompare;
};

/* Flag details are written in the report's language (fixed words only;
 * counter, factor and level names stay as they are). */
#define MODEL_JA(m) ((m)->r->about.lang == REPORT_LANG_JA)

/* recut.c (issue 35): model_recut_plan, after the stored plan is loaded:
 * the report section of o->plan (the file given to `xrun report PLAN`)
 * when it differs and the runs are the same (else -XR_ECHANGED, err says
 * what changed); model_recut_compares, once the factors are known:
 * m->compare from --compare / --accept (-XR_EUSAGE for an unknown factor
 * or level); model_recut_note, once the language is known: the sentence
 * r->about.recut (0, or -1 out of memory). */
int model_recut_plan(struct model_build *m, struct xr_err *err);
int model_recut_compares(struct model_build *m, struct xr_err *err);
int model_recut_note(struct model_build *m);

/* tables.c, compare.c: fill r->tables and r->cmps. 0 or -XR_ENOMEM. */
int model_tables(struct model_build *m, struct xr_err *err);
int model_compare(struct model_build *m, struct xr_err *err);
/* multiplicity.c: the note and the --adjust adjustment over the n
 * comparisons v of the report. 0, or -1 out of memory. */
int model_multiplicity(struct model_build *m, struct report_cmp *v, int n);
/* pair_note.c: r->pair_notes, a sentence for every declared comparison
 * that yields none over the stored cells; r->nocmp, why the report has
 * no comparison (after r->ncmps is set). 0, or -1 out of memory. */
int model_pair_notes(struct model_build *m);
int model_nocmp(struct model_build *m);

/* --- the loader (model.c, model_cells.c, model_stats.c) ------------------ */

struct store;

#define MAX_FACTORS 64
#define MAX_METRICS 64
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
