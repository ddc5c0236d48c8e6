/*
 * `xrun plan --json`: the dry run (dry.h) as one JSON object
 * (schema/plan.md, Scheduling), written through fastout (not stdio
 * formatting, not a jansson tree): a million runs serialise in about a
 * second when their argv can be built once per cell; a million distinct
 * cells cost one argv each (bench/README.md).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cellctx.h"
#include "dry.h"
#include "engine.h"
#include "fastout.h"
#include "plan.h"
#include "banned.h"

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
	size_t b, shown = 0;
	for (b = 0; b < d->s.nblocks; b++) {
		const struct sched_block *k = &d->s.blocks[b];
		struct buf ins = BUF_INIT;
		int n = 0;
		if (!k->nruns)
			continue; /* another shard's */
		fastout_s(o, shown++ ? ",{\"index\":" : "{\"index\":");
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
		dry_block_instructions(d, b, &ins, 1);
		fastout_mem(o, ins.s, ins.len);
		buf_release(&ins);
		fastout_s(o, "],\"first\":");
		fastout_u(o, k->first);
		fastout_s(o, ",\"runs\":");
		fastout_u(o, k->nruns);
		if (bound) {
			buf_reset(&hs);
			dry_role_hosts(
			    p, matrix_cell(&d->m, d->s.runs[k->first].cell), 1,
			    &hs);
			if (dry_hosts_per_block(p))
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

/* ,"latency":{...} or null: the plan's latency probe (schema/plan.md
 * "xrun plan --json"). */
static void json_latency(struct fastout *o, const struct plan *p)
{
	const struct plan_latency *l = &p->latency;
	fastout_s(o, ",\"latency\":");
	if (!l->probe) {
		fastout_s(o, "null");
		return;
	}
	fastout_s(o, "{\"probe\":");
	fastout_json(o, l->probe);
	fastout_s(o, ",\"from\":");
	fastout_json(o, l->from);
	fastout_s(o, ",\"to\":");
	fastout_json(o, l->to);
	fastout_f(o, ",\"interval_seconds\":%g,\"idle_seconds\":%g",
		  l->interval, l->idle);
	fastout_s(o, ",\"server\":");
	fastout_s(o, dry_latency_server(p) ? "true}" : "false}");
}

void dry_write_json(struct fastout *o, const struct dry *d)
{
	const struct plan *p = d->p;
	const struct engine_ops *eng = engine_find(p->engine.type);
	char **cache = NULL; /* [ncells] ,"argv":[...] when per cell */
	struct buf av = BUF_INIT;
	size_t i;
	int f, l, bound = plan_has_bindings(p);
	struct buf hs = BUF_INIT;

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
	fastout_f(o, ",\"lead_in_seconds\":%.3f", d->lead_in);
	json_sizing(o, d);
	json_latency(o, p);
	fastout_f(o,
		  ",\"order\":\"%s\",\"repeat\":%d,\"warmup\":%d,\"seed\":%llu",
		  plan_order_name(p->order), p->repeat, p->warmup,
		  (unsigned long long)p->seed);
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
	if (d->shard_n) {
		struct buf part = BUF_INIT;
		shard_describe(&d->shard, d->shard_k, &part);
		fastout_f(o,
			  "],\"shard\":{\"k\":%u,\"n\":%u,\"units\":%zu,"
			  "\"seconds\":%.3f,\"part\":",
			  d->shard_k, d->shard_n, d->shard.nunits,
			  d->shard.load[d->shard_k - 1]);
		fastout_json(o, part.s);
		fastout_s(o, "},\"blocks\":[");
		buf_release(&part);
	} else
		fastout_s(o, "],\"blocks\":[");
	json_blocks(o, d);
	fastout_s(o, "],\"runs\":[");
	if (d->m.ncells <= DRY_ARGV_CACHE_MAX && !dry_engine_per_run(p))
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
		dry_out_cell(o, d, matrix_cell(&d->m, r->cell));
		if (r->warmup)
			fastout_s(o, ",\"warmup\":true");
		if (bound) {
			buf_reset(&hs);
			dry_role_hosts(p, matrix_cell(&d->m, r->cell), 1, &hs);
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
