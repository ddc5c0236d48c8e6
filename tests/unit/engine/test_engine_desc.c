/* The engine descriptors: every engine in the table says what the rest of
 * xrun needs of it (default duration, programs, primary metric, its
 * parameters' JSON Schema, the metrics it stores, its fallback deadline,
 * its version command in the runner/desc leaf), and
 * schema/plan.schema.json and schema/plan.md list exactly the table's
 * engines and parameters: a row missing from the schema, or a schema
 * entry no engine has, fails here.
 *
 * SPDX-License-Identifier: MIT
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "engine.h"
#include "engine_cond.h"
#include "iperf3_json.h"
#include "tap.h"

/* engine keys every engine shares (plan_sections.c reads them) */
static const char *const fixed[] = {"type",	"client", "server",  "target",
				    "duration", "omit",	  "timeout", "run",
				    "metrics",	NULL};

static int is_fixed(const char *k)
{
	int i;
	for (i = 0; fixed[i]; i++)
		if (!strcmp(fixed[i], k))
			return 1;
	return 0;
}

static int nengines(void)
{
	int n = 0;
	while (engine_at(n))
		n++;
	return n;
}

static void test_fields(void)
{
	const struct engine_ops *e;
	int i;
	ok(nengines() >= 2, "%d engines", nengines());
	for (i = 0; (e = engine_at(i)); i++) {
		ok(e->desc.name && e->desc.name[0], "engine %d has a name", i);
		ok(engine_find(e->desc.name) == e, "%s: found by name",
		   e->desc.name);
		ok(e->desc.default_duration > 0, "%s: a default duration",
		   e->desc.name);
		ok(e->desc.check || e->desc.has_param, "%s: checks its params",
		   e->desc.name);
		ok(!e->primary_metric == !e->primary_unit,
		   "%s: primary metric and unit together", e->desc.name);
		ok(e->primary_metric || e->desc.reads_run,
		   "%s: a primary metric, or the plan's metrics name it",
		   e->desc.name);
		ok(e->programs || e->desc.reads_run,
		   "%s: programs to check before a run", e->desc.name);
		ok(e->build_argv && e->open && e->run && e->close,
		   "%s: every operation", e->desc.name);
	}
}

/* The version command each engine's row has (runner/desc): iperf3's is
 * `iperf3 --version` kept as host fact iperf3_version (the key stores and
 * schema/store.md name), shown as "iperf3"; the others run none (a
 * `command` plan's program is the user's: no version fact). */
static void test_version(void)
{
	const struct engine_version *v = engine_version_of("iperf3");
	const char *const none[] = {"command", "networkquality", "speedtest",
				    "librespeed", NULL};
	int i, n = 0;
	ok(v != NULL, "iperf3 has a version command");
	if (v) {
		is_str(v->engine, "iperf3", "its engine");
		is_str(v->argv[0], "iperf3", "argv[0]");
		is_str(v->argv[1], "--version", "argv[1]");
		ok(v->argv[2] == NULL, "argv ends after two words");
		is_str(v->fact, "iperf3_version", "fact key");
		is_str(v->label, "iperf3", "system table label");
	}
	for (i = 0; none[i]; i++)
		ok(engine_find(none[i]) && !engine_version_of(none[i]),
		   "%s: an engine without a version command", none[i]);
	ok(!engine_version_of(NULL) && !engine_version_of("iperf4"),
	   "no row: none");
	for (i = 0; (v = engine_version_at(i)); i++, n++)
		ok(engine_find(v->engine) != NULL,
		   "version row %d names engine '%s' of the table", i,
		   v->engine);
	is_int(n, 1, "one engine with a version command");
	ok(engine_version_at(-1) == NULL, "engine_version_at(-1): none");
}

/* The metrics each row says its runs store: iperf3's are exactly what
 * iperf3_report_to_result adds from a report that has every field (a
 * bidir UDP-and-TCP report: 15 names, counted from iperf3_json.c's
 * engine_result_add_metric calls); command's are the plan's (NULL). */
