/*
 * Tests of the PDF layer and writer: real PDFs written to a temp dir and
 * read back with pdftotext (poppler-utils). Covers font discovery errors,
 * wrapping, a 200-row table that breaks across pages with its header
 * repeated, and a constructed report model rendered in English and
 * Japanese (title, medians, verdict strings, flag notes, headings).
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pdf.h"
#include "pdf_font.h"
#include "pdf_int.h"
#include "proc.h"
#include "render.h"
#include "tap.h"

static char dir[] = "/tmp/xrun-test-pdf-XXXXXX";

/* Text of a PDF (pages first..last, 0 = all) by pdftotext -layout. OUT:
 * caller frees; NULL when pdftotext failed. */
static char *pdf_text(const char *path, int first, int last)
{
	char f[16], l[16];
	const char *argv[10];
	struct proc_opts o;
	struct proc_result res;
	struct xr_err err;
	int n = 0;
	char *out = NULL;

	memset(&o, 0, sizeof(o));
	memset(&res, 0, sizeof(res));
	argv[n++] = "pdftotext";
	argv[n++] = "-layout";
	if (first > 0) {
		snprintf(f, sizeof(f), "%d", first);
		snprintf(l, sizeof(l), "%d", last);
		argv[n++] = "-f";
		argv[n++] = f;
		argv[n++] = "-l";
		argv[n++] = l;
	}
	argv[n++] = path;
	argv[n++] = "-";
	argv[n] = NULL;
	o.argv = argv;
	o.timeout = 30;
	if (proc_run(&o, &res, &err) == 0 && res.status == PROC_EXITED &&
	    res.exit_code == 0) {
		out = res.out;
		res.out = NULL;
	}
	proc_result_release(&res);
	return out;
}

static int count(const char *hay, const char *needle)
{
	int n = 0;

	while (hay && (hay = strstr(hay, needle)) != NULL) {
		n++;
		hay += strlen(needle);
	}
	return n;
}

/* The last "rowNNN" on page 1 is followed by row NNN+1 on page 2. */
static int next_row_follows(const char *p1, const char *p2)
{
	const char *q = p1, *last = NULL;
	char want[32];

	while ((q = strstr(q, "row")) != NULL)
		last = q++;
	if (!last)
		return 0;
	snprintf(want, sizeof(want), "row%03d", atoi(last + 3) + 1);
	return strstr(p2, want) != NULL;
}

static void test_font_errors(void)
{
	struct pdf *pdf = NULL;
	struct xr_err err;
	char path[4096];
	int idx, rc;

	setenv("XRUN_FONT", "/nonexistent/font.ttf", 1);
	rc = pdf_new(&pdf, NULL, &err);
	is_int(rc, -XR_EFONT, "missing XRUN_FONT fails with XR_EFONT");
	ok(pdf == NULL, "no document on font error");
	ok(strstr(err.msg, "'/nonexistent/font.ttf'") &&
	       strstr(err.msg, "XRUN_FONT") && strstr(err.msg, PDF_NO_FONT_MSG),
	   "message names the path and the fix: %s", err.msg);
	unsetenv("XRUN_FONT");

	setenv("XRUN_FONT_NOFC", "1", 1);
	rc = pdf_find_font(NULL, path, sizeof(path), &idx, &err);
	is_int(rc, -XR_EFONT, "no discovery and no path: no font");
	is_str(err.msg, PDF_NO_FONT_MSG, "clear no-font message");
	unsetenv("XRUN_FONT_NOFC");

	/* A file that is not a font at all. */
	setenv("XRUN_FONT", "/etc/hostname", 1);
	rc = pdf_new(&pdf, NULL, &err);
	is_int(rc, -XR_EFONT, "non-font file fails cleanly");
	ok(strstr(err.msg, "cannot embed font") != NULL, "says why: %s",
	   err.msg);
	unsetenv("XRUN_FONT");
}

static int have_font(void)
{
	char path[4096];
	int idx;
	struct xr_err err;

	return pdf_find_font(NULL, path, sizeof(path), &idx, &err) == 0;
}

