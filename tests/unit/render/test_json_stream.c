/*
 * The JSON report written without its tree (reports/render/write_json.c):
 * "cells" and "comparisons" are built, dumped and freed one element at a
 * time and indented as they would be inside the report. Checked here on
 * hand-built models of N cells (one factor of two levels the cells take
 * in turn, N - 1 comparisons of cell 0 against each other cell):
 * - the bytes are jansson's dump of the same document (the output read
 *   back with json_loads and dumped again with the report's flags, so a
 *   wrong indent, a lost comma or a key out of place shows);
 * - the most memory jansson holds at once (counted through
 *   json_set_alloc_funcs) does not grow with the cells: at 4,000 cells
 *   it stays under 1.5 times what it is at 400. A writer that builds the
 *   whole tree again (as before: 1.5 GB for 10^5 cells, bench/RESULTS.md)
 *   holds about ten times as much at 4,000 cells as at 400.
 * The same for the reference's rows and each one's published runs (one
 * published cell of R runs, R = 1, 4,096 (one chunk of the writer),
 * 4,097, 10,000 and 40,000): its bytes jansson's dump of the document,
 * and jansson's peak not growing with the runs (a tree of the reference
 * held 170 bytes a run: 10^6 runs were 170 MB, bench/RESULTS.md,
 * "Reference reading").
 *
 * SPDX-License-Identifier: MIT
 */
#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "reference.h"
#include "render.h"
#include "tap.h"
#include "banned.h"

/* jansson's memory: live bytes now and at most (by malloc_usable_size,
 * so that a block jansson hands out and the caller frees with free(), as
 * json_dumps's text is, does not break the count). */
static size_t live, peak;

static void *count_malloc(size_t n)
{
	void *p = malloc(n);
	if (!p)
		return NULL;
	live += malloc_usable_size(p);
	if (live > peak)
		peak = live;
	return p;
}

static void count_free(void *p)
{
	if (!p)
		return;
	live -= malloc_usable_size(p);
	free(p);
}

static const char *metrics[] = {"throughput"};
static const char *two[] = {"a", "b"};
static const char *metric_units[] = {"bit/s"};

struct model {
	struct report r;
	struct report_factor f;
	int *lv;
	char *labels;
	struct report_stats *st;
	struct report_cell *cells;
	struct report_cmp *cmps;
};

static int model_make(struct model *m, int n)
{
	int k;
	memset(m, 0, sizeof *m);
	m->labels = calloc((size_t)n, 24);
	m->lv = calloc((size_t)n, sizeof *m->lv);
	m->st = calloc((size_t)n, sizeof *m->st);
	m->cells = calloc((size_t)n, sizeof *m->cells);
	m->cmps = calloc((size_t)n, sizeof *m->cmps);
	if (!m->labels || !m->lv || !m->st || !m->cells || !m->cmps)
		return -1;
	for (k = 0; k < n; k++) {
		snprintf(m->labels + 24 * k, 24, "x=%s #%d", two[k % 2], k);
		m->lv[k] = k % 2;
		m->st[k].metric = "throughput";
		m->st[k].unit = "bit/s";
		m->st[k].n = 1;
		m->st[k].median = m->st[k].gm = 9e9 * (1 + (k % 7) / 100.0);
		m->st[k].cv_pct = NAN;
		m->cells[k].index = k;
		m->cells[k].lv = &m->lv[k];
		m->cells[k].json = "{}";
		m->cells[k].label = m->labels + 24 * k;
		m->cells[k].st = &m->st[k];
		m->cells[k].n_runs = m->cells[k].n_ok = 1;
		m->cells[k].first_start = 1764460800 + 2 * k;
		m->cells[k].last_end = 1764460801 + 2 * k;
		if (k) {
			struct report_cmp *c = &m->cmps[k - 1];
			c->factor = 0;
			c->a = 0;
			c->b = k;
			c->n_a = c->n_b = 1;
			c->metric = "throughput";
			c->delta_pct = (k % 7) * 1.0;
			c->ci_low_pct = c->ci_high_pct = c->p = c->df = NAN;
			c->eq_low_pct = c->eq_high_pct = c->p_adj = NAN;
			c->sens_pct = c->sens_low_pct = c->sens_high_pct = NAN;
			c->hl_pct = c->hl_low_pct = c->hl_high_pct = NAN;
			c->mw_p = NAN;
			c->method = REPORT_METHOD_NONE;
			c->verdict = REPORT_NOT_COMPARABLE;
			c->higher_is_better = 1;
		}
	}
	m->f.name = "x";
	m->f.levels = two;
	m->f.nlevels = 2;
	m->r.about.lang = REPORT_LANG_EN;
	m->r.about.plan_name = m->r.about.title = "stream";
	m->r.span.first_run = m->r.span.last_run = m->r.about.generated_at =
	    1764460800;
	m->r.met.threshold = 0.01;
	m->r.met.metric = "throughput";
	m->r.met.metrics = metrics;
	m->r.met.metric_units = metric_units;
	m->r.met.nmetrics = 1;
	m->r.met.display_unit = "Gbit/s";
	m->r.met.display_scale = 1e9;
	m->r.factors = &m->f;
	m->r.nfactors = 1;
	m->r.cells = m->cells;
	m->r.ncells = n;
	m->r.cmps = m->cmps;
	m->r.ncmps = n - 1;
	return 0;
}

