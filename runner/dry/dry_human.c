/*
 * `xrun plan PLAN`: the dry run (dry.h) for a reader: the plan, its cells,
 * runs, manual interventions and estimated duration, then every block and
 * every run in order with the argv it would execute and the hooks that
 * run when a level changes, and what is restored at the end. A hook on a
 * `shell: powershell` host is shown as PowerShell would take it pasted
 * (the call operator, '...' with '' for quotes), as host_ssh.c sends it.
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
#include "host.h"
#include "plan.h"
#include "units.h"
#include "banned.h"

struct human {
	struct fastout *o;
	const struct dry *d;
	const struct engine_ops *eng;
	char **cache;	      /* [ncells] engine argv text, or NULL */
	const uint32_t *prev; /* previous run's cell */
};

static void add_argv_for(struct buf *b, char *const *argv,
			 enum plan_shell shell);
static enum plan_shell dry_human_host_shell(const struct plan *p, int hi);

/* The engine argv of one run as text, quoted for the engine client's
 * shell. */
static int run_argv_text(struct human *h, struct cellctx *c, struct buf *out,
			 struct xr_err *err)
{
	enum plan_shell sh = dry_human_host_shell(
	    h->d->p, cellctx_role_index(h->d->p, "client", c->lv));
	struct cellctx_request rq;
	char **argv = NULL;
	int rc, i;

	rc = cellctx_request(c, &rq, err);
	if (rc < 0)
		return rc;
	if (h->eng && h->eng->build_argv)
		argv = h->eng->build_argv(h->d->p, &rq.rq, err);
	if (argv) {
		add_argv_for(out, argv, sh);
		engine_argv_free(argv);
	} else {
		if (h->eng && h->eng->build_argv)
			buf_addf(out, "(no argv: %s) ", err->msg);
		buf_adds(out, "params:");
		for (i = 0; i < rq.rq.nparams; i++) {
			buf_addc(out, ' ');
			buf_adds(out, rq.rq.params[i].key);
			buf_addc(out, '=');
			dry_add_word(out, rq.rq.params[i].value);
		}
		if (rq.rq.run_argv) {
			buf_adds(out, " run: ");
			add_argv_for(out, (char *const *)rq.rq.run_argv, sh);
		}
	}
	cellctx_request_release(&rq);
	return 0;
}

/* A word as a reader would paste it into PowerShell: bare when nothing in
 * it means anything there (no ',' array, '@' splat, '$', quotes, ';'). */
static void add_word_ps(struct buf *b, const char *w)
{
	static const char plain[] = "abcdefghijklmnopqrstuvwxyz"
				    "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "0123456789-_./:\\";
	if (*w && w[strspn(w, plain)] == 0)
		buf_adds(b, w);
	else
		host_quote_powershell(w, b);
}

/* argv as the far side's shell takes it: POSIX sh or PowerShell, where a
 * quoted command word needs the call operator '&'. */
static void add_argv_for(struct buf *b, char *const *argv,
			 enum plan_shell shell)
{
	size_t at = b->len;
	int i;
	if (shell != PLAN_SHELL_POWERSHELL) {
		dry_add_argv(b, argv);
		return;
	}
	for (i = 0; argv && argv[i]; i++) {
		if (i)
			buf_addc(b, ' ');
		add_word_ps(b, argv[i]);
	}
	if (b->len > at && b->s[at] == '\'') {
		struct buf t = BUF_INIT;
		buf_adds(&t, b->s + at);
		b->len = at;
		b->s[at] = '\0';
		buf_adds(b, "& ");
		buf_adds(b, t.s);
		buf_release(&t);
	}
}

