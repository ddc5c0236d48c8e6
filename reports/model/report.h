/*
 * The report model: everything a report shows, computed once from the store
 * (schema/store.sql) and the plan text it holds, then formatted by the
 * writers of reports/render (render.h). Writers only format: every
 * statistic, verdict and flag is decided in report_build().
 *
 * Values in the model are in SI base units (bit/s, s, B); the display unit
 * and its scale are chosen once (report.display_*) and applied by the
 * report_fmt_* helpers. Times are Unix epoch seconds (UTC).
 *
 * Ownership: report_build() returns a model whose every string and array
 * belongs to it; report_free() releases it all. The model is read-only for
 * writers. The JSON form is documented in schema/report.md.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_REPORT_H
#define XR_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "flags.h"
#include "i18n.h"
#include "verdict.h"
#include "xr_err.h"

struct arena;
struct plan;
struct report;
struct store;

/* Which sessions a history report reads (reports/history/history.h). */
struct history_opts {
	double since;		 /* only sessions started at or after it
				    (epoch seconds); 0: all */
	const int64_t *sessions; /* only these ([nsessions]); NULL: all */
	int nsessions;
};

struct report_opts {
	const char *lang;   /* "en" | "ja"; NULL = plan's report.lang or en */
	const char *metric; /* NULL = "throughput" */
	const char *title;  /* NULL = plan title, else plan name */
	double threshold;   /* noise threshold theta as a fraction (0.01);
			       <= 0 = plan's report.threshold or 0.01 */
	const char *unit;   /* display unit ("Gbit/s", "MB/s", ...);
			       NULL = plan's report.unit or automatic */
	const char *format; /* report_write_file: "pdf"|"md"|"csv"|"json";
			       NULL = from the output file's extension */
	int64_t session;    /* > 0: only this session; 0 = all sessions */
	const char *reference; /* a published matrix to compare with
				  (schema/reference.md); NULL = none */
	struct xr_diag *diag;  /* OUT (may be NULL): every problem of the
				  reference file, errors and warnings; the
				  first error is also in err */
	double tolerance;      /* > 0: overrides the reference file's
				  tolerance (a fraction, 0.03) */
	int runs; /* report_write_file: the runs CSV (one row per run and
		     metric) instead of the report; csv only */
	int png;  /* report_write_file, Markdown to a file: a PNG beside
		     each chart's SVG, linked instead of it (report --png;
		     reports/render/xr_png.h) */
	const char *adjust; /* multiplicity adjustment of the verdicts, a
			       name of report_adjust_name(); NULL: none */
	/* Re-cut without re-running (issue 35): the plan file given to
	 * `xrun report PLAN` (NULL: none; borrowed, alive until the report
	 * is written): its report settings replace the stored text's when
	 * they differ and it describes the same runs (else -XR_ECHANGED);
	 * plan_file its path as given. */
	const struct plan *plan;
	const char *plan_file;
	/* --compare FACTOR[=BASELINE] (repeatable): the report's
	 * comparisons instead of the plan's; --accept sequential: every
	 * comparison accepts sides that were not interleaved; cli_options
	 * both as given on the command line, printed in the report */
	const char *const *compare;
	int ncompare;
	int accept_sequential;
	const char *cli_options;
	/* --history: the sessions over time (reports/history/history.h);
	 * hist chooses them (--since, --sessions) */
	int history;
	struct history_opts hist;
};

/* The multiplicity adjustments (`xrun report --adjust`): row i is enum
 * report_adjust i; NULL past the last. schema/report.md, "Verdicts". */
enum report_adjust {
	REPORT_ADJUST_NONE = 0,
	REPORT_ADJUST_HOLM, /* Holm 1979, step-down Bonferroni */
};
const char *report_adjust_name(size_t i);

