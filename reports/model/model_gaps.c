/*
 * Declared metrics without values (issue 35): a metric of the plan's
 * engine.metrics that no ok run of the sessions holds, why (no run ended
 * ok, the runs failed on extracting it, its series was not sampled on its
 * host or had no point in the engine's run) and the nearest names that
 * did get values (suggest_nearest). One answer for the three places that
 * say it: the end of `xrun run` (runner/cli/cmd_run.c), the report's
 * header and JSON, and `xrun report --metric NAME` (model.c). Read from
 * the store and the plan alone, so that the run can ask before any report
 * model exists.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model_int.h"
#include "arena.h"
#include "buf.h"
#include "err.h"
#include "plan.h"
#include "store.h"
#include "suggest.h"
#include "banned.h"

/* What the store holds of the sessions, read once for every metric. */
struct held {
	struct arena *a;
	const char **metrics; /* names of the ok runs' values */
	size_t nmetrics, capm;
	const char **shost, **sname; /* series sampled: host, name */
	size_t nseries, caps;
	int64_t ok, failed; /* runs: ok; failed or timed out */
};

static int grow(struct arena *a, const char ***v, size_t n, size_t *cap)
{
	const char **t;
	if (n < *cap)
		return 0;
	*cap = *cap ? 2 * *cap : 16;
	if (!(t = arena_alloc(a, *cap * sizeof *t)))
		return -XR_ENOMEM;
	if (n)
		memcpy(t, *v, n * sizeof *t);
	*v = t;
	return 0;
}

static int metric_seen(void *ctx, const struct store_name_count *c)
{
	struct held *h = ctx;
	if (grow(h->a, &h->metrics, h->nmetrics, &h->capm) < 0 ||
	    !(h->metrics[h->nmetrics] = arena_strdup(h->a, c->name)))
		return -XR_ENOMEM;
	h->nmetrics++;
	return 0;
}

static int series_seen(void *ctx, const struct store_name_count *c)
{
	struct held *h = ctx;
	size_t cap = h->caps;
	if (grow(h->a, &h->shost, h->nseries, &cap) < 0 ||
	    grow(h->a, &h->sname, h->nseries, &h->caps) < 0 ||
	    !(h->shost[h->nseries] = arena_strdup(h->a, c->host)) ||
	    !(h->sname[h->nseries] = arena_strdup(h->a, c->name)))
		return -XR_ENOMEM;
	h->nseries++;
	return 0;
}

/* Has the declared metric m a value in some ok run? */
static int has_values(const struct held *h, const struct plan_metric *m)
{
	size_t i;
	for (i = 0; i < h->nmetrics; i++)
		if (!strcmp(h->metrics[i], m->name))
			return 1;
	return 0;
}

/*
 * What the store holds: the metric names first, and the rest (run counts,
 * the series sampled: a scan of every run's series) only when a declared
 * metric has no value, so that a report of a plan whose metrics all have
 * values pays one query. 1 when some declared metric has none, else 0,
 * or a negative code.
 */
static int held_read(struct store *st, const struct plan *p,
		     const int64_t *sessions, size_t n, struct held *h,
		     struct xr_err *err)
{
	size_t i;
	int rc, k, missing = 0, series = 0;
	if ((rc = store_metric_names_each(st, sessions, n, metric_seen, h,
					  err)) < 0)
		goto fail;
	for (k = 0; k < p->engine.nmetrics; k++)
		if (!has_values(h, &p->engine.metrics[k])) {
			missing = 1;
			series |= p->engine.metrics[k].series != NULL;
		}
	if (!missing)
		return 0;
	for (i = 0; i < n; i++) {
		int64_t c[STORE_RUN_STATUSES] = {0};
		if ((rc = store_run_counts(st, sessions[i], c, err)) < 0)
			return rc;
		h->ok += c[RUN_OK];
		h->failed += c[RUN_FAILED] + c[RUN_TIMEOUT];
	}
	if (series && (rc = store_series_names_each(st, sessions, n,
						    series_seen, h, err)) < 0)
		goto fail;
	return 1;
fail:
	return rc == -XR_ENOMEM
		   ? xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory")
		   : rc;
}

/* The first failed or timed-out run's reason that starts with prefix
 * ("" any), and how many start with it. */
struct first_reason {
	struct arena *a;
	const char *prefix;
	const char *reason; /* after the prefix; NULL: none */
	int64_t n;
};

