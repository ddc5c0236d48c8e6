/*
 * A reference's units and its rows that name no setting (issue 34,
 * schema/reference.md "Units" and "Verdicts"), on a constructed report
 * model: the values' unit from a header `value (Mbit/s)` or `value(Mbit/s)`,
 * an extra column's unit from its header (`latency.loaded_p50 (ms)`), the
 * power-of-1000 warning for a ratio 1.5x off an exact power, and a row that
 * does not name a never-verified single-level setting judged on its numbers.
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

/* A model with factors queue {200ms} (a setting: an apply hook, never
 * verified: 0 of 4 ok runs checked) and cc {x, y}; two cells, 4 ok runs
 * each; metrics throughput (bit/s, medians 9 and 10 Gbit/s, intervals
 * +-0.05) and latency.loaded_p50 (s, median 47 ms, [46, 48] ms). */
static struct report *model(void)
{
	static const char *queue[] = {"200ms"}, *cc[] = {"x", "y"};
	static const char *metrics[] = {"throughput", "latency.loaded_p50"};
	static const char *units[] = {"bit/s", "s"};
	static const int lv[2][2] = {{0, 0}, {0, 1}};
	static const struct report_cverify never[2] = {{0, 0, NULL, NULL},
						       {0, 0, NULL, NULL}};
	struct report *r = calloc(1, sizeof *r);
	int k;
	r->arena = arena_new();
	r->factors = arena_alloc(r->arena, 2 * sizeof *r->factors);
	memset(r->factors, 0, 2 * sizeof *r->factors);
	r->factors[0].name = "queue";
	r->factors[0].levels = queue;
	r->factors[0].nlevels = 1;
	r->factors[0].setting = 1;
	r->factors[1].name = "cc";
	r->factors[1].levels = cc;
	r->factors[1].nlevels = 2;
	r->nfactors = 2;
	r->met.metrics = metrics;
	r->met.metric_units = units;
	r->met.nmetrics = 2;
	r->met.primary = 0;
	r->met.metric = "throughput";
	r->met.display_unit = "Gbit/s";
	r->met.display_scale = 1e9;
	r->ncells = 2;
	r->cells = arena_alloc(r->arena, 2 * sizeof *r->cells);
	memset(r->cells, 0, 2 * sizeof *r->cells);
	for (k = 0; k < 2; k++) {
		struct report_cell *c = &r->cells[k];
		struct report_stats *st = arena_alloc(r->arena, 2 * sizeof *st);
		double g = 9.0 + k; /* Gbit/s */
		memset(st, 0, 2 * sizeof *st);
		c->index = k;
		c->lv = lv[k];
		c->n_ok = 4;
		c->ver = never;
		st[0].n = 4;
		st[0].median = g * 1e9;
		st[0].min = (g - 0.1) * 1e9;
		st[0].max = (g + 0.1) * 1e9;
		st[0].ci_low = (g - 0.05) * 1e9;
		st[0].ci_high = (g + 0.05) * 1e9;
		st[1].n = 4;
		st[1].median = 0.047;
		st[1].min = 0.045;
		st[1].max = 0.049;
		st[1].ci_low = 0.046;
		st[1].ci_high = 0.048;
		c->st = st;
	}
	return r;
}

/* Attach text to a fresh model; the diagnostics joined in out ("LINE:COL:
 * warning|error: MSG\n" each). The model is returned (free it). */
static struct report *attach(const char *text, int *rc, char *out, size_t n)
{
	struct report *r = model();
	struct xr_diag d;
	struct xr_err err = {0};
	char path[64];
	size_t i, len = 0;
	FILE *f;
	snprintf(path, sizeof path, "/tmp/xrun-refcu-%d.csv", (int)getpid());
	f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
	xr_diag_init(&d, path);
	*rc = report_reference_attach(r, path, &d, &err);
	out[0] = 0;
	for (i = 0; i < d.n && len < n; i++)
		len += (size_t)snprintf(
		    out + len, n - len, "%d:%d: %s: %s\n", d.items[i].line,
		    d.items[i].col, d.items[i].is_warning ? "warning" : "error",
		    d.items[i].msg);
	if (*rc < 0 && len < n)
		snprintf(out + len, n - len, "attach: %.200s\n", err.msg);
	xr_diag_release(&d);
	unlink(path);
	return r;
}

static double published(const struct report *r, int row, int slot)
{
	return r->ref && r->ref->nrows > row
		   ? r->ref->rows[row].v[slot].published
		   : NAN;
}

/* The values' unit in the value column's header: "value (Mbit/s)" and,
 * with no blank, "value(Mbit/s)" and "value[Mbit/s]". 9000 Mbit/s is
 * 9000 x 10^6 = 9e9 bit/s (by hand), the measured median of cc=x: the row
 * reproduced (9e9 within [8.95e9, 9.05e9]). Read as Gbit/s (the display
 * unit, what a dropped header unit gives) it would be 9e12. */
