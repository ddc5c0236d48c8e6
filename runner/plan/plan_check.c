/*
 * Cross-reference checks of the plan loader (see plan_build.h), run once the
 * whole model is built so that the order of sections in the file does not
 * matter: hosts named by the engine and by factors, {{placeholders}},
 * verify probes, factors fighting over one engine parameter, exclusions
 * that leave nothing, and finally the engine's own check().
 *
 * SPDX-License-Identifier: MIT
 */
#include "plan_build.h"
#include "pctx.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tmpl.h"
#include "utf8.h"
#include "banned.h"

static void check_hosts(struct pctx *c)
{
	const struct plan *p = c->p;
	const char **names;
	size_t i;
	int k;
	names = malloc(((size_t)p->nhosts + 3) * sizeof *names);
	if (!names) {
		c->nomem = 1;
		return;
	}
	for (i = 0; i < c->nhrefs; i++) {
		const struct plan_href *h = &c->hrefs[i];
		char hint[600];
		int n = 0;
		if (plan_host_find(p, h->name))
			continue;
		if (h->role_ok && strcmp(h->name, "client") == 0)
			continue;
		/* a role that a factor binds to a host per level */
		if (h->role_ok && plan_role_factor(p, h->name) >= 0)
			continue;
		if (h->role_ok && strcmp(h->name, "server") == 0) {
			if (p->engine.server_host)
				continue;
			pc_err(c, h->n,
			       "'on: server' but the engine has no server "
			       "host");
			continue;
		}
		for (k = 0; k < p->nhosts; k++)
			names[n++] = p->hosts[k].name;
		if (h->role_ok) {
			names[n++] = "client";
			names[n++] = "server";
		}
		pc_hint(hint, sizeof hint, h->name, names, n);
		pc_err(c, h->n, "undefined host '%s'%s", h->name, hint);
	}
	free(names);
}

struct tctx {
	struct pctx *c;
	const struct plan_tref *t;
	const char **names;
	int nnames;
	int k; /* placeholders of this template seen so far */
};

static int known_name(struct pctx *c, const char *name)
{
	/* a search's load (plan_search.c) is the placeholder of its param */
	return plan_factor_index(c->p, name) >= 0 || pc_has_var(c, name) ||
	       placeholder_find(name) >= 0 ||
	       (c->p->search.param && !strcmp(name, c->p->search.param));
}

static const char *builtin_unset(struct pctx *c, const char *name)
{
	const struct plan *p = c->p;
	int i;
	if (plan_factor_index(p, name) >= 0 || pc_has_var(c, name))
		return NULL;
	switch (placeholder_find(name)) {
	case PH_IFACE:
		for (i = 0; i < p->nhosts; i++)
			if (p->hosts[i].iface)
				return NULL;
		return "set 'iface' on the client host (hosts: { local: { "
		       "iface: eth0 } }) or a var 'iface'";
	case PH_SERVER:
		if (!p->engine.server_host)
			return "the engine has no 'server'";
		return NULL;
	case PH_TARGET:
		if (!p->engine.server_host && !p->engine.target)
			return "the engine has neither 'server' nor 'target'";
		return NULL;
	default:
		return NULL;
	}
}

struct kth {
	int k;	    /* placeholders still to skip */
	size_t off; /* OUT: byte offset of the k-th one */
};

static int kth_placeholder(void *ctx, const char *name, size_t off)
{
	struct kth *q = ctx;
	(void)name;
	if (q->k-- > 0)
		return 0;
	q->off = off;
	return 1;
}

/*
 * Where the k-th placeholder of scalar n was written. The scalar's text
 * has lost its quotes, escapes ('it''s', "\t") and line folding, so the
 * position is found in its source instead: columns count characters,
 * and a placeholder in a block scalar gets its own line.
 */
static void placeholder_pos(const struct ynode *n, int k, int *line, int *col)
{
	struct kth q = {k, 0};
	char *raw;
	size_t i, len;
	uint32_t cp;
	if (!n->src || !n->srclen || !(raw = malloc(n->srclen + 1)))
		return;
	memcpy(raw, n->src, n->srclen);
	raw[n->srclen] = 0;
	if (tmpl_each(raw, kth_placeholder, &q)) {
		for (i = 0; i < q.off; i += len) {
			len = utf8_next(raw + i, q.off - i, &cp);
			if (cp == '\n') {
				++*line;
				*col = 1;
			} else {
				++*col;
			}
		}
	}
	free(raw);
}

