/*
 * Unit tests for the plan loader: the example loads with the right
 * model, each class of error is reported at the right line:col, hostile
 * input (alias bombs, deep nesting, big files, bad bytes) is refused
 * quickly, and the file hash is SHA-256 of the bytes.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "catalog.h"
#include "plan.h"
#include "sha256.h"
#include "tap.h"

static const char example[] =
    "xrun: 1                        # format version, required\n"
    "name: pcie-gen\n"
    "title: \"10GbE NIC x PCIe slot\"\n"
    "hosts:\n"
    "  server: { ssh: \"lab@server.example\", address: 192.0.2.10 }\n"
    "vars: { iface: eth0 }\n"
    "engine:\n"
    "  type: iperf3\n"
    "  client: local\n"
    "  server: { host: server, start: true }\n"
    "  duration: 10s\n"
    "  omit: 1s\n"
    "factors:\n"
    "  os:      { levels: [windows11, ubuntu2604], manual: \"Boot the "
    "client into {{os}}\" }\n"
    "  slot:\n"
    "    levels: [pcie4x1, pcie3x1]\n"
    "    manual: \"Move the card to the {{slot}} slot\"\n"
    "    verify: { probe: nic.pcie_link, expect: { pcie4x1: \"16.0 GT/s "
    "x1\", pcie3x1: \"8.0 GT/s x1\" } }\n"
    "  streams: { levels: [1, 2, 4, 8], param: parallel }\n"
    "  cc:\n"
    "    levels: [cubic, reno]\n"
    "    apply:  [sysctl, -w, \"net.ipv4.tcp_congestion_control={{cc}}\"]\n"
    "    verify: { run: [sysctl, -n, net.ipv4.tcp_congestion_control], "
    "expect: \"{{cc}}\" }\n"
    "    restore: true\n"
    "exclude:\n"
    "  - { os: windows11, cc: reno }\n"
    "repeat: 3\n"
    "order: abba\n"
    "seed: 42\n"
    "warmup: 1\n"
    "settle: 2s\n"
    "counters: [nic, tcp, cpu]\n"
    "report:\n"
    "  tables:  [ { rows: streams, columns: [os, slot] } ]\n"
    "  compare: [ { factor: cc, baseline: cubic } ]\n";

static int load(const char *text, struct plan **p, struct xr_diag *d)
{
	xr_diag_init(d, "t.yaml");
	return plan_load_mem("t.yaml", text, strlen(text), catalog_builtin(), p,
			     d);
}

static void dump(const struct xr_diag *d)
{
	size_t i;
	for (i = 0; i < d->n; i++)
		printf("#   %d:%d: %s%s\n", d->items[i].line, d->items[i].col,
		       d->items[i].is_warning ? "warning: " : "",
		       d->items[i].msg);
}

static int has(const struct xr_diag *d, int line, int col, const char *sub)
{
	size_t i;
	for (i = 0; i < d->n; i++)
		if (!d->items[i].is_warning &&
		    (line < 0 || d->items[i].line == line) &&
		    (col == 0 || d->items[i].col == col) &&
		    strstr(d->items[i].msg, sub))
			return 1;
	return 0;
}

/* A plan prefix that is valid on its own; cases append to it. */
#define HEAD                                                                   \
	"xrun: 1\n"                                                            \
	"name: t\n"                                                            \
	"engine: { type: iperf3, server: local, duration: 1s }\n"

