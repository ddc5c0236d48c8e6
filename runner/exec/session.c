/*
 * Which session `xrun run` continues (session.h), and the session's status
 * around the run loop. A session is identified by the hash of its cells
 * description: everything that decides which runs exist and in which
 * order. When that hash differs from the unfinished latest session's, the
 * JSON descriptions are compared to say what changed.
 *
 * SPDX-License-Identifier: MIT
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "plan.h"
#include "proc.h"
#include "runctx.h"
#include "session.h"
#include "sha256.h"
#include "sizing.h"
#include "testbed.h"
#include "banned.h"

/* ---- what changes the runs ------------------------------------------- */

/*
 * The cells description: everything that decides which runs exist and in
 * which order (factors and levels, manual or not, exclusions, repeat,
 * order, the seed when order is random, warm-up, engine type). Its hash
 * identifies a session's schedule; the text lets a refusal say what
 * changed. Durations, params and hooks are not in it: changing them does
 * not move runs, and the plan text stored with each session records them.
 */
static void cells_desc(const struct plan *p, struct buf *b)
{
	int f, i, k, j;
	buf_adds(b, "{\"engine\":");
	buf_add_json_str(b, p->engine.type);
	buf_adds(b, ",\"factors\":[");
	for (f = 0; f < p->nfactors; f++) {
		const struct plan_factor *fa = &p->factors[f];
		buf_adds(b, f ? ",{\"name\":" : "{\"name\":");
		buf_add_json_str(b, fa->name);
		buf_addf(b, ",\"manual\":%s,\"levels\":[",
			 fa->manual ? "true" : "false");
		for (i = 0; i < fa->nlevels; i++) {
			if (i)
				buf_addc(b, ',');
			buf_add_json_str(b, fa->levels[i]);
		}
		buf_adds(b, "]}");
	}
	buf_adds(b, "],\"exclude\":[");
	for (i = 0; i < p->nexcludes; i++) {
		const struct plan_exclude *e = &p->excludes[i];
		buf_adds(b, i ? ",{" : "{");
		for (k = 0; k < e->nterms; k++) {
			const struct plan_factor *fa =
			    &p->factors[e->factor[k]];
			if (k)
				buf_addc(b, ',');
			buf_add_json_str(b, fa->name);
			buf_adds(b, ":[");
			for (j = 0; j < e->nlv[k]; j++) {
				if (j)
					buf_addc(b, ',');
				buf_add_json_str(b, fa->levels[e->lv[k][j]]);
			}
			buf_addc(b, ']');
		}
		buf_addc(b, '}');
	}
	buf_addf(b, "],\"repeat\":%d,\"order\":\"%s\",\"warmup\":%d", p->repeat,
		 plan_order_name(p->order), p->warmup);
	if (p->order == PLAN_ORDER_RANDOM)
		buf_addf(b, ",\"seed\":%llu", (unsigned long long)p->seed);
	/* Sized repetitions add runs after the pilot: only written when
	 * set, so the hash of a fixed-count plan stays what it was. */
	if (p->precision > 0)
		buf_addf(b, ",\"sizing\":{\"max\":%d,\"precision\":%.17g}",
			 p->repeat_max, p->precision);
	buf_addc(b, '}');
}

static const char *str_or(const char *s, const char *d)
{
	return s ? s : d;
}

static json_t *find_factor(json_t *factors, const char *name)
{
	size_t i;
	json_t *f;
	json_array_foreach(factors, i, f)
	{
		if (!strcmp(
			str_or(json_string_value(json_object_get(f, "name")),
			       ""),
			name))
			return f;
	}
	return NULL;
}

static void levels_text(json_t *levels, struct buf *b)
{
	size_t i;
	json_t *v;
	buf_addc(b, '[');
	json_array_foreach(levels, i, v)
	{
		buf_adds(b, i ? ", " : "");
		buf_adds(b, str_or(json_string_value(v), "?"));
	}
	buf_addc(b, ']');
}

static const char *factor_name(json_t *f)
{
	return str_or(json_string_value(json_object_get(f, "name")), "?");
}

