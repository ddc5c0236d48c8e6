/*
 * Per-cell statistics and flags of the report model: statistics of every
 * metric, drift, interval statistics, counter-based flags (drops, errors,
 * PAUSE frames, retransmits, capture), verification tallies, host facts,
 * and the display unit. Split from model.c, which loads sessions and
 * metrics and drives the build (cells and runs: model_cells.c).
 *
 * SPDX-License-Identifier: MIT
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "buf.h"
#include "counter_group.h"
#include "model_flag.h"
#include "model_loader.h"
#include "plan.h"
#include "stats.h"
#include "store.h"
#include "units.h"
#include "banned.h"

/* --- statistics ------------------------------------------------------- */

static void cell_stats(struct loader *l, int ci, int mi, double *tmp)
{
	struct report_stats *s = &l->m.r->cells[ci].st[mi];
	struct mcell *c = &l->m.mc[ci];
	int k, n = 0;
	s->metric = l->m.r->met.metrics[mi];
	s->unit = l->m.r->met.metric_units[mi];
	s->median = s->mean = s->sd = s->cv_pct = s->min = s->max = NAN;
	s->ci_low = s->ci_high = s->iv_p95 = s->iv_peak = NAN;
	s->gm = s->gm_low = s->gm_high = s->med_low = s->med_high = NAN;
	for (k = 0; k < c->nok; k++) {
		double v = l->m.vals[mi][c->ok[k]];
		if (!isnan(v))
			tmp[n++] = v;
	}
	s->n = n;
	if (!n)
		return;
	s->mean = tdist_mean(tmp, (size_t)n);
	s->sd = tdist_sd(tmp, (size_t)n);
	{
		struct stats_geomean g;
		struct stats_median_ci mc;
		if (n == 1 && tmp[0] > 0)
			s->gm = tmp[0];
		else if (stats_geomean_ci(tmp, (size_t)n, 0.95, &g) == 0) {
			s->gm = g.gm;
			s->gm_low = g.lo;
			s->gm_high = g.hi;
		}
		if (stats_median_ci(tmp, (size_t)n, 0.95, &mc) == 0) {
			s->med_low = mc.lo;
			s->med_high = mc.hi;
		}
	}
	stats_sort(tmp, (size_t)n);
	s->median = stats_quantile_sorted(tmp, (size_t)n, 0.5);
	s->min = tmp[0];
	s->max = tmp[n - 1];
	if (n >= 2) {
		double q = tdist_quantile(0.975, n - 1);
		double h = q * s->sd / sqrt((double)n);
		s->ci_low = s->mean - h;
		s->ci_high = s->mean + h;
		if (s->mean != 0)
			s->cv_pct = 100 * s->sd / fabs(s->mean);
	}
}

/* Drift: log(y) against run order inside the cell (every ok run);
 * flagged when the slope is significant and the fitted change from the
 * first to the last run exceeds the noise threshold. */
static void cell_drift(struct loader *l, int ci)
{
	struct mcell *c = &l->m.mc[ci];
	struct report *r = l->m.r;
	double *X = malloc(2 * ((size_t)c->nok + 1) * sizeof *X);
	double *y = malloc(((size_t)c->nok + 1) * sizeof *y);
	double beta[2], se[2], first = 0, last = 0;
	int k, n = 0;
	for (k = 0; X && y && k < c->nok; k++) {
		double v = l->m.vals[r->met.primary][c->ok[k]];
		if (!(v > 0))
			continue;
		X[2 * n] = 1;
		X[2 * n + 1] = l->m.runs[c->ok[k]].gpos;
		if (!n)
			first = X[1];
		last = X[2 * n + 1];
		y[n++] = log(v);
	}
	if (n >= 4 && stats_ols(X, (size_t)n, 2, y, beta, se, NULL) == 0 &&
	    se[1] > 0 && stats_t_p2(beta[1] / se[1], n - 2) < 0.05) {
		double change = 100 * expm1(beta[1] * (last - first));
		if (fabs(change) > 100 * r->met.threshold)
			model_flag(&l->m, r->cells[ci].flags,
				   &r->cells[ci].nflags, REPORT_FLAG_DRIFT,
				   MODEL_JA(&l->m)
				       ? "最初から最後の試行まで %+.1f%%"
				       : "%+.1f%% first to last run",
				   change);
	}
	free(X);
	free(y);
}