static const struct {
	const char *text;
	int line, col;
	const char *msg;
} bad[] = {
    {"xrun: 1\nname: t\nengine: {type: iperf3, server: local}\n"
     "repeat: [1\n",
     5, 1, "yaml syntax error"},
    {"- 1\n- 2\n", 1, 1, "must be a mapping"},
    {"name: t\nengine: {type: iperf3, server: local}\n", 1, 1,
     "missing 'xrun: 1'"},
    {"xrun: 2\nname: t\nengine: {type: iperf3, server: local}\n", 1, 7,
     "unsupported plan format version '2'"},
    {"xrun: 1\nengine: {type: iperf3, server: local}\n", 1, 1,
     "missing 'name'"},
    {"xrun: 1\nname: Big\nengine: {type: iperf3, server: local}\n", 2, 7,
     "bad plan name 'Big'"},
    {HEAD "repeet: 3\n", 4, 1, "did you mean 'repeat'?"},
    {HEAD "factors:\n  cc:\n    levles: [a]\n", 6, 5,
     "unknown key 'levles' in factor 'cc' (did you mean 'levels'?"},
    {HEAD "hosts:\n  s: { ssh: a@b, adress: 1.2.3.4 }\n", 5, 18,
     "did you mean 'address'?"},
    {HEAD "repeat: 0\n", 4, 9, "integer in 1..10000"},
    {HEAD "repeat: 10001\n", 4, 9, "integer in 1..10000"},
    {HEAD "repeat: 2.5\n", 4, 9, "integer in 1..10000"},
    {HEAD "repeat: [1]\n", 4, 9, "'repeat' must be a text value"},
    {HEAD "order: abab\n", 4, 8,
     "unknown order 'abab' (valid: abba, random, sequential)"},
    {HEAD "settle: 2x\n", 4, 9, "bad duration '2x'"},
    {HEAD "factors:\n  a: { levels: [] }\n", 5, 16, "has no levels"},
    {HEAD "factors:\n  a: { levels: [x, y, x] }\n", 5, 23,
     "duplicate level 'x' of factor 'a' (first at line 5, column 17)"},
    {HEAD "factors:\n  a: { levels: [x, [y]] }\n", 5, 20, "must be a scalar"},
    {HEAD "factors:\n  a: { levels: [x, ~] }\n", 5, 20, "is empty"},
    {HEAD "factors:\n  a: { levels: x }\n", 5, 16, "must be a list"},
    {HEAD "factors:\n  a: [x, y]\nexclude:\n  - { b: x }\n", 7, 7,
     "exclude names unknown factor 'b'"},
    {HEAD "factors:\n  a: [x, y]\nexclude:\n  - { a: z }\n", 7, 10,
     "exclude names unknown level 'z' of factor 'a'"},
    {HEAD "factors:\n  a: [x, y]\nexclude:\n  - { a: [x, y] }\n", 7, 3,
     "the exclusions leave no cell"},
    {HEAD "factors:\n  a: [x, y]\n  b: [u, v]\nexclude:\n"
	  "  - { a: x }\n  - { a: y, b: u }\n  - { b: v }\n",
     8, 3, "the exclusions leave no cell"},
    {"xrun: 1\nname: t\nengine: { type: iperf4 }\n", 3, 17,
     "unknown engine 'iperf4' (known: iperf3, command, networkquality, "
     "speedtest, librespeed)"},
    {HEAD "hosts: { s: { ssh: a@b } }\nfactors:\n  a:\n    levels: [x]\n"
	  "    apply: [echo]\n    on: [client, nowhere]\n",
     9, 18, "undefined host 'nowhere'"},
    {"xrun: 1\nname: t\nengine: { type: iperf3, server: srv }\n", 3, 33,
     "undefined host 'srv'"},
    {"xrun: 1\nname: t\nengine: { type: iperf3, client: c1, server: local "
     "}\n",
     3, 33, "undefined host 'c1'"},
    {HEAD "factors:\n  a:\n    levels: [x]\n    manual: \"set {{b}}\"\n", 7, 18,
     "placeholder '{{b}}' names no factor"},
    {HEAD "factors:\n  a:\n    levels: [x]\n    apply: [echo, '{{aa}}']\n", 7,
     20, "did you mean 'a'?"},
    {HEAD "factors:\n  a:\n    levels: [x, y]\n    verify: { run: [cat], "
	  "expect: { x: 1 } }\n",
     7, 35, "'expect' has no value for level 'y'"},
    {HEAD "factors:\n  a:\n    levels: [x]\n    verify: { run: [cat], "
	  "expect: { x: 1, z: 2 } }\n",
     7, 43, "'expect' names unknown level 'z'"},
    {HEAD "factors:\n  a:\n    levels: [x]\n    verify: { probe: nic.mtux "
	  "}\n",
     7, 13, "unknown probe 'nic.mtux'"},
    {HEAD "factors:\n  a:\n    levels: [x]\n    verify: { expect: x }\n", 7, 13,
     "needs exactly one of 'probe'"},
    {HEAD "factors:\n  a:\n    levels: [x]\n    verify: { probe: kernel, "
	  "match: fuzzy }\n",
     7, 37, "unknown match 'fuzzy'"},
    {HEAD "factors:\n  a:\n    levels: [x]\n    apply: echo hi\n", 7, 12,
     "must be a non-empty list of arguments"},
    {HEAD "factors:\n  a:\n    levels: [x]\n    restore: maybe\n", 7, 14,
     "must be true or false"},
    {HEAD "factors:\n  a:\n    levels: [x]\n    restore: true\n", 7, 14,
     "has no 'apply'"},
    {HEAD "x: 1\nx: 2\n", 5, 1, "duplicate key 'x' (first at line 4"},
    {HEAD "counters: [nic, disk]\n", 4, 17, "unknown counter group 'disk'"},
    /* the valid words from the group table, then all and none */
    {HEAD "counters: [nic, cpus]\n", 4, 17,
     "unknown counter group 'cpus' (did you mean 'cpu'? valid: nic, tcp, "
     "cpu, capture, all, none)"},
    {HEAD "report:\n  lang: fr\n", 5, 9, "unknown language 'fr'"},
    {HEAD "report:\n  threshold: 200%\n", 5, 14, "bad threshold"},
    {HEAD "report:\n  tables: [ { rows: nope } ]\n", 5, 21,
     "unknown factor 'nope'"},
    {HEAD "factors: { cc: [cubic, reno] }\nreport:\n"
	  "  compare: [ { factor: cc, baseline: bbr } ]\n",
     6, 38, "unknown level 'bbr' of factor 'cc'"},
    {HEAD "hosts: { s: { shell: cmd } }\n", 4, 22, "unknown shell 'cmd'"},
    {HEAD "hosts: { s: { ssh: a@b, path: [bin] } }\n", 4, 31,
     "path entry 'bin' is not an absolute directory"},
    {HEAD "hosts: { s: { ssh: a@b, path: ['/a:/b'] } }\n", 4, 31,
     "path entry '/a:/b' is not an absolute directory"},
    {HEAD "hosts: { s: { path: [/x] } }\n", 4, 21, "host 's' has no 'ssh'"},
    {HEAD "hosts: { w: { ssh: a@b, os: windows, path: [/x] } }\n", 4, 44,
     "'path' is for sh hosts"},
    {HEAD "hosts: { s: { port: 70000 } }\n", 4, 21, "1..65535"},
    {HEAD "hosts: { s: { ssh: a@b, session: maybe } }\n", 4, 34,
     "'session' must be true or false"},
    {HEAD "vars: { rep: 1 }\n", 4, 9, "var name 'rep' is reserved"},
    {HEAD "factors: { rep: [1, 2] }\n", 4, 12, "reserved for a built-in"},
    {"xrun: 1\nname: t\nengine: { type: command }\n", 3, 9,
     "needs a non-empty 'run'"},
    {"xrun: 1\nname: t\nengine: { type: iperf3 }\n", 3, 9, "needs 'server'"},
    {"xrun: 1\nname: t\nengine: { type: command, run: [x], metrics: { t: "
     "{ json: /a, unit: parsecs } } }\n",
     3, 47, "unknown unit 'parsecs'"},
    {"xrun: 1\nname: t\nengine: { type: command, run: [x], metrics: { t: "
     "{ bytes: lots } } }\n",
     3, 59, "bad byte count 'lots'"},
    {"xrun: 1\nname: t\nengine: { type: command, run: [x], metrics: { t: "
     "{ unit: B } } }\n",
     3, 47, "needs exactly one of json, regex or bytes"},
    {HEAD "on_finish: []\n", 4, 12, "must be a non-empty list"},
    {"xrun: 1\nname: t\nengine: { type: iperf3, server: local, duraton: "
     "1s }\n",
     3, 40, "did you mean 'duration'?"},
    {"xrun: 1\nname: t\nengine: { type: iperf3, server: local, "
     "paralel: 2 }\n",
     3, 40, "paralel"},
    {HEAD "factors: { s: { levels: [1, 2], param: paralel } }\n", 4, 12,
     "paralel"},
    {HEAD "a: &x [1]\nb: *y\n", 5, 4, "unknown alias '*y'"},
    {HEAD "factors:\n  a:\n    levels: [x]\n    apply: [ip, link, set, "
	  "'{{iface}}']\n",
     7, 29, "'{{iface}}' has no value in this plan"},
    {"xrun: 1\nname: t\nengine: { type: command, run: [ping, '{{server}}'], "
     "metrics: { t: { regex: '(1)' } } }\n",
     3, 39, "'{{server}}' has no value in this plan: the engine has no"},
    {"xrun: 1\nname: t\nengine: { type: iperf3, server: local, target: "
     "'x{{target}}' }\n",
     3, 48, "cannot use '{{target}}'"},
    {"xrun: 1\n---\nxrun: 1\n", 2, 1, "more than one yaml document"},
    /* qa: a byte order mark is not content */
    {"\xef\xbb\xbfxrun: 1\nname: t\nengine: { type: iperf3, server: local "
     "}\nordr: abba\n",
     4, 1, "unknown key 'ordr'"},
    /* qa: a placeholder's column is where it was written, past escapes,
     * doubled quotes and multi-byte characters; in a block scalar, its
     * own line */
    {HEAD "factors:\n  a:\n    levels: [x]\n    apply: [echo, \"\\t\\u00e9 "
	  "{{q}}\"]\n",
     7, 29, "'{{q}}' names no"},
    {HEAD "factors:\n  a:\n    levels: [x]\n    apply: [echo, 'it''s "
	  "{{q}}']\n",
     7, 26, "'{{q}}' names no"},
    {HEAD "factors:\n  a:\n    levels: [x]\n    apply: [echo, \"\xe6\x97\xa5"
	  "\xe6\x9c\xac {{q}}\"]\n",
     7, 23, "'{{q}}' names no"},
    {HEAD "factors:\n  a:\n    levels: [x]\n    manual: >\n      Move the\n"
	  "      card {{q}}\n",
     9, 12, "'{{q}}' names no"},
    /* qa: a placeholder in an engine parameter, at the value */
    {"xrun: 1\nname: t\nengine:\n  type: iperf3\n  server: local\n"
     "  bitrate: \"{{rat}}\"\n",
     6, 13, "'{{rat}}' names no"},
    /* qa: built-ins that only have a value in some templates (these
     * validated, then could not be expanded) */
    {HEAD "factors:\n  a:\n    levels: [x]\n    apply: [echo, "
	  "'{{original}}']\n",
     7, 20, "'{{original}}' has no value here: only a 'restore'"},
    {HEAD "factors:\n  a:\n    levels: [x]\n    manual: 'pass {{rep}}'\n", 7,
     19, "'{{rep}}' has no value here: a manual instruction"},
    /* qa: a newline or an escape code in a level broke the tables */
    {HEAD "factors:\n  a: [x, \"y\\nz\"]\n", 5, 10,
     "level 2 of factor 'a' contains a control character (0x0a)"},
    /* qa: no nested quotes ("'factor 'a'' must be") */
    {HEAD "factors:\n  a: 5\n", 5, 6,
     "factor 'a' must be a list of levels or a mapping"},
    {HEAD "hosts: { s: 5 }\n", 4, 13, "host 's' must be a mapping"},
    /* qa: did you mean, across case and in Japanese */
    {HEAD "order: RANDOM\n", 4, 8, "did you mean 'random'?"},
    {HEAD
     "factors:\n  m: [\xe9\x80\x9f\xe3\x81\x84, \xe9\x81\x85\xe3\x81\x84]\n"
     "exclude:\n  - { m: \xe9\x80\x9f\xe3\x81\x8f }\n",
     7, 10, "did you mean '\xe9\x80\x9f\xe3\x81\x84'?"},
};

