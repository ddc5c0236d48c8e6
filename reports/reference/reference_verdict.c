/*
 * The verdict on each published cell of a reference (schema/reference.md,
 * "Verdicts"): reproduced, differs, inconclusive, not_comparable,
 * not_measured or ambiguous, with the reasons, and the one-line summary
 * for page one. A published condition (congestion control, streams,
 * protocol, ...) is checked against what the runs were given and what the
 * engine observed before any number is compared; the number is compared
 * through an interval of the measured statistic the publication names, or
 * by an equivalence test (TOST) when the publication gives its runs.
 *
 * SPDX-License-Identifier: MIT
 */
#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "buf.h"
#include "engine_cond.h"
#include "plan.h"
#include "format.h"
#include "reference_int.h"
#include "stats.h"
#include "units.h"
#include "banned.h"

#define JA(r) ((r)->about.lang == REPORT_LANG_JA)

const char *report_ref_verdict_name(enum report_ref_verdict v)
{
	static const char *const names[] = {
#define REPORT_REF_VERDICT_NAME(c, n) n,
	    REPORT_REF_VERDICT_MAP(REPORT_REF_VERDICT_NAME)
#undef REPORT_REF_VERDICT_NAME
	};
	if ((unsigned)v >= sizeof names / sizeof names[0])
		return "not_measured";
	return names[v];
}

static const char *const stat_names[] = {
#define REPORT_REF_STAT_NAME(c, n) n,
    REPORT_REF_STAT_MAP(REPORT_REF_STAT_NAME)
#undef REPORT_REF_STAT_NAME
};

const char *report_ref_stat_name(enum report_ref_stat s)
{
	if ((unsigned)s >= REPORT_REF_STAT_COUNT)
		return "unknown";
	return stat_names[s];
}

int report_ref_stat_parse(const char *s)
{
	int i;
	for (i = 0; s && i < REPORT_REF_STAT_COUNT; i++)
		if (!strcmp(s, stat_names[i]))
			return i;
	return -1;
}

/* --- conditions ---------------------------------------------------------- */

/* The value the engine observed for key in a cell's runs; NULL when none.
 * *mixed is set when the runs disagree. */
static const char *observed(const struct report *r, int cell, const char *key,
			    int *mixed)
{
	const char *v = NULL;
	int i;
	*mixed = 0;
	for (i = 0; i < r->nobserved; i++) {
		const struct report_observed *o = &r->observed[i];
		if (o->cell != cell || strcmp(o->key, key) || !o->value)
			continue;
		if (!v)
			v = o->value;
		else if (strcmp(v, o->value))
			*mixed = 1;
	}
	return v;
}

/* A parameter the cell's runs were given (the params JSON of its first ok
 * run); NULL when not given. */
static const char *param(const struct report *r, const struct report_cell *c,
			 const char *key)
{
	json_t *o, *v;
	const char *s = NULL;
	if (!c->params || !*c->params)
		return NULL;
	o = json_loads(c->params, 0, NULL);
	if (!o)
		return NULL;
	v = json_object_get(o, key);
	if (json_is_string(v))
		s = arena_strdup(r->arena, json_string_value(v));
	json_decref(o);
	return s;
}

/* How a published and a measured value of a condition compare. */
enum cond_cmp {
	CMP_TEXT = 0,
	CMP_NUMBER,
	CMP_VERSION,
	CMP_DIRECTION,
	CMP_MTU,
	CMP_ENGINE,
};

/* Does a published engine ("iperf3", "iperf 3.16", "iperf3 3.12") name
 * engine meas ("iperf3")? Its letters and digits must start with meas's. */
int ref_engine_is(const char *pub, const char *meas)
{
	size_t n = strlen(meas), k = 0;
	for (; *pub && k < n; pub++) {
		if (!isalnum((unsigned char)*pub))
			continue;
		if (tolower((unsigned char)*pub) !=
		    tolower((unsigned char)meas[k]))
			return 0;
		k++;
	}
	return n > 0 && k == n;
}

/* The first version number in s ("iperf 3.16" -> "3.16"); "" none. */
static const char *version_of(const char *s, size_t *n)
{
	while (*s && !isdigit((unsigned char)*s))
		s++;
	*n = strspn(s, "0123456789.");
	return s;
}

