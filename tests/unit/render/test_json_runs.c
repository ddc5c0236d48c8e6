/* Unit test of reports/render/write_json_runs.c: the streamed
 * "run_values" must be byte for byte what jansson writes for the same
 * tree (the tree write_json.c built before it was streamed: the run
 * objects in schema/report.md's order, JSON_INDENT(1) |
 * JSON_REAL_PRECISION(10)). The expected text is jansson's own dump of
 * a tree built here, so the reals (%.10g, ".0", exponents without '+'
 * and leading zeros, null for what is not finite) and the escaping of
 * quotes, backslashes and control characters are checked against
 * jansson, not against numbers written by hand.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "json_runs.h"
#include "tap.h"

#define NM 3

static const double vals[][NM] = {
    {0.1, 1e21, 1e-5},
    {NAN, 1234567890123.0, -0.0},
    {NAN, NAN, NAN}, /* no metric: "metrics": {} */
    {5e-324, 1.5e300, INFINITY},
    {9.0e9, 3, 1e100},
    /* from 1e9 to 1e10 the writer rounds to an integer itself: ties to
     * even as printf, and what rounds to 1e10 gets an exponent */
    {1234567890.5, 1234567891.5, 9999999999.5},
    {9999999999.4, -1234567890.7, 999999999.9},
    {-2.0, 1e9, 123456789.25},
};
#define NRUNS (int)(sizeof vals / sizeof vals[0])

static json_t *num(double v)
{
	return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

static json_t *str(const char *s)
{
	return s ? json_string(s) : json_null();
}

/* The tree as write_json.c's run_values() built it. */
static json_t *expected(const struct report *r)
{
	json_t *a = json_array();
	for (int i = 0; i < r->nruns; i++) {
		const struct report_run *u = &r->runs[i];
		const struct report_cell *c = &r->cells[u->cell];
		json_t *cell = c->json ? json_loads(c->json, 0, NULL) : NULL;
		json_t *ms = json_object();
		for (int m = 0; m < r->met.nmetrics; m++)
			if (!isnan(u->vals[m]))
				json_object_set_new(
				    ms, r->met.metrics[m],
				    json_pack("{s:o,s:o}", "value",
					      num(u->vals[m]), "unit",
					      str(r->met.metric_units[m])));
		json_array_append_new(
		    a,
		    json_pack("{s:I,s:I,s:i,s:o,s:s,s:i,s:s,s:o,s:o,s:o,s:o}",
			      "id", (json_int_t)u->id, "session",
			      (json_int_t)u->session, "cell_index", u->cell,
			      "cell", cell ? cell : json_object(), "label",
			      c->label ? c->label : "", "rep", u->rep, "status",
			      u->status ? u->status : "", "reason",
			      u->reason ? str(u->reason) : json_null(),
			      "started_at", num(u->started_at), "ended_at",
			      num(u->ended_at), "metrics", ms));
	}
	return json_pack("{s:i,s:o}", "a", 1, "run_values", a);
}

static void check(const struct report *r, const char *name)
{
	json_t *e = expected(r);
	char *want = json_dumps(e, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
	char *got = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&got, &len);
	int rc;
	fputs("{\n \"a\": 1", f);
	rc = json_runs_write(r, f, str);
	fclose(f);
	ok(rc == 0, "%s: written", name);
	ok(want && got && !strcmp(want, got), "%s: jansson's bytes", name);
	if (want && got && strcmp(want, got)) {
		size_t k = 0;
		while (want[k] == got[k])
			k++;
		printf("# first difference at byte %zu:\n# want %.60s\n"
		       "# got  %.60s\n",
		       k, want + k, got + k);
	}
	free(want);
	free(got);
	json_decref(e);
}

int main(void)
{
	const char *metrics[NM] = {"throughput", "rtt \"mean\"", "x\\y\n"};
	const char *units[NM] = {"bit/s", NULL, "\x01\t日本"};
	struct report_cell cells[3] = {
	    {.json = "{\"cc\":\"cubic\",\"n\":\"1\"}", .label = "cc=cubic"},
	    {.json = NULL, .label = NULL},
	    {.json = "{\"q\":\"a\\\"b\\u0001\"}", .label = "tab\there"}};
	struct report_run runs[NRUNS];
	struct report r;
	const char *status[NRUNS] = {"ok",	"failed", "timeout", "ok",
				     "quirk\"", "ok",	  "ok",	     "ok"};
	/* a stored reason as the store keeps it: any bytes a tool printed */
	const char *reason[NRUNS] = {NULL,
				     "connect: Connection refused",
				     "timed out after 5 s\n\"x\"",
				     NULL,
				     "日本\x01",
				     NULL,
				     NULL,
				     NULL};
	memset(&r, 0, sizeof r);
	for (int i = 0; i < NRUNS; i++) {
		memset(&runs[i], 0, sizeof runs[i]);
		runs[i].id = 1000000000000LL + i;
		runs[i].session = i + 1;
		runs[i].cell = i % 3;
		runs[i].rep = i + 1;
		runs[i].status = status[i];
		runs[i].reason = reason[i];
		runs[i].started_at = i == 1 ? NAN : 1764460800.0 + i * 0.125;
		runs[i].ended_at = 1764460801.5e0 * (i + 1);
		runs[i].vals = vals[i];
	}
	r.cells = cells;
	r.ncells = 3;
	r.runs = runs;
	r.met.metrics = metrics;
	r.met.metric_units = units;
	r.met.nmetrics = NM;
	tap_plan(6);
	r.nruns = 0;
	check(&r, "no run");
	r.nruns = 1;
	check(&r, "one run");
	r.nruns = NRUNS;
	check(&r, "every run");
	return tap_done();
}
