/*
 * Internals of the report model builder shared by model.c (loading from
 * the store), model_cells.c (cells and runs), model_stats.c (per-cell
 * statistics and flags) and compare.c (comparisons, tables). Not for
 * writers: they read struct report only.
 */
#ifndef XR_MODEL_INT_H
#define XR_MODEL_INT_H

#include <stdint.h>

#include "report.h"

struct plan;
struct arena;

enum mrun_status { MRUN_OK = 0, MRUN_FAILED, MRUN_TIMEOUT, MRUN_OTHER };

struct mrun {
	int64_t id, session;
	double gpos;	   /* order over all sessions (session, position) */
	double start, end; /* NaN when unknown */
	int cell;	   /* index into report.cells */
	int status;	   /* enum mrun_status */
};

/* Per (cell, factor) verification tallies. */
struct mverify {
	int n, bad;
	const char *expected, *actual; /* of the first mismatch */
};

struct mcell {
	int *ok; /* indices into mb.runs of ok runs, by gpos */
	int nok, capok;
	int64_t session;   /* of its first ok run */
	const char **unit; /* [nmetrics] unit of its first value, "" none */
	int *unit_mixed;   /* [nmetrics] */
};

struct mb {
	struct report *r;
	struct arena *a;
	struct plan *plan; /* NULL when the stored plan text did not load */
	const struct report_opts *o;
	struct mrun *runs;
	int nruns;
	struct mcell *mc;    /* [r->ncells] */
	double **vals;	     /* [nmetrics][nruns], NaN when absent */
	struct mverify *ver; /* [ncells * nfactors] */
};

/* Flag details are written in the report's language (fixed words only;
 * counter, factor and level names stay as they are). */
#define MB_JA(m) ((m)->r->lang == REPORT_LANG_JA)

/* Append a flag to a list of capacity REPORT_FLAG_COUNT; a code already
 * present gets the detail appended ("; ..."). */
void mb_flag(struct mb *m, struct report_flag *list, int *n,
	     enum report_flag_code code, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* compare.c: fill r->tables and r->cmps. 0 or -XR_ENOMEM. */
int mb_tables(struct mb *m, struct xr_err *err);
int mb_compare(struct mb *m, struct xr_err *err);

/* --- the loader (model.c, model_cells.c, model_stats.c) ------------------ */

struct sqlite3;
struct sqlite3_stmt;

#define MAX_FACTORS 64
#define MAX_METRICS 64
#define MAX_VERIFS 500

/* Growable factor while cells are discovered. */
struct mfactor {
	const char *name;
	const char **levels;
	int n, cap;
};

struct loader {
	struct mb m;
	struct sqlite3 *db;
	struct buf in; /* "(1,2,3)": the sessions reported */
	struct mfactor f[MAX_FACTORS];
	int nf;
	/* cells by JSON text: open addressing over cell indices */
	int *hash;
	size_t hcap;
	int cap_cells;
	/* runs by id for joins: indices sorted by id */
	int *byid;
	/* per cell interval values */
	double **iv;
	int *niv, *capiv;
	/* per cell counter sums */
	struct csum {
		int cell, code;
		const char *host, *name;
		double sum;
	} * cs;
	int ncs, capcs;
};

/* model.c: helpers shared with model_cells.c and model_stats.c. */
int ml_sql_err(struct loader *l, struct xr_err *err, const char *what);
/* Prepare fmt with the sessions list "(1,2)" substituted for each %s. */
int ml_prep(struct loader *l, const char *fmt, struct sqlite3_stmt **st,
	    struct xr_err *err, const char *what);
const char *ml_col_text(struct loader *l, struct sqlite3_stmt *st, int i);

/* model_cells.c: factors, cells and runs. */
int ml_cell_find(struct loader *l, const char *json); /* -1 if none */
int ml_run_by_id(struct loader *l, int64_t id);	      /* -1 if none */
int ml_factor_find(struct loader *l, const char *name);
/* Factors and levels of the stored plan, in plan order (none without). */
void ml_factors_from_plan(struct loader *l);
/* The runs of the reported sessions into m.runs, their cells created on
 * first sight; warm-up runs only counted. 0 or a negative -XR_E* code. */
int ml_load_runs(struct loader *l, struct xr_err *err);
/* Order cells by their levels (plan order) and renumber the runs.
 * 0, or -1 when out of memory. */
int ml_sort_cells(struct loader *l);
/* byid, and each cell's ok runs in m.mc. 0, or -1 when out of memory. */
int ml_index_runs(struct loader *l);
/* r->factors and each cell's label. 0 or -XR_ENOMEM. */
int ml_fill_factors(struct loader *l, struct xr_err *err);

/* model_stats.c: each 0 or a negative -XR_E* code. */
int ml_intervals(struct loader *l, struct xr_err *err);
int ml_stats(struct loader *l, struct xr_err *err);
int ml_counters(struct loader *l, struct xr_err *err);
int ml_verifications(struct loader *l, struct xr_err *err);
int ml_facts(struct loader *l, struct xr_err *err);
int ml_display_unit(struct loader *l, struct xr_err *err);

#endif
