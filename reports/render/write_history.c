/*
 * The history report (`xrun report --history`, reports/history/history.h)
 * in every format: the answer first (one line per cell whose latest
 * session changed, then the counts of the same and the not known), then
 * per cell its sessions (estimate, interval, n, the facts that changed),
 * its changes with their causes and its trend chart (chart_history.c),
 * then how the changes were found. JSON holds the same as `history`
 * (schema/report.md, "History"); JUnit a test case per cell, failed when
 * its latest session is a worse change and --fail-on regression asks.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "arena.h"
#include "buf.h"
#include "changept.h"
#include "chart.h"
#include "escape.h"
#include "history.h"
#include "pdf.h"
#include "render.h"
#include "report.h"
#include "strv.h"
#include "svg_chart.h"
#include "wfile.h"
#include "banned.h"

#define JA(r) ((r)->about.lang == REPORT_LANG_JA)

static const char *dir_word(const struct report *r, enum history_dir d)
{
	if (JA(r))
		return d == HISTORY_WORSE ? "悪化" : "改善";
	return d == HISTORY_WORSE ? "worse" : "better";
}

static const char *answer_name(enum history_answer a)
{
	static const char *const n[] = {"changed", "same", "unknown", "one"};
	return n[a];
}

/* "-10.0% [-10.8, -9.2]" */
static void pct_iv(struct buf *b, double p, double lo, double hi)
{
	buf_addf(b, "%+.1f%%", p);
	if (!isnan(lo))
		buf_addf(b, " [%+.1f, %+.1f]", lo, hi);
}

/* A change in words: "worse -10.0% [-10.8, -9.2] at session 5
 * (2026-11-20 14:02 UTC): qdisc_root on client: tbf 300000000 -> ..." */
static void change_text(const struct report *r, const struct history_cell *h,
			const struct history_change *c, struct buf *b)
{
	char when[64];
	int k;
	buf_addf(b, "%s ", dir_word(r, c->dir));
	pct_iv(b, c->effect_pct, c->lo_pct, c->hi_pct);
	buf_addf(b,
		 JA(r) ? "（セッション %lld、%s から）: "
		       : " at session %lld (%s): ",
		 (long long)c->session,
		 report_fmt_time(h->s[c->at].started_at, when, sizeof when));
	if (!c->ncauses)
		buf_adds(b, JA(r) ? "記録された情報に変化なし" : c->no_cause);
	for (k = 0; k < c->ncauses; k++) {
		const struct history_cause *u = &c->causes[k];
		buf_addf(b, "%s%s%s%s: %s -> %s", k ? "; " : "", u->key,
			 u->host[0] ? (JA(r) ? "（" : " on ") : "", u->host,
			 u->before, u->after);
		if (u->host[0] && JA(r))
			buf_adds(b, "）");
	}
}

/* The answer for the latest session. */
static void answer_text(const struct report *r, const struct history_cell *h,
			struct buf *b)
{
	switch (h->answer) {
	case HISTORY_CHANGED:
		change_text(r, h, &h->ch[h->nch - 1], b);
		return;
	case HISTORY_SAME:
		buf_addf(b,
			 JA(r) ? "しきい値 %g%% 以内で同じ: "
			       : "same within %g%%: ",
			 100 * r->history->theta);
		pct_iv(b, h->answer_pct, h->answer_lo, h->answer_hi);
		return;
	case HISTORY_UNKNOWN:
		buf_adds(b, JA(r) ? "不明: " : "not known: ");
		pct_iv(b, h->answer_pct, h->answer_lo, h->answer_hi);
		if (h->runs_needed > 0)
			buf_addf(b,
				 JA(r) ? "; 次のセッションで %d 回測れば決まる"
				       : "; %d runs in a next session would "
					 "settle it",
				 h->runs_needed);
		else
			buf_adds(
			    b, JA(r)
				   ? "; 差がしきい値に近く、回数では決まらない"
				   : "; the difference is at the "
				     "threshold: no number of runs "
				     "settles it");
		return;
	default:
		buf_adds(b, JA(r) ? "セッションが 1 つ: 比較なし"
				  : "one session: nothing to compare");
	}
}

