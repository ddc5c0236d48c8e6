/*
 * The findings block's lines (reports/render/rfindings.c, issue 35: the
 * answer first) on two reports built by hand, each line compared whole:
 *
 * 1. Two cells measured, x=a at geomean 101 Mbit/s and x=b at 111, one
 *    comparison "better" +9.9% [+9.0, +10.8] (111 / 101 - 1 = 9.90%):
 *    its line shows both sides' values, "101 → 111", not one side's
 *    twice; one limit shared by both cells says "2 of 2 cells" and names
 *    no cells (they are named only when not all are); a session an xrun
 *    runs now whose lock file names no pid reads "an xrun is running it
 *    now", one naming pid 4242 names it.
 *
 * 2. Ten cells x=c0..x=c9, 20 runs scheduled, 14 failed (status failed)
 *    for nine reasons, in run order:
 *      "connect failed: Connection refused"  runs in c0..c4 (5 runs)
 *      "timeout reading"                     runs in c0, c1 (2 runs)
 *      "reason 3" .. "reason 9"              one run each, in c5
 *    Lines, by counting the list above: 5 of 20 for the refusal, in 5
 *    of 10 cells, so 3 named and "+2 more"; 2 of 20 for the timeout
 *    reading (its own count, not the 14 runs of the status); "reason 3"
 *    to "reason 8" one each (8 groups listed at most); "reason 9", the
 *    ninth group, counted in the last line "1 of 20 runs failed: +1
 *    more".
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "rfindings.h"
#include "tap.h"
#include "banned.h"

static const char *metrics[] = {"throughput"};
static const char *units[] = {"bit/s"};

static void base(struct report *r, struct report_factor *fac)
{
	memset(r, 0, sizeof *r);
	r->arena = arena_new();
	r->about.lang = REPORT_LANG_EN;
	r->met.threshold = 0.01;
	r->met.metric = "throughput";
	r->met.metrics = metrics;
	r->met.metric_units = units;
	r->met.nmetrics = 1;
	r->met.display_unit = "Mbit/s";
	r->met.display_scale = 1e6;
	r->factors = fac;
	r->nfactors = 1;
}

/* The text of the k-th line of kind kind, or "" */
static const char *line(const struct rf_line *v, int n, enum rf_kind kind,
			int k)
{
	int i;
	for (i = 0; i < n; i++)
		if (v[i].kind == kind && k-- == 0)
			return v[i].text;
	return "";
}

static int count(const struct rf_line *v, int n, enum rf_kind kind)
{
	int i, c = 0;
	for (i = 0; i < n; i++)
		c += v[i].kind == kind;
	return c;
}

static void answers(void)
{
	static const char *lv[] = {"a", "b"};
	static const int lv0[] = {0}, lv1[] = {1};
	struct report_factor fac[] = {{"x", lv, 2, 0, 0}};
	struct report_stats st[2];
	struct report_cell cells[2];
	struct report_run runs[4];
	double vals[4] = {100e6, 102e6, 110e6, 112e6};
	struct report_cmp cmp;
	struct report r;
	struct arena *a = arena_new();
	struct rf_line *v;
	int i, n;

	base(&r, fac);
	memset(st, 0, sizeof st);
	memset(cells, 0, sizeof cells);
	memset(runs, 0, sizeof runs);
	memset(&cmp, 0, sizeof cmp);
	for (i = 0; i < 2; i++) {
		st[i].metric = "throughput";
		st[i].unit = "bit/s";
		st[i].n = 2;
		st[i].gm = i ? 111e6 : 101e6;
		st[i].median = st[i].mean = i ? 111e6 : 101e6;
		st[i].gm_low = st[i].gm * 0.99;
		st[i].gm_high = st[i].gm * 1.01;
		cells[i].index = i;
		cells[i].lv = i ? lv1 : lv0;
		cells[i].json = "{}";
		cells[i].label = i ? "x=b" : "x=a";
		cells[i].st = &st[i];
		cells[i].n_runs = cells[i].n_ok = 2;
	}
	for (i = 0; i < 4; i++) {
		runs[i].id = i + 1;
		runs[i].cell = i / 2;
		runs[i].rep = i % 2 + 1;
		runs[i].ok = 1;
		runs[i].status = "ok";
		runs[i].vals = &vals[i];
	}
	cmp.factor = 0;
	cmp.a = 0;
	cmp.b = 1;
	cmp.n_a = cmp.n_b = 2;
	cmp.metric = "throughput";
	cmp.delta_pct = 9.9;
	cmp.ci_low_pct = 9.0;
	cmp.ci_high_pct = 10.8;
	cmp.verdict = REPORT_BETTER;
	cmp.higher_is_better = 1;
	r.cells = cells;
	r.ncells = 2;
	r.runs = runs;
	r.nruns = 4;
	r.cmps = &cmp;
	r.ncmps = 1;
	r.counts.total = r.counts.ok = 4;

	ok(a && rt_findings(&r, a, &v, &n) == 0, "findings of a comparison");
	is_str(line(v, n, RF_VERDICT, 0),
	       "x=a → x=b: ▲ +9.9% [+9.0, +10.8] better; geomean 101 → 111 "
	       "Mbit/s",
	       "the verdict line with both sides' values");
	is_int(count(v, n, RF_LIMIT), 1, "one limit line");
	/* no facts, no series: explain's "none" (explain_kind_text) */
	is_str(line(v, n, RF_LIMIT, 0), "2 of 2 cells: no limit found",
	       "a limit of every cell names none of them");
	is_int(count(v, n, RF_STATE), 0, "a finished session: no state line");

	r.prog.state = REPORT_STATE_RUNNING;
	r.prog.done = 12;
	r.prog.all = 40;
	r.prog.pid = 0;
	ok(rt_findings(&r, a, &v, &n) == 0, "findings while it runs");
	is_str(line(v, n, RF_STATE, 0),
	       "Unfinished: 12 of 40 runs done; an xrun is running it now",
	       "no pid in the lock file: 'an xrun', no pid 0");
	r.prog.pid = 4242;
	ok(rt_findings(&r, a, &v, &n) == 0, "again");
	is_str(line(v, n, RF_STATE, 0),
	       "Unfinished: 12 of 40 runs done; xrun (pid 4242) is running it "
	       "now",
	       "the lock file's pid named");
	arena_free(a);
	arena_free(r.arena);
}