static void test_example(void)
{
	struct plan *p = NULL;
	struct xr_diag d;
	const struct plan_factor *f;
	const struct plan_host *h;
	char hex[65];
	int rc = load(example, &p, &d);
	is_int(rc, 0, "issue example loads");
	if (rc) {
		dump(&d);
		xr_diag_release(&d);
		return;
	}
	is_int(d.nerr, 0, "no errors");
	is_int(p->version, 1, "version");
	is_str(p->name, "pcie-gen", "name");
	is_str(p->title, "10GbE NIC x PCIe slot", "title");
	is_int(p->nhosts, 2, "local + server");
	is_str(p->hosts[0].name, "local", "hosts[0] is local");
	is_str(p->hosts[0].address, "127.0.0.1", "local address");
	h = plan_host_find(p, "server");
	ok(h && h->ssh && strcmp(h->ssh, "lab@server.example") == 0,
	   "server ssh");
	ok(h && h->address && strcmp(h->address, "192.0.2.10") == 0,
	   "server address");
	ok(h && h->pos.line == 5 && h->pos.col == 3, "host position 5:3");
	is_str(plan_var(p, "iface"), "eth0", "var iface");
	ok(plan_var(p, "nope") == NULL, "unknown var");
	is_str(p->engine.type, "iperf3", "engine type");
	is_str(p->engine.client, "local", "client");
	is_str(p->engine.server_host, "server", "server host");
	is_int(p->engine.server_start, 1, "server start");
	is_near(p->engine.duration, 10, 0, "duration 10s");
	is_near(p->engine.omit, 1, 0, "omit 1s");
	is_int(p->nfactors, 4, "four factors");
	is_int(plan_factor_index(p, "streams"), 2, "factor order kept");
	f = &p->factors[0];
	is_str(f->name, "os", "factor 0 os");
	is_int(f->nlevels, 2, "os levels");
	is_str(f->manual, "Boot the client into {{os}}", "manual template");
	f = &p->factors[1];
	ok(f->verify && f->verify->probe &&
	       strcmp(f->verify->probe, "nic.pcie_link") == 0,
	   "slot verify probe");
	ok(f->verify && f->verify->expect_by_level &&
	       strcmp(f->verify->expect_by_level[1], "8.0 GT/s x1") == 0,
	   "expect by level");
	f = &p->factors[2];
	is_str(f->param, "parallel", "streams param");
	is_str(f->levels[3], "8", "levels are strings");
	ok(f->level_pos[3].line == 19 && f->level_pos[3].col == 32,
	   "level position 19:32 (got %d:%d)", f->level_pos[3].line,
	   f->level_pos[3].col);
	is_int(plan_level_index(f, "4"), 2, "level index");
	is_int(plan_level_index(f, "16"), -1, "unknown level");
	f = &p->factors[3];
	is_int(f->apply.argc, 3, "apply argv");
	is_str(f->apply.argv[2], "net.ipv4.tcp_congestion_control={{cc}}",
	       "apply template");
	ok(f->apply.argv[3] == NULL, "argv NULL-terminated");
	is_int(f->restore_original, 1, "restore: true");
	ok(f->verify && f->verify->run.argc == 3 && f->verify->expect &&
	       strcmp(f->verify->expect, "{{cc}}") == 0,
	   "verify run + expect");
	ok(f->non == 1 && strcmp(f->on[0], "client") == 0, "on defaults");
	is_int(p->nexcludes, 1, "one exclusion");
	is_int(p->excludes[0].nterms, 2, "two terms");
	is_int(p->excludes[0].factor[1], 3, "term factor cc");
	is_int(p->excludes[0].lv[1][0], 1, "term level reno");
	is_int(p->repeat, 3, "repeat");
	is_int(p->order, PLAN_ORDER_ABBA, "order");
	is_int(p->seed, 42, "seed");
	is_int(p->warmup, 1, "warmup");
	is_near(p->settle, 2, 0, "settle");
	is_int(p->counters,
	       PLAN_COUNTER_NIC | PLAN_COUNTER_TCP | PLAN_COUNTER_CPU,
	       "counters");
	is_int(p->report.ntables, 1, "one table");
	is_str(p->report.tables[0].rows, "streams", "rows");
	is_int(p->report.tables[0].ncolumns, 2, "columns");
	is_int(p->report.ncompare, 1, "one comparison");
	is_str(p->report.compare[0].baseline, "cubic", "baseline");
	is_near(p->report.threshold, 0.01, 1e-12, "default threshold");
	sha256_hex(example, strlen(example), hex);
	ok(strcmp(p->hash, hex) == 0, "hash of the bytes");
	plan_free(p);
	xr_diag_release(&d);
}