/* Statistics of one cell and metric, over its ok (non-warm-up) runs. */
struct report_stats {
	const char *metric; /* metric name */
	const char *unit;   /* base unit as stored ("bit/s", "1", ...) */
	int n;		    /* ok runs with a value */
	double median, mean, sd, cv_pct, min, max;
	double ci_low, ci_high; /* mean +- 95% t-interval; NaN when n < 2 */
	/* Interval statistics, from the per-interval series inside the runs
	 * (primary metric only): never mixed with across-run statistics. */
	int n_intervals; /* 0 = none; then the two below are NaN */
	double iv_p95, iv_peak;
	/* The estimator the comparisons use: the geometric mean with its 95%
	 * interval from the t-interval of mean(log y) (NaN when n < 2 or a
	 * value is not > 0; gm alone when n == 1). */
	double gm, gm_low, gm_high;
	/* The median's distribution-free 95% interval from order statistics
	 * (benchstat); NaN when n < 6. */
	double med_low, med_high;
};

/* The repetition sizing of a cell (repeat: { min, max, precision }), as
 * the store's `sizing` table holds it (the latest session's). */
struct report_sizing {
	int pilot_n, need, planned, max;
	int runs_done;	     /* -1 while the session has not stopped */
	double precision;    /* target relative half-width */
	double reached;	     /* relative half-width reached; NaN unknown */
	const char *stopped; /* "planned", "max", "interrupted" or NULL */
};

/* Verification of one factor in one cell's ok runs, in runs (not checks:
 * a run checked on two hosts is one run). */
struct report_cverify {
	int checked; /* ok runs in which a probe, verify command or the
			engine's observation checked it */
	int bad;     /* of them, runs in which a check failed (or the apply
			hook of a factor without verify failed) */
	const char *expected, *actual; /* of the first mismatch */
};

struct report_cell {
	int index;	   /* matrix cell index (runs.cell_index) */
	const int *lv;	   /* [nfactors] level index per factor, -1 unknown */
	const char *json;  /* the cell as stored: {"factor":"level",...} */
	const char *label; /* "cc=cubic, streams=4" */
	struct report_stats *st; /* [report.nmetrics]; st[report.primary]
				    is the report's metric */
	int n_runs;		 /* non-warm-up runs scheduled */
	int n_ok, n_failed, n_timeout, n_other; /* other: pending/skipped/.. */
	double first_start, last_end;		/* time window of its ok runs */
	const char *engine, *target, *params;	/* of its first ok run */
	struct report_flag *flags; /* cell-level flags (failed runs, drops,
				      unstable, too few, verify, ...) */
	int nflags;
	const struct report_sizing *sizing; /* NULL: a fixed repeat */
	/* [report.nmetrics][nvals]: the value of each metric in each ok run,
	 * in run order, NaN when a run has none; NULL in a model built by
	 * hand. What a published number is judged against. */
	const double *const *vals;
	int nvals;
	/* [report.nfactors] verification of each factor in its ok runs;
	 * NULL in a model built by hand (report_cell_unverified reads it) */
	const struct report_cverify *ver;
};

struct report_factor {
	const char *name;
	const char **levels;
	int nlevels;
	int manual; /* level changes need a person (runs not interleaved) */
	int verify; /* the plan declares a verification for it */
	/* An apply hook or a manual step changes the system for it: only
	 * such a setting can silently not take effect (a factor that is
	 * only an engine parameter cannot). */
	int setting;
};

/* A matrix table: rows = levels of one factor, columns = combinations of
 * the levels of the column factors. */
struct report_table {
	const char *metric;	/* metric shown */
	int metric_index;	/* into report.metrics */
	int row_factor;		/* factor index, -1 = one row ("all") */
	const int *col_factors; /* [ncol_factors] factor indices */
	int ncol_factors;
	int nrows, ncols;
	const char **row_label;	  /* [nrows] level names */
	const char **col_label;	  /* [ncols] "windows11 / pcie4x1" */
	const int *const *col_lv; /* [ncols][ncol_factors] level indices */
	/* [nrows * ncols] index into report.cells, -1 = no such cell;
	 * several matching cells (factors not shown) -> the first, and
	 * .ambiguous is set. */
	const int *cell;
	int ambiguous;
};

struct report_fact {
	int64_t session;
	const char *host, *key, *value;
};

/* A fact set (schema/store.md "fact_sets"): every fact of one host as
 * read at one time, why (cause: open, apply, manual, verify, migrated)
 * and, but for open and migrated, the factor and level that made the
 * read; its values by key. */
struct report_fkv {
	const char *key, *value;
};
struct report_fset {
	int64_t id, session;
	const char *host, *cause, *factor, *level; /* factor, level: NULL */
	const struct report_fkv *kv;		   /* [nkv], by key */
	int nkv;
};

