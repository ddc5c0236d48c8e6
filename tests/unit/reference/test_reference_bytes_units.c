/*
 * A reference published in bytes a second against a metric stored in
 * bits a second (schema/reference.md "Units"; reports/reference/
 * reference_units.c, ref_unit_factor): each value is multiplied by the
 * unit's factor and by 8. On a constructed report model of two cells
 * (cc x and y; throughput stored in bit/s, medians 9 and 10 Gbit/s,
 * intervals +-0.05 Gbit/s). By hand:
 *   1125 MB/s = 1125 x 10^6 B/s x 8 = 9.0e9 bit/s (cc=x's median)
 *   1250 MB/s = 1250 x 10^6 x 8 = 1.0e10 bit/s (cc=y's median)
 * both within 5% of the median: "2 of 2 published cells reproduced
 * within ±5%". Divided by 8 instead (a B/s value taken for 64 times
 * less) 1125 MB/s would read 1.40625e8 bit/s, far from 9e9.
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

/* Two cells cc=x, cc=y, 4 ok runs each; throughput in bit/s. */
static struct report *model(void)
{
	static const char *cc[] = {"x", "y"};
	static const char *metrics[] = {"throughput"};
	static const char *units[] = {"bit/s"};
	static const int lv[2][1] = {{0}, {1}};
	struct report *r = calloc(1, sizeof *r);
	int k;
	r->arena = arena_new();
	r->factors = arena_alloc(r->arena, sizeof *r->factors);
	memset(r->factors, 0, sizeof *r->factors);
	r->factors[0].name = "cc";
	r->factors[0].levels = cc;
	r->factors[0].nlevels = 2;
	r->nfactors = 1;
	r->met.metrics = metrics;
	r->met.metric_units = units;
	r->met.nmetrics = 1;
	r->met.primary = 0;
	r->met.metric = "throughput";
	r->met.display_unit = "Gbit/s";
	r->met.display_scale = 1e9;
	r->ncells = 2;
	r->cells = arena_alloc(r->arena, 2 * sizeof *r->cells);
	memset(r->cells, 0, 2 * sizeof *r->cells);
	for (k = 0; k < 2; k++) {
		struct report_cell *c = &r->cells[k];
		struct report_stats *st = arena_alloc(r->arena, sizeof *st);
		double g = 9.0 + k; /* Gbit/s */
		memset(st, 0, sizeof *st);
		c->index = k;
		c->lv = lv[k];
		c->n_ok = 4;
		st->n = 4;
		st->median = g * 1e9;
		st->min = (g - 0.1) * 1e9;
		st->max = (g + 0.1) * 1e9;
		st->ci_low = (g - 0.05) * 1e9;
		st->ci_high = (g + 0.05) * 1e9;
		c->st = st;
	}
	return r;
}

static struct report *attach(const char *text, int *rc, char *out, size_t n)
{
	struct report *r = model();
	struct xr_diag d;
	struct xr_err err = {0};
	char path[64];
	size_t i, len = 0;
	FILE *f;
	snprintf(path, sizeof path, "/tmp/xrun-refbu-%d.csv", (int)getpid());
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

int main(void)
{
	char msg[1024];
	int rc;
	struct report *r;
	tap_plan(6);
	r = attach("unit,MB/s\ncc,value\nx,1125\ny,1250\n", &rc, msg,
		   sizeof msg);
	ok(rc == 0 && !*msg, "MB/s against bit/s: read, no diagnostics (%s)",
	   msg);
	if (!r->ref || r->ref->nrows != 2) {
		ok(0, "two rows");
		report_free(r);
		return tap_done();
	}
	ok(fabs(r->ref->rows[0].v[0].published - 9e9) < 1,
	   "1125 MB/s read as 1125e6 x 8 = 9e9 bit/s (got %g)",
	   r->ref->rows[0].v[0].published);
	ok(fabs(r->ref->rows[1].v[0].published - 1e10) < 1,
	   "1250 MB/s read as 1250e6 x 8 = 1e10 bit/s (got %g)",
	   r->ref->rows[1].v[0].published);
	is_str(report_ref_verdict_name(r->ref->rows[0].verdict), "reproduced",
	       "cc=x: 9e9 against the median 9e9: reproduced");
	is_str(report_ref_verdict_name(r->ref->rows[1].verdict), "reproduced",
	       "cc=y: 1e10 against the median 1e10: reproduced");
	is_str(r->ref->summary, "2 of 2 published cells reproduced within ±5%",
	       "summary: 2 of 2 reproduced");
	report_free(r);
	return tap_done();
}
