/*
 * The plan loader's build context (see pctx.h): positioned errors and
 * warnings with a cap, did-you-mean hints, and the typed readers of YAML
 * nodes (strings, integers, booleans, durations, argv, maps, names),
 * plus the templates and host names noted for plan_check.c.
 *
 * SPDX-License-Identifier: MIT
 */
#include "pctx.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "buf.h"
#include "suggest.h"
#include "units.h"
#include "banned.h"

/* ---- messages ---------------------------------------------------------- */

int pc_room(struct pctx *c)
{
	if (c->d->nerr - c->nerr0 < PLAN_MAX_ERRORS)
		return 1;
	c->capped = 1;
	return 0;
}

int pc_level(struct pctx *c, int fi, const char *s)
{
	const struct plan_factor *f = &c->p->factors[fi];
	const int *idx = fi < c->nlvidx ? c->lvidx[fi] : NULL;
	int lo = 0, hi = f->nlevels - 1;
	if (!idx)
		return plan_level_index(f, s);
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		int cmp = strcmp(f->levels[idx[mid]], s);
		if (cmp == 0)
			return idx[mid];
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return PLAN_NOT_FOUND;
}

int pc_has_var(struct pctx *c, const char *name)
{
	const struct plan *p = c->p;
	int lo = 0, hi = p->nvars - 1;
	if (!c->varidx)
		return plan_var(p, name) != NULL;
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		int cmp = strcmp(p->vars[c->varidx[mid]].key, name);
		if (cmp == 0)
			return 1;
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return 0;
}

void pc_err(struct pctx *c, const struct ynode *n, const char *fmt, ...)
{
	va_list ap;
	if (!pc_room(c))
		return;
	va_start(ap, fmt);
	xr_diag_vadd(c->d, 0, n ? n->line : 0, n ? n->col : 0, fmt, ap);
	va_end(ap);
}

void pc_warn(struct pctx *c, const struct ynode *n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	xr_diag_vadd(c->d, 1, n ? n->line : 0, n ? n->col : 0, fmt, ap);
	va_end(ap);
}

void pc_hint(char *out, size_t outsz, const char *word,
	     const char *const *cands, int n)
{
	struct buf b;
	const char *s = suggest(word, cands, n > 0 ? (size_t)n : 0);
	int i;
	buf_init(&b, 0);
	buf_adds(&b, " (");
	if (s)
		buf_addf(&b, "did you mean '%s'? ", s);
	buf_adds(&b, n ? "valid: " : "none defined");
	for (i = 0; i < n && b.len < 400; i++)
		buf_addf(&b, "%s%s", i ? ", " : "", cands[i]);
	if (i < n)
		buf_addf(&b, ", ... %d more", n - i);
	buf_addc(&b, ')');
	snprintf(out, outsz, "%s", b.s);
	buf_release(&b);
}

void pc_factor_hint(char *out, size_t outsz, const char *word,
		    const struct plan *p)
{
	const char **names = malloc(((size_t)p->nfactors + 1) * sizeof *names);
	int i;
	out[0] = 0;
	if (!names)
		return;
	for (i = 0; i < p->nfactors; i++)
		names[i] = p->factors[i].name;
	pc_hint(out, outsz, word, names, p->nfactors);
	free(names);
}

int pc_is_key(const char *key, const char *const *valid)
{
	for (; *valid; valid++)
		if (strcmp(key, *valid) == 0)
			return 1;
	return 0;
}

static void check_keys(struct pctx *c, const struct ynode *map,
		       const char *const *valid, const char *where,
		       int extensions)
{
	int i, nv = 0;
	char hint[600];
	while (valid[nv])
		nv++;
	for (i = 0; map && map->kind == YN_MAP && i < map->n; i++) {
		const struct ynode *k = yn_key(map, i);
		if (pc_is_key(k->s, valid))
			continue;
		if (extensions && strncmp(k->s, "x-", 2) == 0)
			continue;
		if (!pc_room(c))
			return;
		pc_hint(hint, sizeof hint, k->s, valid, nv);
		pc_err(c, k, "unknown key '%s' in %s%s", k->s, where, hint);
	}
}

void pc_keys(struct pctx *c, const struct ynode *map, const char *const *valid,
	     const char *where)
{
	check_keys(c, map, valid, where, 0);
}

void pc_keys_with_extensions(struct pctx *c, const struct ynode *map,
			     const char *const *valid, const char *where)
{
	check_keys(c, map, valid, where, 1);
}

/* ---- typed readers ----------------------------------------------------- */

const char *pc_str(struct pctx *c, const struct ynode *n, const char *what)
{
	if (!n)
		return NULL;
	if (n->kind != YN_SCALAR || yn_is_null(n)) {
		pc_err(c, n, "'%s' must be a text value, not %s", what,
		       yn_kind_name(n));
		return NULL;
	}
	return n->s;
}

