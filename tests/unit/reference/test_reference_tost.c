/* A reference's equivalence test (reports/reference/reference_verdict.c
 * judge_tost) on a model of one cell whose runs are given: the
 * publication's three runs 9.0, 9.1, 9.2 Gbit/s against measured ones,
 * tolerance 3%. Expected values from python3 with mpmath (no scipy):
 * Welch's statistic on the natural logs, df by Welch-Satterthwaite, the
 * 90% interval est -+ t(0.95, df) se with Student's t from mpmath.betainc
 * (the CDF) and findroot (the quantile), p = max of the two one-sided
 * tests against log(0.97) and log(1.03); est, lo and hi are the
 * published mean 9.1 times exp() of the log values:
 *   9.25 9.35 9.45 9.55: est 9.3997134326592144, 90% interval
 *     [9.2236891969930872, 9.5790969024539098], p 0.61336304004638568:
 *     the interval straddles 9.1 * 1.03 = 9.373 (its log 0.0295588 lies
 *     in [0.0135007, 0.0513089]): inconclusive, though the estimate is
 *     3.29% above (outside the tolerance);
 *   9.5 9.6 9.7 9.8: [9.4712360669478615, 9.8316096688169419] wholly
 *     above: differs, 6.0% above;
 *   9.05 9.1 9.15 9.2: p 0.015256374264542892 < 0.05: reproduced.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arena.h"
#include "reference.h"
#include "tap.h"

static struct report *model(const double *gbps, int n)
{
	static const char *nic[] = {"a"};
	static const char *metrics[] = {"throughput"};
	static const char *units[] = {"bit/s"};
	static const int lv[1] = {0};
	struct report *r = calloc(1, sizeof *r);
	struct report_stats *st;
	double *x, **vals;
	r->arena = arena_new();
	r->factors = arena_alloc(r->arena, sizeof *r->factors);
	memset(r->factors, 0, sizeof *r->factors);
	r->factors[0].name = "nic";
	r->factors[0].levels = nic;
	r->factors[0].nlevels = 1;
	r->nfactors = 1;
	r->met.metrics = metrics;
	r->met.metric_units = units;
	r->met.nmetrics = 1;
	r->met.primary = 0;
	r->met.metric = "throughput";
	r->met.display_unit = "Gbit/s";
	r->met.display_scale = 1e9;
	r->ncells = 1;
	r->cells = arena_alloc(r->arena, sizeof *r->cells);
	memset(r->cells, 0, sizeof *r->cells);
	st = arena_alloc(r->arena, sizeof *st);
	memset(st, 0, sizeof *st);
	x = arena_alloc(r->arena, (size_t)n * sizeof *x);
	vals = arena_alloc(r->arena, sizeof *vals);
	for (int i = 0; i < n; i++)
		x[i] = gbps[i] * 1e9;
	vals[0] = x;
	st->n = n;
	st->median = st->mean = x[n / 2];
	st->min = x[0];
	st->max = x[n - 1];
	st->ci_low = st->ci_high = NAN;
	r->cells[0].lv = lv;
	r->cells[0].st = st;
	r->cells[0].vals = (const double *const *)vals;
	r->cells[0].nvals = n;
	return r;
}

static const char *file =
    "format,2\nunit,Gbit/s\nstatistic,mean\ntolerance,3%\n"
    "nic,value\na,9.0\na,9.1\na,9.2\n";

/* The row of file against measured runs, or NULL. */
static const struct report_ref_row *judge(struct report **rp,
					  const double *gbps, int n)
{
	char path[64];
	struct xr_diag d;
	struct xr_err err = {0};
	FILE *f;
	int rc;
	*rp = model(gbps, n);
	snprintf(path, sizeof path, "/tmp/xrun-tost-%d.csv", (int)getpid());
	if (!(f = fopen(path, "w")))
		return NULL;
	fputs(file, f);
	fclose(f);
	xr_diag_init(&d, path);
	rc = report_reference_attach(*rp, path, &d, &err);
	xr_diag_release(&d);
	unlink(path);
	if (rc < 0 || !(*rp)->ref || (*rp)->ref->nrows != 1) {
		fprintf(stderr, "# attach: %d %s\n", rc, err.msg);
		return NULL;
	}
	return &(*rp)->ref->rows[0];
}

int main(void)
{
	static const double straddle[] = {9.25, 9.35, 9.45, 9.55};
	static const double above[] = {9.5, 9.6, 9.7, 9.8};
	static const double same[] = {9.05, 9.1, 9.15, 9.2};
	const struct report_ref_row *w;
	struct report *r;

	tap_plan(14);
	w = judge(&r, straddle, 4);
	ok(w && w->npub == 3 && w->method && !strcmp(w->method, "tost"),
	   "three published runs: TOST");
	ok(w && w->verdict == REPORT_REFV_INCONCLUSIVE,
	   "an interval straddling +3%%: inconclusive (verdict %d)",
	   w ? (int)w->verdict : -1);
	ok(w && w->reasons && !strcmp(w->reasons, "the interval crosses ±3%"),
	   "why: %s", w ? w->reasons : "");
	is_near(w ? w->est : NAN, 9.3997134326592144e9, 1e-3, "estimate");
	is_near(w ? w->lo : NAN, 9.2236891969930872e9, 1e-3, "90%% low");
	is_near(w ? w->hi : NAN, 9.5790969024539098e9, 1e-3, "90%% high");
	is_near(w ? w->p : NAN, 0.61336304004638568, 1e-9, "p");
	is_near(w ? w->diff_pct : NAN, 3.2935542050463163, 1e-9,
		"3.29%% above: the estimate outside the tolerance");
	report_free(r);

	w = judge(&r, above, 4);
	ok(w && w->verdict == REPORT_REFV_DIFFERS && w->reasons &&
	       !strcmp(w->reasons, "6.0% above"),
	   "wholly above +3%%: differs, %s", w ? w->reasons : "");
	is_near(w ? w->lo : NAN, 9.4712360669478615e9, 1e-3, "90%% low");
	is_near(w ? w->hi : NAN, 9.8316096688169419e9, 1e-3, "90%% high");
	report_free(r);

	w = judge(&r, same, 4);
	ok(w && w->verdict == REPORT_REFV_REPRODUCED,
	   "within +-3%% (p < 0.05): reproduced");
	is_near(w ? w->p : NAN, 0.015256374264542892, 1e-9, "p");
	is_near(w ? w->est : NAN, 9.1251960928257613e9, 1e-3, "estimate");
	report_free(r);
	return tap_done();
}