static int reason_seen(void *ctx, const struct store_run_row *r)
{
	struct first_reason *f = ctx;
	size_t lp = strlen(f->prefix);
	if (!r->reason || strncmp(r->reason, f->prefix, lp))
		return 0;
	if (!f->n++ && !(f->reason = arena_strdup(f->a, r->reason + lp)))
		return -XR_ENOMEM;
	return 0;
}

static int first_reason(struct store *st, const int64_t *sessions, size_t n,
			struct first_reason *f, struct xr_err *err)
{
	struct store_run_filter rf = {0};
	rf.sessions = sessions;
	rf.nsessions = n;
	rf.block = -1;
	rf.statuses =
	    STORE_STATUS_BIT(RUN_FAILED) | STORE_STATUS_BIT(RUN_TIMEOUT);
	rf.with_reason = 1;
	return store_runs_each(st, &rf, reason_seen, f, err);
}

/* The plan host a series metric's host names: the roles client and
 * server are the engine's hosts (runner/exec/series_metric.c). */
static const char *host_of(const struct plan *p, const char *h)
{
	if (h && !strcmp(h, "client"))
		return p->engine.client ? p->engine.client : "local";
	if (h && !strcmp(h, "server") && p->engine.server_host)
		return p->engine.server_host;
	return h;
}

/* Why series metric m has no values: g's why, host and nearest names. */
static int series_why(const struct held *h, const struct plan *p,
		      const struct plan_metric *m, struct report_gap *g)
{
	const char **there;
	const char *other = NULL;
	size_t i, n = 0;
	g->series = arena_strdup(h->a, m->series);
	g->host = host_of(p, m->host);
	if (!g->series || (g->host && !(g->host = arena_strdup(h->a, g->host))))
		return -XR_ENOMEM;
	if (!(there = arena_alloc(h->a, (h->nseries + 1) * sizeof *there)))
		return -XR_ENOMEM;
	for (i = 0; i < h->nseries; i++) {
		int on = !g->host || !strcmp(h->shost[i], g->host);
		if (!strcmp(h->sname[i], m->series)) {
			if (on) {
				g->why = REPORT_GAP_SERIES_EMPTY;
				g->host = h->shost[i];
				return 0;
			}
			other = other ? other : h->shost[i];
		}
		if (on)
			there[n++] = h->sname[i];
	}
	g->why = other	   ? REPORT_GAP_SERIES_ELSEWHERE
		 : g->host ? REPORT_GAP_SERIES_ABSENT
			   : REPORT_GAP_SERIES_ANY;
	g->detail = other;
	g->nnearest = (int)suggest_nearest(m->series, there, n, g->nearest,
					   REPORT_GAP_NEAREST);
	return 0;
}

/* Why extracted metric m has no values. */
static int extract_why(struct store *st, const int64_t *sessions, size_t n,
		       const struct held *h, const struct plan_metric *m,
		       struct report_gap *g, struct xr_err *err)
{
	struct first_reason f = {h->a, NULL, NULL, 0};
	int rc;
	if (h->ok) {
		g->why = REPORT_GAP_NOT_STORED;
	} else {
		/* engine_command.c: "metric 'NAME': why" */
		if (!(f.prefix = arena_printf(h->a, "metric '%s': ", m->name)))
			return -XR_ENOMEM;
		if ((rc = first_reason(st, sessions, n, &f, err)) < 0)
			return rc;
		g->why = f.n ? REPORT_GAP_EXTRACT : REPORT_GAP_NO_OK_RUN;
		g->nfailed = f.n ? f.n : h->failed;
		/* not on this metric: the first run's reason, whatever */
		if (!f.n) {
			f.prefix = "";
			if ((rc = first_reason(st, sessions, n, &f, err)) < 0)
				return rc;
		}
		g->detail = f.reason;
	}
	g->nnearest = (int)suggest_nearest(m->name, h->metrics, h->nmetrics,
					   g->nearest, REPORT_GAP_NEAREST);
	return 0;
}

/* Why m has no values, into g. */
static int gap_of(struct store *st, const int64_t *sessions, size_t n,
		  const struct held *h, const struct plan *p,
		  const struct plan_metric *m, struct report_gap *g,
		  struct xr_err *err)
{
	struct first_reason f = {h->a, "", NULL, 0};
	int rc;
	memset(g, 0, sizeof *g);
	/* the plan goes before the report model does: copies */
	if (!(g->metric = arena_strdup(h->a, m->name)))
		return -XR_ENOMEM;
	g->line = m->pos.line;
	g->col = m->pos.col;
	if (m->series && h->ok)
		return series_why(h, p, m, g);
	if (m->series) { /* nothing ran to its end: that first */
		if ((rc = first_reason(st, sessions, n, &f, err)) < 0)
			return rc;
		g->why = REPORT_GAP_NO_OK_RUN;
		g->detail = f.reason;
		g->nfailed = h->failed;
		return 0;
	}
	return extract_why(st, sessions, n, h, m, g, err);
}

