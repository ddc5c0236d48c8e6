/*
 * The dry run's model (dry.h): the matrix and the schedule of a plan, the
 * hosts resolved through the runner's own functions (host_plan_address,
 * cellctx_iface), so that the dry run is the run
 * (tests/e2e/plan_is_run.sh compares them), and the estimate of how long
 * it takes, refined from an earlier store of the plan.
 *
 * SPDX-License-Identifier: MIT
 */
#include <arpa/inet.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "cellctx.h"
#include "dry.h"
#include "exec.h"
#include "fastout.h"
#include "host.h"
#include "manual.h"
#include "placeholder.h"
#include "plan.h"
#include "store.h"
#include "tmpl.h"
#include "units.h"
#include "banned.h"

/*
 * Per-run cost beyond duration + omit + the longer of settle and the
 * samplers' lead-in (they overlap: exec_wait_before): xrun's bookkeeping, the
 * iperf3 client's start-up and connection set-up and the store commit.
 * A bare `iperf3 -c 127.0.0.1 -t 1 -J` takes 1.01 s on the development
 * machine (0.01 s beyond -t); the rest of the 0.35 s is an allowance for
 * the counter snapshots around each run, verification and the commit.
 * bench/overhead.sh is where the measured value of the whole is to come
 * from (bench/README.md). Printed as an estimate, never a promise.
 */
#define PLAN_RUN_OVERHEAD 0.35
/* Fewer finished runs than this in ./<name>.db: keep the default. */
#define PLAN_OVERHEAD_MIN_SAMPLES 5

/* A word as a reader would paste it into a shell. */
void dry_add_word(struct buf *b, const char *w)
{
	static const char plain[] = "abcdefghijklmnopqrstuvwxyz"
				    "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "0123456789-_./=:,@+%";
	if (*w && w[strspn(w, plain)] == 0)
		buf_adds(b, w);
	else
		host_quote_sh(w, b);
}

void dry_add_argv(struct buf *b, char *const *argv)
{
	int i;
	for (i = 0; argv && argv[i]; i++) {
		if (i)
			buf_addc(b, ' ');
		dry_add_word(b, argv[i]);
	}
}

void dry_release(struct dry *d)
{
	int f, l;
	for (f = 0; d->frag && f < d->p->nfactors; f++) {
		for (l = 0; d->frag[f] && l < d->p->factors[f].nlevels; l++)
			free(d->frag[f][l].s);
		free(d->frag[f]);
	}
	for (f = 0; d->addr && f < d->p->nhosts; f++)
		free(d->addr[f]);
	free(d->addr);
	free(d->need);
	free(d->frag);
	sched_release(&d->s);
	shard_plan_release(&d->shard);
	matrix_release(&d->m);
}

static void refine_overhead(struct dry *d);

/* Seconds one run of cell lv takes: a factor's level that sets duration
 * or omit (param: or params:) counts (exec_run_seconds). */
static double cell_seconds(const struct dry *d, const uint32_t *lv)
{
	return exec_run_seconds(d->p, lv) + exec_wait_before(d->p) +
	       d->overhead;
}

/* Resolve the hosts the run would open, once, the way host_open does. */
static int dry_hosts(struct dry *d, struct xr_err *err)
{
	const struct plan *p = d->p;
	int i;
	d->need = calloc((size_t)p->nhosts + 1, 1);
	d->addr = calloc((size_t)p->nhosts + 1, sizeof *d->addr);
	if (!d->need || !d->addr)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	cellctx_hosts_needed(p, d->need);
	d->client_hi = cellctx_host_index(p, "client");
	d->server_hi = p->engine.server_host
			   ? cellctx_host_index(p, p->engine.server_host)
			   : -1;
	for (i = 0; i < p->nhosts; i++)
		if (d->need[i] &&
		    !(d->addr[i] = host_plan_address(&p->hosts[i])))
			return xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
					  "out of memory");
	return 0;
}

/* The context of run i (a block's first run for its instructions), with
 * the hosts' addresses as the runner gives them (runctx_tmpl_init). */
void dry_cellctx(const struct dry *d, struct cellctx *c, size_t i)
{
	const struct sched_run *r = &d->s.runs[i];
	cellctx_init(c, d->p, matrix_cell(&d->m, r->cell));
	c->rep = r->rep;
	c->index = i;
	c->block = r->block;
	/* A search's run is its trials: shown with the load a placeholder
	 * of its own ("LOAD": each trial's load) and the first goal's trial
	 * duration. */
	if (d->p->search.param) {
		c->load_param = d->p->search.param;
		c->load_value = "LOAD";
		c->trial_duration =
		    d->p->search.goals ? d->p->search.goals[0].trial : 0;
	}
	if (plan_has_bindings(d->p)) {
		/* the cell's own hosts (factor hosts: bindings) */
		int ci = cellctx_role_index(d->p, "client", c->lv);
		int si = d->p->engine.server_host
			     ? cellctx_role_index(d->p, "server", c->lv)
			     : -1;
		c->client = ci >= 0 ? d->addr[ci] : NULL;
		c->server = si >= 0 ? d->addr[si] : NULL;
		return;
	}
	if (d->client_hi >= 0)
		c->client = d->addr[d->client_hi];
	if (d->server_hi >= 0)
		c->server = d->addr[d->server_hi];
}

