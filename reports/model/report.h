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
 */
#ifndef XR_REPORT_H
#define XR_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "err.h"

enum report_lang { REPORT_LANG_EN = 0, REPORT_LANG_JA, REPORT_LANG_COUNT };

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
};

/*
 * Comparability flags, in note order. Every attribute of a flag (its JSON
 * code, where it is raised, whether it refuses, its sentences and short
 * forms in every language) is one row of the table in flags.c; read them
 * with the report_flag_* functions below.
 */
#define REPORT_FLAG_MAP(X)                                                     \
	X(FACTORS_DIFFER)                                                      \
	X(ENGINE_DIFFERS)                                                      \
	X(UNIT_DIFFERS)                                                        \
	X(TOO_FEW_RUNS)                                                        \
	X(VERIFY_FAILED)                                                       \
	X(NOT_VERIFIED)                                                        \
	X(NOT_INTERLEAVED)                                                     \
	X(FAILED_RUNS)                                                         \
	X(RX_DROPS)                                                            \
	X(NIC_ERRORS)                                                          \
	X(PAUSE_FRAMES)                                                        \
	X(RETRANSMITS)                                                         \
	X(CAPTURE)                                                             \
	X(CONTROLLER_LOADED)                                                   \
	X(FACTS_CHANGED)                                                       \
	X(UNSTABLE)                                                            \
	X(PRECISION_NOT_REACHED)                                               \
	X(DRIFT)                                                               \
	X(OUTLIER)                                                             \
	X(ZERO_VARIANCE)                                                       \
	X(NONPOSITIVE)                                                         \
	X(ACCEPTED_SEQUENTIAL)                                                 \
	X(CONFIGURATION)                                                       \
	X(MULTIPLICITY)

enum report_flag_code {
#define REPORT_FLAG_ENUM(c) REPORT_FLAG_##c,
	REPORT_FLAG_MAP(REPORT_FLAG_ENUM)
#undef REPORT_FLAG_ENUM
	    REPORT_FLAG_COUNT
};

struct report_flag {
	enum report_flag_code code;
	/* Detail with the numbers and names involved, its fixed words in
	 * the report's language ("rx_dropped=12 on server", "nic, slot";
	 * counter, factor and level names as they are); "" when none. */
	const char *detail;
};

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
};