/* Outliers of the primary metric by the modified z score (median/MAD;
 * stats_outliers_mad) above the cut calibrated for the cell's n
 * (stats_outlier_cut: 5% of clean normal cells flagged at any n, where a
 * fixed 3.5 flagged 10-29%), on log values so that a halved and a
 * doubled run weigh alike, and farther than theta from the median. */

static void cell_outliers(struct loader *l, int ci)
{
	struct mcell *c = &l->m.mc[ci];
	struct report *r = l->m.r;
	double *y = malloc(((size_t)c->nok + 1) * sizeof *y), worst = 0;
	size_t *idx = malloc(((size_t)c->nok + 1) * sizeof *idx);
	double med = r->cells[ci].st[r->met.primary].median;
	long n = 0, k, nout, kept;
	for (k = 0; y && idx && k < c->nok; k++) {
		double v = l->m.vals[r->met.primary][c->ok[k]];
		if (v > 0)
			y[n++] = log(v);
	}
	nout = y && idx ? stats_outliers_mad(y, (size_t)n,
					     stats_outlier_cut((size_t)n), idx)
			: 0;
	/* A run within theta of the median is no outlier, whatever its
	 * score: with quantised values the MAD can be tiny. */
	for (k = 0, kept = 0; k < nout && med > 0; k++) {
		double d = 100 * expm1(y[idx[k]] - log(med));
		if (fabs(d) <= 100 * r->met.threshold)
			continue;
		kept++;
		if (fabs(d) > fabs(worst))
			worst = d;
	}
	nout = kept;
	if (nout > 0)
		model_flag(&l->m, r->cells[ci].flags, &r->cells[ci].nflags,
			   REPORT_FLAG_OUTLIER,
			   MODEL_JA(&l->m)
			       ? "%ld/%ld 回、中央値から最大 %+.0f%%"
			       : "%ld of %ld runs, up to %+.0f%% from the "
				 "median",
			   nout, n, worst);
	free(y);
	free(idx);
}

int loader_stats(struct loader *l, struct xr_err *err)
{
	struct report *r = l->m.r;
	double *tmp = malloc(((size_t)l->m.nruns + 1) * sizeof *tmp);
	int ci, mi;
	if (!tmp)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	for (ci = 0; ci < r->ncells; ci++) {
		struct report_cell *c = &r->cells[ci];
		struct report_stats *s;
		c->st = arena_alloc(l->m.a, (size_t)(r->met.nmetrics + 1) *
						sizeof *c->st);
		c->flags =
		    arena_alloc(l->m.a, REPORT_FLAG_COUNT * sizeof *c->flags);
		if (!c->st || !c->flags) {
			free(tmp);
			return xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
					  "out of memory");
		}
		for (mi = 0; mi < r->met.nmetrics; mi++)
			cell_stats(l, ci, mi, tmp);
		s = &c->st[r->met.primary];
		if (l->niv && l->niv[ci]) {
			stats_sort(l->iv[ci], (size_t)l->niv[ci]);
			s->n_intervals = l->niv[ci];
			s->iv_p95 = stats_quantile_sorted(
			    l->iv[ci], (size_t)l->niv[ci], 0.95);
			s->iv_peak = l->iv[ci][l->niv[ci] - 1];
		}
		if (c->n_failed || c->n_timeout)
			model_flag(&l->m, c->flags, &c->nflags,
				   REPORT_FLAG_FAILED_RUNS,
				   MODEL_JA(&l->m)
				       ? "失敗 %d、タイムアウト %d（%d 回中）"
				       : "%d failed, %d timed out of %d",
				   c->n_failed, c->n_timeout, c->n_runs);
		if (s->n < 3)
			model_flag(&l->m, c->flags, &c->nflags,
				   REPORT_FLAG_TOO_FEW_RUNS, "n=%d", s->n);
		if (!isnan(s->cv_pct) && s->cv_pct >= 10)
			model_flag(
			    &l->m, c->flags, &c->nflags, REPORT_FLAG_UNSTABLE,
			    MODEL_JA(&l->m) ? "変動係数 %.1f%%" : "CV %.1f%%",
			    s->cv_pct);
		cell_drift(l, ci);
		cell_outliers(l, ci);
	}
	free(tmp);
	return 0;
}

/* --- intervals and counters ------------------------------------------- */

/* The stored intervals of one run: the points of its engine.throughput
 * series (at each interval's end, like a sampled series) and, for the
 * report's throughput, values of its cell's interval statistics. */
