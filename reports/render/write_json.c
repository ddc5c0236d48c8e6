/*
 * The JSON writer: the report model as documented in schema/report.md,
 * values in base units, NaN as null. Built with jansson so that every
 * string is escaped correctly.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "arena.h"
#include "buf.h"
#include "escape.h"
#include "explain.h"
#include "json_dump.h"
#include "json_runs.h"
#include "render.h"
#include "rfindings.h"
#include "banned.h"

/* What the escaping replaced in the report being written. */
static struct esc_count json_count;

/* A JSON string; jansson refuses ill-formed UTF-8 (the value would be
 * lost), so such bytes become U+FFFD first and are counted. */
static json_t *jstr(const char *s)
{
	struct buf b = BUF_INIT;
	json_t *j;
	int bad;
	if (!s)
		return json_null();
	j = json_string(s);
	if (j)
		return j;
	bad = esc_utf8(&b, s);
	esc_count_add(&json_count, bad);
	j = json_string(b.s ? b.s : "");
	buf_release(&b);
	return j;
}

static json_t *num(double v)
{
	return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

static json_t *str(const char *s)
{
	return s ? jstr(s) : json_null();
}

static json_t *cell_obj(const struct report *r, const struct report_cell *c)
{
	json_t *o = json_object();
	int f;
	for (f = 0; f < r->nfactors; f++)
		if (c->lv[f] >= 0)
			json_object_set_new(
			    o, r->factors[f].name,
			    jstr(r->factors[f].levels[c->lv[f]]));
	return o;
}

static json_t *write_json_stats_obj(const struct report_stats *s, json_t *o)
{
	json_object_set_new(o, "metric", str(s->metric));
	json_object_set_new(o, "unit", str(s->unit));
	json_object_set_new(o, "n", json_integer(s->n));
	json_object_set_new(o, "median", num(s->median));
	json_object_set_new(o, "mean", num(s->mean));
	json_object_set_new(o, "sd", num(s->sd));
	json_object_set_new(o, "cv_pct", num(s->cv_pct));
	json_object_set_new(o, "min", num(s->min));
	json_object_set_new(o, "max", num(s->max));
	json_object_set_new(o, "ci_low", num(s->ci_low));
	json_object_set_new(o, "ci_high", num(s->ci_high));
	json_object_set_new(o, "geomean", num(s->gm));
	json_object_set_new(o, "geomean_low", num(s->gm_low));
	json_object_set_new(o, "geomean_high", num(s->gm_high));
	json_object_set_new(o, "median_low", num(s->med_low));
	json_object_set_new(o, "median_high", num(s->med_high));
	return o;
}

/* A flag as the sentence in the report's language plus its detail. */
static json_t *flag_text(const struct report *r, const struct report_flag *f)
{
	struct buf b = BUF_INIT;
	json_t *s;
	buf_adds(&b, report_flag_text(f->code, r->about.lang));
	if (f->detail && *f->detail)
		buf_addf(&b, " (%s)", f->detail);
	s = jstr(b.s);
	buf_release(&b);
	return s;
}

static json_t *flag_list(const struct report *r, const struct report_flag *fl,
			 int n, json_t **codes, json_t **details)
{
	json_t *texts = json_array();
	int i;
	*codes = json_array();
	*details = json_array();
	for (i = 0; i < n; i++) {
		json_array_append_new(*codes,
				      jstr(report_flag_code_name(fl[i].code)));
		json_array_append_new(
		    *details,
		    json_pack("{s:s,s:s,s:i}", "code",
			      report_flag_code_name(fl[i].code), "detail",
			      fl[i].detail ? fl[i].detail : "", "note",
			      report_flag_mark(r, fl[i].code)));
		json_array_append_new(texts, flag_text(r, &fl[i]));
	}
	return texts;
}

/* A sized cell's decision and outcome (schema/report.md, "sizing"). */
static json_t *write_json_sizing(const struct report_sizing *z)
{
	json_t *o = json_object();
	json_object_set_new(o, "pilot", json_integer(z->pilot_n));
	json_object_set_new(o, "need", json_integer(z->need));
	json_object_set_new(o, "planned", json_integer(z->planned));
	json_object_set_new(o, "max", json_integer(z->max));
	json_object_set_new(o, "done",
			    z->runs_done >= 0 ? json_integer(z->runs_done)
					      : json_null());
	json_object_set_new(o, "precision", num(z->precision));
	json_object_set_new(o, "reached", num(z->reached));
	json_object_set_new(o, "stopped",
			    z->stopped ? json_string(z->stopped) : json_null());
	return o;
}
/* cells[].limit (reports/explain, schema/report.md "Limits"). */
static json_t *limit_obj(const struct explain_limit *l)
{
	json_t *ser = json_array();
	const char *p = l->series;
	while (p && *p) {
		const char *e = strstr(p, ", ");
		size_t n = e ? (size_t)(e - p) : strlen(p);
		json_array_append_new(ser, json_stringn(p, n));
		p = e ? e + 2 : NULL;
	}
	return json_pack(
	    "{s:s,s:o,s:o,s:o,s:o,s:s,s:{s:s,s:o},s:o,s:o,s:o}", "kind",
	    explain_kind_name(l->kind), "also",
	    l->kind2 ? json_string(explain_kind_name(l->kind2)) : json_null(),
	    "ceiling", num(l->ceiling), "fraction", num(l->fraction),
	    "ceiling_name", str(l->ceiling_name), "text", l->line, "evidence",
	    "text", l->evidence, "series", ser, "missing_facts",
	    str(l->missing), "facts_differ", str(l->differ), "facts_disagree",
	    str(l->disagree));
}

/* The rate search of cell k (report.h, struct report_search), NULL when
 * the cell ran none: each goal's result and every trial. */
static json_t *search_json(const struct report *r, int k)
{
	const struct report_search *s = NULL;
	json_t *o, *goals, *trials;
	struct buf why = BUF_INIT;
	double from, to;
	int i, q;
	for (i = 0; i < r->nsearches; i++)
		if (r->searches[i].cell == k)
			s = &r->searches[i];
	if (!s)
		return NULL;
	goals = json_array();
	trials = json_array();
	for (i = 0; i < s->ngoals; i++) {
		const struct report_search_goal *g = &s->goals[i];
		json_t *loads = json_array();
		for (q = 0; q < s->nsearches; q++)
			json_array_append_new(loads, num(g->loads[q]));
		json_array_append_new(
		    goals,
		    json_pack(
			"{s:o,s:o,s:o,s:o,s:o,s:b,s:o,s:i,s:o,s:o,s:o,"
			"s:o,s:o}",
			"name", str(g->name), "load",
			g->has_load ? num(g->load) : json_null(), "throughput",
			g->has_load ? num(g->throughput) : json_null(), "upper",
			g->has_upper ? num(g->upper) : json_null(), "pps",
			num(g->pps), "regular", g->regular, "irregular",
			g->regular ? json_null() : str(g->why), "trials",
			g->trials, "loads", loads, "loss", num(g->loss),
			"trial", num(g->trial), "sum", num(g->sum), "exceed",
			num(g->exceed)));
	}
	for (i = 0; i < s->ntrials; i++) {
		const struct report_search_trial *t = &s->trials[i];
		json_array_append_new(
		    trials,
		    json_pack("{s:i,s:i,s:o,s:o,s:o,s:o,s:o,s:b,s:I}", "search",
			      t->search, "seq", t->seq, "goal",
			      str(s->goals[t->goal].name), "load", num(t->load),
			      "loss", t->ok ? num(t->loss) : json_null(),
			      "duration", num(t->duration), "pps", num(t->pps),
			      "ok", t->ok, "run_id", (json_int_t)t->run_id));
	}
	o = json_pack("{s:o,s:o,s:o,s:o,s:o,s:i,s:o,s:o}", "param",
		      str(s->param), "unit", str(s->unit), "min", num(s->min),
		      "max", num(s->max), "width", num(s->width), "searches",
		      s->nsearches, "goals", goals, "trials", trials);
	/* where loss began (explain_search) */
	for (i = 0; i < r->nsearches; i++)
		if (&r->searches[i] == s &&
		    explain_search(r, i, &why, &from, &to) == 0)
			json_object_set_new(o, "drops",
					    json_pack("{s:o,s:o,s:o}", "from",
						      num(from), "to", num(to),
						      "text", str(why.s)));
	buf_release(&why);
	return o;
}

/* Element k of "cells"; x the explanation (NULL: no "limit"). */
static json_t *cell_json(const struct report *r, const struct explain *x, int k)
{
	const struct report_cell *c = &r->cells[k];
	const struct report_stats *s = &c->st[r->met.primary];
	json_t *o = json_object(), *ms = json_object(), *codes, *det;
	int m;
	json_object_set_new(o, "cell", cell_obj(r, c));
	json_object_set_new(o, "label", str(c->label));
	write_json_stats_obj(s, o);
	json_object_set_new(o, "runs", json_integer(c->n_runs));
	json_object_set_new(o, "ok", json_integer(c->n_ok));
	json_object_set_new(o, "failed", json_integer(c->n_failed));
	json_object_set_new(o, "timeout", json_integer(c->n_timeout));
	json_object_set_new(o, "interval",
			    json_pack("{s:i,s:o,s:o}", "n", s->n_intervals,
				      "p95", num(s->iv_p95), "peak",
				      num(s->iv_peak)));
	json_decref(flag_list(r, c->flags, c->nflags, &codes, &det));
	json_object_set_new(o, "flags", codes);
	json_object_set_new(o, "flag_details", det);
	for (m = 0; m < r->met.nmetrics; m++)
		json_object_set_new(
		    ms, r->met.metrics[m],
		    write_json_stats_obj(&c->st[m], json_object()));
	json_object_set_new(o, "metrics", ms);
	if (x)
		json_object_set_new(o, "limit", limit_obj(&x->cells[k]));
	if (c->sizing)
		json_object_set_new(o, "sizing", write_json_sizing(c->sizing));
	if ((ms = search_json(r, k)))
		json_object_set_new(o, "search", ms);
	json_object_set_new(o, "first_start", num(c->first_start));
	json_object_set_new(o, "last_end", num(c->last_end));
	return o;
}

static json_t *tables(const struct report *r)
{
	json_t *a = json_array();
	int t, i, c, j;
	for (t = 0; t < r->ntables; t++) {
		const struct report_table *tb = &r->tables[t];
		json_t *o = json_object(), *cols = json_array(),
		       *rows = json_array(), *labels = json_array(),
		       *grid = json_array();
		json_object_set_new(o, "metric", str(tb->metric));
		json_object_set_new(o, "rows",
				    tb->row_factor >= 0
					? jstr(r->factors[tb->row_factor].name)
					: json_null());
		for (i = 0; i < tb->ncol_factors; i++)
			json_array_append_new(
			    cols, jstr(r->factors[tb->col_factors[i]].name));
		json_object_set_new(o, "columns", cols);
		for (i = 0; i < tb->nrows; i++)
			json_array_append_new(rows, jstr(tb->row_label[i]));
		json_object_set_new(o, "row_levels", rows);
		for (c = 0; c < tb->ncols; c++)
			json_array_append_new(labels, jstr(tb->col_label[c]));
		json_object_set_new(o, "column_labels", labels);
		for (i = 0; i < tb->nrows; i++) {
			json_t *row = json_array();
			for (c = 0; c < tb->ncols; c++) {
				j = tb->cell[i * tb->ncols + c];
				json_array_append_new(row, j >= 0
							       ? json_integer(j)
							       : json_null());
			}
			json_array_append_new(grid, row);
		}
		json_object_set_new(o, "cells", grid);
		json_object_set_new(o, "ambiguous",
				    json_boolean(tb->ambiguous));
		json_array_append_new(a, o);
	}
	return a;
}

/* The position model's estimate beside Welch; null when none. */
static json_t *sensitivity(const struct report_cmp *c)
{
	json_t *o;
	if (!(c->sens_high_pct > c->sens_low_pct))
		return json_null();
	o = json_object();
	json_object_set_new(o, "method", json_string("position-ols"));
	json_object_set_new(o, "delta_pct", num(c->sens_pct));
	json_object_set_new(o, "ci_low_pct", num(c->sens_low_pct));
	json_object_set_new(o, "ci_high_pct", num(c->sens_high_pct));
	return o;
}

/* Hodges-Lehmann and Mann-Whitney; null when not computed. */
static json_t *robust(const struct report *r, const struct report_cmp *c)
{
	json_t *o;
	if (isnan(c->hl_pct))
		return json_null();
	o = json_object();
	json_object_set_new(o, "hl_pct", num(c->hl_pct));
	json_object_set_new(o, "hl_low_pct", num(c->hl_low_pct));
	json_object_set_new(o, "hl_high_pct", num(c->hl_high_pct));
	json_object_set_new(o, "mw_p", num(c->mw_p));
	json_object_set_new(
	    o, "verdict", json_string(report_verdict_name(c->robust_verdict)));
	json_object_set_new(o, "disagrees", json_boolean(c->robust_shown));
	json_object_set_new(o, "definition",
			    jstr(report_text(r, REPORT_T_DELTA_DEF_HL)));
	return o;
}

/* Element k of "comparisons"; x the explanation (NULL: "limits" null). */
static json_t *cmp_json(const struct report *r, const struct explain *x, int k)
{
	const struct report_cmp *c = &r->cmps[k];
	json_t *o = json_object(), *codes, *det;
	json_object_set_new(o, "limits", str(x ? x->pairs[k] : NULL));
	json_object_set_new(o, "factor",
			    c->factor >= 0 ? jstr(r->factors[c->factor].name)
					   : json_null());
	json_object_set_new(o, "a", cell_obj(r, &r->cells[c->a]));
	json_object_set_new(o, "b", cell_obj(r, &r->cells[c->b]));
	json_object_set_new(o, "a_index", json_integer(c->a));
	json_object_set_new(o, "b_index", json_integer(c->b));
	json_object_set_new(o, "metric", str(c->metric));
	json_object_set_new(o, "n_a", json_integer(c->n_a));
	json_object_set_new(o, "n_b", json_integer(c->n_b));
	json_object_set_new(o, "median_a",
			    num(r->cells[c->a].st[r->met.primary].median));
	json_object_set_new(o, "median_b",
			    num(r->cells[c->b].st[r->met.primary].median));
	json_object_set_new(o, "geomean_a",
			    num(r->cells[c->a].st[r->met.primary].gm));
	json_object_set_new(o, "geomean_b",
			    num(r->cells[c->b].st[r->met.primary].gm));
	json_object_set_new(o, "factors", str(c->factors));
	json_object_set_new(o, "configuration", json_boolean(c->configuration));
	json_object_set_new(o, "delta_pct", num(c->delta_pct));
	json_object_set_new(o, "ci_low_pct", num(c->ci_low_pct));
	json_object_set_new(o, "ci_high_pct", num(c->ci_high_pct));
	json_object_set_new(o, "p", num(c->p));
	json_object_set_new(o, "df", num(c->df));
	json_object_set_new(o, "eq90_low_pct", num(c->eq_low_pct));
	json_object_set_new(o, "eq90_high_pct", num(c->eq_high_pct));
	json_object_set_new(o, "sensitivity", sensitivity(c));
	json_object_set_new(o, "robust", robust(r, c));
	json_object_set_new(o, "method", jstr(report_method_name(c->method)));
	json_object_set_new(o, "delta_definition",
			    str(report_delta_definition(r, c)));
	json_object_set_new(o, "decide_df", json_integer(c->decide_df));
	json_object_set_new(o, "p_adj", num(c->p_adj));
	json_object_set_new(o, "verdict",
			    jstr(report_verdict_name(c->verdict)));
	json_object_set_new(o, "higher_is_better",
			    json_boolean(c->higher_is_better));
	json_object_set_new(
	    o, "reasons", flag_list(r, c->reasons, c->nreasons, &codes, &det));
	json_object_set_new(o, "reason_codes", codes);
	json_decref(det);
	json_object_set_new(
	    o, "warnings",
	    flag_list(r, c->warnings, c->nwarnings, &codes, &det));
	json_object_set_new(o, "warning_codes", codes);
	json_decref(det);
	return o;
}

/* The v2 settings of a reference: source, statistic, runs, tolerance and
 * the published conditions. */
static void ref_settings(json_t *o, const struct report_ref *ref)
{
	json_t *src = json_object(), *c = json_object();
	int i;
	json_object_set_new(o, "format", json_integer(ref->version));
	json_object_set_new(src, "title", str(ref->title));
	json_object_set_new(src, "url", str(ref->url));
	json_object_set_new(src, "author", str(ref->author));
	json_object_set_new(src, "date", str(ref->date));
	json_object_set_new(o, "source", src);
	json_object_set_new(o, "statistic",
			    str(report_ref_stat_name(ref->statistic)));
	json_object_set_new(
	    o, "runs", ref->runs > 0 ? json_integer(ref->runs) : json_null());
	json_object_set_new(o, "tolerance", num(ref->tolerance));
	json_object_set_new(o, "tolerance_source",
			    str(ref->tolerance_source == 2   ? "option"
				: ref->tolerance_source == 1 ? "file"
							     : "default"));
	for (i = 0; i < ref->nconds; i++)
		json_object_set_new(c, ref->conds[i].key,
				    str(ref->conds[i].value));
	json_object_set_new(o, "conditions", c);
}

/* A published cell's verdict and reasons, before its published runs. */
static void ref_verdict(json_t *row, const struct report_ref_row *w)
{
	json_object_set_new(row, "verdict",
			    str(report_ref_verdict_name(w->verdict)));
	json_object_set_new(row, "reasons", str(w->reasons));
	json_object_set_new(row, "method", str(w->method));
	json_object_set_new(row, "published", num(w->v[0].published));
}

/* What the verdict compared, after the published runs. */
static json_t *ref_measured(const struct report_ref_row *w,
			    const struct explain *x, int k)
{
	json_t *row = json_object();
	json_object_set_new(row, "measured", num(w->est));
	json_object_set_new(row, "interval_low", num(w->lo));
	json_object_set_new(row, "interval_high", num(w->hi));
	json_object_set_new(row, "diff_pct", num(w->diff_pct));
	json_object_set_new(row, "p", num(w->p));
	if (x && k < x->nrefs) {
		json_t *l = limit_obj(&x->refs[k]);
		json_object_set_new(l, "sentence", str(x->ref_lines[k]));
		json_object_set_new(row, "limit", l);
	}
	return row;
}

/* What the runs ran under: each value with its run count, the cells in
 * which it varied; the controller's load as numbers. */
static json_t *conditions(const struct report *r)
{
	json_t *a = json_array();
	int i, k;
	for (i = 0; i < r->nconds; i++) {
		const struct report_condition *c = &r->conds[i];
		json_t *o =
		    json_pack("{s:s,s:s}", "key", c->key, "name", c->name);
		json_t *v = json_array(), *w = json_array();
		for (k = 0; k < c->nvalues; k++)
			json_array_append_new(v, json_pack("{s:s,s:i}", "value",
							   c->values[k].value,
							   "runs",
							   c->values[k].runs));
		for (k = 0; k < c->nvaries; k++)
			json_array_append_new(w, json_string(c->varies[k]));
		json_object_set_new(o, "values", v);
		json_object_set_new(o, "varies_in_cells", w);
		if (c->is_load) {
			json_object_set_new(o, "load_min", num(c->load_min));
			json_object_set_new(o, "load_max", num(c->load_max));
			json_object_set_new(o, "cpus", json_integer(c->cpus));
			json_object_set_new(o, "runs", json_integer(c->nruns));
			json_object_set_new(o, "runs_over_cpus",
					    json_integer(c->over));
		}
		json_array_append_new(a, o);
	}
	return a;
}

/* Each session's plan hash, start and hosts (a merged store has several). */
static json_t *write_json_session_info(const struct report *r)
{
	json_t *a = json_array();
	int i;
	for (i = 0; r->span.session_info && i < r->span.nsessions; i++) {
		const struct report_session *s = &r->span.session_info[i];
		json_array_append_new(
		    a,
		    json_pack("{s:I,s:o,s:o,s:s,s:o}", "session",
			      (json_int_t)s->id, "plan_hash", str(s->plan_hash),
			      "started_at", num(s->started_at), "hosts",
			      s->hosts ? s->hosts : "", "testbed",
			      str(s->testbed)));
	}
	return a;
}

/* The reference's keys before its rows. */
static json_t *ref_head(const struct report_ref *ref)
{
	json_t *o = json_object(), *a = json_array();
	int j;
	json_object_set_new(o, "file", str(ref->path));
	json_object_set_new(o, "metric", str(ref->values[0]));
	json_object_set_new(o, "unit", str(ref->unit));
	for (j = 0; j < ref->nfactors; j++)
		json_array_append_new(a, str(ref->factors[j]));
	json_object_set_new(o, "factors", a);
	json_object_set_new(o, "matched", json_integer(ref->nmatched));
	json_object_set_new(o, "not_measured",
			    json_integer(ref->nnot_measured));
	json_object_set_new(o, "ambiguous", json_integer(ref->nambiguous));
	ref_settings(o, ref);
	return o;
}

/* The reference's keys after its rows. */
static json_t *ref_foot(const struct report_ref *ref)
{
	json_t *o = json_object(), *a = json_object();
	int j;
	for (j = 0; j < REPORT_REFV_COUNT; j++)
		json_object_set_new(
		    a, report_ref_verdict_name((enum report_ref_verdict)j),
		    json_integer(ref->nverdict[j]));
	json_object_set_new(o, "summary", a);
	json_object_set_new(o, "summary_text", str(ref->summary));
	return o;
}

/* The values of a published cell: published and measured, per metric. */
static json_t *ref_values(const struct report *r,
			  const struct report_ref_row *w)
{
	const struct report_ref *ref = r->ref;
	json_t *vals = json_array();
	int j;
	for (j = 0; j < ref->nvalues; j++) {
		const struct report_ref_value *v = &w->v[j];
		int mi = ref->value_metric[j];
		const struct report_stats *st = w->status == REPORT_REF_MATCHED
						    ? &r->cells[w->cell].st[mi]
						    : NULL;
		json_t *x;
		if (isnan(v->published))
			continue;
		x = json_object();
		json_object_set_new(x, "metric", str(ref->values[j]));
		json_object_set_new(x, "unit", str(r->met.metric_units[mi]));
		json_object_set_new(x, "published", num(v->published));
		json_object_set_new(x, "n", json_integer(st ? st->n : 0));
		json_object_set_new(x, "median", num(st ? st->median : NAN));
		json_object_set_new(x, "ci_low", num(st ? st->ci_low : NAN));
		json_object_set_new(x, "ci_high", num(st ? st->ci_high : NAN));
		json_object_set_new(x, "min", num(st ? st->min : NAN));
		json_object_set_new(x, "max", num(st ? st->max : NAN));
		json_object_set_new(x, "ratio", num(v->ratio));
		json_object_set_new(
		    x, "in_range",
		    v->in_range < 0 ? json_null() : json_boolean(v->in_range));
		json_array_append_new(vals, x);
	}
	return vals;
}

/* A published cell up to its published value; its published runs and
 * what follows them are streamed after (dump_ref_row). */
static json_t *ref_row_head(const struct report *r,
			    const struct report_ref_row *w)
{
	const struct report_ref *ref = r->ref;
	json_t *row = json_object(), *lv = json_object();
	int j;
	for (j = 0; j < ref->nfactors; j++)
		json_object_set_new(lv, ref->factors[j], str(w->levels[j]));
	json_object_set_new(row, "line", json_integer(w->line));
	json_object_set_new(row, "levels", lv);
	json_object_set_new(row, "label", str(w->label));
	json_object_set_new(row, "status",
			    str(report_ref_status_name(w->status)));
	json_object_set_new(row, "detail", str(w->detail));
	json_object_set_new(row, "cell_index",
			    w->cell >= 0 ? json_integer(w->cell) : json_null());
	json_object_set_new(row, "cell",
			    w->cell >= 0 ? cell_obj(r, &r->cells[w->cell])
					 : json_null());
	json_object_set_new(row, "values", ref_values(r, w));
	ref_verdict(row, w);
	return row;
}

/* "progress": whether the sessions are finished (model_progress.c). */
static json_t *progress(const struct report *r)
{
	static const char *const state[] = {
	    [REPORT_STATE_DONE] = "done",
	    [REPORT_STATE_RUNNING] = "running",
	    [REPORT_STATE_INTERRUPTED] = "interrupted",
	    [REPORT_STATE_INCOMPLETE] = "incomplete",
	};
	const struct report_progress *p = &r->prog;
	return json_pack("{s:s,s:I,s:I,s:o}", "state", state[p->state], "done",
			 (json_int_t)p->done, "scheduled", (json_int_t)p->all,
			 "pid",
			 p->state == REPORT_STATE_RUNNING && p->pid > 0
			     ? json_integer(p->pid)
			     : json_null());
}

/* A line of "findings" (rfindings.h) with what a program needs without
 * parsing its text. */
static json_t *finding_json(const struct report *r, const struct rf_line *l)
{
	json_t *o = json_pack("{s:s,s:o}", "kind", rf_kind_name(l->kind),
			      "text", jstr(l->text));
	if (l->cmp >= 0) {
		json_object_set_new(o, "comparison", json_integer(l->cmp));
		json_object_set_new(
		    o, "verdict",
		    jstr(report_verdict_name(r->cmps[l->cmp].verdict)));
	}
	if (l->kind == RF_LIMIT || l->kind == RF_FAILED ||
	    l->kind == RF_STATE) {
		json_object_set_new(o, "count", json_integer(l->count));
		json_object_set_new(o, "of", json_integer(l->of));
	}
	if (l->limit)
		json_object_set_new(o, "limit", jstr(l->limit));
	if (l->kind == RF_FAILED) {
		json_object_set_new(o, "status", jstr(l->status));
		json_object_set_new(o, "reason", str(l->reason));
	}
	if (l->code) /* no_comparisons, no_values: why, as a code */
		json_object_set_new(o, "reason", jstr(l->code));
	if (l->metric)
		json_object_set_new(o, "metric", jstr(l->metric));
	return o;
}

/* ",\n \"findings\": [...]" a line at a time: a report of many cells or
 * comparisons is never one tree. -2 out of memory, -1 not written. */
static int dump_findings(struct jdump *d, const struct report *r)
{
	static const char head[] = ",\n \"findings\": [";
	struct arena *a = arena_new();
	struct rf_line *l;
	int k, n, rc = 0;
	if (!a || rt_findings(r, a, &l, &n) < 0) {
		arena_free(a);
		return -2;
	}
	if (jdump_raw(d, head, sizeof head - 1) < 0)
		rc = -1;
	for (k = 0; rc == 0 && k < n; k++) {
		if (jdump_raw(d, k ? ",\n  " : "\n  ", k ? 4 : 3) < 0)
			rc = -1;
		else
			rc = jdump_tree(d, finding_json(r, &l[k]), 2, 0);
	}
	if (rc == 0)
		rc = jdump_raw(d, n ? "\n ]" : "]", n ? 3 : 1);
	arena_free(a);
	return rc;
}

static json_t *model_head(const struct report *r)
{
	json_t *o = json_object();
	json_object_set_new(o, "xrun_report", json_integer(1));
	json_object_set_new(o, "plan", str(r->about.plan_name));
	json_object_set_new(o, "title", str(r->about.title));
	json_object_set_new(o, "description",
			    str(r->about.description && *r->about.description
				    ? r->about.description
				    : NULL));
	json_object_set_new(o, "plan_hash", str(r->about.plan_hash));
	/* re-cut after the runs (recut.c): the file whose report settings
	 * were used, the --compare / --accept options as given */
	json_object_set_new(o, "settings_from", str(r->about.settings_from));
	json_object_set_new(o, "recut_options", str(r->about.recut_options));
	json_object_set_new(
	    o, "lang", jstr(r->about.lang == REPORT_LANG_JA ? "ja" : "en"));
	json_object_set_new(o, "generated_at", num(r->about.generated_at));
	/* "findings" follow, streamed: the answer first, as every format
	 * puts it; then model_about's keys. */
	return o;
}

/* The declared metrics without values (model_gaps.c), why as a code and
 * as the sentence the header shows. */
static json_t *gaps_json(const struct report *r)
{
	json_t *a = json_array();
	int i, k;
	for (i = 0; i < r->ngaps; i++) {
		const struct report_gap *g = &r->gaps[i];
		json_t *near = json_array();
		for (k = 0; k < g->nnearest; k++)
			json_array_append_new(near, jstr(g->nearest[k]));
		json_array_append_new(
		    a, json_pack("{s:o,s:s,s:i,s:i,s:o,s:o,s:o,s:I,s:o,s:o}",
				 "metric", jstr(g->metric), "reason",
				 report_gap_code(g->why), "line", g->line,
				 "col", g->col, "series", str(g->series),
				 "host", str(g->host), "detail", str(g->detail),
				 "failed", (json_int_t)g->nfailed, "nearest",
				 near, "text", str(g->text)));
	}
	return a;
}

static json_t *model_about(const struct report *r)
{
	json_t *o = json_object(), *a;
	int i;
	json_object_set_new(o, "progress", progress(r));
	a = json_array();
	for (i = 0; i < r->span.nsessions; i++)
		json_array_append_new(a, json_integer(r->span.sessions[i]));
	json_object_set_new(o, "sessions", a);
	json_object_set_new(o, "first_run", num(r->span.first_run));
	json_object_set_new(o, "last_run", num(r->span.last_run));
	a = json_array();
	for (i = 0; i < r->span.nhosts; i++)
		json_array_append_new(a, jstr(r->span.hosts[i]));
	json_object_set_new(o, "hosts", a);
	json_object_set_new(
	    o, "runs",
	    json_pack("{s:i,s:i,s:i,s:i,s:i,s:i}", "total", r->counts.total,
		      "ok", r->counts.ok, "failed", r->counts.failed, "timeout",
		      r->counts.timeout, "other", r->counts.other, "warmup",
		      r->counts.warmup));
	json_object_set_new(o, "metric", str(r->met.metric));
	json_object_set_new(o, "unit",
			    str(r->met.metric_units[r->met.primary]));
	json_object_set_new(o, "display_unit", str(r->met.display_unit));
	json_object_set_new(o, "display_scale", num(r->met.display_scale));
	json_object_set_new(o, "threshold", num(r->met.threshold));
	json_object_set_new(o, "declared_no_values", gaps_json(r));
	a = json_array();
	for (i = 0; i < r->nfactors; i++) {
		json_t *lv = json_array();
		int k;
		for (k = 0; k < r->factors[i].nlevels; k++)
			json_array_append_new(lv,
					      jstr(r->factors[i].levels[k]));
		json_array_append_new(
		    a, json_pack("{s:s,s:o,s:b}", "name", r->factors[i].name,
				 "levels", lv, "manual", r->factors[i].manual));
	}
	json_object_set_new(o, "factors", a);
	/* "cells", "tables" and "comparisons" follow, streamed by
	 * write_json; then model_tail's keys. */
	return o;
}

/* The keys after "comparisons": "pair_notes", then "reference" (streamed
 * by dump_reference), then model_tail's. */
static json_t *model_notes(const struct report *r)
{
	json_t *o = json_object(), *a = json_array();
	int i;
	for (i = 0; i < r->npair_notes; i++)
		json_array_append_new(a, jstr(r->pair_notes[i]));
	json_object_set_new(o, "pair_notes", a);
	json_object_set_new(o, "no_comparisons",
			    r->ncmps
				? json_null()
				: json_pack("{s:s,s:o}", "reason",
					    report_nocmp_code(r->nocmp.code),
					    "text", str(report_nocmp_text(r))));
	return o;
}

static json_t *model_tail(const struct report *r)
{
	json_t *o = json_object(), *a;
	int i;
	json_object_set_new(o, "conditions", conditions(r));
	json_object_set_new(o, "session_info", write_json_session_info(r));
	a = json_array();
	for (i = 0; i < r->nnotes; i++)
		json_array_append_new(
		    a, json_pack("{s:i,s:s,s:b,s:s}", "note", i + 1, "code",
				 report_flag_code_name(r->notes[i]), "refuses",
				 report_flag_refuses(r->notes[i]), "text",
				 report_flag_text(r->notes[i], r->about.lang)));
	json_object_set_new(o, "notes", a);
	a = json_array();
	for (i = 0; i < r->nfacts; i++)
		json_array_append_new(
		    a, json_pack("{s:I,s:s,s:s,s:o}", "session",
				 (json_int_t)r->facts[i].session, "host",
				 r->facts[i].host, "key", r->facts[i].key,
				 "value", str(r->facts[i].value)));
	json_object_set_new(o, "host_facts", a);
	a = json_array();
	for (i = 0; i < r->nverifs; i++) {
		const struct report_verif *v = &r->verifs[i];
		json_array_append_new(
		    a, json_pack("{s:o,s:o,s:o,s:o,s:o,s:b,s:i}", "factor",
				 str(v->factor), "host", str(v->host), "method",
				 str(v->method), "expected", str(v->expected),
				 "actual", str(v->actual), "ok", v->ok, "runs",
				 v->count));
	}
	json_object_set_new(o, "verifications", a);
	/* "run_values" comes last, streamed by json_runs_write. */
	return o;
}

/* ",\n \"KEY\": [" the n elements at depth 2 "\n ]" ("[]" when none). */
static int dump_array(struct jdump *d, const char *key, int n,
		      json_t *(*el)(const struct report *,
				    const struct explain *, int),
		      const struct report *r, const struct explain *x)
{
	char head[64];
	int k;
	snprintf(head, sizeof head, ",\n \"%s\": [", key);
	if (jdump_raw(d, head, strlen(head)) < 0)
		return -1;
	for (k = 0; k < n; k++) {
		int rc;
		if (jdump_raw(d, k ? ",\n  " : "\n  ", k ? 4 : 3) < 0)
			return -1;
		if ((rc = jdump_tree(d, el(r, x, k), 2, 0)) < 0)
			return rc;
	}
	return jdump_raw(d, n ? "\n ]" : "]", n ? 3 : 1);
}

/* One of a published cell's run arrays (0 values, 1 texts, 2 lines) at
 * depth 4, in chunks: a cell's runs are not held as one tree (a jansson
 * array of 10^6 runs is about 170 MB). */
static int dump_runs(struct jdump *d, const struct report_ref_row *w, int which)
{
	enum { CHUNK = 4096 };
	int i, rc = 0;
	if (!w->npub)
		return jdump_raw(d, "[]", 2);
	if (jdump_raw(d, "[", 1) < 0)
		return -1;
	for (i = 0; i < w->npub; i += CHUNK) {
		json_t *a = json_array();
		int k;
		for (k = i; k < w->npub && k < i + CHUNK; k++)
			json_array_append_new(
			    a, which == 0   ? num(w->pub[k])
			       : which == 1 ? str(w->pub_text[k])
					    : json_integer(w->pub_line[k]));
		if ((i && jdump_raw(d, ",", 1) < 0) ||
		    (rc = jdump_tree(d, a, 4, 1)) < 0 ||
		    (rc = jdump_untail(d, "\n    ]")) < 0)
			return rc < 0 ? rc : -1;
	}
	return jdump_raw(d, "\n    ]", 6);
}

/* Published cell k at depth 3: its head, its runs, what it measured. */
static int dump_ref_row(struct jdump *d, const struct report *r,
			const struct explain *x, int k)
{
	static const char *const key[] = {
	    ",\n    \"published_runs\": ", ",\n    \"published_text\": ",
	    ",\n    \"published_lines\": "};
	const struct report_ref_row *w = &r->ref->rows[k];
	int rc = 0, j;
	if ((rc = jdump_tree(d, ref_row_head(r, w), 3, 0)) < 0 ||
	    (rc = jdump_untail(d, "\n   }")) < 0)
		return rc;
	for (j = 0; j < 3; j++)
		if (jdump_raw(d, key[j], strlen(key[j])) < 0 ||
		    (rc = dump_runs(d, w, j)) < 0)
			return rc < 0 ? rc : -1;
	if (jdump_raw(d, ",", 1) < 0)
		return -1;
	return jdump_tree(d, ref_measured(w, x, k), 3, 1);
}

/* The "reference" value at depth 1, its rows one at a time. */
static int dump_reference(struct jdump *d, const struct report *r,
			  const struct explain *x)
{
	static const char rows[] = ",\n  \"rows\": [";
	const struct report_ref *ref = r->ref;
	int k, rc;
	if (!ref)
		return jdump_raw(d, "null", 4);
	if ((rc = jdump_tree(d, ref_head(ref), 1, 0)) < 0 ||
	    (rc = jdump_untail(d, "\n }")) < 0 ||
	    (rc = jdump_raw(d, rows, sizeof rows - 1)) < 0)
		return rc;
	for (k = 0; k < ref->nrows; k++) {
		if (jdump_raw(d, k ? ",\n   " : "\n   ", k ? 5 : 4) < 0)
			return -1;
		if ((rc = dump_ref_row(d, r, x, k)) < 0)
			return rc;
	}
	if (jdump_raw(d, ref->nrows ? "\n  ]," : "],", ref->nrows ? 5 : 2) < 0)
		return -1;
	return jdump_tree(d, ref_foot(ref), 1, 1);
}

/* The report without its closing "\n}", which json_runs_write writes
 * after "run_values"; -2 out of memory, -1 not written. */
static int dump_report(struct jdump *d, const struct report *r)
{
	struct explain *x = NULL;
	static const char tb[] = ",\n \"tables\": ";
	static const char rf[] = ",\n \"reference\": ";
	int rc;
	/* one explanation for the cells and the comparisons (it was built
	 * for each) */
	explain_build(r, &x);
	if ((rc = jdump_tree(d, model_head(r), 0, 0)) < 0 ||
	    (rc = jdump_unclose(d)) < 0 || (rc = dump_findings(d, r)) < 0 ||
	    (rc = jdump_raw(d, ",", 1)) < 0 ||
	    (rc = jdump_tree(d, model_about(r), 0, 1)) < 0 ||
	    (rc = jdump_unclose(d)) < 0 ||
	    (rc = dump_array(d, "cells", r->ncells, cell_json, r, x)) < 0 ||
	    (rc = jdump_raw(d, tb, sizeof tb - 1)) < 0 ||
	    (rc = jdump_tree(d, tables(r), 1, 0)) < 0 ||
	    (rc = dump_array(d, "comparisons", r->ncmps, cmp_json, r, x)) < 0 ||
	    (rc = jdump_raw(d, ",", 1)) < 0 ||
	    (rc = jdump_tree(d, model_notes(r), 0, 1)) < 0 ||
	    (rc = jdump_unclose(d)) < 0 ||
	    (rc = jdump_raw(d, rf, sizeof rf - 1)) < 0 ||
	    (rc = dump_reference(d, r, x)) < 0 ||
	    (rc = jdump_raw(d, ",", 1)) < 0 ||
	    (rc = jdump_tree(d, model_tail(r), 0, 1)) < 0 ||
	    (rc = jdump_unclose(d)) < 0)
		return rc;
	return jdump_flush(d);
}

int report_write_json(const struct report *r, FILE *f, struct xr_err *err)
{
	struct jdump *d = jdump_new(f);
	int rc;
	memset(&json_count, 0, sizeof json_count);
	if (!d)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	rc = dump_report(d, r);
	jdump_free(d);
	if (rc == -2)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	if (rc == 0 && json_runs_write(r, f, jstr) < 0)
		rc = -1;
	esc_warn(&json_count, "json", stderr);
	if (rc < 0 || fputc('\n', f) == EOF || fflush(f) != 0)
		return xr_err_set(err, XR_EIO, NULL, 0, 0,
				  "cannot write the json report");
	return 0;
}