static void test_wrap(void)
{
	struct pdf *pdf = NULL;
	struct xr_err err;
	struct pdf_line *lines = NULL;
	const char *en = "the quick brown fox jumps over the lazy dog again";
	const char *ja = "各セルは成功した試行の中央値と平均の信頼区間の半幅";
	int n, i, okw = 1;

	if (pdf_new(&pdf, NULL, &err) < 0) {
		ok(0, "pdf_new: %s", err.msg);
		return;
	}
	ok(pdf_measure(pdf, "9.41", 10) > 10 &&
	       pdf_measure(pdf, "9.41", 10) < 30,
	   "measure of digits is plausible (%g)", pdf_measure(pdf, "9.41", 10));
	is_near(pdf_measure(pdf, "比較", 10), 20, 0.5,
		"CJK characters are one em wide");
	n = pdf_wrap(pdf, en, 10, 80, &lines);
	ok(n >= 3, "english wraps into several lines (%d)", n);
	for (i = 0; i < n; i++) {
		okw &= pdf_measure_n(pdf, lines[i].s, lines[i].len, 10) <= 80;
		okw &= lines[i].len > 0 && lines[i].s[0] != ' ';
	}
	ok(okw, "every english line fits and starts with a word");
	ok(n > 0 && strncmp(lines[0].s, "the quick", 9) == 0,
	   "breaks at spaces");
	free(lines);
	n = pdf_wrap(pdf, ja, 10, 60, &lines);
	okw = n >= 3;
	for (i = 0; i < n; i++)
		okw &= pdf_measure_n(pdf, lines[i].s, lines[i].len, 10) <= 60;
	ok(okw, "japanese without spaces wraps between characters (%d)", n);
	free(lines);
	/* kinsoku: a line never starts with 。 or 、 nor ends with 「 */
	{
		static const char *const jt[] = {
		    "最小と最大の間にあること。次の文",
		    "あいうえおかきくけ、こさしすせ",
		    "あいうえおかきく「けこ」さしすせ",
		};
		int k, good = 1;
		double wd;
		for (k = 0; k < 3; k++)
			for (wd = 40; wd <= 160; wd += 10) {
				n = pdf_wrap(pdf, jt[k], 10, wd, &lines);
				for (i = 0; i < n; i++) {
					good &= strncmp(lines[i].s, "。", 3) &&
						strncmp(lines[i].s, "、", 3) &&
						strncmp(lines[i].s, "」", 3);
					good &= lines[i].len < 3 ||
						strncmp(lines[i].s +
							    lines[i].len - 3,
							"「", 3);
				}
				free(lines);
			}
		ok(good, "no line starts with 。、」 or ends with 「");
	}
	n = pdf_wrap(pdf, "a\nb", 10, 500, &lines);
	is_int(n, 2, "newline forces a break");
	free(lines);
	pdf_free(pdf);
}

static void test_long_table(void)
{
	struct pdf *pdf = NULL;
	struct pdf_table *t;
	struct xr_err err;
	char path[256], *p1, *p2;
	int i, rc;

	snprintf(path, sizeof(path), "%s/long.pdf", dir);
	if (pdf_new(&pdf, NULL, &err) < 0) {
		ok(0, "pdf_new: %s", err.msg);
		return;
	}
	t = pdf_table_new(3);
	pdf_table_caption(t, "Table 9. long one", " (continued)");
	pdf_table_head_row(t);
	pdf_table_head(t, "", 1);
	pdf_table_head(t, "Spanning group", 2);
	pdf_table_head_row(t);
	pdf_table_head(t, "RowHead", 1);
	pdf_table_head(t, "ColAlpha", 1);
	pdf_table_head(t, "ColBeta", 1);
	pdf_table_align(t, 1, PDF_RIGHT);
	pdf_table_align(t, 2, PDF_RIGHT);
	for (i = 0; i < 200; i++) {
		pdf_table_row(t);
		pdf_table_cellf(t, "row%03d", i);
		pdf_table_cellf(t, "%.2f", i * 0.01 + 9.41);
		pdf_table_cellf(t, "%d", i * 7);
	}
	is_int(pdf_table_rows(t), 200, "200 body rows");
	rc = pdf_table_draw(pdf, t, &err);
	is_int(rc, 0, "table drawn");
	pdf_table_free(t);
	ok(pdf_page_count(pdf) >= 3, "200 rows need several pages (%d)",
	   pdf_page_count(pdf));
	rc = pdf_save(pdf, path, &err);
	is_int(rc, 0, "saved");
	pdf_free(pdf);
	p1 = pdf_text(path, 1, 1);
	p2 = pdf_text(path, 2, 2);
	ok(p1 && p2, "pdftotext read pages 1 and 2");
	ok(p1 && strstr(p1, "ColAlpha") && strstr(p1, "row000") &&
	       strstr(p1, "9.41"),
	   "page 1: header and first row");
	ok(p1 && !strstr(p1, "(continued)"), "page 1 is not a continuation");
	ok(p2 && strstr(p2, "Table 9. long one (continued)"),
	   "page 2 repeats the caption, marked continued");
	ok(p2 && strstr(p2, "Spanning group") && strstr(p2, "ColAlpha") &&
	       strstr(p2, "ColBeta") && strstr(p2, "RowHead"),
	   "page 2 repeats both header rows");
	ok(p1 && p2 && !strstr(p2, "row000") && next_row_follows(p1, p2),
	   "page 2 continues the body where page 1 stopped");
	ok(p1 && p2 && count(p1, "row") + count(p2, "row") < 200,
	   "rows are split between pages");
	free(p1);
	free(p2);
	p1 = pdf_text(path, 0, 0);
	ok(p1 && strstr(p1, "row199") && strstr(p1, "11.40") &&
	       strstr(p1, "1393"),
	   "last row present");
	ok(p1 && count(p1, "row") == 200, "every row exactly once (%d)",
	   count(p1, "row"));
	free(p1);
}