/* A reference of one published cell (x=a, not measured) of nruns runs,
 * or with no rows when nruns is 0. */
struct ref_model {
	struct report_ref ref;
	struct report_ref_row w;
	struct report_ref_value v;
	const char *level, *factor, *value;
	int factor_index, value_metric, level_col;
	double *pub;
	const char **text;
	int *line;
};

static int ref_make(struct ref_model *m, int nruns)
{
	int k;
	memset(m, 0, sizeof *m);
	m->pub = calloc((size_t)nruns + 1, sizeof *m->pub);
	m->text = calloc((size_t)nruns + 1, sizeof *m->text);
	m->line = calloc((size_t)nruns + 1, sizeof *m->line);
	if (!m->pub || !m->text || !m->line)
		return -1;
	m->level = "a";
	m->factor = "x";
	m->value = "throughput";
	m->ref.path = "ref.csv";
	m->ref.unit = "Gbit/s";
	m->ref.version = 1;
	m->ref.statistic = REPORT_REF_STAT_UNKNOWN;
	m->ref.tolerance = REPORT_REF_DEFAULT_TOLERANCE;
	m->ref.factors = &m->factor;
	m->ref.factor_index = &m->factor_index;
	m->ref.nfactors = 1;
	m->ref.values = &m->value;
	m->ref.value_metric = &m->value_metric;
	m->ref.nvalues = 1;
	m->ref.rows = &m->w;
	m->ref.nrows = nruns > 0;
	m->ref.nnot_measured = nruns > 0;
	m->ref.summary = "0 of 1 published cells reproduced";
	/* the texts are as a file writes them, 3 significant digits up */
	static const char *const texts[] = {"9.00", "9.01", "9.02", "9.03",
					    "9.04", "9.05", "9.06"};
	for (k = 0; k < nruns; k++) {
		m->pub[k] = (9 + (k % 7) / 100.0) * 1e9;
		m->text[k] = texts[k % 7];
		m->line[k] = 3 + k;
	}
	m->v.published = 9.03e9;
	m->v.ratio = NAN;
	m->v.in_range = -1;
	m->w.line = 3;
	m->w.levels = &m->level;
	m->w.level_col = &m->level_col;
	m->w.label = "x=a";
	m->w.status = REPORT_REF_NOT_MEASURED;
	m->w.cell = -1;
	m->w.detail = "no cell has x=a";
	m->w.v = &m->v;
	m->w.npub = nruns;
	m->w.pub = m->pub;
	m->w.pub_text = m->text;
	m->w.pub_line = m->line;
	m->w.verdict = REPORT_REFV_NOT_MEASURED;
	m->w.reasons = m->w.method = "";
	m->w.est = m->w.lo = m->w.hi = m->w.diff_pct = m->w.p = NAN;
	return 0;
}

static void ref_free(struct ref_model *m)
{
	free(m->pub);
	free(m->text);
	free(m->line);
}

static void model_free(struct model *m)
{
	free(m->labels);
	free(m->lv);
	free(m->st);
	free(m->cells);
	free(m->cmps);
}

/* The report of n cells (and with nruns >= 0, a reference of one
 * published cell of nruns runs): its text (malloc'd) and jansson's peak
 * bytes while it was written. */
static char *write_nr(int n, int nruns, size_t *peak_out)
{
	struct model m;
	struct ref_model rm;
	struct xr_err err;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int rc;
	*peak_out = 0;
	memset(&rm, 0, sizeof rm);
	if (model_make(&m, n) < 0 || (nruns >= 0 && ref_make(&rm, nruns) < 0) ||
	    !(f = open_memstream(&text, &len))) {
		model_free(&m);
		ref_free(&rm);
		return NULL;
	}
	if (nruns >= 0)
		m.r.ref = &rm.ref;
	live = peak = 0;
	rc = report_write_json(&m.r, f, &err);
	*peak_out = peak;
	fclose(f);
	model_free(&m);
	ref_free(&rm);
	if (rc != 0) {
		free(text);
		return NULL;
	}
	return text;
}

