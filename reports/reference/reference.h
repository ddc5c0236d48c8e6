/*
 * Comparison with a published matrix (schema/reference.md): reading a
 * reference file, matching its rows to a report's cells, the verdict per
 * published cell, checking a reference against a plan and reading one
 * without a plan. Above the model: it reads struct report and sets its
 * ref; report_load() is report_build() followed by the comparison.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_REFERENCE_H
#define XR_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#include "report.h"

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
	X(NOT_VERIFIED, "not_verified")                                        \
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
	/* `condition,KEY,VALUE,FACTOR=LEVEL`: holds for the rows whose
	 * FACTOR column is LEVEL; NULL for a file-wide condition. */
	const char *factor, *level;
	int scope_col;
};

/* One published number of a row and what was measured for it. */
struct report_ref_value {
	double published; /* base units; NaN = not published (empty); the
			     mean of the published runs of the cell */
	double ratio;	  /* measured median / published; NaN unknown */
	int in_range;	  /* published within measured [min, max]: 1 / 0;
			     -1 unknown */
	int col;	  /* column of the field in the cell's first row */
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
	struct report_ref_cond *lconds; /* per level (factor, level set) */
	int nlconds;
	const char **factors;	 /* [nfactors] factor columns */
	const int *factor_index; /* [nfactors] into report.factors */
	int nfactors;
	/* Compared value columns: [0] is `value` (the reference metric),
	 * then extra metrics the store also holds. */
	const char **values;	 /* [nvalues] metric names */
	const int *value_metric; /* [nvalues] index into report.metrics; -1
				    read without a store */
	const double *scale;	 /* [nvalues] as written * scale = base
				    units (the column's unit) */
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
 * condition is contradicted by the plan's engine or parameters; a row
 * several of the plan's cells match (cells: ncells rows of a level index
 * per plan factor, the matrix after exclusions) is a warning, by the
 * report's matching rule. Every
 * problem goes to d with the reference file's line and column. Returns
 * the number of errors, or -XR_EIO when the file cannot be read.
 */
int report_reference_check_plan(const struct plan *p, const char *path,
				const uint32_t *cells, size_t ncells,
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

/* The published conditions that set ceilings (schema/reference.md,
 * "Conditions for ceilings"): `link` ("10GBASE-T", "2.5G", "10000":
 * Mbit/s as ethtool says) into bit/s; `pcie` ("3.0 x1", "PCIe 4.0 x4",
 * "8 GT/s x1", "Gen3 x1") into GT/s per lane and lanes. 0, or
 * -XR_EPARSE. */
int report_ref_parse_link(const char *s, double *bps);
int report_ref_parse_pcie(const char *s, double *gts, int *lanes);
/* `usb` ("USB 2.0", "USB 3.0", "USB 3.1 Gen 2", "USB 3.2 Gen 1x2",
 * "Gen 2x2", or a signalling rate: "480 Mb/s", "5 Gb/s", "10 Gb/s",
 * "20 Gb/s" as Gen 2x2) into the signalling rate of one lane in bit/s
 * (480e6, 5e9, 10e9) and the lanes (1, 2); `wifi` ("866.7 Mbit/s",
 * "2.4 Gbit/s", "1201": Mbit/s as netsh prints it) into bit/s. 0, or
 * -XR_EPARSE. */
int report_ref_parse_usb(const char *s, double *lane_bps, int *lanes);
int report_ref_parse_wifi(const char *s, double *bps);
/* The value of condition key for row w: a per-level condition of one of
 * its levels, else a factor column named key, else the file-wide one;
 * NULL when the reference does not state it. */
const char *report_ref_row_cond(const struct report_ref *ref,
				const struct report_ref_row *w,
				const char *key);

/* Reference row status for CSV/JSON ("matched", "not_measured", ...). */
const char *report_ref_status_name(enum report_ref_status s);

/*
 * report_build(), then, when o->reference is set, the comparison with
 * that file (report_reference_attach with o->tolerance and o->diag).
 * Same returns as both. OUT: *out, caller frees with report_free().
 */
int report_load(const char *db_path, const struct report_opts *o,
		struct report **out, struct xr_err *err);

#endif