static const char *cell_name(const struct history_cell *h, struct buf *b)
{
	buf_reset(b);
	buf_addf(b, "%s%s%s", h->label ? h->label : "",
		 h->testbed[0] ? " @ " : "", h->testbed);
	return b->s;
}

/* The summary: changes at the latest session first, then the counts. */
static void summary(const struct report *r, struct strv *lines)
{
	const struct report_history *hs = r->history;
	struct buf b = BUF_INIT, n = BUF_INIT;
	int k, same = 0, unk = 0, one = 0, changed = 0;
	for (k = 0; k < hs->ncells; k++) {
		const struct history_cell *h = &hs->cells[k];
		same += h->answer == HISTORY_SAME;
		unk += h->answer == HISTORY_UNKNOWN;
		one += h->answer == HISTORY_ONE;
		if (h->answer != HISTORY_CHANGED)
			continue;
		changed++;
		buf_reset(&b);
		answer_text(r, h, &b);
		strv_pushf(lines, "%s: %s", cell_name(h, &n), b.s);
	}
	if (JA(r))
		strv_pushf(lines,
			   "%d セル: 最新セッションで変化 %d、%g%% 以内で同じ "
			   "%d、不明 %d、セッション 1 つ %d",
			   hs->ncells, changed, 100 * hs->theta, same, unk,
			   one);
	else
		strv_pushf(
		    lines,
		    "%d cells: %d changed at the latest session, %d the "
		    "same within %g%%, %d not known, %d with one session",
		    hs->ncells, changed, same, 100 * hs->theta, unk, one);
	buf_release(&b);
	buf_release(&n);
}

static void method(const struct report *r, struct buf *b)
{
	const struct report_history *hs = r->history;
	if (JA(r))
		buf_addf(
		    b,
		    "変化点は試行単位で、セッションの境目で探す（二分割探索、"
		    "各分割は区間内の試行の並べ替え検定、最大の t、%d 回）。"
		    "誤検出は全セル・全位置で %g%%（セルごとに "
		    "%.4g、Bonferroni）"
		    "に抑え、しきい値 %g%% "
		    "未満の変化は報告しない。前後で逆向きの"
		    "変化に挟まれた 1 セッションは外れたセッションとする。"
		    "schema/report.md「History」。",
		    CHANGEPT_PERMUTATIONS, 100 * HISTORY_ALPHA, hs->alpha,
		    100 * hs->theta);
	else
		buf_addf(b,
			 "Changes are found between sessions with the run as "
			 "the unit: binary segmentation, each split tested by "
			 "permuting its segment's runs (%d permutations of the "
			 "largest pooled t over the segment's session "
			 "boundaries). False alarms are held to %g%% over "
			 "every cell and every possible change point (%.4g a "
			 "cell, Bonferroni over %d cells); a change under the "
			 "threshold %g%% is not reported; a lone session "
			 "between two opposite changes is one deviant session, "
			 "not two changes. The latest session is compared with "
			 "the segment before it: the same when the 90%% "
			 "interval of the difference lies within the "
			 "threshold (TOST), else not known. schema/report.md, "
			 "\"History\".",
			 CHANGEPT_PERMUTATIONS, 100 * HISTORY_ALPHA, hs->alpha,
			 hs->ntests, 100 * hs->theta);
}

/* Row k of cell h: session, start, value, interval, n, facts changed. */
static void write_history_session_row(const struct report *r,
				      const struct history_cell *h, int k,
				      char cells[6][512])
{
	const struct history_session *s = &h->s[k];
	char v[64], lo[64], hi[64];
	int d;
	snprintf(cells[0], 512, "%lld", (long long)s->session);
	report_fmt_time(s->started_at, cells[1], 512);
	snprintf(cells[2], 512, "%s",
		 report_fmt_value(r, s->value, v, sizeof v));
	if (isnan(s->lo))
		snprintf(cells[3], 512, "–");
	else
		snprintf(cells[3], 512, "[%s, %s]",
			 report_fmt_value(r, s->lo, lo, sizeof lo),
			 report_fmt_value(r, s->hi, hi, sizeof hi));
	snprintf(cells[4], 512, "%d", s->n);
	snprintf(cells[5], 512, "%s", s->changed);
	for (d = 0; d < h->ndeviant; d++)
		if (h->deviant[d] == k)
			snprintf(
			    cells[5] + strlen(cells[5]), 512 - strlen(cells[5]),
			    "%s%s", cells[5][0] ? "; " : "",
			    JA(r) ? "外れたセッション" : "a deviant session");
}