int report_metric_gaps(struct store *st, const struct plan *p,
		       const int64_t *sessions, size_t n, struct arena *a,
		       struct report_gap **out, int *nout, struct xr_err *err)
{
	struct held h;
	struct report_gap *v;
	int k, rc, ng = 0;
	*out = NULL;
	*nout = 0;
	if (!p || !p->engine.nmetrics || !n)
		return 0;
	memset(&h, 0, sizeof h);
	h.a = a;
	if ((rc = held_read(st, p, sessions, n, &h, err)) <= 0)
		return rc;
	if (!h.ok && !h.failed) /* nothing ran yet: no gap to speak of */
		return 0;
	v = arena_alloc(a, (size_t)p->engine.nmetrics * sizeof *v);
	if (!v)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	for (k = 0; k < p->engine.nmetrics; k++) {
		const struct plan_metric *m = &p->engine.metrics[k];
		if (has_values(&h, m))
			continue;
		rc = gap_of(st, sessions, n, &h, p, m, &v[ng], err);
		if (rc == -XR_ENOMEM)
			return xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
					  "out of memory");
		if (rc < 0)
			return rc;
		ng++;
	}
	*out = v;
	*nout = ng;
	return 0;
}

static const char *const gap_codes[] = {
#define REPORT_GAP_NAME(id, name) name,
    REPORT_GAP_MAP(REPORT_GAP_NAME)
#undef REPORT_GAP_NAME
};

const char *report_gap_code(enum report_gap_why why)
{
	return (unsigned)why < sizeof gap_codes / sizeof *gap_codes
		   ? gap_codes[why]
		   : "unknown";
}

/* The why, without the nearest names. */
static char *why_text(enum report_lang lang, const struct report_gap *g,
		      struct arena *a)
{
#define TL(id) report_text_lang(lang, REPORT_T_##id)
	const char *host = g->host ? g->host : "";
	switch (g->why) {
	case REPORT_GAP_NO_OK_RUN:
		return g->detail
			   ? arena_printf(a, TL(GAP_NO_OK_RUN),
					  (long long)g->nfailed, g->detail)
			   : arena_printf(a, TL(GAP_NO_OK_RUN_BARE),
					  (long long)g->nfailed);
	case REPORT_GAP_EXTRACT:
		return arena_printf(a, TL(GAP_EXTRACT), (long long)g->nfailed,
				    g->detail ? g->detail : "");
	case REPORT_GAP_SERIES_ABSENT:
		return arena_printf(a, TL(GAP_SERIES_ABSENT), g->series, host);
	case REPORT_GAP_SERIES_ANY:
		return arena_printf(a, TL(GAP_SERIES_ANY), g->series);
	case REPORT_GAP_SERIES_ELSEWHERE:
		return arena_printf(a, TL(GAP_SERIES_ELSEWHERE), g->series,
				    g->detail ? g->detail : "", host);
	case REPORT_GAP_SERIES_EMPTY:
		return arena_printf(a, TL(GAP_SERIES_EMPTY), g->series, host);
	default:
		return arena_printf(a, "%s", TL(GAP_NOT_STORED));
	}
#undef TL
}

char *report_gap_why(enum report_lang lang, const struct report_gap *g,
		     struct arena *a)
{
	struct buf names = BUF_INIT;
	char *w = why_text(lang, g, a), *near, *s = NULL;
	int i;
	if (!w || !g->nnearest)
		return w;
	for (i = 0; i < g->nnearest; i++)
		buf_addf(&names, "%s%s", i ? ", " : "", g->nearest[i]);
	near =
	    names.truncated
		? NULL
		: arena_printf(a, report_text_lang(lang, REPORT_T_GAP_NEAREST),
			       names.s);
	if (near)
		s = arena_printf(a, "%s%s", w, near);
	buf_release(&names);
	return s;
}

char *report_gap_line(enum report_lang lang, const struct report_gap *g,
		      struct arena *a)
{
	char *w = report_gap_why(lang, g, a);
	return w ? arena_printf(a, report_text_lang(lang, REPORT_T_GAP_LINE),
				g->metric, g->line, g->col, w)
		 : NULL;
}