/* --- a constructed report model --------------------------------------- */

static const char *lv_streams[] = {"1", "4"};
static const char *lv_os[] = {"linux", "windows11"};
static struct report_factor factors[] = {
    {"streams", lv_streams, 2, 0, 0},
    {"os", lv_os, 2, 1, 1},
};
static const int lv00[] = {0, 0}, lv01[] = {0, 1}, lv10[] = {1, 0},
		 lv11[] = {1, 1};

#define ST(med, lo, hi, mn, mx)                                                \
	{                                                                      \
		"throughput", "bit/s", 5, med, med, 0.04e9, 0.5, mn, mx, lo,   \
		    hi, 0, NAN, NAN, med, lo, hi, NAN, NAN                     \
	}

static struct report_stats st0[] = {ST(9.41e9, 9.36e9, 9.46e9, 9.3e9, 9.5e9)};
static struct report_stats st1[] = {ST(8.62e9, 8.5e9, 8.74e9, 8.1e9, 8.9e9)};
static struct report_stats st2[] = {ST(23.5e9, 23.3e9, 23.7e9, 22.9e9, 24.1e9)};
static struct report_stats st3[] = {
    ST(19.75e9, 19.6e9, 19.9e9, 19.1e9, 20.2e9)};

static struct report_flag fl_drops[] = {
    {REPORT_FLAG_RX_DROPS, "rx_dropped=12 on server"}};
static struct report_flag fl_unstable[] = {{REPORT_FLAG_UNSTABLE, ""}};

static struct report_cell cells[] = {
    {0, lv00, "{}", "streams=1, os=linux", st0, 5, 5, 0, 0, 0, 0, 0, "iperf3",
     "127.0.0.1", "", NULL, 0},
    {1, lv01, "{}", "streams=1, os=windows11", st1, 5, 5, 0, 0, 0, 0, 0,
     "iperf3", "127.0.0.1", "", fl_drops, 1},
    {2, lv10, "{}", "streams=4, os=linux", st2, 5, 5, 0, 0, 0, 0, 0, "iperf3",
     "127.0.0.1", "", NULL, 0},
    {3, lv11, "{}", "streams=4, os=windows11", st3, 6, 5, 1, 0, 0, 0, 0,
     "iperf3", "127.0.0.1", "", fl_unstable, 1},
};

static const char *row_label[] = {"1", "4"};
static const char *col_label[] = {"linux", "windows11"};
static const int col_f[] = {1};
static const int cl0[] = {0}, cl1[] = {1};
static const int *const col_lv[] = {cl0, cl1};
static const int cellmap[] = {0, 1, 2, 3};

static struct report_table tables[] = {
    {"throughput", 0, 0, col_f, 1, 2, 2, row_label, col_label, col_lv, cellmap,
     0},
};