/* Direction words: up (the client sends) or down (-R) or bidir. */
static const char *direction_norm(const char *s)
{
	static const char *const up[] = {
	    "up", "upload", "send", "tx", "client-to-server", "forward", NULL};
	static const char *const down[] = {
	    "down",    "download", "receive", "rx", "server-to-client",
	    "reverse", "-R",	   NULL};
	int i;
	for (i = 0; up[i]; i++)
		if (!strcasecmp(s, up[i]))
			return "up";
	for (i = 0; down[i]; i++)
		if (!strcasecmp(s, down[i]))
			return "down";
	if (!strcasecmp(s, "bidir") || !strcasecmp(s, "bidirectional"))
		return "bidir";
	return s;
}

static int cond_same(enum cond_cmp how, const char *pub, const char *meas)
{
	char *e1, *e2;
	double a, b;
	switch (how) {
	case CMP_NUMBER:
		a = strtod(pub, &e1);
		b = strtod(meas, &e2);
		if (e1 != pub && e2 != meas)
			return a == b;
		break;
	case CMP_VERSION: {
		/* "3.16" matches "iperf 3.16" and "3.16.1" */
		size_t np, nm;
		const char *vp = version_of(pub, &np),
			   *vm = version_of(meas, &nm);
		if (!np || !nm)
			return !strcasecmp(pub, meas);
		return nm >= np && !strncmp(vp, vm, np) &&
		       (nm == np || vm[np] == '.');
	}
	case CMP_ENGINE:
		return ref_engine_is(pub, meas);
	case CMP_MTU:
		/* meas is the MSS: MTU - 40 (IPv4 + TCP), - 52 with
		 * timestamps */
		a = strtod(pub, &e1);
		b = strtod(meas, &e2);
		return e1 != pub && e2 != meas && (a - 40 == b || a - 52 == b);
	case CMP_DIRECTION:
		return !strcmp(direction_norm(pub), direction_norm(meas));
	case CMP_TEXT:
		break;
	}
	return !strcasecmp(pub, meas);
}

/* A cell's run parameter as an engine_cond_params lookup. */
struct cell_look {
	const struct report *r;
	const struct report_cell *c;
};

static const char *cell_param(void *ctx, const char *key)
{
	const struct cell_look *l = ctx;
	return param(l->r, l->c, key);
}

/* What the cell's engine makes of condition key from the cell's run
 * parameters (its descriptor's condition); NULL when it says nothing. */
static const char *reference_verdict_engine_says(const struct report *r,
						 const struct report_cell *c,
						 const char *key)
{
	struct cell_look l = {r, c};
	struct engine_cond_params cp = {cell_param, &l, 0};
	char v[96];
	cp.duration = r->met.engine_duration;
	if (!c->engine || !engine_cond(c->engine, key, &cp, v, sizeof v))
		return NULL;
	return arena_strdup(r->arena, v);
}

/* The measured value of a published condition for cell c: what the
 * engine observed, else what the runs were given, else the engine's
 * default; NULL when nothing says. */
static const char *cond_measured(const struct report *r, int ci,
				 const char *key, enum cond_cmp *how,
				 int *mixed)
{
	const struct report_cell *c = &r->cells[ci];
	const char *v;
	*how = CMP_TEXT;
	*mixed = 0;
	if (!strcmp(key, "engine")) {
		*how = CMP_ENGINE;
		return c->engine;
	}
	if (!strcmp(key, "engine_version") || !strcmp(key, "version")) {
		*how = CMP_VERSION;
		return observed(r, ci, "version", mixed);
	}
	if (!strcmp(key, "protocol")) {
		if ((v = observed(r, ci, "protocol", mixed)))
			return v;
		return reference_verdict_engine_says(r, c, "protocol");
	}
	if (!strcmp(key, "congestion") || !strcmp(key, "cc")) {
		if ((v = observed(r, ci, "congestion", mixed)))
			return v;
		return param(r, c, "congestion");
	}
	if (!strcmp(key, "streams") || !strcmp(key, "parallel")) {
		*how = CMP_NUMBER;
		if ((v = observed(r, ci, "parallel", mixed)))
			return v;
		if ((v = param(r, c, "parallel")))
			return v;
		return reference_verdict_engine_says(r, c, "streams");
	}
	if (!strcmp(key, "direction")) {
		*how = CMP_DIRECTION;
		if ((v = reference_verdict_engine_says(r, c, "direction")))
			return v;
		return param(r, c, "direction");
	}
	if (!strcmp(key, "duration")) {
		*how = CMP_NUMBER;
		if ((v = param(r, c, "duration")))
			return v;
		return reference_verdict_engine_says(r, c, "duration");
	}
	if (!strcmp(key, "mtu")) {
		*how = CMP_MTU;
		return observed(r, ci, "mss", mixed);
	}
	if ((v = param(r, c, key)))
		return v;
	return NULL;
}