int dry_build(struct dry *d, const struct plan *p, struct xr_err *err)
{
	/* the fields set by the caller */
	const char *db = d->db;
	uint32_t k = d->shard_k, n = d->shard_n;
	int f, l, rc;
	size_t i;
	memset(d, 0, sizeof *d);
	d->db = db;
	d->shard_k = k;
	d->shard_n = n;
	d->p = p;
	rc = matrix_build(p, &d->m, err);
	if (rc == 0)
		rc = sched_build(p, &d->m, &d->s, err);
	if (rc == 0 && n &&
	    (rc = shard_plan_build(p, &d->m, &d->s, n, &d->shard, err)) == 0)
		rc = shard_keep(&d->s, p, &d->shard, k, err);
	if (rc == 0)
		rc = dry_hosts(d, err);
	if (rc < 0)
		return rc;
	d->frag = calloc((size_t)p->nfactors + 1, sizeof *d->frag);
	if (!d->frag)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	for (f = 0; f < p->nfactors; f++) {
		const struct plan_factor *fa = &p->factors[f];
		d->frag[f] = calloc((size_t)fa->nlevels, sizeof **d->frag);
		if (!d->frag[f])
			return xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
					  "out of memory");
		for (l = 0; l < fa->nlevels; l++) {
			struct buf b = BUF_INIT;
			buf_add_json_str(&b, fa->name);
			buf_addc(&b, ':');
			buf_add_json_str(&b, fa->levels[l]);
			d->frag[f][l].s = buf_detach(&b, &d->frag[f][l].n);
			if (!d->frag[f][l].s)
				return xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
						  "out of memory");
		}
	}
	d->overhead = PLAN_RUN_OVERHEAD;
	d->lead_in = exec_lead_in(p);
	refine_overhead(d);
	d->per_run = p->engine.duration + p->engine.omit + exec_wait_before(p) +
		     d->overhead;
	for (i = 0; i < d->s.nruns; i++) {
		d->estimate +=
		    cell_seconds(d, matrix_cell(&d->m, d->s.runs[i].cell));
		d->nwarmup += d->s.runs[i].warmup;
	}
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The ok runs' gaps and in-run overheads, read from the store. */
struct overhead_scan {
	const struct plan *p;
	const struct matrix *m;
	double *gap, in_run;
	size_t ngap, cap, nrun;
};

static int overhead_row(void *ctx, const struct store_run_timing *t)
{
	struct overhead_scan *o = ctx;
	if (t->status != RUN_OK)
		return 0;
	if (!isnan(t->elapsed)) {
		/* the run's own duration: its cell's (a level's params:) */
		const uint32_t *lv =
		    t->cell_index >= 0 && (size_t)t->cell_index < o->m->ncells
			? matrix_cell(o->m, (size_t)t->cell_index)
			: NULL;
		o->in_run += t->elapsed - exec_run_seconds(o->p, lv);
		o->nrun++;
	}
	if (isnan(t->gap))
		return 0;
	if (o->ngap == o->cap) {
		size_t cap = o->cap ? o->cap * 2 : 256;
		double *ng = realloc(o->gap, cap * sizeof *ng);
		if (!ng)
			return -XR_ENOMEM;
		o->gap = ng;
		o->cap = cap;
	}
	o->gap[o->ngap++] = t->gap;
	return 0;
}

/*
 * Refine the per-run overhead from an earlier session of the same plan
 * (its default store, read-only): the median gap between one run's end
 * and the next run's start (settle and the samplers' lead-in, which
 * overlap, counter snapshots, hooks, commit; the median ignores the long
 * gaps of manual changes) minus the longer of settle and the lead-in
 * (counted on their own: exec_wait_before), plus the
 * mean of elapsed - duration - omit (engine start-up; each run's duration
 * its cell's). Any problem: keep
 * the default.
 */
static void refine_overhead(struct dry *d)
{
	struct overhead_scan o = {0};
	struct buf path = BUF_INIT;
	struct store *st = NULL;
	struct xr_err err = {0};
	double g;

	o.p = d->p;
	o.m = &d->m;
	if (d->db)
		buf_adds(&path, d->db);
	else
		store_default_path(d->p->name, &path);
	if (access(path.s, R_OK) != 0 ||
	    store_open(path.s, STORE_READONLY, &st, &err) < 0 ||
	    store_run_timings_each(st, overhead_row, &o, &err) < 0)
		goto out;
	if (o.ngap < PLAN_OVERHEAD_MIN_SAMPLES ||
	    o.nrun < PLAN_OVERHEAD_MIN_SAMPLES)
		goto out;
	qsort(o.gap, o.ngap, sizeof *o.gap, cmp_double);
	g = o.gap[o.ngap / 2] - exec_wait_before(d->p);
	o.in_run /= (double)o.nrun;
	d->overhead = (g > 0 ? g : 0) + (o.in_run > 0 ? o.in_run : 0);
	d->overhead_from = o.ngap;
out:
	store_close(st);
	free(o.gap);
	buf_release(&path);
}

