/*
 * Factor-bound hosts (part of the loader, see plan_int.h): a factor's
 * `hosts:` says which host plays a role (client, server, a name used in
 * `on:`) at each of its levels, so that one plan can run its Windows half
 * on one machine and its Linux half on another. Here: reading the mapping,
 * checking that every level names a defined host and that no role is bound
 * twice, and the lookup the runner and `xrun plan` share.
 *
 * SPDX-License-Identifier: MIT
 */
#include "plan_build.h"
#include "pctx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "buf.h"
#include "tmpl.h"
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
	b->host_pos =
	    arena_alloc(c->a, ((size_t)f->nlevels + 1) * sizeof *b->host_pos);
	b->table = b->host;
	b->nways = 1;
	if (!b->host || !b->host_pos) {
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
		b->host_pos[li] = pc_pos(hv);
		/* "x570-{{os}}" is checked once every factor is known */
		if (!strstr(h, "{{"))
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

/* ---- host names that hold other factors' levels ----------------------- */

struct refs {
	struct pctx *c;
	struct plan_binding *b;
	int self;		/* the binding factor */
	int bad;		/* a placeholder that is not another factor */
	const uint32_t *digits; /* expansion: level of each ref */
	struct ynode at;
};

static int add_ref(void *ctx, const char *name, size_t off)
{
	struct refs *r = ctx;
	const struct plan *p = r->c->p;
	int f = plan_factor_index(p, name), k;
	(void)off;
	if (f < 0 || f == r->self) {
		pc_err(r->c, &r->at,
		       "placeholder '{{%s}}' in a host name must name another "
		       "factor (its level picks the host)",
		       name);
		r->bad = 1;
		return 0;
	}
	for (k = 0; k < r->b->nref && r->b->ref[k] != f; k++)
		;
	if (k == r->b->nref && r->b->nref < 8)
		r->b->ref[r->b->nref++] = f;
	return 0;
}

static const char *ref_lookup(void *ctx, const char *name)
{
	struct refs *r = ctx;
	const struct plan *p = r->c->p;
	int f = plan_factor_index(p, name), k;
	for (k = 0; k < r->b->nref; k++)
		if (r->b->ref[k] == f)
			return p->factors[f].levels[r->digits[k]];
	return NULL;
}

/* Expand every level x combination of a templated binding into table[]
 * and check that each names a defined host. */
static void expand_binding(struct pctx *c, int fi, struct plan_binding *b)
{
	const struct plan *p = c->p;
	const struct plan_factor *fa = &p->factors[fi];
	struct refs r = {c, b, fi, 0, NULL, {0}};
	uint32_t digits[8];
	struct buf out = BUF_INIT;
	const char **names;
	char hint[600];
	size_t k, l;
	int i, j;
	if (!(b->ref = arena_alloc(c->a, 8 * sizeof *b->ref)))
		goto nomem;
	for (l = 0; l < (size_t)fa->nlevels; l++) {
		r.at.line = b->host_pos[l].line;
		r.at.col = b->host_pos[l].col;
		if (b->host[l])
			tmpl_each(b->host[l], add_ref, &r);
	}
	if (r.bad || !b->nref)
		return;
	for (i = 0; i < b->nref; i++)
		b->nways *= (size_t)p->factors[b->ref[i]].nlevels;
	if (b->nways > 4096) {
		pc_err(c, &r.at,
		       "host names of 'hosts.%s' of factor '%s' "
		       "expand to too many hosts (%zu)",
		       b->role, fa->name, b->nways);
		b->nways = 1;
		return;
	}
	b->table = arena_alloc(c->a, (size_t)fa->nlevels * b->nways *
					 sizeof *b->table);
	names = malloc(((size_t)p->nhosts + 1) * sizeof *names);
	if (!b->table || !names) {
		free(names);
		goto nomem;
	}
	for (i = 0; i < p->nhosts; i++)
		names[i] = p->hosts[i].name;
	r.digits = digits;
	for (l = 0; l < (size_t)fa->nlevels; l++)
		for (k = 0; k < b->nways; k++) {
			size_t rest = k;
			for (j = b->nref - 1; j >= 0; j--) {
				uint32_t n =
				    (uint32_t)p->factors[b->ref[j]].nlevels;
				digits[j] = (uint32_t)(rest % n);
				rest /= n;
			}
			buf_reset(&out);
			tmpl_expand(b->host[l], ref_lookup, &r, &out, NULL, 0);
			b->table[l * b->nways + k] = arena_strdup(c->a, out.s);
			if (plan_host_find(p, out.s) || !pc_room(c))
				continue;
			r.at.line = b->host_pos[l].line;
			r.at.col = b->host_pos[l].col;
			pc_hint(hint, sizeof hint, out.s, names, p->nhosts);
			pc_err(c, &r.at,
			       "'hosts.%s' of factor '%s' level '%s' names "
			       "undefined host '%s' when %s=%s%s",
			       b->role, fa->name, fa->levels[l], out.s,
			       p->factors[b->ref[0]].name,
			       p->factors[b->ref[0]].levels[digits[0]], hint);
		}
	free(names);
	buf_release(&out);
	return;
nomem:
	c->nomem = 1;
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
			struct plan_binding *bd = &fa->bind[b];
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
			if (bd->host && bd->host_pos)
				expand_binding(c, f, bd);
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
	return PLAN_NOT_FOUND;
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
		for (b = 0; b < fa->nbind; b++) {
			const struct plan_binding *bd = &fa->bind[b];
			size_t k = 0;
			int j;
			if (strcmp(bd->role, role) != 0 || !bd->table ||
			    lv[f] >= (uint32_t)fa->nlevels)
				continue;
			for (j = 0; j < bd->nref; j++)
				k = k * (size_t)p->factors[bd->ref[j]].nlevels +
				    lv[bd->ref[j]];
			return bd->table[(size_t)lv[f] * bd->nways + k];
		}
	}
	if (!strcmp(role, "client"))
		return p->engine.client ? p->engine.client : "local";
	if (!strcmp(role, "server"))
		return p->engine.server_host;
	return plan_host_find(p, role) ? role : NULL;
}

void plan_role_hosts(const struct plan *p, const char *role, char *mark)
{
	int f = plan_role_factor(p, role), b;
	size_t k;
	const struct plan_host *h;
	if (f < 0) {
		if ((h = plan_host_find(p, plan_role_host(p, role, NULL))))
			mark[h - p->hosts] = 1;
		return;
	}
	for (b = 0; b < p->factors[f].nbind; b++) {
		const struct plan_binding *bd = &p->factors[f].bind[b];
		if (strcmp(bd->role, role) != 0 || !bd->table)
			continue;
		for (k = 0; k < (size_t)p->factors[f].nlevels * bd->nways; k++)
			if ((h = plan_host_find(p, bd->table[k])))
				mark[h - p->hosts] = 1;
	}
}
