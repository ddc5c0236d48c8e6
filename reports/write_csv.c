/*
 * The CSV writer (RFC 4180): one row per cell and metric with every
 * statistic, one column per factor, values in base units (bit/s, s, B) so
 * that spreadsheets can compute on them; flags as their codes.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report.h"
#include "banned.h"

static void field(FILE *f, const char *s, int first)
{
	if (!first)
		fputc(',', f);
	if (!s)
		return;
	if (strpbrk(s, ",\"\r\n")) {
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	} else {
		fputs(s, f);
	}
}

static void num(FILE *f, double v)
{
	fputc(',', f);
	if (!isnan(v) && !isinf(v))
		fprintf(f, "%.10g", v);
}

int report_write_csv(const struct report *r, FILE *f, struct xr_err *err)
{
	static const char *const cols[] = {
	    "metric",	    "unit",	     "n",      "runs",	  "failed",
	    "timeout",	    "median",	     "mean",   "stdev",	  "cv_pct",
	    "min",	    "max",	     "ci_low", "ci_high", "interval_n",
	    "interval_p95", "interval_peak", "flags",
	};
	size_t i;
	int k, m, fa;
	field(f, "plan", 1);
	for (fa = 0; fa < r->nfactors; fa++)
		field(f, r->factors[fa].name, 0);
	for (i = 0; i < sizeof cols / sizeof *cols; i++)
		field(f, cols[i], 0);
	fputs("\r\n", f);
	for (k = 0; k < r->ncells; k++) {
		const struct report_cell *c = &r->cells[k];
		for (m = 0; m < r->nmetrics; m++) {
			const struct report_stats *s = &c->st[m];
			char n[32];
			int j;
			field(f, r->plan_name, 1);
			for (fa = 0; fa < r->nfactors; fa++)
				field(f,
				      c->lv[fa] >= 0
					  ? r->factors[fa].levels[c->lv[fa]]
					  : "",
				      0);
			field(f, s->metric, 0);
			field(f, s->unit, 0);
			snprintf(n, sizeof n, "%d", s->n);
			field(f, n, 0);
			snprintf(n, sizeof n, "%d", c->n_runs);
			field(f, n, 0);
			snprintf(n, sizeof n, "%d", c->n_failed);
			field(f, n, 0);
			snprintf(n, sizeof n, "%d", c->n_timeout);
			field(f, n, 0);
			num(f, s->median);
			num(f, s->mean);
			num(f, s->sd);
			num(f, s->cv_pct);
			num(f, s->min);
			num(f, s->max);
			num(f, s->ci_low);
			num(f, s->ci_high);
			snprintf(n, sizeof n, "%d", s->n_intervals);
			field(f, n, 0);
			num(f, s->iv_p95);
			num(f, s->iv_peak);
			fputc(',', f);
			for (j = 0; j < c->nflags; j++)
				fprintf(
				    f, "%s%s", j ? ";" : "",
				    report_flag_code_name(c->flags[j].code));
			fputs("\r\n", f);
		}
	}
	if (fflush(f) != 0 || ferror(f))
		return xr_err_set(err, XR_EIO, NULL, 0, 0,
				  "cannot write the csv report");
	return 0;
}
