/*
 * A/B comparisons of the report model (its matrix tables: tables.c).
 * Comparisons come from report.compare or
 * default to every factor with two levels: one row per pair of cells that
 * differ only in that factor, plus explicit pairs (configuration
 * comparisons when they differ in several declared factors). Each
 * comparison is checked for comparability (flags that refuse, flags that
 * warn; a confounded order refuses unless the plan accepts a sequential
 * design), then decided by report_decide() (verdict.c).
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "arena.h"
#include "buf.h"
#include "engine_cond.h"
#include "model_flag.h"
#include "model_int.h"
#include "plan.h"
#include "banned.h"

/* --- comparisons ------------------------------------------------------ */

struct cmps {
	struct report_cmp *v;
	int n, cap;
};

static struct report_cmp *cmp_new(struct model_build *m, struct cmps *cs)
{
	struct report_cmp *c;
	if (cs->n == cs->cap) {
		int cap = cs->cap ? 2 * cs->cap : 16;
		struct report_cmp *t = realloc(cs->v, (size_t)cap * sizeof *t);
		if (!t)
			return NULL;
		cs->v = t;
		cs->cap = cap;
	}
	c = &cs->v[cs->n];
	memset(c, 0, sizeof *c);
	c->p_adj = NAN; /* no --adjust: schema/report.md */
	c->reasons = arena_alloc(m->a, REPORT_FLAG_COUNT * sizeof *c->reasons);
	c->warnings =
	    arena_alloc(m->a, REPORT_FLAG_COUNT * sizeof *c->warnings);
	if (!c->reasons || !c->warnings)
		return NULL;
	cs->n++;
	return c;
}

/* Cell with the levels lv (-1 entries match anything), or -1. */
static int cell_with(const struct report *r, const int *lv)
{
	int k, f;
	for (k = 0; k < r->ncells; k++) {
		for (f = 0; f < r->nfactors; f++)
			if (lv[f] >= 0 && r->cells[k].lv[f] != lv[f])
				break;
		if (f == r->nfactors)
			return k;
	}
	return -1;
}

/* Does a JSON scalar print as the level text? ("4" matches 4 and "4".) */
static int json_is_level(json_t *v, const char *level)
{
	char num[64];
	if (json_is_string(v))
		return !strcmp(json_string_value(v), level);
	if (json_is_integer(v)) {
		snprintf(num, sizeof num, "%lld",
			 (long long)json_integer_value(v));
		return !strcmp(num, level);
	}
	if (json_is_real(v)) {
		snprintf(num, sizeof num, "%g", json_real_value(v));
		return !strcmp(num, level);
	}
	return 0;
}

/* Drop every key any level of a params: factor sets. */
static void del_level_params(json_t *o, const struct plan_factor *pf)
{
	int l, k;
	for (l = 0; l < pf->nlevels; l++)
		for (k = 0; pf->level_params[l] && k < pf->nlevel_params[l];
		     k++)
			json_object_del(o, pf->level_params[l][k].key);
}

/* Engine params of a cell minus the keys set by the factors in skip: the
 * plan's `param:` key or `params:` keys, or, when the plan is unknown, any key
 * whose value is the cell's level of such a factor. */
static json_t *params_without(struct model_build *m,
			      const struct report_cell *c, const int *skip)
{
	json_t *o = c->params ? json_loads(c->params, 0, NULL) : NULL;
	int f;
	if (!json_is_object(o))
		return o;
	for (f = 0; f < m->r->nfactors && f < 64; f++) {
		const char *key;
		json_t *v;
		void *tmp;
		if (!skip[f])
			continue;
		if (m->plan && f < m->plan->nfactors &&
		    m->plan->factors[f].param) {
			json_object_del(o, m->plan->factors[f].param);
			continue;
		}
		if (m->plan && f < m->plan->nfactors &&
		    m->plan->factors[f].level_params) {
			del_level_params(o, &m->plan->factors[f]);
			continue;
		}
		if (c->lv[f] < 0)
			continue;
		json_object_foreach_safe(o, tmp, key, v)
		{
			if (json_is_level(v, m->r->factors[f].levels[c->lv[f]]))
				json_object_del(o, key);
		}
	}
	return o;
}

