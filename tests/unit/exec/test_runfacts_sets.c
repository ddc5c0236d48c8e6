/* The fact set each run names (runner/exec/runfacts.c, issue 34 Deliver
 * 1), on a hand-built run context over a store of its own: a run names a
 * set for its client and for its server; a verify that read a fact
 * (probe:nic.mtu) makes a set holding that value as nic_mtu, also when
 * the set in effect did not hold the key at all, and a verify whose probe
 * failed ("(no such device)") makes none; after two apply hooks on one
 * host the set read again names the hook that ran last, and an apply
 * hook's re-read reads the root qdisc too; a host lost during the
 * re-read keeps the set in effect (what it read is not its facts). The sets in
 * effect were stored by hand with values this machine's interface cannot have,
 * so each re-read value is told from them; the re-read qdisc is compared with
 * what `tc -j qdisc show dev lo` says (its "kind"), read here with
 * python3.
 *
 * SPDX-License-Identifier: MIT
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "facts.h"
#include "host.h"
#include "host_int.h"
#include "runctx.h"
#include "sched_fixture.h"
#include "sql_fixture.h"
#include "store.h"
#include "tap.h"

static char dir[] = "/tmp/xrun-test-runfacts-XXXXXX";
static char db[160];

/* The first column of the rows of sql, ";" between. */
static const char *q(const char *sql)
{
	static struct buf out = BUF_INIT;
	sql_rows(db, sql, &out);
	return out.s;
}

/* The set in effect on host name for a run of cell lv: its id, or 0. */
static int64_t set_of(struct runctx *rc, const uint32_t *lv, const char *name)
{
	const struct store_run_fact *out;
	size_t n = runfacts_of_run(rc, lv, &out);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(out[i].host, name))
			return out[i].set_id;
	return 0;
}

static void test_verify(struct runctx *rc, const uint32_t *lv)
{
	const struct store_run_fact *out;
	struct fact fl[2] = {{"nic_mtu", "1500"}, {"kernel", "6.1"}};
	struct fact fs[1] = {{"kernel", "6.1"}};
	struct store_verification v = {"a",    "local", "probe:nic.mtu",
				       "9000", "9000",	1};
	struct store_verification bad = {
	    "a", "local", "probe:nic.mtu", "1400", "(no such device)", 0};
	size_t n;
	char sql[200];
	int64_t s;
	runfacts_opened(rc, 0, fl, 2, NULL);
	runfacts_opened(rc, 1, fs, 1, NULL);
	n = runfacts_of_run(rc, lv, &out);
	is_int((int)n, 2, "a run names two sets: client's and server's");
	is_str(n == 2 ? out[1].host : "", "srv", "the second is the server's");
	is_int((int)set_of(rc, lv, "srv"), 2, "the server's: set 2");

	/* a failed probe reads nothing */
	runfacts_settle(rc, lv, &bad, 1);
	is_int((int)set_of(rc, lv, "local"), 1,
	       "a failed verify probe makes no set: set 1 still");
	is_str(q("SELECT count(*) FROM fact_sets"), "2", "2 sets stored");

	/* a verify read of nic.mtu: the run's nic_mtu */
	runfacts_settle(rc, lv, &v, 1);
	s = set_of(rc, lv, "local");
	is_int((int)s, 3, "verify read 9000 where the set says 1500: set 3");
	snprintf(sql, sizeof sql,
		 "SELECT cause || ' ' || factor || '=' || level FROM "
		 "fact_sets WHERE id = %lld",
		 (long long)s);
	is_str(q(sql), "verify a=y", "set 3: caused by factor a's verify");
	snprintf(sql, sizeof sql,
		 "SELECT key || '=' || value FROM fact_values WHERE set_id = "
		 "%lld ORDER BY key",
		 (long long)s);
	is_str(q(sql), "kernel=6.1;nic_mtu=9000",
	       "set 3: nic_mtu 9000, the kernel kept");

	/* the server's set held no nic_mtu: the verify adds it */
	v.host = "srv";
	runfacts_settle(rc, lv, &v, 1);
	s = set_of(rc, lv, "srv");
	is_int((int)s, 4, "verify read a key the set lacked: set 4");
	snprintf(sql, sizeof sql,
		 "SELECT key || '=' || value FROM fact_values WHERE set_id = "
		 "%lld ORDER BY key",
		 (long long)s);
	is_str(q(sql), "kernel=6.1;nic_mtu=9000", "set 4: nic_mtu added");
}

