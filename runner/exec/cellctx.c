/*
 * The context of one run (cellctx.h): resolves {{placeholders}} for a
 * scheduled cell and builds the engine request the runner executes and
 * `xrun plan` prints. Keeping both on one code path is the point: the dry
 * run cannot drift from what really runs.
 *
 * SPDX-License-Identifier: MIT
 */
#include "cellctx.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"
#include "placeholder.h"
#include "plan.h"
#include "tmpl.h"
#include "units.h"
#include "strv.h"
#include "banned.h"

enum { NUM_REP, NUM_INDEX, NUM_BLOCK, NUM_SESSION };
enum { ADDR_CLIENT, ADDR_SERVER, ADDR_TARGET };

int cellctx_host_index(const struct plan *p, const char *name)
{
	int i;
	for (i = 0; i < p->nhosts; i++)
		if (!strcmp(p->hosts[i].name, name))
			return i;
	if (!strcmp(name, "client"))
		return cellctx_host_index(p, p->engine.client ? p->engine.client
							      : "local");
	if (!strcmp(name, "server") && p->engine.server_host)
		return cellctx_host_index(p, p->engine.server_host);
	return -1;
}

int cellctx_role_index(const struct plan *p, const char *role,
		       const uint32_t *lv)
{
	const struct plan_host *h;
	/* An unbound name: a host's own name before the role names. */
	if (plan_role_factor(p, role) < 0)
		return cellctx_host_index(p, role);
	h = plan_host_find(p, plan_role_host(p, role, lv));
	return h ? (int)(h - p->hosts) : -1;
}

/* Mark every host name can mean in some cell. */
static void need_role(const struct plan *p, const char *name, char *need)
{
	int hi;
	if (plan_role_factor(p, name) >= 0)
		plan_role_hosts(p, name, need);
	else if ((hi = cellctx_host_index(p, name)) >= 0)
		need[hi] = 1;
}

void cellctx_hosts_needed(const struct plan *p, char *need)
{
	int f, k;
	memset(need, 0, (size_t)p->nhosts);
	need_role(p, "client", need);
	if (p->engine.server_host)
		need_role(p, "server", need);
	for (f = 0; f < p->nfactors; f++)
		for (k = 0; k < p->factors[f].non; k++)
			need_role(p, p->factors[f].on[k], need);
	if (p->latency.probe)
		need_role(p, p->latency.from, need);
}

const char *cellctx_iface(const struct plan *p, const char *need, int hi)
{
	const char *v;
	int i;
	if (hi < 0 || hi >= p->nhosts)
		return NULL;
	if (p->hosts[hi].iface)
		return p->hosts[hi].iface;
	if ((v = plan_var(p, placeholders[PH_IFACE].name)))
		return v;
	if (!need || !need[hi])
		return NULL;
	for (i = 0; i < p->nhosts; i++)
		if (need[i] && !host_plan_is_local(&p->hosts[i]))
			return NULL;
	return "lo";
}

void cellctx_init(struct cellctx *c, const struct plan *p, const uint32_t *lv)
{
	int i;
	memset(c, 0, sizeof *c);
	c->plan = p;
	c->lv = lv;
	for (i = 0; i < 3; i++)
		buf_init(&c->addr[i], 4096);
}

void cellctx_release(struct cellctx *c)
{
	int i;
	for (i = 0; i < 3; i++)
		buf_release(&c->addr[i]);
}

/* The client host of the cell: a factor's hosts: binding, else the
 * engine's client. */
static const struct plan_host *client_host(const struct cellctx *c)
{
	return plan_host_find(c->plan,
			      plan_role_host(c->plan, "client", c->lv));
}

/* A plan host's address when the caller gave none (c->client, c->server):
 * address:, else the host part of ssh:, else loopback. The runner gives
 * host_address() and `xrun plan` host_plan_address() (host.h), which
 * resolve the same way; this is for contexts without hosts. */
static const char *cellctx_plan_host_addr(const struct plan_host *h,
					  struct buf *b)
{
	const char *at, *s;
	if (!h)
		return NULL;
	if (h->address)
		return h->address;
	if (!h->ssh)
		return "127.0.0.1";
	at = strrchr(h->ssh, '@');
	s = at ? at + 1 : h->ssh;
	buf_reset(b);
	buf_adds(b, s);
	return b->s;
}

