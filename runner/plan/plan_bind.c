/*
 * Factor-bound hosts (part of the loader, see plan_int.h): a factor's
 * `hosts:` says which host plays a role (client, server, a name used in
 * `on:`) at each of its levels, so that one plan can run its Windows half
 * on one machine and its Linux half on another. Here: reading the mapping,
 * checking that every level names a defined host and that no role is bound
 * twice, and the lookup the runner and `xrun plan` share.
 */
#include "plan_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "banned.h"

/* One role's mapping level -> host. */
static void build_binding(struct pctx *c, struct plan_factor *f,
			  struct plan_binding *b, const struct ynode *k,
			  const struct ynode *m)
{
	int i, fi = (int)(f - c->p->factors);
	char hint[600];
	b->role = k->s;
	b->pos = pc_pos(k);
	if (m->kind != YN_MAP) {
		pc_err(c, m,
		       "'hosts.%s' of factor '%s' must be a mapping level -> "
		       "host (e.g. { %s: win11 }), not %s",
		       k->s, f->name, f->nlevels ? f->levels[0] : "a",
		       yn_is_null(m) ? "empty" : yn_kind_name(m));
		return;
	}
	b->host = arena_alloc(c->a, ((size_t)f->nlevels + 1) * sizeof(char *));
	if (!b->host) {
		c->nomem = 1;
		return;
	}
	for (i = 0; i < m->n; i++) {
		const struct ynode *lk = yn_key(m, i), *hv = yn_val(m, i);
		int li = pc_level(c, fi, lk->s);
		const char *h;
		if (li < 0) {
			pc_hint(hint, sizeof hint, lk->s, f->levels,
				f->nlevels);
			pc_err(c, lk,
			       "'hosts.%s' names unknown level '%s' of factor "
			       "'%s'%s",
			       k->s, lk->s, f->name, hint);
			continue;
		}
		if (!(h = pc_str(c, hv, "host")))
			continue;
		b->host[li] = h;
		pc_host_ref(c, h, hv, 0);
	}
	for (i = 0; i < f->nlevels; i++)
		if (!b->host[i])
			pc_err(c, m,
			       "'hosts.%s' has no host for level '%s' of "
			       "factor '%s' (give every level one)",
			       k->s, f->levels[i], f->name);
}

void plan_build_bindings(struct pctx *c, struct plan_factor *f,
			 const struct ynode *n)
{
	int i;
	if (n->kind != YN_MAP || n->n == 0) {
		pc_err(c, n,
		       "'hosts' of factor '%s' must be a mapping role -> "
		       "{ level: host } (e.g. hosts: { client: { %s: win11 } "
		       "}), not %s",
		       f->name, f->nlevels ? f->levels[0] : "a",
		       n->kind == YN_MAP ? "an empty mapping"
					 : yn_kind_name(n));
		return;
	}
	f->bind = arena_alloc(c->a, (size_t)(n->n + 1) * sizeof *f->bind);
	if (!f->bind) {
		c->nomem = 1;
		return;
	}
	for (i = 0; i < n->n; i++) {
		const struct ynode *k = yn_key(n, i);
		if (!pc_name_ok(k->s, 1)) {
			pc_err(c, k, "bad role name '%s'", k->s);
			continue;
		}
		build_binding(c, f, &f->bind[f->nbind++], k, yn_val(n, i));
	}
}

/* Roles a binding may name: client, server and every name in an `on:`. */
static int role_names(const struct plan *p, const char **out, int cap)
{
	int n = 0, f, k, j;
	out[n++] = "client";
	out[n++] = "server";
	for (f = 0; f < p->nfactors; f++)
		for (k = 0; k < p->factors[f].non; k++) {
			const char *s = p->factors[f].on[k];
			for (j = 0; j < n && strcmp(out[j], s); j++)
				;
			if (j == n && n < cap)
				out[n++] = s;
		}
	return n;
}

void plan_check_bindings(struct pctx *c)
{
	const struct plan *p = c->p;
	int f, b, g, e, cap = 2, n;
	const char **roles;
	char hint[600];
	for (f = 0; f < p->nfactors; f++)
		cap += p->factors[f].non;
	if (!(roles = malloc((size_t)cap * sizeof *roles))) {
		c->nomem = 1;
		return;
	}
	n = role_names(p, roles, cap);
	for (f = 0; f < p->nfactors; f++) {
		const struct plan_factor *fa = &p->factors[f];
		for (b = 0; b < fa->nbind; b++) {
			const struct plan_binding *bd = &fa->bind[b];
			struct ynode at = {0};
			at.line = bd->pos.line;
			at.col = bd->pos.col;
			for (e = 0; e < n && strcmp(roles[e], bd->role); e++)
				;
			if (e == n) {
				pc_hint(hint, sizeof hint, bd->role, roles, n);
				pc_err(c, &at,
				       "factor '%s' binds unknown role '%s' "
				       "(a role is client, server or a name "
				       "used in a factor's 'on')%s",
				       fa->name, bd->role, hint);
			}
			if (!strcmp(bd->role, "server") &&
			    !p->engine.server_host)
				pc_err(c, &at,
				       "factor '%s' binds 'server' but the "
				       "engine has no server",
				       fa->name);
			/* the first binder wins; later ones are errors */
			for (g = 0; g <= f; g++) {
				const struct plan_factor *o = &p->factors[g];
				int ob, hit = 0;
				for (ob = 0; ob < o->nbind; ob++)
					if ((g < f || ob < b) &&
					    !strcmp(o->bind[ob].role, bd->role))
						hit = 1;
				if (!hit)
					continue;
				pc_err(c, &at,
				       "role '%s' is bound by two factors: "
				       "'%s' (line %d) and '%s'",
				       bd->role, o->name, o->pos.line,
				       fa->name);
				break;
			}
		}
	}
	free(roles);
}

/* ---- lookups ------------------------------------------------------------ */

int plan_role_factor(const struct plan *p, const char *role)
{
	int f, b;
	for (f = 0; role && f < p->nfactors; f++)
		for (b = 0; b < p->factors[f].nbind; b++)
			if (!strcmp(p->factors[f].bind[b].role, role))
				return f;
	return -1;
}

int plan_has_bindings(const struct plan *p)
{
	int f;
	for (f = 0; f < p->nfactors; f++)
		if (p->factors[f].nbind)
			return 1;
	return 0;
}

const char *plan_role_host(const struct plan *p, const char *role,
			   const uint32_t *lv)
{
	int f, b;
	if (!role)
		return NULL;
	if (lv && (f = plan_role_factor(p, role)) >= 0) {
		const struct plan_factor *fa = &p->factors[f];
		for (b = 0; b < fa->nbind; b++)
			if (!strcmp(fa->bind[b].role, role) &&
			    fa->bind[b].host && lv[f] < (uint32_t)fa->nlevels &&
			    fa->bind[b].host[lv[f]])
				return fa->bind[b].host[lv[f]];
	}
	/* a host's own name before the role names: a host may be called
	 * "server" */
	if (plan_host_find(p, role))
		return role;
	if (!strcmp(role, "client"))
		return p->engine.client ? p->engine.client : "local";
	if (!strcmp(role, "server"))
		return p->engine.server_host;
	return NULL;
}
