/* Each cell explained from its own runs' facts (issue 34 Deliver 2), on
 * hand-built models whose session facts (report.facts, what the report
 * read before fact sets) hold the value read last, the wrong one for the
 * other cells. Numbers from python3:
 *   tbf per level (a hook set the client's tbf): 200e6 * 1448 / 1514 =
 *   191281373.844, 400e6 * 1448 / 1514 = 382562747.688; medians 190 and
 *   381 Mbit/s are 0.993301 and 0.995915 of them: both line.
 *   MTU per level behind a 300 Mbit/s tbf: 300e6 * 1448 / 1514 =
 *   286922060.766 at 1500, 300e6 * 8948 / 9014 = 297803416.907 at 9000;
 *   medians 285 and 297 Mbit/s: 0.993301 and 0.997302.
 *   A NIC swapped between blocks: PCIe 8 GT/s x4 raw 8e9 * 4 * 128 / 130 =
 *   31507692307.7, x1 7876923076.92; 6.2 Gbit/s is 0.787109 of x1: pcie.
 *   Within one cell the two cards: no ceiling (facts_differ).
 *   7.08 Gbit/s behind a 6.2 Gbit/s tbf: 6.2e9 * 1448 / 1514 =
 *   5929722589.17, 1.193985 of it: no kind, the facts named.
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

#define MAXC 4

struct model {
	struct report r;
	struct report_cell cell[MAXC];
	struct report_stats st[MAXC];
	struct report_run run[2 * MAXC];
	struct report_fset set[2 * MAXC];
	struct report_fkv kv[2 * MAXC][2];
	const struct report_fset *ptr[2 * MAXC];
	double val[2 * MAXC];
};

/* ncells cells of med[c] each, run k of cell k / per (per runs a cell);
 * run k's set on client: key1 = v1[k] (and key2 = v2 when not NULL).
 * The session facts: the last run's values. */
static void build(struct model *m, int ncells, int per, const double *med,
		  const char *key1, const char *const *v1, const char *key2,
		  const char *v2, struct report_fact *sf)
{
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
	for (int k = 0; k < ncells * per; k++) {
		struct report_fset *s = &m->set[k];
		m->kv[k][0] = (struct report_fkv){key1, v1[k]};
		m->kv[k][1] = (struct report_fkv){key2, v2};
		*s = (struct report_fset){k + 1, 1,   "client", "apply",
					  "x",	 "a", m->kv[k], key2 ? 2 : 1};
		m->ptr[k] = s;
		m->val[k] = med[k / per];
		m->run[k].cell = k / per;
		m->run[k].ok = 1;
		m->run[k].vals = &m->val[k];
		m->run[k].fsets = &m->ptr[k];
		m->run[k].nfsets = 1;
	}
	m->r.runs = m->run;
	m->r.nruns = ncells * per;
	sf[0] = (struct report_fact){1, "client", key1, v1[ncells * per - 1]};
	sf[1] = (struct report_fact){1, "client", key2 ? key2 : "x", v2};
	m->r.facts = sf;
	m->r.nfacts = 2;
}

static void near(double got, double want, double tol, const char *what)
{
	ok(fabs(got - want) <= tol, "%s: %.9g (want %.9g)", what, got, want);
}

static void test_tbf_per_level(void)
{
	struct model m;
	struct report_fact sf[2];
	struct explain *x = NULL;
	static const double med[] = {190e6, 381e6};
	static const char *const q[] = {"tbf 200000000", "tbf 400000000"};
	build(&m, 2, 1, med, "qdisc_root", q, "nic_mtu", "1500", sf);
	is_int(explain_build(&m.r, &x), 0, "tbf per level: built");
	is_str(explain_kind_name(x->cells[0].kind), "line", "200mbit: line");
	is_str(explain_kind_name(x->cells[1].kind), "line", "400mbit: line");
	near(x->cells[0].ceiling, 191281373.844, 0.01, "200mbit ceiling");
	near(x->cells[1].ceiling, 382562747.688, 0.01, "400mbit ceiling");
	near(x->cells[0].fraction, 0.993301105, 1e-9, "200mbit fraction");
	near(x->cells[1].fraction, 0.995915055, 1e-9, "400mbit fraction");
	is_str(x->cells[0].ceiling_name,
	       "tbf 200 Mbit/s on client, TCP at MTU 1500",
	       "200mbit: named after its own tbf");
	/* the old reading: the session's last value for both cells */
	m.run[0].nfsets = m.run[1].nfsets = 0;
	arena_free(m.r.arena);
	m.r.arena = arena_new();
	explain_build(&m.r, &x);
	near(x->cells[0].ceiling, 382562747.688, 0.01,
	     "without fact sets: the session's last tbf, as before");
	arena_free(m.r.arena);
}

