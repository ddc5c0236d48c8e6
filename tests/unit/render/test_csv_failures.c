/*
 * The CSV's per-cell columns (reports/render/write_csv.c, issue 35):
 * "geomean" holds the geometric mean every table shows first, not the
 * median; "failures" counts each cell's own failed and timed-out runs
 * by status and stored reason, as the findings group them. A report
 * built by hand, the expected rows written out by hand:
 *
 *   x=a: 2 runs failed "connect failed: Connection refused", 1 failed
 *        and 1 timed out with no reason stored (a store made by hand or
 *        by an older xrun): "2x connect failed: Connection refused;
 *        1x failed; 1x timeout" (a timeout is not a failure of the same
 *        empty reason);
 *   x=b: 2 ok runs (100 and 112 Mbit/s) and 2 failed "connect failed:
 *        Connection refused": "2x connect failed: Connection refused",
 *        its own 2, not the 4 of both cells; geomean sqrt(100e6 x 112e6)
 *        = 105830052.4 (python3: math.sqrt(100e6 * 112e6)), median 106e6.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"
#include "tap.h"
#include "banned.h"

static const char *metrics[] = {"throughput"};
static const char *units[] = {"bit/s"};
static const char *lv[] = {"a", "b"};
static const int lv0[] = {0}, lv1[] = {1};

/* Field k (0-based) of the row starting with "t,LEVEL,", or "". */
static const char *field_of(const char *csv, const char *level, int k,
			    char *out, size_t n)
{
	char start[32];
	const char *p, *e;
	snprintf(start, sizeof start, "\nt,%s,", level);
	out[0] = '\0';
	if (!(p = strstr(csv, start)))
		return out;
	p++;
	while (k-- > 0 && p && (p = strchr(p, ',')))
		p++;
	if (!p)
		return out;
	e = p + strcspn(p, ",\r\n");
	snprintf(out, n, "%.*s", (int)(e - p), p);
	return out;
}

int main(void)
{
	struct report_factor fac[] = {{"x", lv, 2, 0, 0}};
	struct report_stats st[2];
	struct report_cell cells[2];
	struct report_run runs[8];
	double none = NAN, v100 = 100e6, v112 = 112e6;
	struct report r;
	struct xr_err err = {0};
	static const char head[] =
	    "plan,x,metric,unit,n,runs,failed,timeout,geomean,geomean_low,"
	    "geomean_high,median,";
	char *text = NULL, f[256];
	size_t len = 0;
	FILE *out;
	int i;

	memset(&r, 0, sizeof r);
	memset(st, 0, sizeof st);
	memset(cells, 0, sizeof cells);
	memset(runs, 0, sizeof runs);
	for (i = 0; i < 2; i++) {
		st[i].metric = "throughput";
		st[i].unit = "bit/s";
		st[i].median = st[i].mean = st[i].sd = st[i].cv_pct = NAN;
		st[i].min = st[i].max = st[i].ci_low = st[i].ci_high = NAN;
		st[i].iv_p95 = st[i].iv_peak = NAN;
		st[i].gm = st[i].gm_low = st[i].gm_high = NAN;
		st[i].med_low = st[i].med_high = NAN;
		cells[i].index = i;
		cells[i].lv = i ? lv1 : lv0;
		cells[i].json = "{}";
		cells[i].label = i ? "x=b" : "x=a";
		cells[i].st = &st[i];
		cells[i].n_runs = 4;
	}
	st[1].n = 2;
	st[1].gm = 105830052.4;
	st[1].median = 106e6;
	cells[0].n_failed = 3, cells[0].n_timeout = 1;
	cells[1].n_failed = 2, cells[1].n_ok = 2;
	for (i = 0; i < 8; i++) {
		runs[i].id = i + 1;
		runs[i].cell = i / 4;
		runs[i].status = "failed";
		runs[i].vals = &none;
	}
	runs[0].reason = runs[1].reason = "connect failed: Connection refused";
	runs[3].status = "timeout"; /* runs 2 and 3: no reason */
	runs[4].status = runs[6].status = "ok";
	runs[4].ok = runs[6].ok = 1;
	runs[4].vals = &v100;
	runs[6].vals = &v112;
	runs[5].reason = runs[7].reason = "connect failed: Connection refused";

	r.about.lang = REPORT_LANG_EN;
	r.about.plan_name = "t";
	r.met.metric = "throughput";
	r.met.metrics = metrics;
	r.met.metric_units = units;
	r.met.nmetrics = 1;
	r.factors = fac;
	r.nfactors = 1;
	r.cells = cells;
	r.ncells = 2;
	r.runs = runs;
	r.nruns = 8;

	out = open_memstream(&text, &len);
	ok(out && report_write_csv(&r, out, &err) == 0, "the csv written");
	if (out)
		fclose(out);
	if (!text)
		text = strdup("");
	/* plan, x, metric, unit, n, runs, failed, timeout, geomean (8),
	 * ..., median (11), ..., failures (23: the 22 columns of
	 * report_write_csv after plan and x) */
	ok(!strncmp(text, head, strlen(head)) &&
	       strstr(text, ",flags,failures\r\n"),
	   "the columns: geomean 8th from 0, median 11th, failures last");
	is_str(field_of(text, "a", 23, f, sizeof f),
	       "2x connect failed: Connection refused; 1x failed; 1x timeout",
	       "x=a: by status and reason, the timeout apart");
	is_str(field_of(text, "b", 23, f, sizeof f),
	       "2x connect failed: Connection refused",
	       "x=b: its own 2 refused runs");
	is_str(field_of(text, "b", 8, f, sizeof f), "105830052.4",
	       "x=b's geomean column: the geometric mean");
	is_str(field_of(text, "b", 11, f, sizeof f), "106000000",
	       "x=b's median column: the median");
	free(text);
	return tap_done();
}