/*
 * A condition the runs really ran under (conditions.c), with or without a
 * reference: what the engine observed (congestion control, its version,
 * protocol, direction, duration, streams, MSS), the engine, the MTU the
 * nic.mtu probe read, and the controller's load average. Each value with
 * how many ok runs had it; varies: the cells in which it took more than
 * one value.
 */
struct report_cond_value {
	const char *value;
	int runs;
};
struct report_condition {
	const char *key;  /* "congestion", "mtu@client", "controller_load" */
	const char *name; /* in the report's language */
	struct report_cond_value *values;
	int nvalues;
	const char **varies; /* cell labels */
	int nvaries;
	/* controller_load only: the 1-minute load average at the end of the
	 * runs, the CPU count and how many ended above it */
	int is_load;
	double load_min, load_max;
	int cpus, over, nruns;
};

/* A reported session: its plan hash, start and the hosts it ran on
 * ("client: box-a, server: box-b", from the hostname facts). */
struct report_session {
	int64_t id;
	const char *plan_hash;
	double started_at;
	const char *hosts;
	const char *testbed; /* a shard's (`run --shard`), else NULL */
};

/* Verification results grouped by factor, host, method, expected, actual. */
struct report_verif {
	const char *factor, *host, *method, *expected, *actual;
	int ok;	   /* the group's ok value */
	int count; /* runs */
};

/* What the engine observed in a cell's runs (the congestion control really
 * used, protocol, version, streams): one entry per distinct cell, key and
 * value, with how many runs reported it. */
struct report_observed {
	int cell;
	const char *key, *value;
	int count;
};
struct report_ref;     /* reference.h (reports/reference) */
struct report_history; /* history.h (reports/history) */

/* A time series inside one run (runner/base/series.h names it): points
 * (t seconds from the engine's start, value in unit), in time order.
 * Today from the stored intervals (engine.throughput, host ""); the
 * store's series (schema/store.md) feed the same list. */
struct report_series {
	const char *host, *name, *unit;
	const double *t, *v; /* [n] */
	int n;
};

/* One non-warm-up run of the reported sessions, in execution order. */
struct report_run {
	int64_t id, session;
	int cell;	    /* index into report.cells */
	int rep;	    /* 1-based repetition (runs.rep) */
	int ok;		    /* status is ok */
	const char *status; /* as stored: ok, failed, timeout, ... */
	const char *reason; /* why it failed, timed out or was skipped, as
			       stored (runs.reason); NULL when none */
	double started_at, ended_at;	    /* NaN when not recorded */
	const double *vals;		    /* [report.nmetrics], NaN: none */
	const struct report_series *series; /* [nseries] */
	int nseries;
	/* The fact set it held under on each host of its cell; none for a
	 * run stored before schema version 12 (report_run_fact). */
	const struct report_fset *const *fsets; /* [nfsets] */
	int nfsets;
};

/* What a report is about: the plan, the store, its language. */
struct report_about {
	enum report_lang lang;
	const char *db_path;
	const char *plan_name, *title, *plan_hash;
	const char *description; /* the plan's description:, NULL when none */
	double generated_at;
	/* Re-cut (issue 35): the plan file whose report settings were used,
	 * changed since the runs (NULL: the stored text's); the options
	 * --compare / --accept as given (NULL: none); the sentence that says
	 * both, in the report's language (NULL: neither). */
	const char *settings_from, *recut_options, *recut;
};

/* The reported sessions, when their runs happened and on which hosts. */
struct report_span {
	int nsessions;
	const int64_t *sessions;
	const struct report_session *session_info; /* [nsessions] */
	double first_run, last_run;		   /* NaN when no run started */
	const char **hosts; /* hosts the runs touched (facts, counters) */
	int nhosts;
};

/* How the non-warm-up runs scheduled ended. */
struct report_counts {
	int total; /* non-warm-up runs scheduled */
	int ok, failed, timeout, other;
	int warmup;
};

