/*
 * The reference-matrix reader (reports/reference/reference.c) on a constructed
 * report model: settings, comments, quoting and units; rows matched, not
 * measured and ambiguous; ratio and range; every problem of a bad file reported
 * with its line and column.
 *
 * SPDX-License-Identifier: MIT
 */
#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arena.h"
#include "buf.h"
#include "reference.h"
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
	r->met.metrics = metrics;
	r->met.metric_units = units;
	r->met.nmetrics = 2;
	r->met.primary = 0;
	r->met.metric = "throughput";
	r->met.display_unit = "Gbit/s";
	r->met.display_scale = 1e9;
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

/* Reference v2: settings, conditions, published runs, verdicts from the
 * cells' intervals (no runs here: the interval path), published precision
 * and the v2 errors. */
static void test_v2(struct report *r)
{
	const struct report_ref *ref;
	char msg[4096], out[128];
	int rc, k;

	for (k = 0; k < r->ncells; k++) {
		struct report_stats *st = r->cells[k].st;
		st[0].mean = st[0].median;
		st[0].sd = 0.05e9;
	}
	/* v1 file: version 1, defaults */
	rc = attach(r, "nic,streams,value\na,1,9\n", msg, sizeof msg);
	ref = r->ref;
	ok(rc == 0 && ref && ref->version == 1 &&
	       ref->statistic == REPORT_REF_STAT_UNKNOWN &&
	       ref->tolerance == REPORT_REF_DEFAULT_TOLERANCE &&
	       ref->tolerance_source == 0 && ref->nconds == 0 &&
	       ref->rows[0].npub == 1,
	   "v1: version 1, statistic unknown, default tolerance");
	ok(ref && ref->rows[0].verdict == REPORT_REFV_REPRODUCED &&
	       strstr(ref->rows[0].reasons, "compared with the median"),
	   "v1: unknown statistic compared with the median: %s",
	   ref ? ref->rows[0].reasons : "");

	rc = attach(r,
		    "format,2\n"
		    "title,\"Tests, and more\"\n"
		    "url,https://example.org/x\n"
		    "author,QA\n"
		    "date,2026-11-30\n"
		    "statistic,mean\n"
		    "runs,3\n"
		    "tolerance,1%\n"
		    "unit,Mbit/s\n"
		    "condition,congestion,cubic\n"
		    "mtu,9000\n"
		    "nic,streams,value\n"
		    "a,1,9000.0\n"
		    "a,2,9500\n"
		    "b,1,10955.37\n"
		    "b,1,11000\n"
		    "b,1,11044.63\n",
		    msg, sizeof msg);
	is_int(rc, 0, "v2 reference accepted");
	is_str(msg, "", "v2: no diagnostics");
	ref = r->ref;
	if (!ref)
		return;
	ok(ref->version == 2 && ref->statistic == REPORT_REF_STAT_MEAN &&
	       ref->runs == 3 && fabs(ref->tolerance - 0.01) < 1e-12 &&
	       ref->tolerance_source == 1,
	   "v2: statistic, runs, tolerance");
	ok(ref->title && !strcmp(ref->title, "Tests, and more") && ref->url &&
	       !strcmp(ref->author, "QA") && !strcmp(ref->date, "2026-11-30"),
	   "v2: source settings");
	ok(ref->nconds == 2 && !strcmp(ref->conds[0].key, "congestion") &&
	       !strcmp(ref->conds[0].value, "cubic") &&
	       !strcmp(ref->conds[1].key, "mtu") && ref->conds[1].line == 11,
	   "v2: conditions, as condition,KEY,VALUE and as a setting");
	is_int(ref->nrows, 3, "rows with the same levels: one published cell");
	ok(ref->rows[2].npub == 3 && ref->rows[2].pub_line[2] == 17 &&
	       !strcmp(ref->rows[2].pub_text[0], "10955.37") &&
	       fabs(ref->rows[2].v[0].published - 11e9) < 1,
	   "published runs: values, lines, texts, mean");
	ok(ref->rows[0].verdict == REPORT_REFV_REPRODUCED &&
	       !strcmp(ref->rows[0].method, "interval"),
	   "9000 vs mean 9.0 [8.95, 9.05] Gbit/s within 1%%: reproduced");
	ok(ref->rows[1].verdict == REPORT_REFV_DIFFERS &&
	       !strcmp(ref->rows[1].reasons, "5.3% above"),
	   "9500 vs 10.0: differs, 5.3%% above (%s)", ref->rows[1].reasons);
	is_int(ref->nverdict[REPORT_REFV_REPRODUCED], 2, "two reproduced");
	ok(ref->summary &&
	       !strcmp(ref->summary,
		       "2 of 3 published cells reproduced within ±1%; 1 "
		       "differs: nic=a, streams=2 (5.3% above)"),
	   "summary line: %s", ref->summary ? ref->summary : "");
	report_ref_fmt_published(r, 0, ref->rows[2].pub[0],
				 ref->rows[2].pub_text[0], out, sizeof out);
	is_str(out, "10.95537", "10955.37 Mbit/s keeps its 7 digits in Gbit/s");
	report_ref_fmt_published(r, 0, 9e9, "9000", out, sizeof out);
	is_str(out, "9.00",
	       "9000: trailing zeros of a whole number say nothing");
	report_ref_fmt_published(r, 0, 9e9, "9000.0", out, sizeof out);
	is_str(out, "9.0000", "9000.0: five digits");

	/* max, min, median: the statistic the publication names */
	rc = attach(r,
		    "statistic,max\ntolerance,1%\nnic,streams,value\na,1,9.1\n",
		    msg, sizeof msg);
	ok(rc == 0 && r->ref->rows[0].verdict == REPORT_REFV_REPRODUCED &&
	       r->ref->rows[0].est == 9.1e9,
	   "max: compared with the measured maximum");
	rc = attach(r,
		    "statistic,min\ntolerance,1%\nnic,streams,value\na,1,9.4\n",
		    msg, sizeof msg);
	ok(rc == 0 && r->ref->rows[0].verdict == REPORT_REFV_DIFFERS &&
	       !strcmp(r->ref->rows[0].reasons, "5.3% below"),
	   "min: 8.9 against 9.4 differs, 5.3%% below");
	rc = attach(
	    r, "statistic,median\ntolerance,1%\nnic,streams,value\na,1,9\n",
	    msg, sizeof msg);
	ok(rc == 0 && r->ref->rows[0].verdict == REPORT_REFV_INCONCLUSIVE &&
	       r->ref->rows[0].lo == 8.9e9 && r->ref->rows[0].hi == 9.1e9,
	   "median without enough runs for its interval: min-max, crosses 1%%");
	rc = attach(
	    r, "format,2\ncondition,engine,iperf3\nnic,streams,value\na,1,9\n",
	    msg, sizeof msg);
	ok(rc == 0 && r->ref->rows[0].verdict == REPORT_REFV_REPRODUCED,
	   "a condition nothing measured says anything about is not checked");

	rc = attach(r,
		    "format,3\n"
		    "statistic,average\n"
		    "runs,2.5\n"
		    "tolerance,150%\n"
		    "condition,cc\n"
		    "condition,cc,bbr\n"
		    "condition,cc,cubic\n"
		    "nic,value\n"
		    "a,1\n",
		    msg, sizeof msg);
	ok(rc < 0, "bad v2 settings refused");
	ok(strstr(msg, "1:8: error: unknown format '3'") &&
	       strstr(msg, "2:11: error: unknown statistic 'average'") &&
	       strstr(msg, "3:6: error: runs '2.5' is not a positive whole") &&
	       strstr(msg, "4:11: error: tolerance '150%' is not") &&
	       strstr(msg, "5:1: error: expected 'condition,KEY,VALUE'") &&
	       strstr(msg, "7:11: error: condition 'cc' given twice"),
	   "every v2 error at its position");
	if (!strstr(msg, "7:11:"))
		fprintf(stderr, "%s", msg);
}

