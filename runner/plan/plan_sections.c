/*
 * The plan's hosts, vars and engine sections (part of the loader, see
 * plan_build.h): how xrun reaches each host, the values placeholders may
 * name, and what one run executes. Keys of the engine section that are not
 * fixed become engine parameters, judged by the engine's own check().
 *
 * SPDX-License-Identifier: MIT
 */
#include "plan_build.h"
#include "pctx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "suggest.h"
#include "units.h"
#include "banned.h"

/* ---- hosts and vars ---------------------------------------------------- */

static const char *const host_keys[] = {
    "ssh",   "port", "identity", "ssh_options", "netns",   "address", "iface",
    "shell", "os",   "wait",	 "path",	"session", NULL};

/* path: absolute directories, each one PATH entry (no ':'), for the
 * commands of an ssh host with a POSIX shell. */
static void build_host_path(struct pctx *c, struct plan_host *h,
			    const struct ynode *v)
{
	const struct ynode *x = yn_get(v, "path");
	if (!x || pc_argv(c, x, "path", &h->path) < 0)
		return;
	if (!h->ssh)
		pc_err(c, x,
		       "'path' is the PATH of an ssh host's commands and host "
		       "'%s' has no 'ssh'",
		       h->name);
	else if (h->shell == PLAN_SHELL_POWERSHELL)
		pc_err(c, x,
		       "'path' is for sh hosts; host '%s' uses PowerShell (set "
		       "the system Path on Windows)",
		       h->name);
	for (int i = 0; i < h->path.argc; i++) {
		const char *d = h->path.argv[i];
		if (d[0] != '/' || strchr(d, ':') || strchr(d, '\n'))
			pc_err(c, x,
			       "path entry '%s' is not an absolute directory "
			       "(it must start with '/' and hold no ':')",
			       d);
	}
}

/* os: linux | windows | macos. A PowerShell host is Windows unless told
 * otherwise, and a Windows host's commands are quoted for PowerShell. */
static void build_host_os(struct pctx *c, struct plan_host *h,
			  const struct ynode *v)
{
	static const char *const names[] = {"linux", "windows", "macos"};
	const struct ynode *x = yn_get(v, "os");
	const char *s = x ? pc_str(c, x, "os") : NULL;
	int i;
	if (!x) {
		if (h->shell == PLAN_SHELL_POWERSHELL) {
			h->os = PLAN_OS_WINDOWS;
			h->os_given = 1;
		}
		return;
	}
	if (!s)
		return;
	for (i = 0; i < 3 && strcmp(s, names[i]) != 0; i++)
		;
	if (i == 3) {
		pc_err(c, x, "unknown os '%s' (valid: linux, windows, macos)",
		       s);
		return;
	}
	h->os = (enum plan_os)i;
	h->os_given = 1;
	if (h->os == PLAN_OS_WINDOWS && !yn_get(v, "shell"))
		h->shell = PLAN_SHELL_POWERSHELL;
}

/*
 * An interface name the host's kernel can have (issue 40: a typo, an
 * alias label "eth0:1" or a name over 15 bytes passed validate, and every
 * run then lost its nic, tcp and cpu counters): Linux's dev_valid_name()
 * (net/core/dev.c) refuses "", ".", "..", a name of IFNAMSIZ (16) bytes
 * or more, '/', ':' and white space (isspace); macOS and the BSDs hold
 * names in IFNAMSIZ too. Control characters, quotes and the backslash are
 * refused as the host readings refuse them (sysread_iface_ok). A Windows
 * adapter's name (shell: powershell, os: windows) follows other rules,
 * checked on the host; a {{placeholder}} is checked when expanded.
 */
