/*
 * `xrun plan PLAN [--json]`: the dry run. Loads the plan, expands the
 * matrix, builds the schedule and prints what would happen: how many runs,
 * how many times someone must get up to change something by hand, how long
 * it takes, and then every run in order with the argv it would execute and
 * the hooks that run when a level changes. Nothing is executed, and nothing
 * is guessed: hosts, the target and {{iface}} resolve through the runner's
 * own functions (host_plan_address, cellctx_iface), so the dry run is the
 * run (tests/e2e/plan_is_run.sh compares them).
 *
 * Output goes through fastout (not stdio formatting, not a jansson tree):
 * a million runs serialise to JSON in about a second when their argv can be
 * built once per cell; a million distinct cells cost one argv each
 * (bench/README.md).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "cellctx.h"
#include "cmd.h"
#include "engine.h"
#include "fastout.h"
#include "host.h"
#include "matrix.h"
#include "catalog.h"
#include "dimension.h"
#include "manual.h"
#include "placeholder.h"
#include "plan.h"
#include "sched.h"
#include "store.h"
#include "tmpl.h"
#include "units.h"
#include "banned.h"

/*
 * Per-run cost beyond duration + omit + settle: xrun's bookkeeping, the
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
/* Above this many cells the per-cell argv cache is not worth its memory. */
#define PLAN_ARGV_CACHE_MAX 200000

/* A word as a reader would paste it into a shell. */
static void add_word(struct buf *b, const char *w)
{
	static const char plain[] = "abcdefghijklmnopqrstuvwxyz"
				    "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "0123456789-_./=:,@+%";
	if (*w && w[strspn(w, plain)] == 0)
		buf_adds(b, w);
	else
		host_quote_sh(w, b);
}

static void add_argv(struct buf *b, char *const *argv)
{
	int i;
	for (i = 0; argv && argv[i]; i++) {
		if (i)
			buf_addc(b, ' ');
		add_word(b, argv[i]);
	}
}

/* ---- what is shared by both forms ------------------------------------- */

struct frag {
	char *s; /* "factor":"level" */
	size_t n;
};

struct dry {
	const struct plan *p;
	struct matrix m;
	struct sched s;
	struct frag **frag;   /* [nfactors][nlevels] */
	double **lvtime;      /* [nfactors][nlevels] duration/omit or NULL */
	int *lvtime_is_omit;  /* [nfactors] */
	const char *db;	      /* --db: the store to measure from, or NULL */
	double overhead;      /* per-run overhead used in the estimate */
	size_t overhead_from; /* runs it was measured on; 0: the default */
	double per_run;	      /* duration + omit + settle + overhead */
	double estimate;      /* seconds for every run */
	size_t nwarmup;
	/* The hosts as the run resolves them (cellctx_hosts_needed,
	 * host_plan_address): what {{client}}, {{server}}, the target and
	 * {{iface}} become. */
	char *need;  /* [nhosts] */
	char **addr; /* [nhosts] address of each needed host, else NULL */
	int client_hi, server_hi;
};

static void dry_release(struct dry *d)
{
	int f, l;
	for (f = 0; d->frag && f < d->p->nfactors; f++) {
		for (l = 0; d->frag[f] && l < d->p->factors[f].nlevels; l++)
			free(d->frag[f][l].s);
		free(d->frag[f]);
	}
	for (f = 0; d->lvtime && f < d->p->nfactors; f++)
		free(d->lvtime[f]);
	for (f = 0; d->addr && f < d->p->nhosts; f++)
		free(d->addr[f]);
	free(d->addr);
	free(d->need);
	free(d->frag);
	free(d->lvtime);
	free(d->lvtime_is_omit);
	sched_release(&d->s);
	matrix_release(&d->m);
}

static void refine_overhead(struct dry *d);

