/*
 * The Markdown writer: a header block, the matrix tables, per-cell
 * statistics, the comparison table with verdicts, notes explaining every
 * flag that appears, host facts and the verification summary, as pipe
 * tables that paste into GitHub, Zenn, Qiita or note. Renders the neutral
 * tables and notes of table.c (rtable.h); nothing is decided here. Written
 * to a file, each matrix table's chart (chart.c) goes beside it as an SVG
 * image (svg_chart.c), linked under its table with the caption as alt text.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "buf.h"
#include "chart.h"
#include "escape.h"
#include "explain.h"
#include "render.h"
#include "rfindings.h"
#include "xr_png.h"
#include "rlatency.h"
#include "rsearch.h"
#include "rtable.h"
#include "svg_chart.h"
#include "wfile.h"
#include "banned.h"

/* What the escaping replaced in the report being written (one warning at
 * the end). The writer is not reentrant; neither is stdio's stdout. */
static struct esc_count md_count;

/* Untrusted text (names, levels, titles, details from the store): escaped
 * for Markdown (escape.h), ill-formed UTF-8 counted. */
static void put(FILE *f, const char *s, unsigned flags)
{
	struct buf b = BUF_INIT;
	esc_count_add(&md_count, esc_md(&b, s ? s : "", flags));
	if (b.len)
		fwrite(b.s, 1, b.len, f);
	buf_release(&b);
}

/* Table cell text: pipes escaped, line breaks flattened, no raw HTML. */
static void cell(FILE *f, const char *s)
{
	fputs("| ", f);
	put(f, s, ESC_MD_CELL);
	fputc(' ', f);
}

static void row_end(FILE *f)
{
	fputs("|\n", f);
}

static const char *T(const struct report *r, enum report_text_id id)
{
	return report_text(r, id);
}

/* A neutral table as a pipe table. Its header row is a real one: Zenn,
 * Qiita and GitHub render an empty header as an empty bar over the table,
 * so a key/value block is headed "Key | Value" and an empty stub "Key". */
static void md_table(const struct report *r, FILE *f, const struct rtable *t)
{
	int i, c;
	for (c = 0; c < t->ncols; c++) {
		const char *h = t->col[c].head;
		if (t->plain || !h || !*h)
			h = T(r, c == 0 ? REPORT_T_KEY : REPORT_T_VALUE);
		cell(f, h);
	}
	row_end(f);
	for (c = 0; c < t->ncols; c++)
		fputs(t->col[c].align == RT_RIGHT ? "|---:" : "|---", f);
	fputs("|\n", f);
	for (i = 0; i < t->nrows; i++) {
		for (c = 0; c < t->ncols; c++)
			cell(f, rt_cell(t, i, c));
		row_end(f);
	}
	fputc('\n', f);
}

/* A plain (key/value) table as a list: "- key: value". */
static void md_list(FILE *f, const struct rtable *t)
{
	int i;
	for (i = 0; i < t->nrows; i++) {
		fputs("- ", f);
		put(f, rt_cell(t, i, 0), 0);
		fputs(": ", f);
		put(f, rt_cell(t, i, 1), 0);
		fputc('\n', f);
	}
	fputc('\n', f);
}

/* "## Title" etc.: "(unit)" after a title when the table has a unit. */
static void md_caption(FILE *f, const char *hashes, const char *title,
		       const char *unit)
{
	fprintf(f, "%s ", hashes);
	put(f, title, 0);
	if (unit && *unit) {
		fputs(" (", f);
		put(f, unit, 0);
		fputc(')', f);
	}
	fputs("\n\n", f);
}

/* The answer first (rfindings.h): a list under its own heading. */
static int findings(const struct report *r, struct arena *a, FILE *f)
{
	struct rf_line *l;
	int i, n, rc;
	if ((rc = rt_findings(r, a, &l, &n)) < 0)
		return rc;
	fprintf(f, "## %s\n\n", T(r, REPORT_T_FINDINGS));
	for (i = 0; i < n; i++) {
		fputs(l[i].kind == RF_STATE ? "- **" : "- ", f);
		put(f, l[i].text, 0);
		fputs(l[i].kind == RF_STATE ? "**\n" : "\n", f);
	}
	fputc('\n', f);
	return 0;
}