static void test_defaults(void)
{
	struct plan *p;
	struct xr_diag d;
	int rc = load("xrun: 1\nname: t\nengine: { type: iperf3, server: local "
		      "}\n",
		      &p, &d);
	is_int(rc, 0, "minimal plan loads");
	if (rc) {
		dump(&d);
		xr_diag_release(&d);
		return;
	}
	is_int(p->repeat, 1, "default repeat");
	is_int(p->order, PLAN_ORDER_ABBA, "default order");
	is_int(p->seed, 1, "default seed");
	is_int(p->counters, 15, "default counters: all four");
	is_int(p->nfactors, 0, "no factors");
	is_str(p->engine.client, "local", "default client");
	is_near(p->engine.duration, 10, 0, "default duration");
	plan_free(p);
	xr_diag_release(&d);

	rc = load("xrun: 1\nname: t\nhosts: { local: { iface: lo } }\n"
		  "engine: { type: command, run: [echo, '{{x}}'], metrics: { "
		  "throughput: { regex: '([0-9]+)', unit: MB/s } } }\n"
		  "factors: { x: [1, 2] }\ncounters: none\n"
		  "report: { threshold: 2%, output: [r.md, r.pdf] }\n",
		  &p, &d);
	is_int(rc, 0, "command plan loads");
	if (rc) {
		dump(&d);
		xr_diag_release(&d);
		return;
	}
	is_int(p->nhosts, 1, "local given explicitly is hosts[0]");
	is_str(p->hosts[0].iface, "lo", "local iface");
	is_int(p->engine.nmetrics, 1, "one metric");
	is_str(p->engine.metrics[0].unit, "MB/s", "metric unit");
	is_int(p->counters, 0, "counters none");
	is_near(p->report.threshold, 0.02, 1e-12, "threshold 2%");
	is_int(p->report.noutputs, 2, "outputs");
	plan_free(p);
	xr_diag_release(&d);
}