static int interval_run(void *ctx, const struct store_interval_run *g)
{
	struct loader *l = ctx;
	int ri = loader_run_by_id(l, g->run_id);
	int ci;
	if (ri < 0)
		return 0; /* a run of another session, or a warm-up */
	if (loader_interval_points(l, ri, g->t_end, g->value, g->n) < 0)
		return loader_oom(l);
	if (l->m.runs[ri].status != RUN_OK || !l->iv)
		return 0;
	ci = l->m.runs[ri].cell;
	if ((size_t)l->niv[ci] + g->n > (size_t)l->capiv[ci]) {
		size_t cap = l->capiv[ci] ? (size_t)l->capiv[ci] : 64;
		double *t;
		while (cap < (size_t)l->niv[ci] + g->n)
			cap *= 2;
		if (cap > INT_MAX || !(t = realloc(l->iv[ci], cap * sizeof *t)))
			return loader_oom(l);
		l->iv[ci] = t;
		l->capiv[ci] = (int)cap;
	}
	memcpy(l->iv[ci] + l->niv[ci], g->value, g->n * sizeof *g->value);
	l->niv[ci] += (int)g->n;
	return 0;
}

int loader_intervals(struct loader *l, struct xr_err *err)
{
	struct report *r = l->m.r;
	/* the interval statistics are of the engine's primary metric */
	if (!strcmp(r->met.metric, "throughput")) {
		l->iv = calloc((size_t)r->ncells + 1, sizeof *l->iv);
		l->niv = calloc((size_t)r->ncells + 1, sizeof *l->niv);
		l->capiv = calloc((size_t)r->ncells + 1, sizeof *l->capiv);
		if (!l->iv || !l->niv || !l->capiv)
			return xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
					  "out of memory");
	}
	return store_intervals_each(l->st, interval_run, l, err);
}

static int contains(const char *s, const char *sub)
{
	return strstr(s, sub) != NULL;
}

/* Which flag a counter raises (0 = none; else code + 1). */
static int counter_code(const char *scope, const char *name)
{
	int sc = counter_scope_find(scope);
	if (sc == COUNTER_SCOPE_CAPTURE)
		return REPORT_FLAG_CAPTURE + 1;
	if (sc == COUNTER_SCOPE_TCP)
		return !strcmp(name, "RetransSegs")
			   ? REPORT_FLAG_RETRANSMITS + 1
			   : 0;
	if (sc != COUNTER_SCOPE_NIC && sc != COUNTER_SCOPE_ETHTOOL)
		return 0;
	if (contains(name, "pause") || contains(name, "flow_control") ||
	    contains(name, "xon") || contains(name, "xoff"))
		return REPORT_FLAG_PAUSE_FRAMES + 1;
	if (contains(name, "drop") || contains(name, "missed"))
		return REPORT_FLAG_RX_DROPS + 1;
	if (contains(name, "err"))
		return REPORT_FLAG_NIC_ERRORS + 1;
	return 0;
}

static int csum_add(struct loader *l, int cell, int code, const char *host,
		    const char *name, double v)
{
	int i;
	for (i = l->ncs - 1; i >= 0 && i >= l->ncs - 64; i--) {
		struct csum *c = &l->cs[i];
		if (c->cell == cell && c->code == code &&
		    !strcmp(c->host, host) && !strcmp(c->name, name)) {
			c->sum += v;
			return 0;
		}
	}
	for (i = 0; i < l->ncs; i++) {
		struct csum *c = &l->cs[i];
		if (c->cell == cell && c->code == code &&
		    !strcmp(c->host, host) && !strcmp(c->name, name)) {
			c->sum += v;
			return 0;
		}
	}
	if (l->ncs == l->capcs) {
		int cap = l->capcs ? 2 * l->capcs : 64;
		struct csum *t = realloc(l->cs, (size_t)cap * sizeof *t);
		if (!t)
			return -XR_ENOMEM;
		l->cs = t;
		l->capcs = cap;
	}
	l->cs[l->ncs].cell = cell;
	l->cs[l->ncs].code = code;
	l->cs[l->ncs].host = arena_strdup(l->m.a, host);
	l->cs[l->ncs].name = arena_strdup(l->m.a, name);
	l->cs[l->ncs].sum = v;
	l->ncs++;
	return 0;
}