static void test_metrics(void)
{
	static const char *const want[] = {
	    "throughput",      "throughput_up",
	    "throughput_down", "sender_throughput",
	    "bytes",	       "retransmits",
	    "cpu_host",	       "cpu_remote",
	    "rtt_mean",	       "rtt_min",
	    "rtt_max",	       "jitter",
	    "lost_packets",    "lost_percent",
	    "packets",	       NULL};
	const struct engine_ops *e = engine_find("iperf3");
	struct iperf3_report r;
	struct engine_result res;
	int i, n = 0;
	ok(e && e->metrics, "iperf3 names its metrics");
	for (i = 0; e && e->metrics && want[i]; i++)
		is_str(e->metrics[i], want[i], want[i]);
	ok(e && e->metrics && !e->metrics[15], "iperf3: 15 metrics");
	ok(engine_find("command")->metrics == NULL,
	   "command: the plan's metrics");
	memset(&r, 0, sizeof r);
	memset(&res, 0, sizeof res);
	r.bidir = r.have_recv = r.have_sent = r.have_recv_rev = 1;
	r.have_sent_rev = r.have_retransmits = r.have_cpu_host = 1;
	r.have_cpu_remote = r.have_rtt = r.have_udp_stats = 1;
	ok(iperf3_report_to_result(&r, &res) == 0, "every field to metrics");
	for (i = 0; i < res.nmetrics; i++) {
		int k, in = 0;
		for (k = 0; e && e->metrics && e->metrics[k]; k++)
			in |= !strcmp(e->metrics[k], res.metrics[i].name);
		ok(in, "stored metric '%s' is in the row", res.metrics[i].name);
		n++;
	}
	is_int(n, 15, "a full report stores the row's 15 metrics");
	engine_result_release(&res);
}

/* The deadline of a request without a timeout: duration + omit + the
 * row's slack (10 + 2 + 15 = 27 s for iperf3, + 30 = 42 for command,
 * + 60 = 72 for the speed tests); a request's own timeout wins. */
static void test_timeout(void)
{
	struct engine_request rq;
	memset(&rq, 0, sizeof rq);
	rq.duration = 10;
	rq.omit = 2;
	is_near(engine_run_timeout(engine_find("iperf3"), &rq), 27, 0,
		"iperf3: 10 + 2 + 15 s");
	is_near(engine_run_timeout(engine_find("command"), &rq), 42, 0,
		"command: 10 + 2 + 30 s");
	is_near(engine_run_timeout(engine_find("speedtest"), &rq), 72, 0,
		"speedtest: 10 + 2 + 60 s");
	is_near(engine_run_timeout(engine_find("networkquality"), &rq), 72, 0,
		"networkquality: 10 + 2 + 60 s");
	rq.timeout = 5;
	is_near(engine_run_timeout(engine_find("command"), &rq), 5, 0,
		"the request's timeout wins");
}

/* The published conditions a reference's plan sets through iperf3's
 * parameters (cmd_plan_ref.c reads them from the row). */
static void test_ref_params(void)
{
	const struct engine_ops *e = engine_find("iperf3");
	const struct engine_ref_param *cp;
	int n = 0;
	for (cp = e->ref_params; cp && cp->name; cp++) {
		n++;
		ok(e->desc.has_param(cp->param), "'%s' sets parameter '%s'",
		   cp->name, cp->param);
		if (!strcmp(cp->name, "streams"))
			ok(cp->kind == ENGINE_REF_VALUE &&
			       !strcmp(cp->param, "parallel") &&
			       !strcmp(cp->chars, "0123456789"),
			   "streams: parallel, digits");
		if (!strcmp(cp->name, "direction"))
			ok(cp->kind == ENGINE_REF_DIRECTION &&
			       !strcmp(cp->param, "reverse") &&
			       !strcmp(cp->chars, "bidir") &&
			       e->desc.has_param(cp->chars),
			   "direction: reverse, and bidir");
	}
	is_int(n, 12, "iperf3: 12 published names");
	ok(!engine_find("command")->ref_params, "command: none");
}