static enum plan_shell dry_human_host_shell(const struct plan *p, int hi)
{
	return hi >= 0 && hi < p->nhosts ? p->hosts[hi].shell : PLAN_SHELL_SH;
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
			add_argv_for(&text[n], argv,
				     dry_human_host_shell(h->d->p, x));
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
	int f, j, rc = 0;

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
		for (j = 0; j < fa->nverify; j++) {
			const struct plan_verify *v = &fa->verify[j];
			if (v->run.argv)
				print_hook(h, &c, "verify", fa, &v->run);
			else if (v->probe)
				fastout_f(h->o,
					  "         verify %s: probe %s\n",
					  fa->name, v->probe);
		}
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
		dry_role_hosts(p, lv, 0, &line);
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

/* The plan, its factors, cells, runs and the estimate. */
static void write_summary(struct fastout *o, const struct dry *d)
{
	const struct plan *p = d->p;
	char dur[32], per[32];
	size_t before = 1;
	int f, l;

	for (f = 0; f < p->nfactors; f++)
		before *= (size_t)p->factors[f].nlevels;
	units_fmt_duration(d->estimate, dur, sizeof dur);
	units_fmt_duration(d->per_run, per, sizeof per);
	fastout_f(o, "plan %s%s%s\n", p->name, p->title ? ": " : "",
		  p->title ? p->title : "");
	fastout_f(o, "file: %s (sha256 %.12s)\n", p->path ? p->path : "-",
		  p->hash);
	fastout_f(o, "engine: %s\n", p->engine.type);
	if (p->latency.probe)
		fastout_f(o,
			  "latency probe: %s from %s to %s every %gs, %gs "
			  "idle before each run (in the lead-in)%s\n",
			  p->latency.probe, p->latency.from, p->latency.to,
			  p->latency.interval, p->latency.idle,
			  dry_latency_server(p) ? "; xrun starts its server on "
						  "the target"
						: "");
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
	fastout_f(o, "runs: %zu%s (%zu x repeat %d + %zu warm-up), order %s\n",
		  d->s.nruns, d->shard_n ? " of this shard" : "", d->m.ncells,
		  p->repeat, d->nwarmup, plan_order_name(p->order));
	if (d->shard_n) {
		struct buf part = BUF_INIT;
		double all = 0;
		size_t i;
		for (i = 0; i < d->shard.nunits; i++)
			all += d->shard.units[i].seconds;
		shard_describe(&d->shard, d->shard_k, &part);
		fastout_f(o,
			  "shard %u/%u: %s (%.0f of the plan's %.0f nominal "
			  "seconds); the other shards run the rest\n",
			  d->shard_k, d->shard_n, part.s,
			  d->shard.load[d->shard_k - 1], all);
		buf_release(&part);
	}
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
	fastout_f(o,
		  "estimated duration: %s (per run %s = duration %gs + omit "
		  "%gs",
		  dur, per, p->engine.duration, p->engine.omit);
	/* the samplers' lead-in runs during settle (exec_wait_before) */
	if (d->lead_in > 0 && p->settle > 0)
		fastout_f(o,
			  " + the longer of settle %gs and sampler lead-in %gs "
			  "(they overlap)",
			  p->settle, d->lead_in);
	else if (d->lead_in > 0)
		fastout_f(o, " + sampler lead-in %gs", d->lead_in);
	else
		fastout_f(o, " + settle %gs", p->settle);
	fastout_f(o, " + overhead %.2fs, an estimate)\n", d->overhead);
	if (d->overhead_from)
		fastout_f(o,
			  "  (overhead measured from %zu gaps between finished "
			  "runs in %s.db)\n",
			  d->overhead_from, p->name);
}

/* Block b's heading line, then its runs. */
static int write_block(struct human *h, size_t b, struct xr_err *err)
{
	const struct dry *d = h->d;
	const struct plan *p = d->p;
	const struct sched_block *k = &d->s.blocks[b];
	struct fastout *o = h->o;
	struct buf ins = BUF_INIT;
	size_t i, prev = sched_block_before(&d->s, b);
	int f, n = 0, rc = 0;
	if (!k->nruns)
		return 0; /* another shard's */
	fastout_f(o, "\nblock %zu:", b);
	for (f = 0; f < p->nfactors; f++)
		if (k->manual_lv[f] != UINT32_MAX &&
		    (prev == (size_t)-1 ||
		     d->s.blocks[prev].manual_lv[f] != k->manual_lv[f])) {
			fastout_f(o, " %s=%s", p->factors[f].name,
				  p->factors[f].levels[k->manual_lv[f]]);
			n++;
		}
	if (!n)
		fastout_s(o, " (no manual factors)");
	dry_block_instructions(d, b, &ins, 0);
	if (ins.len)
		fastout_f(o, "  -> %s", ins.s);
	if (plan_has_bindings(p) && dry_hosts_per_block(p)) {
		buf_reset(&ins);
		dry_role_hosts(p, matrix_cell(&d->m, d->s.runs[k->first].cell),
			       0, &ins);
		fastout_f(o, "  (hosts: %s)", ins.s);
	}
	buf_release(&ins);
	fastout_f(o, "  [%zu run%s]\n", k->nruns, k->nruns == 1 ? "" : "s");
	for (i = k->first; i < k->first + k->nruns && rc == 0; i++)
		rc = print_run(h, i, err);
	return rc;
}

/* What is restored after the last run, quoted for the shell of the
 * factor's first host in the first run. */
static void write_restores(struct fastout *o, const struct dry *d)
{
	const struct plan *p = d->p;
	const uint32_t *lv =
	    d->s.nruns ? matrix_cell(&d->m, d->s.runs[0].cell) : NULL;
	int f;
	for (f = 0; f < p->nfactors; f++) {
		const struct plan_factor *fa = &p->factors[f];
		if (fa->restore_original)
			fastout_f(o,
				  "\nat the end: restore %s to the value found "
				  "before the first change\n",
				  fa->name);
		else if (fa->restore.argv) {
			struct buf t = BUF_INIT;
			int hi = lv ? cellctx_role_index(
					  p, fa->non ? fa->on[0] : "client", lv)
				    : -1;
			add_argv_for(&t, (char *const *)fa->restore.argv,
				     dry_human_host_shell(p, hi));
			fastout_f(o, "\nat the end: restore %s: %s\n", fa->name,
				  t.s);
			buf_release(&t);
		}
	}
}

int dry_write_human(struct fastout *o, const struct dry *d, struct xr_err *err)
{
	const struct plan *p = d->p;
	struct human h = {o, d, engine_find(p->engine.type), NULL, NULL};
	size_t b, i;
	int rc = 0;

	write_summary(o, d);
	if (d->m.ncells <= DRY_ARGV_CACHE_MAX && !dry_engine_per_run(p))
		h.cache = calloc(d->m.ncells, sizeof *h.cache);
	for (b = 0; b < d->s.nblocks && rc == 0; b++)
		rc = write_block(&h, b, err);
	if (rc == 0)
		write_restores(o, d);
	if (h.cache)
		for (i = 0; i < d->m.ncells; i++)
			free(h.cache[i]);
	free(h.cache);
	return rc;
}
