/* The engine's version among a host's facts (issue 39: the engine row
 * says its version command, runner/desc engine_cond.c; runner/exec
 * hostset.c and runfacts.c read it), on a hand-built run context over a
 * store of its own, this machine the host:
 *  - an iperf3 plan's host, when opened, stores iperf3_version, the first
 *    line `iperf3 --version` prints (read here through sh and head, not
 *    xrun's reader), in host_facts and in the run's fact set, once;
 *  - an apply hook's re-read reads it again without keeping the old one
 *    beside it: a second re-read where nothing changed stores no new set
 *    (the set in effect stays the one the host was opened with);
 *  - a command plan's host stores no iperf3_version (its engine has no
 *    version command), though iperf3 is installed.
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
#include "runctx.h"
#include "sched_fixture.h"
#include "sql_fixture.h"
#include "store.h"
#include "tap.h"

static char dir[] = "/tmp/xrun-test-engver-XXXXXX";
static char db[200];

/* The first column of the rows of sql, ";" between. */
static const char *q(const char *sql)
{
	static struct buf out = BUF_INIT;
	sql_rows(db, sql, &out);
	return out.s;
}

/* What `iperf3 --version` prints first, read by sh and head. */
static void iperf3_first_line(char *out, size_t n)
{
	FILE *p = popen("iperf3 --version 2>/dev/null | head -n 1", "r");
	out[0] = '\0';
	if (p) {
		if (fgets(out, (int)n, p))
			out[strcspn(out, "\n")] = '\0';
		pclose(p);
	}
}

/* A run context for plan p over a new store file NAME.db in dir; its
 * hosts not yet open (hostset_get opens them). */
static int ctx(struct runctx *rc, struct plan *p, const char *name,
	       struct store **st, struct host **hosts, char *need)
{
	struct xr_err err = {0};
	int64_t plan_id, sid;
	snprintf(db, sizeof db, "%s/%s.db", dir, name);
	if (store_open(db, STORE_CREATE | STORE_LOCK, st, &err) < 0 ||
	    store_plan_put(*st, name, NULL, "p.yaml", "h", "text", &plan_id,
			   &err) < 0 ||
	    store_session_create(*st, plan_id, "c", "{}", "[]", &sid, &err) <
		0) {
		printf("# store: %s\n", err.msg);
		return -1;
	}
	memset(rc, 0, sizeof *rc);
	rc->p = p;
	rc->st = *st;
	rc->session_id = sid;
	rc->hosts = hosts;
	rc->need = need;
	rc->client_hi = 0;
	rc->server_hi = -1;
	snprintf(rc->tmpdir, sizeof rc->tmpdir, "%s", dir);
	return runfacts_init(rc);
}

static void done(struct runctx *rc, struct store *st)
{
	runfacts_release(rc);
	host_close(rc->hosts[0]);
	rc->hosts[0] = NULL;
	store_close(st);
}

static void test_iperf3(const char *want)
{
	struct plan *p = fx_plan(); /* engine iperf3, host local */
	struct store *st = NULL;
	struct host *hosts[1] = {NULL};
	char need[1] = {1};
	uint32_t lv[1] = {0};
	struct runctx rc;
	struct xr_err err = {0};
	fx_factor(p, "a", "x");
	if (ctx(&rc, p, "iperf3", &st, hosts, need) < 0) {
		ok(0, "iperf3 plan: a run context");
		fx_free(p);
		return;
	}
	is_int(hostset_get(&rc, 0, &err), 0, "this machine opened");
	is_str(q("SELECT value FROM host_facts WHERE key = 'iperf3_version'"),
	       want, "host_facts: iperf3_version is iperf3 --version's line");
	is_str(q("SELECT count(*) FROM fact_sets"), "1",
	       "one fact set when the host was opened");
	is_str(q("SELECT value FROM fact_values WHERE key = 'iperf3_version'"),
	       want, "the set holds iperf3_version once, the same line");

	/* factor a's apply hook, twice; nothing changes on this machine */
	runfacts_touch(&rc, 0, 0, 0, lv[0]);
	runfacts_settle(&rc, lv, NULL, 0);
	is_str(q("SELECT count(*) FROM fact_sets"), "1",
	       "read again after a hook, the same values: no new set");
	runfacts_touch(&rc, 0, 0, 0, lv[0]);
	runfacts_settle(&rc, lv, NULL, 0);
	is_str(q("SELECT count(*) FROM fact_sets"), "1",
	       "read again after a second hook: still set 1");
	is_str(q("SELECT count(*) FROM fact_values WHERE key = "
		 "'iperf3_version'"),
	       "1", "iperf3_version stored once");
	done(&rc, st);
	fx_free(p);
}

static void test_command(void)
{
	struct plan *p = fx_plan();
	struct store *st = NULL;
	struct host *hosts[1] = {NULL};
	char need[1] = {1};
	struct runctx rc;
	struct xr_err err = {0};
	p->engine.type = "command";
	fx_factor(p, "a", "x");
	if (ctx(&rc, p, "command", &st, hosts, need) < 0) {
		ok(0, "command plan: a run context");
		fx_free(p);
		return;
	}
	is_int(hostset_get(&rc, 0, &err), 0, "this machine opened");
	is_str(q("SELECT count(*) FROM host_facts WHERE key = 'kernel'"), "1",
	       "command plan: the host's facts read (kernel)");
	is_str(q("SELECT count(*) FROM host_facts WHERE key = "
		 "'iperf3_version'"),
	       "0", "command plan: no iperf3_version in host_facts");
	is_str(q("SELECT count(*) FROM fact_values WHERE key = "
		 "'iperf3_version'"),
	       "0", "command plan: none in its fact set");
	done(&rc, st);
	fx_free(p);
}

int main(void)
{
	char want[256], cmd[200];
	if (system("command -v iperf3 >/dev/null 2>&1") != 0)
		tap_skip_all("iperf3 is not installed");
	iperf3_first_line(want, sizeof want);
	if (!mkdtemp(dir))
		return 1;
	tap_plan(12);
	ok(!strncmp(want, "iperf 3.", 8), "iperf3 --version: '%s'", want);
	test_iperf3(want);
	test_command();
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		printf("# cleanup of %s failed\n", dir);
	return tap_done();
}