/* The root qdisc of lo as tc says, python3 reading its JSON. */
static void tc_kind(char *out, size_t n)
{
	FILE *p = popen("tc -j qdisc show dev lo | python3 -c 'import json, "
			"sys; print([q[\"kind\"] for q in json.load(sys.stdin) "
			"if q.get(\"root\")][0])'",
			"r");
	out[0] = '\0';
	if (p) {
		if (fgets(out, (int)n, p))
			out[strcspn(out, "\n")] = '\0';
		pclose(p);
	}
}

static void test_reread(struct runctx *rc, const uint32_t *lv)
{
	struct fact f[3] = {
	    {"nic_mtu", "1"}, {"qdisc_root", "tbf 1"}, {"kernel", "k0"}};
	struct xr_err err = {0};
	char kind[64], sql[200], want[300];
	int64_t s;
	if (host_open(&rc->p->hosts[0], dir, &rc->hosts[0], &err) < 0) {
		ok(0, "open this machine: %s", err.msg);
		return;
	}
	tc_kind(kind, sizeof kind);
	runfacts_opened(rc, 0, f, 3, NULL);
	s = set_of(rc, lv, "local");
	is_int((int)s, 5, "this machine's own set, as given: set 5");
	/* factor a's hook, then factor b's, on this machine */
	runfacts_touch(rc, 0, 0, 0, lv[0]);
	runfacts_touch(rc, 0, 0, 1, lv[1]);
	runfacts_settle(rc, lv, NULL, 0);
	s = set_of(rc, lv, "local");
	is_int((int)s, 6, "read again after the hooks: set 6");
	snprintf(sql, sizeof sql,
		 "SELECT cause || ' ' || factor || '=' || level FROM "
		 "fact_sets WHERE id = %lld",
		 (long long)s);
	is_str(q(sql), "apply b=v", "set 6: the hook that ran last (b=v)");
	snprintf(sql, sizeof sql,
		 "SELECT value FROM fact_values WHERE set_id = %lld AND key = "
		 "'qdisc_root'",
		 (long long)s);
	snprintf(want, sizeof want, "%s", kind);
	ok(kind[0] && !strncmp(q(sql), want, strlen(want)),
	   "set 6: lo's root qdisc read again: '%s' (tc: %s)", q(sql), kind);
	snprintf(sql, sizeof sql,
		 "SELECT value FROM fact_values WHERE set_id = %lld AND key = "
		 "'kernel'",
		 (long long)s);
	is_str(q(sql), "k0", "set 6: the kernel not read again (no reboot)");
	/* the host lost during the re-read: its set in effect stays */
	runfacts_opened(rc, 0, f, 3, NULL);
	is_int((int)set_of(rc, lv, "local"), 7,
	       "the given values again: set 7");
	host_mark_down(rc->hosts[0], "test: lost");
	runfacts_touch(rc, 0, 0, 0, lv[0]);
	runfacts_settle(rc, lv, NULL, 0);
	is_int((int)set_of(rc, lv, "local"), 7,
	       "read from a host lost meanwhile: set 7 still");
	is_str(q("SELECT count(*) FROM fact_sets"), "7", "no set 8 stored");
	host_close(rc->hosts[0]);
	rc->hosts[0] = NULL;
}

int main(void)
{
	struct plan *p = fx_plan();
	struct store *st = NULL;
	struct xr_err err = {0};
	struct runctx rc;
	struct host *hosts[2] = {NULL, NULL};
	char need[2] = {1, 1};
	uint32_t lv[2] = {1, 1};
	int64_t plan_id, sid;
	tap_plan(18);
	if (!mkdtemp(dir))
		return 1;
	snprintf(db, sizeof db, "%s/r.db", dir);
	p->hosts[0].iface = "lo";
	p->hosts[1].name = "srv";
	p->nhosts = 2;
	fx_factor(p, "a", "x,y");
	fx_factor(p, "b", "u,v");
	if (store_open(db, STORE_CREATE | STORE_LOCK, &st, &err) < 0 ||
	    store_plan_put(st, "p", NULL, "p.yaml", "h", "text", &plan_id,
			   &err) < 0 ||
	    store_session_create(st, plan_id, "c", "{}", "[]", &sid, &err) < 0)
		return printf("Bail out! store: %s\n", err.msg), 1;
	memset(&rc, 0, sizeof rc);
	rc.p = p;
	rc.st = st;
	rc.session_id = sid;
	rc.hosts = hosts;
	rc.need = need;
	rc.client_hi = 0;
	rc.server_hi = 1;
	if (runfacts_init(&rc) < 0)
		return printf("Bail out! runfacts_init\n"), 1;
	test_verify(&rc, lv);
	test_reread(&rc, lv);
	runfacts_release(&rc);
	store_close(st);
	{
		char cmd[160];
		snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
		if (system(cmd) != 0)
			ok(0, "cleanup");
	}
	fx_free(p);
	return tap_done();
}
