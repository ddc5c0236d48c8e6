/*
 * Internals of the report model builder: the build's state (struct
 * model_build: the report being filled, the runs and their values) and
 * the steps that work on the report once it is loaded (tables, the
 * comparisons with their re-cut, multiplicity and pair notes), each under
 * the name of the file that defines it. The loader's own state and steps
 * are in model_loader.h, a flag on a list in model_flag.h. Not for
 * writers: they read struct report only.
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

/* The most factors and metrics a report holds. */
#define MAX_FACTORS 64
#define MAX_METRICS 64

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

#endif