static const char *client_addr(struct cellctx *c)
{
	if (c->client)
		return c->client;
	return cellctx_plan_host_addr(client_host(c), &c->addr[ADDR_CLIENT]);
}

static const char *server_addr(struct cellctx *c)
{
	const struct plan *p = c->plan;
	if (c->server)
		return c->server;
	return cellctx_plan_host_addr(
	    plan_host_find(p, plan_role_host(p, "server", c->lv)),
	    &c->addr[ADDR_SERVER]);
}

static const char *num(struct cellctx *c, int slot, long long v)
{
	snprintf(c->num[slot], sizeof c->num[slot], "%lld", v);
	return c->num[slot];
}

const char *cellctx_lookup(void *ctx, const char *name)
{
	struct cellctx *c = ctx;
	const struct plan *p = c->plan;
	const struct plan_host *h;
	const char *v;
	int i;

	/* A hook's host first: {{iface}} there is that host's, even over a
	 * factor or var of that name (as the runner has always done). */
	if (c->iface && placeholder_find(name) == PH_IFACE)
		return c->iface;
	if (c->load_param && !strcmp(name, c->load_param))
		return c->load_value;
	if ((i = plan_factor_index(p, name)) >= 0)
		return c->lv ? p->factors[i].levels[c->lv[i]] : NULL;
	if ((v = plan_var(p, name)) != NULL)
		return v;
	switch ((enum placeholder_id)placeholder_find(name)) {
	case PH_REP:
		return num(c, NUM_REP, c->rep);
	case PH_INDEX:
		return num(c, NUM_INDEX, (long long)c->index);
	case PH_BLOCK:
		return num(c, NUM_BLOCK, c->block);
	case PH_SESSION:
		return num(c, NUM_SESSION, c->session);
	case PH_PLAN:
		return p->name;
	case PH_CLIENT:
		return client_addr(c);
	case PH_SERVER:
		return server_addr(c);
	case PH_TARGET:
		return c->resolving ? NULL : cellctx_target(c, NULL);
	case PH_IFACE:
		h = client_host(c);
		return h ? h->iface : NULL;
	case PH_ORIGINAL:
		return c->original;
	case PH_COUNT:
		break;
	}
	return NULL;
}

int cellctx_expand(struct cellctx *c, const char *t, struct buf *out,
		   struct xr_err *err)
{
	char bad[128];
	if (tmpl_expand(t, cellctx_lookup, c, out, bad, sizeof bad) < 0) {
		int i = placeholder_find(bad);
		const char *why = i >= 0 ? placeholders[i].unset : "";
		return xr_err_set(err, XR_EPLAN, c->plan->path, 0, 0,
				  "placeholder '{{%s}}' has no value in '%s'%s",
				  bad, t, why);
	}
	if (out->truncated)
		return xr_err_set(err, XR_ENOMEM, c->plan->path, 0, 0,
				  "expansion of '%.60s' is too long", t);
	return 0;
}

void cellctx_argv_free(char **argv)
{
	strv_free(argv);
}

char **cellctx_argv(struct cellctx *c, const struct plan_argv *a,
		    struct xr_err *err)
{
	struct buf b = BUF_INIT;
	char **out;
	int i, n = 0;

	xr_err_clear(err);
	if (!a->argv)
		return NULL;
	while (a->argv[n])
		n++;
	out = calloc((size_t)n + 1, sizeof *out);
	if (!out) {
		xr_err_set(err, XR_ENOMEM, c->plan->path, 0, 0,
			   "out of memory expanding argv");
		return NULL;
	}
	for (i = 0; i < n; i++) {
		buf_init(&b, 0);
		if (cellctx_expand(c, a->argv[i], &b, err) < 0 ||
		    !(out[i] = buf_detach(&b, NULL))) {
			if (err && !err->code)
				xr_err_set(err, XR_ENOMEM, c->plan->path, 0, 0,
					   "out of memory expanding argv");
			if (err && a->pos.line && !err->line) {
				err->line = a->pos.line;
				err->col = a->pos.col;
			}
			buf_release(&b);
			cellctx_argv_free(out);
			return NULL;
		}
	}
	return out;
}

