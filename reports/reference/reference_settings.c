/*
 * The settings of a reference, everything above its header line
 * (schema/reference.md): `metric` and `unit`, and version 2's format,
 * source (title, url, author, date), statistic, runs, tolerance, metrics
 * and conditions; problems go to the reading's diagnostics. reference.c
 * reads the header and rows below them.
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "buf.h"
#include "reference_int.h"
#include "banned.h"

/* The v2 settings that describe the source: key, where it goes. */
static const char **source_slot(struct ref_read *rr, const char *key)
{
	if (!strcmp(key, "title"))
		return &rr->title;
	if (!strcmp(key, "url"))
		return &rr->url;
	if (!strcmp(key, "author"))
		return &rr->author;
	if (!strcmp(key, "date"))
		return &rr->date;
	return NULL;
}

/* Condition keys a v2 file may also write as a plain setting
 * (`congestion,cubic`); any other key needs `condition,KEY,VALUE`. */
static const char *const cond_keys[] = {
    "engine",	  "engine_version",
    "version",	  "protocol",
    "direction",  "duration",
    "streams",	  "parallel",
    "congestion", "cc",
    "mtu",	  NULL,
};

static int is_cond_key(const char *k)
{
	int i;
	for (i = 0; cond_keys[i]; i++)
		if (!strcmp(cond_keys[i], k))
			return 1;
	return 0;
}

/* FNV-1a of a condition's key, factor and level (NULL: file-wide). */
static size_t cond_hash(const char *key, const char *fac, const char *lvl)
{
	uint64_t h = 1469598103934665603ULL;
	const char *parts[3] = {key, fac ? fac : "", lvl ? lvl : ""};
	for (int k = 0; k < 3; k++) {
		for (const unsigned char *q = (const unsigned char *)parts[k];
		     *q; q++)
			h = (h ^ *q) * 1099511628211ULL;
		h = (h ^ 0x1f) * 1099511628211ULL;
	}
	return (size_t)h;
}

static int cond_same(const struct report_ref_cond *x, const char *key,
		     const char *fac, const char *lvl)
{
	return !strcmp(x->key, key) &&
	       (!fac || (x->factor && !strcmp(x->factor, fac) &&
			 !strcmp(x->level, lvl)));
}

/* Entry t of list arr (n of them) into index w's table (linear probing). */
static void cond_slot_put(int *tab, int cap, const struct report_ref_cond *x,
			  int t)
{
	size_t i = cond_hash(x->key, x->factor, x->level) & (size_t)(cap - 1);
	while (tab[i])
		i = (i + 1) & (size_t)(cap - 1);
	tab[i] = t + 1;
}

/* The entry of (key, fac, lvl) in list w (arr, n), or -1; the table
 * grown (rebuilt) first so that it stays at most half full. -2 when out
 * of memory. */
static int cond_find(struct ref_read *rr, int w,
		     const struct report_ref_cond *arr, int n, const char *key,
		     const char *fac, const char *lvl)
{
	size_t i;
	if (2 * (n + 1) > rr->ccap[w]) {
		int cap = rr->ccap[w] ? 2 * rr->ccap[w] : 64;
		int *tab = arena_alloc(rr->a, (size_t)cap * sizeof *tab);
		if (!tab)
			return -2;
		for (int t = 0; t < n; t++)
			cond_slot_put(tab, cap, &arr[t], t);
		rr->cidx[w] = tab;
		rr->ccap[w] = cap;
	}
	i = cond_hash(key, fac, lvl) & (size_t)(rr->ccap[w] - 1);
	for (; rr->cidx[w][i]; i = (i + 1) & (size_t)(rr->ccap[w] - 1))
		if (cond_same(&arr[rr->cidx[w][i] - 1], key, fac, lvl))
			return rr->cidx[w][i] - 1;
	return -1;
}

/* Condition c->f[kf] = c->f[kf + 1] into the file-wide list, or, with
 * a scope "FACTOR=LEVEL" in c->f[kf + 2], into the per-level one. */