static int str_eq(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* Does the plan's target template mention a factor that differs? */
static int target_varies(struct model_build *m, const int *diff)
{
	int f;
	if (!m->plan || !m->plan->engine.target)
		return 0;
	for (f = 0; f < m->plan->nfactors && f < m->r->nfactors; f++)
		if (diff[f]) {
			char ph[256];
			snprintf(ph, sizeof ph, "{{%s}}",
				 m->plan->factors[f].name);
			if (strstr(m->plan->engine.target, ph))
				return 1;
		}
	return 0;
}

/* A time window end for the not_interleaved detail: seconds always (with
 * minutes only, two disjoint windows of short runs read as the same
 * minute); the date only when the windows span several days. */
static void hhmm(double t, int with_date, char *out, size_t n)
{
	struct tm tm;
	time_t tt = (time_t)t;
	if (isnan(t) || !gmtime_r(&tt, &tm)) {
		snprintf(out, n, "?");
		return;
	}
	strftime(out, n, with_date ? "%m-%d %H:%M:%S" : "%H:%M:%S", &tm);
}

static long day_of(double t)
{
	return isnan(t) ? -1 : (long)floor(t / 86400);
}

/* The facts whose change between sessions refuses pooling: these, then
 * every engine's version fact (runner/desc engine_version_at). */
static const char *const watched_facts[] = {"nic_driver", "nic_firmware",
					    "kernel"};
#define NWATCHED (sizeof watched_facts / sizeof *watched_facts)

/* The k-th watched fact key; NULL past the last. */
static const char *watched_fact(size_t k)
{
	const struct engine_version *v;
	if (k < NWATCHED)
		return watched_facts[k];
	v = engine_version_at((int)(k - NWATCHED));
	return v ? v->fact : NULL;
}

static const char *fact(const struct report *r, int64_t s, const char *host,
			const char *key)
{
	int i;
	for (i = 0; i < r->nfacts; i++)
		if (r->facts[i].session == s &&
		    !strcmp(r->facts[i].host, host) &&
		    !strcmp(r->facts[i].key, key))
			return r->facts[i].value ? r->facts[i].value : "";
	return NULL;
}

/* Distinct sessions of the ok runs of cells a and b into out (room for
 * both cells' runs); returns how many. */
static int cmp_sessions(const struct model_build *m, const struct report_cmp *c,
			int64_t *out)
{
	int side, k, j, n = 0;
	for (side = 0; side < 2; side++) {
		const struct mcell *mc = &m->mc[side ? c->b : c->a];
		for (k = 0; k < mc->nok; k++) {
			int64_t s = m->runs[mc->ok[k]].session;
			for (j = 0; j < n && out[j] != s; j++)
				;
			if (j == n)
				out[n++] = s;
		}
	}
	return n;
}

/* Host facts of every session pooled in the comparison, on both sides:
 * a watched fact with two values refuses pooling (into list). */
static void check_facts(struct model_build *m, struct report_cmp *c,
			struct report_flag *list, int *nlist)
{
	const struct report *r = m->r;
	int64_t *ss = malloc(((size_t)m->mc[c->a].nok + m->mc[c->b].nok + 1) *
			     sizeof *ss);
	int h, ns, i;
	size_t k;
	if (!ss)
		return;
	ns = cmp_sessions(m, c, ss);
	for (h = 0; h < r->span.nhosts && ns > 1; h++)
		for (k = 0; watched_fact(k); k++) {
			const char *v0 = NULL, *vi;
			int64_t s0 = 0;
			for (i = 0; i < ns; i++) {
				vi = fact(r, ss[i], r->span.hosts[h],
					  watched_fact(k));
				if (!vi)
					continue;
				if (!v0) {
					v0 = vi;
					s0 = ss[i];
				} else if (strcmp(v0, vi)) {
					model_flag(
					    m, list, nlist,
					    REPORT_FLAG_FACTS_CHANGED,
					    MODEL_JA(m)
						? "%s（%s 上）: "
						  "'%s'（セッション "
						  "%lld）-> '%s'（セッション "
						  "%lld）"
						: "%s on %s: '%s' (session "
						  "%lld) "
						  "-> '%s' (session %lld)",
					    watched_fact(k), r->span.hosts[h],
					    v0, (long long)s0, vi,
					    (long long)ss[i]);
					break;
				}
			}
		}
	free(ss);
}

/* The testbed of session s (a shard's), or "" when it is not sharded. */
static const char *compare_testbed_of(const struct report *r, int64_t s)
{
	int i;
	for (i = 0; i < r->span.nsessions; i++)
		if (r->span.session_info && r->span.session_info[i].id == s)
			return r->span.session_info[i].testbed
				   ? r->span.session_info[i].testbed
				   : "";
	return "";
}

/* Whether cell c has an ok run on testbed tb. */
static int cell_on(const struct model_build *m, int c, const char *tb)
{
	const struct mcell *mc = &m->mc[c];
	int k;
	for (k = 0; k < mc->nok; k++)
		if (!strcmp(
			compare_testbed_of(m->r, m->runs[mc->ok[k]].session),
			tb))
			return 1;
	return 0;
}

/* Shards on several testbeds: a testbed holding one side's runs and not
 * the other's confounds the testbed with the factor (schema/report.md,
 * "Shards"); refused whatever the plan accepts. */
static void check_testbeds(struct model_build *m, struct report_cmp *c)
{
	int side, k;
	for (side = 0; side < 2; side++) {
		int self = side ? c->b : c->a, other = side ? c->a : c->b;
		const struct mcell *mc = &m->mc[self];
		for (k = 0; k < mc->nok; k++) {
			const char *tb = compare_testbed_of(
			    m->r, m->runs[mc->ok[k]].session);
			if (!tb[0] || cell_on(m, other, tb))
				continue;
			model_flag(m, c->reasons, &c->nreasons,
				   REPORT_FLAG_TESTBED_SPLIT,
				   MODEL_JA(m)
				       ? "%s のみがテストベッド %s で実行"
				       : "only %s ran on testbed %s",
				   side ? "B" : "A", tb);
			return;
		}
	}
}

/* The ok runs' values of cell ci for metric mi and their positions in the
 * run order (for the covariate); NaNs left out. Returns how many. */
static int side_samples(const struct model_build *m, int ci, int mi, double *y,
			double *pos, int *session, int *decide)
{
	int k, n = 0;
	for (k = 0; k < m->mc[ci].nok; k++) {
		int ri = m->mc[ci].ok[k];
		double v = m->vals[mi][ri];
		if (isnan(v))
			continue;
		y[n] = v;
		session[n] = (int)m->runs[ri].session;
		decide[n] = m->runs[ri].decide;
		pos[n++] = m->runs[ri].gpos;
	}
	return n;
}

static int compare_kv_names(const struct plan_kv *kv, int n, const char *name)
{
	int i;
	for (i = 0; i < n; i++)
		if (!strcmp(kv[i].key, name))
			return 1;
	return 0;
}

/* Every differing factor (diff[f] set, c->factors named). For a factor
 * comparison, any other differing factor refuses (factors_differ); an
 * explicit pair pc is a configuration comparison when every differing
 * factor is named in both a and b, and refused for those it does not. */
static void flag_factors(struct model_build *m, struct report_cmp *c, int *diff,
			 const struct plan_compare *pc)
{
	struct report *r = m->r;
	const struct report_cell *A = &r->cells[c->a], *B = &r->cells[c->b];
	struct buf names = BUF_INIT, undeclared = BUF_INIT;
	int f, ndiff = 0, nundecl = 0;

	for (f = 0; f < r->nfactors && f < 64; f++)
		if (A->lv[f] != B->lv[f]) {
			const char *nm = r->factors[f].name;
			diff[f] = 1;
			ndiff++;
			buf_addf(&names, "%s%s", names.len ? ", " : "", nm);
			if (c->factor >= 0
				? f != c->factor
				: !pc || !compare_kv_names(pc->a, pc->na, nm) ||
				      !compare_kv_names(pc->b, pc->nb, nm)) {
				nundecl++;
				buf_addf(&undeclared, "%s%s",
					 undeclared.len ? ", " : "", nm);
			}
		}
	c->factors = arena_strdup(m->a, names.len ? names.s : "");
	if (c->factor >= 0 && ndiff > 1)
		model_flag(m, c->reasons, &c->nreasons,
			   REPORT_FLAG_FACTORS_DIFFER, "%s", names.s);
	else if (c->factor < 0 && nundecl)
		model_flag(m, c->reasons, &c->nreasons,
			   REPORT_FLAG_FACTORS_DIFFER,
			   MODEL_JA(m) ? "%s（組で指定されていない: %s）"
				       : "%s (not named in the pair: %s)",
			   names.s, undeclared.s);
	else if (c->factor < 0 && ndiff > 1) {
		c->configuration = 1;
		model_flag(m, c->warnings, &c->nwarnings,
			   REPORT_FLAG_CONFIGURATION, "%s", names.s);
	}
	buf_release(&names);
	buf_release(&undeclared);
}

/* engine_differs: the same engine, target and parameters apart from the
 * differing factors; unit_differs: the same unit of the metric. */
static void flag_engine_unit(struct model_build *m, struct report_cmp *c,
			     const int *diff)
{
	struct report *r = m->r;
	const struct report_cell *A = &r->cells[c->a], *B = &r->cells[c->b];
	struct mcell *ma = &m->mc[c->a], *mbb = &m->mc[c->b];
	const char *ua = r->met.primary >= 0 && r->met.primary < ma->ucap
			     ? ma->unit[r->met.primary]
			     : NULL;
	const char *ub = r->met.primary >= 0 && r->met.primary < mbb->ucap
			     ? mbb->unit[r->met.primary]
			     : NULL;

	if (A->n_ok && B->n_ok) {
		json_t *ja = params_without(m, A, diff);
		json_t *jb = params_without(m, B, diff);
		if (!str_eq(A->engine, B->engine))
			model_flag(m, c->reasons, &c->nreasons,
				   REPORT_FLAG_ENGINE_DIFFERS,
				   MODEL_JA(m) ? "エンジン %s 対 %s"
					       : "engine %s vs %s",
				   A->engine ? A->engine : "?",
				   B->engine ? B->engine : "?");
		if (!str_eq(A->target, B->target) && !target_varies(m, diff))
			model_flag(m, c->reasons, &c->nreasons,
				   REPORT_FLAG_ENGINE_DIFFERS,
				   MODEL_JA(m) ? "対象 %s 対 %s"
					       : "target %s vs %s",
				   A->target ? A->target : "?",
				   B->target ? B->target : "?");
		if ((ja || jb) && !json_equal(ja, jb))
			model_flag(m, c->reasons, &c->nreasons,
				   REPORT_FLAG_ENGINE_DIFFERS,
				   MODEL_JA(m) ? "パラメータ %s 対 %s"
					       : "parameters %s vs %s",
				   A->params ? A->params : "{}",
				   B->params ? B->params : "{}");
		json_decref(ja);
		json_decref(jb);
	}
	if (ua && ub && strcmp(ua, ub))
		model_flag(m, c->reasons, &c->nreasons,
			   REPORT_FLAG_UNIT_DIFFERS,
			   MODEL_JA(m) ? "%s 対 %s" : "%s vs %s", ua, ub);
	if (r->met.primary >= 0 && r->met.primary < ma->ucap &&
	    ma->unit_mixed[r->met.primary])
		model_flag(m, c->reasons, &c->nreasons,
			   REPORT_FLAG_UNIT_DIFFERS,
			   MODEL_JA(m) ? "A の試行で単位が混在（%s 他）"
				       : "A's runs mix units (%s and others)",
			   ua ? ua : "?");
	if (r->met.primary >= 0 && r->met.primary < mbb->ucap &&
	    mbb->unit_mixed[r->met.primary])
		model_flag(m, c->reasons, &c->nreasons,
			   REPORT_FLAG_UNIT_DIFFERS,
			   MODEL_JA(m) ? "B の試行で単位が混在（%s 他）"
				       : "B's runs mix units (%s and others)",
			   ub ? ub : "?");
}

/* No verdict on what did not run (schema/report.md, "Verification"): a
 * setting verified wrong in some run of either cell, compared or not,
 * refuses (verify_failed: the runs did not measure what the plan says);
 * a compared setting applied but not verified in some run withholds the
 * verdict (not_verified). Runs are counted, not checks. Then the cells'
 * own flags become warnings (counters, failures, instability, drift). */
static void flag_verify_and_cells(struct model_build *m, struct report_cmp *c,
				  const int *diff, struct report_flag *conf,
				  int *nconf)
{
	struct report *r = m->r;
	const struct report_cell *A = &r->cells[c->a], *B = &r->cells[c->b];
	static const struct report_cverify none;
	int f, k, side;

	for (f = 0; f < r->nfactors && f < 64; f++) {
		const struct report_cverify *va = A->ver ? &A->ver[f] : &none,
					    *vb = B->ver ? &B->ver[f] : &none;
		int ua = report_cell_unverified(r, c->a, f),
		    ub = report_cell_unverified(r, c->b, f);
		if (va->bad || vb->bad)
			model_flag(
			    m, c->reasons, &c->nreasons,
			    REPORT_FLAG_VERIFY_FAILED,
			    MODEL_JA(m)
				? "%s: A で %d/%d 回、B で %d/%d 回"
				: "%s: %d of %d runs on A, %d of %d on B",
			    r->factors[f].name, va->bad, A->n_ok, vb->bad,
			    B->n_ok);
		else if (diff[f] && (ua || ub))
			model_flag(
			    m, c->reasons, &c->nreasons,
			    REPORT_FLAG_NOT_VERIFIED,
			    MODEL_JA(m)
				? "%s: A で %d/%d 回、B で %d/%d 回"
				: "%s: %d of %d runs on A, %d of %d on B",
			    r->factors[f].name, ua, A->n_ok, ub, B->n_ok);
	}
	for (side = 0; side < 2; side++) {
		const struct report_cell *x = side ? B : A;
		for (k = 0; k < x->nflags; k++) {
			enum report_flag_code code = x->flags[k].code;
			/* too few runs: cmp_measure's; a setting verified
			 * wrong: a reason above */
			if (code == REPORT_FLAG_TOO_FEW_RUNS ||
			    code == REPORT_FLAG_VERIFY_FAILED)
				continue;
			/* a drifting cell confounds the comparison */
			if (code == REPORT_FLAG_DRIFT)
				model_flag(m, conf, nconf, code, "%s: %s",
					   side ? "B" : "A",
					   x->flags[k].detail);
			else
				model_flag(m, c->warnings, &c->nwarnings, code,
					   "%s: %s", side ? "B" : "A",
					   x->flags[k].detail);
		}
	}
}

/* Interleaved: the two sides' time windows overlap (run order when times
 * are unknown); when not, the not_interleaved warning with both windows. */
static int check_interleaved(struct model_build *m, struct report_cmp *c,
			     const struct report_sample *sa,
			     const struct report_sample *sb,
			     struct report_flag *conf, int *nconf)
{
	const struct report_cell *A = &m->r->cells[c->a];
	const struct report_cell *B = &m->r->cells[c->b];
	char a0[32], a1[32], b0[32], b1[32], day[32];
	int interleaved, dates;
	long d;

	if (!isnan(A->first_start) && !isnan(B->first_start) &&
	    !isnan(A->last_end) && !isnan(B->last_end))
		interleaved = A->first_start < B->last_end &&
			      B->first_start < A->last_end;
	else
		interleaved = sa->n && sb->n &&
			      sa->pos[0] < sb->pos[sb->n - 1] &&
			      sb->pos[0] < sa->pos[sa->n - 1];
	if (interleaved || !sa->n || !sb->n)
		return interleaved;
	d = day_of(A->first_start);
	dates = d != day_of(A->last_end) || d != day_of(B->first_start) ||
		d != day_of(B->last_end);
	hhmm(A->first_start, dates, a0, sizeof a0);
	hhmm(A->last_end, dates, a1, sizeof a1);
	hhmm(B->first_start, dates, b0, sizeof b0);
	hhmm(B->last_end, dates, b1, sizeof b1);
	day[0] = 0;
	if (!dates) {
		struct tm tm;
		time_t tt = (time_t)A->first_start;
		if (gmtime_r(&tt, &tm))
			strftime(day, sizeof day, " %Y-%m-%d", &tm);
	}
	model_flag(m, conf, nconf, REPORT_FLAG_NOT_INTERLEAVED,
		   MODEL_JA(m) ? "A %s〜%s、B %s〜%s UTC%s"
			       : "A %s to %s, B %s to %s UTC%s",
		   a0, a1, b0, b1, day);
	return interleaved;
}

/* The plan's direction for the report's metric (`better:`), 0 unset. */
static int declared_direction(const struct model_build *m)
{
	int i;
	for (i = 0; m->plan && i < m->plan->engine.nmetrics; i++)
		if (!strcmp(m->plan->engine.metrics[i].name, m->r->met.metric))
			return m->plan->engine.metrics[i].better;
	return 0;
}

/* One side's samples: values, positions and sessions, owned. */
struct side {
	double *y, *pos;
	int *ses, *dec;
	struct report_sample s;
};

static int side_load(const struct model_build *m, int ci, struct side *sd)
{
	size_t n = (size_t)m->mc[ci].nok + 1;
	sd->y = malloc(n * sizeof *sd->y);
	sd->pos = malloc(n * sizeof *sd->pos);
	sd->ses = malloc(n * sizeof *sd->ses);
	sd->dec = malloc(n * sizeof *sd->dec);
	sd->s.n = 0;
	if (sd->y && sd->pos && sd->ses && sd->dec)
		sd->s.n = (size_t)side_samples(m, ci, m->r->met.primary, sd->y,
					       sd->pos, sd->ses, sd->dec);
	sd->s.y = sd->y;
	sd->s.pos = sd->pos;
	sd->s.session = sd->ses;
	sd->s.decide = sd->dec;
	return sd->y && sd->pos && sd->ses && sd->dec ? 0 : -1;
}

static void side_free(struct side *sd)
{
	free(sd->y);
	free(sd->pos);
	free(sd->ses);
	free(sd->dec);
}

/* The samples of the report's metric in run order, and the decision;
 * not_interleaved goes to the confound list. */
static void cmp_measure(struct model_build *m, struct report_cmp *c,
			struct report_flag *conf, int *nconf)
{
	struct report *r = m->r;
	struct side sa, sb;
	enum report_flag_code why;
	int interleaved;

	side_load(m, c->a, &sa);
	side_load(m, c->b, &sb);
	interleaved = check_interleaved(m, c, &sa.s, &sb.s, conf, nconf);
	if (report_decide(
		&sa.s, &sb.s, interleaved, r->met.threshold,
		report_higher_is_better(r->met.metric, declared_direction(m)),
		c, &why)) {
		if (why == REPORT_FLAG_TOO_FEW_RUNS)
			model_flag(m, c->reasons, &c->nreasons, why,
				   "n=%zu+%zu", sa.s.n, sb.s.n);
		else if (why == REPORT_FLAG_ZERO_VARIANCE)
			model_flag(m, c->reasons, &c->nreasons, why,
				   MODEL_JA(m)
				       ? "区間の幅が 0（n=%zu+%zu）"
				       : "interval of width 0 (n=%zu+%zu)",
				   sa.s.n, sb.s.n);
		else
			model_flag(m, c->reasons, &c->nreasons, why, "%s",
				   MODEL_JA(m) ? "対数をとれない"
					       : "no log scale");
	}
	side_free(&sa);
	side_free(&sb);
}

/* The confounds (not_interleaved, drift, facts_changed) refuse, or, when
 * the plan accepts a sequential design, warn with accepted_sequential.
 * Drift inside cells whose runs the position model decided (interleaved
 * sides) is absorbed by its position term: a warning. */
static void settle_confounds(struct model_build *m, struct report_cmp *c,
			     const struct report_flag *conf, int nconf,
			     int accepted)
{
	struct buf codes = BUF_INIT;
	int i, absorbed = c->method == REPORT_METHOD_POSITION;
	for (i = 0; i < nconf; i++) {
		if (absorbed && conf[i].code == REPORT_FLAG_DRIFT) {
			model_flag(m, c->warnings, &c->nwarnings, conf[i].code,
				   "%s", conf[i].detail);
			continue;
		}
		if (accepted)
			model_flag(m, c->warnings, &c->nwarnings, conf[i].code,
				   "%s", conf[i].detail);
		else
			model_flag(m, c->reasons, &c->nreasons, conf[i].code,
				   "%s", conf[i].detail);
		buf_addf(&codes, "%s%s", codes.len ? ", " : "",
			 report_flag_code_name(conf[i].code));
	}
	if (accepted && codes.len)
		model_flag(m, c->warnings, &c->nwarnings,
			   REPORT_FLAG_ACCEPTED_SEQUENTIAL, "%s", codes.s);
	buf_release(&codes);
}

/* Flags, then the decision, for the comparison of cells a and b; pc is
 * the plan's comparison (NULL for the default ones). */
static void cmp_decide(struct model_build *m, struct report_cmp *c, int factor,
		       const struct plan_compare *pc)
{
	struct report_flag conf[REPORT_FLAG_COUNT];
	int diff[64] = {0}, nconf = 0;

	c->factor = factor;
	c->metric = m->r->met.metric;
	flag_factors(m, c, diff, pc);
	flag_engine_unit(m, c, diff);
	flag_verify_and_cells(m, c, diff, conf, &nconf);
	check_facts(m, c, conf, &nconf);
	check_testbeds(m, c);
	cmp_measure(m, c, conf, &nconf);
	settle_confounds(m, c, conf, nconf, pc && pc->accept_sequential);
	if (c->nreasons) {
		int k, withheld = 1;
		/* only a setting not verified: not_verified, not refused */
		for (k = 0; k < c->nreasons; k++)
			withheld &=
			    c->reasons[k].code == REPORT_FLAG_NOT_VERIFIED;
		c->verdict =
		    withheld ? REPORT_NOT_VERIFIED : REPORT_NOT_COMPARABLE;
		c->delta_pct = c->ci_low_pct = c->ci_high_pct = NAN;
		c->eq_low_pct = c->eq_high_pct = NAN;
		c->hl_pct = c->hl_low_pct = c->hl_high_pct = c->mw_p = NAN;
		c->robust_shown = 0;
		c->p = c->df = NAN;
		c->method = REPORT_METHOD_NONE;
	}
}

static int compare_factor(struct model_build *m, struct cmps *cs, int f,
			  const struct plan_compare *pc)
{
	const char *baseline = pc ? pc->baseline : NULL;
	struct report *r = m->r;
	const struct report_factor *fa = &r->factors[f];
	int base = 0, k, L, j;
	int lv[64];
	if (baseline)
		for (k = 0; k < fa->nlevels; k++)
			if (!strcmp(fa->levels[k], baseline))
				base = k;
	for (k = 0; k < r->ncells; k++) {
		if (r->cells[k].lv[f] != base)
			continue;
		for (L = 0; L < fa->nlevels; L++) {
			struct report_cmp *c;
			int b;
			if (L == base)
				continue;
			for (j = 0; j < r->nfactors && j < 64; j++)
				lv[j] = r->cells[k].lv[j];
			lv[f] = L;
			b = cell_with(r, lv);
			if (b < 0)
				continue;
			c = cmp_new(m, cs);
			if (!c)
				return -XR_ENOMEM;
			c->a = k;
			c->b = b;
			cmp_decide(m, c, f, pc);
		}
	}
	return 0;
}

/* Explicit pair: every cell matching a, with the cell that has b's levels
 * for b's factors and a's levels for the rest. */
static int compare_pair(struct model_build *m, struct cmps *cs,
			const struct plan_compare *pc)
{
	struct report *r = m->r;
	int want[64], k, j, f, lv[64];
	for (f = 0; f < 64; f++)
		want[f] = -1;
	for (j = 0; j < pc->na; j++) {
		int fi = -1, li = -1;
		for (f = 0; f < r->nfactors; f++)
			if (!strcmp(r->factors[f].name, pc->a[j].key))
				fi = f;
		if (fi < 0 || fi >= 64)
			return 0;
		for (k = 0; k < r->factors[fi].nlevels; k++)
			if (!strcmp(r->factors[fi].levels[k], pc->a[j].value))
				li = k;
		if (li < 0)
			return 0;
		want[fi] = li;
	}
	for (k = 0; k < r->ncells; k++) {
		struct report_cmp *c;
		int b, match = 1;
		for (f = 0; f < r->nfactors && f < 64; f++)
			if (want[f] >= 0 && r->cells[k].lv[f] != want[f])
				match = 0;
		if (!match)
			continue;
		for (f = 0; f < r->nfactors && f < 64; f++)
			lv[f] = r->cells[k].lv[f];
		for (j = 0; j < pc->nb; j++) {
			int fi = -1, li = -1, q;
			for (f = 0; f < r->nfactors; f++)
				if (!strcmp(r->factors[f].name, pc->b[j].key))
					fi = f;
			if (fi < 0 || fi >= 64)
				return 0;
			for (q = 0; q < r->factors[fi].nlevels; q++)
				if (!strcmp(r->factors[fi].levels[q],
					    pc->b[j].value))
					li = q;
			if (li < 0)
				return 0;
			lv[fi] = li;
		}
		b = cell_with(r, lv);
		if (b < 0 || b == k)
			continue;
		c = cmp_new(m, cs);
		if (!c)
			return -XR_ENOMEM;
		c->a = k;
		c->b = b;
		cmp_decide(m, c, -1, pc);
	}
	return 0;
}

int model_compare(struct model_build *m, struct xr_err *err)
{
	struct report *r = m->r;
	const struct plan *p = m->plan;
	struct cmps cs = {0};
	const struct plan_compare *list = NULL;
	int i, n = 0, rc;

	r->met.higher_is_better =
	    report_higher_is_better(r->met.metric, declared_direction(m));
	if ((rc = model_recut_compares(m, err)) < 0)
		return rc;
	if (m->compare) {
		list = m->compare;
		n = m->ncompare;
	} else if (p && p->report.ncompare) {
		list = p->report.compare;
		n = p->report.ncompare;
	}
	if (list) {
		for (i = 0; i < n && !rc; i++) {
			const struct plan_compare *pc = &list[i];
			if (pc->factor) {
				int f = report_factor_index(r, pc->factor);
				if (f >= 0)
					rc = compare_factor(m, &cs, f, pc);
			} else {
				rc = compare_pair(m, &cs, pc);
			}
		}
	} else {
		for (i = 0; i < r->nfactors && !rc; i++)
			if (r->factors[i].nlevels == 2)
				rc = compare_factor(m, &cs, i, NULL);
	}
	if (rc == 0)
		rc = model_multiplicity(m, cs.v, cs.n);
	if (rc == 0)
		rc = model_pair_notes(m);
	if (rc < 0) {
		free(cs.v);
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	}
	if (cs.n) {
		r->cmps = arena_alloc(m->a, (size_t)cs.n * sizeof *r->cmps);
		if (!r->cmps) {
			free(cs.v);
			return xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
					  "out of memory");
		}
		memcpy(r->cmps, cs.v, (size_t)cs.n * sizeof *r->cmps);
		r->ncmps = cs.n;
	}
	free(cs.v);
	if (model_nocmp(m) < 0)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	return 0;
}