/* Each engine's parameters against the schema's engine properties. */
static void test_params(json_t *props)
{
	const struct engine_ops *e;
	const char *key, *frag;
	json_t *v;
	int i, k;
	for (i = 0; (e = engine_at(i)); i++)
		for (k = 0;
		     e->param_schema && (key = e->param_schema(k, &frag));
		     k++) {
			json_t *want = json_loads(frag, 0, NULL);
			json_t *got = json_object_get(props, key);
			const char *fk;
			json_t *fv;
			int same = got != NULL && want != NULL;
			ok(e->desc.has_param && e->desc.has_param(key),
			   "%s: has_param(%s)", e->desc.name, key);
			json_object_foreach(want, fk, fv) same =
			    same && json_equal(json_object_get(got, fk), fv);
			ok(same, "%s: parameter '%s' in the schema as %s",
			   e->desc.name, key, frag);
			json_decref(want);
		}
	/* and every non-fixed property is some engine's parameter */
	json_object_foreach(props, key, v)
	{
		int has = is_fixed(key);
		for (i = 0; !has && (e = engine_at(i)); i++)
			has = e->desc.has_param && e->desc.has_param(key);
		ok(has, "schema engine property '%s' is an engine's", key);
	}
}

static void test_schema(const char *src)
{
	struct buf path = BUF_INIT;
	json_error_t jerr;
	json_t *root, *eng, *props, *en, *x;
	size_t j;
	int i, n = nengines();

	buf_addf(&path, "%s/schema/plan.schema.json", src);
	root = json_load_file(path.s, 0, &jerr);
	ok(root != NULL, "read %s: %s", path.s, root ? "" : jerr.text);
	if (!root)
		return;
	eng = json_object_get(json_object_get(root, "$defs"), "engine");
	props = json_object_get(eng, "properties");
	en = json_object_get(json_object_get(props, "type"), "enum");
	ok(json_is_array(en), "engine.type has an enum");
	is_int((long long)json_array_size(en), n, "as many engines as rows");
	for (i = 0; i < n; i++) {
		int found = 0;
		json_array_foreach(en, j, x) found |=
		    json_is_string(x) &&
		    !strcmp(json_string_value(x), engine_at(i)->desc.name);
		ok(found, "engine '%s' in the schema's enum",
		   engine_at(i)->desc.name);
	}
	json_array_foreach(en, j, x)
	    ok(engine_find(json_string_value(x)) != NULL,
	       "schema engine '%s' is in the table", json_string_value(x));
	test_params(props);
	json_decref(root);
	buf_release(&path);
}

/* schema/plan.md's engine table lists each engine as `name`. */
static void test_doc(const char *src)
{
	struct buf path = BUF_INIT, doc = BUF_INIT, want = BUF_INIT;
	const char *row;
	int i;
	buf_addf(&path, "%s/schema/plan.md", src);
	ok(buf_read_file(&doc, path.s, 1 << 22) == 0, "read %s", path.s);
	row = doc.s ? strstr(doc.s, "| `type` |") : NULL;
	ok(row != NULL, "plan.md has the engine type row");
	for (i = 0; row && engine_at(i); i++) {
		const char *eol = strchr(row, '\n');
		buf_reset(&want);
		buf_addf(&want, "`%s`", engine_at(i)->desc.name);
		ok(strstr(row, want.s) && strstr(row, want.s) < eol,
		   "plan.md's type row names %s", want.s);
	}
	buf_release(&path);
	buf_release(&doc);
	buf_release(&want);
}

int main(void)
{
	const char *src = getenv("XRUN_SOURCE_DIR");
	if (!src)
		src = XRUN_SOURCE_DIR;
	tap_plan(208);
	test_fields();
	test_version();
	test_metrics();
	test_timeout();
	test_ref_params();
	test_schema(src);
	test_doc(src);
	return tap_done();
}