static struct report_flag why_differ[] = {
    {REPORT_FLAG_FACTORS_DIFFER, "streams, os"}};
static struct report_flag warn_unstable[] = {{REPORT_FLAG_UNSTABLE, ""}};

static struct report_cmp cmps[] = {
    {1, 0, 1, 5, 5, "throughput", 9.3, 6.1, 12.5, 0.0004, 7.9,
     REPORT_METHOD_POSITION, REPORT_BETTER, 1, NULL, 0, NULL, 0},
    {0,
     0,
     2,
     5,
     5,
     "throughput",
     0.2,
     -0.4,
     0.6,
     0.5,
     7.9,
     REPORT_METHOD_WELCH,
     REPORT_EQUIVALENT,
     1,
     NULL,
     0,
     NULL,
     0,
     -0.3,
     0.5},
    {1, 2, 3, 3, 3, "throughput", -1.5, -6.0, 3.1, 0.41, 4, REPORT_METHOD_WELCH,
     REPORT_NOT_SIGNIFICANT, 1, NULL, 0, warn_unstable, 1},
    {-1, 0, 3, 5, 5, "throughput", NAN, NAN, NAN, NAN, 0, REPORT_METHOD_NONE,
     REPORT_NOT_COMPARABLE, 1, why_differ, 1, NULL, 0},
};

static const enum report_flag_code note_codes[] = {
    REPORT_FLAG_FACTORS_DIFFER, REPORT_FLAG_RX_DROPS, REPORT_FLAG_UNSTABLE};
static struct report_fact facts[] = {
    {1, "server", "kernel", "6.1.0-13-amd64"},
    {1, "server", "nic.driver", "ixgbe 5.1.0-k"},
};
static struct report_verif verifs[] = {
    {"os", "server", "command", "linux", "linux", 1, 10},
    {"os", "client", "command", "windows11", "linux", 0, 10},
};
static const int64_t sessions[] = {1, 2};
static const char *hosts[] = {"server", "client"};
static const char *metrics[] = {"throughput"};
static const char *metric_units[] = {"bit/s"};

static void model(struct report *r, enum report_lang lang, const char *title)
{
	memset(r, 0, sizeof(*r));
	r->about.lang = lang;
	r->about.db_path = "x.db";
	r->about.plan_name = "nic-compare";
	r->about.title = title;
	r->about.plan_hash = "0123456789abcdef";
	r->span.nsessions = 2;
	r->span.sessions = sessions;
	r->span.first_run = 1764460800;
	r->span.last_run = 1764464400;
	r->about.generated_at = 1764468000;
	r->span.hosts = hosts;
	r->span.nhosts = 2;
	r->counts.total = 21;
	r->counts.ok = 20;
	r->counts.failed = 1;
	r->met.threshold = 0.01;
	r->met.metric = "throughput";
	r->met.primary = 0;
	r->met.metrics = metrics;
	r->met.metric_units = metric_units;
	r->met.nmetrics = 1;
	r->met.display_unit = "Gbit/s";
	r->met.display_scale = 1e9;
	r->factors = factors;
	r->nfactors = 2;
	r->cells = cells;
	r->ncells = 4;
	r->tables = tables;
	r->ntables = 1;
	r->cmps = cmps;
	r->ncmps = 4;
	r->notes = note_codes;
	r->nnotes = 3;
	r->facts = facts;
	r->nfacts = 2;
	r->verifs = verifs;
	r->nverifs = 2;
}

/* The first words of a note: long sentences wrap in the PDF. */
static int has_prefix_of(const char *text, const char *sentence, size_t n)
{
	char want[256];

	snprintf(want, sizeof(want), "%.*s", (int)n, sentence);
	return text && strstr(text, want) != NULL;
}

