/*
 * Shards in the store (schema/store.md, "shards"): the manifest each
 * shard's session records (K, N, the whole plan's unit assignment, the
 * blocks it runs, its testbed), the merge's refusals of shards that cannot
 * form one night (two sessions of one shard, another N, a shard beside an
 * unsharded session of the same plan, assignments that disagree) and the
 * completeness check merge and status print (the shards and blocks
 * missing, runs of present shards not done). The assignment is kept in
 * every shard's row so that a missing shard's blocks can be named without
 * the plan, and so that shards cut by two xrun versions that balance
 * differently are caught rather than merged with holes or doubles.
 *
 * SPDX-License-Identifier: MIT
 */
#include "store.h"

#include <jansson.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "store_int.h"
#include "strv.h"
#include "banned.h"

int store_shard_put(struct store *st, int64_t session_id,
		    const struct store_shard *sh, struct xr_err *err)
{
	sqlite3_stmt *s;
	int r;
	if ((r = store_prep(st,
			    "INSERT INTO shards(session_id, k, n, units, "
			    "assign, blocks, testbed) VALUES(?, ?, ?, ?, ?, "
			    "?, ?)",
			    &s, err)) < 0)
		return r;
	sqlite3_bind_int64(s, 1, session_id);
	sqlite3_bind_int64(s, 2, sh->k);
	sqlite3_bind_int64(s, 3, sh->n);
	sqlite3_bind_int64(s, 4, sh->nunits);
	sqlite3_bind_text(s, 5, sh->assign, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 6, sh->blocks, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 7, sh->testbed, -1, SQLITE_TRANSIENT);
	return store_step_done(st, s, "storing the shard", err);
}

int store_shard_of(struct store *st, int64_t session_id, uint32_t *k,
		   uint32_t *n, struct xr_err *err)
{
	sqlite3_stmt *s;
	int r, rc;
	*k = *n = 0;
	if (!store_has_shards(st))
		return 0;
	if ((r = store_prep(st, "SELECT k, n FROM shards WHERE session_id = ?",
			    &s, err)) < 0)
		return r;
	sqlite3_bind_int64(s, 1, session_id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*k = (uint32_t)sqlite3_column_int64(s, 0);
		*n = (uint32_t)sqlite3_column_int64(s, 1);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_db_fail(st, err, "reading the shard");
	return rc == SQLITE_ROW;
}

/* ---- the merge's refusals --------------------------------------------- */

/* One row of a refusal query: the message is built from its columns. */
static int refuse_if(struct store *st, const char *sql, const char *path,
		     const char *fmt, struct xr_err *err)
{
	sqlite3_stmt *s;
	int r, rc;
	if ((r = store_prep(st, sql, &s, err)) < 0)
		return r;
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		const char *a = (const char *)sqlite3_column_text(s, 0);
		const char *b = (const char *)sqlite3_column_text(s, 1);
		const char *c = (const char *)sqlite3_column_text(s, 2);
		r = xr_err_set(err, XR_EUSAGE, path, 0, 0, fmt, a ? a : "",
			       b ? b : "", c ? c : "");
	} else if (rc != SQLITE_DONE)
		r = store_db_fail(st, err, "checking the shards");
	sqlite3_finalize(s);
	return r;
}

/* Sessions of one plan matrix, both sharded: shards a and b. */
#define SHARD_PAIRS                                                            \
	"FROM main.shards a JOIN main.sessions sa ON sa.id = a.session_id "    \
	"JOIN main.shards b ON b.session_id > a.session_id JOIN "              \
	"main.sessions sb ON sb.id = b.session_id AND sb.cells_hash = "        \
	"sa.cells_hash "

