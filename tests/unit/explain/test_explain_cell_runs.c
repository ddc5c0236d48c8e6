/* Which runs' facts explain a cell (issue 34 Deliver 2; reports/explain/
 * explain_facts.c), on hand-built models behind a tbf of 300 Mbit/s on
 * the client: the ok runs' facts only (a failed run's MTU does not count
 * beside them), each cell its own (one cell whose runs differ does not
 * make the next one differ), and the 1.05 margin above a ceiling before
 * the facts and the measurement disagree. Numbers by hand (python3 gives
 * the same):
 *   TCP at MTU 1500 behind 300 Mbit/s: 300e6 * 1448 / 1514 =
 *   286922060.766 bit/s; a median of 285 Mbit/s is 285e6 / 286922060.766
 *   = 0.993301105 of it: line-bound.
 *   A median of 1.008 x that ceiling (289217437.252 bit/s) is above it
 *   but within 1.05 of it: line-bound still, fraction 1.008.
 *   A cell of one run at MTU 1500 and one at 9000: "nic_mtu of client:
 *   1500 in 1 run, 9000 in 1 run", no ceiling.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "explain.h"
#include "tap.h"

static const char *metrics[] = {"throughput"};
static const char *units[] = {"bit/s"};
static const char *hosts[] = {"client"};

#define MAXR 8
#define CEIL1500 286922060.766

struct rdef {
	int cell, ok;
	const char *mtu;
};

struct model {
	struct report r;
	struct report_cell cell[2];
	struct report_stats st[2];
	struct report_run run[MAXR];
	struct report_fset set[MAXR];
	struct report_fkv kv[MAXR][2];
	const struct report_fset *ptr[MAXR];
	double val[MAXR];
};

static struct explain *build(struct model *m, int ncells, const double *med,
			     const struct rdef *d, int nruns)
{
	struct explain *x = NULL;
	memset(m, 0, sizeof *m);
	m->r.arena = arena_new();
	m->r.met.metrics = metrics;
	m->r.met.metric_units = units;
	m->r.met.nmetrics = 1;
	m->r.met.display_unit = "Mbit/s";
	m->r.met.display_scale = 1e6;
	m->r.span.hosts = hosts;
	m->r.span.nhosts = 1;
	for (int c = 0; c < ncells; c++) {
		m->st[c].median = med[c];
		m->cell[c].st = &m->st[c];
		m->cell[c].label = c ? "x=b" : "x=a";
	}
	m->r.cells = m->cell;
	m->r.ncells = ncells;
	for (int k = 0; k < nruns; k++) {
		m->kv[k][0] = (struct report_fkv){"nic_mtu", d[k].mtu};
		m->kv[k][1] =
		    (struct report_fkv){"qdisc_root", "tbf 300000000"};
		m->set[k] = (struct report_fset){k + 1, 1,   "client", "apply",
						 "x",	"a", m->kv[k], 2};
		m->ptr[k] = &m->set[k];
		m->val[k] = d[k].ok ? med[d[k].cell] : NAN;
		m->run[k].cell = d[k].cell;
		m->run[k].ok = d[k].ok;
		m->run[k].status = d[k].ok ? "ok" : "failed";
		m->run[k].vals = &m->val[k];
		m->run[k].fsets = &m->ptr[k];
		m->run[k].nfsets = 1;
	}
	m->r.runs = m->run;
	m->r.nruns = nruns;
	if (explain_build(&m->r, &x) < 0)
		return NULL;
	return x;
}

static void near(double got, double want, double tol, const char *what)
{
	ok(fabs(got - want) <= tol, "%s: %.9g (want %.9g)", what, got, want);
}

/* Three ok runs at MTU 1500 and a failed one at 9000. */
static void test_failed_run_left_out(void)
{
	static const double med[] = {285e6};
	static const struct rdef d[] = {
	    {0, 1, "1500"}, {0, 1, "1500"}, {0, 1, "1500"}, {0, 0, "9000"}};
	struct model m;
	struct explain *x = build(&m, 1, med, d, 4);
	is_str(explain_kind_name(x->cells[0].kind), "line",
	       "a failed run's MTU 9000 beside 3 ok at 1500: line");
	ok(x->cells[0].differ == NULL, "no facts_differ: %s",
	   x->cells[0].differ ? x->cells[0].differ : "(null)");
	near(x->cells[0].ceiling, CEIL1500, 0.01, "the MTU 1500 ceiling");
	near(x->cells[0].fraction, 0.993301105, 1e-9, "285 of 286.9 Mbit/s");
	arena_free(m.r.arena);
}

/* 100.8% of the ceiling: within the 1.05 allowed. */
static void test_within_margin(void)
{
	static const double med[] = {1.008 * CEIL1500};
	static const struct rdef d[] = {{0, 1, "1500"}, {0, 1, "1500"}};
	struct model m;
	struct explain *x = build(&m, 1, med, d, 2);
	is_str(explain_kind_name(x->cells[0].kind), "line",
	       "100.8% of the line: line-bound");
	ok(x->cells[0].disagree == NULL, "no facts_disagree: %s",
	   x->cells[0].disagree ? x->cells[0].disagree : "(null)");
	near(x->cells[0].fraction, 1.008, 1e-9, "fraction 1.008");
	ok(!strstr(x->cells[0].line, "disagree"), "the line: %s",
	   x->cells[0].line);
	arena_free(m.r.arena);
}

/* Cell x=a's runs differ; cell x=b's agree. */
static void test_differ_per_cell(void)
{
	static const double med[] = {285e6, 285e6};
	static const struct rdef d[] = {
	    {0, 1, "1500"}, {0, 1, "9000"}, {1, 1, "1500"}, {1, 1, "1500"}};
	struct model m;
	struct explain *x = build(&m, 2, med, d, 4);
	is_str(x->cells[0].differ,
	       "nic_mtu of client: 1500 in 1 run, 9000 in 1 run",
	       "x=a: its runs' two MTUs, one run each");
	ok(isnan(x->cells[0].ceiling), "x=a: no ceiling");
	is_str(explain_kind_name(x->cells[0].kind), "none", "x=a: no kind");
	ok(x->cells[1].differ == NULL, "x=b: no facts_differ: %s",
	   x->cells[1].differ ? x->cells[1].differ : "(null)");
	is_str(explain_kind_name(x->cells[1].kind), "line", "x=b: line");
	near(x->cells[1].ceiling, CEIL1500, 0.01, "x=b: the MTU 1500 ceiling");
	ok(!strstr(x->cells[1].line, "different facts"), "x=b's line: %s",
	   x->cells[1].line);
	arena_free(m.r.arena);
}

int main(void)
{
	tap_plan(15);
	test_failed_run_left_out();
	test_within_margin();
	test_differ_per_cell();
	return tap_done();
}