int pc_int(struct pctx *c, const struct ynode *n, const char *what,
	   long long lo, long long hi, long long *out)
{
	const char *s = pc_str(c, n, what);
	char *end;
	long long v;
	if (!s)
		return -XR_EPLAN;
	v = strtoll(s, &end, 10);
	if (!(s[0] >= '0' && s[0] <= '9') && s[0] != '-')
		end = (char *)s;
	if (end == s || *end || v < lo || v > hi) {
		pc_err(c, n, "'%s' must be an integer in %lld..%lld, not '%s'",
		       what, lo, hi, s);
		return -XR_EPLAN;
	}
	*out = v;
	return 0;
}

int pc_bool(struct pctx *c, const struct ynode *n, const char *what, int *out)
{
	static const char *const t[] = {"true", "True", "TRUE", "yes",
					"Yes",	"YES",	NULL};
	static const char *const f[] = {"false", "False", "FALSE", "no",
					"No",	 "NO",	  NULL};
	const char *s = pc_str(c, n, what);
	if (!s)
		return -XR_EPLAN;
	if (pc_is_key(s, t))
		*out = 1;
	else if (pc_is_key(s, f))
		*out = 0;
	else {
		pc_err(c, n, "'%s' must be true or false, not '%s'", what, s);
		return -XR_EPLAN;
	}
	return 0;
}

int pc_duration(struct pctx *c, const struct ynode *n, const char *what,
		double *out)
{
	const char *s = pc_str(c, n, what), *why;
	if (!s)
		return -XR_EPLAN;
	if (units_parse(s, UNITS_DURATION, out, &why) < 0) {
		pc_err(c, n, "bad duration '%s' for '%s': %s", s, what, why);
		return -XR_EPLAN;
	}
	return 0;
}

int pc_map(struct pctx *c, const struct ynode *n, const char *what)
{
	if (n && n->kind == YN_MAP)
		return 0;
	/* "host 'srv'" is quoted already; "engine" is not */
	pc_err(c, n,
	       strchr(what, '\'')
		   ? "%s must be a mapping (key: value), not %s"
		   : "'%s' must be a mapping (key: value), not %s",
	       what, yn_kind_name(n));
	return -XR_EPLAN;
}

int pc_argv(struct pctx *c, const struct ynode *n, const char *what,
	    struct plan_argv *out)
{
	int i, bad = 0;
	memset(out, 0, sizeof *out);
	if (!n)
		return -XR_EPLAN;
	if (n->kind != YN_SEQ || n->n == 0) {
		pc_err(c, n,
		       "'%s' must be a non-empty list of arguments (argv, "
		       "e.g. [sysctl, -n, net.ipv4.tcp_congestion_control]), "
		       "not %s",
		       what,
		       n->kind == YN_SEQ ? "an empty list" : yn_kind_name(n));
		return -XR_EPLAN;
	}
	out->argv = arena_alloc(c->a, ((size_t)n->n + 1) * sizeof(char *));
	if (!out->argv) {
		c->nomem = 1;
		return -XR_ENOMEM;
	}
	for (i = 0; i < n->n; i++) {
		const struct ynode *w = n->kids[i];
		if (w->kind != YN_SCALAR) {
			pc_err(c, w,
			       "argument %d of '%s' must be a scalar, "
			       "not %s",
			       i + 1, what, yn_kind_name(w));
			bad = 1;
			continue;
		}
		out->argv[out->argc++] = w->s;
		pc_tmpl(c, w->s, w);
	}
	out->pos.line = n->line;
	out->pos.col = n->col;
	return bad ? -1 : 0;
}

int pc_name_ok(const char *s, int allow_dot)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_' || *s == '-' ||
		      (allow_dot && *s == '.')))
			return 0;
	return 1;
}

void pc_tmpl(struct pctx *c, const char *s, const struct ynode *n)
{
	if (!s || !strstr(s, "{{"))
		return;
	if (c->ntrefs == c->trefs_cap) {
		size_t nc = c->trefs_cap ? c->trefs_cap * 2 : 32;
		struct plan_tref *t = realloc(c->trefs, nc * sizeof *t);
		if (!t) {
			c->nomem = 1;
			return;
		}
		c->trefs = t;
		c->trefs_cap = nc;
	}
	c->trefs[c->ntrefs].s = s;
	c->trefs[c->ntrefs].n = n;
	c->trefs[c->ntrefs].where = c->tref_where;
	c->ntrefs++;
}

void pc_tmpl_argv(struct pctx *c, const struct plan_argv *av,
		  const struct ynode *n)
{
	(void)c;
	(void)av;
	(void)n; /* pc_argv registered every word already */
}

void pc_host_ref(struct pctx *c, const char *name, const struct ynode *n,
		 int role_ok)
{
	if (!name)
		return;
	if (c->nhrefs == c->hrefs_cap) {
		size_t nc = c->hrefs_cap ? c->hrefs_cap * 2 : 16;
		struct plan_href *h = realloc(c->hrefs, nc * sizeof *h);
		if (!h) {
			c->nomem = 1;
			return;
		}
		c->hrefs = h;
		c->hrefs_cap = nc;
	}
	c->hrefs[c->nhrefs].name = name;
	c->hrefs[c->nhrefs].n = n;
	c->hrefs[c->nhrefs].role_ok = role_ok;
	c->nhrefs++;
}
