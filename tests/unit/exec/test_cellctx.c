/* Unit tests for cellctx.c: placeholder resolution and engine requests.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cellctx.h"
#include "plan.h"
#include "sched_fixture.h"
#include "tap.h"

static const char *param_of(const struct engine_request *rq, const char *k)
{
	int i;
	for (i = 0; i < rq->nparams; i++)
		if (!strcmp(rq->params[i].key, k))
			return rq->params[i].value;
	return NULL;
}

static struct plan *make(void)
{
	struct plan *p = fx_plan();
	struct plan_kv *kv;
	p->name = "pcie-gen";
	p->hosts[1].name = "server";
	p->hosts[1].ssh = "lab@server.example";
	p->hosts[1].address = "192.0.2.10";
	p->hosts[2].name = "box";
	p->hosts[2].ssh = "me@box.example";
	p->hosts[0].iface = "eth9";
	p->nhosts = 3;
	p->vars[0].key = "port";
	p->vars[0].value = "5202";
	p->nvars = 1;
	p->engine.server_host = "server";
	p->engine.omit = 1;
	kv = arena_alloc(p->arena, 4 * sizeof *kv);
	kv[0].key = "parallel";
	kv[0].value = "1";
	kv[1].key = "port";
	kv[1].value = "{{port}}";
	kv[2].key = "congestion";
	kv[2].value = "{{cc}}";
	p->engine.params = kv;
	p->engine.nparams = 3;
	fx_factor(p, "streams", "1,4")->param = "parallel";
	fx_factor(p, "cc", "cubic,reno");
	fx_factor(p, "dur", "2s,500ms")->param = "duration";
	return p;
}

static void test_lookup(void)
{
	struct plan *p = make();
	uint32_t lv[3] = {1, 0, 0};
	struct cellctx c;
	struct buf b = BUF_INIT;
	struct xr_err e;
	int rc;

	cellctx_init(&c, p, lv);
	c.rep = 3;
	c.index = 17;
	c.block = 2;
	c.session = 9;
	rc = cellctx_expand(&c,
			    "{{streams}} {{ cc }} {{port}} r{{rep}} i{{index}} "
			    "b{{block}} {{plan}} s{{session}} {{client}} "
			    "{{server}} {{target}} {{iface}}",
			    &b, &e);
	is_int(rc, 0, "expands");
	is_str(b.s,
	       "4 cubic 5202 r3 i17 b2 pcie-gen s9 127.0.0.1 192.0.2.10 "
	       "192.0.2.10 eth9",
	       "factors, vars and built-ins");
	buf_reset(&b);
	rc = cellctx_expand(&c, "x {{original}}", &b, &e);
	is_int(rc, -XR_EPLAN, "original unset is an error");
	ok(strstr(e.msg, "'{{original}}'") != NULL, "message names it: %s",
	   e.msg);
	c.original = "bbr";
	buf_reset(&b);
	rc = cellctx_expand(&c, "{{original}}", &b, &e);
	ok(rc == 0 && !strcmp(b.s, "bbr"), "original when set");
	buf_reset(&b);
	rc = cellctx_expand(&c, "{{nosuch}}", &b, &e);
	is_int(rc, -XR_EPLAN, "unknown name fails");
	buf_release(&b);
	cellctx_release(&c);

	/* explicit addresses win; ssh host without address: its host part */
	p->engine.server_host = "box";
	cellctx_init(&c, p, lv);
	ok(!strcmp(cellctx_lookup(&c, "server"), "box.example"),
	   "ssh host part as address");
	cellctx_release(&c);
	cellctx_init(&c, p, lv);
	c.server = "10.0.0.2";
	c.client = "10.0.0.1";
	ok(!strcmp(cellctx_target(&c, &e), "10.0.0.2"), "server given");
	ok(!strcmp(cellctx_lookup(&c, "client"), "10.0.0.1"), "client given");
	cellctx_release(&c);
	fx_free(p);
}

