/*
 * The HTML writer: one self-contained page (inline CSS and SVG charts, no
 * script, no font, image or style sheet from elsewhere) in the order of
 * the PDF: title, description and header block, each matrix table with
 * its chart, per-cell statistics, the comparisons with verdicts, the
 * published reference, the notes explaining every flag, and the appendix
 * of host facts and verifications. Readable on a phone (tables and charts
 * scroll sideways inside the page) and printable (@media print). Renders
 * the neutral tables of table.c (rtable.h) and the charts of chart.c
 * (svg_chart.c); every text is escaped.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "buf.h"
#include "chart.h"
#include "explain.h"
#include "render.h"
#include "rlatency.h"
#include "rsearch.h"
#include "rfindings.h"
#include "rtable.h"
#include "svg_chart.h"

#include "banned.h"

#define T(id) report_text(r, REPORT_T_##id)
#define FOREST_W 390.0 /* the comparisons chart's width in units */
#define ESC(s) svg_escape(f, (s))

/* The style sheet, after the font stack (body { font-family: ... }). */
static const char css[] =
    "  color: #1b1b1b; background: #fff; margin: 0;\n"
    "  line-height: 1.5; font-size: 16px;\n"
    "  -webkit-text-size-adjust: 100%; text-size-adjust: 100%;\n"
    "}\n"
    "main { max-width: 62rem; margin: 0 auto; padding: 1rem 1.25rem 2rem; }\n"
    "h1 { font-size: 1.6rem; line-height: 1.25; margin: .4rem 0 .6rem; }\n"
    "h2 { font-size: 1.25rem; margin: 2.2rem 0 .6rem;\n"
    "  padding-bottom: .2rem; border-bottom: 1px solid #c8c8c8; }\n"
    "p { margin: .4rem 0 .8rem; }\n"
    ".desc { white-space: pre-line; }\n"
    ".note { font-size: .85rem; color: #444; }\n"
    ".scroll { overflow-x: auto; -webkit-overflow-scrolling: touch;\n"
    "  max-width: 100%; }\n"
    "figure { margin: 1.2rem 0; }\n"
    "figcaption { font-weight: 600; font-size: .95rem; margin: 0 0 .35rem; "
    "}\n"
    "table { border-collapse: collapse; font-size: .85rem;\n"
    "  font-variant-numeric: tabular-nums; }\n"
    "th, td { padding: .22rem .55rem; vertical-align: top; text-align: left; "
    "}\n"
    "table.data { border-top: 2px solid #222; border-bottom: 2px solid #222; "
    "}\n"
    "table.data thead tr:last-child th { border-bottom: 1px solid #222; }\n"
    "table.data thead th { white-space: normal; }\n"
    "table.data thead th.span { text-align: center;\n"
    "  border-bottom: 1px solid #999; }\n"
    "table.data tbody tr:nth-child(even) { background: #f6f7f9; }\n"
    "table.kv th { font-weight: 600; padding-left: 0; padding-right: 1.2rem; "
    "}\n"
    ".r { text-align: right; }\n"
    ".nw { white-space: nowrap; }\n"
    ".chart svg { display: block; max-width: 100%; height: auto; }\n"
    "table.data td.w { min-width: 5.5rem; }\n"
    "ol.notes { padding-left: 1.6rem; }\n"
    "ul.findings { padding-left: 1.2rem; }\n"
    "ul.findings li { margin: .25rem 0; overflow-wrap: anywhere; }\n"
    "ol.vnotes { font-size: .85rem; padding-left: 1.6rem; }\n"
    "table.data td.w { overflow-wrap: anywhere; }\n"
    "ol.notes li { margin: .3rem 0; }\n"
    "ol.notes ul { font-size: .85rem; color: #333; padding-left: 1.2rem; }\n"
    "code { font-size: .85em; background: #f0f1f3; padding: 0 .25em;\n"
    "  border-radius: 3px; }\n"
    "footer { margin-top: 2.5rem; font-size: .8rem; color: #666; }\n"
    "@media (max-width: 600px) {\n"
    "  body { font-size: 15px; }\n"
    "  main { padding: .75rem .7rem 1.5rem; }\n"
    "  h1 { font-size: 1.35rem; }\n"
    "  table { font-size: .78rem; }\n"
    "  table.stack, table.stack tbody, table.stack tr, table.stack td {\n"
    "    display: block; width: auto; }\n"
    "  table.stack thead { display: none; }\n"
    "  table.stack tr { padding: .3rem 0; border-bottom: 1px solid #ccc; }\n"
    "  table.stack td { text-align: left; white-space: normal;\n"
    "    min-width: 0 !important; padding: .05rem .3rem; }\n"
    "  table.stack td[data-label]::before { content: attr(data-label) \": \";\n"
    "    font-weight: 600; }\n"
    "}\n"
    "@media print {\n"
    "  @page { size: A4; margin: 14mm; }\n"
    "  body { font-size: 9.5pt; }\n"
    "  main { max-width: none; padding: 0; }\n"
    "  .scroll { overflow: visible; }\n"
    "  .chart svg { min-width: 0 !important; max-width: 100%; }\n"
    "  h2 { break-after: avoid; page-break-after: avoid; }\n"
    "  figure, tr, ol.notes li { break-inside: avoid; "
    "page-break-inside: avoid; }\n"
    "  thead { display: table-header-group; }\n"
    "  table.data tbody tr:nth-child(even) { background: none; }\n"
    "  table { font-size: 7.5pt; }\n"
    "  td.nw:not(.r), table.data thead th { white-space: normal; }\n"
    "  table.data td.w { min-width: 0; }\n"
    "}\n";