static const char *head_en[6] = {"session",	 "started", "value",
				 "95% interval", "n",	    "facts changed"};
static const char *head_ja[6] = {"セッション", "開始", "値",
				 "95% 区間",   "n",    "変化した情報"};

/* ---- Markdown ----------------------------------------------------------- */

static void md_line(FILE *f, const char *s, unsigned flags)
{
	struct buf b = BUF_INIT;
	esc_md(&b, s, flags);
	fputs(b.s ? b.s : "", f);
	buf_release(&b);
}

int report_write_history_md(const struct report *r, FILE *f,
			    const char *md_path, int png, struct xr_err *err)
{
	const struct report_history *hs = r->history;
	struct strv sum = {0};
	struct buf b = BUF_INIT, n = BUF_INIT, svg = BUF_INIT;
	struct arena *a = arena_new();
	char cells[6][512];
	const char **head = JA(r) ? head_ja : head_en;
	size_t i;
	int k, j, c, rc = 0;
	(void)png;
	if (!a)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	fprintf(f, "# %s: ", JA(r) ? "履歴" : "History");
	md_line(f, r->about.plan_name ? r->about.plan_name : "", 0);
	fprintf(f, " (%s, %s)\n\n", r->met.metric,
		r->met.display_unit ? r->met.display_unit : "");
	summary(r, &sum);
	for (i = 0; i < sum.n; i++) {
		fputs("- ", f);
		md_line(f, sum.v[i], 0);
		fputc('\n', f);
	}
	for (k = 0; k < hs->ncells && !rc; k++) {
		const struct history_cell *h = &hs->cells[k];
		struct chart_fig fig;
		fputs("\n## ", f);
		md_line(f, cell_name(h, &n), 0);
		fputs("\n\n", f);
		buf_reset(&b);
		answer_text(r, h, &b);
		md_line(f, b.s, 0);
		fputs("\n\n|", f);
		for (c = 0; c < 6; c++)
			fprintf(f, " %s |", head[c]);
		fputs("\n|", f);
		for (c = 0; c < 6; c++)
			fputs(c >= 2 && c <= 4 ? " ---: |" : " --- |", f);
		fputc('\n', f);
		for (j = 0; j < h->ns; j++) {
			write_history_session_row(r, h, j, cells);
			fputc('|', f);
			for (c = 0; c < 6; c++) {
				fputc(' ', f);
				md_line(f, cells[c], ESC_MD_CELL);
				fputs(" |", f);
			}
			fputc('\n', f);
		}
		for (j = 0; j < h->nch; j++) {
			buf_reset(&b);
			change_text(r, h, &h->ch[j], &b);
			fputs(j ? "" : "\n", f);
			fputs("- ", f);
			md_line(f, b.s, 0);
			fputc('\n', f);
		}
		if (!md_path || !strcmp(md_path, "-") || h->ns < 2)
			continue;
		if ((rc = chart_history(r, h, 600, a, &fig)) < 0)
			break;
		buf_reset(&svg);
		buf_addf(
		    &svg, "%.*s-history-%d.svg",
		    (int)(strlen(md_path) >= 3 &&
				  !strcmp(md_path + strlen(md_path) - 3, ".md")
			      ? strlen(md_path) - 3
			      : strlen(md_path)),
		    md_path, k + 1);
		{
			struct wfile *w;
			FILE *sf;
			if ((rc = wfile_open(svg.s, &w, &sf, err)) < 0)
				break;
			if (svg_fig_write(sf, &fig, 1, r->about.lang) < 0)
				rc = wfile_abort(w, -XR_EIO, err);
			else
				rc = wfile_commit(w, err);
		}
		{
			const char *base = strrchr(svg.s, '/');
			fprintf(f, "\n![%s](%s)\n", JA(r) ? "推移" : "trend",
				base ? base + 1 : svg.s);
		}
	}
	if (!rc) {
		buf_reset(&b);
		method(r, &b);
		fputs("\n---\n\n", f);
		md_line(f, b.s, 0);
		fputc('\n', f);
	}
	strv_release(&sum);
	buf_release(&b);
	buf_release(&n);
	buf_release(&svg);
	arena_free(a);
	if (!rc && ferror(f))
		rc = xr_err_set(err, XR_EIO, NULL, 0, 0, "write error");
	return rc;
}