static int header(const struct report *r, struct arena *a, FILE *f)
{
	struct rtable t;
	int rc;
	/* A line break in the title cannot start another block. */
	fputs("# ", f);
	put(f, r->about.title ? r->about.title : "xrun report", 0);
	fputs("\n\n", f);
	/* The plan's description, as written: its Markdown passes through,
	 * raw HTML does not. */
	if (r->about.description && *r->about.description) {
		put(f, r->about.description, ESC_MD_BLOCK);
		fputs("\n\n", f);
	}
	/* a report re-cut after its runs says so (recut.c) */
	if (r->about.recut) {
		put(f, r->about.recut, ESC_MD_BLOCK);
		fputs("\n\n", f);
	}
	if ((rc = findings(r, a, f)) < 0)
		return rc;
	if ((rc = rt_header(r, a, &t)) < 0)
		return rc;
	md_table(r, f, &t);
	/* what was measured on, before the numbers */
	if ((rc = rt_system(r, a, &t)) < 0)
		return rc;
	if (t.nrows) {
		fputs("**", f);
		put(f, t.title, 0);
		fputs("**\n\n", f);
		md_table(r, f, &t);
	}
	return 0;
}

/* Where the chart images of a Markdown file go: "dir/r.md" has them as
 * "dir/r-chart-N.svg", linked as "r-chart-N.svg"; with png, also as
 * "dir/r-chart-N.png", linked instead. */
struct md_charts {
	struct buf stem; /* "dir/r" */
	size_t base;	 /* where "r" starts in stem */
	int png;
};

static int charts_init(struct md_charts *mc, const char *md_path)
{
	const char *slash = strrchr(md_path, '/');
	const char *dot = strrchr(md_path, '.');
	size_t n = dot && (!slash || dot > slash + 1) ? (size_t)(dot - md_path)
						      : strlen(md_path);
	buf_init(&mc->stem, 0);
	mc->base = slash ? (size_t)(slash - md_path) + 1 : 0;
	return buf_add(&mc->stem, md_path, n) < 0 ? -XR_ENOMEM : 0;
}

/* Alt text: brackets and backslashes escaped, & < > as entities (no raw
 * HTML), lines flattened. */
static void md_alt(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '[' || *s == ']' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else
			fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
	}
}

/* A link target: the bytes Markdown would misread, percent-encoded. */
static void md_url(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (strchr(" ()<>[]%\\\"'", *s) || (unsigned char)*s < 0x20)
			fprintf(f, "%%%02X", (unsigned char)*s);
		else
			fputc(*s, f);
	}
}

/* The PNG of the SVG data beside it (path ends in ".svg": the same name
 * with ".png"), through the one writer. */
static int md_png(struct buf *path, const char *data, size_t len,
		  struct xr_err *err)
{
	char *png = NULL;
	size_t n = 0;
	int rc;
	path->len -= 4;
	path->s[path->len] = 0;
	if (buf_add(path, ".png", 4) < 0)
		return -XR_ENOMEM;
	rc = png_from_svg(data, len, path->s, &png, &n, err);
	if (rc == 0)
		rc = wfile_write(path->s, png, n, err);
	free(png);
	return rc;
}

/* A chart (ch, else fig) as "<stem>-<kind>-<no>.svg" (rendered in memory,
 * then through the one writer, wfile.h), its PNG when asked, and the
 * image link (to the PNG when there is one). 0, -XR_ENOMEM (err not
 * filled: the caller says it), or an error with err naming the file. */
static int md_svg(const struct report *r, const struct chart *ch,
		  const struct chart_fig *fig, const char *kind, int no,
		  struct md_charts *mc, FILE *f, struct xr_err *err)
{
	struct buf path = BUF_INIT;
	char *data = NULL;
	size_t len = 0;
	FILE *svg;
	int rc;

	if (buf_addf(&path, "%s-%s-%d.svg", mc->stem.s, kind, no) < 0 ||
	    !(svg = open_memstream(&data, &len))) {
		buf_release(&path);
		return -XR_ENOMEM;
	}
	rc = ch ? svg_chart_write(svg, ch, 1, r->about.lang)
		: svg_fig_write(svg, fig, 1, r->about.lang);
	if (fclose(svg) != 0 || rc < 0)
		rc = -XR_ENOMEM;
	else
		rc = wfile_write(path.s, data, len, err);
	if (rc == 0 && mc->png)
		rc = md_png(&path, data, len, err);
	free(data);
	if (rc == 0) {
		fputs("![", f);
		md_alt(f, ch ? ch->title : fig->title);
		fputs("](", f);
		md_url(f, path.s + mc->base);
		fputs(")\n\n", f);
	}
	buf_release(&path);
	return rc;
}

/* Table ti's bar chart ("<stem>-chart-N.svg") and, when it has runs, its
 * distribution ("<stem>-box-N.svg"). */
