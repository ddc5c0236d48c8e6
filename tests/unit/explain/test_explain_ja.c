/*
 * Ceilings named in the report's language (issue 35: "Japanese reports
 * fully Japanese except names and units"): reports/explain/explain.c's
 * PCIe and tbf names and explain_ref.c's published ceilings, on
 * hand-built one-cell models (as test_explain_bus.c), each in a Japanese
 * report and, for the bus, in an English one too.
 *
 * The numbers, by hand (python3):
 *   PCIe 8.0 GT/s x1 raw: 8e9 x 128/130 = 7876923076.92; 7.5 Gbit/s
 *     measured is 0.952 of it, above the bus share 0.75: PCIe-bound.
 *   tbf 10000000 (10 Mbit/s), TCP at MTU 1500: 10e6 x 1448 / 1514 =
 *     9564068.69; 9.4 Mbit/s is 0.983 of it: line-bound. Its rate in
 *     the name is 10000000 / 1e6 = 10 Mbit/s.
 *   published 1000BASE-T, MTU 1500, TCP: 1e9 x 1448 / 1538 =
 *     941482444.73; 940 Mbit/s published is 0.998 of it: line-bound.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <string.h>

#include "arena.h"
#include "explain.h"
#include "reference.h"
#include "tap.h"

static const char *metrics[] = {"throughput"};
static const char *units[] = {"bit/s"};
static const char *hosts[] = {"client"};

struct one {
	struct report r;
	struct report_cell cell;
	struct report_stats st[1];
	struct report_run u;
	double vals[1];
};

static void model(struct one *m, enum report_lang lang, double median,
		  struct report_fact *f, int nf)
{
	memset(m, 0, sizeof *m);
	m->r.arena = arena_new();
	m->r.about.lang = lang;
	m->r.met.metrics = metrics;
	m->r.met.metric_units = units;
	m->r.met.nmetrics = 1;
	m->r.met.display_unit = "Mbit/s";
	m->r.met.display_scale = 1e6;
	m->st[0].median = median;
	m->vals[0] = median;
	m->cell.st = m->st;
	m->cell.label = "x=a";
	m->r.cells = &m->cell;
	m->r.ncells = 1;
	m->r.span.hosts = hosts;
	m->r.span.nhosts = 1;
	m->r.facts = f;
	m->r.nfacts = nf;
	m->u.ok = 1;
	m->u.vals = m->vals;
	m->r.runs = &m->u;
	m->r.nruns = 1;
}

/* The limit of the one cell, or of the one published row. */
static void check(struct one *m, int ref, const char *kind, double ceiling,
		  const char *name, const char *what)
{
	struct explain *x = NULL;
	const struct explain_limit *l;
	ok(explain_build(&m->r, &x) == 0 && x && (!ref || x->nrefs == 1),
	   "%s: explained", what);
	if (!x || (ref && x->nrefs != 1)) {
		ok(0, "%s: no limit", what);
		ok(0, "%s: no limit", what);
		ok(0, "%s: no limit", what);
		arena_free(m->r.arena);
		return;
	}
	l = ref ? &x->refs[0] : &x->cells[0];
	ok(!strcmp(explain_kind_name(l->kind), kind), "%s: kind %s (%s)", what,
	   kind, explain_kind_name(l->kind));
	ok(fabs(l->ceiling - ceiling) < 1, "%s: ceiling %.2f", what,
	   l->ceiling);
	ok(l->ceiling_name && !strcmp(l->ceiling_name, name) &&
	       strstr(l->line, name),
	   "%s: named '%s' ('%s'; line '%s')", what, name,
	   l->ceiling_name ? l->ceiling_name : "(null)", l->line);
	arena_free(m->r.arena);
}

int main(void)
{
	struct one m;
	struct report_fact pcie[] = {
	    {1, "client", "nic_pcie_link", "8.0 GT/s x1"},
	    {1, "client", "nic_mtu", "1500"},
	};
	struct report_fact tbf[] = {
	    {1, "client", "qdisc_root", "tbf 10000000"},
	    {1, "client", "nic_mtu", "1500"},
	};
	struct report_ref_cond conds[] = {
	    {"link", "1000BASE-T", 1, 1, NULL, NULL, 0},
	    {"mtu", "1500", 2, 1, NULL, NULL, 0},
	    {"pcie", "PCIe 3.0 x1", 3, 1, NULL, NULL, 0},
	};
	static const int value_metric[] = {0};
	static const char *values[] = {"throughput"};
	struct report_ref_value v = {940e6, NAN, -1, 1};
	struct report_ref_row row;
	struct report_ref ref;

	model(&m, REPORT_LANG_JA, 7.5e9, pcie, 2);
	check(&m, 0, "pcie", 7876923076.92,
	      "client の PCIe 8.0 GT/s x1（生の速度）", "PCIe, Japanese");
	model(&m, REPORT_LANG_EN, 7.5e9, pcie, 2);
	check(&m, 0, "pcie", 7876923076.92, "PCIe 8.0 GT/s x1 on client (raw)",
	      "PCIe, English");
	model(&m, REPORT_LANG_JA, 9.4e6, tbf, 2);
	check(&m, 0, "line", 9564068.69,
	      "client の tbf 10 Mbit/s、MTU 1500 の TCP", "tbf, Japanese");

	memset(&row, 0, sizeof row);
	memset(&ref, 0, sizeof ref);
	row.label = "x=a";
	row.status = REPORT_REF_MATCHED;
	row.cell = 0;
	row.v = &v;
	ref.conds = conds;
	ref.nconds = 3;
	ref.values = values;
	ref.value_metric = value_metric;
	ref.nvalues = 1;
	ref.rows = &row;
	ref.nrows = 1;
	model(&m, REPORT_LANG_JA, 9.4e8, NULL, 0);
	m.r.ref = &ref;
	check(&m, 1, "line", 941482444.73, "1000BASE-T、MTU 1500 の TCP",
	      "published, Japanese");
	return tap_done();
}