static void check_iface(struct pctx *c, const struct ynode *x,
			const struct plan_host *h)
{
	const char *s = h->iface;
	size_t n = strlen(s), i;
	int bad = n == 0 || n > 15 || !strcmp(s, ".") || !strcmp(s, "..");
	if (h->shell == PLAN_SHELL_POWERSHELL || h->os == PLAN_OS_WINDOWS ||
	    strstr(s, "{{"))
		return;
	for (i = 0; !bad && i < n; i++) {
		unsigned char ch = (unsigned char)s[i];
		bad = ch <= ' ' || ch == 0x7f || ch == '/' || ch == ':' ||
		      ch == '\'' || ch == '"' || ch == '\\';
	}
	if (bad)
		pc_err(c, x,
		       "invalid interface name '%s' in host '%s' (the "
		       "kernel's rule: 1 to 15 bytes, not '.' or '..', "
		       "without '/', ':' or white space; quotes and '\\' "
		       "are refused too)",
		       s, h->name);
}

static void build_host(struct pctx *c, struct plan_host *h,
		       const struct ynode *v)
{
	const struct ynode *x;
	char where[160];
	long long port;
	snprintf(where, sizeof where, "host '%s'", h->name);
	if (yn_is_null(v))
		return; /* "name:" alone: a host with defaults */
	if (pc_map(c, v, where) < 0)
		return;
	pc_keys(c, v, host_keys, where);
	if ((x = yn_get(v, "ssh"))) {
		h->ssh = pc_str(c, x, "ssh");
		if (h->ssh && strcmp(h->name, "local") == 0)
			pc_err(c, x,
			       "host 'local' is this machine and takes no "
			       "'ssh' (define another host name)");
	}
	if ((x = yn_get(v, "port")) &&
	    pc_int(c, x, "port", 1, 65535, &port) == 0)
		h->port = (int)port;
	if ((x = yn_get(v, "identity")))
		h->identity = pc_str(c, x, "identity");
	if ((x = yn_get(v, "ssh_options")))
		pc_argv(c, x, "ssh_options", &h->ssh_options);
	if ((x = yn_get(v, "netns"))) {
		h->netns = pc_str(c, x, "netns");
		if (h->netns && strcmp(h->name, "local") == 0)
			pc_err(c, x,
			       "host 'local' is this machine and takes no "
			       "'netns' (define another host name)");
	}
	if ((x = yn_get(v, "address")))
		h->address = pc_str(c, x, "address");
	if ((x = yn_get(v, "iface")))
		h->iface = pc_str(c, x, "iface");
	if ((x = yn_get(v, "shell"))) {
		const char *s = pc_str(c, x, "shell");
		if (s && strcmp(s, "sh") == 0)
			h->shell = PLAN_SHELL_SH;
		else if (s && strcmp(s, "powershell") == 0)
			h->shell = PLAN_SHELL_POWERSHELL;
		else if (s)
			pc_err(c, x,
			       "unknown shell '%s' (valid: sh, powershell)", s);
	}
	build_host_os(c, h, v);
	if ((x = yn_get(v, "iface")) && h->iface)
		check_iface(c, x, h);
	build_host_path(c, h, v);
	if ((x = yn_get(v, "wait")))
		pc_duration(c, x, "wait", &h->wait);
	if ((x = yn_get(v, "session"))) {
		int on = 1;
		if (pc_bool(c, x, "session", &on) == 0)
			h->no_session = !on;
		if (!h->ssh)
			pc_warn(c, x,
				"'session' is the persistent shell of an ssh "
				"host and host '%s' has no 'ssh'",
				h->name);
	}
	if (h->port && !h->ssh)
		pc_warn(c, yn_get(v, "port"),
			"'port' is the ssh port and host '%s' has no 'ssh'",
			h->name);
}