const char *cellctx_target(struct cellctx *c, struct xr_err *err)
{
	const struct plan *p = c->plan;
	struct buf *b = &c->addr[ADDR_TARGET];
	const char *s;
	int rc;

	/* Computed once: the request keeps pointing at it. */
	if (c->target_done)
		return b->s;
	buf_reset(b);
	if (p->engine.target) {
		c->resolving = 1;
		rc = cellctx_expand(c, p->engine.target, b, err);
		c->resolving = 0;
		if (rc < 0)
			return NULL;
	} else {
		s = server_addr(c);
		buf_adds(b, s ? s : "127.0.0.1");
	}
	c->target_done = 1;
	return b->s;
}

static void free_words(const char *const *w)
{
	size_t i;
	for (i = 0; w && w[i]; i++)
		free((char *)w[i]);
	free((void *)w);
}

static void set_param(struct cellctx_request *r, const char *key, char *value,
		      char **words)
{
	int i, *n = &r->rq.nparams;
	for (i = 0; i < *n; i++)
		if (!strcmp(r->params[i].key, key)) {
			free((char *)r->params[i].value);
			free_words(r->params[i].words);
			r->params[i].value = value;
			r->params[i].words = (const char *const *)words;
			return;
		}
	r->params[*n].key = key;
	r->params[*n].value = value;
	r->params[*n].words = (const char *const *)words;
	(*n)++;
}

/* A template with placeholders, split at its own blanks and each word
 * expanded alone (engine_param.words); NULL without placeholders or on
 * error (then the value's own expansion reports it). */
static char **expand_words(struct cellctx *c, const char *t)
{
	struct xr_err e = {0};
	char **w;
	size_t n = 0, k = 0, len;
	const char *s;
	if (!strstr(t, "{{"))
		return NULL;
	for (s = t; *s; s++)
		n += !isspace((unsigned char)*s) &&
		     (s == t || isspace((unsigned char)s[-1]));
	if (!(w = calloc(n + 1, sizeof *w)))
		return NULL;
	for (s = t; *s;) {
		struct buf b = BUF_INIT, word = BUF_INIT;
		while (*s && isspace((unsigned char)*s))
			s++;
		for (len = 0; s[len] && !isspace((unsigned char)s[len]); len++)
			;
		if (!len)
			break;
		buf_add(&word, s, len);
		buf_init(&b, 0);
		if (cellctx_expand(c, word.s, &b, &e) < 0 ||
		    !(w[k++] = buf_detach(&b, NULL))) {
			buf_release(&word);
			buf_release(&b);
			free_words((const char *const *)w);
			return NULL;
		}
		buf_release(&word);
		s += len;
	}
	return w;
}

/* Expand t into a fresh string. */
static char *expand_dup(struct cellctx *c, const char *t, struct xr_err *err)
{
	struct buf b = BUF_INIT;
	char *s;
	buf_init(&b, 0);
	if (cellctx_expand(c, t, &b, err) < 0) {
		buf_release(&b);
		return NULL;
	}
	s = buf_detach(&b, NULL);
	if (!s)
		xr_err_set(err, XR_ENOMEM, c->plan->path, 0, 0,
			   "out of memory");
	return s;
}

/* A factor on duration/omit/timeout changes the request's fields. */
static int factor_time(struct cellctx *c, const char *key, const char *v,
		       struct engine_request *rq, struct xr_err *err)
{
	double *dst = !strcmp(key, "duration")	? &rq->duration
		      : !strcmp(key, "omit")	? &rq->omit
		      : !strcmp(key, "timeout") ? &rq->timeout
						: NULL;
	const char *why = NULL;
	if (!dst)
		return 0;
	if (units_parse(v, UNITS_DURATION, dst, &why) < 0)
		return xr_err_set(err, XR_EPLAN, c->plan->path, 0, 0,
				  "%s '%s' is not a duration (%s; e.g. 10s)",
				  key, v, why ? why : "bad value");
	return 0;
}

