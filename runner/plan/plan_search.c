/*
 * The plan's `search:` section (schema/plan.md, "Rate search"): the
 * offered load a search sets, its range and width, the goals (RFC 9971
 * "Search Goal": loss ratio, final trial duration, duration sum, exceed
 * ratio), and where each trial's loss ratio comes from. Read after the
 * engine section, so that the load parameter is checked against it here.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arena.h"
#include "plan_build.h"
#include "units.h"
#include "banned.h"

const char *const plan_search_keys[] = {
    "param", "min", "max", "width", "loss", "trials", "unsent", "goals", NULL};
static const char *const goal_keys[] = {"name", "loss",	  "trial",
					"sum",	"exceed", NULL};

/* "0.5%" -> 0.005; a bare number is the fraction itself. Into *out when
 * it lies in [0, hi); else an error naming what. */
static int ratio(struct pctx *c, const struct ynode *n, const char *what,
		 double hi, double *out)
{
	const char *s = pc_str(c, n, what);
	char *end;
	double v;
	if (!s)
		return -XR_EPLAN;
	v = strtod(s, &end);
	if (end != s && *end == '%' && !end[1])
		v /= 100;
	else if (end == s || *end)
		v = -1;
	if (!(v >= 0 && v < hi)) {
		pc_err(c, n,
		       "'%s' must be a ratio from 0%% to below %g%% (e.g. "
		       "0.5%%; a bare number is a fraction), not '%s'",
		       what, hi * 100, s);
		return -XR_EPLAN;
	}
	*out = v;
	return 0;
}

/* "20mbit", "1gbit", "200M", "1500": a load above 0. */
static int load(struct pctx *c, const struct ynode *n, const char *what,
		double *out)
{
	const char *s = pc_str(c, n, what), *why = "not a number";
	char tmp[64];
	size_t len;
	if (!s)
		return -XR_EPLAN;
	len = strlen(s);
	if (len < sizeof tmp) {
		memcpy(tmp, s, len + 1);
		/* iperf3 and tc write rates as 20m and 20mbit */
		if (len > 3 && !strcasecmp(tmp + len - 3, "bit"))
			tmp[len -= 3] = 0;
		if (len && strchr("kmgt", tmp[len - 1]))
			tmp[len - 1] = (char)(tmp[len - 1] - 'a' + 'A');
		if (units_parse(tmp, UNITS_COUNT, out, &why) == 0 && *out > 0)
			return 0;
	}
	pc_err(c, n,
	       "'%s' must be a load above 0 such as 20mbit, 1g or 1500, not "
	       "'%s' (%s)",
	       what, s, why);
	return -XR_EPLAN;
}

static void duration(struct pctx *c, const struct ynode *g, const char *key,
		     const char *what, double *out)
{
	const struct ynode *x = yn_get(g, key);
	if (!x)
		return;
	if (pc_duration(c, x, what, out) == 0 && !(*out > 0))
		pc_err(c, x, "'%s' must be above 0", what);
}

static void build_goal(struct pctx *c, const struct ynode *g, int i,
		       struct plan_search_goal *out)
{
	const struct ynode *x;
	char what[48];
	out->pos = pc_pos(g);
	out->trial = 1;
	out->sum = 0;
	out->exceed = 0.5;
	if (pc_map(c, g, "a search goal") < 0)
		return;
	pc_keys(c, g, goal_keys, "search goal");
	if (!(x = yn_get(g, "name")))
		pc_err(c, g, "search goal %d needs name: (e.g. ndr)", i + 1);
	else if ((out->name = pc_str(c, x, "name")) &&
		 !pc_name_ok(out->name, 0))
		pc_err(c, x,
		       "goal name '%s' must be letters, digits, '_' or '-'",
		       out->name);
	snprintf(what, sizeof what, "goals[%d].loss", i + 1);
	if (!(x = yn_get(g, "loss")))
		pc_err(c, g, "search goal %d needs loss: (0%% for ndr)", i + 1);
	else
		ratio(c, x, what, 1, &out->loss);
	snprintf(what, sizeof what, "goals[%d].trial", i + 1);
	duration(c, g, "trial", what, &out->trial);
	snprintf(what, sizeof what, "goals[%d].sum", i + 1);
	duration(c, g, "sum", what, &out->sum);
	/* RFC 9971 advises against a sum below the trial duration. */
	if (out->sum < out->trial)
		out->sum = out->trial;
	snprintf(what, sizeof what, "goals[%d].exceed", i + 1);
	if ((x = yn_get(g, "exceed")))
		ratio(c, x, what, 1, &out->exceed);
}

static void build_goals(struct pctx *c, const struct ynode *n,
			const struct ynode *parent, struct plan_search *s)
{
	int i, j;
	if (!n || n->kind != YN_SEQ || n->n < 1) {
		pc_err(c, n ? n : parent,
		       "'search.goals' must be a list of goals, e.g. - { "
		       "name: ndr, loss: 0%%, trial: 1s, sum: 21s, exceed: "
		       "50%% }");
		return;
	}
	s->goals = arena_alloc(c->a, (size_t)n->n * sizeof *s->goals);
	if (!s->goals) {
		c->nomem = 1;
		return;
	}
	memset(s->goals, 0, (size_t)n->n * sizeof *s->goals);
	s->ngoals = n->n;
	for (i = 0; i < n->n; i++)
		build_goal(c, n->kids[i], i, &s->goals[i]);
	for (i = 0; i < n->n; i++)
		for (j = 0; j < i; j++)
			if (s->goals[i].name && s->goals[j].name &&
			    !strcmp(s->goals[i].name, s->goals[j].name))
				pc_err(c, n->kids[i],
				       "search goal '%s' is named twice",
				       s->goals[i].name);
}