int store_shard_merge_check(struct store *st, const char *path,
			    struct xr_err *err)
{
	int r;
	if ((r = refuse_if(
		 st,
		 "SELECT a.k || '/' || a.n, sa.id, sb.id " SHARD_PAIRS
		 "WHERE a.k = b.k AND a.n = b.n LIMIT 1",
		 path,
		 "shard %s is in the merged store twice (sessions %s and "
		 "%s): every block of a plan must run exactly once; merge "
		 "one of them (xrun merge --force keeps both)",
		 err)) < 0)
		return r;
	if ((r = refuse_if(st,
			   "SELECT a.k || '/' || a.n, b.k || '/' || b.n, "
			   "sb.id " SHARD_PAIRS "WHERE a.n <> b.n LIMIT 1",
			   path,
			   "shard %s and shard %s (session %s) divide the "
			   "plan into different numbers of shards: merge the "
			   "shards of one --shard K/N run",
			   err)) < 0)
		return r;
	if ((r = refuse_if(
		 st,
		 "SELECT a.k || '/' || a.n, b.k || '/' || b.n, "
		 "sb.id " SHARD_PAIRS
		 "WHERE a.n = b.n AND a.assign <> b.assign LIMIT 1",
		 path,
		 "shard %s and shard %s (session %s) assign the plan's "
		 "blocks differently (cut by different xrun versions?): "
		 "their blocks may be missing or run twice",
		 err)) < 0)
		return r;
	return refuse_if(
	    st,
	    "SELECT a.k || '/' || a.n, s.id, '' FROM main.shards a JOIN "
	    "main.sessions sa ON sa.id = a.session_id JOIN main.sessions s ON "
	    "s.cells_hash = sa.cells_hash AND NOT EXISTS (SELECT 1 FROM "
	    "main.shards x WHERE x.session_id = s.id) LIMIT 1",
	    path,
	    "shard %s and session %s (the whole plan, not sharded) would run "
	    "its blocks twice: merge the shards of one --shard run, or the "
	    "whole session (xrun merge --force keeps both)%s",
	    err);
}

/* ---- completeness ------------------------------------------------------ */

/* One sharded plan matrix: which shards are in and what they hold. */
struct group {
	char cells[65];
	uint32_t n;
	json_t *assign; /* [[block, shard], ...] of one of its shards */
	char *have;	/* [n + 1]: shard k present */
	struct buf in;	/* "1/3 (session 4, testbed t)" ... */
};

/* What shard k (1-based) runs in the assignment ([block, pass0, npass,
 * shard] a unit), worded as shard_describe (runner/sched/shard.c) does:
 * "block 0 passes 1-2, block 3". */
static void store_shard_units(json_t *assign, uint32_t k, struct buf *out)
{
	size_t i;
	json_t *u;
	json_array_foreach(assign, i, u)
	{
		long long b = json_integer_value(json_array_get(u, 0));
		long long p0 = json_integer_value(json_array_get(u, 1));
		long long np = json_integer_value(json_array_get(u, 2));
		if (json_integer_value(json_array_get(u, 3)) != (long long)k)
			continue;
		buf_addf(out, "%sblock %lld", out->len ? ", " : "", b);
		if (np == 1)
			buf_addf(out, " pass %lld", p0 + 1);
		else if (np > 1)
			buf_addf(out, " passes %lld-%lld", p0 + 1, p0 + np);
	}
}

static int group_say(struct group *g, struct strv *present,
		     struct strv *missing)
{
	struct buf b = BUF_INIT, miss = BUF_INIT;
	uint32_t k;
	int r = 0, gaps = 0;
	for (k = 1; k <= g->n; k++) {
		if (g->have[k])
			continue;
		buf_reset(&b);
		store_shard_units(g->assign, k, &b);
		buf_addf(&miss, "%s%u/%u (%s)", miss.len ? "; " : "", k, g->n,
			 b.len ? b.s : "nothing");
		gaps++;
	}
	if (present && strv_pushf(present, "shards of matrix %.12s: %s",
				  g->cells, g->in.s ? g->in.s : "") < 0)
		r = -XR_ENOMEM;
	if (gaps && missing &&
	    strv_pushf(missing, "shard%s missing (matrix %.12s): %s",
		       gaps == 1 ? "" : "s", g->cells, miss.s) < 0)
		r = -XR_ENOMEM;
	buf_release(&b);
	buf_release(&miss);
	return r < 0 ? r : gaps;
}