/* Room for every key a request can get: engine, param:, params: keys. */
static size_t request_cap(const struct cellctx *c)
{
	const struct plan *p = c->plan;
	size_t n = (size_t)p->engine.nparams + (size_t)p->nfactors + 2;
	int i;
	for (i = 0; c->lv && i < p->nfactors; i++)
		if (p->factors[i].level_params)
			n += (size_t)p->factors[i].nlevel_params[c->lv[i]];
	return n;
}

/* Set key = expanded value t; duration/omit/timeout also change rq. */
static int factor_set(struct cellctx *c, struct cellctx_request *out,
		      const char *key, const char *t, int *explicit_timeout,
		      struct xr_err *err)
{
	char *v = expand_dup(c, t, err);
	if (!v)
		return -(err ? err->code : XR_EPLAN);
	set_param(out, key, v, expand_words(c, t));
	*explicit_timeout |= !strcmp(key, "timeout");
	return factor_time(c, key, v, &out->rq, err);
}

/* A trial's load and duration over what the plan and the cell say. */
static int trial_set(struct cellctx *c, struct cellctx_request *out,
		     struct xr_err *err)
{
	char *v = strdup(c->load_value ? c->load_value : "");
	if (!v)
		return xr_err_set(err, XR_ENOMEM, c->plan->path, 0, 0,
				  "out of memory");
	set_param(out, c->load_param, v, NULL);
	if (c->trial_duration > 0)
		out->rq.duration = c->trial_duration;
	return 0;
}

int cellctx_request(struct cellctx *c, struct cellctx_request *out,
		    struct xr_err *err)
{
	const struct plan *p = c->plan;
	const struct plan_engine *e = &p->engine;
	struct engine_request *rq = &out->rq;
	int i, rc = 0, explicit_timeout = e->timeout > 0;
	const char *t;

	memset(out, 0, sizeof *out);
	out->params = calloc(request_cap(c), sizeof *out->params);
	if (!out->params)
		return xr_err_set(err, XR_ENOMEM, p->path, 0, 0,
				  "out of memory");
	rq->params = out->params;
	rq->duration = e->duration;
	rq->omit = e->omit;
	rq->interval = p->sample;
	rq->timeout = e->timeout;
	for (i = 0; i < e->nparams && rc == 0; i++) {
		char *v = expand_dup(c, e->params[i].value, err);
		if (!v) {
			rc = -(err ? err->code : XR_EPLAN);
			break;
		}
		set_param(out, e->params[i].key, v,
			  expand_words(c, e->params[i].value));
	}
	/* factors in file order, so a later factor's key wins */
	for (i = 0; i < p->nfactors && rc == 0 && c->lv; i++) {
		const struct plan_factor *f = &p->factors[i];
		const struct plan_kv *kv;
		int k, n;
		if (f->param)
			rc = factor_set(c, out, f->param, f->levels[c->lv[i]],
					&explicit_timeout, err);
		if (!f->level_params)
			continue;
		kv = f->level_params[c->lv[i]];
		n = kv ? f->nlevel_params[c->lv[i]] : 0;
		for (k = 0; k < n && rc == 0; k++)
			rc = factor_set(c, out, kv[k].key, kv[k].value,
					&explicit_timeout, err);
	}
	if (rc == 0 && c->load_param)
		rc = trial_set(c, out, err);
	if (rc == 0 && !explicit_timeout)
		rq->timeout = rq->duration + rq->omit + CELLCTX_TIMEOUT_MARGIN;
	if (rc == 0) {
		t = cellctx_target(c, err);
		if (t)
			rq->target = t;
		else
			rc = -(err ? err->code : XR_EPLAN);
	}
	if (rc == 0 && e->run.argv) {
		out->run_argv = cellctx_argv(c, &e->run, err);
		if (!out->run_argv)
			rc = -(err ? err->code : XR_EPLAN);
		rq->run_argv = (const char *const *)out->run_argv;
	}
	if (rc < 0)
		cellctx_request_release(out);
	return rc;
}

void cellctx_request_release(struct cellctx_request *r)
{
	int i;
	for (i = 0; r->params && i < r->rq.nparams; i++) {
		free((char *)r->params[i].value);
		free_words(r->params[i].words);
	}
	free(r->params);
	cellctx_argv_free(r->run_argv);
	memset(r, 0, sizeof *r);
}
