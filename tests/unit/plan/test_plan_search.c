/*
 * The plan key `search:` (schema/plan.md, "Rate search"): its values and
 * defaults (ratios with % or as fractions, loads with bit suffixes), each
 * error at its line and column, and schema/plan.schema.json's search
 * properties against the loader's plan_search_keys.
 *
 * SPDX-License-Identifier: MIT
 */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "catalog.h"
#include "plan.h"
#include "tap.h"
#include "xr_err.h"

static const char head[] = "xrun: 1\nname: s\n"
			   "engine:\n  type: iperf3\n  target: 127.0.0.1\n"
			   "  udp: true\n";
static const char cmd_head[] = "xrun: 1\nname: s\n"
			       "engine:\n  type: command\n"
			       "  run: [gen, \"{{rate}}\"]\n"
			       "  metrics:\n    lost: { regex: "
			       "'lost (\\S+)', unit: '1' }\n";

static struct plan *p;

/* Load h + extra: 0 and p, or the first error in msg. */
static int load(const char *h, const char *extra, char *msg, size_t msgsz)
{
	char text[2048];
	struct xr_diag d;
	int rc;
	plan_free(p);
	p = NULL;
	snprintf(text, sizeof text, "%s%s", h, extra);
	xr_diag_init(&d, "t.yaml");
	msg[0] = '\0';
	rc = plan_load_mem("t.yaml", text, strlen(text), catalog_builtin(), &p,
			   &d);
	if (d.nerr)
		snprintf(msg, msgsz, "%d:%d: %s", d.items[0].line,
			 d.items[0].col, d.items[0].msg);
	xr_diag_release(&d);
	return rc;
}

static void values(void)
{
	char msg[512];
	int rc = load(head,
		      "search:\n  param: bitrate\n  min: 20mbit\n  max: 1gbit\n"
		      "  goals:\n"
		      "    - { name: ndr, loss: 0%, trial: 1s, sum: 21s, "
		      "exceed: 50% }\n"
		      "    - { name: pdr, loss: 0.005 }\n",
		      msg, sizeof msg);
	ok(rc == 0, "the issue's search loads: %s", msg);
	if (rc)
		return;
	is_str(p->search.param, "bitrate", "param");
	is_near(p->search.min, 20e6, 0, "min 20mbit = 20e6 bit/s");
	is_near(p->search.max, 1e9, 0, "max 1gbit = 1e9 bit/s");
	is_near(p->search.width, 0.005, 1e-15, "width default 0.5%");
	is_int(p->search.max_trials, 100, "trials default 100");
	is_int(p->search.ngoals, 2, "two goals");
	is_near(p->search.goals[0].sum, 21, 0, "ndr sum 21 s");
	is_near(p->search.goals[0].exceed, 0.5, 0, "ndr exceed 50%");
	is_near(p->search.goals[1].loss, 0.005, 0, "pdr loss 0.005");
	/* pdr's defaults: trial 1 s, sum = trial, exceed 50% */
	ok(p->search.goals[1].trial == 1 && p->search.goals[1].sum == 1 &&
	       p->search.goals[1].exceed == 0.5,
	   "goal defaults: trial 1s, sum = trial, exceed 50%%");
	rc = load(cmd_head,
		  "search:\n  param: rate\n  min: 1000\n  max: 2k\n"
		  "  loss: lost\n  goals: [{ name: ndr, loss: 0% }]\n",
		  msg, sizeof msg);
	ok(rc == 0 && p->search.max == 2000,
	   "command engine: a placeholder and a loss metric: %s", msg);
}

static const struct {
	const char *head, *yaml, *error;
} bad[] = {
    {head, "search: { min: 1, max: 2, goals: [{name: n, loss: 0}] }\n",
     "7:9: search needs param: (the engine parameter that sets the offered "
     "load, e.g. bitrate)"},
    {head,
     "search: { param: bitrat, min: 1, max: 2, goals: [{name: n, loss: "
     "0}] }\n",
     "7:18: search.param 'bitrat' is not a parameter of engine 'iperf3'"},
    {head,
     "search: { param: bitrate, min: 2m, max: 1m, goals: [{name: n, loss: "
     "0}] }\n",
     "7:41: 'search.max' must be above 'search.min'"},
    {head,
     "search: { param: bitrate, min: 2q, max: 3m, goals: [{name: n, loss: "
     "0}] }\n",
     "7:32: 'search.min' must be a load above 0 such as 20mbit, 1g or "
     "1500, not '2q' (unknown suffix (valid: K, M, G, T, Ki, Mi, Gi, Ti))"},
    {head,
     "search: { param: bitrate, min: 1, max: 3, goals: [{name: n, loss: "
     "5}] }\n",
     "7:67: 'goals[1].loss' must be a ratio from 0% to below 100% (e.g. "
     "0.5%; a bare number is a fraction), not '5'"},
    {head,
     "search: { param: bitrate, min: 1, max: 3, goals: [{name: n, loss: "
     "0}, {name: n, loss: 0}] }\n",
     "7:71: search goal 'n' is named twice"},
    {head, "search: { param: bitrate, min: 1, max: 3 }\n",
     "7:9: 'search.goals' must be a list of goals, e.g. - { name: ndr, "
     "loss: 0%, trial: 1s, sum: 21s, exceed: 50% }"},
    {"xrun: 1\nname: s\nengine:\n  type: iperf3\n  target: 127.0.0.1\n",
     "search: { param: bitrate, min: 1, max: 3, goals: [{name: n, loss: "
     "0}] }\n",
     "6:9: search needs udp: true in the engine section (a trial's loss "
     "ratio is its UDP datagrams lost)"},
    {cmd_head,
     "search: { param: speed, min: 1, max: 3, goals: [{name: n, loss: "
     "0}] }\n",
     "8:18: search.param 'speed' is not a placeholder of engine.run "
     "(write {{speed}} where the command takes its load)"},
    {cmd_head,
     "search: { param: rate, loss: drops, min: 1, max: 3, goals: [{name: "
     "n, loss: 0}] }\n",
     "8:30: search.loss 'drops' is not a metric of engine.metrics"},
};

static void errors(void)
{
	char msg[512];
	size_t i;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		int rc = load(bad[i].head, bad[i].yaml, msg, sizeof msg);
		ok(rc < 0 && !strcmp(msg, bad[i].error), "refused: %s", msg);
		if (strcmp(msg, bad[i].error))
			printf("# want: %s\n", bad[i].error);
	}
}

static void schema(void)
{
	struct buf path = BUF_INIT;
	json_error_t je;
	json_t *s, *props;
	size_t n = 0;
	int good = 1;
	buf_addf(&path, "%s/schema/plan.schema.json", XRUN_SOURCE_DIR);
	s = json_load_file(path.s, 0, &je);
	buf_release(&path);
	props = json_object_get(
	    json_object_get(json_object_get(s, "properties"), "search"),
	    "properties");
	for (n = 0; plan_search_keys[n]; n++)
		if (!json_object_get(props, plan_search_keys[n]))
			good = 0;
	ok(props && good && json_object_size(props) == n,
	   "search's schema properties are plan_search_keys");
	json_decref(s);
}

int main(void)
{
	tap_plan(23);
	values();
	errors();
	schema();
	plan_free(p);
	return tap_done();
}
