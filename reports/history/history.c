/*
 * The history of a plan's sessions (history.h): runs grouped by cell and
 * testbed and ordered by session, each session's geometric mean, the
 * change rule of reports/stats/changept.c at the level that holds the
 * family's false alarms to HISTORY_ALPHA (Bonferroni over the cells
 * tested), the facts that changed at each change, and the answer for the
 * latest session (schema/report.md, "History", has the reasoning and the
 * sources).
 *
 * SPDX-License-Identifier: MIT
 */
#include "history.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arena.h"
#include "buf.h"
#include "changept.h"
#include "report.h"
#include "stats.h"
#include "banned.h"

/* Facts that are no cause: the ones that name a machine rather than
 * describe its state (they say which testbed a session ran on), and the
 * plan's hash, which every host repeats and the cause "plan" says once. */
static const char *const identity_keys[] = {"hostname", "transport",
					    "plan_hash"};

struct sview {
	int64_t id;
	double t;
	const char *tb; /* testbed: the shard's, else the sessions' hosts */
};

static int sview_cmp(const void *a, const void *b)
{
	const struct sview *x = a, *y = b;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

static int chosen(const struct history_opts *o, const struct report_session *s)
{
	int i;
	if (o->since > 0 && !(s->started_at >= o->since))
		return 0;
	if (!o->sessions)
		return 1;
	for (i = 0; i < o->nsessions; i++)
		if (o->sessions[i] == s->id)
			return 1;
	return 0;
}

static int identity_key(const char *k)
{
	size_t i;
	for (i = 0; i < sizeof identity_keys / sizeof *identity_keys; i++)
		if (!strcmp(k, identity_keys[i]))
			return 1;
	return 0;
}

/* The value of fact (host, key) in session s; NULL when not recorded. */
static const char *fact_of(const struct report *r, int64_t s, const char *host,
			   const char *key)
{
	int i;
	for (i = 0; i < r->nfacts; i++) {
		const struct report_fact *f = &r->facts[i];
		if (f->session == s && !strcmp(f->host, host) &&
		    !strcmp(f->key, key))
			return f->value ? f->value : "";
	}
	return NULL;
}

/*
 * The value of fact (host, key) that cell ci's ok runs of session s held
 * under (their fact sets, read after each apply hook, manual step and
 * verify: schema/store.md): a factor that changes a fact within a session
 * gives each cell its own value, where the session's host facts hold the
 * last read. A run without a set (a store before version 13) falls back
 * on the session's; runs that disagree among themselves, or no run at
 * all, give the session's value too. NULL when not recorded.
 */
static const char *history_cell_fact(const struct report *r, int ci, int64_t s,
				     const char *host, const char *key)
{
	const char *v = NULL, *sv = fact_of(r, s, host, key);
	int n, k, any = 0;
	const int *runs = report_cell_runs(r, ci, &n);
	for (k = 0; k < n; k++) {
		const struct report_run *u = &r->runs[runs[k]];
		const char *x;
		int known;
		if (u->session != s || !u->ok)
			continue;
		x = report_run_fact(u, host, key, &known);
		if (!known)
			x = sv;
		if (any && (!x != !v || (x && strcmp(x, v))))
			return sv; /* the cell's runs differ: not one value */
		v = x;
		any = 1;
	}
	return any ? v : sv;
}

static const char *history_plan_hash_of(const struct report *r, int64_t s)
{
	int i;
	for (i = 0; i < r->span.nsessions; i++)
		if (r->span.session_info[i].id == s)
			return r->span.session_info[i].plan_hash;
	return NULL;
}

/*
 * The facts cell ci held under in session b that differ from session a
 * (history_cell_fact; every host and key session b recorded, the identity keys
 * left out, and the plan file's hash as key "plan"): into causes (when
 * not NULL, from the arena) and text. Returns how many.
 */
static int history_facts_diff(const struct report *r, struct arena *ar, int ci,
			      int64_t a, int64_t b,
			      struct history_cause **causes, struct buf *text)
{
	int i, n = 0, cap = 0;
	const char *pa = history_plan_hash_of(r, a),
		   *pb = history_plan_hash_of(r, b);
	struct history_cause *c = NULL;
	for (i = -1; i < r->nfacts; i++) {
		const char *host, *key, *va, *vb;
		if (i < 0) { /* the plan file: its settings */
			if (!pa || !pb || !strcmp(pa, pb))
				continue;
			host = "";
			key = "plan";
			va = pa;
			vb = pb;
		} else {
			const struct report_fact *f = &r->facts[i];
			if (f->session != b || identity_key(f->key))
				continue;
			host = f->host;
			key = f->key;
			vb = history_cell_fact(r, ci, b, host, key);
			va = history_cell_fact(r, ci, a, host, key);
			if (!va || !vb || !strcmp(va, vb))
				continue;
		}
		buf_addf(text, "%s%s%s%s: %s -> %s", text->len ? "; " : "", key,
			 host[0] ? " on " : "", host, va, vb);
		if (causes) {
			if (n == cap) {
				struct history_cause *t;
				cap = cap ? 2 * cap : 4;
				t = arena_alloc(ar, (size_t)cap * sizeof *t);
				if (!t)
					return -1;
				if (n)
					memcpy(t, c, (size_t)n * sizeof *t);
				c = t;
			}
			c[n].host = host;
			c[n].key = key;
			c[n].before = va;
			c[n].after = vb;
		}
		n++;
	}
	if (causes)
		*causes = c;
	return n;
}

/* Runs of cell c on testbed tb, log values by session (in sv order). */
struct series_buf {
	double *y;
	size_t *start; /* [nsess + 1] */
	int64_t *sid;  /* [nsess] the sessions that have values */
	double *t;     /* [nsess] their starts */
	size_t n, nsess;
};

static int gather(const struct report *r, int c, const struct sview *sv,
		  int nsv, const char *tb, struct series_buf *sb)
{
	int k, i;
	sb->n = sb->nsess = 0;
	for (k = 0; k < nsv; k++) {
		size_t before = sb->n;
		if (strcmp(sv[k].tb, tb))
			continue;
		for (i = 0; i < r->nruns; i++) {
			const struct report_run *u = &r->runs[i];
			double v;
			if (u->cell != c || !u->ok || u->session != sv[k].id)
				continue;
			v = u->vals ? u->vals[r->met.primary] : NAN;
			if (!(v > 0) || !isfinite(v))
				continue;
			sb->y[sb->n++] = log(v);
		}
		if (sb->n == before)
			continue;
		sb->start[sb->nsess] = before;
		sb->sid[sb->nsess] = sv[k].id;
		sb->t[sb->nsess] = sv[k].t;
		sb->nsess++;
	}
	sb->start[sb->nsess] = sb->n;
	return (int)sb->nsess;
}

/* Each session's geometric mean with its 95% interval. */
static int sessions_fill(const struct report *r, struct arena *a,
			 const struct series_buf *sb, struct history_cell *h)
{
	size_t k;
	struct buf b = BUF_INIT;
	h->s = arena_alloc(a, sb->nsess * sizeof *h->s);
	if (!h->s)
		return -1;
	h->ns = (int)sb->nsess;
	for (k = 0; k < sb->nsess; k++) {
		struct history_session *s = &h->s[k];
		size_t i, n = sb->start[k + 1] - sb->start[k];
		double m = 0, sd = 0, q;
		for (i = sb->start[k]; i < sb->start[k + 1]; i++)
			m += sb->y[i];
		m /= (double)n;
		for (i = sb->start[k]; i < sb->start[k + 1]; i++)
			sd += (sb->y[i] - m) * (sb->y[i] - m);
		s->session = sb->sid[k];
		s->started_at = sb->t[k];
		s->n = (int)n;
		s->value = exp(m);
		s->lo = s->hi = NAN;
		if (n >= 2) {
			sd = sqrt(sd / (double)(n - 1));
			q = tdist_quantile(0.975, (double)(n - 1)) * sd /
			    sqrt((double)n);
			s->lo = exp(m - q);
			s->hi = exp(m + q);
		}
		buf_reset(&b);
		if (k && history_facts_diff(r, a, h->cell, sb->sid[k - 1],
					    sb->sid[k], NULL, &b) < 0)
			return -1;
		s->changed = arena_strdup(a, b.len ? b.s : "");
		if (!s->changed)
			return -1;
	}
	buf_release(&b);
	return 0;
}

/* When no fact changed: the time of day, if the sessions ran at
 * different hours (the controller's load is in the runs' conditions). */
static const char *no_cause(struct arena *a, double ta, double tb)
{
	time_t x = (time_t)ta, y = (time_t)tb;
	struct tm ma, mb;
	if (!isfinite(ta) || !isfinite(tb) || !gmtime_r(&x, &ma) ||
	    !gmtime_r(&y, &mb) || ma.tm_hour == mb.tm_hour)
		return "no recorded fact changed";
	return arena_printf(a,
			    "no recorded fact changed; the sessions started "
			    "at %02d:%02d and %02d:%02d UTC",
			    ma.tm_hour, ma.tm_min, mb.tm_hour, mb.tm_min);
}

static int changes_fill(const struct report *r, struct arena *a,
			const struct changept_change *cc, size_t n,
			struct history_cell *h)
{
	size_t i;
	struct buf b = BUF_INIT;
	h->ch = arena_alloc(a, (n ? n : 1) * sizeof *h->ch);
	if (!h->ch)
		return -1;
	h->nch = (int)n;
	for (i = 0; i < n; i++) {
		struct history_change *c = &h->ch[i];
		int k = (int)cc[i].at;
		memset(c, 0, sizeof *c);
		c->at = k;
		c->session = h->s[k].session;
		c->dir = (cc[i].delta > 0) == (r->met.higher_is_better != 0)
			     ? HISTORY_BETTER
			     : HISTORY_WORSE;
		c->effect_pct = 100 * expm1(cc[i].delta);
		c->lo_pct = 100 * expm1(cc[i].lo);
		c->hi_pct = 100 * expm1(cc[i].hi);
		c->p = cc[i].p;
		buf_reset(&b);
		c->ncauses =
		    history_facts_diff(r, a, h->cell, h->s[k - 1].session,
				       h->s[k].session, &c->causes, &b);
		if (c->ncauses < 0)
			return -1;
		if (!c->ncauses)
			c->no_cause = no_cause(a, h->s[k - 1].started_at,
					       h->s[k].started_at);
	}
	buf_release(&b);
	return 0;
}

/*
 * The latest session against the segment before it (from the last
 * change, or the first session): the same within theta when the 90%
 * interval of the difference lies inside +-theta (TOST at 5%, Schuirmann
 * 1987); else not known, with the runs of a next session that would
 * bring the interval inside (-1: none would, the difference is at the
 * threshold).
 */
static void answer(const struct series_buf *sb, double theta,
		   struct history_cell *h)
{
	size_t L = sb->nsess - 1, a0 = 0, na, nb;
	double lim = log1p(theta), m, sa = 0, sbv = 0, ma = 0, mb = 0, s, t,
	       half;
	size_t i;
	int k;
	h->answer_pct = h->answer_lo = h->answer_hi = NAN;
	h->runs_needed = 0;
	if (sb->nsess < 2) {
		h->answer = HISTORY_ONE;
		return;
	}
	for (k = 0; k < h->nch; k++)
		a0 = (size_t)h->ch[k].at;
	if (a0 == L) {
		h->answer = HISTORY_CHANGED;
		h->answer_pct = h->ch[h->nch - 1].effect_pct;
		h->answer_lo = h->ch[h->nch - 1].lo_pct;
		h->answer_hi = h->ch[h->nch - 1].hi_pct;
		return;
	}
	na = sb->start[L] - sb->start[a0];
	nb = sb->start[L + 1] - sb->start[L];
	for (i = sb->start[a0]; i < sb->start[L]; i++)
		ma += sb->y[i];
	ma /= (double)na;
	for (i = sb->start[L]; i < sb->start[L + 1]; i++)
		mb += sb->y[i];
	mb /= (double)nb;
	for (i = sb->start[a0]; i < sb->start[L]; i++)
		sa += (sb->y[i] - ma) * (sb->y[i] - ma);
	for (i = sb->start[L]; i < sb->start[L + 1]; i++)
		sbv += (sb->y[i] - mb) * (sb->y[i] - mb);
	m = mb - ma;
	h->answer = HISTORY_UNKNOWN;
	h->answer_pct = 100 * expm1(m);
	if (na + nb < 3) {
		h->runs_needed = -1;
		return;
	}
	/* pooled sd: the interval of a difference of means (Student) */
	s = sqrt((sa + sbv) / (double)(na + nb - 2));
	t = tdist_quantile(0.95, (double)(na + nb - 2));
	half = t * s * sqrt(1.0 / (double)na + 1.0 / (double)nb);
	h->answer_lo = 100 * expm1(m - half);
	h->answer_hi = 100 * expm1(m + half);
	if (m - half >= -lim && m + half <= lim) {
		h->answer = HISTORY_SAME;
		return;
	}
	/* runs n of a next session: t s sqrt(1/na + 1/n) <= lim - |m| */
	half = (lim - fabs(m)) / (t * s);
	if (!(half > 0) || half * half <= 1.0 / (double)na) {
		h->runs_needed = -1;
		return;
	}
	h->runs_needed = (int)ceil(1.0 / (half * half - 1.0 / (double)na));
}

/* FNV-1a of the cell and testbed: each history's permutations. */
static uint64_t seed_of(const char *a, const char *b)
{
	uint64_t h = 1469598103934665603ULL;
	const char *s;
	for (s = a; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	h = (h ^ 0xff) * 1099511628211ULL;
	for (s = b; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* The sessions chosen, oldest first; the distinct testbeds into tbs. */
static int views(const struct report *r, const struct history_opts *o,
		 struct arena *a, struct sview **out, const char ***tbs,
		 int *ntb)
{
	struct sview *sv =
	    arena_alloc(a, (size_t)(r->span.nsessions + 1) * sizeof *sv);
	const char **t =
	    arena_alloc(a, (size_t)(r->span.nsessions + 1) * sizeof *t);
	int i, j, n = 0;
	if (!sv || !t)
		return -1;
	*ntb = 0;
	for (i = 0; r->span.session_info && i < r->span.nsessions; i++) {
		const struct report_session *s = &r->span.session_info[i];
		if (!chosen(o, s))
			continue;
		sv[n].id = s->id;
		sv[n].t = s->started_at;
		sv[n].tb = s->testbed ? s->testbed : s->hosts ? s->hosts : "";
		for (j = 0; j < *ntb && strcmp(t[j], sv[n].tb); j++)
			;
		if (j == *ntb)
			t[(*ntb)++] = sv[n].tb;
		n++;
	}
	qsort(sv, (size_t)n, sizeof *sv, sview_cmp);
	*out = sv;
	*tbs = t;
	return n;
}

/* One history cell: its sessions, changes and answer. */
static int cell_history(struct report *r, struct series_buf *sb, int c,
			const char *tb, const struct changept_opts *co,
			struct history_cell *h, struct changept_change *cc,
			size_t *spk)
{
	struct arena *a = r->arena;
	size_t nch = 0, nspk = 0, i;
	int *dev;
	struct changept_opts o = *co;
	memset(h, 0, sizeof *h);
	h->cell = c;
	h->label = r->cells[c].label;
	h->testbed = tb;
	if (sessions_fill(r, a, sb, h) < 0)
		return -1;
	o.seed = seed_of(h->label ? h->label : "", tb);
	if (sb->nsess >= 2 && changept_find(sb->y, sb->start, sb->nsess, &o, cc,
					    &nch, spk, &nspk) == -XR_ENOMEM)
		return -1;
	if (changes_fill(r, a, cc, nch, h) < 0)
		return -1;
	dev = arena_alloc(a, (nspk ? nspk : 1) * sizeof *dev);
	if (!dev)
		return -1;
	for (i = 0; i < nspk; i++)
		dev[i] = (int)spk[i];
	h->deviant = dev;
	h->ndeviant = (int)nspk;
	answer(sb, r->met.threshold, h);
	return 0;
}

int history_build(struct report *r, const struct history_opts *o,
		  struct xr_err *err)
{
	struct report_history *hs = arena_alloc(r->arena, sizeof *hs);
	struct series_buf sb = {0};
	struct changept_change *cc = NULL;
	struct changept_opts co = {0};
	struct sview *sv;
	const char **tbs;
	size_t *spk = NULL;
	int nsv, ntb, c, k, pass, n = 0, rc = -1;
	if (!hs || (nsv = views(r, o, r->arena, &sv, &tbs, &ntb)) < 0)
		goto oom;
	if (nsv == 0)
		return xr_err_set(err, XR_EUSAGE, r->about.db_path, 0, 0,
				  "--history: no session of plan '%s' is left "
				  "by --since/--sessions",
				  r->about.plan_name ? r->about.plan_name : "");
	memset(hs, 0, sizeof *hs);
	sb.y = malloc((size_t)(r->nruns + 1) * sizeof *sb.y);
	sb.start = malloc((size_t)(nsv + 1) * sizeof *sb.start);
	sb.sid = malloc((size_t)(nsv + 1) * sizeof *sb.sid);
	sb.t = malloc((size_t)(nsv + 1) * sizeof *sb.t);
	cc = malloc((size_t)(nsv + 1) * sizeof *cc);
	spk = malloc((size_t)(nsv + 1) * sizeof *spk);
	hs->cells = arena_alloc(r->arena, (size_t)(r->ncells * ntb + 1) *
					      sizeof *hs->cells);
	if (!sb.y || !sb.start || !sb.sid || !sb.t || !cc || !spk || !hs->cells)
		goto oom;
	/* Pass 0 counts the histories to test (the Bonferroni divisor);
	 * pass 1 builds them at that level. */
	for (pass = 0; pass < 2; pass++) {
		if (pass) {
			hs->alpha =
			    HISTORY_ALPHA / (hs->ntests ? hs->ntests : 1);
			co.alpha = hs->alpha;
			co.min_delta = log1p(r->met.threshold);
		}
		for (k = 0; k < ntb; k++)
			for (c = 0; c < r->ncells; c++) {
				int ns = gather(r, c, sv, nsv, tbs[k], &sb);
				if (!pass) {
					hs->ntests += ns >= 2;
					continue;
				}
				if (ns < 1)
					continue;
				if (cell_history(r, &sb, c, tbs[k], &co,
						 &hs->cells[n], cc, spk) < 0)
					goto oom;
				hs->regressions +=
				    hs->cells[n].answer == HISTORY_CHANGED &&
				    hs->cells[n].ch[hs->cells[n].nch - 1].dir ==
					HISTORY_WORSE;
				n++;
			}
	}
	hs->ncells = n;
	hs->theta = r->met.threshold;
	hs->higher_is_better = r->met.higher_is_better;
	r->history = hs;
	rc = 0;
oom:
	free(sb.y);
	free(sb.start);
	free(sb.sid);
	free(sb.t);
	free(cc);
	free(spk);
	if (rc < 0)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
				  "out of memory building the history");
	return 0;
}
