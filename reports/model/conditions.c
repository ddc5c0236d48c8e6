/*
 * The conditions a report's runs really ran under, with or without a
 * reference: the engine's observed settings (the congestion control the
 * sender used even when it was the kernel's default, the engine's version,
 * protocol, direction, duration, streams, MSS), the engine, the MTU the
 * nic.mtu probe read on each host, and the load average of the machine
 * running xrun (flagged controller_loaded on the cells where it exceeded
 * the CPU count). One row per condition with each value and how many runs
 * had it, and the cells in which it varied. Also each session's plan hash,
 * start and hosts, for a store merged from several machines.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "buf.h"
#include "engine_cond.h"
#include "model_flag.h"
#include "model_loader.h"
#include "store.h"
#include "banned.h"

/* The conditions shown, in this order, with their names; keys of the
 * store's conditions reader. "mtu@" is a prefix (one row per host);
 * "version" names the engine that observed it (runner/desc engine_label:
 * "iperf3 version"). */
static const struct cond_key {
	const char *key;
	const char *name[REPORT_LANG_COUNT];
} cond_keys[] = {
    {"engine", {"engine", "負荷エンジン"}},
    {"version", {"%s version", "%s のバージョン"}},
    {"protocol", {"protocol", "プロトコル"}},
    {"direction", {"direction", "方向"}},
    {"test_duration", {"duration (s)", "測定時間（秒）"}},
    {"parallel", {"streams", "ストリーム数"}},
    {"congestion", {"congestion control (sender)", "輻輳制御（送信側）"}},
    {"receiver_congestion",
     {"congestion control (receiver)", "輻輳制御（受信側）"}},
    {"mtu@", {"MTU on %s", "MTU（%s）"}},
    {"mss", {"TCP MSS (B)", "TCP MSS（B）"}},
};
#define NKEYS (sizeof cond_keys / sizeof cond_keys[0])

static int key_rank(const char *key)
{
	size_t i;
	for (i = 0; i < NKEYS; i++)
		if (!strcmp(cond_keys[i].key, key) ||
		    (!strcmp(cond_keys[i].key, "mtu@") &&
		     !strncmp(key, "mtu@", 4)))
			return (int)i;
	return -1;
}

struct cond_scan {
	struct loader *l;
	struct report_condition *c; /* growing r->conds */
	int n, cap;
	int *vcap;	  /* per condition: capacity of values */
	int *last_cell;	  /* per condition: cell of its last row */
	int *cell_values; /* per condition: values seen in that cell */
};

/* key's condition, made on its first row, seen in cell ci. */
static struct report_condition *cond_get(struct cond_scan *s, const char *key,
					 int ci)
{
	struct loader *l = s->l;
	struct report_condition *c;
	int rank = key_rank(key), i;
	for (i = 0; i < s->n; i++)
		if (!strcmp(s->c[i].key, key))
			return &s->c[i];
	if (rank < 0)
		return NULL;
	if (s->n == s->cap) {
		int cap = s->cap ? 2 * s->cap : 16;
		void *t = realloc(s->c, (size_t)cap * sizeof *s->c);
		int *u = realloc(s->vcap, (size_t)cap * sizeof *u);
		int *v =
		    u ? realloc(s->last_cell, (size_t)cap * sizeof *v) : NULL;
		int *w =
		    v ? realloc(s->cell_values, (size_t)cap * sizeof *w) : NULL;
		if (t)
			s->c = t;
		if (u)
			s->vcap = u;
		if (v)
			s->last_cell = v;
		if (w)
			s->cell_values = w;
		if (!t || !u || !v || !w)
			return NULL;
		s->cap = cap;
	}
	c = &s->c[s->n];
	memset(c, 0, sizeof *c);
	c->key = arena_strdup(l->m.a, key);
	if (!strncmp(key, "mtu@", 4))
		c->name = arena_printf(
		    l->m.a, cond_keys[rank].name[l->m.r->about.lang], key + 4);
	else if (!strcmp(key, "version"))
		c->name = arena_printf(l->m.a,
				       cond_keys[rank].name[l->m.r->about.lang],
				       engine_label(l->m.r->cells[ci].engine));
	else
		c->name = cond_keys[rank].name[l->m.r->about.lang];
	s->vcap[s->n] = 0;
	s->last_cell[s->n] = -1;
	s->cell_values[s->n] = 0;
	s->n++;
	return c;
}

