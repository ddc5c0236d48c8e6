/* Unit tests for the fact sets (store_facts.c, schema version 13): a set
 * stored and named by runs reads back per run (store_run_facts_each,
 * store_facts_of_run) and per session (store_fact_sets_each); a redone
 * run replaces its sets; a version 11 store's host_facts migrate to one
 * set per session and host holding each key's value stored last (the
 * highest rowid), its runs naming none and reading that set; xrun merge
 * copies sets under new ids with the runs naming them. Every expected
 * string is written out here from the rows the test stores.
 *
 * SPDX-License-Identifier: MIT
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "engine.h"
#include "facts.h"
#include "store.h"
#include "strv.h"
#include "sql_fixture.h"
#include "tap.h"

static char dir[] = "/tmp/xrun-test-facts-XXXXXX";

static int q_exec(const char *path, const char *sql)
{
	sqlite3 *db = NULL;
	int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
	sqlite3_close(db);
	return rc;
}

/* A plan, a session and n pending runs (ids 1..n). */
static int64_t make_runs(struct store *st, int n)
{
	struct xr_err err = {0};
	int64_t plan_id, sid, ids[4];
	struct store_pending rows[4] = {0};
	store_plan_put(st, "p", NULL, "p.yaml", "h", "text", &plan_id, &err);
	store_session_create(st, plan_id, "c", "{}", "[]", &sid, &err);
	for (int k = 0; k < n; k++) {
		rows[k].position = (uint32_t)k;
		rows[k].rep = 1;
		rows[k].cell = "{}";
	}
	store_begin(st, &err);
	store_runs_pending_make(st, sid, rows, (size_t)n, ids, &err);
	store_commit(st, &err);
	return sid;
}

static void finish(struct store *st, int64_t run, const char *host, int64_t set)
{
	struct engine_result res = {0};
	struct store_run_record rec = {0};
	struct store_run_fact f = {host, set};
	struct xr_err err = {0};
	res.status = RUN_OK;
	rec.res = &res;
	rec.facts = &f;
	rec.nfacts = 1;
	store_run_start(st, run, 1.0, &err);
	ok(store_run_finish(st, run, &rec, &err) == 0, "run %lld stored",
	   (long long)run);
}

struct acc {
	struct buf b;
};

static int see_value(void *ctx, const struct store_run_value *v)
{
	struct acc *a = ctx;
	buf_addf(&a->b, "%s%s %s=%s (%s %s)", a->b.len ? "; " : "", v->host,
		 v->key, v->value, v->cause, v->factor ? v->factor : "-");
	return 0;
}

static int see_link(void *ctx, const struct store_run_fact_row *r)
{
	struct acc *a = ctx;
	buf_addf(&a->b, "%s%lld %s %lld", a->b.len ? "; " : "",
		 (long long)r->run_id, r->host, (long long)r->set_id);
	return 0;
}

static int see_set(void *ctx, const struct store_fact_set_row *r)
{
	struct acc *a = ctx;
	buf_addf(&a->b, "%s%lld %s %s %s=%s", a->b.len ? "; " : "",
		 (long long)r->set_id, r->host, r->cause, r->key ? r->key : "",
		 r->value ? r->value : "");
	return 0;
}

static const char *of_run(struct store *st, int64_t run, struct acc *a)
{
	struct xr_err err = {0};
	buf_reset(&a->b);
	store_facts_of_run(st, run, see_value, a, &err);
	return a->b.s ? a->b.s : "";
}

static void test_round_trip(const char *path)
{
	struct store *st = NULL;
	struct xr_err err = {0};
	struct acc a = {BUF_INIT};
	struct fact f1[2] = {{"nic_mtu", "1500"}, {"qdisc_root", "tbf 2e8"}};
	struct fact f2[2] = {{"nic_mtu", "9000"}, {"qdisc_root", "tbf 2e8"}};
	int64_t sid, s1, s2, ses;
	unlink(path);
	is_int(store_open(path, STORE_CREATE | STORE_LOCK, &st, &err), 0,
	       "open");
	sid = make_runs(st, 3);
	is_int(store_fact_set_put(st, sid, "client", "open", NULL, NULL, f1, 2,
				  &s1, &err),
	       0, "set 1 stored");
	is_int(store_fact_set_put(st, sid, "client", "apply", "mtu", "9000", f2,
				  2, &s2, &err),
	       0, "set 2 stored");
	is_int((int)s1 * 10 + (int)s2, 12, "sets 1 and 2");
	finish(st, 1, "client", s1);
	finish(st, 2, "client", s2);
	finish(st, 3, "client", s2);
	is_str(of_run(st, 1, &a),
	       "client nic_mtu=1500 (open -); client qdisc_root=tbf 2e8 (open "
	       "-)",
	       "run 1: the set it named");
	is_str(of_run(st, 3, &a),
	       "client nic_mtu=9000 (apply mtu); client qdisc_root=tbf 2e8 "
	       "(apply mtu)",
	       "run 3: the set after the hook, with its factor");
	finish(st, 1, "client", s2); /* a redone run */
	is_str(of_run(st, 1, &a),
	       "client nic_mtu=9000 (apply mtu); client qdisc_root=tbf 2e8 "
	       "(apply mtu)",
	       "a redone run names the set of its redo");
	ses = sid;
	buf_reset(&a.b);
	store_run_facts_each(st, &ses, 1, see_link, &a, &err);
	is_str(a.b.s, "1 client 2; 2 client 2; 3 client 2",
	       "run facts of the session");
	buf_reset(&a.b);
	store_fact_sets_each(st, &ses, 1, see_set, &a, &err);
	is_str(a.b.s,
	       "1 client open nic_mtu=1500; 1 client open qdisc_root=tbf 2e8; "
	       "2 client apply nic_mtu=9000; 2 client apply qdisc_root=tbf "
	       "2e8",
	       "fact sets of the session, by set and key");
	store_close(st);
	buf_release(&a.b);
}