static void test_value_header_unit(void)
{
	static const char *const heads[] = {"value (Mbit/s)", "value(Mbit/s)",
					    "value[Mbit/s]"};
	char text[256], msg[1024], name[128];
	size_t i;
	int rc;
	for (i = 0; i < sizeof heads / sizeof *heads; i++) {
		struct report *r;
		snprintf(text, sizeof text, "queue,cc,%s\n200ms,x,9000\n",
			 heads[i]);
		r = attach(text, &rc, msg, sizeof msg);
		snprintf(name, sizeof name, "header '%s': read, no diagnostics",
			 heads[i]);
		ok(rc == 0 && !*msg, "%s (%s)", name, msg);
		ok(fabs(published(r, 0, 0) - 9e9) < 1,
		   "header '%s': 9000 read as 9e9 bit/s (got %g)", heads[i],
		   published(r, 0, 0));
		snprintf(name, sizeof name,
			 "header '%s': the row names queue, never verified",
			 heads[i]);
		is_str(r->ref && r->ref->nrows == 1
			   ? report_ref_verdict_name(r->ref->rows[0].verdict)
			   : "(no row)",
		       "not_verified", name);
		report_free(r);
	}
}

/* An extra column's unit in its header: "latency.loaded_p50 (ms)" with
 * 47 is 47 x 10^-3 = 0.047 s (the metric is stored in s), the measured
 * median: no power-of-1000 warning. Read without its unit: 47 s, 10^3
 * times the measured 0.047 s. */
static void test_column_header_unit(void)
{
	char msg[1024];
	int rc;
	struct report *r = attach("unit,Gbit/s\n"
				  "cc,value,latency.loaded_p50 (ms)\n"
				  "x,9,47\n",
				  &rc, msg, sizeof msg);
	is_int(rc, 0, "latency column in ms: read");
	is_str(msg, "", "latency column in ms: no diagnostics");
	ok(fabs(published(r, 0, 1) - 0.047) < 1e-12,
	   "latency.loaded_p50 (ms) 47 read as 0.047 s (got %g)",
	   published(r, 0, 1));
	ok(fabs(published(r, 0, 0) - 9e9) < 1, "value 9 Gbit/s read as 9e9");
	report_free(r);
}

/* A published value 1.5x off an exact power of 1000: 6000 read as Gbit/s
 * (no unit) is 6e12 bit/s against the measured 9e9 bit/s of cc=x, a ratio
 * measured / published of 9e9 / 6e12 = 1.5e-3 (python3: log10 = -2.824,
 * within log10(2) = 0.301 of -3): near 1000^-1, so it warns, 10^3, with
 * the unit that fits (Gbit/s x 1000^-1 = Mbit/s), at line 2 column 9
 * (the 6000 after "200ms,x,"). */
static void test_scale_near_power(void)
{
	char msg[1024];
	int rc;
	struct report *r =
	    attach("queue,cc,value\n200ms,x,6000\n", &rc, msg, sizeof msg);
	is_int(rc, 0, "6000 Gbit/s against 9: read");
	is_str(msg,
	       "2:9: warning: column 'value': published 6e+12 bit/s is 10^3 "
	       "times the measured median 9e+09 bit/s of queue=200ms, cc=x "
	       "(1 of 1 published cells off by a power of 1000): written in "
	       "Mbit/s? say 'unit,Mbit/s' or head it 'value (Mbit/s)'\n",
	       "a ratio of 1.5e-3 warns as 10^3 off, at its row");
	report_free(r);
}

/* No verdict on what did not run applies to the settings a row names
 * (schema/reference.md, "Verdicts"): queue has one level, set by a hook
 * never verified in 4 of 4 runs. A row naming queue is not_verified; rows
 * naming only cc are judged on their numbers: 9 and 10 Gbit/s against
 * medians 9 and 10 (intervals +-0.05): reproduced, 2 of 2. */
static void test_row_not_naming_setting(void)
{
	char msg[1024];
	int rc;
	struct report *r =
	    attach("unit,Gbit/s\ncc,value\nx,9\ny,10\n", &rc, msg, sizeof msg);
	is_int(rc, 0, "rows naming cc only: read");
	if (!r->ref || r->ref->nrows != 2) {
		ok(0, "two rows");
		report_free(r);
		return;
	}
	is_str(report_ref_verdict_name(r->ref->rows[0].verdict), "reproduced",
	       "cc=x, queue not named: reproduced");
	is_str(report_ref_verdict_name(r->ref->rows[1].verdict), "reproduced",
	       "cc=y, queue not named: reproduced");
	is_str(r->ref->summary, "2 of 2 published cells reproduced within ±5%",
	       "summary: 2 of 2 reproduced");
	report_free(r);
	r = attach("unit,Gbit/s\nqueue,cc,value\n200ms,x,9\n", &rc, msg,
		   sizeof msg);
	is_str(r->ref && r->ref->nrows == 1
		   ? report_ref_verdict_name(r->ref->rows[0].verdict)
		   : "(no row)",
	       "not_verified", "queue named: not_verified");
	is_str(r->ref && r->ref->nrows == 1 ? r->ref->rows[0].reasons : "",
	       "queue: 4 of 4 runs (no verify declared)",
	       "queue named: the reason in runs");
	report_free(r);
}

int main(void)
{
	tap_plan(21);
	test_value_header_unit();
	test_column_header_unit();
	test_scale_near_power();
	test_row_not_naming_setting();
	return tap_done();
}