/* The metrics present, the reported one and how it is shown. */
struct report_metric_set {
	double threshold; /* theta, fraction */
	enum report_adjust adjust;
	const char *metric;   /* the report's metric */
	int primary;	      /* its index in metrics[] */
	const char **metrics; /* every metric name present */
	const char **metric_units;
	int nmetrics;
	const char *display_unit; /* "Gbit/s" */
	double display_scale;	  /* base value / scale = display value */
	double engine_duration;	  /* the stored plan's engine.duration (s),
				     0 when unknown */
	int higher_is_better;	  /* the metric's direction (the plan's
				     better:, else report_higher_is_better) */
};

/* Where a trial's datagrams were dropped, from its counters (the qdisc's
 * drops, the UDP socket's RcvbufErrors or SndbufErrors, the NIC's drop
 * and miss counters). */
enum report_drop {
	REPORT_DROP_QDISC,
	REPORT_DROP_SOCKBUF,
	REPORT_DROP_NIC,
	REPORT_DROP_N
};

/* A rate search's trial (schema/store.md, "trials"), as a report reads
 * it: every trial of the cell's searches, in the order they ran. */
struct report_search_trial {
	int64_t run_id;
	int search; /* 0-based: the cell's searches in run order */
	int seq;    /* 1-based within its search */
	int goal;   /* index into report_search.goals */
	double load, loss, duration;
	double pps; /* datagrams (packets) a second offered; NaN unknown */
	int ok;	    /* ended ok with a loss ratio */
	double packets, lost;	    /* its packets and lost_packets; NaN none */
	double drop[REPORT_DROP_N]; /* counted drops by place */
	const char *drop_host[REPORT_DROP_N]; /* where most of them were */
	const char *drop_name[REPORT_DROP_N]; /* the counter's name */
};

/* What one goal found in a cell (RFC 9971 "Goal Result"): over its
 * searches, the median of their relevant lower bounds (one search: its
 * own) and the same of the others. */
struct report_search_goal {
	const char *name;
	double loss, trial, sum, exceed; /* the goal as planned */
	int has_load, has_upper;
	double load;	     /* Relevant Lower Bound (NDR, PDR ...) */
	double upper;	     /* Relevant Upper Bound */
	double throughput;   /* conditional throughput at load */
	double pps;	     /* at load: datagrams a second, NaN unknown */
	int regular;	     /* every search's result is regular */
	const char *why;     /* the first irregular search's reason, or "" */
	int trials;	     /* trials run for this goal, all searches */
	const double *loads; /* [nsearches] each search's lower, NaN none */
};

/* The rate search of one cell (model_search.c). */
struct report_search {
	int cell; /* index into report.cells */
	const char *param, *unit;
	double min, max, width;
	int nsearches;
	struct report_search_goal *goals;
	int ngoals;
	struct report_search_trial *trials;
	int ntrials;
};

/* Whether the reported sessions are finished (model_progress.c): a
 * report of a session still running, or stopped before its end, says so
 * at its top. Runs here count warm-ups too, as `xrun status` does. */
enum report_state {
	REPORT_STATE_DONE = 0,	  /* every scheduled run is done */
	REPORT_STATE_RUNNING,	  /* an xrun holds the store's lock now */
	REPORT_STATE_INTERRUPTED, /* stopped (Ctrl-C, killed) before its end */
	REPORT_STATE_INCOMPLETE,  /* ended with runs left (not interrupted) */
};
struct report_progress {
	enum report_state state;
	int64_t done, all; /* runs done (ok, failed, timeout, skipped) and
			      scheduled, over the reported sessions */
	long pid;	   /* RUNNING: the pid in the lock file, 0 unknown */
};

/*
 * A declared metric (the plan's engine.metrics) that no ok run of the
 * sessions holds a value of, and why (model_gaps.c; schema/report.md,
 * "Declared metrics without values"). The codes are JSON's.
 */
#define REPORT_GAP_MAP(X)                                                      \
	X(NO_OK_RUN, "no_ok_run")	  /* no run ended ok */                \
	X(EXTRACT, "extract_failed")	  /* runs failed extracting it */      \
	X(SERIES_ABSENT, "series_absent") /* not sampled on its host */        \
	X(SERIES_ANY, "series_absent")	  /* not sampled on any host */        \
	X(SERIES_ELSEWHERE, "series_elsewhere") /* on another host */          \
	X(SERIES_EMPTY, "series_empty") /* no point in the engine's run */     \
	X(NOT_STORED, "not_stored")	/* ok runs, no value stored */