/* A version 11 store: host_facts with two values of nic_mtu for client
 * (the second stored later: higher rowid) and one for server. */
static void test_migrate(const char *path, const char *out)
{
	struct store *st = NULL;
	struct xr_err err = {0};
	struct acc a = {BUF_INIT};
	struct buf q = BUF_INIT;
	struct store_merge_stats ms = {0};
	const char *in[1];
	unlink(path);
	is_int(store_open(path, STORE_CREATE | STORE_LOCK, &st, &err), 0,
	       "open v12");
	make_runs(st, 1);
	finish(st, 1, "client", 0);
	store_close(st);
	ok(q_exec(path,
		  "DROP TABLE run_facts; DROP TABLE fact_values; DROP TABLE "
		  "fact_sets; INSERT INTO host_facts VALUES(1, 'client', "
		  "'nic_mtu', '9000'); INSERT INTO host_facts VALUES(1, "
		  "'client', 'nic_mtu', '1500'); INSERT INTO host_facts "
		  "VALUES(1, 'server', 'kernel', '6.1'); PRAGMA user_version = "
		  "12") == SQLITE_OK,
	   "made a version 12 store");
	is_int(store_open(path, STORE_READONLY, &st, &err), 0,
	       "read-only (v12)");
	is_str(of_run(st, 1, &a), "", "v12 read as it is: no fact sets");
	store_close(st);
	is_int(store_open(path, STORE_LOCK, &st, &err), 0, "migrate");
	sql_rows(path, "PRAGMA user_version", &q);
	is_str(q.s, "13", "version 13");
	is_str(of_run(st, 1, &a),
	       "client nic_mtu=1500 (migrated -); server kernel=6.1 "
	       "(migrated -)",
	       "a run of a migrated session reads its session's set: the "
	       "value stored last (1500)");
	sql_rows(path, "SELECT count(*) FROM run_facts", &q);
	is_str(q.s, "0", "migration names no set for old runs");
	store_close(st);
	/* merge it into a store that already has a set (ids move) */
	unlink(out);
	is_int(store_open(out, STORE_CREATE | STORE_LOCK, &st, &err), 0,
	       "open the output");
	{
		struct fact f[1] = {{"nic_mtu", "65536"}};
		int64_t sid = make_runs(st, 1), s;
		store_fact_set_put(st, sid, "local", "open", NULL, NULL, f, 1,
				   &s, &err);
		finish(st, 1, "local", s);
	}
	in[0] = path;
	q_exec(path, "INSERT INTO run_facts VALUES(1, 'client', 1)");
	is_int(store_merge(st, in, 1, 1, &ms, &err), 0, "merge");
	is_str(of_run(st, 2, &a), "client nic_mtu=1500 (migrated -)",
	       "the merged run reads the set it names");
	store_close(st);
	sql_rows(
	    out,
	    "SELECT f.run_id || ' ' || f.host || ' ' || f.set_id || ' ' || "
	    "s.session_id FROM run_facts f JOIN fact_sets s ON s.id = "
	    "f.set_id ORDER BY f.run_id",
	    &q);
	is_str(q.s, "1 local 1 1;2 client 2 2",
	       "merged: the run names its set under the set's new id (2)");
	strv_release(&ms.warnings);
	buf_release(&q);
	buf_release(&a.b);
}

int main(void)
{
	char a[128], b[128], c[128];
	tap_plan(27);
	if (!mkdtemp(dir))
		return 1;
	snprintf(a, sizeof a, "%s/a.db", dir);
	snprintf(b, sizeof b, "%s/b.db", dir);
	snprintf(c, sizeof c, "%s/c.db", dir);
	test_round_trip(a);
	test_migrate(b, c);
	{
		char cmd[160];
		snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
		if (system(cmd) != 0)
			ok(0, "cleanup");
	}
	return tap_done();
}