/* Seconds one run of cell lv takes: a factor on duration/omit counts. */
static double cell_seconds(const struct dry *d, const uint32_t *lv)
{
	const struct plan *p = d->p;
	double dur = p->engine.duration, omit = p->engine.omit;
	int f;
	for (f = 0; f < p->nfactors; f++)
		if (d->lvtime[f]) {
			if (d->lvtime_is_omit[f])
				omit = d->lvtime[f][lv[f]];
			else
				dur = d->lvtime[f][lv[f]];
		}
	return dur + omit + p->settle + d->overhead;
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
static void dry_cellctx(const struct dry *d, struct cellctx *c, size_t i)
{
	const struct sched_run *r = &d->s.runs[i];
	cellctx_init(c, d->p, matrix_cell(&d->m, r->cell));
	c->rep = r->rep;
	c->index = i;
	c->block = r->block;
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

static int dry_build(struct dry *d, const struct plan *p, struct xr_err *err)
{
	const char *db = d->db; /* the one field set by the caller */
	int f, l, rc;
	size_t i;
	memset(d, 0, sizeof *d);
	d->db = db;
	d->p = p;
	rc = matrix_build(p, &d->m, err);
	if (rc == 0)
		rc = sched_build(p, &d->m, &d->s, err);
	if (rc == 0)
		rc = dry_hosts(d, err);
	if (rc < 0)
		return rc;
	d->frag = calloc((size_t)p->nfactors + 1, sizeof *d->frag);
	d->lvtime = calloc((size_t)p->nfactors + 1, sizeof *d->lvtime);
	d->lvtime_is_omit = calloc((size_t)p->nfactors + 1, sizeof(int));
	if (!d->frag || !d->lvtime || !d->lvtime_is_omit)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	for (f = 0; f < p->nfactors; f++) {
		const struct plan_factor *fa = &p->factors[f];
		int timed = fa->param && (!strcmp(fa->param, "duration") ||
					  !strcmp(fa->param, "omit"));
		d->frag[f] = calloc((size_t)fa->nlevels, sizeof **d->frag);
		if (timed)
			d->lvtime[f] =
			    calloc((size_t)fa->nlevels, sizeof **d->lvtime);
		if (!d->frag[f] || (timed && !d->lvtime[f]))
			return xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
					  "out of memory");
		d->lvtime_is_omit[f] = timed && !strcmp(fa->param, "omit");
		for (l = 0; l < fa->nlevels; l++) {
			struct buf b = BUF_INIT;
			buf_add_json_str(&b, fa->name);
			buf_addc(&b, ':');
			buf_add_json_str(&b, fa->levels[l]);
			d->frag[f][l].s = buf_detach(&b, &d->frag[f][l].n);
			if (!d->frag[f][l].s)
				return xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
						  "out of memory");
			if (timed && units_parse(fa->levels[l], UNITS_DURATION,
						 &d->lvtime[f][l], NULL) < 0)
				d->lvtime[f][l] = d->lvtime_is_omit[f]
						      ? p->engine.omit
						      : p->engine.duration;
		}
	}
	d->overhead = PLAN_RUN_OVERHEAD;
	refine_overhead(d);
	d->per_run =
	    p->engine.duration + p->engine.omit + p->settle + d->overhead;
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
	double *gap, in_run;
	size_t ngap, cap, nrun;
};

static int overhead_row(void *ctx, const struct store_run_timing *t)
{
	struct overhead_scan *o = ctx;
	if (t->status != RUN_OK)
		return 0;
	if (!isnan(t->elapsed)) {
		o->in_run +=
		    t->elapsed - o->p->engine.duration - o->p->engine.omit;
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
 * and the next run's start (settle, counter snapshots, hooks, commit; the
 * median ignores the long gaps of manual changes) minus settle, plus the
 * mean of elapsed - duration - omit (engine start-up). Any problem: keep
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
	g = o.gap[o.ngap / 2] - d->p->settle;
	o.in_run /= (double)o.nrun;
	d->overhead = (g > 0 ? g : 0) + (o.in_run > 0 ? o.in_run : 0);
	d->overhead_from = o.ngap;
out:
	store_close(st);
	free(o.gap);
	buf_release(&path);
}