struct report_factor {
	const char *name;
	const char **levels;
	int nlevels;
	int manual; /* level changes need a person (runs not interleaved) */
	int verify; /* the plan declares a verification for it */
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

/* The rule table is schema/report.md's "Verdicts". */
enum report_verdict {
	REPORT_BETTER = 0,	/* 95% CI wholly beyond +theta (direction) */
	REPORT_WORSE,		/* ... wholly beyond -theta */
	REPORT_EQUIVALENT,	/* 90% CI (TOST) wholly inside +-theta */
	REPORT_NOT_SIGNIFICANT, /* 95% CI contains 0 */
	REPORT_DIFFERENT,	/* 95% CI excludes 0 but crosses +-theta: a
				   real difference of uncertain size */
	REPORT_NOT_COMPARABLE,	/* refused: reasons say why */
};

enum report_method {
	REPORT_METHOD_NONE = 0, /* refused */
	REPORT_METHOD_POSITION, /* OLS log(y) ~ group + position */
	REPORT_METHOD_WELCH,	/* Welch's t on log(y) */
};

struct report_cmp {
	int factor;   /* factor index; -1 for an explicit pair */
	int a, b;     /* cell indices; a is the baseline, delta = b vs a */
	int n_a, n_b; /* ok runs per side */
	const char *metric;
	double delta_pct; /* 100*(exp(effect)-1); NaN if refused */
	double ci_low_pct, ci_high_pct; /* 95% CI, same transform */
	double p;			/* two-sided; NaN if refused */
	double df;
	enum report_method method;
	enum report_verdict verdict;
	int higher_is_better;	     /* metric direction used for the verdict */
	struct report_flag *reasons; /* why refused (verdict not_comparable) */
	int nreasons;
	struct report_flag *warnings; /* footnotes that did not refuse */
	int nwarnings;
	/* Below: zero in tables built field by field (tests). */
	double eq_low_pct, eq_high_pct; /* the 90% interval of TOST */
	/* Every factor whose level differs ("nic, slot"); a configuration
	 * comparison (an explicit pair differing in several declared
	 * factors) has configuration set: its effect belongs to the
	 * combination. */
	const char *factors;
	int configuration;
	/* Sensitivity: the position model's estimate when the verdict's
	 * method is Welch (sides not interleaved) and it can be fitted;
	 * NaN otherwise. */
	double sens_pct, sens_low_pct, sens_high_pct;
	/* Robust estimate on log(y): Hodges-Lehmann shift with its 95%
	 * interval (NaN when no interval reaches 95%) and Mann-Whitney's
	 * two-sided p; robust_shown when it disagrees with the parametric
	 * estimate in sign (beyond theta) or in what its verdict claims
	 * (up, down, none); writers then show it beside it. */
	double hl_pct, hl_low_pct, hl_high_pct, mw_p;
	enum report_verdict robust_verdict;
	int robust_shown;
};

struct report_fact {
	int64_t session;
	const char *host, *key, *value;
};

/*
 * A condition the runs really ran under (conditions.c), with or without a
 * reference: what the engine observed (congestion control, iperf3 version,
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
};

/* Verification results grouped by factor, host, method, expected, actual. */
struct report_verif {
	const char *factor, *host, *method, *expected, *actual;
	int ok;	   /* the group's ok value */
	int count; /* runs */
};

/* --- reference comparison (reference.c, schema/reference.md) ---------- */

struct report;

enum report_ref_status {
	REPORT_REF_MATCHED = 0,
	REPORT_REF_NOT_MEASURED, /* no cell has these levels, or no ok run */
	REPORT_REF_AMBIGUOUS,	 /* several cells match */
};

/* The verdict on one published cell (schema/reference.md, "Verdicts"):
 * code, JSON name. */
#define REPORT_REF_VERDICT_MAP(X)                                              \
	X(REPRODUCED, "reproduced")                                            \
	X(DIFFERS, "differs")                                                  \
	X(INCONCLUSIVE, "inconclusive")                                        \
	X(NOT_COMPARABLE, "not_comparable")                                    \
	X(NOT_MEASURED, "not_measured")                                        \
	X(AMBIGUOUS, "ambiguous")

enum report_ref_verdict {
#define REPORT_REF_VERDICT_ENUM(c, n) REPORT_REFV_##c,
	REPORT_REF_VERDICT_MAP(REPORT_REF_VERDICT_ENUM)
#undef REPORT_REF_VERDICT_ENUM
	    REPORT_REFV_COUNT
};

/* What one published value summarises (the `statistic` setting). */
#define REPORT_REF_STAT_MAP(X)                                                 \
	X(MEAN, "mean")                                                        \
	X(MEDIAN, "median")                                                    \
	X(MAX, "max")                                                          \
	X(MIN, "min")                                                          \
	X(SINGLE, "single")                                                    \
	X(UNKNOWN, "unknown")

enum report_ref_stat {
#define REPORT_REF_STAT_ENUM(c, n) REPORT_REF_STAT_##c,
	REPORT_REF_STAT_MAP(REPORT_REF_STAT_ENUM)
#undef REPORT_REF_STAT_ENUM
	    REPORT_REF_STAT_COUNT
};

/* The tolerance when the file states none (schema/reference.md). */
#define REPORT_REF_DEFAULT_TOLERANCE 0.05

/* A published condition: `condition,KEY,VALUE` (or a v2 setting such as
 * `congestion,cubic`). */
struct report_ref_cond {
	const char *key, *value;
	int line, col;
};

/* One published number of a row and what was measured for it. */
struct report_ref_value {
	double published; /* base units; NaN = not published (empty); the
			     mean of the published runs of the cell */
	double ratio;	  /* measured median / published; NaN unknown */
	int in_range;	  /* published within measured [min, max]: 1 / 0;
			     -1 unknown */
};

/* One published cell: the rows of the file with the same levels (each row
 * one published run of the cell). */
struct report_ref_row {
	int line;	     /* line of its first row in the reference file */
	const char **levels; /* [ref->nfactors] levels as published */
	int *level_col;	     /* [ref->nfactors] their columns (first row) */
	const char *label;   /* "os=windows11, streams=1" */
	enum report_ref_status status;
	int cell;	    /* index into report.cells; -1 when not matched */
	const char *detail; /* why not measured / ambiguous; "" when none */
	struct report_ref_value *v; /* [ref->nvalues] */
	/* The published runs of `value`: base units and as written. */
	int npub;
	double *pub;	       /* [npub] */
	const char **pub_text; /* [npub] "955.37" */
	int *pub_line;	       /* [npub] */
	/* The verdict (reference.c). */
	enum report_ref_verdict verdict;
	const char *reasons; /* "published congestion cubic, measured bbr";
				"measured 6.2% below"; "" none */
	const char *method;  /* "interval" | "tost" | "" */
	double est;	     /* the measured statistic compared; NaN */
	double lo, hi;	     /* its interval (base units; for tost the
				90% interval of the ratio); NaN */
	double diff_pct;     /* 100 (est / published - 1); NaN */
	double p;	     /* TOST p value; NaN */
};

struct report_ref {
	const char *path;
	const char *unit; /* the unit the file's values are written in */
	int version;	  /* 1, or 2 when the file says `format,2` or
			     uses a v2 setting */
	const char *title, *url, *author, *date; /* NULL when not given */
	enum report_ref_stat statistic;
	int runs;	      /* runs one published value summarises; 0 */
	double tolerance;     /* fraction used (file, option or default) */
	int tolerance_source; /* 0 default, 1 file, 2 --tolerance */
	struct report_ref_cond *conds;
	int nconds;
	const char **factors;	 /* [nfactors] factor columns */
	const int *factor_index; /* [nfactors] into report.factors */
	int nfactors;
	/* Compared value columns: [0] is `value` (the reference metric),
	 * then extra metrics the store also holds. */
	const char **values;	 /* [nvalues] metric names */
	const int *value_metric; /* [nvalues] index into report.metrics */
	int nvalues;
	struct report_ref_row *rows; /* one per published cell */
	int nrows;
	int nmatched, nnot_measured, nambiguous;
	int nverdict[REPORT_REFV_COUNT];
	const char *summary; /* the page-one line, report's language */
};

const char *report_ref_verdict_name(enum report_ref_verdict v);
const char *report_ref_stat_name(enum report_ref_stat s);
/* "mean" ... -> enum; -1 when unknown. */
int report_ref_stat_parse(const char *s);

/* What the engine observed in a cell's runs (the congestion control really
 * used, protocol, version, streams): one entry per distinct cell, key and
 * value, with how many runs reported it. */
struct report_observed {
	int cell;
	const char *key, *value;
	int count;
};

/*
 * Read the reference file at path and match its rows to r's cells; sets
 * r->ref. Every problem goes to d (errors and warnings, with the file's
 * line and column); returns 0, or -XR_EUSAGE with the first error in err
 * (-XR_EIO when the file cannot be read).
 */
int report_reference_attach(struct report *r, const char *path,
			    struct xr_diag *d, struct xr_err *err);

/* The display texts of value j of a reference row, for the writers. */
enum {
	REPORT_REF_COL_METRIC = 0, /* "throughput (Gbit/s)" */
	REPORT_REF_COL_PUBLISHED,
	REPORT_REF_COL_MEDIAN,	 /* or "not measured" / "ambiguous: ..." */
	REPORT_REF_COL_CI,	 /* "9.38 – 9.44" */
	REPORT_REF_COL_RANGE,	 /* "9.37 – 9.45" */
	REPORT_REF_COL_RATIO,	 /* "0.998" */
	REPORT_REF_COL_IN_RANGE, /* yes / no / – */
	REPORT_REF_NCOLS
};
void report_ref_fmt(const struct report *r, const struct report_ref_row *w,
		    int j, char out[REPORT_REF_NCOLS][192]);
/* A published value of metric index mi (base units) as written: at least
 * the report's 3 significant digits, more when the file gave more
 * ("955.37" stays 955.37). text is the field as written, or NULL. */
char *report_ref_fmt_published(const struct report *r, int mi, double v,
			       const char *text, char *out, size_t n);
/* The verdict cell of a row: "reproduced", "differs: 6.2% below", ...,
 * in the report's language. */
char *report_ref_fmt_verdict(const struct report *r,
			     const struct report_ref_row *w, char *out,
			     size_t n);

struct plan;
struct arena;
/*
 * Check a reference file against a plan before any run (`xrun validate
 * PLAN --reference FILE`): every factor column is a factor of the plan,
 * every level one of its levels as the plan spells it (did-you-mean),
 * every published row matches a cell the plan runs, and no published
 * condition is contradicted by the plan's engine or parameters. Every
 * problem goes to d with the reference file's line and column. Returns
 * the number of errors, or -XR_EIO when the file cannot be read.
 */
int report_reference_check_plan(const struct plan *p, const char *path,
				struct xr_diag *d);

/* A reference read without a plan or store (`xrun plan --from-reference`):
 * every column other than `value` and the names in metrics (NULL
 * terminated) is a factor; its levels in order of first appearance. */
struct report_ref_doc {
	const struct report_ref *ref;
	const char **factors; /* [nfactors] */
	const char ***levels; /* [nfactors][nlevels[f]] */
	int *nlevels;
	int nfactors;
	int ncells; /* distinct published cells */
};
/* OUT: *doc from arena a. 0, or -XR_EUSAGE (problems in d) / -XR_EIO. */
int report_reference_read(const char *path, const char *const *metrics,
			  struct arena *a, struct report_ref_doc *doc,
			  struct xr_diag *d);

struct report {
	struct arena *arena; /* owns everything below */
	enum report_lang lang;
	const char *db_path;
	const char *plan_name, *title, *plan_hash;
	const char *description; /* the plan's description:, NULL when none */
	int nsessions;
	const int64_t *sessions;
	const struct report_session *session_info; /* [nsessions] */
	double first_run, last_run;		   /* NaN when no run started */
	double generated_at;
	const char **hosts; /* hosts the runs touched (facts, counters) */
	int nhosts;
	int runs_total; /* non-warm-up runs scheduled */
	int runs_ok, runs_failed, runs_timeout, runs_other;
	int runs_warmup;
	double threshold;     /* theta, fraction */
	const char *metric;   /* the report's metric */
	int primary;	      /* its index in metrics[] */
	const char **metrics; /* every metric name present */
	const char **metric_units;
	int nmetrics;
	const char *display_unit; /* "Gbit/s" */
	double display_scale;	  /* base value / scale = display value */