void plan_build_hosts(struct pctx *c, const struct ynode *n)
{
	struct plan *p = c->p;
	int i, cap = 1 + (n && n->kind == YN_MAP ? n->n : 0);
	p->hosts = arena_alloc(c->a, (size_t)cap * sizeof *p->hosts);
	if (!p->hosts) {
		c->nomem = 1;
		return;
	}
	p->hosts[0].name = "local";
	p->hosts[0].address = "127.0.0.1";
	p->nhosts = 1;
	if (!n || pc_map(c, n, "hosts") < 0)
		return;
	for (i = 0; i < n->n; i++) {
		const struct ynode *k = yn_key(n, i);
		struct plan_host *h;
		if (!pc_name_ok(k->s, 1)) {
			pc_err(c, k,
			       "bad host name '%s' (use letters, digits, '_', "
			       "'-' and '.')",
			       k->s);
			continue;
		}
		if (strcmp(k->s, "local") == 0) {
			h = &p->hosts[0];
		} else {
			h = &p->hosts[p->nhosts++];
			h->name = k->s;
		}
		h->pos = pc_pos(k);
		build_host(c, h, yn_val(n, i));
	}
}

/* Built-ins whose value only a run knows are reserved; the others (iface,
 * client, ...) may be given a plan-wide value as a var. */
static int reserved_var(const char *name)
{
	int i = placeholder_find(name);
	return i >= 0 && placeholders[i].set != PH_BY_PLAN;
}

static int cmp_var(const void *x, const void *y, void *ctx)
{
	const struct plan_kv *v = ctx;
	return strcmp(v[*(const int *)x].key, v[*(const int *)y].key);
}

void plan_build_vars(struct pctx *c, const struct ynode *n)
{
	struct plan *p = c->p;
	int i;
	if (pc_map(c, n, "vars") < 0)
		return;
	p->vars = arena_alloc(c->a, (size_t)(n->n + 1) * sizeof *p->vars);
	if (!p->vars) {
		c->nomem = 1;
		return;
	}
	for (i = 0; i < n->n; i++) {
		const struct ynode *k = yn_key(n, i), *v = yn_val(n, i);
		struct plan_kv *kv;
		char what[160];
		if (!pc_name_ok(k->s, 0)) {
			pc_err(c, k,
			       "bad var name '%s' (use letters, digits, '_' "
			       "and '-')",
			       k->s);
			continue;
		}
		if (reserved_var(k->s)) {
			pc_err(c, k,
			       "var name '%s' is reserved: xrun sets it for "
			       "each run",
			       k->s);
			continue;
		}
		snprintf(what, sizeof what, "vars.%s", k->s);
		kv = &p->vars[p->nvars];
		kv->key = k->s;
		kv->pos = pc_pos(k);
		if (v->kind == YN_SCALAR && yn_is_null(v))
			kv->value = "";
		else if (!(kv->value = pc_str(c, v, what)))
			continue;
		p->nvars++;
	}
	c->varidx = malloc(((size_t)p->nvars + 1) * sizeof *c->varidx);
	if (!c->varidx) {
		c->nomem = 1;
		return;
	}
	for (i = 0; i < p->nvars; i++)
		c->varidx[i] = i;
	qsort_r(c->varidx, (size_t)p->nvars, sizeof *c->varidx, cmp_var,
		p->vars);
}

/* ---- engine -------------------------------------------------------------- */

static const char *const engine_keys[] = {
    "type", "client",  "server", "target",  "duration",
    "omit", "timeout", "run",	 "metrics", NULL};
static const char *const server_keys[] = {"host", "start", "port", NULL};
static const char *const metric_keys[] = {
    "json", "regex", "bytes", "unit",	   "better",  "series",
    "host", "stat",  "rate",  "thousands", "decimal", NULL};
static const char *const series_only_keys[] = {"host", "stat", "rate", NULL};

const char *plan_series_stat_name(int stat)
{
#define PLAN_STAT_WORD(e, word) word,
	static const char *const words[] = {PLAN_SERIES_STATS(PLAN_STAT_WORD)};
#undef PLAN_STAT_WORD
	return stat >= 0 && stat < PLAN_STAT_COUNT ? words[stat] : "";
}

/* The keys of a series metric (series, host, stat, rate): a statistic of
 * one series of the run, whatever the engine (schema/plan.md, "Series
 * metrics"). */