/* reconnect: its defaults (PLAN_RECONNECT_*, schema/plan.md), off, a
 * partial mapping, and a wait above the default max_wait. */
static void test_reconnect(void)
{
	static const struct {
		const char *name;
		const char *yaml; /* "" = not written */
		int tries;
		double wait, max_wait;
	} cases[] = {
	    {"default", "", 8, 2, 60},
	    {"off", "reconnect: off\n", 0, 2, 60},
	    {"tries only", "reconnect: { tries: 3 }\n", 3, 2, 60},
	    {"all three",
	     "reconnect: { tries: 1, wait: 500ms, max_wait: 1s }\n", 1, 0.5, 1},
	    {"wait above the default max", "reconnect: { wait: 90s }\n", 8, 90,
	     90},
	};
	size_t i;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct plan *p;
		struct xr_diag d;
		struct buf y = BUF_INIT;
		int rc;
		buf_addf(&y,
			 "xrun: 1\nname: t\nengine: { type: iperf3, server: "
			 "local }\n%s",
			 cases[i].yaml);
		rc = load(y.s, &p, &d);
		buf_release(&y);
		is_int(rc, 0, cases[i].name);
		if (rc) {
			dump(&d);
			xr_diag_release(&d);
			continue;
		}
		is_int(p->reconnect.tries, cases[i].tries, "reconnect tries");
		is_near(p->reconnect.wait, cases[i].wait, 1e-12,
			"reconnect wait");
		is_near(p->reconnect.max_wait, cases[i].max_wait, 1e-12,
			"reconnect max_wait");
		plan_free(p);
		xr_diag_release(&d);
	}
}