enum report_gap_why {
#define REPORT_GAP_ENUM(id, name) REPORT_GAP_##id,
	REPORT_GAP_MAP(REPORT_GAP_ENUM)
#undef REPORT_GAP_ENUM
};

#define REPORT_GAP_NEAREST 3 /* nearest names listed */

struct report_gap {
	const char *metric;
	enum report_gap_why why;
	int line, col;		   /* the metric's, in the plan */
	const char *series, *host; /* a series metric's; host NULL: any */
	/* NO_OK_RUN, EXTRACT: the first such run's stored reason (EXTRACT:
	 * after "metric 'NAME': "); SERIES_ELSEWHERE: the host it was on */
	const char *detail;
	int64_t nfailed; /* NO_OK_RUN: failed or timed-out runs; EXTRACT:
			    those that failed on this metric */
	const char *nearest[REPORT_GAP_NEAREST]; /* names with values */
	int nnearest;
	const char *text; /* in the report: the why in its language */
};

/* The declared metrics of p without values in sessions[n], into *out
 * (arena a; *n 0 when none, or when no run of them ended yet). */
int report_metric_gaps(struct store *st, const struct plan *p,
		       const int64_t *sessions, size_t n, struct arena *a,
		       struct report_gap **out, int *nout, struct xr_err *err);
/* The why and the nearest names: "the series 'x' was not sampled on host
 * pc; nearest names: a, b" (arena a; NULL out of memory). */
char *report_gap_why(enum report_lang lang, const struct report_gap *g,
		     struct arena *a);
/* "metric 'pause' (plan 9:5): declared, no values (WHY)": the end of
 * `xrun run` and `report --metric pause` say this. */
char *report_gap_line(enum report_lang lang, const struct report_gap *g,
		      struct arena *a);
/* JSON's code of why ("series_absent" ...). */
const char *report_gap_code(enum report_gap_why why);

/*
 * Why a report has no comparison (nocmp.c; schema/report.md,
 * "Comparisons"), with the JSON code.
 */
#define REPORT_NOCMP_MAP(X)                                                    \
	X(NONE, "none")	      /* there are comparisons */                      \
	X(UNKNOWN, "unknown") /* a model built without a reason */             \
	X(NO_RUNS, "no_runs") /* no stored run */                              \
	X(NO_FACTORS, "no_factors")                                            \
	X(NO_TWO_LEVELS, "no_two_levels") /* none declared, none with 2 */     \
	X(ONE_LEVEL, "one_level") /* a factor with runs at one level */        \
	X(NO_BASELINE, "no_baseline")                                          \
	X(NESTED, "nested")	/* no two cells differ in the factor only */   \
	X(DECLARED, "declared") /* every declared one yields none */

enum report_nocmp {
#define REPORT_NOCMP_ENUM(id, name) REPORT_NOCMP_##id,
	REPORT_NOCMP_MAP(REPORT_NOCMP_ENUM)
#undef REPORT_NOCMP_ENUM
};
struct report_nocmp_why {
	enum report_nocmp code; /* NONE when there are comparisons */
	const char *text;	/* "No comparisons: ..." in the report's
				   language; NULL: T(NO_COMPARISONS) */
};
/* The sentence a report without comparisons says. */
const char *report_nocmp_text(const struct report *r);
/* JSON's code. */
const char *report_nocmp_code(enum report_nocmp c);

/* The report model: built once by report_build (reports/model), read by
 * reference, explain and render; the small structs above group its
 * scalars, the arrays below are its tables. */
struct report {
	struct arena *arena; /* owns everything below */
	struct report_about about;
	struct report_span span;
	struct report_counts counts;
	struct report_progress prog;
	struct report_metric_set met;

