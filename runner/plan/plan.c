/*
 * The plan loader (see plan.h): reads a YAML plan through plan_yaml.c,
 * builds the model in one arena and reports every problem it finds with
 * the line:col of the offending key or value. This file holds the entry
 * points, the typed readers shared by the other plan_*.c files, the
 * top-level keys and the lookups of plan.h. Sections live in
 * plan_sections.c (hosts, vars, engine), plan_factor.c (factors, exclude),
 * plan_report.c; cross-references are checked in plan_check.c.
 */
#include "plan_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "buf.h"
#include "sha256.h"
#include "suggest.h"
#include "units.h"
#include "utf8.h"
#include "banned.h"

const char *const plan_builtins[] = {"rep",	 "index",  "block",  "plan",
				     "session",	 "client", "server", "target",
				     "original", "iface",  NULL};

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
	return -1;
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

static const char *const top_keys[] = {
    "xrun",   "name",	 "title",    "description", "hosts",  "vars",
    "engine", "factors", "exclude",  "repeat",	    "order",  "seed",
    "warmup", "settle",	 "counters", "on_finish",   "report", NULL};

void pc_keys(struct pctx *c, const struct ynode *map, const char *const *valid,
	     const char *where)
{
	int i, nv = 0;
	char hint[600];
	while (valid[nv])
		nv++;
	for (i = 0; map && map->kind == YN_MAP && i < map->n; i++) {
		const struct ynode *k = yn_key(map, i);
		if (pc_is_key(k->s, valid))
			continue;
		/* "x-..." at the top holds anchors to reuse (as in compose) */
		if (valid == top_keys && strncmp(k->s, "x-", 2) == 0)
			continue;
		if (!pc_room(c))
			return;
		pc_hint(hint, sizeof hint, k->s, valid, nv);
		pc_err(c, k, "unknown key '%s' in %s%s", k->s, where, hint);
	}
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
		return -1;
	v = strtoll(s, &end, 10);
	if (!(s[0] >= '0' && s[0] <= '9') && s[0] != '-')
		end = (char *)s;
	if (end == s || *end || v < lo || v > hi) {
		pc_err(c, n, "'%s' must be an integer in %lld..%lld, not '%s'",
		       what, lo, hi, s);
		return -1;
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
		return -1;
	if (pc_is_key(s, t))
		*out = 1;
	else if (pc_is_key(s, f))
		*out = 0;
	else {
		pc_err(c, n, "'%s' must be true or false, not '%s'", what, s);
		return -1;
	}
	return 0;
}

int pc_duration(struct pctx *c, const struct ynode *n, const char *what,
		double *out)
{
	const char *s = pc_str(c, n, what), *why;
	if (!s)
		return -1;
	if (units_parse(s, UNITS_DURATION, out, &why) < 0) {
		pc_err(c, n, "bad duration '%s' for '%s': %s", s, what, why);
		return -1;
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
	return -1;
}

int pc_argv(struct pctx *c, const struct ynode *n, const char *what,
	    struct plan_argv *out)
{
	int i, bad = 0;
	memset(out, 0, sizeof *out);
	if (!n)
		return -1;
	if (n->kind != YN_SEQ || n->n == 0) {
		pc_err(c, n,
		       "'%s' must be a non-empty list of arguments (argv, "
		       "e.g. [sysctl, -n, net.ipv4.tcp_congestion_control]), "
		       "not %s",
		       what,
		       n->kind == YN_SEQ ? "an empty list" : yn_kind_name(n));
		return -1;
	}
	out->argv = arena_alloc(c->a, ((size_t)n->n + 1) * sizeof(char *));
	if (!out->argv) {
		c->nomem = 1;
		return -1;
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

/* ---- top level ---------------------------------------------------------- */

static void build_counters(struct pctx *c, const struct ynode *n)
{
	static const char *const names[] = {"nic", "tcp",  "cpu", "capture",
					    "all", "none", NULL};
	int i, cnt = n->kind == YN_SEQ ? n->n : 1;
	unsigned bits = 0;
	if (n->kind == YN_MAP) {
		pc_err(c, n,
		       "'counters' must be a list (e.g. [nic, tcp, cpu]) or "
		       "all / none, not a mapping");
		return;
	}
	for (i = 0; i < cnt; i++) {
		const struct ynode *x = n->kind == YN_SEQ ? n->kids[i] : n;
		const char *s = pc_str(c, x, "counters");
		char hint[200];
		int k;
		if (!s)
			continue;
		for (k = 0; names[k] && strcmp(names[k], s); k++)
			;
		if (k < 4)
			bits |= 1u << k;
		else if (k == 4)
			bits |= 15;
		else if (k != 5) {
			pc_hint(hint, sizeof hint, s, names, 6);
			pc_err(c, x, "unknown counter group '%s'%s", s, hint);
		}
	}
	c->p->counters = bits;
}

/* An optional section written with nothing after it ("factors:") is
 * treated as absent: that is what its writer meant. */
static const struct ynode *section(const struct ynode *root, const char *key)
{
	const struct ynode *x = yn_get(root, key);
	return yn_is_null(x) ? NULL : x;
}

static void build_top(struct pctx *c, const struct ynode *root)
{
	struct plan *p = c->p;
	const struct ynode *x;
	long long v;
	pc_keys(c, root, top_keys, "the plan");
	if (!(x = yn_get(root, "xrun"))) {
		pc_err(c, root->n ? yn_key(root, 0) : root,
		       "missing 'xrun: 1' (the plan format version)");
	} else if (x->kind != YN_SCALAR || strcmp(x->s, "1") != 0) {
		pc_err(c, x,
		       "unsupported plan format version '%s' (this xrun "
		       "reads version 1: xrun: 1)",
		       x->kind == YN_SCALAR ? x->s : yn_kind_name(x));
	} else {
		p->version = 1;
	}
	if (!(x = yn_get(root, "name"))) {
		pc_err(c, root->n ? yn_key(root, 0) : root,
		       "missing 'name' (e.g. name: pcie-gen; the default "
		       "database is ./<name>.db)");
	} else if ((p->name = pc_str(c, x, "name"))) {
		const char *s;
		for (s = p->name; *s; s++)
			if (!((*s >= 'a' && *s <= 'z') ||
			      (*s >= '0' && *s <= '9') || *s == '_' ||
			      *s == '-'))
				break;
		if (*s || !p->name[0])
			pc_err(c, x,
			       "bad plan name '%s' (use lowercase letters, "
			       "digits, '_' and '-')",
			       p->name);
	}
	if ((x = yn_get(root, "title")))
		p->title = pc_str(c, x, "title");
	if ((x = yn_get(root, "description")))
		p->description = pc_str(c, x, "description");
	plan_build_hosts(c, section(root, "hosts"));
	if ((x = section(root, "vars")))
		plan_build_vars(c, x);
	plan_build_engine(c, yn_get(root, "engine"), root);
	plan_build_factors(c, section(root, "factors"));
	if ((x = section(root, "exclude")) && !c->skip_excludes)
		plan_build_excludes(c, x);
	p->repeat = 1;
	if ((x = yn_get(root, "repeat")) &&
	    pc_int(c, x, "repeat", 1, 10000, &v) == 0)
		p->repeat = (int)v;
	if ((x = yn_get(root, "order"))) {
		const char *s = pc_str(c, x, "order");
		if (s && strcmp(s, "abba") == 0)
			p->order = PLAN_ORDER_ABBA;
		else if (s && strcmp(s, "random") == 0)
			p->order = PLAN_ORDER_RANDOM;
		else if (s && strcmp(s, "sequential") == 0)
			p->order = PLAN_ORDER_SEQUENTIAL;
		else if (s) {
			static const char *const orders[] = {"abba", "random",
							     "sequential"};
			char hint[200];
			pc_hint(hint, sizeof hint, s, orders, 3);
			pc_err(c, x, "unknown order '%s'%s", s, hint);
		}
	}
	p->seed = 1;
	if ((x = yn_get(root, "seed"))) {
		const char *s = pc_str(c, x, "seed");
		char *end;
		if (s) {
			unsigned long long sv = strtoull(s, &end, 10);
			if (!(s[0] >= '0' && s[0] <= '9') || *end)
				pc_err(c, x,
				       "'seed' must be a non-negative integer, "
				       "not '%s'",
				       s);
			else
				p->seed = sv;
		}
	}
	if ((x = yn_get(root, "warmup")) &&
	    pc_int(c, x, "warmup", 0, 1000, &v) == 0)
		p->warmup = (int)v;
	if ((x = yn_get(root, "settle")))
		pc_duration(c, x, "settle", &p->settle);
	p->counters = PLAN_COUNTER_NIC | PLAN_COUNTER_TCP | PLAN_COUNTER_CPU |
		      PLAN_COUNTER_CAPTURE;
	if ((x = yn_get(root, "counters")))
		build_counters(c, x);
	if ((x = yn_get(root, "on_finish")))
		pc_argv(c, x, "on_finish", &p->on_finish);
	plan_build_report(c, section(root, "report"));
}

/* ---- loading ------------------------------------------------------------ */

/* Where the first byte that is not UTF-8 sits, as line:col; 0 if none. */
static int find_bad_utf8(const unsigned char *s, size_t n, int *line, int *col,
			 unsigned *byte)
{
	size_t i = 0, k;
	int l = 1, cc = 1;
	uint32_t cp;
	if (n >= 3 && s[0] == 0xef && s[1] == 0xbb && s[2] == 0xbf)
		i = 3; /* a byte order mark takes no column */
	for (; i < n; i += k, cc++) {
		if (!(k = utf8_decode((const char *)s + i, n - i, &cp))) {
			*line = l;
			*col = cc;
			*byte = s[i];
			return 1;
		}
		if (cp == '\n') {
			l++;
			cc = 0;
		}
	}
	return 0;
}

static int load(const char *name, const char *text, size_t len,
		const struct plan_catalog *cat, struct plan **out,
		struct xr_diag *d)
{
	struct pctx c;
	struct plan *p;
	struct arena *a;
	struct ynode *root = NULL;
	size_t nerr0 = d->nerr;
	int line, col, rc;
	unsigned byte;
	*out = NULL;
	if (len > PLAN_YAML_MAX_BYTES) {
		xr_diag_add(d, 0, 0, 0,
			    "plan too large: %zu bytes (the limit is 64 MiB)",
			    len);
		return -XR_EPLAN;
	}
	if (find_bad_utf8((const unsigned char *)text, len, &line, &col,
			  &byte)) {
		xr_diag_add(d, 0, line, col,
			    "not UTF-8: byte 0x%02x cannot start or continue "
			    "a character here (save the plan as UTF-8)",
			    byte);
		return -XR_EPLAN;
	}
	if (!(a = arena_new()) || !(p = arena_alloc(a, sizeof *p))) {
		arena_free(a);
		xr_diag_add(d, 0, 0, 0, "out of memory loading '%s'", name);
		return -XR_ENOMEM;
	}
	p->arena = a;
	p->path = arena_strdup(a, name);
	sha256_hex(text, len, p->hash);
	rc = plan_yaml_read(a, text, len, &root, d);
	if (rc < 0) {
		arena_free(a);
		return -XR_EPLAN;
	}
	if (!root || yn_is_null(root)) {
		xr_diag_add(d, 0, 0, 0,
			    "empty plan (expected a mapping that starts with "
			    "'xrun: 1')");
		arena_free(a);
		return -XR_EPLAN;
	}
	if (root->kind != YN_MAP) {
		xr_diag_add(d, 0, root->line, root->col,
			    "the plan must be a mapping (key: value, starting "
			    "with 'xrun: 1'), not %s",
			    yn_kind_name(root));
		arena_free(a);
		return -XR_EPLAN;
	}
	memset(&c, 0, sizeof c);
	c.p = p;
	c.a = a;
	c.d = d;
	c.cat = cat;
	c.nerr0 = nerr0;
	build_top(&c, root);
	plan_check_refs(&c);
	if (c.capped)
		xr_diag_add(d, 0, 0, 0,
			    "too many errors: only the first %d are shown",
			    PLAN_MAX_ERRORS);
	free(c.trefs);
	free(c.hrefs);
	free(c.varidx);
	for (line = 0; line < c.nlvidx; line++)
		free(c.lvidx[line]);
	free(c.lvidx);
	if (c.nomem) {
		xr_diag_add(d, 0, 0, 0, "out of memory loading '%s'", name);
		arena_free(a);
		return -XR_ENOMEM;
	}
	if (d->nerr > nerr0) {
		arena_free(a);
		return -XR_EPLAN;
	}
	*out = p;
	return 0;
}

int plan_load_mem(const char *name, const char *text, size_t len,
		  const struct plan_catalog *cat, struct plan **out,
		  struct xr_diag *d)
{
	if (!d->file)
		d->file = name;
	return load(name ? name : "<plan>", text, len, cat, out, d);
}

int plan_load(const char *path, const struct plan_catalog *cat,
	      struct plan **out, struct xr_diag *d)
{
	struct buf b;
	int rc;
	*out = NULL;
	d->file = path;
	buf_init(&b, PLAN_YAML_MAX_BYTES + 1);
	rc = buf_read_file(&b, path, PLAN_YAML_MAX_BYTES + 1);
	if (rc == -XR_EIO) {
		xr_diag_add(d, 0, 0, 0, "cannot read plan '%s': %s", path,
			    strerror(errno));
		buf_release(&b);
		return -XR_EIO;
	}
	if (rc < 0 || b.len > PLAN_YAML_MAX_BYTES) {
		xr_diag_add(d, 0, 0, 0,
			    "plan too large: more than 64 MiB in '%s'", path);
		buf_release(&b);
		return -XR_EPLAN;
	}
	rc = load(path, b.s, b.len, cat, out, d);
	buf_release(&b);
	return rc;
}

void plan_free(struct plan *p)
{
	if (p)
		arena_free(p->arena);
}

int plan_factor_index(const struct plan *p, const char *name)
{
	int i;
	for (i = 0; name && i < p->nfactors; i++)
		if (strcmp(p->factors[i].name, name) == 0)
			return i;
	return -1;
}

int plan_level_index(const struct plan_factor *f, const char *level)
{
	int i;
	for (i = 0; level && i < f->nlevels; i++)
		if (strcmp(f->levels[i], level) == 0)
			return i;
	return -1;
}

const struct plan_host *plan_host_find(const struct plan *p, const char *name)
{
	int i;
	for (i = 0; name && i < p->nhosts; i++)
		if (strcmp(p->hosts[i].name, name) == 0)
			return &p->hosts[i];
	return NULL;
}

const char *plan_var(const struct plan *p, const char *name)
{
	int i;
	for (i = 0; name && i < p->nvars; i++)
		if (strcmp(p->vars[i].key, name) == 0)
			return p->vars[i].value;
	return NULL;
}