/* A column named after one of these is checked against what the engine
 * observed for the cell's runs, not only the level label (issue 23: a cc
 * column "reproduced" with the kernel default in every run). */
static int observable(const char *key)
{
	static const char *const keys[] = {
	    "cc",  "congestion", "streams",	   "parallel", "protocol",
	    "mtu", "version",	 "engine_version", NULL};
	int i;
	for (i = 0; keys[i]; i++)
		if (!strcmp(key, keys[i]))
			return 1;
	return 0;
}

static void add_reason(const struct report *r, struct buf *b, const char *key,
		       const char *pub, const char *meas, enum cond_cmp how,
		       int mixed)
{
	buf_addf(b, "%s", b->len ? "; " : "");
	if (JA(r))
		buf_addf(b, "公表 %s %s、実測 %s%s%s", key, pub,
			 how == CMP_MTU ? "MSS " : "", meas,
			 mixed ? " ほか" : "");
	else
		buf_addf(b, "published %s %s, measured %s%s%s", key, pub,
			 how == CMP_MTU ? "MSS " : "", meas,
			 mixed ? " and others" : "");
}

/* Factor columns of an observable condition whose published level the
 * cell's runs did not have. */
static void column_reasons(const struct report *r, const struct report_ref *ref,
			   const struct report_ref_row *w, struct buf *b)
{
	int j, mixed;
	enum cond_cmp how;
	for (j = 0; j < ref->nfactors; j++) {
		const char *key = ref->factors[j], *meas;
		if (!observable(key) || !w->levels || !w->levels[j])
			continue;
		meas = cond_measured(r, w->cell, key, &how, &mixed);
		if (!meas || (!mixed && cond_same(how, w->levels[j], meas)))
			continue;
		add_reason(r, b, key, w->levels[j], meas, how, mixed);
	}
}

/* Published conditions the cell contradicts, as reasons; "" when none. */
static const char *cond_reasons(const struct report *r,
				const struct report_ref *ref,
				const struct report_ref_row *w)
{
	struct buf b = BUF_INIT;
	const char *out;
	int i, j;
	column_reasons(r, ref, w, &b);
	for (i = 0; i < ref->nconds; i++) {
		const struct report_ref_cond *k = &ref->conds[i];
		const char *meas = NULL;
		enum cond_cmp how = CMP_TEXT;
		int mixed = 0, fi, named = 0;
		for (j = 0; j < ref->nfactors; j++)
			if (!strcmp(ref->factors[j], k->key))
				named = 1;
		if (named)
			continue; /* a column: column_reasons */
		fi = report_factor_index(r, k->key);
		if (observable(k->key))
			meas = cond_measured(r, w->cell, k->key, &how, &mixed);
		if (!meas && fi >= 0) {
			int l = r->cells[w->cell].lv[fi];
			how = CMP_TEXT;
			mixed = 0;
			meas = l >= 0 ? r->factors[fi].levels[l] : NULL;
		} else if (!meas) {
			meas = cond_measured(r, w->cell, k->key, &how, &mixed);
		}
		if (!meas)
			continue; /* nothing measured says: not checked */
		if (!mixed && cond_same(how, k->value, meas))
			continue;
		add_reason(r, &b, k->key, k->value, meas, how, mixed);
	}
	out = arena_strdup(r->arena, b.s ? b.s : "");
	buf_release(&b);
	return out;
}

/* No verdict on what did not run (schema/reference.md, "Verdicts"): with
 * bad, the factors of the matched cell whose verification failed in some
 * of its ok runs (any factor: those runs did not measure what the plan
 * says): "setting verified wrong: queue: 3 of 3 runs, expected '200ms',
 * got '100ms'"; without, the reference's factor columns that are settings
 * (an apply hook or a manual step) applied but not verified in some run:
 * "queue: 3 of 3 runs (no verify declared)". "" when none; NULL out of
 * memory. */