static void test_mtu_per_level(void)
{
	struct model m;
	struct report_fact sf[2];
	struct explain *x = NULL;
	static const double med[] = {285e6, 297e6};
	static const char *const mtu[] = {"1500", "9000"};
	build(&m, 2, 1, med, "nic_mtu", mtu, "qdisc_root", "tbf 300000000", sf);
	explain_build(&m.r, &x);
	near(x->cells[0].ceiling, 286922060.766, 0.01, "MTU 1500 ceiling");
	near(x->cells[1].ceiling, 297803416.907, 0.01, "MTU 9000 ceiling");
	near(x->cells[1].fraction, 0.997302190, 1e-9, "MTU 9000 fraction");
	is_str(explain_kind_name(x->cells[1].kind), "line", "MTU 9000: line");
	is_str(x->cells[1].ceiling_name,
	       "tbf 300 Mbit/s on client, TCP at MTU 9000",
	       "MTU 9000 cell named at its own MTU");
	arena_free(m.r.arena);
}

static void test_nic_swap(void)
{
	struct model m;
	struct report_fact sf[2];
	struct explain *x = NULL;
	static const double blocks[] = {9.4e9, 6.2e9};
	static const double one[] = {6.2e9};
	static const char *const pcie[] = {"8.0 GT/s x4 (max 8.0 GT/s x4)",
					   "8.0 GT/s x1 (max 8.0 GT/s x4)"};
	/* each card its own block and cell */
	build(&m, 2, 1, blocks, "nic_pcie_link", pcie, NULL, NULL, sf);
	explain_build(&m.r, &x);
	near(x->cells[1].ceiling, 7876923076.92, 0.01, "x1 card: raw x1");
	near(x->cells[1].fraction, 0.787109375, 1e-9, "x1 card: share");
	is_str(explain_kind_name(x->cells[1].kind), "pcie", "x1 card: pcie");
	ok(x->cells[0].kind != EXPLAIN_PCIE,
	   "x4 card: not bus-bound (9.4 of 31.5 Gbit/s): %s", x->cells[0].line);
	arena_free(m.r.arena);
	/* both cards within one cell (a swap between its runs) */
	build(&m, 1, 2, one, "nic_pcie_link", pcie, NULL, NULL, sf);
	explain_build(&m.r, &x);
	is_str(explain_kind_name(x->cells[0].kind), "none",
	       "two cards in one cell: no kind");
	ok(isnan(x->cells[0].ceiling), "two cards in one cell: no ceiling");
	is_str(x->cells[0].differ,
	       "nic_pcie_link of client: 8.0 GT/s x4 (max 8.0 GT/s x4) in 1 "
	       "run, 8.0 GT/s x1 (max 8.0 GT/s x4) in 1 run",
	       "the differing fact, with its runs");
	ok(strstr(x->cells[0].line, "the cell's runs held different facts") &&
	       strstr(x->cells[0].line, "no limit named"),
	   "the line says so: %s", x->cells[0].line);
	arena_free(m.r.arena);
}

static void test_disagree(void)
{
	struct model m;
	struct report_fact sf[2];
	struct explain *x = NULL;
	static const double med[] = {7.08e9};
	static const char *const q[] = {"tbf 6200000000"};
	build(&m, 1, 1, med, "qdisc_root", q, "nic_mtu", "1500", sf);
	explain_build(&m.r, &x);
	is_str(explain_kind_name(x->cells[0].kind), "none",
	       "119.4% of a ceiling: no kind");
	near(x->cells[0].fraction, 1.193985029, 1e-9, "the fraction shown");
	is_str(x->cells[0].disagree,
	       "qdisc_root of client: tbf 6200000000, nic_mtu of client: 1500",
	       "the facts named");
	ok(strstr(x->cells[0].line, "= 119.4% of 5930 Mbit/s") &&
	       strstr(x->cells[0].line, "facts and the measurement disagree") &&
	       !strstr(x->cells[0].line, "-bound"),
	   "the line: %s", x->cells[0].line);
	arena_free(m.r.arena);
}

int main(void)
{
	tap_plan(26);
	test_tbf_per_level();
	test_mtu_per_level();
	test_nic_swap();
	test_disagree();
	return tap_done();
}
