/*
 * What the runner's modules ask of the run's state (runctx.h): which plan
 * host a role or a name means in a cell and its interface, and the
 * placeholder lookup every template of a run goes through (opening those
 * hosts is hostset.c's). Both
 * hooks.c and runloop.c use these; keeping them here keeps those two
 * files from depending on each other (runloop.c calls hooks.c, never the
 * reverse).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cellctx.h"
#include "host.h"
#include "placeholder.h"
#include "plan.h"
#include "runctx.h"
#include "strv.h"
#include "tmpl.h"
#include "banned.h"

/* ---- hosts: which one a role or a name means ---------------------------- */

int runctx_role_index(const struct runctx *rc, const char *role,
		      const uint32_t *lv)
{
	return cellctx_role_index(rc->p, role, lv);
}

int runctx_host_index(const struct runctx *rc, const char *name)
{
	if (!strcmp(name, "client") && rc->client_hi >= 0 &&
	    !plan_host_find(rc->p, name))
		return rc->client_hi;
	if (!strcmp(name, "server") && rc->server_hi >= 0 &&
	    !plan_host_find(rc->p, name))
		return rc->server_hi;
	return cellctx_host_index(rc->p, name);
}

struct host *runctx_host(struct runctx *rc, const char *name)
{
	int i = runctx_host_index(rc, name);
	return i >= 0 && rc->hosts ? rc->hosts[i] : NULL;
}

/* The same answer as `xrun plan` gives (cellctx_iface); rc->need holds
 * every host the plan can use, so opening lazily changes nothing. */
const char *runctx_iface(const struct runctx *rc, int hi)
{
	return cellctx_iface(rc->p, rc->need, hi);
}

/* ---- placeholders ----------------------------------------------------- */

void runctx_tmpl_init(struct runctx_tmpl *t, struct runctx *rc,
		      const uint32_t *lv, size_t position)
{
	static const uint32_t none[1];
	const struct sched_run *run =
	    lv && position < rc->s.nruns ? &rc->s.runs[position] : NULL;
	struct host *h;
	memset(t, 0, sizeof *t);
	/* A plan-level template (on_finish) has no cell: factor names
	 * resolve to nothing there, which validation already forbids. */
	cellctx_init(&t->c, rc->p, lv ? lv : none);
	t->c.lv = lv;
	if (run) {
		t->c.rep = run->rep;
		t->c.block = run->block;
	}
	t->c.index = position;
	t->c.session = rc->session_id;
	/* The open hosts of this cell; a host not open yet (a dry part of
	 * the plan) resolves from the plan, as `xrun plan` does. */
	if (lv && rc->hosts) {
		int ci = runctx_role_index(rc, "client", lv);
		int si = plan_role_host(rc->p, "server", lv)
			     ? runctx_role_index(rc, "server", lv)
			     : -1;
		if (ci >= 0 && (h = rc->hosts[ci]))
			t->c.client = host_address(h);
		if (si >= 0 && (h = rc->hosts[si]))
			t->c.server = host_address(h);
	} else {
		if ((h = runctx_host(rc, "client")))
			t->c.client = host_address(h);
		if (rc->server_hi >= 0 && rc->hosts &&
		    (h = rc->hosts[rc->server_hi]))
			t->c.server = host_address(h);
	}
	t->override_factor = -1;
}

void runctx_tmpl_release(struct runctx_tmpl *t)
{
	cellctx_release(&t->c);
}

const char *runctx_lookup(void *ctx, const char *name)
{
	struct runctx_tmpl *t = ctx;
	if (t->override_factor >= 0 &&
	    plan_factor_index(t->c.plan, name) == t->override_factor)
		return t->override;
	if (!t->c.lv && plan_factor_index(t->c.plan, name) >= 0)
		return NULL;
	return cellctx_lookup(&t->c, name);
}

int runctx_expand(const char *tpl, struct runctx_tmpl *t, struct buf *out,
		  struct xr_err *err)
{
	char bad[64] = "";
	buf_reset(out);
	if (tmpl_expand(tpl ? tpl : "", runctx_lookup, t, out, bad,
			sizeof bad) < 0)
		return xr_err_set(err, XR_EPLAN, t->c.plan->path, 0, 0,
				  "placeholder '{{%s}}' in '%s' names nothing "
				  "known here",
				  bad, tpl);
	return 0;
}

char **runctx_expand_argv(const char *const *tv, struct runctx_tmpl *t,
			  struct xr_err *err)
{
	struct buf b = BUF_INIT;
	size_t n = 0, i;
	char **argv;
	while (tv && tv[n])
		n++;
	argv = calloc(n + 1, sizeof *argv);
	if (!argv) {
		xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
		return NULL;
	}
	for (i = 0; i < n; i++) {
		if (runctx_expand(tv[i], t, &b, err) < 0 ||
		    !(argv[i] = buf_detach(&b, NULL))) {
			buf_release(&b);
			runctx_argv_free(argv);
			return NULL;
		}
	}
	buf_release(&b);
	return argv;
}

void runctx_argv_free(char **argv)
{
	strv_free(argv);
}