/* 10^5 published runs over 4 cells (the rows of one cell were grouped by
 * a search of every group and copied one longer for each run: issue 24):
 * row i is cell i % 4 with value i Mbit/s, so cell c has 25,000 runs,
 * the first on line 3 + c, the last i = 99996 + c, mean (c + 99996 + c)
 * / 2 = c + 49998 Mbit/s (python3: sum(range(c, 100000, 4)) / 25000). */
static void test_many_runs(struct report *r)
{
	static const char *lv[4] = {"a,1", "a,2", "b,1", "b,2"};
	struct buf b = BUF_INIT;
	const struct report_ref *ref;
	char msg[4096];
	int rc, c, good = 1;
	struct mallinfo2 m0, m1;
	size_t grew;
	buf_adds(&b, "unit,Mbit/s\nnic,streams,value\n");
	for (int i = 0; i < 100000; i++)
		buf_addf(&b, "%s,%d\n", lv[i % 4], i);
	m0 = mallinfo2();
	rc = attach(r, b.s, msg, sizeof msg);
	m1 = mallinfo2();
	buf_release(&b);
	ref = r->ref;
	is_int(rc, 0, "10^5 rows read");
	/* what the reading keeps: a run's value, line and text (8 + 4 + 8
	 * bytes and "99996\0"), about 26 bytes; the records and a row struct
	 * a run kept before were about 700 (bench/RESULTS.md, "Reference
	 * reading") */
	grew = (m1.uordblks + m1.hblkhd) - (m0.uordblks + m0.hblkhd);
	ok(grew < 100000 * 64,
	   "10^5 rows: the heap kept %zu bytes, %zu a run (under 64)", grew,
	   grew / 100000);
	ok(ref && ref->nrows == 4, "10^5 rows: 4 published cells");
	for (c = 0; ref && c < 4 && c < ref->nrows; c++) {
		const struct report_ref_row *w = &ref->rows[c];
		good &= w->npub == 25000 && w->pub_line[0] == 3 + c &&
			w->pub_line[24999] == 3 + 99996 + c &&
			w->pub[24999] == (99996 + c) * 1e6 &&
			fabs(w->v[0].published - (c + 49998) * 1e6) < 1e-3;
	}
	ok(ref && good, "10^5 rows: 25,000 runs a cell, lines, last, mean");
}

