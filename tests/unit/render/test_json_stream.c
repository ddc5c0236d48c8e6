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
 */
#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

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

static void model_free(struct model *m)
{
	free(m->labels);
	free(m->lv);
	free(m->st);
	free(m->cells);
	free(m->cmps);
}

/* The report of n cells: its text (malloc'd) and jansson's peak bytes
 * while it was written. */
static char *write_n(int n, size_t *peak_out)
{
	struct model m;
	struct xr_err err;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int rc;
	*peak_out = 0;
	if (model_make(&m, n) < 0 || !(f = open_memstream(&text, &len))) {
		model_free(&m);
		return NULL;
	}
	live = peak = 0;
	rc = report_write_json(&m.r, f, &err);
	*peak_out = peak;
	fclose(f);
	model_free(&m);
	if (rc != 0) {
		free(text);
		return NULL;
	}
	return text;
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
	return tap_done();
}