static int md_chart(const struct report *r, struct arena *a,
		    const struct rtable *t, int ti, struct md_charts *mc,
		    FILE *f, struct xr_err *err)
{
	struct chart ch;
	struct chart_fig fig;
	int rc;

	if ((rc = chart_matrix(r, ti, ti + 1, t->title, a, &ch)) < 0 ||
	    (rc = md_svg(r, &ch, NULL, "chart", ti + 1, mc, f, err)) < 0 ||
	    (rc = chart_box(r, ti, ti + 1, t->title, 480, a, &fig)) < 0)
		return rc;
	return fig.nops ? md_svg(r, NULL, &fig, "box", ti + 1, mc, f, err) : 0;
}

/* Latency under load (chart_latency.c): each cell's round-trip time
 * beside its throughput as "<stem>-latency-N.svg", the loaded round-trip
 * times' CDF as "<stem>-cdf-1.svg". */
static int md_latency(const struct report *r, struct arena *a,
		      struct md_charts *mc, FILE *f, struct xr_err *err)
{
	struct chart_fig fig;
	int i, rc;
	for (i = 0; i < r->ncells; i++) {
		if ((rc = chart_latency_ts(r, i, 480, a, &fig)) < 0)
			return rc;
		if (fig.nops && (rc = md_svg(r, NULL, &fig, "latency", i + 1,
					     mc, f, err)) < 0)
			return rc;
	}
	if ((rc = chart_latency_cdf(r, 480, a, &fig)) < 0)
		return rc;
	return fig.nops ? md_svg(r, NULL, &fig, "cdf", 1, mc, f, err) : 0;
}

/* Each cell's time series as "<stem>-timeseries-N.svg" (N: the cell's
 * 1-based position in the cells table). */
static int md_timeseries(const struct report *r, struct arena *a,
			 struct md_charts *mc, FILE *f, struct xr_err *err)
{
	struct chart_fig fig;
	int i, rc;
	for (i = 0; i < r->ncells; i++) {
		if ((rc = chart_timeseries(r, i, 480, a, &fig)) < 0)
			return rc;
		if (fig.nops && (rc = md_svg(r, NULL, &fig, "timeseries", i + 1,
					     mc, f, err)) < 0)
			return rc;
	}
	return md_latency(r, a, mc, f, err);
}

static int tables(const struct report *r, struct arena *a, FILE *f,
		  struct md_charts *mc, struct xr_err *err)
{
	int k, rc;
	fprintf(f, "## %s\n\n", T(r, REPORT_T_TABLES));
	for (k = 0; k < r->ntables; k++) {
		struct rtable t;
		if ((rc = rt_matrix(r, k, a, &t)) < 0)
			return rc;
		md_caption(f, "###", t.title, t.unit);
		md_table(r, f, &t);
		if (mc && (rc = md_chart(r, a, &t, k, mc, f, err)) < 0)
			return rc;
	}
	if (mc && (rc = md_timeseries(r, a, mc, f, err)) < 0)
		return rc;
	fprintf(f, "%s\n\n", T(r, REPORT_T_SPREAD_NOTE));
	return 0;
}

static int cells(const struct report *r, struct arena *a, FILE *f)
{
	struct rtable t;
	int rc;
	if ((rc = rt_cells(r, a, &t)) < 0)
		return rc;
	fprintf(f, "## %s (", T(r, REPORT_T_CELLS));
	put(f, t.title, 0);
	if (*t.unit) {
		fputs(", ", f);
		put(f, t.unit, 0);
	}
	fputs(")\n\n", f);
	md_table(r, f, &t);
	fprintf(f, "%s\n\n", T(r, REPORT_T_INTERVAL_NOTE));
	/* idle against loaded latency beside the throughput (rlatency.c) */
	if ((rc = rt_latency(r, a, &t)) < 0)
		return rc;
	if (t.nrows) {
		fputs("### ", f);
		put(f, t.title, 0);
		fputs("\n\n", f);
		md_table(r, f, &t);
	}
	/* Medians of every other metric per cell (retransmits, CPU, loss
	 * ...), the way before/after tables show them side by side. */
	if (r->met.nmetrics < 2)
		return 0;
	if ((rc = rt_metrics(r, a, &t)) < 0)
		return rc;
	fprintf(f, "### %s (%s)\n\n", T(r, REPORT_T_METRIC),
		T(r, REPORT_T_MEDIAN));
	md_table(r, f, &t);
	return 0;
}

/* The rate search (rsearch.c): its table, then each search's chart as
 * "<stem>-search-N.svg" with its parameters under it. */