static void build_series_metric(struct pctx *c, struct plan_metric *m,
				const struct ynode *v)
{
	static const char *const sources[] = {"json", "regex", "bytes", NULL};
	const struct ynode *x;
	const char *s;
	int i;
	if (!(x = yn_get(v, "series"))) {
		for (i = 0; series_only_keys[i]; i++)
			if ((x = yn_get(v, series_only_keys[i])))
				pc_err(c, x,
				       "metric '%s': '%s' applies to a series "
				       "metric only (add 'series: NAME', e.g. "
				       "series: engine.throughput)",
				       m->name, series_only_keys[i]);
		return;
	}
	m->series = pc_str(c, x, "series");
	if (m->series && !pc_name_ok(m->series, 1))
		pc_err(c, x,
		       "metric '%s': bad series name '%s' (e.g. "
		       "engine.throughput, nic.rx_bytes, cpu.3.busy)",
		       m->name, m->series);
	for (i = 0; sources[i]; i++)
		if ((x = yn_get(v, sources[i])))
			pc_err(c, x,
			       "metric '%s' has two sources, 'series' and "
			       "'%s': give one",
			       m->name, sources[i]);
	if ((x = yn_get(v, "host"))) {
		m->host = pc_str(c, x, "host");
		pc_host_ref(c, m->host, x, 1);
	}
	m->stat = PLAN_STAT_MEDIAN;
	if ((x = yn_get(v, "stat")) && (s = pc_str(c, x, "stat"))) {
		for (i = 0; i < PLAN_STAT_COUNT; i++)
			if (!strcmp(s, plan_series_stat_name(i)))
				break;
		if (i == PLAN_STAT_COUNT)
			pc_err(c, x,
			       "metric '%s': unknown stat '%s' (use median, "
			       "p95, max, min, mean or delta)",
			       m->name, s);
		m->stat = i < PLAN_STAT_COUNT ? i : PLAN_STAT_MEDIAN;
	}
	if ((x = yn_get(v, "rate")))
		pc_bool(c, x, "rate", &m->rate);
}

/* Does the engine section hold a metric the engine extracts (not a
 * series metric)? */
static const struct ynode *extracted_metric(const struct plan_engine *e,
					    const struct ynode *metrics)
{
	int i;
	for (i = 0; i < e->nmetrics; i++)
		if (!e->metrics[i].series)
			return yn_get(metrics, e->metrics[i].name);
	return NULL;
}

/* k: where the parameter is named; v: its value (for placeholders) */
static void add_param(struct pctx *c, const char *key, const char *value,
		      const struct ynode *k, const struct ynode *v)
{
	struct plan_engine *e = &c->p->engine;
	e->params[e->nparams].key = key;
	e->params[e->nparams].value = value;
	e->params[e->nparams].pos = pc_pos(k);
	e->nparams++;
	pc_tmpl(c, value, v);
}