static void test_report_en(void)
{
	struct report r;
	struct xr_err err;
	char path[256], *txt;
	int rc;

	model(&r, REPORT_LANG_EN, "NIC throughput by slot");
	r.about.description = "Two NICs in two slots, Linux and Windows.";
	r.counts.warmup = 2;
	snprintf(path, sizeof(path), "%s/report-en.pdf", dir);
	rc = report_write_pdf(&r, path, &err);
	is_int(rc, 0, "english report written");
	if (rc < 0)
		fprintf(stderr, "# %s\n", err.msg);
	txt = pdf_text(path, 0, 0);
	ok(txt != NULL, "pdftotext read the report");
	if (!txt)
		return;
	ok(strstr(txt, "NIC throughput by slot") != NULL, "title");
	ok(strstr(txt, "nic-compare") != NULL, "plan name");
	ok(strstr(txt, "21: 20 ok, 1 failed; +2 warm-up") != NULL,
	   "runs done/failed and warm-up");
	{
		const char *t = strstr(txt, "NIC throughput by slot");
		const char *d = strstr(txt, "Two NICs in two slots");
		const char *p = strstr(txt, "nic-compare");

		ok(t && d && p && t < d && d < p,
		   "description under the title, before the header block");
	}
	ok(strstr(txt, "Result") != NULL, "verification column named");
	ok(strstr(txt, "9.41") && strstr(txt, "8.62") && strstr(txt, "23.5") &&
	       strstr(txt, "19.8"),
	   "medians as formatted numbers");
	ok(strstr(txt, "9.41 ×/÷1.005") != NULL,
	   "geometric mean with its interval factor");
	ok(strstr(txt, "8.62 ×/÷1.014 [2]") != NULL,
	   "footnote mark of a flagged cell");
	ok(strstr(txt, "windows11") && strstr(txt, "streams \\ os"),
	   "matrix header names row and column factors");
	/* the verdict column wraps: its pieces (whole strings are checked
	 * in the Markdown below) */
	ok(strstr(txt, "▲ +9.3% [+6.1, +12.5]") != NULL, "better verdict");
	ok(strstr(txt, "≈ equivalent (+0.2%, 90% [-") != NULL,
	   "equivalent verdict with its TOST interval");
	/* short verdict and warning mark on the row, the whole verdict in
	 * its numbered note under the table (issue 21) */
	ok(strstr(txt, "~ not significant (note 2) [3]") &&
	       strstr(txt, "Note 2. ~ not significant (p=0.41, n=3+3)"),
	   "not significant verdict with its warning mark");
	ok(strstr(txt, "— not comparable") != NULL, "refused verdict");
	ok(strstr(txt, "Comparisons") && strstr(txt, "Notes") &&
	       strstr(txt, "Host facts") && strstr(txt, "Verification"),
	   "section headings");
	ok(has_prefix_of(
	       txt, report_flag_text(REPORT_FLAG_RX_DROPS, REPORT_LANG_EN), 24),
	   "rx_drops note explained");
	ok(strstr(txt, "rx_dropped=12 on server") != NULL,
	   "note lists the numbers of the flagged cell");
	ok(strstr(txt, "Figure 1.") && strstr(txt, "Gbit/s"),
	   "chart with its unit");
	ok(strstr(txt, "6.1.0-13-amd64") && strstr(txt, "MISMATCH"),
	   "appendix: facts and verification");
	ok(strstr(txt, "1 / ") || strstr(txt, "1/"), "page numbers");
	free(txt);
}

static void test_report_ja(void)
{
	struct report r;
	struct xr_err err;
	char path[256], *txt;
	int rc;

	model(&r, REPORT_LANG_JA, "NIC スループット比較");
	r.about.description = "二枚の NIC を比べる。";
	r.counts.warmup = 1;
	snprintf(path, sizeof(path), "%s/report-ja.pdf", dir);
	rc = report_write_pdf(&r, path, &err);
	is_int(rc, 0, "japanese report written");
	txt = pdf_text(path, 0, 0);
	ok(txt != NULL, "pdftotext read the japanese report");
	if (!txt)
		return;
	ok(strstr(txt, "NIC スループット比較") != NULL, "japanese title");
	ok(strstr(txt, "二枚の NIC を比べる。") != NULL,
	   "japanese description");
	ok(strstr(txt, "+1 ウォームアップ") != NULL, "warm-up in japanese");
	ok(strstr(txt, "比較") && strstr(txt, "注記") && strstr(txt, "結果"),
	   "japanese headings");
	ok(strstr(txt, "表 1.") && strstr(txt, "図 1."), "japanese captions");
	ok(strstr(txt, "改善") != NULL, "japanese verdict word");
	ok(strstr(txt, "9.41 ×/÷1.005") != NULL, "numbers unchanged");
	ok(has_prefix_of(
	       txt, report_flag_text(REPORT_FLAG_RX_DROPS, REPORT_LANG_JA), 15),
	   "japanese note text");
	free(txt);
}