static void test_merge(void)
{
	struct plan *p;
	struct xr_diag d;
	int rc =
	    load(HEAD "x-hooks: &h { apply: [echo, '{{a}}'], restore: true, "
		      "manual: m }\n"
		      "factors:\n"
		      "  a: { <<: *h, levels: [1, 2], manual: own }\n"
		      "  b: { <<: [{ manual: first }, *h], levels: [x] }\n",
		 &p, &d);
	is_int(rc, 0, "merge keys and x- keys load");
	if (rc) {
		dump(&d);
		xr_diag_release(&d);
		return;
	}
	is_int(p->factors[0].apply.argc, 2, "merged apply");
	is_int(p->factors[0].restore_original, 1, "merged restore");
	is_str(p->factors[0].manual, "own", "own key wins over merged");
	is_str(p->factors[1].manual, "first", "earlier source wins");
	plan_free(p);
	xr_diag_release(&d);
	rc = load(HEAD "factors:\n  a: { <<: 5, levels: [x] }\n", &p, &d);
	ok(rc < 0 && has(&d, 5, 12, "'<<' merges a mapping"),
	   "merging a scalar refused");
	xr_diag_release(&d);
}

/* params: one level -> several engine parameters */
static void test_params(void)
{
	struct plan *p;
	struct xr_diag d;
	const struct plan_factor *f;
	int rc = load(HEAD "factors:\n"
			   "  test:\n"
			   "    levels: [down-1, udp-4, up]\n"
			   "    params:\n"
			   "      down-1: { reverse: true, parallel: 1 }\n"
			   "      udp-4: { udp: true, parallel: 4, bitrate: "
			   "700M }\n"
			   "      up: {}\n"
			   "  cc: { levels: [cubic], params: { cubic: { "
			   "congestion: '{{cc}}' } } }\n",
		      &p, &d);
	is_int(rc, 0, "params: loads");
	if (rc) {
		dump(&d);
		xr_diag_release(&d);
		return;
	}
	f = &p->factors[0];
	ok(f->param == NULL && f->level_params && f->nlevel_params,
	   "params: set, param: not");
	is_int(f->nlevel_params[0], 2, "down-1 sets two keys");
	is_str(f->level_params[0][0].key, "reverse", "in file order");
	is_str(f->level_params[0][1].value, "1", "value kept as text");
	is_int(f->level_params[0][1].pos.line, 8, "key position: line");
	is_int(f->level_params[0][1].pos.col, 32, "key position: column");
	is_int(f->nlevel_params[1], 3, "udp-4 sets three keys");
	is_str(f->level_params[1][2].value, "700M", "bitrate as written");
	is_int(f->nlevel_params[2], 0, "{} sets nothing");
	ok(f->level_params[2] != NULL, "{} is an entry");
	is_str(p->factors[1].level_params[0][0].value, "{{cc}}",
	       "placeholders allowed in values");
	plan_free(p);
	xr_diag_release(&d);

	rc = load(HEAD "factors:\n"
		       "  t:\n"
		       "    levels: [a, b, c]\n"
		       "    params:\n"
		       "      a: 4\n"
		       "      x: {}\n"
		       "      c: { paralel: 2, parallel: zero }\n"
		       "  u: { levels: [1], param: parallel, params: { 1: {} } "
		       "}\n",
		  &p, &d);
	ok(rc < 0, "bad params refused");
	ok(has(&d, 8, 10, "must be a mapping of engine parameters"),
	   "a value that is not a mapping");
	ok(has(&d, 9, 7, "names unknown level 'x'"), "unknown level");
	ok(has(&d, 8, 7, "no entry for level 'b'"), "missing level");
	ok(!has(&d, -1, 0, "no entry for level 'a'"),
	   "a bad entry is not also missing");
	ok(has(&d, 10, 12, "unknown iperf3 parameter 'paralel'"),
	   "unknown engine parameter, through check()");
	ok(has(&d, 10, 24, "bad value 'zero' for iperf3 parameter"),
	   "bad value, through check()");
	ok(has(&d, 11, 46, "both 'param' and 'params'"),
	   "param: and params: together");
	if (d.nerr != 6)
		dump(&d);
	is_int(d.nerr, 6, "every problem, once");
	xr_diag_release(&d);
}