/* The usb and wifi conditions (schema/reference.md, "Conditions for
 * ceilings"): each form to its lane rate and lanes, or refused. The
 * rates are the USB specifications' signalling rates: 2.0 high speed 480
 * Mb/s, Gen 1 5 Gb/s and Gen 2 10 Gb/s per lane, x1 or x2 (USB 3.2). */
static void test_usb_wifi(void)
{
	static const struct {
		const char *s;
		double lane;
		int lanes; /* 0: an error */
	} usb[] = {
	    {"USB 2.0", 480e6, 1},
	    {"2.0", 480e6, 1},
	    {"480 Mb/s", 480e6, 1},
	    {"480", 480e6, 1},
	    {"USB 3.0", 5e9, 1},
	    {"USB 3.1 Gen 1", 5e9, 1},
	    {"usb 3.1 gen 2", 10e9, 1},
	    {"USB 3.2 Gen 1", 5e9, 1},
	    {"USB 3.2 Gen 1x1", 5e9, 1},
	    {"USB 3.2 Gen 2x1", 10e9, 1},
	    {"USB 3.2 Gen 1x2", 5e9, 2},
	    {"Gen 2x2", 10e9, 2},
	    {"5 Gb/s", 5e9, 1},
	    {"5Gbps", 5e9, 1},
	    {"10 Gbit/s", 10e9, 1},
	    {"20 Gb/s", 10e9, 2},
	    {"USB 3.1", 0, 0},
	    {"USB 3.2", 0, 0},
	    {"USB 3.1 Gen 2x2", 0, 0},
	    {"USB 3.0 Gen 1", 0, 0},
	    {"Gen 3", 0, 0},
	    {"Gen 1x3", 0, 0},
	    {"12 Mb/s", 0, 0},
	    {"8 GT/s", 0, 0},
	    {"USB4", 0, 0},
	    {"", 0, 0},
	};
	static const struct {
		const char *s;
		double bps; /* 0: an error */
	} wifi[] = {
	    {"866.7 Mbit/s", 866.7e6}, {"1201 Mbps", 1201e6},
	    {"2.4 Gbit/s", 2.4e9},     {"866.7", 866.7e6},
	    {"54 Mb/s", 54e6},	       {"fast", 0},
	    {"866 GT/s", 0},	       {"0", 0},
	    {"200 Gbit/s", 0},	       {"-5", 0},
	};
	for (size_t i = 0; i < sizeof usb / sizeof usb[0]; i++) {
		double lane = 0;
		int lanes = 0;
		int rc = report_ref_parse_usb(usb[i].s, &lane, &lanes);
		if (!usb[i].lanes)
			ok(rc < 0, "usb '%s' refused", usb[i].s);
		else
			ok(rc == 0 && lane == usb[i].lane &&
			       lanes == usb[i].lanes,
			   "usb '%s': %g x%d (want %g x%d)", usb[i].s, lane,
			   lanes, usb[i].lane, usb[i].lanes);
	}
	for (size_t i = 0; i < sizeof wifi / sizeof wifi[0]; i++) {
		double bps = 0;
		int rc = report_ref_parse_wifi(wifi[i].s, &bps);
		if (!wifi[i].bps)
			ok(rc < 0, "wifi '%s' refused", wifi[i].s);
		else
			ok(rc == 0 && fabs(bps - wifi[i].bps) < 1e-3,
			   "wifi '%s': %g (want %g)", wifi[i].s, bps,
			   wifi[i].bps);
	}
}