static int md_search(const struct report *r, struct arena *a, FILE *f,
		     struct md_charts *mc, struct xr_err *err)
{
	struct rtable t;
	struct chart_fig fig;
	struct buf p = BUF_INIT;
	double lo, hi;
	int i, rc;
	if ((rc = rt_search(r, a, &t)) < 0 || !t.nrows)
		return rc;
	fputs("## ", f);
	put(f, t.title, 0);
	fputs("\n\n", f);
	md_table(r, f, &t);
	for (i = 0; rc == 0 && i < r->nsearches; i++) {
		if (mc && (rc = chart_search(r, i, 480, a, &fig)) == 0 &&
		    fig.nops)
			rc = md_svg(r, NULL, &fig, "search", i + 1, mc, f, err);
		if (rc == 0 && (rc = rsearch_params(r, i, &p)) == 0) {
			put(f, p.s, 0);
			fputs("\n\n", f);
		}
		if (rc == 0 && (rc = explain_search(r, i, &p, &lo, &hi)) == 0) {
			put(f, p.s, 0);
			fputs("\n\n", f);
		}
	}
	buf_release(&p);
	return rc;
}

/* A limit line per cell and a sentence per pair bound by different
 * things (reports/explain). */
static int limits(const struct report *r, FILE *f)
{
	struct explain *x;
	int rc = explain_build(r, &x);
	if (rc < 0 || !x)
		return rc;
	fprintf(f, "## %s\n\n", T(r, REPORT_T_LIMITS));
	for (int k = 0; k < r->ncells; k++) {
		fputs("- ", f);
		put(f, r->cells[k].label, 0);
		fputs(": ", f);
		put(f, x->cells[k].line, 0);
		fputs("\n", f);
	}
	for (int k = 0; k < r->ncmps; k++)
		if (x->pairs[k]) {
			fputs("- ", f);
			put(f, x->pairs[k], 0);
			fputs("\n", f);
		}
	for (int k = 0; k < x->nrefs; k++)
		if (x->ref_lines[k]) {
			fputs("- ", f);
			put(f, r->ref->rows[k].label, 0);
			fputs(": ", f);
			put(f, x->ref_lines[k], 0);
			fputs("\n", f);
		}
	fputs("\n", f);
	return 0;
}

static int comparisons(const struct report *r, struct arena *a, FILE *f,
		       struct md_charts *mc, struct xr_err *err)
{
	struct chart_fig fig;
	struct rtable t;
	int rc;
	fprintf(f, "## %s\n\n", T(r, REPORT_T_COMPARISONS));
	for (rc = 0; rc < r->npair_notes; rc++) { /* declared, not realised */
		fputs("- ", f);
		put(f, r->pair_notes[rc], 0);
		fputs("\n", f);
	}
	if (r->npair_notes)
		fputs("\n", f);
	if (!r->ncmps) {
		fprintf(f, "%s\n\n", report_nocmp_text(r));
		return 0;
	}
	if ((rc = rt_cmps(r, a, &t)) < 0)
		return rc;
	md_table(r, f, &t);
	/* each pair's change against the ±θ band: "<stem>-forest-1.svg" */
	if (!mc)
		return 0;
	if ((rc = chart_forest(r, 480, a, &fig)) < 0)
		return rc;
	return fig.nops ? md_svg(r, NULL, &fig, "forest", 1, mc, f, err) : 0;
}

/* How the comparisons were computed, after the results they explain. */
static void method(const struct report *r, FILE *f)
{
	struct buf m = BUF_INIT;
	if (!r->ncmps)
		return;
	report_method_note(r, &m);
	fprintf(f, "## %s\n\n", T(r, REPORT_T_METHOD));
	put(f, m.s ? m.s : "", 0);
	fputs("\n\n", f);
	buf_release(&m);
}

/* The note's sentence after its bold code: without the code again when
 * the sentence starts with it ("outlier: a run lies ..."). */
static const char *note_sentence(const struct rt_note *n)
{
	size_t len = strlen(n->name);
	if (!strncmp(n->text, n->name, len) && n->text[len] == ':')
		return n->text + len + 1 + (n->text[len + 1] == ' ');
	return n->text;
}

/* Every flag that appears, explained once, with where it applies. */
static int notes(const struct report *r, struct arena *a, FILE *f)
{
	struct rt_note *n;
	int k, j, nn, rc;
	if (!r->nnotes)
		return 0;
	if ((rc = rt_notes(r, a, &n, &nn)) < 0)
		return rc;
	fprintf(f, "## %s\n\n", T(r, REPORT_T_NOTES));
	for (k = 0; k < nn; k++) {
		fprintf(f, "%d. **%s**: ", k + 1, n[k].name);
		put(f, note_sentence(&n[k]), 0);
		fputc('\n', f);
		for (j = 0; j < n[k].nitems; j++) {
			fputs("   - ", f);
			put(f, n[k].item[j].where, 0);
			if (*n[k].item[j].detail) {
				fputs(": ", f);
				put(f, n[k].item[j].detail, 0);
			}
			fputc('\n', f);
		}
		if (n[k].more)
			fprintf(f, "   - (+%d)\n", n[k].more);
	}
	fputc('\n', f);
	return 0;
}