/* Counters summed per cell, host and name: those that raise a flag. */
static int counter_row(void *ctx, const struct store_counter_sum *c)
{
	struct loader *l = ctx;
	int code, ci;
	if (!c->cell || !c->host || !c->scope || !c->name)
		return 0;
	code = counter_code(c->scope, c->name);
	if (!code)
		return 0;
	ci = loader_cell_find(l, c->cell);
	if (ci < 0)
		return 0;
	if (csum_add(l, ci, code - 1, c->host, c->name, c->sum) < 0)
		return loader_oom(l);
	return 0;
}

int loader_counters(struct loader *l, struct xr_err *err)
{
	struct report *r = l->m.r;
	int rc, i, mi;
	if ((rc = store_counter_sums_each(l->st, r->span.sessions,
					  (size_t)r->span.nsessions,
					  counter_row, l, err)) < 0)
		return rc;
	for (i = 0; i < l->ncs; i++) {
		struct csum *c = &l->cs[i];
		struct report_cell *cell = &r->cells[c->cell];
		if (c->code == REPORT_FLAG_CAPTURE)
			model_flag(&l->m, cell->flags, &cell->nflags, c->code,
				   MODEL_JA(&l->m) ? "%s（%s 上）" : "%s on %s",
				   c->name, c->host);
		else
			model_flag(&l->m, cell->flags, &cell->nflags, c->code,
				   MODEL_JA(&l->m) ? "%s=%.0f（%s 上）"
						   : "%s=%.0f on %s",
				   c->name, c->sum, c->host);
	}
	/* The engine's own retransmit count, when it is a metric. */
	for (mi = 0; mi < r->met.nmetrics; mi++)
		if (!strcmp(r->met.metrics[mi], "retransmits"))
			break;
	if (mi < r->met.nmetrics)
		for (i = 0; i < r->ncells; i++) {
			struct report_cell *c = &r->cells[i];
			struct mcell *m = &l->m.mc[i];
			double sum = 0;
			int k;
			for (k = 0; k < m->nok; k++) {
				double v = l->m.vals[mi][m->ok[k]];
				if (v > 0)
					sum += v;
			}
			if (sum > 0 && MODEL_JA(&l->m))
				model_flag(&l->m, c->flags, &c->nflags,
					   REPORT_FLAG_RETRANSMITS,
					   "%d 回の試行で再送 %.0f 回", m->nok,
					   sum);
			else if (sum > 0)
				model_flag(&l->m, c->flags, &c->nflags,
					   REPORT_FLAG_RETRANSMITS,
					   "%.0f retransmits in %d runs", sum,
					   m->nok);
		}
	return 0;
}

/* --- verifications and facts ------------------------------------------ */

/* Per (cell, factor) tallies of the ok runs' verifications. */
static int tally_row(void *ctx, const struct store_verify_tally *t)
{
	struct loader *l = ctx;
	struct report *r = l->m.r;
	struct report_cverify *v;
	int ci, f;
	if (!t->cell || !t->factor)
		return 0;
	ci = loader_cell_find(l, t->cell);
	f = loader_factor_find(l, t->factor);
	if (ci < 0 || f < 0 || f >= r->nfactors)
		return 0;
	v = &l->m.ver[ci * r->nfactors + f];
	v->checked += (int)t->count;
	if (!t->ok) {
		v->bad += (int)t->count;
		v->expected = arena_strdup(l->m.a, t->expected);
		v->actual = arena_strdup(l->m.a, t->actual);
	}
	return 0;
}

/* The appendix's summary: what was checked, where, and what was found. */
static int verif_row(void *ctx, const struct store_verify_group *g)
{
	struct loader *l = ctx;
	struct report *r = l->m.r;
	struct report_verif *v;
	if (r->nverifs >= MAX_VERIFS)
		return 1;
	if (r->nverifs == l->cap_verifs) {
		struct report_verif *t;
		int cap = l->cap_verifs ? 2 * l->cap_verifs : 16;
		t = arena_alloc(l->m.a, (size_t)cap * sizeof *t);
		if (!t)
			return loader_oom(l);
		if (r->nverifs)
			memcpy(t, r->verifs, (size_t)r->nverifs * sizeof *t);
		r->verifs = t;
		l->cap_verifs = cap;
	}
	v = &r->verifs[r->nverifs++];
	v->factor = arena_strdup(l->m.a, g->factor);
	v->host = arena_strdup(l->m.a, g->host);
	v->method = arena_strdup(l->m.a, g->method);
	v->expected = arena_strdup(l->m.a, g->expected);
	v->actual = arena_strdup(l->m.a, g->actual);
	v->ok = g->ok;
	v->count = (int)g->count;
	return 0;
}

