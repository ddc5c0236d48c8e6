/*
 * The facts each run held under (issue 34; schema/store.md "fact_sets").
 * A host's facts are read whole when it is opened (hostset.c), and read
 * again after something that may have changed them touched it: an apply
 * hook (the groups of the facts a factor can change: their rows in
 * runner/desc/hostfact.c, hostfact_factor_groups) or a manual
 * step (whole: another card, another OS). A verify that reads a fact the
 * way facts.c does (probe_fact_key) is a read of that fact too. Each time
 * the values differ from the host's set in effect, a new set is stored;
 * every run names the set in effect on each host it used. So a cell is
 * explained from its own runs' facts, and nothing is read when nothing
 * changed (bench/facts-reread.sh).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_cond.h"
#include "facts.h"
#include "host.h"
#include "hostfact.h"
#include "plan.h"
#include "probe.h"
#include "proc.h"
#include "runctx.h"
#include "store.h"
#include "banned.h"

struct rf_host {
	int64_t set_id; /* the set in effect; 0: none stored */
	struct fact *f; /* its values, owned */
	size_t n;
	unsigned due;	   /* groups to read again before the next run */
	const char *cause; /* "apply", "manual" (static strings) */
	int factor;	   /* the factor that touched it, -1 */
	uint32_t level;
};

struct runfacts {
	struct rf_host *h;	    /* [p->nhosts] */
	struct store_run_fact *out; /* [p->nhosts]: a run's sets */
};

int runfacts_init(struct runctx *rc)
{
	size_t n = (size_t)rc->p->nhosts + 1;
	rc->rf = calloc(1, sizeof *rc->rf);
	if (!rc->rf || !(rc->rf->h = calloc(n, sizeof *rc->rf->h)) ||
	    !(rc->rf->out = calloc(n, sizeof *rc->rf->out)))
		return -XR_ENOMEM;
	for (size_t i = 0; i < n; i++)
		rc->rf->h[i].factor = -1;
	return 0;
}

void runfacts_tools(const struct plan *p, struct facts_tool *out)
{
	const struct engine_version *v = engine_version_of(p->engine.type);
	out[0] = (struct facts_tool){v ? v->fact : NULL, v ? v->argv : NULL};
	out[1] = (struct facts_tool){NULL, NULL};
}

void runfacts_release(struct runctx *rc)
{
	if (!rc->rf)
		return;
	for (int i = 0; rc->rf->h && i < rc->p->nhosts; i++)
		facts_free(rc->rf->h[i].f, rc->rf->h[i].n);
	free(rc->rf->h);
	free(rc->rf->out);
	free(rc->rf);
	rc->rf = NULL;
}

static const char *value_of(const struct fact *f, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(f[i].key, key))
			return f[i].value;
	return NULL;
}

/* Do a (n) and b (m) hold the same keys with the same values? */
static int same(const struct fact *a, size_t n, const struct fact *b, size_t m)
{
	if (n != m)
		return 0;
	for (size_t i = 0; i < n; i++) {
		const char *v = value_of(b, m, a[i].key);
		if (!v || !a[i].value || strcmp(v, a[i].value))
			return 0;
	}
	return 1;
}

/* Append key = value to *f (n, growing); -XR_ENOMEM. */
static int put(struct fact **f, size_t *n, const char *key, const char *value)
{
	struct fact *t = realloc(*f, (*n + 1) * sizeof *t);
	if (!t)
		return -XR_ENOMEM;
	*f = t;
	memset(&t[*n], 0, sizeof t[*n]);
	snprintf(t[*n].key, sizeof t[*n].key, "%s", key);
	if (!(t[*n].value = strdup(value ? value : "")))
		return -XR_ENOMEM;
	(*n)++;
	return 0;
}

/* Host hi's values are now f (n, taken): a new set when they differ from
 * the one in effect, stored with its cause. */
static void adopt(struct runctx *rc, int hi, struct fact *f, size_t n,
		  const char *cause, int factor, uint32_t level)
{
	struct rf_host *h = &rc->rf->h[hi];
	const struct plan *p = rc->p;
	int64_t id = 0;
	if (h->set_id > 0 && same(h->f, h->n, f, n)) {
		facts_free(f, n);
		return;
	}
	if (store_fact_set_put(rc->st, rc->session_id, p->hosts[hi].name, cause,
			       factor >= 0 ? p->factors[factor].name : NULL,
			       factor >= 0 ? p->factors[factor].levels[level]
					   : NULL,
			       f, n, &id, NULL) < 0) {
		/* Not stored: the runs name the set before (a full disk
		 * stops the session at the run's own store). */
		facts_free(f, n);
		return;
	}
	facts_free(h->f, h->n);
	h->f = f;
	h->n = n;
	h->set_id = id;
}

void runfacts_opened(struct runctx *rc, int hi, const struct fact *facts,
		     size_t n, const char *const *extra)
{
	struct rf_host *h;
	struct fact *f = NULL;
	size_t m = 0;
	int bad = 0;
	if (!rc->rf || hi < 0)
		return;
	h = &rc->rf->h[hi];
	for (size_t i = 0; i < n && !bad; i++)
		bad = put(&f, &m, facts[i].key, facts[i].value) < 0;
	for (size_t i = 0; extra && extra[i] && extra[i + 1] && !bad; i += 2)
		bad = put(&f, &m, extra[i], extra[i + 1]) < 0;
	if (bad) {
		facts_free(f, m);
		return;
	}
	/* Reopened by a manual step (a reboot): its read, whole. */
	adopt(rc, hi, f, m, h->due ? h->cause : "open", h->due ? h->factor : -1,
	      h->level);
	h->due = 0;
	h->factor = -1;
}

