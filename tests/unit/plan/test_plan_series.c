/* Unit tests for series metrics in the plan (`metrics: { NAME: { series:
 * S, host: H, stat: ..., rate: ..., unit: U, better: ... } }`, any
 * engine): the keys load, their defaults, and each mistake is an error at
 * its place.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <string.h>

#include "catalog.h"
#include "plan.h"
#include "tap.h"

#define HEAD                                                                   \
	"xrun: 1\n"                                                            \
	"name: t\n"                                                            \
	"engine:\n"                                                            \
	"  type: iperf3\n"                                                     \
	"  server: local\n"                                                    \
	"  metrics:\n"

static int load(const char *text, struct plan **p, struct xr_diag *d)
{
	xr_diag_init(d, "t.yaml");
	return plan_load_mem("t.yaml", text, strlen(text), catalog_builtin(), p,
			     d);
}

static int has(const struct xr_diag *d, int line, int col, const char *sub,
	       int warning)
{
	size_t i;
	for (i = 0; i < d->n; i++)
		if (d->items[i].is_warning == warning &&
		    d->items[i].line == line && d->items[i].col == col &&
		    strstr(d->items[i].msg, sub))
			return 1;
	return 0;
}

static void dump(const struct xr_diag *d)
{
	size_t i;
	for (i = 0; i < d->n; i++)
		printf("#   %d:%d: %s\n", d->items[i].line, d->items[i].col,
		       d->items[i].msg);
}

static void test_good(void)
{
	static const char text[] =
	    HEAD "    pause_rate: { series: nic.ethtool.rx_pause, host: server,"
		 " stat: p95, rate: true, unit: '1', better: lower }\n"
		 "    iv_median: { series: engine.throughput }\n";
	struct plan *p = NULL;
	struct xr_diag d;
	const struct plan_metric *m;
	int r = load(text, &p, &d);
	is_int(r, 0, "a plan with series metrics loads");
	if (r != 0 || !p) {
		dump(&d);
		xr_diag_release(&d);
		return;
	}
	is_int(d.n, 0,
	       "no warning on iperf3: series metrics are for any "
	       "engine");
	is_int(p->engine.nmetrics, 2, "two metrics");
	m = &p->engine.metrics[0];
	is_str(m->series, "nic.ethtool.rx_pause", "series");
	is_str(m->host, "server", "host");
	is_str(plan_series_stat_name(m->stat), "p95", "stat");
	is_int(m->rate, 1, "rate");
	is_str(m->unit, "1", "unit");
	is_int(m->better, -1, "better: lower");
	m = &p->engine.metrics[1];
	is_str(plan_series_stat_name(m->stat), "median",
	       "stat defaults to "
	       "median");
	ok(!m->host && !m->rate && !m->unit,
	   "no host (any), no rate, the series' own unit");
	plan_free(p);
	xr_diag_release(&d);
}

static const struct {
	const char *metric;
	int col, warning;
	const char *msg;
} bad[] = {
    {"x: { series: engine.throughput, stat: p99 }", 43, 0,
     "metric 'x': unknown stat 'p99' (use median, p95, max, min, mean or "
     "delta)"},
    {"x: { series: engine.throughput, json: /a }", 43, 0,
     "metric 'x' has two sources, 'series' and 'json': give one"},
    {"x: { stat: max, regex: 'a(1)' }", 16, 0,
     "metric 'x': 'stat' applies to a series metric only"},
    {"x: { series: 'bad name', stat: max }", 18, 0,
     "metric 'x': bad series name 'bad name'"},
    {"x: { series: engine.throughput, host: nosuch }", 43, 0,
     "undefined host 'nosuch'"},
    {"x: { series: engine.throughput, rate: maybe }", 43, 0,
     "'rate' must be true or false"},
    {"x: { series: engine.throughput, unit: furlongs }", 43, 0,
     "metric 'x': unknown unit 'furlongs'"},
    {"x: { json: /a }", 8, 1,
     "metrics other than series metrics are read by an engine that runs "
     "a command ('run'); engine 'iperf3' ignores them"},
};

static void test_bad(void)
{
	size_t i;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char text[512];
		struct plan *p = NULL;
		struct xr_diag d;
		int found;
		snprintf(text, sizeof text, HEAD "    %s\n", bad[i].metric);
		load(text, &p, &d);
		found = has(&d, 7, bad[i].col, bad[i].msg, bad[i].warning);
		ok(found, "%s: 7:%d %s", bad[i].metric, bad[i].col, bad[i].msg);
		if (!found)
			dump(&d);
		plan_free(p);
		xr_diag_release(&d);
	}
}

int main(void)
{
	tap_plan(19);
	test_good();
	test_bad();
	return tap_done();
}
