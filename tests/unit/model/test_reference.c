/*
 * The reference-matrix reader (reports/model/reference.c) on a constructed
 * report model: settings, comments, quoting and units; rows matched, not
 * measured and ambiguous; ratio and range; every problem of a bad file reported
 * with its line and column.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arena.h"
#include "report.h"
#include "tap.h"

/* A model with factors nic {a, b} x streams {1, 2}; cell (b, 2) missing;
 * metrics throughput (bit/s) and retransmits (1). */
static struct report *model(void)
{
	static const char *nic[] = {"a", "b"}, *streams[] = {"1", "2"};
	static const char *metrics[] = {"throughput", "retransmits"};
	static const char *units[] = {"bit/s", "1"};
	static const int lv[3][2] = {{0, 0}, {0, 1}, {1, 0}};
	struct report *r = calloc(1, sizeof *r);
	int k;
	r->arena = arena_new();
	r->factors = arena_alloc(r->arena, 2 * sizeof *r->factors);
	memset(r->factors, 0, 2 * sizeof *r->factors);
	r->factors[0].name = "nic";
	r->factors[0].levels = nic;
	r->factors[0].nlevels = 2;
	r->factors[1].name = "streams";
	r->factors[1].levels = streams;
	r->factors[1].nlevels = 2;
	r->nfactors = 2;
	r->metrics = metrics;
	r->metric_units = units;
	r->nmetrics = 2;
	r->primary = 0;
	r->metric = "throughput";
	r->display_unit = "Gbit/s";
	r->display_scale = 1e9;
	r->ncells = 3;
	r->cells = arena_alloc(r->arena, 3 * sizeof *r->cells);
	memset(r->cells, 0, 3 * sizeof *r->cells);
	for (k = 0; k < 3; k++) {
		struct report_cell *c = &r->cells[k];
		struct report_stats *st = arena_alloc(r->arena, 2 * sizeof *st);
		double g = 9.0 + k; /* Gbit/s */
		memset(st, 0, 2 * sizeof *st);
		c->index = k;
		c->lv = lv[k];
		st[0].n = 4;
		st[0].median = g * 1e9;
		st[0].min = (g - 0.1) * 1e9;
		st[0].max = (g + 0.1) * 1e9;
		st[0].ci_low = (g - 0.05) * 1e9;
		st[0].ci_high = (g + 0.05) * 1e9;
		st[1].n = 4;
		st[1].median = 10;
		st[1].min = 5;
		st[1].max = 20;
		st[1].ci_low = st[1].ci_high = NAN;
		c->st = st;
	}
	return r;
}

static const char *tmp_file(const char *text)
{
	static char path[64];
	FILE *f;
	snprintf(path, sizeof path, "/tmp/xrun-ref-%d.csv", (int)getpid());
	f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
	return path;
}

/* Attach text; return rc, with the diagnostics joined in out. */
static int attach(struct report *r, const char *text, char *out, size_t n)
{
	struct xr_diag d;
	struct xr_err err = {0};
	const char *path = tmp_file(text);
	size_t i, len = 0;
	int rc;
	xr_diag_init(&d, path);
	rc = report_reference_attach(r, path, &d, &err);
	out[0] = 0;
	for (i = 0; i < d.n && len < n; i++)
		len += (size_t)snprintf(
		    out + len, n - len, "%d:%d: %s: %s\n", d.items[i].line,
		    d.items[i].col, d.items[i].is_warning ? "warning" : "error",
		    d.items[i].msg);
	if (rc < 0)
		ok(err.line > 0 || d.n, "first error has a position: %s",
		   err.msg);
	xr_diag_release(&d);
	unlink(path);
	return rc;
}