void runfacts_touch(struct runctx *rc, int hi, int manual, int factor,
		    uint32_t level)
{
	struct rf_host *h;
	unsigned apply;
	if (!rc->rf || hi < 0)
		return;
	h = &rc->rf->h[hi];
	apply = hostfact_factor_groups();
	/* A manual step's whole read covers an apply's groups. */
	if (manual || !(h->due & ~apply)) {
		h->cause = manual ? "manual" : "apply";
		h->factor = factor;
		h->level = level;
	}
	h->due |= manual ? FACTS_ALL : apply;
}

/* Read host hi's due groups again; the set's keys of other groups stay. */
static void reread(struct runctx *rc, int hi)
{
	struct rf_host *h = &rc->rf->h[hi];
	struct fact *got = NULL, *f = NULL;
	struct facts_tool tools[2];
	size_t ngot = 0, m = 0;
	int bad = 0;
	runfacts_tools(rc->p, tools);
	if (!rc->hosts[hi] ||
	    facts_collect_some(rc->hosts[hi], runctx_iface(rc, hi), h->due,
			       tools, &got, &ngot) < 0)
		return;
	/* A host lost during the read read nothing: its facts would look
	 * removed. The set in effect stays (the run finds the loss). */
	if (host_is_down(rc->hosts[hi])) {
		facts_free(got, ngot);
		return;
	}
	for (size_t i = 0; i < h->n && !bad; i++)
		if (!(facts_key_group(h->f[i].key, tools) & h->due))
			bad = put(&f, &m, h->f[i].key, h->f[i].value) < 0;
	for (size_t i = 0; i < ngot && !bad; i++)
		bad = put(&f, &m, got[i].key, got[i].value) < 0;
	facts_free(got, ngot);
	if (bad) {
		facts_free(f, m);
		return;
	}
	adopt(rc, hi, f, m, h->cause, h->factor, h->level);
}

/* A verify that read a fact (probe_fact_key) read what the run ran
 * under: its value replaces the set's when they differ. */
static void take_verify(struct runctx *rc, const uint32_t *lv,
			const struct store_verification *v)
{
	const struct plan_host *ph = plan_host_find(rc->p, v->host);
	const char *key, *cur;
	struct rf_host *h;
	struct fact *f = NULL;
	size_t m = 0;
	int hi, fi, bad = 0;
	if (!ph || !v->actual || !*v->actual || strncmp(v->method, "probe:", 6))
		return;
	/* a probe that failed says so in brackets: no value read */
	if (v->actual[0] == '(' || !(key = probe_fact_key(v->method + 6)))
		return;
	hi = (int)(ph - rc->p->hosts);
	h = &rc->rf->h[hi];
	if (h->set_id <= 0 ||
	    ((cur = value_of(h->f, h->n, key)) && !strcmp(cur, v->actual)))
		return;
	for (size_t i = 0; i < h->n && !bad; i++)
		if (strcmp(h->f[i].key, key))
			bad = put(&f, &m, h->f[i].key, h->f[i].value) < 0;
	if (!bad)
		bad = put(&f, &m, key, v->actual) < 0;
	if (bad) {
		facts_free(f, m);
		return;
	}
	/* the verification's factor name is "NAME" or "NAME#2" */
	for (fi = 0; fi < rc->p->nfactors; fi++) {
		size_t l = strlen(rc->p->factors[fi].name);
		if (!strncmp(v->factor, rc->p->factors[fi].name, l) &&
		    (!v->factor[l] || v->factor[l] == '#'))
			break;
	}
	adopt(rc, hi, f, m, "verify", fi < rc->p->nfactors ? fi : -1,
	      fi < rc->p->nfactors && lv ? lv[fi] : 0);
}

void runfacts_settle(struct runctx *rc, const uint32_t *lv,
		     const struct store_verification *v, size_t nv)
{
	if (!rc->rf)
		return;
	for (int hi = 0; hi < rc->p->nhosts; hi++)
		if (rc->rf->h[hi].due) {
			reread(rc, hi);
			rc->rf->h[hi].due = 0;
			rc->rf->h[hi].factor = -1;
		}
	for (size_t i = 0; i < nv; i++)
		take_verify(rc, lv, &v[i]);
}

static int add_host(int *hi, int n, int cap, int h)
{
	for (int k = 0; k < n; k++)
		if (hi[k] == h)
			return n;
	if (h >= 0 && n < cap)
		hi[n++] = h;
	return n;
}

/* The hosts run cell lv uses, each once: client, server and the on:
 * hosts of the factors with hooks. Returns how many (at most cap). */
static int cell_hosts(const struct runctx *rc, const uint32_t *lv, int *hi,
		      int cap)
{
	const struct plan *p = rc->p;
	int n = 0;
	n = add_host(hi, n, cap, rc->client_hi);
	n = add_host(hi, n, cap, rc->server_hi);
	for (int f = 0; f < p->nfactors; f++) {
		const struct plan_factor *fa = &p->factors[f];
		if (!fa->apply.argv && !fa->verify)
			continue;
		for (int k = 0; k < fa->non; k++)
			n = add_host(hi, n, cap,
				     runctx_role_index(rc, fa->on[k], lv));
	}
	return n;
}

size_t runfacts_of_run(struct runctx *rc, const uint32_t *lv,
		       const struct store_run_fact **out)
{
	int hi[64];
	size_t n = 0;
	int k = rc->rf ? cell_hosts(rc, lv, hi, 64) : 0;
	for (int i = 0; i < k; i++) {
		const struct rf_host *h = &rc->rf->h[hi[i]];
		if (h->set_id <= 0)
			continue;
		rc->rf->out[n].host = rc->p->hosts[hi[i]].name;
		rc->rf->out[n].set_id = h->set_id;
		n++;
	}
	*out = rc->rf ? rc->rf->out : NULL;
	return n;
}