static int value_add(struct cond_scan *s, struct report_condition *c,
		     const char *value, int runs)
{
	int i, k = (int)(c - s->c);
	for (i = 0; i < c->nvalues; i++)
		if (!strcmp(c->values[i].value, value)) {
			c->values[i].runs += runs;
			return 0;
		}
	if (c->nvalues == s->vcap[k]) {
		int cap = s->vcap[k] ? 2 * s->vcap[k] : 4;
		struct report_cond_value *t =
		    arena_alloc(s->l->m.a, (size_t)cap * sizeof *t);
		if (!t)
			return -XR_ENOMEM;
		if (c->nvalues)
			memcpy(t, c->values, (size_t)c->nvalues * sizeof *t);
		c->values = t;
		s->vcap[k] = cap;
	}
	c->values[c->nvalues].value = arena_strdup(s->l->m.a, value);
	c->values[c->nvalues].runs = runs;
	c->nvalues++;
	return 0;
}

/* A cell in which the condition took a second value: listed once. */
static int varies_add(struct loader *l, struct report_condition *c, int ci)
{
	const char **t =
	    arena_alloc(l->m.a, (size_t)(c->nvaries + 1) * sizeof *t);
	if (!t)
		return -XR_ENOMEM;
	if (c->nvaries)
		memcpy(t, c->varies, (size_t)c->nvaries * sizeof *t);
	t[c->nvaries++] = l->m.r->cells[ci].label;
	c->varies = t;
	return 0;
}

/* Rows come ordered by key, cell, value. */
static int cond_row(void *ctx, const struct store_condition_row *row)
{
	struct cond_scan *s = ctx;
	struct report_condition *c;
	int ci, k;
	if (!row->cell || !row->key || !row->value)
		return 0;
	ci = loader_cell_find(s->l, row->cell);
	if (ci < 0 || key_rank(row->key) < 0)
		return 0;
	if (!(c = cond_get(s, row->key, ci)) ||
	    value_add(s, c, row->value, (int)row->count) < 0)
		return loader_oom(s->l);
	k = (int)(c - s->c);
	if (s->last_cell[k] != ci) {
		s->last_cell[k] = ci;
		s->cell_values[k] = 0;
	}
	if (++s->cell_values[k] == 2 && varies_add(s->l, c, ci) < 0)
		return loader_oom(s->l);
	return 0;
}

/* The engine of the ok runs, counted per cell and engine, fed to cond_row
 * in the store's order (cell JSON text, then engine, as SQLite's binary
 * collation orders them) from the runs the loader read: a GROUP BY over
 * every run in SQL was a tenth of the report of 100,000 runs
 * (bench/RESULTS.md). */
struct eng_count {
	int cell;
	size_t next; /* 1 + the cell's next entry, 0 none */
	const char *engine;
	int64_t n;
};

static const struct report_cell *eng_cells;

static int eng_cmp(const void *a, const void *b)
{
	const struct eng_count *x = a, *y = b;
	int c = x->cell == y->cell
		    ? 0
		    : strcmp(eng_cells[x->cell].json, eng_cells[y->cell].json);
	return c ? c : strcmp(x->engine, y->engine);
}