/* ---- HTML --------------------------------------------------------------- */

static void h_text(FILE *f, const char *s)
{
	struct buf b = BUF_INIT;
	esc_html(&b, s);
	fputs(b.s ? b.s : "", f);
	buf_release(&b);
}

int report_write_history_html(const struct report *r, FILE *f,
			      struct xr_err *err)
{
	const struct report_history *hs = r->history;
	struct strv sum = {0};
	struct buf b = BUF_INIT, n = BUF_INIT;
	struct arena *a = arena_new();
	char cells[6][512];
	const char **head = JA(r) ? head_ja : head_en;
	size_t i;
	int k, j, c, rc = 0;
	if (!a)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	fprintf(f,
		"<!DOCTYPE html>\n<html lang=\"%s\"><head><meta "
		"charset=\"utf-8\"><meta name=\"viewport\" "
		"content=\"width=device-width\"><title>",
		JA(r) ? "ja" : "en");
	h_text(f, r->about.plan_name ? r->about.plan_name : "");
	fputs("</title><style>body{font-family:sans-serif;max-width:60em;"
	      "margin:auto;padding:0 1em}table{border-collapse:collapse;"
	      "display:block;overflow-x:auto}td,th{padding:2px 8px;"
	      "border-bottom:1px solid #ddd}td.n{text-align:right}svg{max-"
	      "width:100%;height:auto}</style></head><body>\n<h1>",
	      f);
	fputs(JA(r) ? "履歴: " : "History: ", f);
	h_text(f, r->about.plan_name ? r->about.plan_name : "");
	fputs("</h1>\n<ul class=\"findings\">\n", f);
	summary(r, &sum);
	for (i = 0; i < sum.n; i++) {
		fputs("<li>", f);
		h_text(f, sum.v[i]);
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
	for (k = 0; k < hs->ncells && !rc; k++) {
		const struct history_cell *h = &hs->cells[k];
		struct chart_fig fig;
		fputs("<h2>", f);
		h_text(f, cell_name(h, &n));
		fprintf(f, "</h2>\n<p class=\"answer %s\">",
			answer_name(h->answer));
		buf_reset(&b);
		answer_text(r, h, &b);
		h_text(f, b.s);
		fputs("</p>\n<table><tr>", f);
		for (c = 0; c < 6; c++)
			fprintf(f, "<th>%s</th>", head[c]);
		fputs("</tr>\n", f);
		for (j = 0; j < h->ns; j++) {
			write_history_session_row(r, h, j, cells);
			fputs("<tr>", f);
			for (c = 0; c < 6; c++) {
				fputs(c >= 2 && c <= 4 ? "<td class=\"n\">"
						       : "<td>",
				      f);
				h_text(f, cells[c]);
				fputs("</td>", f);
			}
			fputs("</tr>\n", f);
		}
		fputs("</table>\n", f);
		if (h->ns >= 2) {
			if ((rc = chart_history(r, h, 600, a, &fig)) < 0)
				break;
			svg_fig_write(f, &fig, 0, r->about.lang);
		}
	}
	buf_reset(&b);
	method(r, &b);
	fputs("<p class=\"method\">", f);
	h_text(f, b.s);
	fputs("</p>\n</body></html>\n", f);
	strv_release(&sum);
	buf_release(&b);
	buf_release(&n);
	arena_free(a);
	if (!rc && ferror(f))
		rc = xr_err_set(err, XR_EIO, NULL, 0, 0, "write error");
	return rc < 0 ? rc : 0;
}

/* ---- CSV ---------------------------------------------------------------- */

static void csv_field(FILE *f, const char *s, int last)
{
	struct buf b = BUF_INIT;
	esc_csv(&b, s);
	fputs(b.s ? b.s : "", f);
	fputc(last ? '\n' : ',', f);
	buf_release(&b);
}

/* One row per cell and session; the change that starts at a session in
 * its last columns. */
int report_write_history_csv(const struct report *r, FILE *f,
			     struct xr_err *err)
{
	const struct report_history *hs = r->history;
	struct buf b = BUF_INIT;
	char num[64];
	int k, j, c;
	fputs("cell,testbed,session,started_at,value,lo,hi,n,changed,change,"
	      "answer\n",
	      f);
	for (k = 0; k < hs->ncells; k++) {
		const struct history_cell *h = &hs->cells[k];
		for (j = 0; j < h->ns; j++) {
			const struct history_session *s = &h->s[j];
			csv_field(f, h->label ? h->label : "", 0);
			csv_field(f, h->testbed, 0);
			fprintf(f, "%lld,%.3f,%.17g,", (long long)s->session,
				s->started_at, s->value);
			snprintf(num, sizeof num, isnan(s->lo) ? "" : "%.17g",
				 s->lo);
			csv_field(f, num, 0);
			snprintf(num, sizeof num, isnan(s->hi) ? "" : "%.17g",
				 s->hi);
			csv_field(f, num, 0);
			fprintf(f, "%d,", s->n);
			csv_field(f, s->changed, 0);
			buf_reset(&b);
			for (c = 0; c < h->nch; c++)
				if (h->ch[c].at == j)
					change_text(r, h, &h->ch[c], &b);
			csv_field(f, b.s ? b.s : "", 0);
			csv_field(
			    f, j == h->ns - 1 ? answer_name(h->answer) : "", 1);
		}
	}
	buf_release(&b);
	return ferror(f) ? xr_err_set(err, XR_EIO, NULL, 0, 0, "write error")
			 : 0;
}

/* ---- JSON --------------------------------------------------------------- */

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *cell_json(const struct report *r, const struct history_cell *h)
{
	json_t *ss = json_array(), *cs = json_array(), *o;
	struct buf b = BUF_INIT;
	int j, k;
	for (j = 0; j < h->ns; j++) {
		const struct history_session *s = &h->s[j];
		json_array_append_new(
		    ss, json_pack("{s:I,s:o,s:o,s:o,s:o,s:i,s:s}", "session",
				  (json_int_t)s->session, "started_at",
				  num(s->started_at), "value", num(s->value),
				  "lo", num(s->lo), "hi", num(s->hi), "n", s->n,
				  "changed", s->changed));
	}
	for (j = 0; j < h->nch; j++) {
		const struct history_change *c = &h->ch[j];
		json_t *causes = json_array();
		for (k = 0; k < c->ncauses; k++)
			json_array_append_new(
			    causes, json_pack("{s:s,s:s,s:s,s:s}", "host",
					      c->causes[k].host, "key",
					      c->causes[k].key, "before",
					      c->causes[k].before, "after",
					      c->causes[k].after));
		buf_reset(&b);
		change_text(r, h, c, &b);
		json_array_append_new(
		    cs,
		    json_pack("{s:I,s:i,s:s,s:{s:o,s:o,s:o},s:o,s:o,s:s*,s:s}",
			      "session", (json_int_t)c->session, "index", c->at,
			      "direction",
			      c->dir == HISTORY_WORSE ? "worse" : "better",
			      "effect", "pct", num(c->effect_pct), "lo",
			      num(c->lo_pct), "hi", num(c->hi_pct), "p",
			      num(c->p), "causes", causes, "note", c->no_cause,
			      "text", b.s));
	}
	buf_reset(&b);
	answer_text(r, h, &b);
	o = json_pack(
	    "{s:i,s:s,s:s,s:o,s:o,s:s,s:{s:o,s:o,s:o},s:o,s:s}", "cell",
	    r->cells[h->cell].index, "label", h->label ? h->label : "",
	    "testbed", h->testbed, "sessions", ss, "changes", cs, "answer",
	    answer_name(h->answer), "answer_effect", "pct", num(h->answer_pct),
	    "lo", num(h->answer_lo), "hi", num(h->answer_hi), "runs_needed",
	    h->answer == HISTORY_UNKNOWN && h->runs_needed != 0
		? json_integer(h->runs_needed)
		: json_null(),
	    "answer_text", b.s);
	buf_release(&b);
	return o;
}

int report_write_history_json(const struct report *r, FILE *f,
			      struct xr_err *err)
{
	const struct report_history *hs = r->history;
	json_t *cells = json_array(), *root;
	struct strv sum = {0};
	json_t *lines = json_array();
	size_t i;
	int k, rc;
	for (k = 0; k < hs->ncells; k++)
		json_array_append_new(cells, cell_json(r, &hs->cells[k]));
	summary(r, &sum);
	for (i = 0; i < sum.n; i++)
		json_array_append_new(lines, json_string(sum.v[i]));
	strv_release(&sum);
	root = json_pack(
	    "{s:s,s:s,s:s,s:s*,s:o,s:{s:f,s:f,s:f,s:i,s:b,s:i,s:o}}",
	    "xrun_report", "history", "plan",
	    r->about.plan_name ? r->about.plan_name : "", "metric",
	    r->met.metric, "unit",
	    r->met.metric_units ? r->met.metric_units[r->met.primary] : NULL,
	    "findings", lines, "history", "alpha", HISTORY_ALPHA, "cell_alpha",
	    hs->alpha, "threshold", hs->theta, "tests", hs->ntests,
	    "higher_is_better", hs->higher_is_better, "regressions",
	    hs->regressions, "cells", cells);
	if (!root)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	rc = json_dumpf(root, f, JSON_INDENT(1) | JSON_ENSURE_ASCII) < 0 ||
	     fputc('\n', f) == EOF;
	json_decref(root);
	return rc ? xr_err_set(err, XR_EIO, NULL, 0, 0, "write error") : 0;
}

/* ---- JUnit -------------------------------------------------------------- */

int report_write_history_junit(const struct report *r, unsigned fail_on,
			       FILE *f, struct xr_err *err)
{
	const struct report_history *hs = r->history;
	struct buf b = BUF_INIT, n = BUF_INIT;
	int k, fails = 0, gate = !!(fail_on & REPORT_GATE_REGRESSION_BIT);
	for (k = 0; k < hs->ncells; k++)
		fails +=
		    gate && hs->cells[k].answer == HISTORY_CHANGED &&
		    hs->cells[k].ch[hs->cells[k].nch - 1].dir == HISTORY_WORSE;
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite "
	      "name=\"history\"",
	      f);
	fprintf(f, " tests=\"%d\" failures=\"%d\">\n", hs->ncells, fails);
	for (k = 0; k < hs->ncells; k++) {
		const struct history_cell *h = &hs->cells[k];
		int bad = gate && h->answer == HISTORY_CHANGED &&
			  h->ch[h->nch - 1].dir == HISTORY_WORSE;
		fputs(" <testcase classname=\"history\" name=\"", f);
		h_text(f, cell_name(h, &n));
		fputs("\">", f);
		buf_reset(&b);
		answer_text(r, h, &b);
		if (bad) {
			fputs("<failure message=\"", f);
			h_text(f, b.s);
			fputs("\"/>", f);
		} else {
			fputs("<system-out>", f);
			h_text(f, b.s);
			fputs("</system-out>", f);
		}
		fputs("</testcase>\n", f);
	}
	fputs("</testsuite>\n", f);
	buf_release(&b);
	buf_release(&n);
	return ferror(f) ? xr_err_set(err, XR_EIO, NULL, 0, 0, "write error")
			 : 0;
}