static char *write_n(int n, size_t *peak_out)
{
	return write_nr(n, -1, peak_out);
}

/* The text is what jansson writes for the document it holds. */
static void check_bytes(const char *text, int n)
{
	json_error_t e;
	json_t *o = json_loads(text, 0, &e);
	char *again;
	ok(o != NULL, "%d cells: the report parses (%s)", n, o ? "ok" : e.text);
	if (!o)
		return;
	ok((int)json_array_size(json_object_get(o, "cells")) == n,
	   "%d cells: every cell", n);
	ok((int)json_array_size(json_object_get(o, "comparisons")) == n - 1,
	   "%d cells: every comparison", n);
	again = json_dumps(o, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
	ok(again && strlen(again) + 1 == strlen(text) &&
	       !strncmp(again, text, strlen(again)) &&
	       text[strlen(again)] == '\n',
	   "%d cells: byte for byte jansson's dump of the document", n);
	free(again);
	json_decref(o);
}

/* A reference with nruns runs: byte for byte jansson's dump, with every
 * run in its arrays. */
static void check_ref_bytes(int nruns)
{
	json_error_t e;
	size_t p;
	char *text = write_nr(2, nruns, &p), *again = NULL;
	json_t *o = text ? json_loads(text, 0, &e) : NULL, *rows, *w;
	rows = json_object_get(json_object_get(o, "reference"), "rows");
	w = json_array_get(rows, 0);
	ok(o && (int)json_array_size(rows) == (nruns > 0), "%d runs: parses",
	   nruns);
	if (nruns > 0) {
		json_t *pr = json_object_get(w, "published_runs"),
		       *pt = json_object_get(w, "published_text"),
		       *pl = json_object_get(w, "published_lines");
		ok((int)json_array_size(pr) == nruns &&
		       (int)json_array_size(pt) == nruns &&
		       (int)json_array_size(pl) == nruns &&
		       json_integer_value(json_array_get(pl, nruns - 1)) ==
			   2 + nruns &&
		       !strcmp(json_string_value(json_array_get(pt, nruns - 1)),
			       (const char *[]){"9.00", "9.01", "9.02", "9.03",
						"9.04", "9.05",
						"9.06"}[(nruns - 1) % 7]),
		   "%d runs: every run in its three arrays, the last as "
		   "written",
		   nruns);
	}
	if (o)
		again = json_dumps(o, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
	ok(again && strlen(again) + 1 == strlen(text) &&
	       !strncmp(again, text, strlen(again)),
	   "%d runs: byte for byte jansson's dump of the document", nruns);
	free(again);
	free(text);
	json_decref(o);
}

static void check_reference(void)
{
	static const int runs[] = {0, 1, 4096, 4097, 10000};
	size_t p1 = 0, p2 = 0;
	char *t1, *t2;
	size_t i;
	for (i = 0; i < sizeof runs / sizeof *runs; i++)
		check_ref_bytes(runs[i]);
	json_set_alloc_funcs(count_malloc, count_free);
	t1 = write_nr(2, 10000, &p1);
	t2 = write_nr(2, 40000, &p2);
	json_set_alloc_funcs(malloc, free);
	printf("# jansson's peak: %zu bytes at 10,000 published runs, %zu at "
	       "40,000\n",
	       p1, p2);
	ok(t1 && t2 && p1 > 0 && p2 < p1 + p1 / 2,
	   "jansson's peak does not grow with the published runs (%zu -> %zu "
	   "bytes)",
	   p1, p2);
	free(t1);
	free(t2);
}

int main(void)
{
	size_t p1 = 0, p2 = 0, p0 = 0;
	char *t0, *t1, *t2;

	json_set_alloc_funcs(count_malloc, count_free);
	t0 = write_n(1, &p0);
	t1 = write_n(400, &p1);
	t2 = write_n(4000, &p2);
	ok(t0 && t1 && t2, "reports written");
	json_set_alloc_funcs(malloc, free);
	if (t0)
		check_bytes(t0, 1);
	if (t2)
		check_bytes(t2, 4000);
	printf("# jansson's peak: %zu bytes at 400 cells, %zu at 4,000\n", p1,
	       p2);
	ok(p1 > 0 && p2 < p1 + p1 / 2,
	   "jansson's peak does not grow with the cells (%zu -> %zu bytes)", p1,
	   p2);
	free(t0);
	free(t1);
	free(t2);
	check_reference();
	return tap_done();
}