static void add_cond(struct ref_read *rr, const struct ref_record *c, int kf)
{
	struct report_ref_cond *x, **arr = &rr->conds;
	int i, *n = &rr->nconds, *capp = &rr->capconds;
	const char *scope = c->n > kf + 2 ? c->f[kf + 2].s : NULL, *eq = NULL;
	char *fac = NULL;
	if (scope) {
		arr = &rr->lconds;
		n = &rr->nlconds;
		capp = &rr->caplconds;
		eq = strchr(scope, '=');
		if (!eq || eq == scope || !eq[1]) {
			xr_diag_add(rr->d, 0, c->line, c->f[kf + 2].col,
				    "condition scope '%s' is not "
				    "'FACTOR=LEVEL'",
				    scope);
			return;
		}
		fac = arena_strndup(rr->a, scope, (size_t)(eq - scope));
		if (!fac)
			return;
	}
	i = cond_find(rr, scope != NULL, *arr, *n, c->f[kf].s, fac,
		      scope ? eq + 1 : NULL);
	if (i == -2)
		return;
	if (i >= 0) {
		xr_diag_add(rr->d, 0, c->line, c->f[kf].col,
			    "condition '%s'%s%s given twice (first on "
			    "line %d)",
			    c->f[kf].s, scope ? " for " : "",
			    scope ? scope : "", (*arr)[i].line);
		return;
	}
	if (*n == *capp) {
		int cap = *capp ? *capp * 2 : 8;
		x = arena_alloc(rr->a, (size_t)cap * sizeof *x);
		if (!x)
			return;
		if (*n)
			memcpy(x, *arr, (size_t)*n * sizeof *x);
		*arr = x;
		*capp = cap;
	}
	x = &(*arr)[(*n)++];
	memset(x, 0, sizeof *x);
	x->key = c->f[kf].s;
	x->value = c->f[kf + 1].s;
	x->line = c->line;
	x->col = c->f[kf + 1].col;
	if (scope) {
		x->factor = fac;
		x->level = eq + 1;
		x->scope_col = c->f[kf + 2].col;
	}
	cond_slot_put(rr->cidx[scope != NULL], rr->ccap[scope != NULL], x,
		      *n - 1);
	if (!*x->value)
		xr_diag_add(rr->d, 0, c->line, c->f[kf + 1].col,
			    "condition '%s' has an empty value", x->key);
	else
		ref_check_ceiling_cond(rr->d, x);
}

/* A percentage ("3%") or a fraction ("0.03"); -XR_EPARSE when neither. */
static int parse_tolerance(const char *s, double *out)
{
	char *e;
	double v;
	errno = 0;
	v = strtod(s, &e);
	if (e == s || errno || !isfinite(v))
		return -XR_EPARSE;
	while (*e == ' ')
		e++;
	if (*e == '%') {
		v /= 100;
		e++;
	}
	if (*e || v <= 0 || v >= 1)
		return -XR_EPARSE;
	*out = v;
	return 0;
}

/* A v2 setting (format, source, statistic, runs, tolerance, conditions).
 * 1 when the key is one, 0 when not. */
static int read_v2_setting(struct ref_read *rr, const struct ref_record *c)
{
	const char *key = c->f[0].s, *val = c->n > 1 ? c->f[1].s : "";
	const char **slot;
	int col = c->n > 1 ? c->f[1].col : 1;
	if (!strcmp(key, "condition")) {
		if (c->n != 3 && c->n != 4)
			xr_diag_add(rr->d, 0, c->line, 1,
				    "expected 'condition,KEY,VALUE' or "
				    "'condition,KEY,VALUE,FACTOR=LEVEL'; got "
				    "%d fields",
				    c->n);
		else
			add_cond(rr, c, 1);
	} else if (c->n != 2) {
		return 0;
	} else if (!strcmp(key, "format")) {
		if (strcmp(val, "1") && strcmp(val, "2"))
			xr_diag_add(rr->d, 0, c->line, col,
				    "unknown format '%s' (known: 1, 2)", val);
		rr->version = val[0] == '1' ? 1 : 2;
		return 1;
	} else if ((slot = source_slot(rr, key)) != NULL) {
		*slot = val;
	} else if (!strcmp(key, "extra_metrics")) {
		rr->extra_metrics = val;
	} else if (!strcmp(key, "statistic")) {
		rr->statistic = report_ref_stat_parse(val);
		if (rr->statistic < 0) {
			xr_diag_add(rr->d, 0, c->line, col,
				    "unknown statistic '%s' (known: mean, "
				    "median, max, min, single, unknown)",
				    val);
			rr->statistic = REPORT_REF_STAT_UNKNOWN;
		}
	} else if (!strcmp(key, "runs")) {
		double v;
		if (ref_parse_num(val, &v) < 0 || v < 1 || v != floor(v) ||
		    v > 1e6)
			xr_diag_add(rr->d, 0, c->line, col,
				    "runs '%s' is not a positive whole number",
				    val);
		else
			rr->runs = (int)v;
	} else if (!strcmp(key, "tolerance")) {
		if (parse_tolerance(val, &rr->tolerance) < 0)
			xr_diag_add(rr->d, 0, c->line, col,
				    "tolerance '%s' is not a percentage "
				    "between 0 and 100 ('3%%') or a fraction "
				    "('0.03')",
				    val);
	} else if (is_cond_key(key)) {
		add_cond(rr, c, 0);
	} else {
		return 0;
	}
	if (!rr->v2_line)
		rr->v2_line = c->line;
	return 1;
}