/* ---- PDF ---------------------------------------------------------------- */

static int pdf_cell(struct pdf *pdf, const struct report *r,
		    const struct history_cell *h, struct arena *a,
		    struct buf *b, struct xr_err *err)
{
	struct pdf_table *t = pdf_table_new(6);
	const char **head = JA(r) ? head_ja : head_en;
	char cells[6][512];
	struct chart_fig fig;
	int j, c, rc;
	if (!t)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	rc = pdf_heading(pdf, 2, cell_name(h, b), err);
	buf_reset(b);
	answer_text(r, h, b);
	if (!rc)
		rc = pdf_paragraph(pdf, 9, 0, b->s, err);
	pdf_table_font_size(t, 8);
	for (c = 2; c <= 4; c++)
		pdf_table_align(t, c, PDF_RIGHT);
	pdf_table_wrap(t, 5, 1);
	if (!rc && pdf_table_head_row(t) < 0)
		rc = -XR_ENOMEM;
	for (c = 0; c < 6 && !rc; c++)
		if (pdf_table_head(t, head[c], 1) < 0)
			rc = -XR_ENOMEM;
	for (j = 0; j < h->ns && !rc; j++) {
		write_history_session_row(r, h, j, cells);
		if (pdf_table_row(t) < 0)
			rc = -XR_ENOMEM;
		for (c = 0; c < 6 && !rc; c++)
			if (pdf_table_cell(t, cells[c]) < 0)
				rc = -XR_ENOMEM;
	}
	if (rc == -XR_ENOMEM)
		rc = xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	if (!rc)
		rc = pdf_table_draw(pdf, t, err);
	pdf_table_free(t);
	for (j = 0; j < h->nch && !rc; j++) {
		buf_reset(b);
		buf_adds(b, "• ");
		change_text(r, h, &h->ch[j], b);
		rc = pdf_paragraph(pdf, 8, 8, b->s, err);
	}
	if (!rc && h->ns >= 2) {
		if (chart_history(r, h, pdf_text_width(pdf), a, &fig) < 0)
			rc = xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
					"out of memory");
		else
			rc = pdf_chart_fig(pdf, &fig, err);
	}
	return rc;
}