static void build_metric(struct pctx *c, struct plan_metric *m,
			 const struct ynode *k, const struct ynode *v)
{
	const struct ynode *x;
	char where[160];
	m->name = k->s;
	m->pos = pc_pos(k);
	snprintf(where, sizeof where, "metric '%s'", k->s);
	if (!pc_name_ok(k->s, 1))
		pc_err(c, k,
		       "bad metric name '%s' (use letters, digits, '_', '-' "
		       "and '.')",
		       k->s);
	if (pc_map(c, v, where) < 0)
		return;
	pc_keys(c, v, metric_keys, where);
	/* what a source means (pointer syntax, regex groups, units) is the
	 * command engine's check(); here only the shape */
	if ((x = yn_get(v, "json"))) {
		m->json = pc_str(c, x, "json");
	}
	if ((x = yn_get(v, "regex"))) {
		m->regex = pc_str(c, x, "regex");
	}
	if ((x = yn_get(v, "thousands")))
		m->thousands = pc_str(c, x, "thousands");
	if ((x = yn_get(v, "decimal")))
		m->decimal = pc_str(c, x, "decimal");
	if ((x = yn_get(v, "bytes"))) {
		const char *s = pc_str(c, x, "bytes"), *why;
		if (s && (units_parse(s, UNITS_COUNT, &m->bytes, &why) < 0 ||
			  m->bytes <= 0))
			pc_err(
			    c, x,
			    "bad byte count '%s' for 'bytes' (e.g. 2147483648 "
			    "or 2Gi)",
			    s);
		m->unit = "B/s";
	}
	if ((x = yn_get(v, "unit"))) {
		const char *u = pc_str(c, x, "unit");
		/* a bytes: metric is always bytes / elapsed seconds */
		if (u && m->bytes > 0 && strcmp(u, "B/s"))
			pc_err(c, x,
			       "'unit: %s' does not apply to a 'bytes' metric: "
			       "its value is bytes per elapsed second (B/s); "
			       "to show it in %s, set report: { unit: %s }",
			       u, u, u);
		else
			m->unit = u;
	}
	build_series_metric(c, m, v);
	if (m->unit && m->series) {
		double f;
		const char *base;
		if (units_metric(m->unit, &f, &base) < 0)
			pc_err(c, yn_get(v, "unit"),
			       "metric '%s': unknown unit '%s' (valid: bit/s, "
			       "Mbit/s, B/s, s, ms, B, %%, count, ...)",
			       m->name, m->unit);
	}
	if (!m->unit && !m->series)
		m->unit = "1";
	if ((x = yn_get(v, "better"))) {
		const char *s = pc_str(c, x, "better");
		if (s && !strcmp(s, "higher"))
			m->better = 1;
		else if (s && !strcmp(s, "lower"))
			m->better = -1;
		else if (s)
			pc_err(c, x,
			       "bad value '%s' for 'better' (use higher or "
			       "lower)",
			       s);
	}
}

static void build_server(struct pctx *c, const struct ynode *v)
{
	struct plan_engine *e = &c->p->engine;
	const struct ynode *x;
	e->server_start = 1;
	if (v->kind == YN_SCALAR) {
		e->server_host = pc_str(c, v, "engine.server");
		pc_host_ref(c, e->server_host, v, 0);
		return;
	}
	if (pc_map(c, v, "engine.server") < 0)
		return;
	pc_keys(c, v, server_keys, "'engine.server'");
	if ((x = yn_get(v, "host"))) {
		e->server_host = pc_str(c, x, "engine.server.host");
		pc_host_ref(c, e->server_host, x, 0);
	} else {
		e->server_host = "local";
	}
	if ((x = yn_get(v, "start")))
		pc_bool(c, x, "engine.server.start", &e->server_start);
	if ((x = yn_get(v, "port"))) {
		long long port;
		if (pc_int(c, x, "engine.server.port", 1, 65535, &port) == 0) {
			int i;
			for (i = 0; i < e->nparams; i++)
				if (strcmp(e->params[i].key, "port") == 0)
					break;
			if (i == e->nparams)
				add_param(c, "port", x->s, x, x);
			else
				pc_err(c, x,
				       "server port given twice: here and as "
				       "engine 'port'");
		}
	}
}

/* What the engine's descriptor says of the section: keys it ignores, the
 * server or target it needs. */
static void plan_sections_engine_desc_checks(struct pctx *c,
					     const struct ynode *n)
{
	const struct plan_engine *e = &c->p->engine;
	const struct ynode *x;
	if (c->ops && !c->ops->reads_run && (x = yn_get(n, "metrics")) &&
	    (x = extracted_metric(e, x)))
		pc_warn(c, x,
			"metrics other than series metrics are read by an "
			"engine that runs a command ('run'); engine '%s' "
			"ignores them (a series metric names its 'series:')",
			e->type);
	if (c->ops && c->ops->has_server && !e->server_host && !e->target)
		pc_err(c, n,
		       "engine '%s' needs 'server' (a host) or 'target' (an "
		       "address to connect to)",
		       e->type);
}