static void test_errors(void)
{
	size_t i;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct plan *p = NULL;
		struct xr_diag d;
		int rc = load(bad[i].text, &p, &d);
		ok(rc < 0 && p == NULL, "case %zu refused", i);
		if (!ok(has(&d, bad[i].line, bad[i].col, bad[i].msg),
			"case %zu: %d:%d '%s'", i, bad[i].line, bad[i].col,
			bad[i].msg))
			dump(&d);
		plan_free(p);
		xr_diag_release(&d);
	}
}

static void test_many_errors(void)
{
	struct plan *p;
	struct xr_diag d;
	load("xrun: 1\nname: t\nengine: { type: iperf3, server: local }\n"
	     "repeat: 0\norder: x\nsettle: y\nfoo: 1\n",
	     &p, &d);
	is_int(d.nerr, 4, "every problem reported, not only the first");
	xr_diag_release(&d);
}

static void test_hostile(void)
{
	struct plan *p;
	struct xr_diag d;
	struct buf b;
	clock_t t0;
	int i, rc;

	/* billion laughs */
	buf_init(&b, 0);
	buf_adds(&b, "xrun: 1\nname: t\na0: &a0 [x, x, x, x, x, x, x, x, x, "
		     "x]\n");
	for (i = 1; i < 10; i++)
		buf_addf(&b,
			 "a%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, "
			 "*a%d, *a%d, *a%d, *a%d]\n",
			 i, i, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1,
			 i - 1, i - 1, i - 1);
	t0 = clock();
	xr_diag_init(&d, "t.yaml");
	rc = plan_load_mem("t.yaml", b.s, b.len, catalog_builtin(), &p, &d);
	ok(rc < 0 && has(&d, -1, 0, "alias bomb"), "alias bomb refused");
	ok((double)(clock() - t0) / CLOCKS_PER_SEC < 1, "and quickly");
	xr_diag_release(&d);
	buf_release(&b);

	/* deep nesting */
	buf_init(&b, 0);
	buf_adds(&b, "xrun: 1\nname: t\nx: ");
	for (i = 0; i < 10000; i++)
		buf_addc(&b, '[');
	xr_diag_init(&d, "t.yaml");
	rc = plan_load_mem("t.yaml", b.s, b.len, catalog_builtin(), &p, &d);
	ok(rc < 0 && has(&d, 3, 0, "nesting deeper than 64"),
	   "deep nesting refused");
	xr_diag_release(&d);
	buf_release(&b);

	/* not UTF-8 */
	rc = load("xrun: 1\nname: t\ntitle: caf\xe9 au lait\n", &p, &d);
	ok(rc < 0 && has(&d, 3, 11, "not UTF-8: byte 0xe9"),
	   "bad byte located");
	xr_diag_release(&d);
	rc = load("xrun: 1\nname: t\ntitle: \xe6\x97\xa5\xe6\x9c\xac "
		  "\xed\xa0\x80\n",
		  &p, &d);
	ok(rc < 0 && has(&d, 3, 11, "not UTF-8"), "surrogate refused");
	xr_diag_release(&d);

	/* empty */
	rc = load("", &p, &d);
	ok(rc < 0 && has(&d, 0, 0, "empty plan"), "empty file");
	xr_diag_release(&d);
	rc = load("# only a comment\n\n", &p, &d);
	ok(rc < 0 && has(&d, 0, 0, "empty plan"), "comment-only file");
	xr_diag_release(&d);

	/* missing file */
	xr_diag_init(&d, NULL);
	rc = plan_load("/nonexistent/plan.yaml", catalog_builtin(), &p, &d);
	is_int(rc, -XR_EIO, "missing file is an I/O error");
	ok(has(&d, 0, 0, "No such file"), "and says why");
	xr_diag_release(&d);

	/* a multi-megabyte plan: many vars */
	buf_init(&b, 0);
	buf_adds(&b, "xrun: 1\nname: t\nengine: { type: iperf3, server: local "
		     "}\nvars:\n");
	for (i = 0; i < 150000; i++)
		buf_addf(&b, "  v%d: \"some value of moderate length %d\"\n", i,
			 i);
	t0 = clock();
	xr_diag_init(&d, "t.yaml");
	rc = plan_load_mem("t.yaml", b.s, b.len, catalog_builtin(), &p, &d);
	is_int(rc, 0, "6 MB plan loads");
	ok((double)(clock() - t0) / CLOCKS_PER_SEC < 3,
	   "in a few seconds at most (%.2f s)",
	   (double)(clock() - t0) / CLOCKS_PER_SEC);
	plan_free(p);
	xr_diag_release(&d);
	buf_release(&b);
}