static const char *verify_reasons(const struct report *r,
				  const struct report_ref *ref,
				  const struct report_ref_row *w, int bad)
{
	const struct report_cell *c = &r->cells[w->cell];
	const char *prefix =
	    report_flag_short(REPORT_FLAG_VERIFY_FAILED, r->about.lang);
	struct buf b = BUF_INIT;
	char text[512];
	const char *out;
	int f, j;
	for (f = 0; c->ver && f < r->nfactors; f++) {
		int named = 0;
		for (j = 0; j < ref->nfactors; j++)
			named |= ref->factor_index[j] == f;
		if (bad ? !c->ver[f].bad
			: !named || !report_cell_unverified(r, w->cell, f))
			continue;
		/* the verdict not_verified says it: no prefix */
		buf_addf(&b, "%s%s%s%s", b.len ? "; " : "", bad ? prefix : "",
			 bad ? " " : "",
			 report_cell_verify_text(r, w->cell, f, bad, text,
						 sizeof text));
	}
	out = arena_strdup(r->arena, b.s ? b.s : "");
	buf_release(&b);
	return out;
}

/* --- numbers ------------------------------------------------------------- */

/* The ok-run values of metric mi in cell ci; NULL (n 0) when the model
 * keeps none (a report built by hand). */
static double *cell_sample(const struct report *r, int ci, int mi, size_t *n)
{
	const struct report_cell *c = &r->cells[ci];
	double *x;
	int i;
	*n = 0;
	if (!c->vals || mi < 0)
		return NULL;
	x = arena_alloc(r->arena, ((size_t)c->nvals + 1) * sizeof *x);
	if (!x)
		return NULL;
	for (i = 0; i < c->nvals; i++) {
		double v = c->vals[mi][i];
		if (!isnan(v))
			x[(*n)++] = v;
	}
	return x;
}

/* The measured statistic the publication names and its interval (base
 * units): mean and single: the mean's 95% t-interval; median and
 * unknown: the median's order-statistic interval, or [min, max] when
 * too few runs reach 95%; max, min: the value itself. */
static void stat_interval(const struct report *r, const struct report_stats *s,
			  enum report_ref_stat stat, const double *x, size_t n,
			  double *est, double *lo, double *hi)
{
	struct stats_median_ci mc;
	*est = *lo = *hi = NAN;
	(void)r;
	switch (stat) {
	case REPORT_REF_STAT_MEAN:
	case REPORT_REF_STAT_SINGLE:
		*est = s->mean;
		*lo = s->ci_low;
		*hi = s->ci_high;
		if (s->n >= 2 && s->sd == 0)
			*lo = *hi = s->mean;
		return;
	case REPORT_REF_STAT_MAX:
		*est = *lo = *hi = s->max;
		return;
	case REPORT_REF_STAT_MIN:
		*est = *lo = *hi = s->min;
		return;
	case REPORT_REF_STAT_MEDIAN:
	case REPORT_REF_STAT_UNKNOWN:
	case REPORT_REF_STAT_COUNT:
		break;
	}
	*est = s->median;
	if (x && n > 0 && stats_median_ci(x, n, 0.95, &mc) == 0) {
		*lo = mc.lo;
		*hi = mc.hi;
	} else if (s->n >= 2) {
		*lo = s->min;
		*hi = s->max;
	}
}

/* Within [low, high] of published p with tolerance tol. */
static enum report_ref_verdict judge(double p, double tol, double lo, double hi)
{
	double a = p * (1 - tol), b = p * (1 + tol);
	if (p < 0) {
		double t = a;
		a = b;
		b = t;
	}
	if (isnan(lo) || isnan(hi))
		return REPORT_REFV_INCONCLUSIVE;
	if (lo >= a && hi <= b)
		return REPORT_REFV_REPRODUCED;
	if (hi < a || lo > b)
		return REPORT_REFV_DIFFERS;
	return REPORT_REFV_INCONCLUSIVE;
}

/* With published runs: TOST on log values (Welch), bounds log(1 -+ tol).
 * 0 when decided, STATS_EDATA when the test does not apply (fewer than 2
 * runs on a side, a value not > 0), -XR_ENOMEM. */
