/*
 * Internals of the reference comparison shared by reference.c (reading a
 * published matrix), reference_settings.c (its settings), reference_csv.c
 * (its CSV layer), reference_cells.c (its rows into published cells),
 * reference_match.c
 * (matching it to cells), reference_units.c (its columns' units),
 * reference_verdict.c (the verdict per published cell) and reference_plan.c
 * (checking a reference against a plan; reading one without a plan). Not for
 * writers.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_REFERENCE_INT_H
#define XR_REFERENCE_INT_H

#include "buf.h"
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

/* reference_csv.c: the text split record by record (RFC 4180 quoting;
 * comment lines starting with '#' and blank lines skipped; fields trimmed
 * unless quoted; a UTF-8 byte order mark skipped), one record at a time
 * in a scratch that the next record reuses: the records of a file are
 * never all held (a 16 MiB reference of 10^6 rows held 700 MB of them and
 * its rows, bench/RESULTS.md, "Reference reading"). Problems go to d
 * (none said when d is NULL). A
 * position is saved and restored by copying p and line (ref_csv_peek;
 * the numbers check of reference.c reads the rows twice so). */
struct ref_csv {
	const char *p, *end, *ls;
	int line;
	struct xr_diag *d;
	struct buf text;     /* the record's fields, each NUL-ended */
	struct buf field;    /* the field being read */
	size_t *off;	     /* [cap] where each starts in text */
	struct ref_field *f; /* [cap] */
	int n, cap;
};
void ref_csv_init(struct ref_csv *c, const char *text, size_t len,
		  struct xr_diag *d);
/* The next record into rec, its fields in c's scratch until the next
 * call: 1, 0 at the end (or at an unterminated quoted field, reported),
 * -XR_ENOMEM. */
int ref_csv_next(struct ref_csv *c, struct ref_record *rec);
/* ref_csv_next without moving on and without reporting problems. */
int ref_csv_peek(struct ref_csv *c, struct ref_record *rec);
/* The fields of the record just read into rec, copied into a. 0 or
 * -XR_ENOMEM. */
int ref_csv_keep(struct arena *a, const struct ref_csv *c,
		 struct ref_record *rec);
void ref_csv_release(struct ref_csv *c);

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

/* A column's declared unit: `unit,COLUMN,UNIT`. */
struct ref_col_unit {
	const char *column, *unit;
	int line, col, used;
};

/* The reading of one reference file. */
struct ref_read {
	struct report *r;
	struct arena *a;
	struct xr_diag *d;
	struct ref_csv csv; /* after ref_read_head: at the first row */
	int last_line;	    /* of the last record read */
	int has_rows;	    /* a record follows the header */
	const struct ref_record *hdr; /* arena */
	const char *metric, *unit, *base_unit;
	int metric_line, metric_col, unit_line, unit_col;
	double factor;	    /* published value * factor = base units */
	enum ref_col *kind; /* [hdr->n] */
	int *col_factor;    /* [hdr->n] factor index, -1 */
	int *col_metric;    /* [hdr->n] metric index, -1 */
	char *numeric;	    /* [hdr->n] only numbers in the column; NULL
			       when no column needs it */
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
	/* Each list's index by (key, factor, level) for the "given twice"
	 * check (issue 40: a search of the list per condition made 10^5 of
	 * them take minutes): slots hold 1 + the entry, 0 empty; [0] conds,
	 * [1] lconds. */
	int *cidx[2], ccap[2];
	int *scope_col;	  /* [nlconds] its factor column, -1 */
	char *scope_seen; /* [nlconds] some row has its level */
	/* units (reference_units.c) */
	struct ref_col_unit *dunits; /* declared */
	int ndunits, capdunits;
	const char **col_unit; /* [hdr->n] declared or from the header;
				  NULL: the metric's base unit */
	int *col_unit_at;      /* [2 * hdr->n] line and column that say
				  it */
	double *col_scale;     /* [hdr->n] as written * scale = base */
};

/* reference_units.c: a column's unit (schema/reference.md, "Units").
 * ref_xrun_metric: is name one of xrun's own metrics or series
 * (latency.*, engine.*, cpu.*, ...)? ref_unit_factor: the factor from
 * unit to the unit metric mi is stored in; -XR_EUSAGE when the kinds
 * differ. ref_unit_setting: `unit,COLUMN,UNIT` into rr (1 when c is one,
 * problems to rr->d). ref_header_units: each header field's unit, from
 * its text ("NAME (ms)", its name then NAME) or its declaration, into
 * rr->col_unit; 0 or -XR_ENOMEM. ref_col_scale: rr->col_scale[j] for
 * column j of metric mi (-1 unknown), an error when the unit does not
 * fit. ref_check_scale: a warning per value column whose published
 * values are off by a power of 1000 against the matched cells'
 * medians. */
int ref_xrun_metric(const char *name);
int ref_unit_factor(const struct report *r, int mi, const char *unit,
		    double *factor);
int ref_unit_setting(struct ref_read *rr, const struct ref_record *c);
int ref_header_units(struct ref_read *rr, struct ref_record *hdr);
void ref_col_scale(struct ref_read *rr, int j, int mi);
void ref_check_scale(const struct report *r, const struct report_ref *ref,
		     struct xr_diag *d);

/* One published row, read into a scratch that the next row reuses: its
 * levels point into the CSV layer's scratch. */
struct ref_row_scratch {
	const char **levels;	    /* [nfactors] */
	int *level_col;		    /* [nfactors] */
	struct report_ref_value *v; /* [nvalues] */
	double pub;		    /* `value` in base units */
	const char *pub_text;	    /* as written */
};

/* reference_cells.c: the published cells while the rows are read (about
 * 30 bytes a published run, the rest per cell). Zeroed with its texts
 * buf_init'ed to start; ref_cells_finish moves the cells into
 * rr->ref->rows (the arena's) and releases cs; ref_cells_release frees
 * what a failed reading left. */
struct ref_cells {
	struct report_ref_row *rows; /* [cap] heap */
	int n, cap;
	int *pcap;     /* [cap] room in each cell's run arrays */
	size_t **toff; /* [cap] offsets into texts, per run */
	int *slot;     /* [mask + 1] cell index, -1 empty */
	size_t mask;
	struct buf texts; /* every published text, NUL-ended */
};
/* Row w at line into its cell (a new one at its first row). 0 or
 * -XR_ENOMEM. */
int ref_cells_add(struct ref_read *rr, struct ref_cells *cs,
		  const struct ref_row_scratch *w, int line);
int ref_cells_finish(struct ref_read *rr, struct ref_cells *cs);
void ref_cells_release(struct ref_cells *cs);

/* reference_ceiling.c: a `link` or `pcie` condition's value that does
 * not parse is an error at its position. */
void ref_check_ceiling_cond(struct xr_diag *d, const struct report_ref_cond *c);
/* reference_ceiling.c: every scoped condition names a factor column
 * (error, ref_check_scopes, with the header) and a level that some row
 * has (warning: ref_scopes_see on every record after the header, then
 * ref_scopes_warn). ref_check_scopes: 0 or -XR_ENOMEM. */
int ref_check_scopes(struct ref_read *rr);
void ref_scopes_see(struct ref_read *rr, const struct ref_record *c);
void ref_scopes_warn(struct ref_read *rr);

/* reference_settings.c: the settings above the header line into rr, and
 * rr->hdr (records read from rr->csv, kept in the arena); -XR_EPARSE
 * (problems in rr->d) without a header, -XR_ENOMEM.
 * ref_settings_into copies them into rr->ref. */
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