static void test_scale(void)
{
	struct plan *p;
	struct xr_diag d;
	struct buf b;
	clock_t t0;
	double secs;
	int i, j, rc;
	buf_init(&b, 0);
	buf_adds(&b, "xrun: 1\nname: t\nengine: { type: iperf3, server: local "
		     "}\nfactors:\n");
	for (i = 0; i < 10; i++) {
		buf_addf(&b, "  f%d:\n    levels: [", i);
		for (j = 0; j < 100; j++)
			buf_addf(&b, "%sl%d", j ? ", " : "", j);
		buf_addf(&b, "]\n    apply: [echo, '{{f%d}}']\n", i);
	}
	buf_adds(&b, "exclude:\n");
	for (j = 0; j < 99; j++)
		buf_addf(&b, "  - { f0: l%d }\n", j);
	t0 = clock();
	xr_diag_init(&d, "t.yaml");
	rc = plan_load_mem("t.yaml", b.s, b.len, catalog_builtin(), &p, &d);
	secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	is_int(rc, 0, "10 factors x 100 levels load");
	if (rc)
		dump(&d);
	ok(secs < 0.2, "in milliseconds (%.4f s)", secs);
	plan_free(p);
	xr_diag_release(&d);
	buf_release(&b);
}

/* session: false opts a host's readings out of the persistent shell;
 * the default is on; on a host without ssh it is a warning. */
static void test_session_key(void)
{
	struct plan *p = NULL;
	struct xr_diag d;
	const struct plan_host *a, *b;
	int rc = load(HEAD "hosts: { a: { ssh: x@y, session: false }, b: { "
			   "ssh: x@y }, c: { session: true } }\n",
		      &p, &d);
	is_int(rc, 0, "session: loads");
	a = p ? plan_host_find(p, "a") : NULL;
	b = p ? plan_host_find(p, "b") : NULL;
	ok(a && a->no_session == 1, "session: false is off");
	ok(b && b->no_session == 0, "session: on by default");
	is_int((long long)(d.n - d.nerr), 1,
	       "session: on a host without ssh, one warning");
	plan_free(p);
	xr_diag_release(&d);
}

int main(void)
{
	tap_plan(263 + 5 * 4 + 4);
	test_session_key();
	char hex[65];
	const char *hx = hex;
	sha256_hex("abc", 3, hex);
	is_str(
	    hx,
	    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
	    "sha256 abc");
	sha256_hex("", 0, hex);
	is_str(
	    hx,
	    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
	    "sha256 empty");
	test_example();
	test_defaults();
	test_reconnect();
	test_merge();
	test_params();
	test_errors();
	test_many_errors();
	test_hostile();
	test_scale();
	return tap_done();
}
