/*
 * Internals of the reference comparison shared by reference.c (reading a
 * published matrix), reference_settings.c (its settings), reference_csv.c
 * (its CSV layer), reference_match.c
 * (matching it to cells), reference_verdict.c (the
 * verdict per published cell) and reference_plan.c (checking a reference
 * against a plan; reading one without a plan). Not for writers.
 */
#ifndef XR_REFERENCE_INT_H
#define XR_REFERENCE_INT_H

#include "reference.h"

struct arena;

/* A field of a CSV record and the column it starts in. */
struct ref_field {
	const char *s;
	int col;
};

/* One CSV record (it may span lines when a quoted field holds one). */
struct ref_record {
	int line;
	struct ref_field *f;
	int n;
};

struct ref_records {
	struct ref_record *rec; /* arena */
	int nrec, cap;
};

/* reference_csv.c: split text into records (RFC 4180 quoting; comment
 * lines starting with '#' and blank lines skipped; fields trimmed unless
 * quoted; a UTF-8 byte order mark skipped). Problems go to d. 0, or
 * -XR_ENOMEM. */
int ref_csv_split(struct arena *a, const char *text, size_t len,
		  struct ref_records *out, struct xr_diag *d);

/* reference_csv.c: a finite number, the whole field. 0, or -XR_EPARSE. */
int ref_parse_num(const char *s, double *v);

/* reference_match.c: match row w to r's cells by the levels of every
 * factor column (status, cell, detail, ratio and range). */
/* The cells of r whose levels are row w's in every factor column: their
 * count, the first in *first (-1 none). Not exactly one sets w's status
 * (not_measured: a level the plan lacks or no such cell; ambiguous, with
 * the factors the matching cells differ in) and detail. The one rule of
 * the report's matching (ref_match_row) and of `xrun validate PLAN
 * --reference FILE` over the plan's cells. */
int ref_match_cells(struct report *r, struct report_ref *ref,
		    struct report_ref_row *w, int *first);
void ref_match_row(struct report *r, struct report_ref *ref,
		   struct report_ref_row *w);

/* What the columns of a reference are bound to. */
enum ref_bind {
	REF_BIND_STORE = 0, /* a report from a store: factors and metrics */
	REF_BIND_PLAN,	    /* a report made from a plan: factors only */
	REF_BIND_FREE,	    /* nothing: every column is a factor */
};

/*
 * Read the reference at path against r (its factors; with REF_BIND_STORE
 * its metrics too; with REF_BIND_FREE r->factors is set to the columns).
 * Every problem goes to d. *out is the reference when there is no error.
 * 0, or a negative code with the first error in err.
 */
int ref_parse(struct report *r, const char *path, enum ref_bind bind,
	      const char *const *free_metrics, struct xr_diag *d,
	      struct xr_err *err, struct report_ref **out);

/* What a column of the header holds. */
enum ref_col {
	REF_COL_VALUE = 0, /* `value`: the reference metric */
	REF_COL_FACTOR,	   /* a factor of the plan: levels */
	REF_COL_METRIC,	   /* an extra metric the store holds */
	REF_COL_SKIP,	   /* ignored (with a warning or an error) */
};

/* The reading of one reference file. */
struct ref_read {
	struct report *r;
	struct arena *a;
	struct xr_diag *d;
	struct ref_records ps;
	const struct ref_record *hdr;
	int first_row; /* index into ps.rec of the first published row */
	const char *metric, *unit, *base_unit;
	int metric_line, metric_col, unit_line, unit_col;
	double factor;	    /* published value * factor = base units */
	enum ref_col *kind; /* [hdr->n] */
	int *col_factor;    /* [hdr->n] factor index, -1 */
	int *col_metric;    /* [hdr->n] metric index, -1 */
	struct report_ref *ref;
	enum ref_bind bind;
	const char *const *free_metrics; /* REF_BIND_FREE: not factors */
	/* v2 settings, before ref exists */
	int version, v2_line;
	const char *title, *url, *author, *date;
	const char *extra_metrics; /* "a b": published metric columns */
	int statistic, runs;
	double tolerance; /* fraction; 0 = not given */
	struct report_ref_cond *conds;
	int nconds, capconds;
	struct report_ref_cond *lconds; /* FACTOR=LEVEL scoped */
	int nlconds, caplconds;
};

/* reference_ceiling.c: a `link` or `pcie` condition's value that does
 * not parse is an error at its position. */
void ref_check_ceiling_cond(struct xr_diag *d, const struct report_ref_cond *c);
/* reference_ceiling.c: every scoped condition names a factor column
 * (error) and a level that some row has (warning). */
void ref_check_scopes(struct ref_read *rr);

/* reference_settings.c: the settings above the header line into rr, and
 * rr->hdr, rr->first_row; -XR_EPARSE (problems in rr->d) without a
 * header. ref_settings_into copies them into rr->ref. */
int ref_read_head(struct ref_read *rr);
void ref_settings_into(struct ref_read *rr);

/* Parse, match and judge; sets r->ref. The cells' values (vals) and
 * r->engine_duration are used when the model has them; tolerance > 0
 * overrides the file's. */
int ref_attach(struct report *r, const char *path, double tolerance,
	       struct xr_diag *d, struct xr_err *err);

/* reference_verdict.c: the verdict, reasons and summary of every row.
 * 0, or -XR_ENOMEM. */
int ref_verdicts(struct report *r, struct report_ref *ref);

/* Does a published engine ("iperf 3.16") name engine meas ("iperf3")? */
int ref_engine_is(const char *pub, const char *meas);

#endif