/* A `key,value` setting: metric, unit or a v2 one. */
static void read_setting(struct ref_read *rr, const struct ref_record *c)
{
	const char *key = c->f[0].s;
	if (read_v2_setting(rr, c) || ref_unit_setting(rr, c))
		return;
	if (c->n != 2) {
		xr_diag_add(rr->d, 0, c->line, 1,
			    "expected a setting 'key,value' (metric, "
			    "unit) or the header line with a 'value' "
			    "column; got %d fields",
			    c->n);
	} else if (!strcmp(key, "metric")) {
		if (rr->metric)
			xr_diag_add(rr->d, 0, c->line, 1,
				    "setting 'metric' given twice "
				    "(first on line %d)",
				    rr->metric_line);
		rr->metric = c->f[1].s;
		rr->metric_line = c->line;
		rr->metric_col = c->f[1].col;
	} else if (!strcmp(key, "unit")) {
		if (rr->unit)
			xr_diag_add(rr->d, 0, c->line, 1,
				    "setting 'unit' given twice (first "
				    "on line %d)",
				    rr->unit_line);
		rr->unit = c->f[1].s;
		rr->unit_line = c->line;
		rr->unit_col = c->f[1].col;
	} else {
		xr_diag_add(rr->d, 0, c->line, 1,
			    "unknown setting '%s' (known: metric, "
			    "unit, format, title, url, author, date, "
			    "statistic, runs, tolerance, extra_metrics, "
			    "condition), or a "
			    "header line without a 'value' column",
			    key);
	}
}

/* `value`, or `value (UNIT)` / `value [UNIT]` / `value UNIT`. */
static int is_value_column(const char *s)
{
	return !strncmp(s, "value", 5) &&
	       (!s[5] || s[5] == ' ' || s[5] == '(' || s[5] == '[');
}

/* The header's units (reference_units.c); `value (UNIT)` is the values'
 * unit, as the `unit` setting says it. 0 or -XR_ENOMEM. */
static int value_unit(struct ref_read *rr, struct ref_record *h)
{
	int j, rc = ref_header_units(rr, h);
	for (j = 0; rc == 0 && j < h->n; j++) {
		if (strcmp(h->f[j].s, "value") || !rr->col_unit[j])
			continue;
		if (rr->unit && strcmp(rr->unit, rr->col_unit[j]))
			xr_diag_add(rr->d, 0, h->line, h->f[j].col,
				    "the header says the values are in %s, "
				    "line %d says %s",
				    rr->col_unit[j], rr->unit_line, rr->unit);
		else if (!rr->unit) {
			rr->unit = rr->col_unit[j];
			rr->unit_line = h->line;
			rr->unit_col = h->f[j].col;
		}
	}
	return rc;
}

/* Settings, then the header (the first record with a `value` column),
 * each kept in the arena (settings point into them). */
int ref_read_head(struct ref_read *rr)
{
	struct ref_record c, peek, *hk = NULL;
	int j, rc;
	while (!rr->hdr && (rc = ref_csv_next(&rr->csv, &c)) > 0) {
		struct ref_record *k = arena_alloc(rr->a, sizeof *k);
		if (!k || ref_csv_keep(rr->a, &rr->csv, k) < 0)
			return -XR_ENOMEM;
		k->line = rr->last_line = c.line;
		for (j = 0; j < k->n; j++)
			if (is_value_column(k->f[j].s))
				rr->hdr = hk = k;
		if (!rr->hdr)
			read_setting(rr, k);
	}
	if (!rr->hdr && rc < 0)
		return rc;
	if (hk && (rc = value_unit(rr, hk)) < 0)
		return rc;
	if (!rr->hdr) {
		xr_diag_add(rr->d, 0, rr->last_line ? rr->last_line : 1, 0,
			    "no header line with a 'value' column (see "
			    "schema/reference.md)");
		return -XR_EPARSE;
	}
	/* a look at the next record, its problems left to the reading */
	rc = ref_csv_peek(&rr->csv, &peek);
	if (rc < 0)
		return rc;
	rr->has_rows = rc > 0;
	if (!rr->has_rows)
		xr_diag_add(rr->d, 0, rr->hdr->line, 1,
			    "no published rows after the header");
	if (!rr->metric)
		rr->metric = "throughput";
	if (!rr->unit)
		rr->unit = "Gbit/s";
	return 0;
}

void ref_settings_into(struct ref_read *rr)
{
	struct report_ref *ref = rr->ref;
	ref->version = rr->version ? rr->version : rr->v2_line ? 2 : 1;
	ref->title = rr->title;
	ref->url = rr->url;
	ref->author = rr->author;
	ref->date = rr->date;
	ref->statistic = rr->statistic >= 0
			     ? (enum report_ref_stat)rr->statistic
			     : REPORT_REF_STAT_UNKNOWN;
	ref->runs = rr->runs;
	ref->tolerance =
	    rr->tolerance > 0 ? rr->tolerance : REPORT_REF_DEFAULT_TOLERANCE;
	ref->tolerance_source = rr->tolerance > 0;
	ref->conds = rr->conds;
	ref->nconds = rr->nconds;
	ref->lconds = rr->lconds;
	ref->nlconds = rr->nlconds;
}