static void test_request(void)
{
	struct plan *p = make();
	uint32_t lv[3] = {1, 1, 0};
	struct cellctx c;
	struct cellctx_request r;
	struct xr_err e;
	char **argv;
	int rc;

	cellctx_init(&c, p, lv);
	rc = cellctx_request(&c, &r, &e);
	is_int(rc, 0, "request builds");
	is_int(r.rq.nparams, 4, "engine params plus duration factor");
	is_str(param_of(&r.rq, "parallel"), "4", "factor overrides param");
	is_str(param_of(&r.rq, "congestion"), "reno", "param expanded");
	is_str(param_of(&r.rq, "port"), "5202", "var expanded");
	is_str(param_of(&r.rq, "duration"), "2s", "duration param");
	is_near(r.rq.duration, 2, 1e-9, "factor sets duration");
	is_near(r.rq.omit, 1, 1e-9, "omit from engine");
	is_near(r.rq.timeout, 2 + 1 + CELLCTX_TIMEOUT_MARGIN, 1e-9,
		"default timeout");
	is_str(r.rq.target, "192.0.2.10", "target: server address");
	ok(r.rq.run_argv == NULL, "no run argv for iperf3");
	cellctx_request_release(&r);
	cellctx_release(&c);

	p->engine.timeout = 5;
	p->engine.target = "{{server}}:{{port}}";
	p->factors[2].param = NULL;
	cellctx_init(&c, p, lv);
	rc = cellctx_request(&c, &r, &e);
	is_int(rc, 0, "request with target template");
	is_near(r.rq.timeout, 5, 1e-9, "engine timeout wins");
	is_near(r.rq.duration, 10, 1e-9, "engine duration");
	is_str(r.rq.target, "192.0.2.10:5202", "target expanded");
	cellctx_request_release(&r);
	cellctx_release(&c);

	p->engine.target = "x{{target}}";
	cellctx_init(&c, p, lv);
	rc = cellctx_request(&c, &r, &e);
	is_int(rc, -XR_EPLAN, "self-referencing target refused");
	cellctx_release(&c);

	{
		static const char *run[] = {"dd", "bs={{streams}}M",
					    "of=/tmp/{{plan}}-{{rep}}", NULL};
		static const char *bad[] = {"echo", "{{oops}}", NULL};
		struct plan_argv a = {run, 3, {4, 9}}, ab = {bad, 2, {7, 3}};
		p->engine.target = NULL;
		p->engine.type = "command";
		p->engine.run = a;
		cellctx_init(&c, p, lv);
		c.rep = 2;
		rc = cellctx_request(&c, &r, &e);
		is_int(rc, 0, "command request");
		ok(r.rq.run_argv && !strcmp(r.rq.run_argv[1], "bs=4M") &&
		       !strcmp(r.rq.run_argv[2], "of=/tmp/pcie-gen-2") &&
		       r.rq.run_argv[3] == NULL,
		   "run argv expanded");
		cellctx_request_release(&r);
		argv = cellctx_argv(&c, &ab, &e);
		ok(argv == NULL && e.code == XR_EPLAN && e.line == 7,
		   "bad argv: error at its position (%s)", e.msg);
		a.argv = NULL;
		argv = cellctx_argv(&c, &a, &e);
		ok(argv == NULL && e.code == 0, "absent argv: NULL, no error");
		cellctx_release(&c);
	}
	fx_free(p);
}

static struct plan_kv *kvs(struct plan *p, int n)
{
	return arena_alloc(p->arena, (size_t)n * sizeof(struct plan_kv));
}