/* The rows are read record by record (issue 24: the records of a file
 * were all held, 700 MB for 10^6 rows): a bad row deep in the file is
 * still said at its line and column, counted past a comment line in the
 * middle (row i on line 3 + i before it, 4 + i after); a column that is
 * neither a factor nor a metric is judged on every row, the last
 * included (it is read before the rows are, in a pass of its own). */
static void test_streamed(struct report *r)
{
	struct buf b = BUF_INIT;
	char msg[4096];
	int rc;
	buf_adds(&b, "unit,Mbit/s\nnic,streams,value\n");
	for (int i = 0; i < 100000; i++) {
		if (i == 50000)
			buf_adds(&b, "# the middle\n");
		if (i == 77777)
			buf_adds(&b, "a,1,x9\n");
		else if (i == 88888)
			buf_adds(&b, "a,1\n");
		else
			buf_addf(&b, "%s,%d\n", i % 2 ? "a,1" : "b,1", i);
	}
	rc = attach(r, b.s, msg, sizeof msg);
	buf_release(&b);
	ok(rc < 0, "10^5 rows, two bad: refused");
	ok(strstr(msg, "77781:5: error: value 'x9' is not a number") &&
	       strstr(msg, "88892:1: error: 2 fields, but the header (line 2) "
			   "has 3"),
	   "the bad rows at their line and column: %s", msg);
	rc = attach(r,
		    "unit,Mbit/s\nnic,streams,value,note\n"
		    "a,1,9000,1\na,2,9000,2\nb,1,9000,high\n",
		    msg, sizeof msg);
	ok(rc < 0 && strstr(msg, "2:19: error: unknown column 'note': not a "
				 "factor of the plan (factors: nic, "
				 "streams), nor a numeric column"),
	   "a column not numeric in its last row only: %s", msg);
	rc = attach(r,
		    "unit,Mbit/s\nnic,streams,value,note\n"
		    "a,1,9000,1\na,2,9000,2\nb,1,9000,\n",
		    msg, sizeof msg);
	ok(rc == 0 && strstr(msg, "2:19: warning: column 'note' is neither"),
	   "numeric in every row: a warning, ignored: %s", msg);
	/* an extra metric: the mean of the runs that publish it, (30 + 10)
	 * / 2 = 20, the run without it left out; value (9000 + 9100 + 9200)
	 * / 3 = 9100 Mbit/s */
	rc = attach(r,
		    "unit,Mbit/s\nnic,streams,value,retransmits\n"
		    "a,1,9000,30\na,1,9100,\na,1,9200,10\n",
		    msg, sizeof msg);
	ok(rc == 0 && r->ref && r->ref->nrows == 1 && r->ref->nvalues == 2 &&
	       r->ref->rows[0].npub == 3 &&
	       fabs(r->ref->rows[0].v[0].published - 9.1e9) < 1e-3 &&
	       r->ref->rows[0].v[1].published == 20,
	   "three runs of a cell: value their mean, retransmits the mean of "
	   "the two that publish it (%g)",
	   r->ref && r->ref->nrows ? r->ref->rows[0].v[1].published : NAN);
}

