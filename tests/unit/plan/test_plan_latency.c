/*
 * The plan key `latency:` (schema/plan.md, "Latency under load"): its
 * defaults, its values, every error at its position; and
 * schema/plan.schema.json against the loader's tables: the top-level
 * properties are plan_top_keys, latency's are plan_latency_keys, its
 * probe enum is the probe table's names (latprobe_names).
 *
 * SPDX-License-Identifier: MIT
 */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "catalog.h"
#include "latprobe.h"
#include "plan.h"
#include "tap.h"
#include "xr_err.h"

static const char head[] = "xrun: 1\nname: s\nhosts:\n  a: {}\n"
			   "engine:\n  type: iperf3\n"
			   "  client: local\n  server: a\n";

/* Load head + extra: 0 and *out's latency, or the first error in msg. */
static int load(const char *extra, struct plan_latency *out, char *msg,
		size_t msgsz)
{
	char text[1024];
	struct plan *p = NULL;
	struct xr_diag d;
	int rc;

	snprintf(text, sizeof text, "%s%s", head, extra);
	xr_diag_init(&d, "t.yaml");
	msg[0] = '\0';
	rc = plan_load_mem("t.yaml", text, strlen(text), catalog_builtin(), &p,
			   &d);
	if (rc == 0 && p) {
		*out = p->latency;
		out->probe = out->probe ? "set" : NULL; /* arena goes */
		out->from = out->to = NULL;
	}
	if (d.nerr)
		snprintf(msg, msgsz, "%d:%d: %s", d.items[0].line,
			 d.items[0].col, d.items[0].msg);
	plan_free(p);
	xr_diag_release(&d);
	return rc;
}

static const struct {
	const char *yaml, *error; /* error NULL: loads */
} cases[] = {
    {"latency: { probe: ping }\n", NULL},
    {"latency: { probe: ping, from: a, to: local, interval: 20ms, "
     "idle: 0 }\n",
     NULL},
    {"latency: { probe: ping, to: 198.51.100.7 }\n", NULL},
    {"latency: { probe: ping, to: \"2001:db8::1\" }\n", NULL},
    {"latency: { probe: pnig }\n",
     "9:19: unknown latency probe 'pnig' (valid: ping, irtt)"},
    {"latency: { probe: pings }\n",
     "9:19: unknown latency probe 'pings' (did you mean 'ping'?"},
    {"latency: { from: a }\n", "9:10: latency needs probe: (ping or irtt)"},
    {"latency: { probe: ping, form: a }\n",
     "9:25: unknown key 'form' in latency (valid: probe, from, to, "
     "interval, idle)"},
    {"latency: { probe: ping, from: b }\n", "9:31: undefined host 'b'"},
    {"latency: { probe: ping, to: 198.51.100 }\n",
     "9:29: 'latency.to' is neither a host of the plan, a role nor an IP "
     "address: '198.51.100'"},
    {"latency: { probe: ping, interval: 5ms }\n",
     "9:35: 'latency.interval' must be between 10ms and 10s, not '5ms'"},
    {"latency: { probe: ping, idle: 200ms }\n",
     "9:31: 'latency.idle' must hold at least 3 probes (3 x the interval) "
     "or be 0"},
    {"latency: { probe: ping, idle: soon }\n",
     "9:31: bad duration 'soon' for 'latency.idle'"},
    {"latency: ping\n", "9:10: 'latency' must be a mapping"},
};

static void test_cases(void)
{
	struct plan_latency l;
	char msg[400];
	size_t i;

	ok(load("", &l, msg, sizeof msg) == 0 && !l.probe,
	   "no latency: no probe");
	ok(load("latency: { probe: ping }\n", &l, msg, sizeof msg) == 0 &&
	       l.probe && l.interval == 0.1 && l.idle == 2.0,
	   "defaults 100ms and 2s");
	ok(load("latency: { probe: ping, interval: 50ms, idle: 1s }\n", &l, msg,
		sizeof msg) == 0 &&
	       l.interval == 0.05 && l.idle == 1.0,
	   "interval and idle read");
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int rc = load(cases[i].yaml, &l, msg, sizeof msg);
		if (!cases[i].error)
			ok(rc == 0, "loads: %s%s", cases[i].yaml, msg);
		else
			ok(rc < 0 && !strncmp(msg, cases[i].error,
					      strlen(cases[i].error)),
			   "%s -> '%s' (got '%s')", cases[i].yaml,
			   cases[i].error, msg);
	}
}

/* The names of object o's "properties" equal names[] (in any order). */
static int same_keys(json_t *o, const char *const *names, const char *what)
{
	json_t *props = json_object_get(o, "properties");
	size_t n = 0, k;
	int good = props != NULL;
	for (k = 0; names[k]; k++, n++)
		if (!json_object_get(props, names[k])) {
			printf("# %s: '%s' is not in the schema\n", what,
			       names[k]);
			good = 0;
		}
	if (json_object_size(props) != n) {
		printf("# %s: the schema has %zu properties, the loader %zu\n",
		       what, json_object_size(props), n);
		good = 0;
	}
	return good;
}

static void test_schema(void)
{
	struct buf path = BUF_INIT;
	json_error_t je;
	json_t *s, *lat, *probes;
	size_t k, n;
	int good = 1;

	buf_addf(&path, "%s/schema/plan.schema.json", XRUN_SOURCE_DIR);
	s = json_load_file(path.s, 0, &je);
	buf_release(&path);
	ok(s != NULL, "read plan.schema.json: %s", s ? "" : je.text);
	if (!s)
		return;
	ok(same_keys(s, plan_top_keys, "top level"),
	   "top-level properties are the loader's keys");
	lat = json_object_get(json_object_get(s, "properties"), "latency");
	ok(same_keys(lat, plan_latency_keys, "latency"),
	   "latency's properties are the loader's keys");
	probes = json_object_get(
	    json_object_get(json_object_get(lat, "properties"), "probe"),
	    "enum");
	for (n = 0; latprobe_names[n]; n++)
		;
	for (k = 0; k < n; k++)
		if (!json_is_string(json_array_get(probes, k)) ||
		    strcmp(json_string_value(json_array_get(probes, k)),
			   latprobe_names[k]))
			good = 0;
	ok(good && json_array_size(probes) == n,
	   "latency.probe's enum is the probe table");
	json_decref(s);
}

int main(void)
{
	tap_plan(3 + 14 + 4);
	test_cases();
	test_schema();
	return tap_done();
}