static int judge_tost(struct arena *a, const struct report_ref_row *w,
		      const double *x, size_t n, double tol,
		      struct report_ref_row *out)
{
	struct stats_effect e;
	struct stats_tost t;
	double *la, *lb, low = log(1 - tol), high = log(1 + tol);
	size_t i;
	if (w->npub < 2 || n < 2)
		return STATS_EDATA;
	la = arena_alloc(a, (size_t)w->npub * sizeof *la);
	lb = arena_alloc(a, n * sizeof *lb);
	if (!la || !lb)
		return -XR_ENOMEM;
	for (i = 0; i < (size_t)w->npub; i++) {
		if (!(w->pub[i] > 0))
			return STATS_EDATA;
		la[i] = log(w->pub[i]);
	}
	for (i = 0; i < n; i++) {
		if (!(x[i] > 0))
			return STATS_EDATA;
		lb[i] = log(x[i]);
	}
	if (stats_welch(la, (size_t)w->npub, lb, n, 0.90, &e) < 0)
		return STATS_EDATA;
	out->method = "tost";
	out->diff_pct = 100 * (exp(e.est) - 1);
	out->est = w->v[0].published * exp(e.est);
	if (stats_tost(&e, low, high, 0.05, &t) < 0) {
		/* both samples constant: the point is all there is */
		out->lo = out->hi = out->est;
		out->verdict = e.est > low && e.est < high
				   ? REPORT_REFV_REPRODUCED
				   : REPORT_REFV_DIFFERS;
		return 0;
	}
	out->p = t.p;
	out->lo = w->v[0].published * exp(t.lo);
	out->hi = w->v[0].published * exp(t.hi);
	if (t.equivalent)
		out->verdict = REPORT_REFV_REPRODUCED;
	else if (t.hi < low || t.lo > high)
		out->verdict = REPORT_REFV_DIFFERS;
	else
		out->verdict = REPORT_REFV_INCONCLUSIVE;
	return 0;
}

/* The number verdict of matched row w and its reasons. */
static void judge_row(struct report *r, const struct report_ref *ref,
		      struct report_ref_row *w)
{
	int mi = ref->value_metric[0];
	const struct report_stats *s = &r->cells[w->cell].st[mi];
	double p = w->v[0].published, tol = ref->tolerance;
	size_t n;
	double *x = cell_sample(r, w->cell, mi, &n);
	struct buf b = BUF_INIT;

	if (judge_tost(r->arena, w, x, n, tol, w) < 0) {
		w->method = "interval";
		stat_interval(r, s, ref->statistic, x, n, &w->est, &w->lo,
			      &w->hi);
		w->verdict = judge(p, tol, w->lo, w->hi);
		if (!isnan(w->est) && p != 0)
			w->diff_pct = 100 * (w->est / p - 1);
	}
	if (w->verdict == REPORT_REFV_DIFFERS && !isnan(w->diff_pct))
		buf_addf(&b,
			 report_text(r, w->diff_pct < 0 ? REPORT_T_REF_BELOW
							: REPORT_T_REF_ABOVE),
			 fabs(w->diff_pct));
	else if (w->verdict == REPORT_REFV_INCONCLUSIVE && isnan(w->lo))
		buf_addf(&b, "%s",
			 JA(r) ? "区間なし（試行 1 回）"
			       : "no interval (1 run)");
	else if (w->verdict == REPORT_REFV_INCONCLUSIVE)
		buf_addf(&b,
			 JA(r) ? "区間が ±%g%% の境界をまたぐ"
			       : "the interval crosses ±%g%%",
			 tol * 100);
	if (ref->statistic == REPORT_REF_STAT_UNKNOWN &&
	    !strcmp(w->method, "interval"))
		buf_addf(&b, "%s%s", b.len ? "; " : "",
			 JA(r) ? "統計量は不明: 中央値と比較"
			       : "statistic not published: compared with "
				 "the median");
	w->reasons = arena_strdup(r->arena, b.s ? b.s : "");
	buf_release(&b);
}

/* The verdicts' words in the report's language. */
static const enum report_text_id verdict_text[] = {
    REPORT_T_REF_REPRODUCED,   REPORT_T_REF_DIFFERS,
    REPORT_T_REF_INCONCLUSIVE, REPORT_T_REF_NOT_COMPARABLE,
    REPORT_T_REF_NOT_VERIFIED, REPORT_T_REF_NOT_MEASURED,
    REPORT_T_REF_AMBIGUOUS,
};

/* "3 of 4 published cells reproduced within ±3%; 1 differs: mtu=9000,
 * streams=4 (6.2% below)". */