	struct report_factor *factors;
	int nfactors;
	struct report_cell *cells;
	int ncells;
	struct report_table *tables;
	int ntables;
	struct report_cmp *cmps;
	int ncmps;
	/* A sentence, in the report's language, for every declared
	 * comparison (report.compare, or --compare) that yields none over
	 * the stored cells: a pair {a, b} by the rule `xrun validate` warns
	 * with, a factor with runs at one level or nested in another
	 * (pair_note.c). */
	const char *const *pair_notes;
	int npair_notes;
	/* Why there is no comparison (ncmps 0). */
	struct report_nocmp_why nocmp;
	/* Declared metrics without values (model_gaps.c). */
	const struct report_gap *gaps;
	int ngaps;
	/* Flag codes that appear anywhere, in note order; note k (1-based)
	 * explains notes[k-1]; report_flag_mark() gives k. */
	const enum report_flag_code *notes;
	int nnotes;
	struct report_fact *facts;
	int nfacts;
	struct report_fset *fsets; /* by id; the runs point into it */
	int nfsets;
	struct report_verif *verifs;
	int nverifs;
	const struct report_ref *ref; /* NULL without --reference */
	/* report --history: the sessions over time (reports/history/
	 * history.h); NULL without it */
	const struct report_history *history;
	struct report_observed *observed; /* by cell, key */
	int nobserved;
	struct report_condition *conds; /* the conditions table */
	int nconds;
	struct report_run *runs; /* every non-warm-up run, in run order */
	int nruns;
	/* The rate searches (plan search:), one per cell that ran one; NULL
	 * and 0 without (model_search.c). */
	struct report_search *searches;
	int nsearches;
	/* The runs of each cell: cell_runs[cell_first[c] .. cell_first[c +
	 * 1]) index runs, in run order (report_cell_runs), so that a writer
	 * going cell by cell reads each run once (issue 40: a scan of every
	 * run per cell made the report quadratic in cells). */
	const int *cell_first, *cell_runs;
};

/*
 * Build the model from the store at db_path. Returns 0, or -XR_EIO /
 * -XR_ESTORE when the file is missing or not an xrun store, -XR_EREPORT
 * when it holds no finished run ("no runs to report"), -XR_EUSAGE for an
 * unknown o->metric, o->lang or o->unit. The metric defaults to
 * throughput, else the plan's first declared metric.
 * OUT: *out, caller frees with report_free().
 */
int report_build(const char *db_path, const struct report_opts *o,
		 struct report **out, struct xr_err *err);
void report_free(struct report *r);

/* Index of a metric in r->metrics / a factor in r->factors by name; -1
 * when absent or name is NULL (these and report_cell_unverified,
 * report_text, report_flag_mark: report_lookup.c). */
int report_metric_index(const struct report *r, const char *name);
int report_factor_index(const struct report *r, const char *name);

/*
 * No verdict on what did not run (schema/report.md, "Verification"): the
 * ok runs of cell ci in which factor f, a setting, was applied but never
 * verified (no verify declared, or none ran): its ok runs minus those
 * checked; 0 for a factor that is no setting or a cell without tallies.
 * report_cell_verify_text: "queue: 3 of 3 runs, expected '200ms', got
 * '100ms'" for the runs whose check of f failed (bad), or "queue: 3 of 3
 * runs (no verify declared)" for those not verified, into out (the
 * report's language).
 */
int report_cell_unverified(const struct report *r, int ci, int f);
char *report_cell_verify_text(const struct report *r, int ci, int f, int bad,
			      char *out, size_t n);

/* The series name of run u on host (NULL: any host), or NULL. */
/* The runs of cell ci, indices into r->runs in run order: *n of them. */
const int *report_cell_runs(const struct report *r, int ci, int *n);
/* The k-th of them, or -1 past the last:
 *   for (k = 0; (i = report_cell_run(r, ci, k)) >= 0; k++) */
int report_cell_run(const struct report *r, int ci, int k);

const struct report_series *report_run_series(const struct report_run *u,
					      const char *host,
					      const char *name);

/* The value of fact key on host that run u held under (its fact set on
 * host). *known is 0 when the run names no set for host (a run stored
 * before schema version 12, a host outside its cell): the session's host
 * facts (report.facts) then speak for it; 1 with NULL: the run's set has
 * no such fact (none was read: no qdisc, no policer). */
const char *report_run_fact(const struct report_run *u, const char *host,
			    const char *key, int *known);

/* Heading/label in the report's language; never NULL. */
const char *report_text(const struct report *r, enum report_text_id id);
/* 1-based note number of a flag in r->notes, 0 when absent. */
int report_flag_mark(const struct report *r, enum report_flag_code c);

#endif