int main(void)
{
	tap_plan(63);
	struct report *r = model();
	const struct report_ref *ref;
	char msg[4096];
	int rc;

	rc = attach(r,
		    "# published somewhere\n"
		    "metric,throughput\n"
		    "unit,Mbit/s\n"
		    "\n"
		    "nic,streams,value,retransmits\n"
		    "a,1,9000,\n"
		    "# a comment between rows\n"
		    "\"a\", 2 ,\"10500\",30\n"
		    "b,2,8000,\n"
		    "c,1,1,\n"
		    "b,1,11000.5,7\n",
		    msg, sizeof msg);
	is_int(rc, 0, "good reference accepted");
	is_str(msg, "", "no diagnostics");
	ref = r->ref;
	ok(ref != NULL, "reference attached");
	if (!ref)
		return tap_done();
	is_int(ref->nrows, 5, "five rows");
	is_int(ref->nfactors, 2, "two factor columns");
	is_int(ref->nvalues, 2, "value and retransmits compared");
	is_str(ref->values[1], "retransmits", "extra metric column");
	is_int(ref->rows[0].line, 6, "row line numbers count comments");
	is_int(ref->rows[0].status, REPORT_REF_MATCHED, "a,1 matched");
	is_int(ref->rows[0].cell, 0, "a,1 -> cell 0");
	is_near(ref->rows[0].v[0].published, 9e9, 1, "Mbit/s -> bit/s");
	is_near(ref->rows[0].v[0].ratio, 1.0, 1e-9, "ratio 9/9");
	is_int(ref->rows[0].v[0].in_range, 1, "9 within 8.9-9.1");
	ok(isnan(ref->rows[0].v[1].published), "empty extra = not published");
	is_int(ref->rows[1].line, 8, "quoted row line");
	is_int(ref->rows[1].cell, 1, "quoted and padded fields match a,2");
	is_near(ref->rows[1].v[0].ratio, 10.0 / 10.5, 1e-9, "ratio 10/10.5");
	is_int(ref->rows[1].v[0].in_range, 0, "10.5 outside 9.9-10.1");
	is_near(ref->rows[1].v[1].published, 30, 0, "retransmits published");
	is_int(ref->rows[1].v[1].in_range, 0, "30 outside 5-20");
	is_int(ref->rows[2].status, REPORT_REF_NOT_MEASURED,
	       "b,2 has no cell: not measured");
	is_int(ref->rows[3].status, REPORT_REF_NOT_MEASURED,
	       "unknown level: not measured");
	ok(strstr(ref->rows[3].detail, "'c'") != NULL, "detail names c: %s",
	   ref->rows[3].detail);
	is_int(ref->rows[4].status, REPORT_REF_MATCHED, "b,1 matched");
	is_int(ref->nmatched, 3, "3 matched");
	is_int(ref->nnot_measured, 2, "2 not measured");
	{
		char col[REPORT_REF_NCOLS][192];
		report_ref_fmt(r, &ref->rows[0], 0, col);
		is_str(col[REPORT_REF_COL_PUBLISHED], "9.00", "published fmt");
		is_str(col[REPORT_REF_COL_RATIO], "1.000", "ratio fmt");
		is_str(col[REPORT_REF_COL_RANGE], "8.90 – 9.10", "range fmt");
		report_ref_fmt(r, &ref->rows[2], 0, col);
		ok(strstr(col[REPORT_REF_COL_MEDIAN], "not measured") != NULL,
		   "not measured shown: %s", col[REPORT_REF_COL_MEDIAN]);
	}

	/* a row naming only nic matches two cells: ambiguous, naming the
	 * factor that differs */
	r->ref = NULL;
	rc = attach(r, "nic,value\na,9\n", msg, sizeof msg);
	is_int(rc, 0, "reference without streams accepted");
	ok(r->ref && r->ref->rows[0].status == REPORT_REF_AMBIGUOUS,
	   "a alone is ambiguous");
	ok(r->ref && strstr(r->ref->rows[0].detail, "streams"),
	   "ambiguity names streams");
	ok(r->ref && r->ref->rows[0].cell == 0, "first candidate kept");

	/* every problem, with its position, all at once */
	r->ref = NULL;
	rc = attach(r,
		    "units,Gbit/s\n"
		    "metric,throughput\n"
		    "metric,throughput\n"
		    "nic,speed,value,value\n"
		    "a,fast,x,1\n"
		    "a,1\n",
		    msg, sizeof msg);
	is_int(rc, -XR_EUSAGE, "bad reference: usage error");
	ok(r->ref == NULL, "nothing attached");
	ok(strstr(msg, "1:1: error: unknown setting 'units'") != NULL,
	   "unknown setting at 1:1");
	ok(strstr(msg, "3:1: error: setting 'metric' given twice") != NULL,
	   "duplicate setting at 3:1");
	ok(strstr(msg, "4:5: error: unknown column 'speed'") != NULL,
	   "unknown column at 4:5");
	ok(strstr(msg, "4:17: error: column 'value' appears twice") != NULL,
	   "duplicate column at 4:17");
	ok(strstr(msg, "5:8: error: value 'x' is not a number") != NULL,
	   "not a number at 5:8");
	ok(strstr(msg, "6:1: error: 2 fields, but the header (line 4) has 4"),
	   "field count at 6:1");
	if (!ok(strstr(msg, "unknown column 'speed'") != NULL, "all reported"))
		fprintf(stderr, "%s", msg);

	rc = attach(r, "metric,latency\nunit,furlongs\nnic,value\na,1\n", msg,
		    sizeof msg);
	ok(rc < 0 && strstr(msg, "1:8: error: metric 'latency' is not in the "
				 "store (present: throughput, retransmits)"),
	   "unknown metric at 1:8");
	rc = attach(r, "unit,furlongs\nnic,value\na,1\n", msg, sizeof msg);
	ok(rc < 0 && strstr(msg, "1:6: error: unit 'furlongs' does not fit"),
	   "unknown unit at 1:6");
	rc = attach(r, "unit,ms\nnic,value\na,1\n", msg, sizeof msg);
	ok(rc < 0 && strstr(msg, "unit 'ms' does not fit metric "
				 "'throughput' (stored in bit/s"),
	   "unit of another kind refused");
	rc = attach(r, "# nothing\n", msg, sizeof msg);
	ok(rc < 0 && strstr(msg, "no header line"), "no header");
	rc = attach(r, "nic,value\n", msg, sizeof msg);
	ok(rc < 0 && strstr(msg, "1:1: error: no published rows"), "no rows");
	rc = attach(r, "nic,value\na,\"9\n", msg, sizeof msg);
	ok(rc < 0 && strstr(msg, "2:3: error: unterminated quoted field"),
	   "unterminated quote");
	rc = attach(r, "nic,value\na,nan\na,1e999\na,\n", msg, sizeof msg);
	ok(rc < 0 && strstr(msg, "2:3: error: value 'nan' is not a number") &&
	       strstr(msg, "3:3: error: value '1e999'") &&
	       strstr(msg, "4:3: error: value '(empty)'"),
	   "nan, overflow and empty values refused");
	rc = attach(r, "nic,value,retransmits\na,1,x\n", msg, sizeof msg);
	ok(rc < 0 && strstr(msg, "2:5: error: retransmits 'x' is not a number"),
	   "a stored metric's column: the entry is wrong, not the column");
	{
		char text[6000];
		snprintf(text, sizeof text, "nic,value\na,1%05000d\n", 0);
		rc = attach(r, text, msg, sizeof msg);
		ok(rc < 0 && strlen(msg) < 200 && strstr(msg, "...' is not"),
		   "a long bad value is cut in the message");
	}
	rc = attach(r, "nic,value,stream\na,1,2\n", msg, sizeof msg);
	ok(rc == 0 && strstr(msg, "1:11: warning: column 'stream' is neither"),
	   "numeric unknown column: a warning");
	report_free(r);
	return tap_done();
}