/* Does the engine's run argv name {{param}}? */
static int run_names(const struct plan *p, const char *param)
{
	char ph[80];
	int i;
	snprintf(ph, sizeof ph, "{{%s}}", param);
	for (i = 0; p->engine.run.argv && p->engine.run.argv[i]; i++)
		if (strstr(p->engine.run.argv[i], ph))
			return 1;
	return 0;
}

static int truthy(const char *s)
{
	return s && (!strcasecmp(s, "true") || !strcasecmp(s, "yes") ||
		     !strcmp(s, "1"));
}

/* The load parameter against the engine; a loss ratio the engine has. */
static void check_refs(struct pctx *c, const struct ynode *n)
{
	struct plan *p = c->p;
	struct plan_search *s = &p->search;
	const struct ynode *at = yn_get(n, "param");
	int i;
	if (!s->param || !c->ops)
		return;
	if (c->ops->reads_run) {
		if (!run_names(p, s->param))
			pc_err(c, at,
			       "search.param '%s' is not a placeholder of "
			       "engine.run (write {{%s}} where the command "
			       "takes its load)",
			       s->param, s->param);
		if (!s->loss)
			pc_err(
			    c, n,
			    "search needs loss: the metric of engine.metrics "
			    "holding each trial's loss ratio");
		for (i = 0; s->loss && i < p->engine.nmetrics; i++)
			if (!strcmp(p->engine.metrics[i].name, s->loss))
				break;
		if (s->loss && i == p->engine.nmetrics)
			pc_err(c, yn_get(n, "loss"),
			       "search.loss '%s' is not a metric of "
			       "engine.metrics",
			       s->loss);
		return;
	}
	if (c->ops->has_param && !c->ops->has_param(s->param))
		pc_err(c, at,
		       "search.param '%s' is not a parameter of engine "
		       "'%s'",
		       s->param, p->engine.type);
	/* Without a metric named, the loss is a UDP engine's packets. */
	if (!s->loss && c->ops->has_param && c->ops->has_param("udp")) {
		for (i = 0; i < p->engine.nparams; i++)
			if (!strcmp(p->engine.params[i].key, "udp"))
				break;
		if (i == p->engine.nparams ||
		    !truthy(p->engine.params[i].value))
			pc_err(c, n,
			       "search needs udp: true in the engine section "
			       "(a trial's loss ratio is its UDP datagrams "
			       "lost)");
	}
	for (i = 0; i < p->nfactors; i++)
		if (p->factors[i].param &&
		    !strcmp(p->factors[i].param, s->param))
			pc_err(c, at,
			       "factor '%s' sets '%s', which the search sets "
			       "(a searched load cannot be a factor too)",
			       p->factors[i].name, s->param);
}

void plan_build_search(struct pctx *c, const struct ynode *n)
{
	struct plan_search *s = &c->p->search;
	const struct ynode *x;
	long long v;
	s->pos = pc_pos(n);
	s->width = 0.005;
	s->max_trials = PLAN_SEARCH_MAX_TRIALS;
	s->unsent = 0.001;
	if (pc_map(c, n, "search") < 0)
		return;
	pc_keys(c, n, plan_search_keys, "search");
	if (!(x = yn_get(n, "param")))
		pc_err(c, n,
		       "search needs param: (the engine parameter that "
		       "sets the offered load, e.g. bitrate)");
	else {
		s->param = pc_str(c, x, "search.param");
		s->param_pos = pc_pos(x);
	}
	if (!(x = yn_get(n, "min")))
		pc_err(c, n, "search needs min: (the lowest load to try)");
	else
		load(c, x, "search.min", &s->min);
	if (!(x = yn_get(n, "max")))
		pc_err(c, n, "search needs max: (the highest load to try)");
	else if (load(c, x, "search.max", &s->max) == 0 && s->min > 0 &&
		 !(s->max > s->min))
		pc_err(c, x, "'search.max' must be above 'search.min'");
	if ((x = yn_get(n, "width")) &&
	    ratio(c, x, "search.width", 1, &s->width) == 0 && !(s->width > 0))
		pc_err(c, x, "'search.width' must be above 0%%");
	if ((x = yn_get(n, "loss")))
		s->loss = pc_str(c, x, "search.loss");
	if ((x = yn_get(n, "trials")) &&
	    pc_int(c, x, "search.trials", 1, 10000, &v) == 0)
		s->max_trials = (int)v;
	if ((x = yn_get(n, "unsent")) &&
	    pc_duration(c, x, "search.unsent", &s->unsent) == 0 &&
	    s->unsent > 1)
		pc_err(c, x, "'search.unsent' must be at most 1s");
	build_goals(c, yn_get(n, "goals"), n, s);
	check_refs(c, n);
}