/* Engine section, then each factor's param:/params: in factor order. */
static void test_request_level_params(void)
{
	static const char *const keys[] = {"parallel", "reverse", "udp",
					   "window", "bitrate"};
	static const struct {
		uint32_t lv[3];
		const char *v[5]; /* per keys[]; NULL = not set */
		double duration;
	} want[] = {
	    {{0, 0, 0}, {"1", "true", NULL, "128K", "1G"}, 10},
	    {{0, 1, 0}, {"4", "true", "true", "256K", "1G"}, 3},
	    {{0, 2, 0}, {"2", NULL, NULL, "128K", "1G"}, 10},
	};
	struct plan *p = fx_plan();
	struct plan_factor *f;
	struct plan_kv **lp;
	int *nlp;
	size_t i, k;
	p->engine.params = kvs(p, 1);
	p->engine.params[0] = (struct plan_kv){"parallel", "2", {1, 1}};
	p->engine.nparams = 1;
	p->vars[0].key = "n1";
	p->vars[0].value = "1";
	p->nvars = 1;
	fx_factor(p, "win", "128K")->param = "window";
	f = fx_factor(p, "test", "tcp-down-1,udp-down,tcp-up");
	lp = arena_alloc(p->arena, 3 * sizeof *lp);
	nlp = arena_alloc(p->arena, 3 * sizeof *nlp);
	lp[0] = kvs(p, 2);
	lp[0][0] = (struct plan_kv){"reverse", "true", {1, 1}};
	lp[0][1] = (struct plan_kv){"parallel", "{{n1}}", {1, 1}};
	nlp[0] = 2;
	lp[1] = kvs(p, 6);
	lp[1][0] = (struct plan_kv){"reverse", "true", {1, 1}};
	lp[1][1] = (struct plan_kv){"udp", "true", {1, 1}};
	lp[1][2] = (struct plan_kv){"parallel", "4", {1, 1}};
	lp[1][3] = (struct plan_kv){"bitrate", "700M", {1, 1}};
	lp[1][4] = (struct plan_kv){"window", "256K", {1, 1}};
	lp[1][5] = (struct plan_kv){"duration", "3s", {1, 1}};
	nlp[1] = 6;
	lp[2] = kvs(p, 1); /* {} */
	nlp[2] = 0;
	f->level_params = lp;
	f->nlevel_params = nlp;
	fx_factor(p, "rate", "1G")->param = "bitrate";
	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		struct cellctx c;
		struct cellctx_request r;
		struct xr_err e = {0};
		int rc;
		cellctx_init(&c, p, want[i].lv);
		rc = cellctx_request(&c, &r, &e);
		ok(rc == 0, "level %s: request (%s)", f->levels[i], e.msg);
		if (rc) {
			cellctx_release(&c);
			continue;
		}
		for (k = 0; k < 5; k++) {
			const char *got = param_of(&r.rq, keys[k]);
			if (want[i].v[k])
				ok(got && !strcmp(got, want[i].v[k]),
				   "level %s: %s = %s (got %s)", f->levels[i],
				   keys[k], want[i].v[k], got ? got : "none");
			else
				ok(got == NULL, "level %s: %s not set",
				   f->levels[i], keys[k]);
		}
		ok(fabs(r.rq.duration - want[i].duration) < 1e-9,
		   "level %s: duration %g", f->levels[i], r.rq.duration);
		ok(fabs(r.rq.timeout -
			(want[i].duration + CELLCTX_TIMEOUT_MARGIN)) < 1e-9,
		   "level %s: timeout follows the duration", f->levels[i]);
		cellctx_request_release(&r);
		cellctx_release(&c);
	}
	fx_free(p);
}

/* The hosts as the runner and the dry run both see them: which are needed,
 * each hook host's {{iface}}, and that a hook's iface wins in a lookup. */
static void test_hosts(void)
{
	struct plan *p = fx_plan();
	struct plan_factor *f;
	const char *on_srv[] = {"server"};
	char need[8];
	struct cellctx c;
	uint32_t lv[1] = {0};

	p->hosts[1].name = "server";
	p->hosts[1].netns = "xr-server";
	p->hosts[1].iface = "xr-veth";
	p->hosts[2].name = "unused";
	p->hosts[2].ssh = "me@unused.example";
	p->nhosts = 3;
	p->engine.server_host = "server";
	f = fx_factor(p, "mtu", "1500,9000");
	f->on = on_srv;
	f->non = 1;
	cellctx_hosts_needed(p, need);
	ok(need[0] && need[1] && !need[2], "needed: client and server, not an "
					   "unused host");
	is_int(cellctx_host_index(p, "client"), 0, "client is local");
	is_int(cellctx_host_index(p, "server"), 1, "server by role");
	is_int(cellctx_host_index(p, "nope"), -1, "unknown host");
	is_str(cellctx_iface(p, need, 1), "xr-veth", "server: its iface");
	ok(cellctx_iface(p, need, 0) == NULL,
	   "client of a plan with a netns host: no iface (not lo)");
	p->hosts[1].netns = NULL; /* both ends on this machine */
	is_str(cellctx_iface(p, need, 0), "lo", "all local: lo");
	p->vars[0].key = "iface";
	p->vars[0].value = "eth7";
	p->nvars = 1;
	is_str(cellctx_iface(p, need, 0), "eth7", "the var iface before lo");
	is_str(cellctx_iface(p, need, 1), "xr-veth", "a host's iface first");
	cellctx_init(&c, p, lv);
	c.iface = "hookif";
	is_str(cellctx_lookup(&c, "iface"), "hookif",
	       "a hook's host iface wins over the var");
	c.iface = NULL;
	is_str(cellctx_lookup(&c, "iface"), "eth7", "else the var");
	cellctx_release(&c);
	fx_free(p);
}

int main(void)
{
	tap_plan(53);
	test_lookup();
	test_request();
	test_request_level_params();
	test_hosts();
	return tap_done();
}