/* Built-ins that have a value only in some templates. */
static const char *builtin_misplaced(struct pctx *c, const char *name,
				     int where)
{
	int i;
	if (plan_factor_index(c->p, name) >= 0 || pc_has_var(c, name))
		return NULL;
	i = placeholder_find(name);
	if (i < 0 || (placeholders[i].sites & (unsigned)where))
		return NULL;
	return placeholders[i].off;
}

static int on_placeholder(void *ctx, const char *name, size_t off)
{
	struct tctx *x = ctx;
	const struct ynode *n = x->t->n;
	char hint[600];
	int line = n->line, col = n->col;
	const char *why;
	(void)off;
	/* point at the placeholder itself when the text is the scalar's */
	if (n->kind == YN_SCALAR && n->s == x->t->s)
		placeholder_pos(n, x->k, &line, &col);
	x->k++;
	if (!pc_room(x->c))
		return 0;
	if (known_name(x->c, name)) {
		/* a built-in that can have no value in this plan fails every
		 * run; better said now than at 03:00 */
		if ((why = builtin_unset(x->c, name)))
			xr_diag_add(x->c->d, 0, line, col,
				    "placeholder '{{%s}}' has no value in this "
				    "plan: %s",
				    name, why);
		else if ((why = builtin_misplaced(x->c, name, x->t->where)))
			xr_diag_add(
			    x->c->d, 0, line, col,
			    "placeholder '{{%s}}' has no value here: %s", name,
			    why);
		return 0;
	}
	pc_hint(hint, sizeof hint, name, x->names, x->nnames);
	xr_diag_add(x->c->d, 0, line, col,
		    "placeholder '{{%s}}' names no factor, var or built-in%s",
		    name, hint);
	return 0;
}

static void check_placeholders(struct pctx *c)
{
	const struct plan *p = c->p;
	struct tctx x;
	size_t i;
	int k;
	if (!c->ntrefs)
		return;
	memset(&x, 0, sizeof x);
	x.c = c;
	x.names = malloc(((size_t)p->nfactors + (size_t)p->nvars + PH_COUNT) *
			 sizeof *x.names);
	if (!x.names) {
		c->nomem = 1;
		return;
	}
	for (k = 0; k < p->nfactors; k++)
		x.names[x.nnames++] = p->factors[k].name;
	for (k = 0; k < p->nvars; k++)
		x.names[x.nnames++] = p->vars[k].key;
	for (k = 0; k < PH_COUNT; k++)
		if (!pc_has_var(c, placeholders[k].name)) /* a var 'iface' */
			x.names[x.nnames++] = placeholders[k].name;
	for (i = 0; i < c->ntrefs; i++) {
		x.t = &c->trefs[i];
		x.k = 0;
		tmpl_each(x.t->s, on_placeholder, &x);
	}
	free(x.names);
}

static int is_target(void *ctx, const char *name, size_t off)
{
	(void)ctx;
	(void)off;
	return placeholder_find(name) == PH_TARGET;
}

/* {{target}} inside engine.target would never finish expanding. */
static void check_target(struct pctx *c)
{
	const char *t = c->p->engine.target;
	if (t && c->target_node && tmpl_each(t, is_target, NULL))
		pc_err(c, c->target_node,
		       "'engine.target' cannot use '{{target}}' (it is the "
		       "value being defined); use '{{server}}' or an address");
}

/* A server on this machine without an address: the engine connects to
 * 127.0.0.1, which on a client in another namespace or machine is the
 * client's own loopback. */
/* A server host reached as 127.0.0.1 from a client on another machine or
 * namespace: that client would connect to its own loopback. Every pair a
 * hosts: binding can make is checked. */
static void check_loopback_target(struct pctx *c)
{
	const struct plan *p = c->p;
	char *cl, *sv;
	int i, j;
	if (p->engine.target || !p->engine.server_host || !c->engine_node)
		return;
	cl = calloc((size_t)p->nhosts + 1, 1);
	sv = calloc((size_t)p->nhosts + 1, 1);
	if (!cl || !sv) {
		free(cl);
		free(sv);
		c->nomem = 1;
		return;
	}
	plan_role_hosts(p, "client", cl);
	plan_role_hosts(p, "server", sv);
	for (i = 0; i < p->nhosts; i++) {
		const struct plan_host *srv = &p->hosts[i];
		if (!sv[i] || srv->ssh || srv->netns ||
		    (srv->address && strcmp(srv->address, "127.0.0.1") != 0))
			continue;
		for (j = 0; j < p->nhosts; j++) {
			const struct plan_host *cli = &p->hosts[j];
			if (!cl[j] || (!cli->ssh && !cli->netns))
				continue;
			pc_err(c, c->engine_node,
			       "the server host '%s' has no address but "
			       "127.0.0.1: the client on '%s' would connect to "
			       "127.0.0.1, its own loopback; give host '%s' an "
			       "address: reachable from '%s', or set "
			       "engine.target",
			       srv->name, cli->name, srv->name, cli->name);
		}
	}
	free(cl);
	free(sv);
}