	struct report_factor *factors;
	int nfactors;
	struct report_cell *cells;
	int ncells;
	struct report_table *tables;
	int ntables;
	struct report_cmp *cmps;
	int ncmps;
	/* Flag codes that appear anywhere, in note order; note k (1-based)
	 * explains notes[k-1]; report_flag_mark() gives k. */
	const enum report_flag_code *notes;
	int nnotes;
	struct report_fact *facts;
	int nfacts;
	struct report_verif *verifs;
	int nverifs;
	const struct report_ref *ref;	  /* NULL without --reference */
	struct report_observed *observed; /* by cell, key */
	int nobserved;
	struct report_condition *conds; /* the conditions table */
	int nconds;
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
 * when absent or name is NULL. */
int report_metric_index(const struct report *r, const char *name);
int report_factor_index(const struct report *r, const char *name);

/* --- i18n (i18n.c) ------------------------------------------------------ */

#define REPORT_TEXT_MAP(X)                                                     \
	X(SUMMARY)                                                             \
	X(PLAN)                                                                \
	X(SESSIONS)                                                            \
	X(FIRST_RUN)                                                           \
	X(LAST_RUN)                                                            \
	X(HOSTS)                                                               \
	X(RUNS)                                                                \
	X(RUNS_OK)                                                             \
	X(RUNS_FAILED)                                                         \
	X(RUNS_TIMEOUT)                                                        \
	X(RUNS_OTHER)                                                          \
	X(RUNS_WARMUP)                                                         \
	X(METRIC)                                                              \
	X(THRESHOLD)                                                           \
	X(TABLES)                                                              \
	X(TABLE_CAPTION) /* "%s by %s" (metric, factors) */                    \
	X(CELLS)                                                               \
	X(CELL)                                                                \
	X(COMPARISONS)                                                         \
	X(FACTOR)                                                              \
	X(EXPLICIT_PAIR)                                                       \
	X(BASELINE)                                                            \
	X(A)                                                                   \
	X(B)                                                                   \
	X(DELTA)                                                               \
	X(CI95)                                                                \
	X(MEAN_CI) /* the cells table's t-interval of the mean */              \
	X(P)                                                                   \
	X(N)                                                                   \
	X(VERDICT)                                                             \
	X(MEDIAN)                                                              \
	X(MEAN)                                                                \
	X(STDEV)                                                               \
	X(CV)                                                                  \
	X(MIN)                                                                 \
	X(MAX)                                                                 \
	X(SPREAD_NOTE) /* how to read "9.41 ×/÷1.005" */                     \
	X(INTERVAL_P95)                                                        \
	X(INTERVAL_PEAK)                                                       \
	X(INTERVAL_NOTE) /* interval statistics are per-interval, not runs */  \
	X(NOTES)                                                               \
	X(METHOD_NOTE) /* how verdicts are reached, with %g threshold */       \
	X(BETTER)                                                              \
	X(WORSE)                                                               \
	X(EQUIVALENT)                                                          \
	X(NOT_SIGNIFICANT)                                                     \
	X(NOT_COMPARABLE)                                                      \
	X(DIFFERENT)                                                           \
	X(CONFIG_PAIR) /* "configuration" (comparison table, factor col) */    \
	X(ROBUST)      /* "robust: HL %s, Mann-Whitney p=%s" */                \
	X(SENSITIVITY) /* "position model" */                                  \
	X(GEOMEAN)     /* "geometric mean" */                                  \
	X(HOST_FACTS)                                                          \
	X(HOST)                                                                \
	X(KEY)                                                                 \
	X(VALUE)                                                               \
	X(SESSION)                                                             \
	X(VERIFICATION)                                                        \
	X(EXPECTED)                                                            \
	X(ACTUAL)                                                              \
	X(OK)                                                                  \
	X(MISMATCH)                                                            \
	X(VERIFY_RESULT) /* the ok/mismatch column of the verification */      \
	X(RUN_COUNT)                                                           \
	X(SIZING) /* the table of sized repetitions */                         \
	X(SZ_PILOT)                                                            \
	X(SZ_NEED)                                                             \
	X(SZ_PLANNED)                                                          \
	X(SZ_DONE)                                                             \
	X(SZ_REACHED)                                                          \
	X(SZ_STOPPED)                                                          \
	X(NONE)                                                                \
	X(NO_COMPARISONS)                                                      \
	X(GENERATED)                                                           \
	X(CONDITIONS)                                                          \
	X(CONDITION)                                                           \
	X(COND_VALUES) /* "Values (runs)" */                                   \
	X(COND_NOTE)                                                           \
	X(COND_VARIES)	  /* "varies within a cell: %s" */                     \
	X(COND_LOAD)	  /* "%s – %s on %d CPUs" */                         \
	X(COND_LOAD_OVER) /* "above the CPU count after %d of %d runs" */      \
	X(PLAN_HASH)                                                           \
	X(STARTED)                                                             \
	X(METHOD)                                                              \
	X(REFERENCE)                                                           \
	X(REF_PUBLISHED)                                                       \
	X(REF_MEASURED)                                                        \
	X(REF_RANGE)                                                           \
	X(REF_RATIO)                                                           \
	X(REF_IN_RANGE)                                                        \
	X(REF_NOT_MEASURED)                                                    \
	X(REF_AMBIGUOUS)                                                       \
	X(REF_NOTE) /* "%s" = reference file; how to read the table */         \
	X(REF_VERDICT)                                                         \
	X(REF_REPRODUCED)                                                      \
	X(REF_DIFFERS)                                                         \
	X(REF_INCONCLUSIVE)                                                    \
	X(REF_NOT_COMPARABLE)                                                  \
	X(REF_BELOW)   /* "%.1f%% below" */                                    \
	X(REF_ABOVE)   /* "%.1f%% above" */                                    \
	X(REF_SUMMARY) /* "%d of %d published cells reproduced within ±%g%%"  \
			*/                                                     \
	X(REF_PUBLISHED_RUNS)                                                  \
	X(REF_STATISTIC)                                                       \
	X(REF_TOLERANCE)                                                       \
	X(REF_SOURCE)                                                          \
	X(REF_CONDITIONS)                                                      \
	X(YES)                                                                 \
	X(NO)

enum report_text_id {
#define REPORT_TEXT_ENUM(n) REPORT_T_##n,
	REPORT_TEXT_MAP(REPORT_TEXT_ENUM)
#undef REPORT_TEXT_ENUM
	    REPORT_T_COUNT
};

/* Heading/label in the report's language; never NULL. */
const char *report_text(const struct report *r, enum report_text_id id);
const char *report_text_lang(enum report_lang lang, enum report_text_id id);
/* "en"/"ja" -> enum; -1 when unknown. */
int report_lang_parse(const char *s);

/* --- flags (flags.c) ---------------------------------------------------- */

/* Where a flag is raised: on a cell (from its runs), on a comparison (from
 * the two cells together), or both. A cell flag is repeated on the
 * comparisons of its cell as an "A:"/"B:" warning; the notes list a flag's
 * details from where it is raised. */
enum report_flag_scope {
	REPORT_SCOPE_CELL = 1,
	REPORT_SCOPE_CMP = 2,
	REPORT_SCOPE_BOTH = 3,
};

const char *report_flag_code_name(enum report_flag_code c); /* "rx_drops" */
/* The code for a name ("rx_drops"); -1 when unknown. */
int report_flag_by_name(const char *name);
enum report_flag_scope report_flag_scope(enum report_flag_code c);
/* 1: the flag refuses a comparison (verdict not_comparable); 0: it warns
 * (a footnote; the verdict stands). */
int report_flag_refuses(enum report_flag_code c);
/* The sentence explaining the flag, in lang; never NULL. */
const char *report_flag_text(enum report_flag_code c, enum report_lang lang);
/* A short form for verdict cells, to be followed by the flag's detail
 * ("cells differ in" + " nic, slot"); never NULL. */
const char *report_flag_short(enum report_flag_code c, enum report_lang lang);
/* 1: a warning written in the verdict cell itself (outlier, accepted
 * sequential design, configuration comparison). */
int report_flag_in_cell(enum report_flag_code c);
/* 1-based note number of a flag in r->notes, 0 when absent. */
int report_flag_mark(const struct report *r, enum report_flag_code c);
/* Verdict names for JSON ("better", ..., "not_comparable"). */
const char *report_verdict_name(enum report_verdict v);
const char *report_method_name(enum report_method m); /* "position-ols" */
/* Reference row status for CSV/JSON ("matched", "not_measured", ...). */
const char *report_ref_status_name(enum report_ref_status s);

/* --- formatting (format.c) ---------------------------------------------- */

/* A base-unit value in the report's display unit, 3 significant digits
 * ("9.41"); "–" for NaN. Returns out. */
char *report_fmt_value(const struct report *r, double v, char *out, size_t n);
/* The same followed by the unit ("9.41 Gbit/s"). */
char *report_fmt_value_unit(const struct report *r, double v, char *out,
			    size_t n);
/* A value of metric index mi: display unit for the primary metric, else the
 * stored base unit with an SI prefix ("1.2k", "35 %"). */
char *report_fmt_metric(const struct report *r, int mi, double v, char *out,
			size_t n);
/* A cell for tables: the geometric mean with its 95% interval as a
 * factor, "9.41 ×/÷1.005" ([9.41/1.005, 9.41×1.005]); "9.41" when n == 1;
 * without a geometric mean (a value <= 0) "median 9.41 [9.38, 9.44]"
 * (order-statistic interval) or "median 9.41"; "–" when no data. */
char *report_fmt_cell(const struct report *r, const struct report_cell *c,
		      char *out, size_t n);
/* The value comparisons are computed on (geometric mean) of a cell, for
 * the A and B columns; "–" when none. */
char *report_fmt_estimate(const struct report *r, const struct report_cell *c,
			  char *out, size_t n);
/* Footnote marks of a cell's flags: "[1,3]"; "" when none. */
char *report_fmt_marks(const struct report *r, const struct report_cell *c,
		       char *out, size_t n);
/* The same for a comparison's warnings, and its reasons too when
 * with_reasons. */
char *report_fmt_cmp_marks(const struct report *r, const struct report_cmp *c,
			   int with_reasons, char *out, size_t n);
/* A comparison's verdict string: "▲ +9.3% [+6.1, +12.5] better",
 * "▼ -9.3% [...] worse", "≈ equivalent (-0.2%, 90% [-0.6, +0.3])",
 * "~ not significant (p=0.41, n=3+3)", "≠ +2.1% [+0.4, +3.9] different,
 * size uncertain", "— not comparable: <reasons>" (short reasons with
 * their details, in the report's language); then the warnings that
 * qualify it (configuration, accepted sequential design, outlier), the
 * robust estimate when it disagrees and the position model's sensitivity
 * line when there is one. */
char *report_fmt_verdict(const struct report *r, const struct report_cmp *c,
			 char *out, size_t n);
/* The levels of side c that differ from other ("nic=b, slot=x1"; c's
 * label when none differ) and the levels both share ("os=w11, streams=1";
 * "–" when none): how comparison tables name their two cells. */
char *report_fmt_side(const struct report *r, const struct report_cell *c,
		      const struct report_cell *other, char *out, size_t n);
char *report_fmt_common(const struct report *r, const struct report_cell *a,
			const struct report_cell *b, char *out, size_t n);
/* The header's runs line, the same in every format: "21: 20 ok, 1 failed
 * (1 timeout), 2 other; +1 warm-up" (scheduled non-warm-up runs first;
 * the parts after "failed" only when not zero). */
char *report_fmt_runs(const struct report *r, char *out, size_t n);
/* A comparison's effect "+9.3% [+6.1, +12.5]" and p value "0.041"
 * ("4.0e-04" below 0.001); "–" when refused or unknown. */
char *report_fmt_delta(const struct report_cmp *c, char *out, size_t n);
char *report_fmt_p(const struct report_cmp *c, char *out, size_t n);
/* A unit for captions: "" for a dimensionless metric ("1") and NULL. */
const char *report_unit_label(const char *unit);
/* Epoch seconds as "2026-11-30 00:07 UTC"; "–" for NaN. */
char *report_fmt_time(double t, char *out, size_t n);

/* --- verdicts (verdict.c) --------------------------------------------- */

/* Does a higher value of this metric mean better? declared: the plan's
 * `better:` (1 higher, -1 lower, 0 unset); unset, a small table by name
 * (latency, loss, retransmits, times: lower). Never from the unit. */
int report_higher_is_better(const char *metric, int declared);

/* One side of a comparison: values (base units) and run positions. */
struct report_sample {
	const double *y;
	const double *pos; /* global run order; may be NULL if !interleaved */
	size_t n;
	const int *session; /* session of each value (a term each in the
			       position model); NULL = one session */
};

/*
 * The interval of a comparison from two samples alone (for sizing
 * repetitions): Welch's t on log(y), as percent of a. 0, or -1 when a
 * side has fewer than 2 values or a value is not > 0.
 */
int report_delta_interval(const double *a, size_t na, const double *b,
			  size_t nb, double conf, double *delta_pct,
			  double *low_pct, double *high_pct);

/*
 * The statistical core of a comparison (schema/report.md, "Method"): on
 * log(y), the coefficient of the group indicator in log y ~ group +
 * position when interleaved, else Welch's t; delta% = 100(exp(b)-1).
 * The position model has one intercept per session and HC3 standard
 * errors with Bell-McCaffrey-type df (bench/RESULTS.md); when it cannot
 * be fitted (a run with leverage 1) Welch's t stands in.
 * Fills out's n_a, n_b, delta_pct, ci_*_pct, eq_*_pct, p, df, method,
 * verdict (schema/report.md's rule table; direction from
 * higher_is_better, threshold theta as a fraction), the sensitivity and
 * the robust estimate. Returns 0, or 1 when the comparison must be
 * refused: verdict not_comparable, *why set (too_few_runs: fewer than 3
 * per side; nonpositive: log impossible; zero_variance: a zero-width
 * interval, whose estimate is kept in delta_pct).
 */
int report_decide(const struct report_sample *a, const struct report_sample *b,
		  int interleaved, double threshold, int higher_is_better,
		  struct report_cmp *out, enum report_flag_code *why);

#endif