void plan_build_engine(struct pctx *c, const struct ynode *n,
		       const struct ynode *root)
{
	struct plan_engine *e = &c->p->engine;
	const struct ynode *x;
	int i, nfixed = 0;
	e->client = "local";
	e->duration = PLAN_DEFAULT_DURATION;
	if (!n) {
		pc_err(c, root,
		       "missing 'engine' section (e.g. engine: { type: iperf3, "
		       "server: local })");
		return;
	}
	c->engine_node = n;
	if (pc_map(c, n, "engine") < 0)
		return;
	e->pos = pc_pos(n);
	e->params = arena_alloc(c->a, (size_t)(n->n + 2) * sizeof *e->params);
	if (!e->params) {
		c->nomem = 1;
		return;
	}
	if ((x = yn_get(n, "type"))) {
		e->type = pc_str(c, x, "engine.type");
		if (e->type && c->cat &&
		    !(c->ops = c->cat->find_engine(e->type)))
			pc_err(c, x, "unknown engine '%s' (known: %s)", e->type,
			       c->cat->engine_names());
		if (c->ops && c->ops->default_duration > 0)
			e->duration = c->ops->default_duration;
	} else if (c->cat) {
		pc_err(c, n, "missing 'type' in 'engine' (known: %s)",
		       c->cat->engine_names());
	} else {
		pc_err(c, n, "missing 'type' in 'engine'");
	}
	if ((x = yn_get(n, "client"))) {
		e->client = pc_str(c, x, "engine.client");
		pc_host_ref(c, e->client, x, 0);
	}
	if ((x = yn_get(n, "target"))) {
		e->target = pc_str(c, x, "engine.target");
		c->target_node = x;
		pc_tmpl(c, e->target, x);
	}
	if ((x = yn_get(n, "duration")))
		pc_duration(c, x, "engine.duration", &e->duration);
	if ((x = yn_get(n, "omit")))
		pc_duration(c, x, "engine.omit", &e->omit);
	if ((x = yn_get(n, "timeout")))
		pc_duration(c, x, "engine.timeout", &e->timeout);
	if ((x = yn_get(n, "run")))
		pc_argv(c, x, "engine.run", &e->run);
	if ((x = yn_get(n, "metrics")) && pc_map(c, x, "engine.metrics") == 0) {
		e->metrics =
		    arena_alloc(c->a, (size_t)(x->n + 1) * sizeof *e->metrics);
		if (!e->metrics) {
			c->nomem = 1;
			return;
		}
		for (i = 0; i < x->n; i++)
			build_metric(c, &e->metrics[e->nmetrics++],
				     yn_key(x, i), yn_val(x, i));
	}
	/* every other key is an engine parameter, which the engine checks;
	 * a near miss of a fixed key is a typo, said here with a hint */
	while (engine_keys[nfixed])
		nfixed++;
	for (i = 0; i < n->n; i++) {
		const struct ynode *k = yn_key(n, i), *v = yn_val(n, i);
		char what[160], hint[600];
		if (pc_is_key(k->s, engine_keys) || strcmp(k->s, "server") == 0)
			continue;
		if (!(c->ops && c->ops->has_param && c->ops->has_param(k->s)) &&
		    suggest(k->s, engine_keys, (size_t)nfixed)) {
			pc_hint(hint, sizeof hint, k->s, engine_keys, nfixed);
			pc_err(c, k, "unknown key '%s' in 'engine'%s", k->s,
			       hint);
			continue;
		}
		snprintf(what, sizeof what, "engine.%s", k->s);
		if (v->kind != YN_SCALAR || yn_is_null(v)) {
			pc_err(c, v,
			       "engine parameter '%s' must be a scalar, not %s",
			       k->s, yn_kind_name(v));
			continue;
		}
		add_param(c, k->s, v->s, k, v);
	}
	if ((x = yn_get(n, "server")))
		build_server(c, x);
	plan_sections_engine_desc_checks(c, n);
}