static int is_listed(const char *s, const char *const *names)
{
	for (int i = 0; names[i]; i++) {
		size_t n = strlen(names[i]);
		/* "nic.property:" names a family: nic.property:NAME */
		if (strcmp(s, names[i]) == 0 ||
		    (n && names[i][n - 1] == ':' &&
		     strncmp(s, names[i], n) == 0 && s[n]))
			return 1;
	}
	return 0;
}

static void check_probes(struct pctx *c)
{
	const struct plan *p = c->p;
	const char *const *names = c->cat ? c->cat->probe_names : NULL;
	int i, n;
	if (!names)
		return;
	for (n = 0; names[n]; n++)
		;
	for (i = 0; i < p->nfactors; i++) {
		int j;
		for (j = 0; j < p->factors[i].nverify; j++) {
			const struct plan_verify *v = &p->factors[i].verify[j];
			char hint[600];
			if (!v->probe || !pc_room(c))
				continue;
			if (is_listed(v->probe, names))
				continue;
			pc_hint(hint, sizeof hint, v->probe, names, n);
			xr_diag_add(c->d, 0, v->pos.line, v->pos.col,
				    "unknown probe '%s' in factor '%s'%s",
				    v->probe, p->factors[i].name, hint);
		}
	}
}

/* latency: its probe in the catalog; to: a host, a role or an IP
 * address (from: is a host reference, checked with the others). */
static void check_latency(struct pctx *c)
{
	const struct plan_latency *l = &c->p->latency;
	const char *const *names = c->cat ? c->cat->latency_probe_names : NULL;
	unsigned char a[16];
	char hint[600];
	int n;
	if (!l->probe)
		return;
	if (names && !is_listed(l->probe, names)) {
		for (n = 0; names[n]; n++)
			;
		pc_hint(hint, sizeof hint, l->probe, names, n);
		xr_diag_add(c->d, 0, l->probe_pos.line, l->probe_pos.col,
			    "unknown latency probe '%s'%s", l->probe, hint);
	}
	if (!l->to || plan_host_find(c->p, l->to) || !strcmp(l->to, "client") ||
	    plan_role_factor(c->p, l->to) >= 0 ||
	    (!strcmp(l->to, "server") && c->p->engine.server_host) ||
	    inet_pton(AF_INET, l->to, a) == 1 ||
	    inet_pton(AF_INET6, l->to, a) == 1)
		return;
	xr_diag_add(c->d, 0, l->to_pos.line, l->to_pos.col,
		    "'latency.to' is neither a host of the plan, a role nor "
		    "an IP address: '%s'",
		    l->to);
}

static void check_params(struct pctx *c)
{
	const struct plan *p = c->p;
	int i, j;
	for (i = 0; i < p->nfactors; i++) {
		const struct plan_factor *f = &p->factors[i];
		if (!f->param)
			continue;
		for (j = 0; j < i; j++)
			if (p->factors[j].param &&
			    strcmp(p->factors[j].param, f->param) == 0) {
				xr_diag_add(c->d, 0, f->pos.line, f->pos.col,
					    "factors '%s' and '%s' both set "
					    "engine parameter '%s'",
					    p->factors[j].name, f->name,
					    f->param);
				break;
			}
	}
	/* without an engine check(), has_param() is the whole truth */
	if (!c->ops || c->ops->check || !c->ops->has_param)
		return;
	for (i = 0; i < p->engine.nparams; i++) {
		const struct plan_kv *kv = &p->engine.params[i];
		if (!c->ops->has_param(kv->key))
			xr_diag_add(c->d, 0, kv->pos.line, kv->pos.col,
				    "unknown parameter '%s' for engine '%s'",
				    kv->key, p->engine.type);
	}
}

void plan_check_refs(struct pctx *c)
{
	check_hosts(c);
	plan_check_bindings(c);
	check_placeholders(c);
	check_probes(c);
	check_latency(c);
	check_target(c);
	check_loopback_target(c);
	check_params(c);
	plan_check_cells_left(c);
	if (c->ops && c->ops->check && !c->nomem)
		c->ops->check(c->p, c->d);
}