/* Seed 001's shape: rows = streams, columns = os x nic x slot (12). */
static void test_wide_matrix(void)
{
	static const char *l_st[] = {"1", "2", "4", "8"};
	static const char *l_os[] = {"linux", "windows11"};
	static const char *l_nic[] = {"x550-t2", "lgy-pcie-mg3"};
	static const char *l_slot[] = {"pcie3x4", "pcie4x1", "cpu-direct"};
	struct report_factor f[] = {{"streams", l_st, 4, 0, 0},
				    {"os", l_os, 2, 1, 0},
				    {"nic", l_nic, 2, 1, 0},
				    {"slot", l_slot, 3, 1, 0}};
	static const int colf[] = {1, 2, 3};
	enum { NR = 4, NC = 12 };
	struct report_cell c[NR * NC];
	struct report_stats st[NR * NC];
	char labels[NR * NC][1024], collab[NC][64];
	const char *rowl[NR], *coll[NC];
	int lvs[NC][3], cmap[NR * NC], i, j, rc;
	const int *clv[NC];
	struct report_table tb;
	struct report r;
	struct xr_err err;
	char path[256], *txt, *info;
	const char *argv[] = {"pdfinfo", "-f", "1", "-l", "9", path, NULL};
	struct proc_opts o;
	struct proc_result res;

	memset(c, 0, sizeof(c));
	memset(st, 0, sizeof(st));
	for (j = 0; j < NC; j++) {
		lvs[j][0] = j / 6;
		lvs[j][1] = (j / 3) % 2;
		lvs[j][2] = j % 3;
		clv[j] = lvs[j];
		snprintf(collab[j], sizeof(collab[j]), "%s / %s / %s",
			 l_os[lvs[j][0]], l_nic[lvs[j][1]], l_slot[lvs[j][2]]);
		coll[j] = collab[j];
	}
	for (i = 0; i < NR; i++) {
		rowl[i] = l_st[i];
		for (j = 0; j < NC; j++) {
			int k = i * NC + j;
			double med = (1.1 * (i + 1) + 0.1 * j) * 1e9;

			st[k] = (struct report_stats){
			    "throughput", "bit/s",	5,
			    med,	  med,		0.02e9,
			    0.4,	  med * 0.98,	med * 1.02,
			    med - 0.05e9, med + 0.05e9, 0,
			    NAN,	  NAN,		med,
			    med * 0.99,	  med * 1.01,	NAN,
			    NAN};
			snprintf(labels[k], sizeof(labels[k]), "streams=%s, %s",
				 l_st[i], collab[j]);
			c[k].index = k;
			c[k].label = labels[k];
			c[k].st = &st[k];
			c[k].n_runs = c[k].n_ok = 5;
			cmap[k] = k;
		}
	}
	memset(&tb, 0, sizeof(tb));
	tb.metric = "throughput";
	tb.row_factor = 0;
	tb.col_factors = colf;
	tb.ncol_factors = 3;
	tb.nrows = NR;
	tb.ncols = NC;
	tb.row_label = rowl;
	tb.col_label = coll;
	tb.col_lv = clv;
	tb.cell = cmap;
	model(&r, REPORT_LANG_EN, "Seed 001 shape");
	r.factors = f;
	r.nfactors = 4;
	r.cells = c;
	r.ncells = NR * NC;
	r.tables = &tb;
	r.ntables = 1;
	r.ncmps = 0;
	r.nnotes = 0;
	snprintf(path, sizeof(path), "%s/wide.pdf", dir);
	rc = report_write_pdf(&r, path, &err);
	is_int(rc, 0, "wide report written");
	txt = pdf_text(path, 0, 0);
	ok(txt && strstr(txt, "4.40 ×/÷1.010") && strstr(txt, "5.50 ×/÷1.010"),
	   "geometric means of the wide table");
	ok(txt && count(txt, "lgy-pcie-mg3") >= 2 && strstr(txt, "cpu-direct"),
	   "spanning headers repeat the inner levels under each outer one");
	ok(txt && strstr(txt, "streams \\ slot"), "stub names the factors");
	ok(txt && strstr(txt, "No comparisons"), "no comparisons said so");
	ok(txt && strstr(txt, "Results") && strstr(txt, "Table 1.") &&
	       strchr(strstr(txt, "Results"), '\f') ==
		   strchr(strstr(txt, "Table 1."), '\f'),
	   "the section heading is on the page of its table");
	free(txt);
	memset(&o, 0, sizeof(o));
	o.argv = argv;
	o.timeout = 30;
	info = NULL;
	if (proc_run(&o, &res, &err) == 0 && res.status == PROC_EXITED &&
	    res.exit_code == 0) {
		info = res.out;
		res.out = NULL;
	}
	proc_result_release(&res);
	ok(info && strstr(info, "Page    1 size:  595.276 x 841.89"),
	   "page 1 portrait");
	ok(info && strstr(info, "Page    2 size:  841.89 x 595.276"),
	   "the wide table gets a landscape page");
	free(info);
}