void dry_out_cell(struct fastout *o, const struct dry *d, const uint32_t *lv)
{
	int f;
	fastout_mem(o, "{", 1);
	for (f = 0; f < d->p->nfactors; f++) {
		if (f)
			fastout_mem(o, ",", 1);
		fastout_mem(o, d->frag[f][lv[f]].s, d->frag[f][lv[f]].n);
	}
	fastout_mem(o, "}", 1);
}

/*
 * The host of each role in cell lv (factor hosts: bindings): client, the
 * server when the engine has one, then every other bound role, as
 * "client=win server=srv" or, json, "\"client\":\"win\",...". Empty when
 * no factor binds a host, so plans without bindings print as before.
 */
void dry_role_hosts(const struct plan *p, const uint32_t *lv, int json,
		    struct buf *out)
{
	int f, b, n = 0;
	const char *fixed[] = {"client", "server"};
	if (!plan_has_bindings(p))
		return;
	for (f = -2; f < p->nfactors; f++)
		for (b = 0; b < (f < 0 ? 1 : p->factors[f].nbind); b++) {
			const char *role =
			    f < 0 ? fixed[f + 2] : p->factors[f].bind[b].role;
			const char *h = plan_role_host(p, role, lv);
			if (!h || (f >= 0 && (!strcmp(role, "client") ||
					      !strcmp(role, "server"))))
				continue;
			if (json) {
				buf_adds(out, n++ ? "," : "");
				buf_add_json_str(out, role);
				buf_addc(out, ':');
				buf_add_json_str(out, h);
			} else {
				buf_addf(out, "%s%s=%s", n++ ? " " : "", role,
					 h);
			}
		}
}

/* Do a block's runs share their hosts (every binding factor manual)? */
int dry_hosts_per_block(const struct plan *p)
{
	int f;
	for (f = 0; f < p->nfactors; f++)
		if (p->factors[f].nbind && !p->factors[f].manual)
			return 0;
	return 1;
}

struct instructions {
	struct buf *out;
	int json, n;
};

static void add_instruction(void *arg, const struct plan_factor *f,
			    const char *level, const char *text)
{
	struct instructions *in = arg;
	(void)f;
	(void)level;
	if (in->json) {
		buf_adds(in->out, in->n ? "," : "");
		buf_add_json_str(in->out, text);
	} else {
		buf_adds(in->out, in->n ? "; " : "");
		buf_adds(in->out, text);
	}
	in->n++;
}

/* The manual instructions for entering block b (all of them for the
 * first block: that is the initial set-up). */
void dry_block_instructions(const struct dry *d, size_t b, struct buf *out,
			    int json)
{
	const struct sched_block *k = &d->s.blocks[b];
	struct instructions in = {out, json, 0};
	struct cellctx c;

	size_t prev = sched_block_before(&d->s, b);

	dry_cellctx(d, &c, k->first);
	c.block = (unsigned)b;
	manual_steps(&c,
		     prev != (size_t)-1 ? d->s.blocks[prev].manual_lv : NULL,
		     add_instruction, &in);
	cellctx_release(&c);
}

/* Does any engine template depend on more than the cell? */
static int name_is_per_run(void *ctx, const char *name, size_t off)
{
	(void)ctx;
	(void)off;
	return placeholder_per_run(name);
}

int dry_engine_per_run(const struct plan *p)
{
	int i;
	const char *const *a;
	if (p->engine.target &&
	    tmpl_each(p->engine.target, name_is_per_run, NULL))
		return 1;
	for (i = 0; i < p->engine.nparams; i++)
		if (tmpl_each(p->engine.params[i].value, name_is_per_run, NULL))
			return 1;
	for (a = p->engine.run.argv; a && *a; a++)
		if (tmpl_each(*a, name_is_per_run, NULL))
			return 1;
	for (i = 0; i < p->nfactors; i++) {
		const struct plan_factor *f = &p->factors[i];
		int l, k;
		for (l = 0; f->param && l < f->nlevels; l++)
			if (tmpl_each(f->levels[l], name_is_per_run, NULL))
				return 1;
		for (l = 0; f->level_params && l < f->nlevels; l++)
			for (k = 0;
			     f->level_params[l] && k < f->nlevel_params[l]; k++)
				if (tmpl_each(f->level_params[l][k].value,
					      name_is_per_run, NULL))
					return 1;
	}
	return 0;
}

int dry_latency_server(const struct plan *p)
{
	unsigned char a[16];
	const char *to = p->latency.to;
	if (!p->latency.probe || strcmp(p->latency.probe, "irtt") != 0 || !to)
		return 0;
	return inet_pton(AF_INET, to, a) != 1 &&
	       inet_pton(AF_INET6, to, a) != 1;
}