static int conditions_engine_rows(struct cond_scan *s)
{
	struct loader *l = s->l;
	struct eng_count *e = NULL;
	size_t *head = calloc((size_t)l->m.r->ncells + 1, sizeof *head);
	size_t n = 0, cap = 0, i;
	int rc = 0;
	if (!head)
		return loader_oom(l);
	/* head[cell]: 1 + its first entry; a cell has one engine or few */
	for (int ri = 0; ri < l->m.nruns; ri++) {
		const struct mrun *u = &l->m.runs[ri];
		size_t k;
		if (u->status != RUN_OK || !u->engine)
			continue;
		for (k = head[u->cell]; k > 0; k = e[k - 1].next)
			if (!strcmp(e[k - 1].engine, u->engine))
				break;
		if (k > 0) {
			e[k - 1].n++;
			continue;
		}
		if (n == cap) {
			size_t c = cap ? 2 * cap : 256;
			struct eng_count *t = realloc(e, c * sizeof *t);
			if (!t) {
				rc = loader_oom(l);
				goto out;
			}
			e = t;
			cap = c;
		}
		e[n].cell = u->cell;
		e[n].next = head[u->cell];
		e[n].engine = u->engine;
		e[n++].n = 1;
		head[u->cell] = n;
	}
	eng_cells = l->m.r->cells;
	if (n > 1)
		qsort(e, n, sizeof *e, eng_cmp);
	eng_cells = NULL;
	for (i = 0; i < n && rc == 0; i++) {
		struct store_condition_row row;
		row.cell = l->m.r->cells[e[i].cell].json;
		row.key = "engine";
		row.value = e[i].engine;
		row.count = e[i].n;
		rc = cond_row(s, &row);
	}
out:
	free(e);
	free(head);
	return rc;
}

static int cond_cmp(const void *a, const void *b)
{
	const struct report_condition *x = a, *y = b;
	int rx = key_rank(x->key), ry = key_rank(y->key);
	if (rx != ry)
		return rx < ry ? -1 : 1;
	return strcmp(x->key, y->key);
}

/* The load over every cell, one condition row; the flag on the cells
 * where a run ended with the load above the CPU count. */
struct load_scan {
	struct loader *l;
	struct report_condition c;
	int any;
};

static int load_row(void *ctx, const struct store_load_row *row)
{
	struct load_scan *s = ctx;
	struct loader *l = s->l;
	int ci = row->cell ? loader_cell_find(l, row->cell) : -1;
	if (ci < 0 || isnan(row->load_max))
		return 0;
	if (!s->any || row->load_min < s->c.load_min)
		s->c.load_min = row->load_min;
	if (!s->any || row->load_max > s->c.load_max)
		s->c.load_max = row->load_max;
	if (row->cpus > s->c.cpus)
		s->c.cpus = row->cpus;
	s->c.over += (int)row->over;
	s->c.nruns += (int)row->nruns;
	s->any = 1;
	if (row->over > 0)
		model_flag(
		    &l->m, l->m.r->cells[ci].flags, &l->m.r->cells[ci].nflags,
		    REPORT_FLAG_CONTROLLER_LOADED,
		    MODEL_JA(&l->m) ? "ロードアベレージ %.2f（CPU %d 個）"
				    : "load average %.2f on %d CPUs",
		    row->load_max, row->cpus);
	return 0;
}

static int conds_finish(struct cond_scan *s, const struct load_scan *ls)
{
	struct report *r = s->l->m.r;
	int n = s->n + (ls->any ? 1 : 0);
	if (s->n)
		qsort(s->c, (size_t)s->n, sizeof *s->c, cond_cmp);
	r->conds =
	    arena_alloc(s->l->m.a, (size_t)(n ? n : 1) * sizeof *r->conds);
	if (!r->conds)
		return -XR_ENOMEM;
	if (s->n)
		memcpy(r->conds, s->c, (size_t)s->n * sizeof *s->c);
	if (ls->any) {
		struct report_condition *c = &r->conds[s->n];
		*c = ls->c;
		c->key = "controller_load";
		c->name = MODEL_JA(&s->l->m)
			      ? "xrun 実行マシンの負荷（1 分平均）"
			      : "load of the machine running xrun (1 min)";
		c->is_load = 1;
	}
	r->nconds = n;
	return 0;
}