static void group_release(struct group *g)
{
	json_decref(g->assign);
	free(g->have);
	buf_release(&g->in);
	memset(g, 0, sizeof *g);
}

/* The runs of a shard's session not done: pending or cut short, with or
 * without a row (a schedule's rows come as the session reaches them). A
 * session merged by an xrun that did not copy its schedule: its rows. */
#define NOT_DONE                                                               \
	"COALESCE((SELECT runs FROM schedules WHERE session_id = s.id), "      \
	"(SELECT count(*) FROM runs WHERE session_id = s.id AND position >= "  \
	"0)) - "                                                               \
	"(SELECT count(*) FROM runs WHERE session_id = s.id AND status IN "    \
	"('ok', 'failed', 'timeout', 'skipped'))"

int store_shards_check(struct store *st, struct strv *present,
		       struct strv *missing, struct xr_err *err)
{
	sqlite3_stmt *s;
	struct group g;
	int r, rc, gaps = 0;
	memset(&g, 0, sizeof g);
	if (!store_has_shards(st))
		return 0;
	if ((r = store_prep(st,
			    "SELECT s.cells_hash, sh.n, sh.k, s.id, sh.assign, "
			    "sh.testbed, " NOT_DONE " FROM shards sh JOIN "
			    "sessions s ON s.id = sh.session_id ORDER BY "
			    "s.cells_hash, sh.n, sh.k, s.id",
			    &s, err)) < 0)
		return r;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *cells = (const char *)sqlite3_column_text(s, 0);
		uint32_t n = (uint32_t)sqlite3_column_int64(s, 1);
		uint32_t k = (uint32_t)sqlite3_column_int64(s, 2);
		int64_t left = sqlite3_column_int64(s, 6);
		if (!g.have || strcmp(g.cells, cells ? cells : "") ||
		    g.n != n) {
			if (g.have && (r = group_say(&g, present, missing)) < 0)
				break;
			gaps += g.have ? r : 0;
			group_release(&g);
			snprintf(g.cells, sizeof g.cells, "%s",
				 cells ? cells : "");
			g.n = n;
			g.assign = json_loads(
			    (const char *)sqlite3_column_text(s, 4), 0, NULL);
			if (!(g.have = calloc((size_t)n + 1, 1))) {
				r = -XR_ENOMEM;
				break;
			}
		}
		if (k >= 1 && k <= n)
			g.have[k] = 1;
		buf_addf(&g.in, "%s%u/%u (session %lld, testbed %s)",
			 g.in.len ? ", " : "", k, n,
			 (long long)sqlite3_column_int64(s, 3),
			 (const char *)sqlite3_column_text(s, 5));
		if (left > 0 && missing &&
		    strv_pushf(missing,
			       "shard %u/%u (session %lld): %lld run%s not "
			       "done; resume it on its testbed and merge "
			       "the shards into a new store (a merged "
			       "session is not updated)",
			       k, n, (long long)sqlite3_column_int64(s, 3),
			       (long long)left, left == 1 ? "" : "s") < 0) {
			r = -XR_ENOMEM;
			break;
		}
		gaps += left > 0;
	}
	if (r >= 0 && rc != SQLITE_DONE && rc != SQLITE_ROW)
		r = store_db_fail(st, err, "reading the shards");
	else if (r >= 0 && g.have && (r = group_say(&g, present, missing)) >= 0)
		gaps += r;
	group_release(&g);
	sqlite3_finalize(s);
	if (r == -XR_ENOMEM)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	return r < 0 ? r : gaps;
}
