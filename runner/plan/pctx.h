/*
 * The plan loader's build context (pctx.c): what the loader knows while it
 * builds a plan, and the typed readers that turn YAML nodes into model
 * fields while adding one positioned message per problem. Every file of
 * the loader uses it; it uses none of them.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_PCTX_H
#define XR_PCTX_H

#include "plan.h"
#include "placeholder.h"
#include "plan_yaml.h"

/* A template string to check for placeholders once every name is known. */
struct plan_tref {
	const char *s;
	const struct ynode *n;
	int where; /* PH_SITE_*: what the template is for */
};

/* A host named somewhere (engine client/server, factor on:). */
struct plan_href {
	const char *name;
	const struct ynode *n;
	int role_ok; /* "client"/"server" allowed as roles (factor on:) */
};

struct pctx {
	struct plan *p;
	struct arena *a;
	struct xr_diag *d;
	const struct plan_catalog *cat;	    /* NULL: names not checked */
	const struct plan_engine_desc *ops; /* NULL when the type is unknown */
	struct plan_tref *trefs;
	size_t ntrefs, trefs_cap;
	struct plan_href *hrefs;
	size_t nhrefs, hrefs_cap;
	const struct ynode *exclude_node;
	const struct ynode *engine_node;
	const struct ynode *target_node; /* engine.target */
	int **lvidx; /* [nlvidx]: a factor's level indices sorted by text */
	int nlvidx;
	int *varidx;  /* var indices sorted by name */
	size_t nerr0; /* errors in the diag before this plan */
	int capped;   /* PLAN_MAX_ERRORS reached: further errors dropped */
	int skip_excludes;
	int tref_where; /* PH_SITE_* given to templates registered now */
	int nomem;
};

/* Past this many errors the rest are dropped (and that is said). */
#define PLAN_MAX_ERRORS 1000
/* A matrix of more factors could never be expanded. */
#define PLAN_MAX_FACTORS 256

/* 0 once PLAN_MAX_ERRORS errors have been added for this plan. */
int pc_room(struct pctx *c);
/* Level index of s in factor fi, or PLAN_NOT_FOUND; O(log n) once factors are
 * built. */
int pc_level(struct pctx *c, int fi, const char *s);
/* Is name a var? O(log n) once vars are built. */
int pc_has_var(struct pctx *c, const char *name);

void pc_err(struct pctx *c, const struct ynode *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void pc_warn(struct pctx *c, const struct ynode *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* " (did you mean 'x'? valid: a, b, c)" into out (suggest.h's rule); the
 * list may be cut short. */
void pc_hint(char *out, size_t outsz, const char *word,
	     const char *const *cands, int n);
/* pc_hint() over the factor names of p; "" when out of memory. */
void pc_factor_hint(char *out, size_t outsz, const char *word,
		    const struct plan *p);

/* Report keys of map that are not in valid[] (NULL-terminated). */
void pc_keys(struct pctx *c, const struct ynode *map, const char *const *valid,
	     const char *where);
/* Like pc_keys, but keys starting "x-" hold anchors to reuse (the top
 * level, as in compose files). */
void pc_keys_with_extensions(struct pctx *c, const struct ynode *map,
			     const char *const *valid, const char *where);
int pc_is_key(const char *key, const char *const *valid);

/* Typed readers: NULL/-XR_EPLAN after reporting when n is not what is needed.
 * what names the key in messages ("engine.duration"). */
const char *pc_str(struct pctx *c, const struct ynode *n, const char *what);
int pc_int(struct pctx *c, const struct ynode *n, const char *what,
	   long long lo, long long hi, long long *out);
int pc_bool(struct pctx *c, const struct ynode *n, const char *what, int *out);
int pc_duration(struct pctx *c, const struct ynode *n, const char *what,
		double *out);
int pc_argv(struct pctx *c, const struct ynode *n, const char *what,
	    struct plan_argv *out);
int pc_map(struct pctx *c, const struct ynode *n, const char *what);
int pc_name_ok(const char *s, int allow_dot);

void pc_tmpl(struct pctx *c, const char *s, const struct ynode *n);
void pc_tmpl_argv(struct pctx *c, const struct plan_argv *av,
		  const struct ynode *n);
void pc_host_ref(struct pctx *c, const char *name, const struct ynode *n,
		 int role_ok);

static inline struct plan_pos pc_pos(const struct ynode *n)
{
	struct plan_pos p = {0, 0};
	if (n) {
		p.line = n->line;
		p.col = n->col;
	}
	return p;
}

#endif