static void failures(void)
{
	static const char *lv[] = {"c0", "c1", "c2", "c3", "c4",
				   "c5", "c6", "c7", "c8", "c9"};
	static const int lvs[10][1] = {{0}, {1}, {2}, {3}, {4},
				       {5}, {6}, {7}, {8}, {9}};
	static const char *const reasons[] = {
	    "reason 3", "reason 4", "reason 5", "reason 6",
	    "reason 7", "reason 8", "reason 9"};
	static const char *labels[] = {"x=c0", "x=c1", "x=c2", "x=c3", "x=c4",
				       "x=c5", "x=c6", "x=c7", "x=c8", "x=c9"};
	struct report_factor fac[] = {{"x", lv, 10, 0, 0}};
	struct report_stats st[10];
	struct report_cell cells[10];
	struct report_run runs[20];
	double none = NAN;
	struct report r;
	struct arena *a = arena_new();
	struct rf_line *v;
	int i, n, k = 0;

	base(&r, fac);
	memset(st, 0, sizeof st);
	memset(cells, 0, sizeof cells);
	memset(runs, 0, sizeof runs);
	for (i = 0; i < 10; i++) {
		cells[i].index = i;
		cells[i].lv = lvs[i];
		cells[i].json = "{}";
		cells[i].label = labels[i];
		cells[i].st = &st[i];
		cells[i].n_runs = 2;
	}
	for (i = 0; i < 20; i++) {
		runs[i].id = i + 1;
		runs[i].vals = &none;
		runs[i].status = "skipped"; /* the rest: neither */
	}
	for (i = 0; i < 5; i++, k++) {
		runs[k].cell = i;
		runs[k].status = "failed";
		runs[k].reason = "connect failed: Connection refused";
	}
	for (i = 0; i < 2; i++, k++) {
		runs[k].cell = i;
		runs[k].status = "failed";
		runs[k].reason = "timeout reading";
	}
	for (i = 0; i < 7; i++, k++) {
		runs[k].cell = 5;
		runs[k].status = "failed";
		runs[k].reason = reasons[i];
	}
	for (; k < 20; k++)
		runs[k].cell = 9;
	r.cells = cells;
	r.ncells = 10;
	r.runs = runs;
	r.nruns = 20;
	r.counts.total = 20;
	r.counts.failed = 14;

	ok(a && rt_findings(&r, a, &v, &n) == 0, "findings of failed runs");
	is_str(line(v, n, RF_FAILED, 0),
	       "5 of 20 runs failed: connect failed: Connection refused "
	       "(x=c0; x=c1; x=c2; +2 more)",
	       "5 runs in 5 of 10 cells: three named, +2 more");
	is_str(line(v, n, RF_FAILED, 1),
	       "2 of 20 runs failed: timeout reading (x=c0; x=c1)",
	       "its own reason's 2, not the status's 14");
	is_str(line(v, n, RF_FAILED, 2), "1 of 20 runs failed: reason 3 (x=c5)",
	       "a reason of one run");
	is_str(line(v, n, RF_FAILED, 7), "1 of 20 runs failed: reason 8 (x=c5)",
	       "the eighth reason listed");
	is_str(line(v, n, RF_FAILED, 8), "1 of 20 runs failed: +1 more",
	       "the ninth counted in the last line");
	is_int(count(v, n, RF_FAILED), 9, "8 reasons and the rest");
	arena_free(a);
	arena_free(r.arena);
}

int main(void)
{
	answers();
	failures();
	return tap_done();
}