int loader_verifications(struct loader *l, struct xr_err *err)
{
	struct report *r = l->m.r;
	size_t nv = (size_t)r->ncells * (size_t)(r->nfactors + 1) + 1;
	char text[512];
	int rc, ci, f;
	l->m.ver = arena_alloc(l->m.a, nv * sizeof *l->m.ver);
	if (!l->m.ver)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	memset(l->m.ver, 0, nv * sizeof *l->m.ver);
	if ((rc = store_verify_tallies_each(l->st, r->span.sessions,
					    (size_t)r->span.nsessions,
					    tally_row, l, err)) < 0)
		return rc;
	for (ci = 0; ci < r->ncells; ci++) {
		struct report_cell *c = &r->cells[ci];
		c->ver = &l->m.ver[ci * r->nfactors];
		for (f = 0; f < r->nfactors; f++)
			if (c->ver[f].bad)
				model_flag(&l->m, c->flags, &c->nflags,
					   REPORT_FLAG_VERIFY_FAILED, "%s",
					   report_cell_verify_text(
					       r, ci, f, 1, text, sizeof text));
	}
	/* The summary for the appendix. */
	return store_verify_groups_each(l->st, r->span.sessions,
					(size_t)r->span.nsessions, verif_row, l,
					err);
}

char *report_cell_verify_text(const struct report *r, int ci, int f, int bad,
			      char *out, size_t n)
{
	const struct report_cell *c = &r->cells[ci];
	const struct report_cverify *v = c->ver ? &c->ver[f] : NULL;
	int ja = r->about.lang == REPORT_LANG_JA;
	if (bad && v)
		snprintf(out, n,
			 ja ? "%s: %d/%d 回の試行で期待値 '%s'、実測値 '%s'"
			    : "%s: %d of %d runs, expected '%s', got '%s'",
			 r->factors[f].name, v->bad, c->n_ok,
			 v->expected ? v->expected : "",
			 v->actual ? v->actual : "");
	else if (r->factors[f].verify)
		snprintf(out, n,
			 ja ? "%s: %d/%d 回の試行（verify が実行されていない）"
			    : "%s: %d of %d runs (its verify did not run)",
			 r->factors[f].name, report_cell_unverified(r, ci, f),
			 c->n_ok);
	else
		snprintf(out, n,
			 ja ? "%s: %d/%d 回の試行（verify の指定なし）"
			    : "%s: %d of %d runs (no verify declared)",
			 r->factors[f].name, report_cell_unverified(r, ci, f),
			 c->n_ok);
	return out;
}

/* A host fact, and its host in r->hosts on first sight. Out of memory
 * ends the list (the facts are an appendix). */
static int fact_row(void *ctx, const struct store_fact_row *row)
{
	struct loader *l = ctx;
	struct report *r = l->m.r;
	struct report_fact *f;
	int i;
	if (r->nfacts == l->cap_facts) {
		struct report_fact *t;
		int cap = l->cap_facts ? 2 * l->cap_facts : 32;
		t = arena_alloc(l->m.a, (size_t)cap * sizeof *t);
		if (!t)
			return 1;
		if (r->nfacts)
			memcpy(t, r->facts, (size_t)r->nfacts * sizeof *t);
		r->facts = t;
		l->cap_facts = cap;
	}
	f = &r->facts[r->nfacts++];
	f->session = row->session_id;
	f->host = arena_strdup(l->m.a, row->host);
	f->key = arena_strdup(l->m.a, row->key);
	f->value = arena_strdup(l->m.a, row->value);
	if (!f->host)
		f->host = "";
	for (i = 0; i < r->span.nhosts; i++)
		if (!strcmp(r->span.hosts[i], f->host))
			return 0;
	if (r->span.nhosts == l->cap_hosts) {
		const char **t;
		int cap = l->cap_hosts ? 2 * l->cap_hosts : 8;
		t = arena_alloc(l->m.a, (size_t)cap * sizeof *t);
		if (!t)
			return 1;
		if (r->span.nhosts)
			memcpy(t, r->span.hosts,
			       (size_t)r->span.nhosts * sizeof *t);
		r->span.hosts = t;
		l->cap_hosts = cap;
	}
	r->span.hosts[r->span.nhosts++] = f->host;
	return 0;
}