static int write_history_pdf(struct pdf **pp, struct arena *a,
			     const struct report *r, const char *path,
			     struct xr_err *err)
{
	const struct report_history *hs = r->history;
	struct strv sum = {0};
	struct buf b = BUF_INIT;
	struct pdf *pdf;
	size_t i;
	int k, rc;
	if ((rc = pdf_new(pp, NULL, err)) < 0)
		return rc;
	pdf = *pp;
	if (JA(r))
		rc = pdf_require_japanese(pdf, "履歴", err);
	if (!rc && (rc = pdf_page_new(pdf, PDF_PORTRAIT, err)) == 0) {
		buf_addf(&b, "%s: %s", JA(r) ? "履歴" : "History",
			 r->about.plan_name ? r->about.plan_name : "");
		pdf_set_info(pdf, b.s, "xrun");
		rc = pdf_heading(pdf, 1, b.s, err);
	}
	summary(r, &sum);
	for (i = 0; i < sum.n && !rc; i++) {
		buf_reset(&b);
		buf_addf(&b, "• %s", sum.v[i]);
		rc = pdf_paragraph(pdf, 10, 0, b.s, err);
	}
	for (k = 0; k < hs->ncells && !rc; k++)
		rc = pdf_cell(pdf, r, &hs->cells[k], a, &b, err);
	if (!rc) {
		buf_reset(&b);
		method(r, &b);
		rc = pdf_paragraph(pdf, 8, 0, b.s, err);
	}
	if (!rc)
		rc = pdf_save(pdf, path, err);
	strv_release(&sum);
	buf_release(&b);
	return rc;
}

int report_write_history_pdf(const struct report *r, const char *path,
			     struct xr_err *err)
{
	struct pdf *volatile pdf = NULL;
	struct arena *volatile a = arena_new();
	jmp_buf oom;
	int rc;
	if (!a)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	if (setjmp(oom)) { /* libharu's allocation failed (pdf.h) */
		pdf_oom_guard(NULL);
		pdf_abandon(pdf);
		arena_free(a);
		return xr_err_set(err, XR_ENOMEM, path, 0, 0,
				  "out of memory rendering '%s'", path);
	}
	pdf_oom_guard(&oom);
	rc = write_history_pdf((struct pdf **)&pdf, a, r, path, err);
	pdf_oom_guard(NULL);
	pdf_free(pdf);
	arena_free(a);
	return rc;
}
