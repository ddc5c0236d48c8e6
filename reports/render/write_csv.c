/*
 * The CSV writer (RFC 4180): one row per cell and metric with every
 * statistic, one column per factor, values in base units (bit/s, s, B) so
 * that spreadsheets can compute on them; flags as their codes. Text
 * fields go through esc_csv (escape.h): a level or name that a spreadsheet
 * would run as a formula ("=HYPERLINK(...)") gets a leading apostrophe
 * (schema/report.md, "CSV").
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "escape.h"
#include "render.h"
#include "banned.h"

/* A run that failed or timed out (the runs the failures column counts). */
static int failed(const struct report_run *u)
{
	return u->status &&
	       (!strcmp(u->status, "failed") || !strcmp(u->status, "timeout"));
}

/* The same status and stored reason. */
static int same(const struct report_run *x, const struct report_run *y)
{
	if (strcmp(x->status, y->status))
		return 0;
	return x->reason == y->reason ||
	       (x->reason && y->reason && !strcmp(x->reason, y->reason));
}

/* What the escaping replaced in the report being written. */
static struct esc_count csv_count;

static void field(FILE *f, const char *s, int first)
{
	struct buf b = BUF_INIT;
	if (!first)
		fputc(',', f);
	if (!s)
		return;
	esc_count_add(&csv_count, esc_csv(&b, s));
	if (b.len)
		fwrite(b.s, 1, b.len, f);
	buf_release(&b);
}

static void num(FILE *f, double v)
{
	fputc(',', f);
	if (!isnan(v) && !isinf(v))
		fprintf(f, "%.10g", v);
}

/* "failures": why cell ci's runs failed or timed out, each stored
 * reason once with its count ("3x connect: Connection refused; 1x ..."),
 * as the findings group them. */
static void failures(FILE *f, const struct report *r, int ci)
{
	struct buf b = BUF_INIT;
	int i, k, n;
	for (i = 0; i < r->nruns; i++) {
		const struct report_run *u = &r->runs[i], *v;
		const char *why;
		if (u->cell != ci || u->ok || !failed(u))
			continue;
		for (k = 0; k < i; k++) {
			v = &r->runs[k];
			if (v->cell == ci && !v->ok && failed(v) && same(v, u))
				break;
		}
		if (k < i)
			continue; /* counted with its first */
		for (n = 0, k = i; k < r->nruns; k++) {
			v = &r->runs[k];
			n += v->cell == ci && !v->ok && failed(v) && same(v, u);
		}
		why = u->reason && *u->reason ? u->reason : u->status;
		buf_addf(&b, "%s%dx %s", b.len ? "; " : "", n, why);
	}
	field(f, b.len ? b.s : "", 0);
	buf_release(&b);
}

/* The columns "metric" to "failures" of cell c (NULL: metric and unit, the
 * rest empty) for metric m. */
static void write_csv_stats_row(FILE *f, const struct report *r,
				const struct report_cell *c, int m)
{
	const struct report_stats *s = c ? &c->st[m] : NULL;
	char n[32];
	int j;
	field(f, s ? s->metric : r->met.metrics[m], 0);
	field(f, s ? s->unit : r->met.metric_units[m], 0);
	if (!s) {
		/* n runs failed timeout, 3 geomean, 8 statistics, 3
		 * interval, flags, failures */
		fputs(",,,,,,,,,,,,,,,,,,,,", f);
		return;
	}
	snprintf(n, sizeof n, "%d", s->n);
	field(f, n, 0);
	snprintf(n, sizeof n, "%d", c->n_runs);
	field(f, n, 0);
	snprintf(n, sizeof n, "%d", c->n_failed);
	field(f, n, 0);
	snprintf(n, sizeof n, "%d", c->n_timeout);
	field(f, n, 0);
	/* the estimator every table shows first */
	num(f, s->gm);
	num(f, s->gm_low);
	num(f, s->gm_high);
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
		fprintf(f, "%s%s", j ? ";" : "",
			report_flag_code_name(c->flags[j].code));
	failures(f, r, (int)(c - r->cells));
}

/* With --reference: one row per published value, after the cells. */
static void write_csv_reference_rows(FILE *f, const struct report *r)
{
	const struct report_ref *ref = r->ref;
	int k, j, fa, x;
	for (k = 0; k < ref->nrows; k++) {
		const struct report_ref_row *w = &ref->rows[k];
		const struct report_cell *c =
		    w->status == REPORT_REF_MATCHED ? &r->cells[w->cell] : NULL;
		for (j = 0; j < ref->nvalues; j++) {
			const struct report_ref_value *v = &w->v[j];
			char n[32];
			if (isnan(v->published))
				continue;
			field(f, r->about.plan_name, 1);
			for (fa = 0; fa < r->nfactors; fa++) {
				const char *lv = "";
				for (x = 0; x < ref->nfactors; x++)
					if (ref->factor_index[x] == fa)
						lv = w->levels[x];
				if (!*lv && c && c->lv[fa] >= 0)
					lv = r->factors[fa].levels[c->lv[fa]];
				field(f, lv, 0);
			}
			write_csv_stats_row(f, r, c, ref->value_metric[j]);
			field(f, "reference", 0);
			num(f, v->published);
			num(f, v->ratio);
			field(f,
			      v->in_range < 0 ? ""
			      : v->in_range   ? "yes"
					      : "no",
			      0);
			field(f, report_ref_status_name(w->status), 0);
			snprintf(n, sizeof n, "%d", w->line);
			field(f, n, 0);
			field(f,
			      j == 0 ? report_ref_verdict_name(w->verdict) : "",
			      0);
			snprintf(n, sizeof n, "%d", w->npub);
			field(f, j == 0 ? n : "", 0);
			field(f, j == 0 ? w->pub_text[0] : "", 0);
			fputs("\r\n", f);
		}
	}
}