static int factor_names_same_order(json_t *a, json_t *b)
{
	size_t i;
	if (json_array_size(a) != json_array_size(b))
		return 0;
	for (i = 0; i < json_array_size(a); i++)
		if (strcmp(factor_name(json_array_get(a, i)),
			   factor_name(json_array_get(b, i))) != 0)
			return 0;
	return 1;
}

static void factor_names_text(json_t *factors, struct buf *b)
{
	size_t i;
	json_t *f;
	buf_addc(b, '[');
	json_array_foreach(factors, i, f)
	{
		buf_adds(b, i ? ", " : "");
		buf_adds(b, factor_name(f));
	}
	buf_addc(b, ']');
}

/* One line per difference between two cells descriptions. */
static void describe_changes(const char *olds, const char *news,
			     struct buf *out)
{
	json_t *o = json_loads(olds ? olds : "{}", 0, NULL);
	json_t *n = json_loads(news, 0, NULL);
	json_t *of, *nf, *f;
	static const char *const keys[] = {"engine", "repeat",	"order", "seed",
					   "warmup", "exclude", "sizing"};
	size_t i;
	if (!o || !n) {
		buf_adds(out, "  the schedule differs\n");
		goto out;
	}
	of = json_object_get(o, "factors");
	nf = json_object_get(n, "factors");
	json_array_foreach(nf, i, f)
	{
		const char *name =
		    json_string_value(json_object_get(f, "name"));
		json_t *g = find_factor(of, str_or(name, ""));
		if (!g) {
			buf_addf(out, "  factor '%s' added\n", name);
			continue;
		}
		if (!json_equal(json_object_get(f, "levels"),
				json_object_get(g, "levels"))) {
			buf_addf(out, "  factor '%s' levels changed: ", name);
			levels_text(json_object_get(g, "levels"), out);
			buf_adds(out, " -> ");
			levels_text(json_object_get(f, "levels"), out);
			buf_addc(out, '\n');
		}
		if (!json_equal(json_object_get(f, "manual"),
				json_object_get(g, "manual")))
			buf_addf(out, "  factor '%s' is now %s\n", name,
				 json_is_true(json_object_get(f, "manual"))
				     ? "manual"
				     : "automatic");
	}
	json_array_foreach(of, i, f)
	{
		const char *name =
		    json_string_value(json_object_get(f, "name"));
		if (!find_factor(nf, str_or(name, "")))
			buf_addf(out, "  factor '%s' removed\n", name);
	}
	for (i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		json_t *a = json_object_get(o, keys[i]);
		json_t *b = json_object_get(n, keys[i]);
		char *as, *bs;
		if ((!a && !b) || (a && b && json_equal(a, b)))
			continue;
		as = a ? json_dumps(a, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
		bs = b ? json_dumps(b, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
		buf_addf(out, "  %s changed: %s -> %s\n", keys[i],
			 as ? as : "(none)", bs ? bs : "(none)");
		free(as);
		free(bs);
	}
	if (!out->len && !factor_names_same_order(of, nf)) {
		/* Same factors, another order: the matrix order changes. */
		buf_adds(out, "  factor order changed: ");
		factor_names_text(of, out);
		buf_adds(out, " -> ");
		factor_names_text(nf, out);
		buf_addc(out, '\n');
	}
	if (!out->len)
		buf_adds(out, "  the schedule differs\n");
out:
	json_decref(o);
	json_decref(n);
}

/* ---- a new session ---------------------------------------------------- */

/*
 * Rows per batch: all the rows of a session up to this size are inserted
 * when it starts (as before version 6); a larger one gets them a batch at a
 * time (about 20 ms of CPU each, once per ROWS_BATCH runs).
 */
#define ROWS_BATCH 4096

/* Insert the rows of positions rows_made .. upto-1 (the caller's
 * transaction, which sets rows_made once committed) and record their
 * ids. */
static int insert_rows(struct runctx *rc, size_t upto, struct xr_err *err)
{
	const struct plan *p = rc->p;
	struct store_pending *sp;
	struct buf *cells;
	size_t i, n = upto - rc->rows_made;
	int r;
	sp = calloc(n + 1, sizeof *sp);
	cells = calloc(n + 1, sizeof *cells);
	if (!sp || !cells) {
		free(sp);
		free(cells);
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	}
	for (i = 0; i < n; i++) {
		size_t pos = rc->rows_made + i;
		const struct sched_run *run = &rc->s.runs[pos];
		matrix_cell_json(p, matrix_cell(&rc->m, run->cell), &cells[i]);
		sp[i].position = (uint32_t)pos;
		sp[i].block = run->block;
		sp[i].block_pos = run->pos;
		/* Pass k holds repetition k+1 of every cell (warm-ups: 0). */
		sp[i].pass = run->rep ? run->rep - 1 : 0;
		sp[i].rep = run->rep;
		sp[i].cell_index = run->cell;
		sp[i].warmup = run->warmup;
		sp[i].cell = cells[i].s;
	}
	r = store_runs_pending_make(rc->st, rc->session_id, sp, n,
				    rc->ids + rc->rows_made, err);
	for (i = 0; i < n; i++)
		buf_release(&cells[i]);
	free(cells);
	free(sp);
	return r;
}

int session_rows_upto(struct runctx *rc, size_t i, struct xr_err *err)
{
	size_t upto = rc->rows_made + ROWS_BATCH;
	int r;
	if (i < rc->rows_made)
		return 0;
	if (upto > rc->s.nruns)
		upto = rc->s.nruns;
	if (upto <= i)
		upto = i + 1;
	if ((r = store_begin(rc->st, err)) < 0)
		return r;
	if ((r = insert_rows(rc, upto, err)) < 0) {
		store_rollback(rc->st);
		return r;
	}
	if ((r = store_commit(rc->st, err)) == 0)
		rc->rows_made = upto;
	return r;
}

static int insert_pending(struct runctx *rc, int64_t plan_id, const char *hash,
			  const char *desc, const char *argv_json,
			  struct xr_err *err)
{
	/* A sized plan moves runs to make room for its extra passes
	 * (sizing.c): it gets every row at the start. */
	size_t upto = rc->s.nruns < ROWS_BATCH || rc->p->precision > 0
			  ? rc->s.nruns
			  : ROWS_BATCH;
	int r;
	rc->ids = calloc(rc->s.nruns + 1, sizeof *rc->ids);
	rc->status = calloc(rc->s.nruns + 1, 1);
	rc->retry = calloc(rc->s.nruns + 1, 1);
	if (!rc->ids || !rc->status || !rc->retry)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	rc->rows_made = 0;
	if ((r = store_begin(rc->st, err)) < 0)
		return r;
	if ((r = store_session_create(rc->st, plan_id, hash, desc, argv_json,
				      &rc->session_id, err)) < 0 ||
	    (r = store_session_set_planned(rc->st, rc->session_id,
					   (int64_t)rc->s.nruns, err)) < 0 ||
	    (r = insert_rows(rc, upto, err)) < 0) {
		store_rollback(rc->st);
		rc->session_id = 0;
		return r;
	}
	if ((r = store_commit(rc->st, err)) == 0)
		rc->rows_made = upto;
	return r;
}

/* ---- shards ----------------------------------------------------------- */

/* The shard's manifest, stored with its new session. */
static int session_shard_put(struct runctx *rc, struct xr_err *err)
{
	const struct shard_plan *sp = &rc->shard;
	struct buf assign = BUF_INIT, blocks = BUF_INIT, tb = BUF_INIT;
	struct store_shard sh = {0};
	uint32_t k = rc->o->shard_k - 1, last = UINT32_MAX;
	size_t i;
	int r;
	buf_addc(&assign, '[');
	buf_addc(&blocks, '[');
	for (i = 0; i < sp->nunits; i++) {
		const struct shard_unit *u = &sp->units[i];
		buf_addf(&assign, "%s[%u,%u,%u,%u]", i ? "," : "", u->block,
			 u->pass0, u->npass, u->shard + 1);
		if (u->shard == k && u->block != last)
			buf_addf(&blocks, "%s%u", last == UINT32_MAX ? "" : ",",
				 u->block);
		if (u->shard == k)
			last = u->block;
	}
	buf_addc(&assign, ']');
	buf_addc(&blocks, ']');
	testbed_name(rc->p, rc->o->testbed, &tb);
	sh.k = rc->o->shard_k;
	sh.n = rc->o->shard_n;
	sh.nunits = (uint32_t)sp->nunits;
	sh.assign = assign.s;
	sh.blocks = blocks.s;
	sh.testbed = tb.s;
	r = assign.truncated || blocks.truncated || tb.truncated
		? xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory")
		: store_shard_put(rc->st, rc->session_id, &sh, err);
	buf_release(&assign);
	buf_release(&blocks);
	buf_release(&tb);
	return r;
}

/* Whether the latest session ran another shard (or the whole plan) than
 * this invocation asks for: said in d->changes. 1 when it did. */
static int session_shard_changed(struct runctx *rc, struct session_decision *d,
				 struct xr_err *err)
{
	uint32_t k, n;
	int r = store_shard_of(rc->st, d->last.id, &k, &n, err);
	if (r < 0)
		return r;
	if (k == rc->o->shard_k && n == rc->o->shard_n)
		return 0;
	buf_adds(&d->changes, "  shard changed: ");
	buf_addf(&d->changes, n ? "%u/%u" : "the whole plan", k, n);
	buf_adds(&d->changes, " -> ");
	buf_addf(&d->changes, rc->o->shard_n ? "%u/%u" : "the whole plan",
		 rc->o->shard_k, rc->o->shard_n);
	buf_addc(&d->changes, '\n');
	return 1;
}

/* ---- the decision ---------------------------------------------------- */

/* Loads the runs of rc->session_id by schedule position: a row for every
 * position, or (version 6) for a prefix of the schedule. */
static int load_runs(struct runctx *rc, const struct store_session *last,
		     struct xr_err *err)
{
	int64_t n;
	size_t i;
	rc->ids = calloc(rc->s.nruns + 1, sizeof *rc->ids);
	rc->status = calloc(rc->s.nruns + 1, 1);
	rc->retry = calloc(rc->s.nruns + 1, 1);
	if (!rc->ids || !rc->status || !rc->retry)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	n = store_runs_load(rc->st, rc->session_id, rc->ids, rc->status,
			    rc->s.nruns, err);
	if (n < 0)
		return (int)n;
	for (i = 0; i < (size_t)n && rc->ids[i]; i++)
		;
	/* last->nruns: the schedule's size when stored, else the rows. */
	if (i == (size_t)n && n <= (int64_t)rc->s.nruns &&
	    last->nruns == (int64_t)rc->s.nruns) {
		rc->rows_made = (size_t)n;
		return 0;
	}
	return xr_err_set(err, XR_ESTORE, store_path(rc->st), 0, 0,
			  "session %lld does not hold the %zu runs of the "
			  "schedule",
			  (long long)rc->session_id, rc->s.nruns);
}

/*
 * The runs of the loaded session that had failed or timed out: each gets
 * the plan's retry: attempts in this invocation (rc->retry), unless
 * --no-retry or retry: 0 keep them as they are (counted in d->nkept).
 * Runs outside --only are neither.
 */
static void mark_retries(struct runctx *rc, struct session_decision *d)
{
	int keep = rc->o->no_retry || rc->p->retry <= 0;
	size_t i;
	for (i = 0; i < rc->rows_made; i++) {
		if ((rc->status[i] != RUN_FAILED &&
		     rc->status[i] != RUN_TIMEOUT) ||
		    !runctx_only_match(rc,
				       matrix_cell(&rc->m, rc->s.runs[i].cell)))
			continue;
		if (keep) {
			d->nkept++;
			continue;
		}
		rc->retry[i] = (uint8_t)rc->p->retry;
		d->nretry++;
	}
}

int session_start(struct runctx *rc, const char *plan_path, const char *text,
		  const char *argv_json, struct session_decision *d,
		  struct xr_err *err)
{
	const struct plan *p = rc->p;
	struct buf desc = BUF_INIT;
	char cells_hash[65];
	int64_t plan_id = 0;
	int r, finished = 0;

	memset(d, 0, sizeof *d);
	d->kind = SESSION_NEW;
	cells_desc(p, &desc);
	sha256_hex(desc.s, desc.len, cells_hash);
	if ((r = store_plan_put(rc->st, p->name, p->title, plan_path, p->hash,
				text, &plan_id, err)) < 0 ||
	    (r = store_session_latest(rc->st, p->name, &d->last, err)) < 0)
		goto out;
	if (d->last.id && !rc->o->new_session) {
		int same = !strcmp(d->last.cells_hash, cells_hash);
		finished = !strcmp(d->last.status, "done");
		/* Another shard (or the whole plan after a shard): a
		 * session of its own; an unfinished one is not left. */
		if (same && (r = session_shard_changed(rc, d, err)) != 0) {
			if (r < 0)
				goto out;
			r = 0;
			if (!finished) {
				d->kind = SESSION_CHANGED;
				goto out;
			}
			same = finished = -1; /* neither: a new session */
		}
		if (!finished && !same) {
			describe_changes(d->last.cells_desc, desc.s,
					 &d->changes);
			d->kind = SESSION_CHANGED;
			goto out;
		}
		if (same == 1) {
			/* finished: complete, unless runs are to retry */
			rc->session_id = d->last.id;
			d->kind = SESSION_RESUMED;
		}
	}
	if (!rc->session_id) {
		r = insert_pending(rc, plan_id, cells_hash, desc.s, argv_json,
				   err);
		if (r == 0 && rc->o->shard_n)
			r = session_shard_put(rc, err);
		goto out;
	}
	/* A resumed sized session: its decided extra passes first. */
	if ((r = sizing_restore(rc, err)) == 0 &&
	    (r = load_runs(rc, &d->last, err)) == 0)
		mark_retries(rc, d);
	if (r == 0 && finished == 1 && !d->nretry)
		d->kind = SESSION_COMPLETE;
	else if (r == 0 && d->last.plan_id != plan_id)
		store_session_set_plan(rc->st, d->last.id, plan_id, NULL);
out:
	buf_release(&desc);
	return r < 0 ? r : 0;
}

void session_decision_release(struct session_decision *d)
{
	store_session_release(&d->last);
	buf_release(&d->changes);
}

/* ---- around the run loop --------------------------------------------- */

/* Runs this invocation means to execute (for the ETA). */
size_t session_count_todo(struct runctx *rc)
{
	const struct plan *p = rc->p;
	const uint32_t *first = NULL;
	size_t i, n = 0;
	int f, ok;
	for (i = 0; i < rc->s.nruns; i++) {
		const uint32_t *lv = matrix_cell(&rc->m, rc->s.runs[i].cell);
		if (!runctx_run_todo(rc, i) || !runctx_only_match(rc, lv))
			continue;
		ok = 1;
		if (!rc->interactive) {
			if (!first)
				first = lv;
			for (f = 0; f < p->nfactors; f++)
				if (p->factors[f].manual && lv[f] != first[f])
					ok = 0;
		}
		n += ok;
		if (ok)
			rc->est_todo += exec_run_seconds(p, lv);
	}
	return n;
}

int session_run(struct runctx *rc)
{
	size_t i, left = 0;
	int r;
	store_session_set_status(rc->st, rc->session_id, "running", 0, NULL);
	proc_install_signal_handlers();
	r = runloop_execute(rc);
	sizing_finish(rc);
	for (i = 0; i < rc->s.nruns; i++)
		left += !runctx_run_done(rc->status[i]);
	store_session_set_status(rc->st, rc->session_id,
				 rc->interrupted ? "interrupted"
				 : left		 ? "incomplete"
						 : "done",
				 !rc->interrupted && !left, NULL);
	return r;
}