static void out_cell(struct fastout *o, const struct dry *d, const uint32_t *lv)
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
static void role_hosts(const struct plan *p, const uint32_t *lv, int json,
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
static int hosts_per_block(const struct plan *p)
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
static void block_instructions(const struct dry *d, size_t b, struct buf *out,
			       int json)
{
	const struct sched_block *k = &d->s.blocks[b];
	struct instructions in = {out, json, 0};
	struct cellctx c;

	dry_cellctx(d, &c, k->first);
	c.block = (unsigned)b;
	manual_steps(&c, b ? d->s.blocks[b - 1].manual_lv : NULL,
		     add_instruction, &in);
	cellctx_release(&c);
}

/* ---- --json ------------------------------------------------------------ */

static int engine_per_run(const struct plan *p);

/* ,"argv":[...] of run i: what the engine executes, as the store keeps it
 * (runs.argv_json), or null when the engine has no argv for it. */
static void json_run_argv(const struct dry *d, const struct engine_ops *eng,
			  size_t i, struct buf *out)
{
	struct cellctx c;
	struct cellctx_request rq;
	struct xr_err err;
	char **argv = NULL;
	int k;
	dry_cellctx(d, &c, i);
	if (cellctx_request(&c, &rq, &err) == 0) {
		if (eng && eng->build_argv)
			argv = eng->build_argv(d->p, &rq.rq, &err);
		cellctx_request_release(&rq);
	}
	cellctx_release(&c);
	if (!argv) {
		buf_adds(out, ",\"argv\":null");
		return;
	}
	buf_adds(out, ",\"argv\":[");
	for (k = 0; argv[k]; k++) {
		if (k)
			buf_addc(out, ',');
		buf_add_json_str(out, argv[k]);
	}
	buf_addc(out, ']');
	engine_argv_free(argv);
}

/* ,"params":{"level":{"key":"value",...},...} */
static void json_level_params(struct fastout *o, const struct plan_factor *f)
{
	int l, k;
	fastout_s(o, ",\"params\":{");
	for (l = 0; l < f->nlevels; l++) {
		if (l)
			fastout_mem(o, ",", 1);
		fastout_json(o, f->levels[l]);
		fastout_s(o, ":{");
		for (k = 0; f->level_params[l] && k < f->nlevel_params[l];
		     k++) {
			if (k)
				fastout_mem(o, ",", 1);
			fastout_json(o, f->level_params[l][k].key);
			fastout_mem(o, ":", 1);
			fastout_json(o, f->level_params[l][k].value);
		}
		fastout_mem(o, "}", 1);
	}
	fastout_mem(o, "}", 1);
}

/* The "blocks" array's items. */
static void json_blocks(struct fastout *o, const struct dry *d)
{
	const struct plan *p = d->p;
	struct buf hs = BUF_INIT;
	int f, bound = plan_has_bindings(p);
	size_t b;
	for (b = 0; b < d->s.nblocks; b++) {
		const struct sched_block *k = &d->s.blocks[b];
		struct buf ins = BUF_INIT;
		int n = 0;
		fastout_s(o, b ? ",{\"index\":" : "{\"index\":");
		fastout_u(o, b);
		fastout_s(o, ",\"manual\":{");
		for (f = 0; f < p->nfactors; f++) {
			if (k->manual_lv[f] == UINT32_MAX)
				continue;
			if (n++)
				fastout_mem(o, ",", 1);
			fastout_mem(o, d->frag[f][k->manual_lv[f]].s,
				    d->frag[f][k->manual_lv[f]].n);
		}
		fastout_s(o, "},\"changes\":");
		fastout_u(o, (unsigned long long)k->changes);
		fastout_s(o, ",\"instructions\":[");
		block_instructions(d, b, &ins, 1);
		fastout_mem(o, ins.s, ins.len);
		buf_release(&ins);
		fastout_s(o, "],\"first\":");
		fastout_u(o, k->first);
		fastout_s(o, ",\"runs\":");
		fastout_u(o, k->nruns);
		if (bound) {
			buf_reset(&hs);
			role_hosts(p,
				   matrix_cell(&d->m, d->s.runs[k->first].cell),
				   1, &hs);
			if (hosts_per_block(p))
				fastout_f(o, ",\"hosts\":{%s}", hs.s);
			else
				fastout_s(o, ",\"hosts\":null");
		}
		fastout_s(o, "}");
	}
	buf_release(&hs);
}

/* A sized repeat's bounds (total_runs and the estimate are the pilot's). */
static void json_sizing(struct fastout *o, const struct dry *d)
{
	const struct plan *p = d->p;
	size_t extra;
	if (!(p->precision > 0))
		return;
	extra = d->m.ncells * (size_t)(p->repeat_max - p->repeat);
	fastout_f(o,
		  ",\"sizing\":{\"min\":%d,\"max\":%d,\"precision\":%g,"
		  "\"max_runs\":%zu,\"max_estimated_seconds\":%.1f}",
		  p->repeat, p->repeat_max, p->precision, d->s.nruns + extra,
		  d->estimate + d->per_run * (double)extra);
}

static void write_json(struct fastout *o, const struct dry *d)
{
	const struct plan *p = d->p;
	const struct engine_ops *eng = engine_find(p->engine.type);
	char **cache = NULL; /* [ncells] ,"argv":[...] when per cell */
	struct buf av = BUF_INIT;
	size_t i;
	int f, l, bound = plan_has_bindings(p);
	struct buf hs = BUF_INIT;
	static const char *const orders[] = {"abba", "random", "sequential"};

	fastout_s(o, "{\"plan\":");
	fastout_json(o, p->name);
	fastout_s(o, ",\"title\":");
	fastout_json(o, p->title);
	fastout_s(o, ",\"cells\":");
	fastout_u(o, d->m.ncells);
	fastout_s(o, ",\"total_runs\":");
	fastout_u(o, d->s.nruns);
	fastout_s(o, ",\"warmup_runs\":");
	fastout_u(o, d->nwarmup);
	fastout_s(o, ",\"manual_interventions\":");
	fastout_u(o, (unsigned long long)d->s.manual_interventions);
	fastout_f(o, ",\"estimated_seconds\":%.1f", d->estimate);
	fastout_f(o, ",\"per_run_overhead_seconds\":%.3f", d->overhead);
	json_sizing(o, d);
	fastout_f(o,
		  ",\"order\":\"%s\",\"repeat\":%d,\"warmup\":%d,\"seed\":%llu",
		  orders[p->order <= PLAN_ORDER_SEQUENTIAL ? p->order : 0],
		  p->repeat, p->warmup, (unsigned long long)p->seed);
	fastout_s(o, ",\"factors\":[");
	for (f = 0; f < p->nfactors; f++) {
		const struct plan_factor *fa = &p->factors[f];
		fastout_s(o, f ? ",{\"name\":" : "{\"name\":");
		fastout_json(o, fa->name);
		fastout_s(o, ",\"levels\":[");
		for (l = 0; l < fa->nlevels; l++) {
			if (l)
				fastout_mem(o, ",", 1);
			fastout_json(o, fa->levels[l]);
		}
		fastout_s(o, "],\"manual\":");
		fastout_s(o, fa->manual ? "true" : "false");
		fastout_s(o, ",\"param\":");
		fastout_json(o, fa->param);
		if (fa->level_params)
			json_level_params(o, fa);
		fastout_s(o, ",\"apply\":");
		fastout_s(o, fa->apply.argv ? "true}" : "false}");
	}
	fastout_s(o, "],\"blocks\":[");
	json_blocks(o, d);
	fastout_s(o, "],\"runs\":[");
	if (d->m.ncells <= PLAN_ARGV_CACHE_MAX && !engine_per_run(p))
		cache = calloc(d->m.ncells, sizeof *cache);
	for (i = 0; i < d->s.nruns; i++) {
		const struct sched_run *r = &d->s.runs[i];
		fastout_s(o, i ? ",\n{\"index\":" : "\n{\"index\":");
		fastout_u(o, i);
		fastout_s(o, ",\"rep\":");
		fastout_u(o, r->rep);
		fastout_s(o, ",\"block\":");
		fastout_u(o, r->block);
		fastout_s(o, ",\"pos\":");
		fastout_u(o, r->pos);
		fastout_s(o, ",\"cell\":");
		out_cell(o, d, matrix_cell(&d->m, r->cell));
		if (r->warmup)
			fastout_s(o, ",\"warmup\":true");
		if (bound) {
			buf_reset(&hs);
			role_hosts(p, matrix_cell(&d->m, r->cell), 1, &hs);
			fastout_f(o, ",\"hosts\":{%s}", hs.s);
		}
		if (cache && cache[r->cell]) {
			fastout_s(o, cache[r->cell]);
		} else {
			buf_reset(&av);
			json_run_argv(d, eng, i, &av);
			fastout_mem(o, av.s, av.len);
			if (cache)
				cache[r->cell] = strdup(av.s);
		}
		fastout_mem(o, "}", 1);
	}
	fastout_s(o, "]}\n");
	buf_release(&hs);
	if (cache)
		for (i = 0; i < d->m.ncells; i++)
			free(cache[i]);
	free(cache);
	buf_release(&av);
}

/* ---- human form ------------------------------------------------------ */

struct human {
	struct fastout *o;
	const struct dry *d;
	const struct engine_ops *eng;
	char **cache;	      /* [ncells] engine argv text, or NULL */
	const uint32_t *prev; /* previous run's cell */
};

/* Does any engine template depend on more than the cell? */
static int name_is_per_run(void *ctx, const char *name, size_t off)
{
	(void)ctx;
	(void)off;
	return placeholder_per_run(name);
}

static int engine_per_run(const struct plan *p)
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

/* The engine argv of one run as text. */
static int run_argv_text(struct human *h, struct cellctx *c, struct buf *out,
			 struct xr_err *err)
{
	struct cellctx_request rq;
	char **argv = NULL;
	int rc, i;

	rc = cellctx_request(c, &rq, err);
	if (rc < 0)
		return rc;
	if (h->eng && h->eng->build_argv)
		argv = h->eng->build_argv(h->d->p, &rq.rq, err);
	if (argv) {
		add_argv(out, argv);
		engine_argv_free(argv);
	} else {
		if (h->eng && h->eng->build_argv)
			buf_addf(out, "(no argv: %s) ", err->msg);
		buf_adds(out, "params:");
		for (i = 0; i < rq.rq.nparams; i++) {
			buf_addc(out, ' ');
			buf_adds(out, rq.rq.params[i].key);
			buf_addc(out, '=');
			add_word(out, rq.rq.params[i].value);
		}
		if (rq.rq.run_argv) {
			buf_adds(out, " run: ");
			add_argv(out, (char *const *)rq.rq.run_argv);
		}
	}
	cellctx_request_release(&rq);
	return 0;
}

/* One hook line per host it runs on (as hooks_init lists them: on:, else
 * the client; a host named twice runs it once), {{iface}} being that
 * host's; hosts whose argv is the same share a line. */
static void print_hook(struct human *h, struct cellctx *c, const char *what,
		       const struct plan_factor *f, const struct plan_argv *a)
{
	static const char *const def_on[] = {"client"};
	const char *const *on = f->non ? (const char *const *)f->on : def_on;
	int non = f->non ? f->non : 1, k, j, hi[64], n = 0;
	const char *name[64];
	char done[64] = {0};
	struct buf text[64];
	struct buf b = BUF_INIT;

	for (k = 0; k < non && n < 64; k++) {
		struct xr_err err;
		char **argv;
		int dup = 0, x = cellctx_role_index(h->d->p, on[k], c->lv);
		for (j = 0; j < n; j++)
			dup |= x >= 0 && hi[j] == x;
		if (dup)
			continue;
		hi[n] = x;
		name[n] = x >= 0 ? h->d->p->hosts[x].name : on[k];
		buf_init(&text[n], 0);
		c->iface = cellctx_iface(h->d->p, h->d->need, x);
		argv = cellctx_argv(c, a, &err);
		c->iface = NULL;
		if (argv)
			add_argv(&text[n], argv);
		else
			buf_addf(&text[n], "(cannot expand: %s)", err.msg);
		cellctx_argv_free(argv);
		n++;
	}
	for (k = 0; k < n; k++) {
		int first = 1;
		if (done[k])
			continue; /* printed with an earlier host */
		buf_reset(&b);
		buf_addf(&b, "         %s %s: %s  (on ", what, f->name,
			 text[k].s);
		for (j = k; j < n; j++) {
			if (done[j] || strcmp(text[j].s, text[k].s))
				continue;
			buf_addf(&b, "%s%s", first ? "" : ", ", name[j]);
			first = 0;
			done[j] = 1;
		}
		buf_adds(&b, ")\n");
		fastout_mem(h->o, b.s, b.len);
	}
	for (k = 0; k < n; k++)
		buf_release(&text[k]);
	buf_release(&b);
}

static int print_run(struct human *h, size_t i, struct xr_err *err)
{
	const struct dry *d = h->d;
	const struct plan *p = d->p;
	const struct sched_run *r = &d->s.runs[i];
	const uint32_t *lv = matrix_cell(&d->m, r->cell);
	struct cellctx c;
	struct buf line = BUF_INIT;
	int f, rc = 0;

	dry_cellctx(d, &c, i);
	/* Hooks run before the run whose level differs from the last, and
	 * again in every new manual block (a manual step may undo them). */
	for (f = 0; f < p->nfactors; f++) {
		const struct plan_factor *fa = &p->factors[f];
		if (h->prev && h->prev[f] == lv[f] &&
		    (i == 0 || d->s.runs[i - 1].block == r->block))
			continue;
		if (fa->apply.argv)
			print_hook(h, &c, "apply", fa, &fa->apply);
		if (fa->verify && fa->verify->run.argv)
			print_hook(h, &c, "verify", fa, &fa->verify->run);
		else if (fa->verify && fa->verify->probe)
			fastout_f(h->o, "         verify %s: probe %s\n",
				  fa->name, fa->verify->probe);
	}
	h->prev = lv;
	if (r->warmup)
		buf_addf(&line, "  #%-6zu warm-up", i);
	else
		buf_addf(&line, "  #%-6zu rep %-3u", i, r->rep);
	for (f = 0; f < p->nfactors; f++)
		buf_addf(&line, " %s=%s", p->factors[f].name,
			 p->factors[f].levels[lv[f]]);
	if (plan_has_bindings(p)) {
		buf_adds(&line, "  on ");
		role_hosts(p, lv, 0, &line);
	}
	buf_adds(&line, "\n           ");
	if (h->cache && h->cache[r->cell]) {
		buf_adds(&line, h->cache[r->cell]);
	} else {
		size_t at = line.len;
		rc = run_argv_text(h, &c, &line, err);
		if (rc == 0 && h->cache)
			h->cache[r->cell] = strdup(line.s + at);
	}
	buf_addc(&line, '\n');
	if (rc == 0)
		fastout_mem(h->o, line.s, line.len);
	buf_release(&line);
	cellctx_release(&c);
	return rc;
}

static int write_human(struct fastout *o, const struct dry *d,
		       struct xr_err *err)
{
	const struct plan *p = d->p;
	struct human h = {o, d, engine_find(p->engine.type), NULL, NULL};
	char dur[32], per[32];
	size_t b, i, before = 1;
	int f, l, rc = 0;

	for (f = 0; f < p->nfactors; f++)
		before *= (size_t)p->factors[f].nlevels;
	units_fmt_duration(d->estimate, dur, sizeof dur);
	units_fmt_duration(d->per_run, per, sizeof per);
	fastout_f(o, "plan %s%s%s\n", p->name, p->title ? ": " : "",
		  p->title ? p->title : "");
	fastout_f(o, "file: %s (sha256 %.12s)\n", p->path ? p->path : "-",
		  p->hash);
	fastout_f(o, "engine: %s\n", p->engine.type);
	if (p->nfactors)
		fastout_s(o, "factors:\n");
	for (f = 0; f < p->nfactors; f++) {
		const struct plan_factor *fa = &p->factors[f];
		fastout_f(o, "  %-12s", fa->name);
		for (l = 0; l < fa->nlevels; l++)
			fastout_f(o, "%s%s", l ? ", " : " ", fa->levels[l]);
		if (fa->manual)
			fastout_s(o, "  [manual]");
		if (fa->param)
			fastout_f(o, "  [param %s]", fa->param);
		if (fa->level_params)
			fastout_s(o, "  [params]");
		if (fa->apply.argv)
			fastout_s(o, "  [apply hook]");
		fastout_s(o, "\n");
	}
	fastout_f(o, "cells: %zu (%zu before exclusions)\n", d->m.ncells,
		  before);
	fastout_f(o, "runs: %zu (%zu x repeat %d + %zu warm-up), order %s\n",
		  d->s.nruns, d->m.ncells, p->repeat, d->nwarmup,
		  p->order == PLAN_ORDER_RANDOM	      ? "random"
		  : p->order == PLAN_ORDER_SEQUENTIAL ? "sequential"
						      : "abba");
	if (p->precision > 0) {
		/* Sized repetitions: min runs for sure, at most max. */
		size_t lo = d->s.nruns,
		       hi = d->s.nruns +
			    d->m.ncells * (size_t)(p->repeat_max - p->repeat);
		char t0[32], t1[32];
		units_fmt_duration(d->estimate, t0, sizeof t0);
		units_fmt_duration(d->estimate + d->per_run * (double)(hi - lo),
				   t1, sizeof t1);
		fastout_f(o,
			  "sized: repeat min %d, max %d, precision %g%% "
			  "(pilot of %d, then what each cell needs): %zu to "
			  "%zu runs, %s to %s\n",
			  p->repeat, p->repeat_max, p->precision * 100,
			  p->repeat, lo, hi, t0, t1);
	}
	fastout_f(o, "manual interventions: %d\n", d->s.manual_interventions);
	fastout_f(
	    o,
	    "estimated duration: %s (per run %s = duration %gs + omit %gs "
	    "+ settle %gs + overhead %.2fs, an estimate)\n",
	    dur, per, p->engine.duration, p->engine.omit, p->settle,
	    d->overhead);
	if (d->overhead_from)
		fastout_f(o,
			  "  (overhead measured from %zu gaps between finished "
			  "runs in %s.db)\n",
			  d->overhead_from, p->name);

	if (d->m.ncells <= PLAN_ARGV_CACHE_MAX && !engine_per_run(p))
		h.cache = calloc(d->m.ncells, sizeof *h.cache);
	for (b = 0; b < d->s.nblocks && rc == 0; b++) {
		const struct sched_block *k = &d->s.blocks[b];
		struct buf ins = BUF_INIT;
		int n = 0;
		fastout_f(o, "\nblock %zu:", b);
		for (f = 0; f < p->nfactors; f++)
			if (k->manual_lv[f] != UINT32_MAX &&
			    (b == 0 || d->s.blocks[b - 1].manual_lv[f] !=
					   k->manual_lv[f])) {
				fastout_f(
				    o, " %s=%s", p->factors[f].name,
				    p->factors[f].levels[k->manual_lv[f]]);
				n++;
			}
		if (!n)
			fastout_s(o, " (no manual factors)");
		block_instructions(d, b, &ins, 0);
		if (ins.len)
			fastout_f(o, "  -> %s", ins.s);
		if (plan_has_bindings(p) && hosts_per_block(p)) {
			buf_reset(&ins);
			role_hosts(p,
				   matrix_cell(&d->m, d->s.runs[k->first].cell),
				   0, &ins);
			fastout_f(o, "  (hosts: %s)", ins.s);
		}
		buf_release(&ins);
		fastout_f(o, "  [%zu run%s]\n", k->nruns,
			  k->nruns == 1 ? "" : "s");
		for (i = k->first; i < k->first + k->nruns && rc == 0; i++)
			rc = print_run(&h, i, err);
	}
	for (f = 0; f < p->nfactors && rc == 0; f++) {
		const struct plan_factor *fa = &p->factors[f];
		if (fa->restore_original)
			fastout_f(o,
				  "\nat the end: restore %s to the value found "
				  "before the first change\n",
				  fa->name);
		else if (fa->restore.argv) {
			struct buf t = BUF_INIT;
			add_argv(&t, (char *const *)fa->restore.argv);
			fastout_f(o, "\nat the end: restore %s: %s\n", fa->name,
				  t.s);
			buf_release(&t);
		}
	}
	if (h.cache)
		for (i = 0; i < d->m.ncells; i++)
			free(h.cache[i]);
	free(h.cache);
	return rc;
}

/* ---- entry ------------------------------------------------------------ */

/* --levels: FACTOR=LEVEL per line, what run --only accepts. */
static void print_levels(const struct plan *p)
{
	int f, l;
	for (f = 0; f < p->nfactors; f++)
		for (l = 0; l < p->factors[f].nlevels; l++)
			printf("%s=%s\n", p->factors[f].name,
			       p->factors[f].levels[l]);
}

struct plan_args {
	int json;
	const char *reference, *from_reference, *out;
	int levels;
	int dimension;
	const char *db;
};

static const struct opt_def plan_options[] = {
    {"json", 0, NULL, "one JSON object (schema/plan.md, Scheduling)", OPT_FLAG,
     offsetof(struct plan_args, json), NULL, 0},
    {"reference", 0, "FILE",
     "check a published reference against the plan first "
     "(schema/reference.md)",
     OPT_STRING, offsetof(struct plan_args, reference), NULL, 0},
    {"from-reference", 0, "FILE",
     "write a plan that measures a published reference's matrix instead "
     "(no PLAN)",
     OPT_STRING, offsetof(struct plan_args, from_reference), NULL, 0},
    {"output", 'o', "FILE",
     "with --from-reference: the plan to write (default: stdout)", OPT_STRING,
     offsetof(struct plan_args, out), NULL, 0},
    {"levels", 0, NULL,
     "only list the plan's FACTOR=LEVEL pairs, one a line, as --only takes "
     "them (for shell completion)",
     OPT_FLAG, offsetof(struct plan_args, levels), NULL, 0},
    {"dimension", 0, NULL,
     "from an earlier store of the plan (--db), the variance of each level "
     "(intervals in a run, runs) and its cost: whether longer or more runs "
     "buy the precision more cheaply, and the duration, repeat per cell "
     "and total time to plan (Kalibera-Jones)",
     OPT_FLAG, offsetof(struct plan_args, dimension), NULL, 0},
    {"db", 0, "FILE",
     "the store to measure the overhead and, with --dimension, the "
     "variances from (default: ./<plan name>.db)",
     OPT_STRING, offsetof(struct plan_args, db), NULL, 0},
    {0},
};

/* --dimension: the recommendation from an earlier store (dimension.h). */
static int run_dimension(struct plan *p, const struct plan_args *a)
{
	struct dry d;
	struct store *st = NULL;
	struct buf path = BUF_INIT;
	struct xr_err err = {0};
	int rc;
	memset(&d, 0, sizeof d);
	d.db = a->db;
	if (a->db)
		buf_adds(&path, a->db);
	else
		store_default_path(p->name, &path);
	if ((rc = dry_build(&d, p, &err)) == 0 &&
	    (rc = store_open(path.s, STORE_READONLY, &st, &err)) == 0)
		rc = dimension_print(p, st, d.overhead, stdout, &err);
	store_close(st);
	dry_release(&d);
	buf_release(&path);
	if (rc < 0) {
		xr_err_print(&err, "xrun plan");
		return xr_code_exit(-rc);
	}
	return fflush(stdout) ? 3 : 0;
}

static int cmd_plan(int argc, char **argv)
{
	struct plan_args a = {0};
	const char *path;
	int json, rc, status = 0;
	struct xr_diag diag;
	struct xr_err err;
	struct plan *p = NULL;
	struct dry d;
	struct fastout o = {stdout, NULL, 0, 1 << 20, 0};

	if ((rc = opt_parse(&cmd_plan_spec, argc, argv, &a)) < 0)
		return opt_exit(rc);
	if (a.from_reference) {
		if (rc != 0) {
			fprintf(stderr, "xrun: --from-reference takes no "
					"PLAN\n");
			opt_usage(&cmd_plan_spec, stderr);
			return 2;
		}
		return cmd_plan_from_reference(a.from_reference, a.out);
	}
	if (rc != 1 || a.out) {
		fprintf(stderr, rc != 1 ? "xrun: plan needs a PLAN\n"
					: "xrun: -o goes with "
					  "--from-reference\n");
		opt_usage(&cmd_plan_spec, stderr);
		return 2;
	}
	path = argv[1];
	json = a.json;
	xr_diag_init(&diag, path);
	rc = plan_load(path, catalog_builtin(), &p, &diag);
	if (diag.n) /* err.c's qsort of an empty list trips UBSan */
		xr_diag_print(&diag, stderr);
	xr_diag_release(&diag);
	if (rc < 0 || (a.reference && cmd_check_reference(p, a.reference))) {
		plan_free(p);
		return 2;
	}
	if (a.levels) {
		print_levels(p);
		plan_free(p);
		return fflush(stdout) ? 3 : 0;
	}
	if (a.dimension) {
		status = run_dimension(p, &a);
		plan_free(p);
		return status;
	}
	xr_err_clear(&err);
	memset(&d, 0, sizeof d);
	d.db = a.db;
	rc = dry_build(&d, p, &err);
	if (rc == 0) {
		o.b = malloc(o.cap);
		if (!o.b)
			rc = xr_err_set(&err, XR_ENOMEM, NULL, 0, 0,
					"out of memory");
	}
	if (rc == 0) {
		if (json)
			write_json(&o, &d);
		else
			rc = write_human(&o, &d, &err);
		fastout_flush(&o);
		if (fflush(stdout) != 0 || o.failed) {
			fprintf(stderr, "xrun plan: cannot write the output\n");
			status = 3;
		}
	}
	if (rc < 0) {
		xr_err_print(&err, "xrun plan");
		status = xr_code_exit(-rc);
	}
	free(o.b);
	dry_release(&d);
	plan_free(p);
	return status;
}

const struct opt_cmd cmd_plan_spec = {
    .name = "plan",
    .args = "[PLAN]",
    .summary = "the dry run: print the schedule without running anything",
    .about = "Cells, runs, manual interventions, estimated duration, and "
	     "every run in order with its engine argv and hooks. With "
	     "--from-reference FILE (and no PLAN): write a plan that measures "
	     "a published reference instead.",
    .opts = plan_options,
    .min_args = 0,
    .max_args = 1,
    .fn = cmd_plan,
};