static void test_save_error(void)
{
	struct pdf *pdf = NULL;
	struct xr_err err;
	int rc;

	if (pdf_new(&pdf, NULL, &err) < 0)
		return;
	pdf_paragraph(pdf, 9, 0, "x", &err);
	rc = pdf_save(pdf, "/nonexistent-dir/x.pdf", &err);
	is_int(rc, -XR_EIO, "unwritable path fails");
	ok(strstr(err.msg, "cannot write '/nonexistent-dir/x.pdf'") != NULL,
	   "message names the path: %s", err.msg);
	pdf_free(pdf);
}

/* The runs line and the comparison columns are the same in the PDF and
 * in Markdown; a "~" row keeps its delta and CI in both. */
static void test_markdown_matches(void)
{
	struct report r;
	struct xr_err err;
	char path[256], line[4096], runs[256], *txt;
	int rc, head = 0, sim = 0, ver = 0, desc = 0, better = 0, equiv = 0;
	FILE *f;

	model(&r, REPORT_LANG_EN, "NIC throughput by slot");
	r.about.description = "Two NICs in two slots.";
	r.counts.warmup = 2;
	r.counts.timeout = 1;
	snprintf(path, sizeof(path), "%s/report.md", dir);
	f = fopen(path, "w");
	if (!f) {
		ok(0, "open %s", path);
		return;
	}
	rc = report_write_md(&r, f, &err);
	fclose(f);
	is_int(rc, 0, "markdown written");
	report_fmt_runs(&r, runs, sizeof(runs));
	is_str(runs, "21: 20 ok, 2 failed (1 timeout); +2 warm-up",
	       "runs line");
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (strstr(line, "| Runs | ") == line && strstr(line, runs))
			head = 1;
		if (!strcmp(line, "Two NICs in two slots.\n"))
			desc = 1;
		if (strstr(line,
			   "| Factor | Cell | A (baseline) | B | A geomean "
			   "| B geomean | Δ B vs A [95% CI] | p | n | "
			   "Verdict |") == line)
			head |= 2;
		if (strstr(line, "| -1.5% [-6.0, +3.1] | 0.410 | 3+3 | ~ not "
				 "significant (p=0.41, n=3+3) [3] |"))
			sim = 1;
		if (strstr(line, "| Expected | Actual | Result | Runs |"))
			ver = 1;
		if (strstr(line, "| ▲ +9.3% [+6.1, +12.5] better |"))
			better = 1;
		if (strstr(line, "| ≈ equivalent (+0.2%, 90% [-0.3, +0.5]) |"))
			equiv = 1;
	}
	if (f)
		fclose(f);
	unlink(path);
	ok(desc, "markdown: description under the title");
	ok(head & 1, "markdown runs line as in the PDF");
	ok(head & 2, "markdown comparison columns as in the PDF");
	ok(sim, "markdown '~' row keeps its delta, CI and p");
	ok(better, "markdown better verdict, whole");
	ok(equiv, "markdown equivalent verdict with its 90%% interval");
	ok(ver, "markdown verification column named");

	snprintf(path, sizeof(path), "%s/report-md.pdf", dir);
	rc = report_write_pdf(&r, path, &err);
	is_int(rc, 0, "the same model as a PDF");
	txt = pdf_text(path, 0, 0);
	ok(txt && strstr(txt, runs), "pdf runs line: %s", runs);
	ok(txt && strstr(txt, "-1.5% [-6.0, +3.1]") && strstr(txt, "0.410"),
	   "pdf '~' row: delta, CI and p");
	free(txt);
	unlink(path);
}