int loader_facts(struct loader *l, struct xr_err *err)
{
	struct report *r = l->m.r;
	int rc, i;
	if ((rc = store_facts_each(l->st, r->span.sessions,
				   (size_t)r->span.nsessions, fact_row, l,
				   err)) < 0)
		return rc;
	/* A capture seen when the session started counts for its cells. */
	for (i = 0; i < r->nfacts; i++) {
		const struct report_fact *f = &r->facts[i];
		int ci;
		if (strcmp(f->key, "capture_running") || !f->value ||
		    !*f->value || !strcmp(f->value, "no") ||
		    !strcmp(f->value, "0") || !strcmp(f->value, "false"))
			continue;
		for (ci = 0; ci < r->ncells; ci++)
			if (l->m.mc[ci].session == f->session)
				model_flag(&l->m, r->cells[ci].flags,
					   &r->cells[ci].nflags,
					   REPORT_FLAG_CAPTURE,
					   MODEL_JA(&l->m) ? "%s（%s 上）"
							   : "%s on %s",
					   f->value, f->host);
	}
	return 0;
}

/* --- display unit ----------------------------------------------------- */

/* Was the metric declared in bytes (a file copy: `bytes:` or a B/s unit)?
 * Then it is shown in MB/s although it is stored in bit/s. */
static int declared_in_bytes(const struct plan *p, const char *metric)
{
	int i;
	for (i = 0; p && metric && i < p->engine.nmetrics; i++) {
		const struct plan_metric *pm = &p->engine.metrics[i];
		if (strcmp(pm->name, metric) != 0)
			continue;
		return pm->bytes > 0 || (pm->unit && strstr(pm->unit, "B/s") &&
					 !strstr(pm->unit, "bit"));
	}
	return 0;
}

int loader_display_unit(struct loader *l, struct xr_err *err)
{
	struct report *r = l->m.r;
	const char *base = r->met.metric_units[r->met.primary];
	const char *want = l->m.o->unit;
	double top = 0, factor;
	const char *ub;
	int i;
	if (!want && l->m.plan && l->m.plan->report.unit)
		want = l->m.plan->report.unit;
	if (!want && !strcmp(base, "bit/s") &&
	    declared_in_bytes(l->m.plan, r->met.metric))
		want = "MB/s";
	if (want) {
		double conv = 1;
		if (units_metric(want, &factor, &ub) < 0)
			return xr_err_set(err, XR_EUSAGE, NULL, 0, 0,
					  "unknown unit '%s' (valid: Gbit/s, "
					  "Mbit/s, MB/s, GB/s, ms, ...)",
					  want);
		if (!strcmp(ub, "B/s") && !strcmp(base, "bit/s"))
			conv = 8;
		else if (!strcmp(ub, "bit/s") && !strcmp(base, "B/s"))
			conv = 1.0 / 8;
		else if (strcmp(ub, base) && *base)
			return xr_err_set(err, XR_EUSAGE, NULL, 0, 0,
					  "unit '%s' does not fit metric '%s' "
					  "measured in %s",
					  want, r->met.metric, base);
		r->met.display_unit = arena_strdup(l->m.a, want);
		r->met.display_scale = factor * conv;
		return 0;
	}
	for (i = 0; i < r->ncells; i++) {
		double m = r->cells[i].st[r->met.primary].median;
		if (!isnan(m) && fabs(m) > top)
			top = fabs(m);
	}
	r->met.display_scale = 1;
	r->met.display_unit = *base ? base : "";
	if (!strcmp(base, "bit/s") || !strcmp(base, "B/s")) {
		static const char *const bits[] = {"bit/s", "kbit/s", "Mbit/s",
						   "Gbit/s", "Tbit/s"};
		static const char *const bytes[] = {"B/s", "kB/s", "MB/s",
						    "GB/s", "TB/s"};
		int k = 0;
		int is_bits = base[1] == 'i';
		/* Gbit/s for network rates from 1 Gbit/s, Mbit/s below;
		 * MB/s for byte rates up to 10 GB/s (file copies). */
		while (k < 4 && top >= 1000 * r->met.display_scale *
					   (is_bits || k < 2 ? 1 : 10))
			r->met.display_scale *= 1000, k++;
		r->met.display_unit = is_bits ? bits[k] : bytes[k];
	} else if (!strcmp(base, "s") && top > 0 && top < 1) {
		r->met.display_unit = "ms";
		r->met.display_scale = 1e-3;
	}
	return 0;
}