static const char *summary(const struct report *r, const struct report_ref *ref)
{
	struct buf b = BUF_INIT;
	const char *out;
	int v, k, shown;
	buf_addf(&b, report_text(r, REPORT_T_REF_SUMMARY),
		 ref->nverdict[REPORT_REFV_REPRODUCED], ref->nrows,
		 ref->tolerance * 100);
	for (v = REPORT_REFV_DIFFERS; v < REPORT_REFV_COUNT; v++) {
		if (!ref->nverdict[v])
			continue;
		buf_addf(&b, "; %d %s: ", ref->nverdict[v],
			 report_text(r, verdict_text[v]));
		for (k = 0, shown = 0; k < ref->nrows; k++) {
			const struct report_ref_row *w = &ref->rows[k];
			if ((int)w->verdict != v)
				continue;
			if (shown == 3) {
				buf_adds(&b, ", ...");
				break;
			}
			buf_addf(&b, "%s%s", shown ? ", " : "", w->label);
			if (*w->reasons)
				buf_addf(&b, " (%s)", w->reasons);
			shown++;
		}
	}
	out = arena_strdup(r->arena, b.s ? b.s : "");
	buf_release(&b);
	return out;
}

/* A matched row: a published condition the runs contradict, a setting
 * verified wrong (not_comparable), a setting never verified
 * (not_verified), else the numbers. w->reasons NULL when out of
 * memory. */
static void judge_matched(struct report *r, const struct report_ref *ref,
			  struct report_ref_row *w)
{
	w->verdict = REPORT_REFV_NOT_COMPARABLE;
	if (!(w->reasons = cond_reasons(r, ref, w)) || *w->reasons)
		return;
	if (!(w->reasons = verify_reasons(r, ref, w, 1)) || *w->reasons)
		return;
	w->verdict = REPORT_REFV_NOT_VERIFIED;
	if (!(w->reasons = verify_reasons(r, ref, w, 0)) || *w->reasons)
		return;
	judge_row(r, ref, w);
}

int ref_verdicts(struct report *r, struct report_ref *ref)
{
	int k;
	for (k = 0; k < ref->nrows; k++) {
		struct report_ref_row *w = &ref->rows[k];
		w->reasons = "";
		w->method = "";
		if (w->status == REPORT_REF_AMBIGUOUS) {
			w->verdict = REPORT_REFV_AMBIGUOUS;
			w->reasons = w->detail;
		} else if (w->status != REPORT_REF_MATCHED) {
			w->verdict = REPORT_REFV_NOT_MEASURED;
			w->reasons = w->detail;
		} else {
			judge_matched(r, ref, w);
		}
		if (!w->reasons)
			return -XR_ENOMEM;
		ref->nverdict[w->verdict]++;
	}
	ref->summary = summary(r, ref);
	return ref->summary ? 0 : -1;
}

/* --- formatting ---------------------------------------------------------- */

/* Significant digits of a number as written ("955.37": 5; "9000": 1, as
 * trailing zeros of a whole number say nothing); -1 with an exponent. */
static int text_digits(const char *s)
{
	int n = 0, zeros = 0, lead = 1, dot = strchr(s, '.') != NULL;
	if (strpbrk(s, "eE"))
		return -1;
	for (; *s; s++) {
		if (!isdigit((unsigned char)*s))
			continue;
		if (lead && *s == '0')
			continue;
		lead = 0;
		n++;
		zeros = *s == '0' ? zeros + 1 : 0;
	}
	return dot ? n : n - zeros;
}

char *report_ref_fmt_published(const struct report *r, int mi, double v,
			       const char *text, char *out, size_t n)
{
	double scale = r->met.display_scale > 0 ? r->met.display_scale : 1, x;
	int sig, d;
	if (mi != r->met.primary || !text || !*text || isnan(v) || v == 0)
		return report_fmt_metric(r, mi, v, out, n);
	sig = text_digits(text);
	if (sig < 0)
		return report_fmt_metric(r, mi, v, out, n);
	x = v / scale;
	d = sig - 1 - (int)floor(log10(fabs(x)));
	if (d < report_fmt_decimals(x))
		d = report_fmt_decimals(x);
	if (d > 12)
		d = 12;
	snprintf(out, n, "%.*f", d < 0 ? 0 : d, x);
	return out;
}

char *report_ref_fmt_verdict(const struct report *r,
			     const struct report_ref_row *w, char *out,
			     size_t n)
{
	const char *v = report_text(r, verdict_text[w->verdict]);
	if (w->verdict == REPORT_REFV_REPRODUCED && !isnan(w->diff_pct))
		snprintf(out, n, "%s (%+.1f%%)", v, w->diff_pct);
	else if (*w->reasons)
		snprintf(out, n, "%s: %s", v, w->reasons);
	else
		snprintf(out, n, "%s", v);
	return out;
}