/* An ok run whose stdout passed the output cap: flag its cell. */
static int cut_row(void *ctx, const struct store_cut_row *row)
{
	struct loader *l = ctx;
	struct report_cell *c;
	int ci = row->cell ? loader_cell_find(l, row->cell) : -1;
	if (ci < 0)
		return 0;
	c = &l->m.r->cells[ci];
	if (MODEL_JA(&l->m))
		model_flag(&l->m, c->flags, &c->nflags, REPORT_FLAG_OUTPUT_CUT,
			   "%lld 回の試行、上限 %lld MiB",
			   (long long)row->nruns, (long long)(row->cap >> 20));
	else
		model_flag(&l->m, c->flags, &c->nflags, REPORT_FLAG_OUTPUT_CUT,
			   "%lld run%s, cap %lld MiB", (long long)row->nruns,
			   row->nruns == 1 ? "" : "s",
			   (long long)(row->cap >> 20));
	return 0;
}

int loader_conditions(struct loader *l, struct xr_err *err)
{
	struct report *r = l->m.r;
	struct cond_scan s;
	struct load_scan ls;
	int rc;
	memset(&s, 0, sizeof s);
	memset(&ls, 0, sizeof ls);
	s.l = ls.l = l;
	rc =
	    store_conditions_each(l->st, r->span.sessions,
				  (size_t)r->span.nsessions, cond_row, &s, err);
	if (rc == 0)
		rc = conditions_engine_rows(&s);
	if (rc == 0)
		rc = store_loads_each(l->st, r->span.sessions,
				      (size_t)r->span.nsessions, load_row, &ls,
				      err);
	if (rc == 0)
		rc =
		    store_cuts_each(l->st, r->span.sessions,
				    (size_t)r->span.nsessions, cut_row, l, err);
	if (rc == 0 && conds_finish(&s, &ls) < 0)
		rc = loader_oom(l);
	free(s.c);
	free(s.vcap);
	free(s.last_cell);
	free(s.cell_values);
	return rc;
}

/* --- sessions: plan hash, start, hosts ---------------------------------- */

struct session_scan {
	struct loader *l;
	struct report_session *out;
};

static int conditions_session_info_row(void *ctx,
				       const struct store_session_row *row)
{
	struct session_scan *s = ctx;
	struct report *r = s->l->m.r;
	int i;
	for (i = 0; i < r->span.nsessions; i++)
		if (r->span.sessions[i] == row->id) {
			s->out[i].plan_hash =
			    arena_strdup(s->l->m.a, row->plan_hash);
			s->out[i].started_at = row->started_at;
			if (row->testbed)
				s->out[i].testbed =
				    arena_strdup(s->l->m.a, row->testbed);
		}
	return 0;
}

int loader_session_info(struct loader *l, struct xr_err *err)
{
	struct report *r = l->m.r;
	struct report_session *out;
	struct session_scan s;
	struct buf b = BUF_INIT;
	int i, k, rc;
	out = arena_alloc(l->m.a,
			  (size_t)(r->span.nsessions ? r->span.nsessions : 1) *
			      sizeof *out);
	if (!out)
		return loader_oom(l);
	memset(out, 0,
	       (size_t)(r->span.nsessions ? r->span.nsessions : 1) *
		   sizeof *out);
	s.l = l;
	s.out = out;
	for (i = 0; i < r->span.nsessions; i++) {
		out[i].id = r->span.sessions[i];
		out[i].started_at = NAN;
	}
	if ((rc = store_sessions_each(l->st, conditions_session_info_row, &s,
				      err)) < 0)
		return rc;
	/* Hosts from the facts (ordered by host, key, session). */
	for (i = 0; i < r->span.nsessions; i++) {
		buf_reset(&b);
		for (k = 0; k < r->nfacts; k++) {
			const struct report_fact *f = &r->facts[k];
			if (f->session != r->span.sessions[i] ||
			    strcmp(f->key, "hostname") || !f->value)
				continue;
			buf_addf(&b, "%s%s: %s", b.len ? ", " : "", f->host,
				 f->value);
		}
		out[i].hosts = arena_strdup(l->m.a, b.len ? b.s : "");
	}
	buf_release(&b);
	r->span.session_info = out;
	return 0;
}