static void head(FILE *f, const struct report *r)
{
	fprintf(f,
		"<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n"
		"<meta charset=\"utf-8\">\n"
		"<meta name=\"viewport\" content=\"width=device-width, "
		"initial-scale=1\">\n"
		"<meta name=\"generator\" content=\"xrun %s\">\n<title>",
		r->about.lang == REPORT_LANG_JA ? "ja" : "en", XRUN_VERSION);
	ESC(r->about.title ? r->about.title : "xrun report");
	fputs("</title>\n<style>\nbody {\n  font-family: ", f);
	/* our own constant: entities would not be decoded inside <style> */
	fputs(svg_font_family(r->about.lang), f);
	fputs(";\n", f);
	fputs(css, f);
	fputs("</style>\n</head>\n<body>\n<main>\n", f);
}

/* A matrix value "2.01 ×/÷1.083 [3]" may wrap after the value only: the
 * interval and its marks stay together on the second line. */
static void write_html_matrix_value(FILE *f, const char *text)
{
	const char *sp = strchr(text, ' ');
	char *rest;
	if (!sp) {
		ESC(text);
		return;
	}
	rest = strndup(text, (size_t)(sp - text));
	if (rest)
		ESC(rest);
	free(rest);
	fputc(' ', f);
	for (const char *p = sp + 1; *p; p = sp + 1) {
		sp = strchr(p, ' ');
		if (!sp) {
			ESC(p);
			break;
		}
		rest = strndup(p, (size_t)(sp - p));
		if (rest)
			ESC(rest);
		free(rest);
		fputs("&#160;", f);
	}
}

/* A cell or header: class "r" for right-aligned, "nw" for no wrapping;
 * label: the stacked row's name of the value (NULL: none). */
static void cell(FILE *f, const char *tag, const struct rt_col *col,
		 const char *text, const char *label, int matrix)
{
	const char *cls = col->align == RT_RIGHT ? (col->wrap ? "r w" : "r nw")
						 : (col->wrap ? "w" : "nw");
	fprintf(f, "<%s class=\"%s\"", tag, cls);
	/* a stacked row on a phone names each value by its column */
	if (label && *label) {
		fputs(" data-label=\"", f);
		ESC(label);
		fputc('"', f);
	}
	fputc('>', f);
	if (matrix)
		write_html_matrix_value(f, text);
	else
		ESC(text);
	fprintf(f, "</%s>", tag);
}

static void thead(FILE *f, const struct rtable *t)
{
	int i, c;
	if (t->plain)
		return;
	fputs("<thead>\n", f);
	for (i = 0; i < t->ngroup_rows; i++) {
		fputs("<tr>", f);
		for (c = 0; c < t->ngroup_len[i]; c++) {
			const struct rt_span *sp = &t->group[i][c];
			/* the stub names the factors; spans are levels */
			if (c == 0)
				fputs("<th scope=\"col\">", f);
			else
				fprintf(f,
					"<th scope=\"colgroup\" colspan=\"%d\" "
					"class=\"span\">",
					sp->span);
			ESC(sp->text);
			fputs("</th>", f);
		}
		fputs("</tr>\n", f);
	}
	if (!t->ngroup_rows) {
		fputs("<tr>", f);
		for (c = 0; c < t->ncols; c++)
			cell(f, "th", &t->col[c], t->col[c].head, NULL, 0);
		fputs("</tr>\n", f);
	}
	fputs("</thead>\n", f);
}