/* A font without kana and kanji (DejaVu Sans): refused for a report with
 * Japanese text, accepted for an English one. */
#ifndef XRUN_HAVE_FONTCONFIG
static void test_font_without_japanese(void)
{
	printf("# skip: built without fontconfig: glyphs are not checked\n");
}
#else
static void test_font_without_japanese(void)
{
	static const char dejavu[] =
	    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
	static const char *lv_ja[] = {"有線", "無線"};
	struct report_factor fj[] = {{"streams", lv_streams, 2, 0, 0},
				     {"接続", lv_ja, 2, 0, 0}};
	struct pdf *pdf = NULL;
	struct report r;
	struct xr_err err;
	char path[256];
	int rc;

	if (access(dejavu, R_OK) != 0) {
		tap_skip("no DejaVu font (fonts-dejavu-core)");
		return;
	}
	setenv("XRUN_FONT", dejavu, 1);
	rc = pdf_new(&pdf, NULL, &err);
	is_int(rc, 0, "DejaVu embeds");
	if (rc == 0) {
		is_int(pdf_require_japanese(pdf, NULL, &err), -XR_EFONT,
		       "DejaVu lacks Japanese glyphs");
		ok(strstr(err.msg, dejavu) && strstr(err.msg, "(XRUN_FONT)") &&
		       strstr(err.msg, "lacks Japanese glyphs"),
		   "message names the file: %s", err.msg);
		pdf_free(pdf);
	}

	model(&r, REPORT_LANG_JA, "NIC スループット比較");
	snprintf(path, sizeof(path), "%s/dejavu-ja.pdf", dir);
	rc = report_write_pdf(&r, path, &err);
	is_int(rc, -XR_EFONT, "japanese report refused");
	ok(access(path, F_OK) != 0, "no PDF written");

	model(&r, REPORT_LANG_EN, "NIC throughput");
	r.factors = fj;
	rc = report_write_pdf(&r, path, &err);
	is_int(rc, -XR_EFONT, "english report with japanese levels refused");
	ok(access(path, F_OK) != 0, "no PDF written");

	model(&r, REPORT_LANG_EN, "NIC throughput");
	snprintf(path, sizeof(path), "%s/dejavu-en.pdf", dir);
	rc = report_write_pdf(&r, path, &err);
	is_int(rc, 0, "english report in DejaVu written");
	unlink(path);
	unsetenv("XRUN_FONT");

	/* The discovered Japanese font passes the same check. */
	if (pdf_new(&pdf, NULL, &err) == 0) {
		is_int(pdf_require_japanese(pdf, "漢字かなカナ", &err), 0,
		       "the Japanese font has the glyphs");
		pdf_free(pdf);
	}
}
#endif

int main(void)
{
	tap_plan(88);
	char cmd[512];

	if (!proc_which("pdftotext"))
		tap_skip_all("pdftotext not installed (poppler-utils)");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	unsetenv("XRUN_FONT");
	unsetenv("XRUN_FONT_NOFC");
	test_font_errors();
	if (!have_font()) {
		snprintf(cmd, sizeof(cmd), "%s", dir);
		rmdir(cmd);
		tap_skip_all(
		    "no Japanese TrueType font (fonts-ipaexfont-gothic)");
	}
	test_wrap();
	test_long_table();
	test_report_en();
	test_report_ja();
	test_wide_matrix();
	test_save_error();
	test_markdown_matches();
	test_font_without_japanese();
	if (!getenv("XRUN_KEEP_TEST_PDF")) {
		const char *names[] = {"long.pdf", "report-en.pdf",
				       "report-ja.pdf", "wide.pdf"};
		size_t i;

		for (i = 0; i < 4; i++) {
			snprintf(cmd, sizeof(cmd), "%s/%s", dir, names[i]);
			unlink(cmd);
		}
		rmdir(dir);
	} else {
		printf("# PDFs kept in %s\n", dir);
	}
	return tap_done();
}