/* No verdict on what did not run (schema/reference.md, "Verdicts"): nic
 * is a setting (an apply hook, no verify declared); each cell has 4 ok
 * runs. Cell a,1: nic verified in 4 of 4 runs; a,2: in none (4 runs
 * never verified); b,1: checked in 4, 1 of them wrong. All three
 * published values lie where the cells' intervals would reproduce them
 * (9, 10, 11 Gbit/s against medians 9, 10, 11 +-0.05): only a,1 may say
 * so. Then value written in Mbit/s without a unit (read as Gbit/s):
 * 9000 Gbit/s against 9 measured is 10^3 off, a warning at its row. */
static void test_verification(void)
{
	static const struct report_cverify ok4 = {4, 0, NULL, NULL},
					   none = {0, 0, NULL, NULL},
					   bad1 = {4, 1, "b", "a"};
	static const struct report_cverify v0[2] = {ok4, none},
					   v1[2] = {none, none},
					   v2[2] = {bad1, none};
	struct report *r = model();
	const struct report_ref *ref;
	char msg[2048];
	int k;
	r->factors[0].setting = 1;
	r->cells[0].ver = v0;
	r->cells[1].ver = v1;
	r->cells[2].ver = v2;
	for (k = 0; k < 3; k++)
		r->cells[k].n_ok = 4;
	is_int(report_cell_unverified(r, 1, 0), 4, "a,2: 4 runs unverified");
	is_int(report_cell_unverified(r, 1, 1), 0,
	       "streams is no setting: never unverified");
	is_int(attach(r,
		      "unit,Gbit/s\nnic,streams,value\na,1,9\na,2,10\n"
		      "b,1,11\n",
		      msg, sizeof msg),
	       0, "verification reference attached");
	ref = r->ref;
	if (!ref || ref->nrows != 3) {
		ok(0, "three rows");
		return;
	}
	is_str(report_ref_verdict_name(ref->rows[0].verdict), "reproduced",
	       "a,1 verified: judged, reproduced");
	is_str(report_ref_verdict_name(ref->rows[1].verdict), "not_verified",
	       "a,2 never verified: not_verified, not reproduced");
	is_str(ref->rows[1].reasons, "nic: 4 of 4 runs (no verify declared)",
	       "a,2: the reason in runs");
	is_str(report_ref_verdict_name(ref->rows[2].verdict), "not_comparable",
	       "b,1 verified wrong: not_comparable");
	is_str(ref->rows[2].reasons,
	       "setting verified wrong: nic: 1 of 4 runs, expected 'b', got "
	       "'a'",
	       "b,1: the reason in runs");
	is_str(ref->summary,
	       "1 of 3 published cells reproduced within ±5%; 1 not "
	       "comparable: nic=b, streams=1 (setting verified wrong: nic: 1 "
	       "of 4 runs, expected 'b', got 'a'); 1 not verified: nic=a, "
	       "streams=2 (nic: 4 of 4 runs (no verify declared))",
	       "the summary counts only the verified row as reproduced");
	is_int(ref->nverdict[REPORT_REFV_NOT_VERIFIED], 1, "1 not verified");
	is_str(msg, "", "no diagnostics");
	report_free(r);
	r = model();
	is_int(attach(r, "nic,streams,value\na,1,9000\na,2,10000\n", msg,
		      sizeof msg),
	       0, "Mbit/s values read as Gbit/s: attached");
	is_str(msg,
	       "2:5: warning: column 'value': published 9e+12 bit/s is 10^3 "
	       "times the measured median 9e+09 bit/s of nic=a, streams=1 (2 "
	       "of 2 published cells off by a power of 1000): written in "
	       "Mbit/s? say 'unit,Mbit/s' or head it 'value (Mbit/s)'\n",
	       "a 10^3 error warns at its first row, with the unit that fits");
	report_free(r);
}

int main(void)
{
	tap_plan(146);
	test_usb_wifi();
	test_verification();
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
	test_v2(r);
	test_many_runs(r);
	test_streamed(r);
	report_free(r);
	return tap_done();
}
