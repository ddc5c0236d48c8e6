/*
 * Internals of the report model builder shared by model.c (loading from
 * the store, per-cell statistics and flags) and compare.c (comparisons,
 * tables). Not for writers: they read struct report only.
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

/* Append a flag to a list of capacity REPORT_FLAG_COUNT; a code already
 * present gets the detail appended ("; ..."). */
void mb_flag(struct mb *m, struct report_flag *list, int *n,
	     enum report_flag_code code, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* compare.c: fill r->tables and r->cmps. 0 or -XR_ENOMEM. */
int mb_tables(struct mb *m, struct xr_err *err);
int mb_compare(struct mb *m, struct xr_err *err);

#endif