int report_write_csv(const struct report *r, FILE *f, struct xr_err *err)
{
	static const char *const cols[] = {
	    "metric",	    "unit",	     "n",
	    "runs",	    "failed",	     "timeout",
	    "geomean",	    "geomean_low",   "geomean_high",
	    "median",	    "mean",	     "stdev",
	    "cv_pct",	    "min",	     "max",
	    "ci_low",	    "ci_high",	     "interval_n",
	    "interval_p95", "interval_peak", "flags",
	    "failures",
	};
	static const char *const refcols[] = {
	    "source",	   "published",	     "ratio",
	    "in_range",	   "ref_status",     "ref_line",
	    "ref_verdict", "published_runs", "published_text",
	};
	size_t i;
	int k, m, fa;
	memset(&csv_count, 0, sizeof csv_count);
	field(f, "plan", 1);
	for (fa = 0; fa < r->nfactors; fa++)
		field(f, r->factors[fa].name, 0);
	for (i = 0; i < sizeof cols / sizeof *cols; i++)
		field(f, cols[i], 0);
	if (r->ref)
		for (i = 0; i < sizeof refcols / sizeof *refcols; i++)
			field(f, refcols[i], 0);
	fputs("\r\n", f);
	for (k = 0; k < r->ncells; k++) {
		const struct report_cell *c = &r->cells[k];
		for (m = 0; m < r->met.nmetrics; m++) {
			field(f, r->about.plan_name, 1);
			for (fa = 0; fa < r->nfactors; fa++)
				field(f,
				      c->lv[fa] >= 0
					  ? r->factors[fa].levels[c->lv[fa]]
					  : "",
				      0);
			write_csv_stats_row(f, r, c, m);
			if (r->ref)
				fputs(",measured,,,,,,,,", f);
			fputs("\r\n", f);
		}
	}
	if (r->ref)
		write_csv_reference_rows(f, r);
	esc_warn(&csv_count, "csv", stderr);
	if (fflush(f) != 0 || ferror(f))
		return xr_err_set(err, XR_EIO, NULL, 0, 0,
				  "cannot write the csv report");
	return 0;
}

int report_write_runs_csv(const struct report *r, FILE *f, struct xr_err *err)
{
	static const char *const cols[] = {
	    "session",	"run_id", "rep",   "status", "started_at",
	    "ended_at", "metric", "value", "unit",
	};
	size_t i;
	int k, m, fa;
	memset(&csv_count, 0, sizeof csv_count);
	field(f, "plan", 1);
	for (fa = 0; fa < r->nfactors; fa++)
		field(f, r->factors[fa].name, 0);
	for (i = 0; i < sizeof cols / sizeof *cols; i++)
		field(f, cols[i], 0);
	fputs("\r\n", f);
	for (k = 0; k < r->nruns; k++) {
		const struct report_run *u = &r->runs[k];
		const struct report_cell *c = &r->cells[u->cell];
		int rows = 0;
		/* a run without a value (failed) still gets its row */
		for (m = 0; m < r->met.nmetrics || !rows; m++) {
			char n[32];
			int has = m < r->met.nmetrics && !isnan(u->vals[m]);
			if (m < r->met.nmetrics && !has)
				continue;
			field(f, r->about.plan_name, 1);
			for (fa = 0; fa < r->nfactors; fa++)
				field(f,
				      c->lv[fa] >= 0
					  ? r->factors[fa].levels[c->lv[fa]]
					  : "",
				      0);
			snprintf(n, sizeof n, "%lld", (long long)u->session);
			field(f, n, 0);
			snprintf(n, sizeof n, "%lld", (long long)u->id);
			field(f, n, 0);
			snprintf(n, sizeof n, "%d", u->rep);
			field(f, n, 0);
			field(f, u->status, 0);
			num(f, u->started_at);
			num(f, u->ended_at);
			field(f, has ? r->met.metrics[m] : "", 0);
			num(f, has ? u->vals[m] : NAN);
			field(f, has ? r->met.metric_units[m] : "", 0);
			fputs("\r\n", f);
			rows++;
		}
	}
	esc_warn(&csv_count, "csv", stderr);
	if (fflush(f) != 0 || ferror(f))
		return xr_err_set(err, XR_EIO, NULL, 0, 0,
				  "cannot write the runs csv");
	return 0;
}