/* A neutral table, captioned (caption NULL: none), scrolling sideways on
 * a narrow screen. A plain one (key/value) has its keys as row headers. */
static void table(FILE *f, const struct rtable *t, const char *caption,
		  const char *id)
{
	int i, c, stack;
	char stub[128] = "";
	fputs("<figure class=\"table\"", f);
	if (id)
		fprintf(f, " id=\"%s\"", id);
	fputs(">\n", f);
	if (caption) {
		fputs("<figcaption>", f);
		ESC(caption);
		fputs("</figcaption>\n", f);
	}
	/* a data table stacks on a phone (each row a block, each value
	 * named by its column; a grouped matrix's column by its levels,
	 * "1500 / a"): no verdict hides behind a sideways scroll. On a wide
	 * screen a matrix value may wrap between the value and its interval
	 * so that the grid fits its column (tests/e2e/report_fit). */
	stack = !t->plain;
	if (t->ngroup_rows &&
	    t->ncols > 0) { /* "streams \ mtu / nic": streams */
		const char *h = t->col[0].head, *bs = strstr(h, " \\ ");
		snprintf(stub, sizeof stub, "%.*s",
			 (int)(bs ? (size_t)(bs - h) : strlen(h)), h);
	}
	fprintf(f, "<div class=\"scroll\"><table class=\"%s\">\n",
		t->plain ? "kv"
		: stack	 ? "data stack"
			 : "data");
	thead(f, t);
	fputs("<tbody>\n", f);
	for (i = 0; i < t->nrows; i++) {
		fputs("<tr>", f);
		for (c = 0; c < t->ncols; c++) {
			struct rt_col col = t->col[c];
			int mv =
			    t->ngroup_rows > 0 && c > 0; /* a matrix value */
			col.wrap |= mv;
			cell(f, t->plain && c == 0 ? "th" : "td", &col,
			     rt_cell(t, i, c),
			     !stack		    ? NULL
			     : t->ngroup_rows && !c ? stub
						    : col.head,
			     mv);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody>\n</table></div>\n</figure>\n", f);
}

static void heading(FILE *f, int level, const char *id, const char *text)
{
	fprintf(f, "<h%d id=\"%s\">", level, id);
	ESC(text);
	fprintf(f, "</h%d>\n", level);
}

static void para(FILE *f, const char *cls, const char *text)
{
	fprintf(f, "<p class=\"%s\">", cls);
	ESC(text);
	fputs("</p>\n", f);
}

/* "Table 1. title [unit]" as the PDF captions it. */
static const char *write_html_matrix_caption(const struct report *r,
					     const struct rtable *t, int no,
					     struct arena *a)
{
	return arena_printf(a, "%s %d. %s%s%s%s",
			    r->about.lang == REPORT_LANG_JA ? "表" : "Table",
			    no, t->title, *t->unit ? " [" : "", t->unit,
			    *t->unit ? "]" : "");
}

/* A chart of the runs as a figure with its caption (none: nothing). */
static int html_fig(FILE *f, const struct chart_fig *fig, const char *kind,
		    int no)
{
	if (fig->nops < 1)
		return 0;
	fprintf(f, "<figure class=\"chart\" id=\"%s-%d\">\n<figcaption>", kind,
		no);
	ESC(fig->title);
	fputs("</figcaption>\n<div class=\"scroll\">\n", f);
	if (svg_fig_write(f, fig, 0, REPORT_LANG_EN) < 0)
		return -XR_EIO;
	fputs("</div>\n</figure>\n", f);
	return 0;
}

/* Latency under load (chart_latency.c): each cell's round-trip time
 * beside its throughput, then the loaded round-trip times' CDF. */
static int latency_charts(FILE *f, const struct report *r, struct arena *a)
{
	struct chart_fig fig;
	int i;
	for (i = 0; i < r->ncells; i++)
		if (chart_latency_ts(r, i, 480, a, &fig) < 0 ||
		    html_fig(f, &fig, "latency", i + 1) < 0)
			return -XR_ENOMEM;
	if (chart_latency_cdf(r, 480, a, &fig) < 0 ||
	    html_fig(f, &fig, "cdf", 1) < 0)
		return -XR_ENOMEM;
	return 0;
}

/* The rate search (rsearch.c): its table, then each search's chart with
 * its parameters under it. */
static int search(FILE *f, const struct report *r, struct arena *a)
{
	struct rtable t;
	struct chart_fig fig;
	struct buf p = BUF_INIT;
	double lo, hi;
	int i, rc = 0;
	if (rt_search(r, a, &t) < 0)
		return -XR_ENOMEM;
	if (!t.nrows)
		return 0;
	heading(f, 2, "search", t.title);
	table(f, &t, NULL, "search");
	for (i = 0; rc == 0 && i < r->nsearches; i++) {
		if (chart_search(r, i, 480, a, &fig) < 0 ||
		    html_fig(f, &fig, "search", i + 1) < 0 ||
		    rsearch_params(r, i, &p) < 0)
			rc = -XR_ENOMEM;
		else
			para(f, "search-params", p.s);
		if (rc == 0 && explain_search(r, i, &p, &lo, &hi) < 0)
			rc = -XR_ENOMEM;
		else if (rc == 0)
			para(f, "search-drops", p.s);
	}
	buf_release(&p);
	return rc;
}

static int matrices(FILE *f, const struct report *r, struct arena *a)
{
	struct chart_fig fig;
	int i;
	if (!r->ntables)
		return 0;
	heading(f, 2, "tables", T(TABLES));
	para(f, "note", T(SPREAD_NOTE));
	for (i = 0; i < r->ntables; i++) {
		struct rtable t;
		struct chart ch;
		const char *cap;
		char id[32];
		if (rt_matrix(r, i, a, &t) < 0 ||
		    !(cap = write_html_matrix_caption(r, &t, i + 1, a)) ||
		    chart_matrix(r, i, i + 1, t.title, a, &ch) < 0)
			return -XR_ENOMEM;
		snprintf(id, sizeof id, "table-%d", i + 1);
		table(f, &t, cap, id);
		fprintf(f, "<figure class=\"chart\" id=\"figure-%d\">\n",
			i + 1);
		fputs("<figcaption>", f);
		ESC(ch.title);
		fputs("</figcaption>\n<div class=\"scroll\">\n", f);
		if (svg_chart_write(f, &ch, 0, r->about.lang) < 0)
			return -XR_EIO;
		fputs("</div>\n</figure>\n", f);
		if (chart_box(r, i, i + 1, t.title, 480, a, &fig) < 0 ||
		    html_fig(f, &fig, "box", i + 1) < 0)
			return -XR_ENOMEM;
	}
	for (i = 0; i < r->ncells; i++)
		if (chart_timeseries(r, i, 480, a, &fig) < 0 ||
		    html_fig(f, &fig, "timeseries", i + 1) < 0)
			return -XR_ENOMEM;
	return latency_charts(f, r, a);
}

static int cells(FILE *f, const struct report *r, struct arena *a)
{
	struct rtable t;
	const char *cap;
	int i, any_iv = 0;
	if (!r->ncells)
		return 0;
	if (rt_cells(r, a, &t) < 0)
		return -XR_ENOMEM;
	cap = *t.unit
		  ? arena_printf(a, "%s: %s [%s]", T(CELLS), t.title, t.unit)
		  : arena_printf(a, "%s: %s", T(CELLS), t.title);
	if (!cap)
		return -XR_ENOMEM;
	heading(f, 2, "cells", T(CELLS));
	table(f, &t, cap, NULL);
	for (i = 0; i < r->ncells; i++)
		any_iv |= r->cells[i].st[r->met.primary].n_intervals > 0;
	if (any_iv)
		para(f, "note", T(INTERVAL_NOTE));
	/* idle against loaded latency beside the throughput (rlatency.c) */
	if (rt_latency(r, a, &t) < 0)
		return -XR_ENOMEM;
	if (t.nrows)
		table(f, &t, t.title, "latency-table");
	/* Medians of every other metric per cell, as in the Markdown. */
	if (r->met.nmetrics < 2)
		return 0;
	if (rt_metrics(r, a, &t) < 0)
		return -XR_ENOMEM;
	cap = arena_printf(a, "%s (%s)", T(METRIC), T(MEDIAN));
	table(f, &t, cap, NULL);
	return 0;
}

static int comparisons(FILE *f, const struct report *r, struct arena *a)
{
	struct chart_fig fig;
	struct rtable t;
	const char **vn;
	int i, nvn;
	heading(f, 2, "comparisons", T(COMPARISONS));
	for (i = 0; i < r->npair_notes; i++) /* declared, not realised */
		para(f, "note", r->pair_notes[i]);
	if (!r->ncmps) {
		para(f, "none", report_nocmp_text(r));
		return 0;
	}
	if (rt_cmps_short(r, a, &t, &vn, &nvn) < 0)
		return -XR_ENOMEM;
	table(f, &t, NULL, "comparisons-table");
	/* the full verdicts (reasons, robust and sensitivity checks) as
	 * numbered notes under the table, so that its column stays short */
	if (nvn)
		fputs("<ol class=\"vnotes\">\n", f);
	for (i = 0; i < nvn; i++) {
		fprintf(f, "<li id=\"verdict-note-%d\">", i + 1);
		ESC(vn[i]);
		fputs("</li>\n", f);
	}
	if (nvn)
		fputs("</ol>\n", f);
	/* each pair's change against the ±θ band (chart_cmp.c) */
	/* 390 units: at its least scale (svg_chart.c) it fits a 390 px
	 * phone's column without scrolling, verdicts and all */
	if (chart_forest(r, FOREST_W, a, &fig) < 0)
		return -XR_ENOMEM;
	return html_fig(f, &fig, "forest", 1);
}

/* A limit line per cell, a sentence per pair bound by different things
 * (reports/explain). */
static int limits(FILE *f, const struct report *r)
{
	struct explain *x;
	int rc = explain_build(r, &x);
	if (rc < 0 || !x)
		return rc;
	heading(f, 2, "limits", T(LIMITS));
	for (int k = 0; k < r->ncells; k++) {
		const char *s = arena_printf(
		    r->arena, "%s: %s", r->cells[k].label, x->cells[k].line);
		if (!s)
			return -XR_ENOMEM;
		para(f, explain_kind_name(x->cells[k].kind), s);
	}
	for (int k = 0; k < r->ncmps; k++)
		if (x->pairs[k])
			para(f, "limits", x->pairs[k]);
	for (int k = 0; k < x->nrefs; k++) {
		const char *s =
		    x->ref_lines[k]
			? arena_printf(r->arena, "%s: %s",
				       r->ref->rows[k].label, x->ref_lines[k])
			: NULL;
		if (s)
			para(f, "published", s);
	}
	return 0;
}

/* How the comparisons were computed, after the results they explain. */
static void method(FILE *f, const struct report *r)
{
	struct buf m = BUF_INIT;
	if (!r->ncmps)
		return;
	report_method_note(r, &m);
	heading(f, 2, "method", T(METHOD));
	para(f, "note", m.s ? m.s : "");
	buf_release(&m);
}

/* The answer first (rfindings.h): a list before the summary table; the
 * state of an unfinished session in bold. */
static int findings(FILE *f, const struct report *r, struct arena *a)
{
	struct rf_line *l;
	int i, n;
	if (rt_findings(r, a, &l, &n) < 0)
		return -XR_ENOMEM;
	heading(f, 2, "findings", T(FINDINGS));
	fputs("<ul class=\"findings\">\n", f);
	for (i = 0; i < n; i++) {
		fprintf(f, "<li class=\"%s\">%s", rf_kind_name(l[i].kind),
			l[i].kind == RF_STATE ? "<strong>" : "");
		ESC(l[i].text);
		fprintf(f, "%s</li>\n",
			l[i].kind == RF_STATE ? "</strong>" : "");
	}
	fputs("</ul>\n", f);
	return 0;
}

static int reference(FILE *f, const struct report *r, struct arena *a)
{
	struct rtable t;
	struct buf m = BUF_INIT;
	const char *cap;
	if (!r->ref)
		return 0;
	heading(f, 2, "reference", T(REFERENCE));
	/* what the reference says about itself: source, statistic, ... */
	if (rt_reference_info(r, a, &t) < 0)
		return -XR_ENOMEM;
	table(f, &t, NULL, NULL);
	if (rt_reference(r, a, &t) < 0)
		return -XR_ENOMEM;
	buf_addf(&m, T(REF_NOTE), r->ref->path);
	para(f, "note", m.s ? m.s : "");
	buf_release(&m);
	cap = arena_printf(a, "%s [%s]", t.title, t.unit);
	table(f, &t, cap, NULL);
	return 0;
}

/* Every flag that appears, explained once, with where it applies. */
static int notes(FILE *f, const struct report *r, struct arena *a)
{
	struct rt_note *n;
	int k, j, nn;
	if (!r->nnotes)
		return 0;
	if (rt_notes(r, a, &n, &nn) < 0)
		return -XR_ENOMEM;
	heading(f, 2, "notes", T(NOTES));
	fputs("<ol class=\"notes\">\n", f);
	for (k = 0; k < nn; k++) {
		fprintf(f, "<li id=\"note-%d\">", k + 1);
		ESC(n[k].text);
		fputs(" <code>", f);
		ESC(n[k].name);
		fputs("</code>", f);
		if (n[k].nitems || n[k].more)
			fputs("\n<ul>\n", f);
		for (j = 0; j < n[k].nitems; j++) {
			fputs("<li>", f);
			ESC(n[k].item[j].where);
			if (*n[k].item[j].detail) {
				fputs(": ", f);
				ESC(n[k].item[j].detail);
			}
			fputs("</li>\n", f);
		}
		if (n[k].more)
			fprintf(f, "<li>… +%d</li>\n", n[k].more);
		if (n[k].nitems || n[k].more)
			fputs("</ul>\n", f);
		fputs("</li>\n", f);
	}
	fputs("</ol>\n", f);
	return 0;
}

static int conditions(FILE *f, const struct report *r, struct arena *a)
{
	struct rtable t;
	if (!r->nconds)
		return 0;
	if (rt_conditions(r, a, &t) < 0)
		return -XR_ENOMEM;
	table(f, &t, t.title, "conditions");
	return 0;
}

static int appendix(FILE *f, const struct report *r, struct arena *a)
{
	struct rtable t;
	if (rt_sizing(r, a, &t) < 0)
		return -XR_ENOMEM;
	if (t.nrows)
		table(f, &t, t.title, "sizing");
	if (!r->nfacts && !r->nverifs && !r->span.nsessions)
		return 0;
	heading(f, 2, "appendix",
		r->about.lang == REPORT_LANG_JA ? "付録" : "Appendix");
	if (r->span.nsessions) {
		if (rt_sessions(r, a, &t) < 0)
			return -XR_ENOMEM;
		table(f, &t, t.title, "sessions");
	}
	if (r->nfacts) {
		if (rt_facts(r, a, &t) < 0)
			return -XR_ENOMEM;
		table(f, &t, t.title, "host-facts");
	}
	if (r->nverifs) {
		if (rt_verifs(r, a, &t) < 0)
			return -XR_ENOMEM;
		table(f, &t, t.title, "verification");
	}
	return 0;
}

static int body(FILE *f, const struct report *r, struct arena *a)
{
	struct rtable t;
	int rc;
	fputs("<h1>", f);
	ESC(r->about.title ? r->about.title : "xrun");
	fputs("</h1>\n", f);
	/* The plan's description says what the benchmark is for. */
	if (r->about.description && *r->about.description)
		para(f, "desc", r->about.description);
	/* a report re-cut after its runs says so (recut.c) */
	if (r->about.recut)
		para(f, "recut", r->about.recut);
	if (findings(f, r, a) < 0)
		return -XR_ENOMEM;
	if (rt_header(r, a, &t) < 0)
		return -XR_ENOMEM;
	table(f, &t, NULL, "summary");
	if (rt_system(r, a, &t) < 0) /* what was measured on, before numbers */
		return -XR_ENOMEM;
	if (t.nrows)
		table(f, &t, t.title, "system");
	rc = matrices(f, r, a);
	if (rc == 0)
		rc = search(f, r, a);
	if (rc == 0)
		rc = cells(f, r, a);
	if (rc == 0)
		rc = comparisons(f, r, a);
	if (rc == 0)
		rc = limits(f, r);
	if (rc == 0)
		method(f, r);
	if (rc == 0)
		rc = reference(f, r, a);
	if (rc == 0)
		rc = conditions(f, r, a);
	if (rc == 0)
		rc = notes(f, r, a);
	if (rc == 0)
		rc = appendix(f, r, a);
	return rc;
}

int report_write_html(const struct report *r, FILE *f, struct xr_err *err)
{
	struct arena *a = arena_new();
	int rc = a ? 0 : -XR_ENOMEM;

	head(f, r);
	if (rc == 0)
		rc = body(f, r, a);
	fputs("<footer>xrun " XRUN_VERSION " — ", f);
	ESC(r->about.title ? r->about.title : "");
	fputs("</footer>\n</main>\n</body>\n</html>\n", f);
	arena_free(a);
	if (rc == -XR_ENOMEM)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	if (rc < 0 || fflush(f) != 0 || ferror(f))
		return xr_err_set(err, XR_EIO, NULL, 0, 0,
				  "cannot write the html report");
	return 0;
}