/* What the runs really ran under: every report has it. */
static int conditions(const struct report *r, struct arena *a, FILE *f)
{
	struct rtable t;
	int rc;
	if (!r->nconds)
		return 0;
	if ((rc = rt_conditions(r, a, &t)) < 0)
		return rc;
	md_caption(f, "##", t.title, NULL);
	md_table(r, f, &t);
	return 0;
}

static int appendix(const struct report *r, struct arena *a, FILE *f)
{
	struct rtable t;
	int rc;
	if ((rc = rt_sizing(r, a, &t)) < 0)
		return rc;
	if (t.nrows) {
		md_caption(f, "##", t.title, NULL);
		md_table(r, f, &t);
	}
	if (r->span.nsessions) {
		if ((rc = rt_sessions(r, a, &t)) < 0)
			return rc;
		md_caption(f, "##", t.title, NULL);
		md_table(r, f, &t);
	}
	if (r->nfacts) {
		if ((rc = rt_facts(r, a, &t)) < 0)
			return rc;
		md_caption(f, "##", t.title, NULL);
		md_table(r, f, &t);
	}
	if (r->nverifs) {
		if ((rc = rt_verifs(r, a, &t)) < 0)
			return rc;
		md_caption(f, "##", t.title, NULL);
		md_table(r, f, &t);
	}
	return 0;
}

/* The published matrix next to the measured cells (--reference), laid out
 * like the published table: one column per factor it names. */
static int reference(const struct report *r, struct arena *a, FILE *f)
{
	struct rtable t;
	int rc;
	struct buf m = BUF_INIT;
	if (!r->ref)
		return 0;
	fprintf(f, "## %s\n\n", T(r, REPORT_T_REFERENCE));
	if ((rc = rt_reference_info(r, a, &t)) < 0)
		return rc;
	md_list(f, &t);
	if ((rc = rt_reference(r, a, &t)) < 0)
		return rc;
	put(f, t.title, 0);
	fputs(" (", f);
	put(f, t.unit, 0);
	fputs(")\n\n", f);
	md_table(r, f, &t);
	buf_addf(&m, T(r, REPORT_T_REF_NOTE), r->ref->path);
	put(f, m.s, 0);
	fputs("\n\n", f);
	buf_release(&m);
	return 0;
}

int report_write_md_charts(const struct report *r, FILE *f, const char *md_path,
			   int png, struct xr_err *err)
{
	struct arena *a = arena_new();
	struct md_charts mc, *pmc = NULL;
	int rc = a ? 0 : -XR_ENOMEM;
	memset(&md_count, 0, sizeof md_count);
	if (rc == 0 && md_path && strcmp(md_path, "-") != 0) {
		rc = charts_init(&mc, md_path);
		mc.png = png;
		pmc = &mc;
	}
	if (rc == 0)
		rc = header(r, a, f);
	if (rc == 0)
		rc = tables(r, a, f, pmc, err);
	if (rc == 0)
		rc = md_search(r, a, f, pmc, err);
	if (rc == 0)
		rc = comparisons(r, a, f, pmc, err);
	if (rc == 0)
		rc = limits(r, f);
	if (rc == 0)
		method(r, f);
	if (rc == 0)
		rc = reference(r, a, f);
	if (rc == 0)
		rc = conditions(r, a, f);
	if (rc == 0)
		rc = notes(r, a, f);
	if (rc == 0)
		rc = cells(r, a, f);
	if (rc == 0)
		rc = appendix(r, a, f);
	arena_free(a);
	esc_warn(&md_count, "markdown", stderr);
	if (pmc)
		buf_release(&mc.stem);
	/* Only an allocation failure comes back without err filled (the
	 * table builders have no err); a chart file's error says which. */
	if (rc == -XR_ENOMEM)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	if (rc < 0)
		return rc;
	if (fflush(f) != 0 || ferror(f))
		return xr_err_set(err, XR_EIO, NULL, 0, 0,
				  "cannot write the markdown report");
	return 0;
}

int report_write_md(const struct report *r, FILE *f, struct xr_err *err)
{
	return report_write_md_charts(r, f, NULL, 0, err);
}
